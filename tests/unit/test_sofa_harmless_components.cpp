// SOFA components that cannot change the simulated state are accepted: VisualMesh (a
// VisualModel that draws), WriteState (writes the state to a file) and
// ConstantSparsityPatternSystem in a solver's node above the states (how SOFA stores the assembled
// matrix). A scene with each gives the very keys, hence the very run, of the scene without it.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "eis/io/sofa_import.hpp"
#include "eis/io/sofa_scene.hpp"
#include "error_of.hpp"

namespace {

struct Imported {
  std::vector<std::vector<std::string>> keys;  // per body: key = value
  std::vector<std::string> notes;
};

Imported imported(const std::string& text) {
  eis::SofaImportOptions options;
  options.sceneFolder = EIS_MESH_DIR;
  const eis::SofaImport out = eis::importSofaScene(eis::SofaScene(text, "t.scn"), options);
  Imported result{{}, out.notes};
  for (const auto& object : out.objects) {
    result.keys.emplace_back();
    for (const eis::SofaKey& k : object.keys) result.keys.back().push_back(k.key + " = " + k.value);
  }
  return result;
}

// A fixed beam under an EulerImplicitSolver, `inside` in its node, in a child node of the
// solver's when `child` is set.
std::string beam(const std::string& inside, const std::string& solverNode = "",
                 bool child = false) {
  const std::string body =
      "<MeshGmshLoader name='l' filename='beam_v22_ascii.msh'/>"
      "<MechanicalObject name='dofs' src='@l'/><UniformMass totalMass='1'/>"
      "<TetrahedronFEMForceField youngModulus='1000' poissonRatio='0.3'/>"
      "<FixedProjectiveConstraint indices='0 1 2'/>" +
      inside;
  return "<Node name='root' dt='0.02'><Node name='solver'><EulerImplicitSolver/>"
         "<SparseLDLSolver/>" +
         solverNode + (child ? "<Node name='beam'>" + body + "</Node>" : body) + "</Node></Node>";
}

TEST(SofaHarmlessComponents, VisualMeshChangesNothing) {
  const Imported with = imported(beam("<VisualMesh position='@dofs.position'/>"));
  EXPECT_EQ(with.keys, imported(beam("")).keys);
}

TEST(SofaHarmlessComponents, WriteStateChangesNothing) {
  const Imported with = imported(
      beam("<WriteState filename='x.txt.gz' period='0.01' writeX='1' writeV='1' time='0'/>"));
  EXPECT_EQ(with.keys, imported(beam("")).keys);
  // With stopAt it reads the kinetic energy of its node's mass, and ends SOFA's run without one.
  EXPECT_EQ(imported(beam("<WriteState stopAt='1e-3'/>")).keys, imported(beam("")).keys);
  const std::string error = eis_test::errorOf([] {
    imported(
        "<Node><Node name='s'><EulerImplicitSolver/><CGLinearSolver/>"
        "<MeshGmshLoader name='l' filename='beam_v22_ascii.msh'/>"
        "<MechanicalObject src='@l'/><UniformMass totalMass='1'/>"
        "<Node name='w'><WriteState stopAt='1e-3'/></Node></Node></Node>");
  });
  EXPECT_NE(error.find("WriteState: stopAt in a node without a mass"), std::string::npos) << error;
}

TEST(SofaHarmlessComponents, ConstantSparsityPatternSystemAboveTheStates) {
  const Imported with =
      imported(beam("", "<ConstantSparsityPatternSystem name='A' checkIndices='false'/>", true));
  EXPECT_EQ(with.keys, imported(beam("", "", true)).keys);
  EXPECT_NE(with.keys, std::vector<std::vector<std::string>>{});
  const std::string error = eis_test::errorOf(
      [] { imported(beam("", "<ConstantSparsityPatternSystem assembleMass='false'/>", true)); });
  EXPECT_NE(error.find("assembleMass = 'false'"), std::string::npos) << error;
}

// CompositeLinearSystem (as Component/LinearSystem/CompositeLinearSystem.scn): the solver solves
// its solverLinearSystem's matrix; the systems assembled beside it for a GlobalSystemMatrixImage
// may leave out what they like. Solving one that leaves out the mass is refused.
TEST(SofaHarmlessComponents, CompositeLinearSystemSolvesItsSolverSystem) {
  const auto composite = [](const std::string& solved) {
    return "<Node name='matrices'><MatrixLinearSystem name='system'/>"
           "<MatrixLinearSystem name='K' assembleMass='false' assembleDamping='false'/>"
           "<GlobalSystemMatrixImage linearSystem='@K'/></Node>"
           "<CompositeLinearSystem name='c' linearSystems='@matrices/system @matrices/K' "
           "solverLinearSystem='@matrices/" +
           solved + "'/>";
  };
  const Imported with = imported(beam("", composite("system"), true));
  EXPECT_EQ(with.keys, imported(beam("", "", true)).keys);
  const std::string error = eis_test::errorOf([&] { imported(beam("", composite("K"), true)); });
  EXPECT_NE(error.find("MatrixLinearSystem 'K'"), std::string::npos) << error;
  EXPECT_NE(error.find("assembleMass = 'false'"), std::string::npos) << error;
}

// A chain of analysis engines read only by an OglLabel, as Demos/rigidifiedSectionsInBeam.scn
// measures a section: only drawn. The same chain read by a force field is refused.
TEST(SofaHarmlessComponents, EngineChainReadOnlyByALabelChangesNothing) {
  const std::string chain =
      "<Node name='verification'>"
      "<ValuesFromIndices name='a' template='Vec3' in='@../dofs.position' indices='0 1'/>"
      "<ValuesFromIndices name='b' template='Vec3' in='@../dofs.position' indices='2 3'/>"
      "<DifferenceEngine name='diff' input='@b.out' substractor='@a.out'/>"
      "<NormEngine name='norm' input='@diff.output'/>";
  const Imported with = imported(beam(chain + "<OglLabel label='@norm.output'/></Node>"));
  EXPECT_EQ(with.keys, imported(beam("")).keys);
  const std::string error = eis_test::errorOf([&] {
    imported(beam(chain +
                  "</Node><ConstantForceField indices='4' forces='@verification/norm.output'/>"));
  });
  EXPECT_NE(error.find("ValuesFromIndices 'a'"), std::string::npos) << error;
}

}  // namespace
