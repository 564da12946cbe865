// The history CSV of a run on 1, 2 and 3 ranks (src/io/history_csv.cpp through whole runs): one
// row per step with its time, iteration counts and energies, the residual only when asked for,
// and the last row's kinetic energy that of the final state.
//
// Every rank runs the simulations (they are collective); rank 0 alone reads the files back, after
// the last collective call of a test, so that an ASSERT there can never leave the others waiting.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "mpi_support.hpp"
#include "output_files.hpp"

namespace {

using eis_test::BoxGeometry;
using eis_test::geometryOf;
using eis_test::lines;
using eis_test::parseNumber;
using eis_test::readStateFile;
using eis_test::root;
using eis_test::run;
using eis_test::smallBeam;
using eis_test::split;
using eis_test::StateFile;

// A folder of its own for each test.
class HistoryCsv : public eis_test::TemporaryFolderTest {};

// 1/2 v.M v with the lumped mass (rho V/4 per vertex of each tetrahedron), from a state table.
double lumpedKineticEnergy(const StateFile& state, const eis_test::SceneFields& scene) {
  const BoxGeometry box = geometryOf(scene);
  const double tetMass = scene.density * scene.boxSize[0] * scene.boxSize[1] * scene.boxSize[2] /
                         double(box.numTets());
  std::map<std::int64_t, int> tetsPerNode;
  for (const auto& tet : box.sortedTets())
    for (auto id : tet) ++tetsPerNode[id];
  double energy = 0;
  for (const auto& [id, count] : tetsPerNode) {
    const double* row = state.find(id);
    if (!row) continue;
    energy += 0.5 * tetMass / 4 * count * (row[3] * row[3] + row[4] * row[4] + row[5] * row[5]);
  }
  return energy;
}

// Rank 0: the history of a run of `scene`, whose final state is in scene.finalState.
void checkHistory(const eis_test::SceneFields& scene) {
  SCOPED_TRACE(scene.computeResidual ? "computeResidual = true" : "computeResidual = false");
  const bool computeResidual = scene.computeResidual;
  const std::vector<std::string> text = lines(scene.history);
  ASSERT_FALSE(text.empty());
  const std::string fixed = "step,time,wall_seconds,linear_iterations,nonlinear_iterations";
  EXPECT_EQ(text[0].substr(0, fixed.size()), fixed) << text[0];
  const std::vector<std::string> header = split(text[0]);
  const auto column = [&](const std::string& name) {
    const auto it = std::find(header.begin(), header.end(), name);
    EXPECT_TRUE(it != header.end()) << "no column " << name << " in " << text[0];
    return it == header.end() ? -1 : int(it - header.begin());
  };
  const int residual = column("residual"), kinetic = column("kinetic_energy"),
            elastic = column("elastic_energy");
  ASSERT_TRUE(residual >= 0 && kinetic >= 0 && elastic >= 0);
  ASSERT_EQ(text.size(), std::size_t(scene.steps) + 1) << "one row per step after the header";

  double lastKinetic = 0, lastElastic = 0;
  for (int step = 1; step <= scene.steps; ++step) {
    SCOPED_TRACE("row of step " + std::to_string(step) + ": " + text[step]);
    const std::vector<std::string> row = split(text[step]);
    ASSERT_EQ(row.size(), header.size());
    double value[5];
    for (int c = 0; c < 5; ++c) ASSERT_TRUE(parseNumber(row[c], value[c])) << header[c];
    EXPECT_EQ(value[0], step);
    EXPECT_DOUBLE_EQ(value[1], step * scene.dt);
    EXPECT_TRUE(std::isfinite(value[2]) && value[2] >= 0) << "wall_seconds";
    EXPECT_GE(value[3], 1) << "linear_iterations";
    EXPECT_EQ(value[4], 1) << "nonlinear_iterations of a linearized step";

    if (computeResidual) {
      double r = -1;
      EXPECT_TRUE(parseNumber(row[residual], r)) << "residual '" << row[residual] << "'";
      EXPECT_TRUE(std::isfinite(r) && r >= 0) << "residual " << r;
    } else {
      EXPECT_EQ(row[residual], "") << "residual not computed, yet written";
    }
    ASSERT_TRUE(parseNumber(row[kinetic], lastKinetic)) << "kinetic_energy";
    ASSERT_TRUE(parseNumber(row[elastic], lastElastic)) << "elastic_energy";
    EXPECT_GT(lastKinetic, 0.0) << "a beam falling under gravity moves";
    EXPECT_TRUE(std::isfinite(lastElastic) && lastElastic >= 0) << "elastic_energy " << lastElastic;
  }
  EXPECT_GT(lastElastic, 0.0) << "the beam is bent after " << scene.steps << " steps";
  // The last row's kinetic energy is that of the final state.
  const double expected = lumpedKineticEnergy(readStateFile(scene.finalState), scene);
  EXPECT_NEAR(lastKinetic, expected, 1e-12 * expected);
}

TEST_F(HistoryCsv, HistoryHasOneRowPerStepWithEnergiesAndResidualWhenAskedFor) {
  std::vector<eis_test::SceneFields> scenes;
  for (bool computeResidual : {false, true}) {
    eis_test::SceneFields scene = smallBeam();
    scene.computeResidual = computeResidual;
    scene.history = file(computeResidual ? "history_residual.csv" : "history.csv");
    scene.finalState = file(computeResidual ? "final_residual.csv" : "final.csv");
    run(scene);
    scenes.push_back(scene);
  }
  if (!root()) return;
  for (const eis_test::SceneFields& scene : scenes) checkHistory(scene);
}

}  // namespace
