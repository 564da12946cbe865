// SOFA's cyclic pressure (model/pulse_pressure.hpp) against SurfacePressureForceField's
// computePulseModePressure rule stepped by hand, and the importer's reading of pulseMode.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "eis/io/sofa_import.hpp"
#include "eis/io/sofa_scene.hpp"
#include "eis/model/pulse_pressure.hpp"

namespace {

std::vector<double> firstSteps(eis::PulsePressure pulse, double dt, int steps) {
  std::vector<double> p;
  for (int n = 1; n <= steps; ++n) p.push_back(pulse.atStep(n, dt));
  return p;
}

void expectNear(const std::vector<double>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i)
    EXPECT_NEAR(got[i], want[i], 1e-14) << "step " << i + 1;
}

TEST(PulsePressure, RisesToThePressureAndFallsToTheLowerBound) {
  // P = 1 > 0: up first by 0.3 a step; 1.2 >= 1 stops at 1 and turns; -0.2 <= 0 stops at 0.
  expectNear(firstSteps(eis::PulsePressure(1, 0.3, 0), 1, 10),
             {0.3, 0.6, 0.9, 1, 0.7, 0.4, 0.1, 0, 0.3, 0.6});
  // speed * dt = 20000 * 0.01 = 200 (SOFA's example): step 250 reaches 50000 exactly, step
  // 251 is 49800; a lower bound of 10000 turns it at step 451.
  eis::PulsePressure frog(50000, 20000, 10000);
  EXPECT_EQ(frog.atStep(1, 0.01), 200);
  EXPECT_EQ(frog.atStep(249, 0.01), 49800);
  EXPECT_EQ(frog.atStep(250, 0.01), 50000);
  EXPECT_EQ(frog.atStep(251, 0.01), 49800);
  EXPECT_EQ(frog.atStep(450, 0.01), 10000);
  EXPECT_EQ(frog.atStep(451, 0.01), 10200);
  // Asked again from an earlier step (a restart): recomputed from the start.
  EXPECT_EQ(frog.atStep(2, 0.01), 400);
}

TEST(PulsePressure, ANegativePressureFallsFirst) {
  // P = -1 <= 0: down first, between P = -1 and the lower bound 0.5.
  expectNear(firstSteps(eis::PulsePressure(-1, 0.5, 0.5), 1, 8),
             {-0.5, -1, -0.5, 0, 0.5, 0, -0.5, -1});
}

std::vector<std::string> pulseKeys(const std::string& fields) {
  eis::SofaImportOptions options;
  options.sceneFolder = EIS_MESH_DIR;
  const eis::SofaImport out = eis::importSofaScene(
      eis::SofaScene(
          "<Node><EulerImplicitSolver/><MeshGmshLoader name='l' "
          "filename='beam_v22_ascii.msh'/><MeshTopology src='@l'/>"
          "<MechanicalObject src='@l'/><UniformMass totalMass='1'/><SurfacePressureForceField " +
              fields + "/></Node>",
          "t.scn"),
      options);
  std::vector<std::string> found;
  for (const eis::SofaKey& k : out.objects.at(0).keys)
    if (k.key.rfind("load.pressure", 0) == 0) found.push_back(k.key + " = " + k.value);
  return found;
}

TEST(PulsePressure, SofaPulseModeIsReadWithItsDefaults) {
  EXPECT_EQ(pulseKeys("pressure='50000' pulseMode='true' pressureSpeed='20000'"),
            std::vector<std::string>{"load.pressure-pulse = 50000 20000 0 all"});
  // SurfacePressureForceField::init: no speed is |pressure|.
  EXPECT_EQ(pulseKeys("pressure='-3' pulseMode='1' pressureLowerBound='2'"),
            std::vector<std::string>{"load.pressure-pulse = -3 3 2 all"});
  EXPECT_EQ(pulseKeys("pressure='0' pulseMode='true'"), std::vector<std::string>{});
  EXPECT_EQ(pulseKeys("pressure='5'"), std::vector<std::string>{"load.pressure = 5 all"});
}

}  // namespace
