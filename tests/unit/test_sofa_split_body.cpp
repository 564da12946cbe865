// SOFA's MeshSplittingEngine and a SubsetMultiMapping child read as a body (io/sofa_split_body,
// io/sofa_mesh_splitting): the points each region claims (MeshSplittingEngine.inl: its `indices`,
// the corners of its tetrahedra, a point past the mesh skipped) become the body's fixed points
// when the frames that hold them are fixed; the free points' UniformMass its vertex mass.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "eis/io/sofa_import.hpp"
#include "eis/io/sofa_scene.hpp"
#include "eis/mesh/mesh_file.hpp"
#include "error_of.hpp"

namespace {

using eis_test::errorOf;

// The beam split into two held parts (regions 1 and 2, both on the fixed frame) and the free
// rest; `engine` is the engine's regions.
std::string splitScene(const std::string& engine, const std::string& frameConstraint =
                                                      "<FixedProjectiveConstraint indices='0'/>") {
  return "<Node name='root'><MeshGmshLoader name='loader' filename='beam_v22_ascii.msh'/>"
         "<MeshTopology name='mesh' src='@loader'/>"
         "<MeshSplittingEngine name='split' src='@loader' nbInputs='2' " +
         engine +
         "/><Node name='rigid'><EulerImplicitSolver/><SparseLDLSolver/>"
         "<MechanicalObject template='Rigid3' position='0 0 0 0 0 0 1'/>"
         "<UniformMass totalMass='1'/>" +
         frameConstraint +
         "<Node name='a'><MechanicalObject position='@/split.position1'/><RigidMapping/></Node>"
         "<Node name='b'><MechanicalObject position='@/split.position2'/><RigidMapping/></Node>"
         "<Node name='free'><MechanicalObject position='@/split.position3'/>"
         "<UniformMass totalMass='3'/></Node>"
         "<Node name='whole'><MeshTopology name='mesh' src='@/mesh'/>"
         "<MechanicalObject src='@mesh'/><SubsetMultiMapping input='@../a @../b @../free' "
         "output='@./' indexPairs='@/split.indexPairs'/>"
         "<TetrahedronFEMForceField youngModulus='100'/></Node></Node></Node>";
}

std::map<std::string, std::string> bodyKeys(const std::string& text) {
  eis::SofaImportOptions options;
  options.sceneFolder = EIS_MESH_DIR;
  const eis::SofaImport imported = eis::importSofaScene(eis::SofaScene(text, "s.scn"), options);
  std::map<std::string, std::string> keys;
  for (const eis::SofaObjectKeys& object : imported.objects)
    if (object.path == "/rigid/whole")
      for (const eis::SofaKey& k : object.keys) keys[k.key] = k.value;
  return keys;
}

TEST(SofaSplitBody, RegionsHoldTheirPointsAndTheCornersOfTheirTetrahedra) {
  const eis::SerialMesh mesh = eis::readMeshFile(std::string(EIS_MESH_DIR) + "/beam_v22_ascii.msh");
  // Region 1: points 0, 1 and 5 (and 100000, past the mesh, skipped); region 2: tetrahedra 0 and
  // 7, whose corners region 1 may also claim.
  std::set<long long> held = {0, 1, 5};
  for (std::size_t t : {0, 7})
    for (int j = 0; j < 4; ++j) held.insert(mesh.cells[t][j]);
  const auto keys = bodyKeys(splitScene("indices1='0 1 5 100000' tetrahedronIndices2='0 7'"));
  std::string expected = "indices";
  for (long long i : held) expected += " " + std::to_string(i);
  EXPECT_EQ(keys.at("constraint.fixed"), expected);
  EXPECT_EQ(keys.at("mass.type"), "uniform");
  EXPECT_DOUBLE_EQ(std::stod(keys.at("mass.vertex-mass")),
                   3.0 / double(mesh.nodes.size() - held.size()));
  EXPECT_EQ(keys.count("initial.positions"), 0u);  // the frame at the origin, unturned
  EXPECT_EQ(keys.at("material.young-modulus"), "100");
}

TEST(SofaSplitBody, WhatIsNotReadSoIsRefused) {
  const std::string unknown =
      errorOf([] { bodyKeys(splitScene("indices1='0' tetrahedronIndices3='0'")); });
  EXPECT_NE(unknown.find("unknown data field 'tetrahedronIndices3' (with nbInputs = 2"),
            std::string::npos)
      << unknown;
  const std::string past = errorOf([] { bodyKeys(splitScene("tetrahedronIndices1='100000'")); });
  EXPECT_NE(past.find("tetrahedron 100000 of"), std::string::npos) << past;
  const std::string moving = errorOf(
      [] { bodyKeys(splitScene("indices1='0'", "<FixedProjectiveConstraint indices='1'/>")); });
  EXPECT_NE(moving.find("frames that may move"), std::string::npos) << moving;
  const std::string hexahedra = errorOf([] { bodyKeys(splitScene("hexahedronIndices1='0'")); });
  EXPECT_NE(hexahedra.find("only regions of points and tetrahedra are read"), std::string::npos)
      << hexahedra;
  const std::string part = errorOf([] {
    std::string text = splitScene("indices1='0'");
    text.replace(text.find("split.position3"), 15, "split.position4");
    bodyKeys(text);
  });
  EXPECT_NE(part.find("expected a position1 .. position3 of MeshSplittingEngine 'split'"),
            std::string::npos)
      << part;
  // The engine's outputs read elsewhere: a springs child's indexPairs between two bodies.
  const std::string springs = errorOf([] {
    bodyKeys(
        "<Node><MeshGmshLoader name='loader' filename='beam_v22_ascii.msh'/>"
        "<MeshSplittingEngine name='split' src='@loader' nbInputs='1' indices1='0'/>"
        "<EulerImplicitSolver/><SparseLDLSolver/>"
        "<Node name='a'><MechanicalObject position='0 0 0 1 0 0'/><UniformMass totalMass='1'/>"
        "</Node><Node name='b'><MechanicalObject position='0 1 0'/><UniformMass totalMass='1'/>"
        "</Node><Node name='c'><MechanicalObject/><SubsetMultiMapping input='@../a @../b' "
        "output='@./' indexPairs='@/split.indexPairs'/><EdgeSetTopologyContainer edges='0 1'/>"
        "<MeshSpringForceField stiffness='1'/></Node></Node>");
  });
  EXPECT_NE(springs.find("indexPairs reads MeshSplittingEngine 'split'"), std::string::npos)
      << springs;
  EXPECT_NE(springs.find("read only by a SubsetMultiMapping child that is a body of its own"),
            std::string::npos)
      << springs;
}

}  // namespace
