// Tests of the SOFA data field check (src/io/sofa_data_fields.cpp): an attribute that is no data
// field of its component in SOFA master is refused with the nearest name, or skipped with a
// warning; a link to a field its target does not have, and a loop of links through an engine's
// output, are errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <string>

#include "eis/core/error.hpp"
#include "eis/io/sofa_import.hpp"
#include "eis/io/sofa_scene.hpp"
#include "error_of.hpp"

namespace {

using eis_test::errorOf;

// One tetrahedron written in the scene, fixed at point 0, with `fem` and `extra` in its node.
std::string scene(const std::string& fem, const std::string& extra = "") {
  return "<Node name='root'>\n"
         "  <EulerImplicitSolver/>\n"
         "  <CGLinearSolver/>\n"
         "  <MechanicalObject name='dofs' position='0 0 0 1 0 0 0 1 0 0 0 1'/>\n"
         "  <MeshTopology name='topo' tetrahedra='0 1 2 3'/>\n"
         "  <DiagonalMass massDensity='1'/>\n" +
         fem + "\n" + extra + "\n</Node>";
}

eis::SofaImport import(const std::string& text, bool skip = false) {
  eis::SofaImportOptions options;
  options.skipUnsupported = skip;
  return eis::importSofaScene(eis::SofaScene(text, "t.scn"), options);
}

std::string keyOf(const eis::SofaImport& imported, const std::string& key) {
  for (const eis::SofaKey& k : imported.objects.at(0).keys)
    if (k.key == key) return k.value;
  return "";
}

TEST(SofaDataFields, MisspeltFieldIsRefusedWithTheNearestName) {
  const std::string error =
      errorOf([] { import(scene("<TetrahedronFEMForceField youngModulsu='1e6'/>")); });
  EXPECT_NE(error.find("t.scn:7: TetrahedronFEMForceField: unknown data field 'youngModulsu' "
                       "(did you mean youngModulus?)"),
            std::string::npos)
      << error;
  // Nothing near: no suggestion.
  const std::string far =
      errorOf([] { import(scene("<TetrahedronFEMForceField name='fem' zzzzzzzzzz='1'/>")); });
  EXPECT_NE(far.find("TetrahedronFEMForceField 'fem': unknown data field 'zzzzzzzzzz'"),
            std::string::npos)
      << far;
  EXPECT_EQ(far.find("did you mean"), std::string::npos) << far;
}

TEST(SofaDataFields, BaseClassFieldsLinksAndAliasesAreAccepted) {
  // printLog, tags, listening (Base, BaseComponent), rayleighStiffness (BaseForceField),
  // topology and mstate (links), assembling (an alias of TetrahedronFEMForceField),
  // computeGlobalMatrix (its own), template (the factory's).
  const eis::SofaImport imported = import(
      scene("<TetrahedronFEMForceField template='Vec3d' youngModulus='1e6' printLog='0' tags='a' "
            "listening='1' rayleighStiffness='0' topology='@topo' mstate='@dofs' assembling='0' "
            "computeGlobalMatrix='0'/>"));
  EXPECT_EQ(keyOf(imported, "material.young-modulus"), "1e+06");
  // MechanicalObject's legacy attributes, read by its parse().
  EXPECT_NO_THROW(import(
      "<Node><EulerImplicitSolver/><CGLinearSolver/>"
      "<MechanicalObject position='0 0 0 1 0 0 0 1 0 0 0 1' dx='1' rx='0' sx='1' scale='1'/>"
      "<MeshTopology tetrahedra='0 1 2 3'/><DiagonalMass/><TetrahedronFEMForceField/></Node>"));
}

TEST(SofaDataFields, SkipUnsupportedWarnsAndGoesOn) {
  const eis::SofaImport imported =
      import(scene("<TetrahedronFEMForceField youngModulus='2e6' youngModulsu='1e6'/>"), true);
  EXPECT_EQ(keyOf(imported, "material.young-modulus"), "2e+06");
  const bool warned =
      std::any_of(imported.warnings.begin(), imported.warnings.end(), [](const std::string& w) {
        return w.find(
                   "t.scn:7: TetrahedronFEMForceField: unknown data field 'youngModulsu' "
                   "(did you mean youngModulus?): ignored") != std::string::npos;
      });
  EXPECT_TRUE(warned);
}

TEST(SofaDataFields, LinkToAMissingFieldNamesIt) {
  const std::string error = errorOf([] {
    import(scene("<TetrahedronFEMForceField/>",
                 "<BoxROI name='fixedBox' box='-1 -1 -1 0.1 0.1 0.1'/>\n"
                 "<FixedProjectiveConstraint indices='@fixedBox.nosuch'/>"));
  });
  EXPECT_NE(error.find("FixedProjectiveConstraint: indices = '@fixedBox.nosuch': BoxROI "
                       "'fixedBox' (t.scn:8) has no data field 'nosuch'"),
            std::string::npos)
      << error;
  // Even where the importer would not read it, and with skip-unsupported.
  EXPECT_NE(errorOf([] {
              import(scene("<TetrahedronFEMForceField/>",
                           "<BoxROI name='fixedBox'/>\n"
                           "<FixedProjectiveConstraint drawSize='@fixedBox.drawSise'/>"),
                     true);
            }).find("has no data field 'drawSise' (did you mean drawSize?)"),
            std::string::npos);
}

TEST(SofaDataFields, LoopThroughABoxesIndicesIsAnError) {
  const std::string error = errorOf([] {
    import(scene("<TetrahedronFEMForceField/>",
                 "<BoxROI name='fixedBox' box='@fixed.indices'/>\n"
                 "<FixedProjectiveConstraint name='fixed' indices='@fixedBox.indices'/>"));
  });
  EXPECT_NE(error.find("BoxROI 'fixedBox': the links of box form a loop: they lead back to its "
                       "own indices"),
            std::string::npos)
      << error;
}

TEST(SofaDataFields, RenamedTypes) {
  // FixedConstraint is FixedProjectiveConstraint's old name.
  const eis::SofaImport imported =
      import(scene("<TetrahedronFEMForceField/>",
                   "<FixedConstraint indices='0'/><ConstantForceField forces='0 0 1'/>"));
  EXPECT_EQ(keyOf(imported, "constraint.fixed"), "indices 0");
  EXPECT_EQ(keyOf(imported, "load.constant-force"), "0 0 1 all");
  EXPECT_NE(errorOf([] {
              import(scene("<TetrahedronFEMForceField/>", "<FixedConstraint indice='0'/>"));
            }).find("unknown data field 'indice' (did you mean indices?)"),
            std::string::npos);
}

}  // namespace
