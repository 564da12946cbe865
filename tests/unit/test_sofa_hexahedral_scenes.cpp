// SOFA scenes on a RegularGridTopology's hexahedra: DiagonalMass and MeshMatrixMass (lumped,
// consistent), HexahedronFEMForceFieldAndMass (its stiffness and element mass, lumpedMass),
// HexahedralFEMForceField(AndMass), MeshSpringForceField's cubes springs, PlaneForceField and
// SphereForceField, as the keys they map to; and the per-kind spring fields that are not the
// mesh's cells, and bad obstacles, refused by name.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "eis/io/sofa_import.hpp"
#include "eis/io/sofa_scene.hpp"
#include "error_of.hpp"

namespace {

using Keys = std::map<std::string, std::string>;

// The keys of a body on a 3 x 2 x 2 grid whose node holds `components`.
Keys importOnGrid(const std::string& components) {
  const std::string text =
      "<Node><Node name='b'><EulerImplicitSolver/><CGLinearSolver/>"
      "<RegularGridTopology name='g' n='3 2 2' min='0 0 0' max='2 1 1'/><MechanicalObject/>"
      "<UniformMass totalMass='1'/>" +
      components + "</Node></Node>";
  const eis::SofaImport imported = eis::importSofaScene(eis::SofaScene(text, "h.scn"), {});
  Keys keys;
  for (const eis::SofaKey& k : imported.objects.at(0).keys) keys[k.key] = k.value;
  return keys;
}

const std::string kHexFem = "<HexahedronFEMForceField youngModulus='300' poissonRatio='0.3'/>";

TEST(SofaHexahedralScenes, MeshMassesReadTheGridsHexahedra) {
  const Keys diagonal = importOnGrid(kHexFem + "<DiagonalMass massDensity='2'/>");
  EXPECT_EQ(diagonal.at("mesh.hexahedra"), "0 1 4 3 6 7 10 9 1 2 5 4 7 8 11 10");
  EXPECT_EQ(diagonal.count("mesh.tetrahedra"), 0u);
  EXPECT_EQ(diagonal.at("mass.type"), "lumped");
  EXPECT_EQ(diagonal.at("material.density"), "2");
  const Keys matrix = importOnGrid("<MeshMatrixMass totalMass='4'/>" + kHexFem);
  EXPECT_EQ(matrix.at("mass.type"), "consistent");
  EXPECT_EQ(matrix.at("mass.total-mass"), "4");
  EXPECT_EQ(importOnGrid(kHexFem + "<MeshMatrixMass lumping='true'/>").at("mass.type"), "lumped");
  // A mass alone on the grid keeps its hexahedra too.
  EXPECT_EQ(importOnGrid("<DiagonalMass/>").count("mesh.hexahedra"), 1u);
}

// A HexahedronSetTopologyContainer that takes the grid's hexahedra (src, or a link to them)
// holds them in the grid's order: the hexahedral components on it read the grid's cells (SOFA's
// HexahedronForceFieldTopologyChangeHandling.scn, whose TopologicalChangeProcessor edits it).
// One that holds other hexahedra is refused.
TEST(SofaHexahedralScenes, ADynamicContainerOfTheGridsHexahedra) {
  const std::string fields =
      "<HexahedralFEMForceField youngModulus='300'/><DiagonalMass massDensity='2'/>";
  for (const std::string container :
       {"<HexahedronSetTopologyContainer name='c' src='@g'/>",
        "<HexahedronSetTopologyContainer name='c' hexahedra='@g.hexahedra'/>"}) {
    SCOPED_TRACE(container);
    const Keys keys = importOnGrid(container + fields);
    EXPECT_EQ(keys.at("mesh.hexahedra"), "0 1 4 3 6 7 10 9 1 2 5 4 7 8 11 10");
    EXPECT_EQ(keys.at("material.hexahedron-element"), "hexahedral-fem");
    EXPECT_EQ(keys.at("mass.type"), "lumped");
  }
  EXPECT_NE(
      eis_test::errorOf([&] {
        importOnGrid("<HexahedronSetTopologyContainer name='c' hexahedra='0 1 4 3 6 7 10 9'/>" +
                     fields);
      }).find("is not RegularGridTopology 'g'"),
      std::string::npos);
}

TEST(SofaHexahedralScenes, HexahedronFemForceFieldAndMass) {
  const Keys full = importOnGrid(
      "<HexahedronFEMForceFieldAndMass youngModulus='300' poissonRatio='0.3' method='polar' "
      "density='3'/>");
  EXPECT_EQ(full.count("mesh.hexahedra"), 1u);
  EXPECT_EQ(full.at("material.model"), "corotational");
  EXPECT_EQ(full.at("material.rotation"), "polar");
  EXPECT_EQ(full.at("mass.type"), "hexahedron-fem");
  EXPECT_EQ(full.at("material.density"), "3");
  const Keys lumped = importOnGrid("<HexahedronFEMForceFieldAndMass lumpedMass='true'/>");
  EXPECT_EQ(lumped.at("mass.type"), "hexahedron-fem-lumped");
  EXPECT_EQ(lumped.at("material.density"), "1");
  EXPECT_NE(eis_test::errorOf([] {
              importOnGrid("<HexahedronFEMForceFieldAndMass massMatrices='1 2'/>");
            }).find("massMatrices"),
            std::string::npos);
}

TEST(SofaHexahedralScenes, CubesSprings) {
  const Keys cubes =
      importOnGrid(kHexFem + "<MeshSpringForceField cubesStiffness='5' cubesDamping='0.5'/>");
  EXPECT_EQ(cubes.count("mesh.hexahedra"), 1u);
  EXPECT_EQ(cubes.at("springs.stiffness"), "5");
  EXPECT_EQ(cubes.at("springs.damping"), "0.5");
  EXPECT_EQ(importOnGrid("<MeshSpringForceField stiffness='7'/>").at("springs.stiffness"), "7");
  const auto refused = [](const std::string& springs) {
    return eis_test::errorOf([&] { importOnGrid(kHexFem + springs); });
  };
  // A grid's lines are its edges and, of each face, the diagonal from its smallest vertex (its
  // triangles'); its quads give the edges and both diagonals; it has no tetrahedra.
  const Keys lines = importOnGrid("<MeshSpringForceField linesStiffness='10'/>");
  EXPECT_EQ(lines.at("springs.stiffness-by-kind"), "10 10 0");
  EXPECT_EQ(lines.at("springs.damping-by-kind"), "0 0 0");
  EXPECT_EQ(lines.at("springs.face-diagonals"), "first");
  const Keys quads = importOnGrid("<MeshSpringForceField quadsStiffness='5'/>");
  EXPECT_EQ(quads.at("springs.stiffness-by-kind"), "5 5 0");
  EXPECT_EQ(quads.count("springs.face-diagonals"), 0u);
  // Without its triangles (computeTriangleList false) a grid's lines are its edges alone.
  const eis::SofaImport edgesOnly = eis::importSofaScene(
      eis::SofaScene(
          "<Node><Node name='b'><EulerImplicitSolver/><CGLinearSolver/>"
          "<RegularGridTopology n='3 2 2' computeTriangleList='0'/><MechanicalObject/><UniformMass totalMass='1'/>"
          "<MeshSpringForceField linesStiffness='10'/></Node></Node>",
          "e.scn"),
      {});
  Keys edgeKeys;
  for (const eis::SofaKey& k : edgesOnly.objects.at(0).keys) edgeKeys[k.key] = k.value;
  EXPECT_EQ(edgeKeys.at("springs.stiffness-by-kind"), "10 0 0");
  EXPECT_EQ(edgeKeys.count("springs.face-diagonals"), 0u);
  EXPECT_EQ(
      importOnGrid("<MeshSpringForceField tetrahedraStiffness='5'/>").count("springs.stiffness"),
      0u);
  EXPECT_NE(refused("<MeshSpringForceField linesStiffness='3' quadsStiffness='4'/>")
                .find("two diagonals"),
            std::string::npos);
  // The alias and a kind's own field both given: SOFA's Base::parse reads the attributes in the
  // order of their names, so the later name writes last (stiffness after cubesStiffness).
  const Keys both = importOnGrid("<MeshSpringForceField stiffness='1' cubesStiffness='5'/>");
  EXPECT_EQ(both.at("springs.stiffness"), "1");
  // On tetrahedra the tetrahedra's field is ours.
  const std::string text =
      "<Node><Node name='b'><EulerImplicitSolver/><CGLinearSolver/>"
      "<MechanicalObject position='0 0 0 1 0 0 0 1 0 0 0 1'/><UniformMass totalMass='1'/>"
      "<TetrahedronSetTopologyContainer tetrahedra='0 1 2 3'/><TetrahedronFEMForceField/>"
      "<MeshSpringForceField tetrahedraStiffness='4'/></Node></Node>";
  const eis::SofaImport tets = eis::importSofaScene(eis::SofaScene(text, "t.scn"), {});
  std::string stiffness;
  for (const eis::SofaKey& k : tets.objects.at(0).keys)
    if (k.key == "springs.stiffness") stiffness = k.value;
  EXPECT_EQ(stiffness, "4");
  // Beside the alias, the tetrahedra's own value: the alias gives the mesh's lines (its edges)
  // theirs first, so SOFA would not use it; refused.
  const std::string aliased =
      "<Node><Node name='b'><EulerImplicitSolver/><CGLinearSolver/>"
      "<MechanicalObject position='0 0 0 1 0 0 0 1 0 0 0 1'/><UniformMass totalMass='1'/>"
      "<TetrahedronSetTopologyContainer tetrahedra='0 1 2 3'/><TetrahedronFEMForceField/>"
      "<MeshSpringForceField stiffness='2' tetrahedraStiffness='4'/></Node></Node>";
  EXPECT_NE(eis_test::errorOf([&] {
              eis::importSofaScene(eis::SofaScene(aliased, "t.scn"), {});
            }).find("give one"),
            std::string::npos);
}

// HexahedralFEMForceField: its own element (material.hexahedron-element), corotational large or
// polar on the grid's hexahedra; the AndMass form with HexahedronFEMForceFieldAndMass's mass.
TEST(SofaHexahedralScenes, HexahedralFemForceField) {
  const Keys large =
      importOnGrid("<HexahedralFEMForceField youngModulus='100' poissonRatio='0.3'/>");
  EXPECT_EQ(large.count("mesh.hexahedra"), 1u);
  EXPECT_EQ(large.at("material.hexahedron-element"), "hexahedral-fem");
  EXPECT_EQ(large.at("material.model"), "corotational");
  EXPECT_EQ(large.at("material.rotation"), "large");
  EXPECT_EQ(large.at("material.young-modulus"), "100");
  EXPECT_EQ(large.at("material.poisson-ratio"), "0.3");
  EXPECT_EQ(large.at("mass.type"), "uniform");  // importOnGrid's UniformMass: none of its own
  const Keys defaults = importOnGrid("<HexahedralFEMForceField method='polar'/>");
  EXPECT_EQ(defaults.at("material.rotation"), "polar");
  EXPECT_EQ(defaults.at("material.young-modulus"), "5000");
  EXPECT_EQ(defaults.at("material.poisson-ratio"), "0.45");
  const Keys mass = importOnGrid("<HexahedralFEMForceFieldAndMass density='2'/>");
  EXPECT_EQ(mass.at("material.hexahedron-element"), "hexahedral-fem");
  EXPECT_EQ(mass.at("mass.type"), "hexahedron-fem");
  EXPECT_EQ(mass.at("material.density"), "2");
  EXPECT_EQ(importOnGrid("<HexahedralFEMForceFieldAndMass lumpedMass='1'/>").at("mass.type"),
            "hexahedron-fem-lumped");
  const auto refused = [](const std::string& field) {
    return eis_test::errorOf([&] { importOnGrid(field); });
  };
  EXPECT_NE(refused("<HexahedralFEMForceField method='small'/>").find("expected large or polar"),
            std::string::npos);
  EXPECT_NE(
      refused("<HexahedralFEMForceField updateStiffnessMatrix='1'/>").find("updateStiffnessMatrix"),
      std::string::npos);
  EXPECT_NE(refused("<HexahedralFEMForceFieldAndMass totalMass='3'/>").find("totalMass"),
            std::string::npos);
  // With a direct solver SOFA would assemble the element's diagonal blocks only.
  const std::string direct =
      "<Node><Node name='b'><EulerImplicitSolver/><SparseLDLSolver/>"
      "<RegularGridTopology n='3 2 2' min='0 0 0' max='2 1 1'/><MechanicalObject/>"
      "<HexahedralFEMForceFieldAndMass/></Node></Node>";
  EXPECT_NE(eis_test::errorOf([&] {
              eis::importSofaScene(eis::SofaScene(direct, "d.scn"), {});
            }).find("diagonal 3x3 blocks"),
            std::string::npos);
}

// PlaneForceField and SphereForceField: SOFA's defaults (normal 0 1 0, d 0, center 0 0 0,
// radius 1, stiffness 500, damping 5, maxForce 0), one key each, repeated for each.
TEST(SofaHexahedralScenes, Obstacles) {
  const Keys plane = importOnGrid(kHexFem + "<PlaneForceField/>");
  EXPECT_EQ(plane.at("obstacle.plane"), "0 1 0 0 500 5 0");
  const Keys given =
      importOnGrid(kHexFem +
                   "<PlaneForceField normal='0 0.2 1' d='-4' stiffness='100' damping='1' "
                   "maxForce='7' bilateral='1'/>");
  EXPECT_EQ(given.at("obstacle.plane"), "0 0.2 1 -4 100 1 7 bilateral");
  EXPECT_EQ(importOnGrid(kHexFem + "<SphereForceField/>").at("obstacle.sphere"), "0 0 0 1 500 5");
  EXPECT_EQ(importOnGrid(kHexFem + "<SphereForceField center='1 2 3' radius='4' stiffness='10' "
                                   "damping='0'/>")
                .at("obstacle.sphere"),
            "1 2 3 4 10 0");
  const auto refused = [](const std::string& field) {
    return eis_test::errorOf([&] { importOnGrid(kHexFem + field); });
  };
  EXPECT_NE(refused("<PlaneForceField stiffness='-1'/>").find("stiffness = '-1'"),
            std::string::npos);
  EXPECT_NE(refused("<PlaneForceField normal='0 0 0'/>").find("the normal is zero"),
            std::string::npos);
  EXPECT_NE(refused("<PlaneForceField localRange='0 3'/>").find("localRange"), std::string::npos);
  EXPECT_NE(refused("<SphereForceField rayleighStiffness='0.1'/>").find("rayleighStiffness"),
            std::string::npos);
  EXPECT_NE(refused("<SphereForceField radius='-1'/>").find("radius"), std::string::npos);
  EXPECT_NE(refused("<PlaneForceField normalz='0 0 1'/>").find("normalz"), std::string::npos);
}

// RegularGridSpringForceField: 100 and 5 for lines, quads and cubes, or the scene's; an alias
// beside the field it aliases, and a body that is no grid, refused.
TEST(SofaHexahedralScenes, RegularGridSprings) {
  const Keys defaults = importOnGrid(kHexFem + "<RegularGridSpringForceField/>");
  EXPECT_EQ(defaults.count("mesh.hexahedra"), 1u);
  EXPECT_EQ(defaults.at("springs.stiffness-by-kind"), "100 100 100");
  EXPECT_EQ(defaults.at("springs.damping-by-kind"), "5 5 5");
  const Keys given = importOnGrid(
      "<RegularGridSpringForceField linesStiffness='10' quadsStiffness='20' cubesStiffness='30' "
      "damping='0'/>");
  EXPECT_EQ(given.at("springs.stiffness-by-kind"), "10 20 30");
  EXPECT_EQ(given.at("springs.damping-by-kind"), "0 0 0");
  EXPECT_NE(eis_test::errorOf([] {
              importOnGrid("<RegularGridSpringForceField stiffness='1' linesStiffness='2'/>");
            }).find("give one"),
            std::string::npos);
  const std::string text =
      "<Node><Node name='b'><EulerImplicitSolver/><CGLinearSolver/>"
      "<MechanicalObject position='0 0 0 1 0 0 0 1 0 0 0 1'/>"
      "<TetrahedronSetTopologyContainer tetrahedra='0 1 2 3'/><TetrahedronFEMForceField/>"
      "<RegularGridSpringForceField/></Node></Node>";
  EXPECT_NE(eis_test::errorOf([&] {
              eis::importSofaScene(eis::SofaScene(text, "t.scn"), {});
            }).find("not such a grid"),
            std::string::npos);
}

}  // namespace
