// The final-state CSV and initial.state of runs on 1, 2 and 3 ranks (src/io/state_csv.cpp through
// whole runs): the final state is exactly the gathered state, printed to the bit, with the fixed
// nodes held exactly; and initial.state continues a run (4 steps = 2 steps, write the state, read
// it, 2 more steps) for elasticity and for diffusion; the final state of several bodies reads
// back as one table per object, quoted paths included.
//
// Every rank runs the simulations (they are collective); rank 0 alone reads the files back, after
// the last collective call of a test, so that an ASSERT there can never leave the others waiting.
#include <gtest/gtest.h>
#include <mpi.h>
#include <petscsys.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "eis/app/simulation.hpp"
#include "error_of.hpp"
#include "mpi_support.hpp"
#include "output_files.hpp"
#include "vtu_reader.hpp"

namespace {

using eis_test::BoxGeometry;
using eis_test::geometryOf;
using eis_test::lines;
using eis_test::readStateFile;
using eis_test::root;
using eis_test::run;
using eis_test::smallBar;
using eis_test::smallBeam;
using eis_test::StateFile;
using eis_test::writeBarInitialState;

// ---------------------------------------------------------------------------------------------
// 1. The final state

// Significant digits of a number as printed: the mantissa's digits without leading zeros.
int significantDigits(const std::string& text) {
  int digits = 0;
  bool leading = true;
  for (char c : text) {
    if (c == 'e' || c == 'E') break;
    if (c < '0' || c > '9') continue;
    if (leading && c == '0') continue;
    leading = false;
    ++digits;
  }
  return digits;
}

// Largest |value - expected| over the nodes a fixed box holds: positions at rest (elasticity) or
// u at its initial value (diffusion), and velocities (du) at zero.
double heldNodeDrift(const eis::NodalTable& state, const eis_test::SceneFields& scene,
                     const eis::NodalTable* initial, std::int64_t* held) {
  const BoxGeometry box = geometryOf(scene);
  const int half = state.width / 2;
  double drift = 0;
  *held = 0;
  for (std::size_t n = 0; n < state.ids.size(); ++n) {
    const auto rest = box.rest(state.ids[n]);
    bool fixed = false;
    for (const auto& b : scene.fixedBoxes) fixed = fixed || b.contains(rest);
    if (!fixed) continue;
    ++*held;
    const double* start = initial ? initial->find(state.ids[n]) : nullptr;
    for (int c = 0; c < state.width; ++c) {
      const double expected = c >= half ? 0.0 : start ? start[c] : rest[c];
      drift = std::max(drift, std::fabs(state.values[n * state.width + c] - expected));
    }
  }
  return drift;
}

// A folder of its own for each test.
class FinalState : public eis_test::TemporaryFolderTest {};

TEST_F(FinalState, FinalStateCsvIsTheGatheredStateToTheBit) {
  eis_test::SceneFields scene = smallBeam();
  scene.finalState = file("final.csv");
  eis::Simulation simulation(scene.toScene(), PETSC_COMM_WORLD, nullptr);
  simulation.run();
  const eis::NodalTable gathered = simulation.gatherState();
  int nonEmptyElsewhere = !root() && (!gathered.ids.empty() || !gathered.values.empty());
  MPI_Allreduce(MPI_IN_PLACE, &nonEmptyElsewhere, 1, MPI_INT, MPI_MAX, PETSC_COMM_WORLD);
  if (!root()) return;
  EXPECT_EQ(nonEmptyElsewhere, 0) << "gatherState is not empty on a rank other than 0";

  const std::vector<std::string> text = lines(scene.finalState);
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text[0], "id,x,y,z,vx,vy,vz");
  const std::string raw = vtu::readText(scene.finalState);
  EXPECT_EQ(raw.back(), '\n');

  const StateFile state = readStateFile(scene.finalState);
  const BoxGeometry box = geometryOf(scene);
  ASSERT_EQ(state.width, 6);
  ASSERT_EQ(std::int64_t(state.ids.size()), box.numNodes()) << "one row per node";
  ASSERT_EQ(gathered.width, 6);
  ASSERT_EQ(gathered.ids.size(), state.ids.size());
  int outOfOrder = 0, differing = 0, shortDigits = 0;
  std::string firstBad;
  for (std::size_t n = 0; n < state.ids.size(); ++n) {
    outOfOrder += state.ids[n] != std::int64_t(n);
    for (int c = 0; c < 6; ++c) {
      const double written = state.values[6 * n + c], held = gathered.values[6 * n + c];
      const std::string& token = state.texts[6 * n + c];
      char g17[40];
      std::snprintf(g17, sizeof g17, "%.17g", held);
      // 17 significant digits: %.17g's text, or any other with exactly 17 digits.
      const bool digits = token == g17 || significantDigits(token) == 17;
      const bool same = std::memcmp(&written, &held, sizeof written) == 0;
      differing += !same;
      shortDigits += !digits;
      if ((!same || !digits) && firstBad.empty())
        firstBad = "node " + std::to_string(n) + " column " + std::to_string(c) + ": '" + token +
                   "', held " + g17;
    }
  }
  EXPECT_EQ(outOfOrder, 0) << "rows not in id order 0, 1, 2, ...";
  EXPECT_EQ(differing, 0) << "values that do not read back as the gathered state; first: "
                          << firstBad;
  EXPECT_EQ(shortDigits, 0) << "values not printed with 17 significant digits; first: " << firstBad;
  EXPECT_EQ(gathered.ids, state.ids);
}

