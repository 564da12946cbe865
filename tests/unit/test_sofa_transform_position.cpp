// SOFA's TransformPosition between a grid and the MechanicalObject: each method's mesh.transform
// operations, applied to the point (1, 2, 3), against the point transformed by hand as
// TransformPosition::doUpdate transforms it; the transform files read as SOFA's readers read them;
// what is not supported is one error naming the field.
#include <gtest/gtest.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "eis/io/sofa_import.hpp"
#include "eis/io/sofa_scene.hpp"
#include "eis/mesh/mesh_transform.hpp"
#include "error_of.hpp"

namespace {

namespace fs = std::filesystem;
using eis_test::errorOf;
using Point = std::array<double, 3>;

const std::string kGrid = "<RegularGridTopology name='g' n='2 2 2' min='0 0 0' max='1 1 1'/>";

// The scene's folder, holding `file` with `text` when a name is given.
std::string folder(const std::string& file = "", const std::string& text = "") {
  const fs::path f = fs::path(testing::TempDir()) / "eis_transform_position";
  fs::create_directories(f);
  if (!file.empty()) std::ofstream(f / file) << text;
  return f.string();
}

// The mesh.transform keys of a body whose node holds `objects` (a grid, the engine 'e' and a
// MechanicalObject of its output_position when not given), in order.
std::vector<std::string> transforms(const std::string& engine, const std::string& objects = "",
                                    const std::string& sceneFolder = folder()) {
  eis::SofaImportOptions options;
  options.sceneFolder = sceneFolder;
  const std::string body =
      objects.empty() ? kGrid + engine + "<MechanicalObject position='@e.output_position'/>"
                      : objects;
  const std::string text = "<Node><Node name='b'><EulerImplicitSolver/><CGLinearSolver/>" + body +
                           "<UniformMass totalMass='1'/><HexahedronFEMForceField/></Node></Node>";
  const eis::SofaImport imported = eis::importSofaScene(eis::SofaScene(text, "s.scn"), options);
  std::vector<std::string> out;
  for (const eis::SofaKey& k : imported.objects.at(0).keys)
    if (k.key == "mesh.transform") out.push_back(k.value);
  return out;
}

// (1, 2, 3) moved by the operations, in order, as the mesh's points are.
Point moved(const std::vector<std::string>& operations, Point p = {1, 2, 3}) {
  std::vector<Point> points = {p};
  for (const std::string& o : operations)
    eis::applyMeshTransform(eis::parseMeshTransform("mesh.transform", o), points);
  return points[0];
}

std::string engine(const std::string& fields) {
  return "<TransformPosition name='e' input_position='@g.position' " + fields + "/>";
}

void expectNear(const Point& got, const Point& want) {
  for (int c = 0; c < 3; ++c) EXPECT_NEAR(got[c], want[c], 1e-15) << "component " << c;
}

TEST(SofaTransformPosition, TurnsByEulerAnglesInDegrees) {
  // A quarter turn about x: (x, y, z) -> (x, -z, y); about y: (z, y, -x); about z: (-y, x, z).
  expectNear(moved(transforms(engine("method='rotation' rotation='90 0 0'"))), {1, -3, 2});
  expectNear(moved(transforms(engine("method='rotation' rotation='0 90 0'"))), {3, 2, -1});
  expectNear(moved(transforms(engine("method='rotation' rotation='0 0 90'"))), {-2, 1, 3});
  // About x first, then z (Quat::createQuaterFromEuler's ZYX order): (1, -3, 2), then (3, 1, 2).
  expectNear(moved(transforms(engine("method='rotation' rotation='90 0 90'"))), {3, 1, 2});
}

TEST(SofaTransformPosition, TranslatesAndScales) {
  EXPECT_EQ(moved(transforms(engine("method='translation' translation='1 -2 0.5'"))),
            (Point{2, 0, 3.5}));
  // scale: origin + (x - origin) * scale.
  EXPECT_EQ(moved(transforms(engine("method='scale' scale='2 3 4' origin='1 1 1'"))),
            (Point{1, 4, 9}));
  EXPECT_EQ(moved(transforms(engine("method='scale' scale='2 3 4'"))), (Point{2, 6, 12}));
  // scaleTranslation: x * scale + translation, about no origin.
  EXPECT_EQ(moved(transforms(engine("method='scaleTranslation' scale='2 3 4' "
                                    "translation='1 0 -1' origin='5 5 5'"))),
            (Point{3, 6, 11}));
  // scaleRotationTranslation: (2, 2, 3), a quarter turn about z (-2, 2, 3), then + (10, 0, 0).
  expectNear(moved(transforms(engine("method='scaleRotationTranslation' scale='2 1 1' "
                                     "rotation='0 0 90' translation='10 0 0'"))),
             {8, 2, 3});
  // Neutral values move nothing.
  EXPECT_TRUE(transforms(engine("method='scaleRotationTranslation'")).empty());
}

TEST(SofaTransformPosition, TakesSofasAliasesOfItsPositions) {
  EXPECT_EQ(moved(transforms("", kGrid + "<TransformPosition name='e' method='translation' "
                                         "translation='1 1 1' inputPosition='@g.position'/>"
                                         "<MechanicalObject position='@e.outputPosition'/>")),
            (Point{2, 3, 4}));
}

// x' = (-y + 5, x + 6, 2 z + 7): (1, 2, 3) -> (3, 7, 13).
const Point kAffine = {3, 7, 13};

TEST(SofaTransformPosition, AppliesAnAffineMatrix) {
  EXPECT_EQ(
      moved(transforms(engine("method='affine' matrix='0 -1 0 5  1 0 0 6  0 0 2 7  0 0 0 1'"))),
      kAffine);
  EXPECT_TRUE(transforms(engine("method='affine'")).empty());  // the identity
}

// The file `name` holding `text`, read by method fromFile: (1, 2, 3) moved.
Point fromFile(const std::string& name, const std::string& text) {
  return moved(
      transforms(engine("method='fromFile' filename='" + name + "'"), "", folder(name, text)));
}

TEST(SofaTransformPosition, ReadsTransformFilesAsSofaDoes) {
  // .tfm: the line holding "Parameters", the 3 x 3 matrix row by row, then the translation read
  // from the last number back (SOFA's getTransfoFromTfm): 7 6 5 is (5, 6, 7).
  EXPECT_EQ(fromFile("a.tfm",
                     "#Insight Transform File V1.0\n#Transform 0\n"
                     "Transform: AffineTransform_double_3_3\n"
                     "Parameters: 0 -1 0 1 0 0 0 0 2 7 6 5\nFixedParameters: 1 1 1\n"),
            kAffine);
  // .trm: the translation, then the rows; empty lines skipped.
  EXPECT_EQ(fromFile("a.trm", "5 6 7\n\n0 -1 0\n1 0 0\n0 0 2"), kAffine);
  // .xfm and .txt: the 4 x 4 matrix row by row; rows not given are the identity's.
  EXPECT_EQ(fromFile("a.xfm", "0 -1 0 5\n1 0 0 6\n0 0 2 7\n0 0 0 1\n"), kAffine);
  EXPECT_EQ(fromFile("a.txt", "0 -1 0 5\n1 0 0 6\n0 0 2 7\n"), kAffine);
  // SOFA's example transfo.tfm: (x, y, z) -> (x, -z + 2, y).
  EXPECT_EQ(fromFile("b.tfm", "Parameters: 1 0 0 0 0 -1 0 1 0 0 2 0\n"), (Point{1, -1, 2}));
}

std::string fileError(const std::string& name, const std::string& text) {
  return errorOf([&] { fromFile(name, text); });
}

TEST(SofaTransformPosition, RefusesWhatSofaCannotReadOrWeDoNotRun) {
  const auto refuses = [](const std::string& error, const std::string& part) {
    EXPECT_NE(error.find(part), std::string::npos) << part << " in: " << error;
  };
  refuses(fileError("c.tfm", "x\nParameters: 1 0 0 0 1 0 0 0 1 0 0\n"),
          "c.tfm:2: 11 numbers; expected 12");
  refuses(fileError("c.tfm", "Transform: none\n"), "c.tfm: no line holds 'Parameters'");
  refuses(fileError("c.trm", "0 0 0\n1 0 0\n0 1 0\n0 0 1\n0 0 0\n"), "c.trm:5: more than 4 lines");
  refuses(fileError("c.trm", "0 0\n"), "c.trm:1: 2 words; expected a line of 3 numbers");
  refuses(fileError("c.xfm", "1 0 0 0\n0 1 x 0\n"), "c.xfm:2: 'x' is not a finite number");
  refuses(fileError("c.xfm", "1\t0\t0\t0\n"), "c.xfm:1: 1 words; expected a line of 4 numbers");
  refuses(fileError("c.xfm", "1 0 0 0\n0 1 0 0\n0 0 1 0\n0 0 1 1\n"),
          "a fourth row other than 0 0 0 1");
  refuses(fileError("c.mat", "1 0 0 0\n"), "SOFA reads only .tfm, .trm, .xfm and .txt");
  refuses(errorOf([&] { transforms(engine("method='fromFile' filename='none.tfm'")); }),
          "filename = 'none.tfm': no such file");
  refuses(errorOf([&] { transforms(engine("method='shear'")); }), "method = 'shear': unknown");
  refuses(errorOf([&] { transforms(engine("method='random' seedValue='3'")); }),
          "method = 'random': random: SOFA draws a point's three displacements");
  refuses(errorOf([&] { transforms(engine("")); }), "projectOnPlane (SOFA's default)");
  refuses(errorOf([&] { transforms(engine("method='translation' fixedIndices='0 3'")); }),
          "fixedIndices = '0 3': points left in place");
  refuses(errorOf([&] { transforms(engine("method='translation' shift='1 0 0'")); }), "shift");
  // The engine moves the points of the grid whose cells are the body's, and none other.
  refuses(errorOf([&] {
            transforms("", kGrid + "<RegularGridTopology name='h' n='3 3 3'/>" +
                               "<TransformPosition name='e' method='translation' "
                               "input_position='@h.position'/>"
                               "<MechanicalObject position='@e.output_position'/>");
          }),
          "TransformPosition: moves the position of RegularGridTopology 'h'");
}

}  // namespace