// SOFA's FixedProjectiveConstraint holds its nodes exactly: positions at rest (u at its initial
// value) and velocities (du) zero, whatever the linear solver's tolerance. Default solver options.
TEST_F(FinalState, FinalStateHoldsFixedNodesExactly) {
  eis_test::SceneFields beam = smallBeam();
  beam.finalState = file("beam.csv");
  const eis::NodalTable beamState = run(beam);

  eis_test::SceneFields bar = smallBar();
  bar.initialState = file("initial.csv");
  int written = root() ? writeBarInitialState(bar.initialState, geometryOf(bar)) : 1;
  MPI_Bcast(&written, 1, MPI_INT, 0, PETSC_COMM_WORLD);
  ASSERT_TRUE(written) << "cannot write " << bar.initialState;  // the same verdict on every rank
  const eis::NodalTable initial =
      eis::readStateCsv(bar.initialState, bar.physics, PETSC_COMM_WORLD);
  const eis::NodalTable barState = run(bar);
  if (!root()) return;

  std::int64_t held = 0;
  const double beamDrift = heldNodeDrift(beamState, beam, nullptr, &held);
  EXPECT_EQ(held, 9);
  EXPECT_EQ(beamDrift, 0.0) << "beam: largest |x - rest| or |v| over the fixed nodes after "
                            << beam.steps << " steps";
  const double barDrift = heldNodeDrift(barState, bar, &initial, &held);
  EXPECT_EQ(held, 18);
  EXPECT_EQ(barDrift, 0.0) << "bar: largest |u - u0| or |du| over the held ends after " << bar.steps
                           << " steps";
}

// ---------------------------------------------------------------------------------------------
// 2. initial.state: 4 steps = 2 steps, write the state, read it, 2 more steps

// Agreement of two gathered states (rank 0), as docs/architecture.md measures it but with each half
// of a row against its own scale: the largest difference in position (u for diffusion) divided by
// the largest displacement from rest (largest |u|), and the largest difference in velocity (du)
// divided by the largest velocity (|du|). Velocities here are some 20 times the displacements, so
// one ratio over both would hold the velocities to a tolerance 20 times tighter than the solver's.

struct Disagreement {
  double state = 0, rate = 0;
};

Disagreement stateDisagreement(const eis::NodalTable& a, const eis::NodalTable& b,
                               const eis_test::SceneFields& scene) {
  EXPECT_EQ(a.ids, b.ids);
  EXPECT_EQ(a.width, b.width);
  const BoxGeometry box = geometryOf(scene);
  const bool elasticity = scene.physics == eis::Physics::Elasticity;
  const int half = a.width / 2;
  double difference[2] = {0, 0}, scale[2] = {0, 0};
  for (std::size_t n = 0; n < a.ids.size() && n < b.ids.size(); ++n) {
    const auto rest = box.rest(a.ids[n]);
    for (int c = 0; c < a.width && c < b.width; ++c) {
      const int kind = c < half ? 0 : 1;
      const double av = a.values[n * a.width + c], bv = b.values[n * b.width + c];
      difference[kind] = std::max(difference[kind], std::fabs(av - bv));
      scale[kind] =
          std::max(scale[kind], std::fabs(av - (elasticity && kind == 0 ? rest[c] : 0.0)));
    }
  }
  EXPECT_GT(scale[0], 0.0);
  EXPECT_GT(scale[1], 0.0);
  return {difference[0] / scale[0], difference[1] / scale[1]};
}

// Tight linear solves, so that two ways to the same state agree to rounding.
class InitialState : public eis_test::TemporaryFolderTest {
protected:
  // -ksp_rtol 1e-13, set before TemporaryFolderTest::SetUp and cleared after its TearDown.
  eis_test::TightSolveOptions tight_{eis_test::Tighten::Linear};

  // The scene run straight through, its first two steps alone (written to a final state), and
  // the last two steps restarted from that file.
  struct Restart {
    eis::NodalTable straight, half, restarted;
  };
  Restart runStraightAndRestarted(eis_test::SceneFields scene) {
    Restart r;
    r.straight = run(scene);
    scene.steps = 2;
    scene.finalState = file("half.csv");
    r.half = run(scene);
    scene.finalState.clear();
    scene.initialState = file("half.csv");
    r.restarted = run(scene);
    return r;
  }
};

TEST_F(InitialState, ElasticityRestartFromTheFinalStateContinuesTheRun) {
  eis_test::SceneFields scene = smallBeam();
  scene.rayleighStiffness = 0.01;  // let the velocity matter in the step (SOFA's b has K v)
  const auto [straight, half, restarted] = runStraightAndRestarted(scene);
  if (!root()) return;

  const Disagreement restart = stateDisagreement(straight, restarted, scene);
  EXPECT_LT(restart.state, 1e-12) << "positions";
  EXPECT_LT(restart.rate, 1e-12) << "velocities";
  // Not a trivial agreement: steps 3 and 4 moved the beam.
  const Disagreement moved = stateDisagreement(straight, half, scene);
  EXPECT_GT(moved.state, 1e-3);
  EXPECT_GT(moved.rate, 1e-3);
}

TEST_F(InitialState, DiffusionRestartFromTheFinalStateContinuesTheRun) {
  eis_test::SceneFields scene = smallBar();
  const BoxGeometry box = geometryOf(scene);
  scene.initialState = file("initial.csv");
  int written = root() ? writeBarInitialState(scene.initialState, box) : 1;
  MPI_Bcast(&written, 1, MPI_INT, 0, PETSC_COMM_WORLD);
  ASSERT_TRUE(written) << "cannot write " << scene.initialState;  // the same verdict on every rank
  const eis::NodalTable initial =
      eis::readStateCsv(scene.initialState, scene.physics, PETSC_COMM_WORLD);
  const auto [straight, half, restarted] = runStraightAndRestarted(scene);
  if (!root()) return;

  ASSERT_EQ(straight.width, 2);
  const Disagreement restart = stateDisagreement(straight, restarted, scene);
  EXPECT_LT(restart.state, 1e-12) << "u";
  EXPECT_LT(restart.rate, 1e-12) << "du";
  // Not a trivial agreement: the field evolved from its start and from step 2 on.
  EXPECT_GT(stateDisagreement(straight, initial, scene).state, 1e-3);
  EXPECT_GT(stateDisagreement(straight, half, scene).state, 1e-3);
}

// ---------------------------------------------------------------------------------------------
// 3. The final state of several bodies as initial.state

class ObjectStates : public eis_test::TemporaryFolderTest {};

TEST_F(ObjectStates, ReadBackAsOneTablePerObjectInTheFilesOrder) {
  const auto table = [](std::vector<std::int64_t> ids, double base) {
    eis::NodalTable t;
    t.width = 6;
    t.ids = ids;
    for (std::size_t k = 0; k < ids.size() * 6; ++k) t.values.push_back(base + 0.1 * double(k));
    return t;
  };
  // A path with a comma and a quote is written quoted, as RFC 4180 quotes it.
  const std::vector<eis::ObjectState> written = {{"/b,\"c\"", table({0, 1, 2}, 1.0 / 3)},
                                                 {"/a", table({0, 1}, -2.5)}};
  const std::string path = file("bodies.csv");
  eis::writeStateCsv(path, written, eis::Physics::Elasticity, PETSC_COMM_WORLD);
  const std::vector<eis::ObjectState> read =
      eis::readObjectStatesCsv(path, eis::Physics::Elasticity, PETSC_COMM_WORLD);
  ASSERT_EQ(read.size(), 2u);
  for (std::size_t k = 0; k < 2; ++k) {
    EXPECT_EQ(read[k].path, written[k].path);
    EXPECT_EQ(read[k].state.ids, written[k].state.ids);
    EXPECT_EQ(read[k].state.values, written[k].state.values) << "to the bit";
  }
  // A one-body reader says what the file is.
  const std::string error = eis_test::errorOf(
      [&] { eis::readStateCsv(path, eis::Physics::Elasticity, PETSC_COMM_WORLD); });
  EXPECT_NE(error.find("this file holds several bodies, the scene one"), std::string::npos)
      << error;
}

TEST_F(ObjectStates, ARowWithoutAnObjectIsAnErrorNamingItsLine) {
  const std::string path = file("bad.csv");
  int written = 1;
  if (root()) {
    std::FILE* out = std::fopen(path.c_str(), "w");
    written =
        out && std::fputs("id,x,y,z,vx,vy,vz,object\n0,0,0,0,0,0,0,/a\n1,0,0,0,0,0,0\n", out) >= 0;
    if (out) written = std::fclose(out) == 0 && written;
  }
  MPI_Bcast(&written, 1, MPI_INT, 0, PETSC_COMM_WORLD);
  ASSERT_TRUE(written) << "cannot write " << path;  // the same verdict on every rank
  const std::string error = eis_test::errorOf(
      [&] { eis::readObjectStatesCsv(path, eis::Physics::Elasticity, PETSC_COMM_WORLD); });
  EXPECT_NE(error.find("bad.csv: line 3: expected 7 comma-separated numbers and an object path"),
            std::string::npos)
      << error;
}

}  // namespace
