// topology.changes (app/topology_changes.cpp) on 1, 2 and 3 ranks: after SOFA's removal of
// tetrahedra or hexahedra the body holds the masses SOFA's DiagonalMass leaves (worked out by
// hand), its nodes in SOFA's new numbering, and its steps are those of a body built directly on
// the reduced mesh from the carried state.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "eis/app/scene_builder.hpp"
#include "eis/app/simulation.hpp"
#include "eis/mesh/cell_removal.hpp"
#include "eis/mesh/mesh_source.hpp"
#include "eis/model/mechanical_system.hpp"
#include "mpi_support.hpp"

namespace {

class TopologyChanges : public eis_test::TemporaryFolderTest {
protected:
  eis_test::TightSolveOptions tight_;

  // Rank 0 writes `text` to the test's folder; every rank gets its path.
  std::string write(const std::string& name, const std::string& text) {
    const std::string path = file(name);
    MPI_Barrier(PETSC_COMM_WORLD);  // every rank is done with the file's last content
    if (eis_test::root()) std::ofstream(path) << text;
    MPI_Barrier(PETSC_COMM_WORLD);
    return path;
  }

  void expectStepsOfTheReducedMesh(const std::vector<std::pair<std::string, std::string>>& common,
                                   const std::string& cellKey,
                                   const std::vector<std::int64_t>& first,
                                   const std::vector<int>& fixedNodes);
};

eis::Scene scene(const std::vector<std::pair<std::string, std::string>>& keys) {
  eis::Scene s = eis::defaultScene();
  for (const auto& [key, value] : keys) s.set(key, value);
  return s;
}

// Two tetrahedra T0 = (0 1 2 3), T1 = (1 2 3 4), and node 5 in no cell; density 1. Removing T0
// at t = 0.01 leaves node 0 without a cell: SOFA moves the last node, 5, into its place, and
// DiagonalMass takes T0's quarter volume (1/24) off its nodes, leaving 1/4 of |T1| = 1/3 on each
// of T1's nodes. The free body falls: x = x0 + 3 h^2 g after two steps, v = 2 h g.
TEST_F(TopologyChanges, RemovalLeavesSofasMassesAndNumbering) {
  const std::string events = write("events.txt", "T= 0.01\n  REMOVE= 1\n0\n");
  eis::Simulation simulation(scene({{"mesh.nodes", "0 0 0 1 0 0 0 1 0 0 0 1 1 1 1 5 5 5"},
                                    {"mesh.tetrahedra", "0 1 2 3 1 2 3 4"},
                                    {"load.gravity", "0 0 -10"},
                                    {"material.young-modulus", "1000"},
                                    {"solver.dt", "0.01"},
                                    {"solver.steps", "2"},
                                    {"topology.changes", events}}),
                             PETSC_COMM_WORLD, nullptr);
  simulation.run();
  eis::MechanicalSystem& system = simulation.system();
  Vec rest = system.createVector(), zero = system.createVector(), f = system.createVector();
  system.setRestState(rest);
  VecZeroEntries(zero);
  system.computeForce(rest, zero, f);  // at rest only gravity acts: f = M g
  const eis::NodalTable weights = eis::gatherState(simulation.mesh(), f, zero, nullptr);
  const eis::NodalTable state = eis::gatherState(simulation.mesh(), simulation.positions(),
                                                 simulation.velocities(), simulation.initialOf(0));
  for (Vec* v : {&rest, &zero, &f}) VecDestroy(v);
  if (!eis_test::root()) return;
  ASSERT_EQ(state.ids, (std::vector<std::int64_t>{0, 1, 2, 3, 4}));
  for (std::int64_t id = 1; id <= 4; ++id)
    EXPECT_NEAR(weights.find(id)[2], -10.0 / 12, 1e-14) << "node " << id;
  // Node 0 is the former node 5: no cell, at rest; nodes 1..4 kept their numbers.
  const double start[5][3] = {{5, 5, 5}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 1}};
  for (std::int64_t id = 0; id < 5; ++id) {
    const double* row = state.find(id);
    const double fall = id == 0 ? 0 : 3 * 0.01 * 0.01 * -10;
    for (int d = 0; d < 3; ++d)
      EXPECT_NEAR(row[d], start[id][d] + (d == 2 ? fall : 0), 1e-12) << id << " " << d;
    EXPECT_NEAR(row[5], id == 0 ? 0 : 2 * 0.01 * -10, 1e-12) << id;
  }
}

// A box held at its `fixed` nodes by index, whose `first` cells go at t = 0.02 and whose cell 0
// goes at t = 0.04. Run A takes 6 steps through both. Run B starts from A's state after step 2,
// renumbered as SOFA renumbers, on the reduced mesh written inline (`cellKey`), with its fixed
// indices renamed, and meets the second removal at its own t = 0.02: after 4 steps it holds A's
// state.
void TopologyChanges::expectStepsOfTheReducedMesh(
    const std::vector<std::pair<std::string, std::string>>& common, const std::string& cellKey,
    const std::vector<std::int64_t>& first, const std::vector<int>& fixedNodes) {
  const auto with = [&](std::vector<std::pair<std::string, std::string>> keys) {
    keys.insert(keys.begin(), common.begin(), common.end());
    return scene(keys);
  };
  std::string removal = "T= 0.02\nREMOVE= " + std::to_string(first.size()) + "\n";
  for (const std::int64_t cell : first) removal += std::to_string(cell) + " ";
  const std::string events = write("a.txt", removal + "\nT= 0.04\nREMOVE= 1\n0\n");
  std::string fixed = "indices";
  for (const int node : fixedNodes) fixed += " " + std::to_string(node);
  const auto runA = [&](int steps) {
    eis::Simulation a(with({{"solver.steps", std::to_string(steps)},
                            {"constraint.fixed", fixed},
                            {"topology.changes", events}}),
                      PETSC_COMM_WORLD, nullptr);
    a.run();
    return a.gatherState();
  };
  const eis::NodalTable after2 = runA(2), after6 = runA(6);

  // The reduced mesh and the carried state, on rank 0.
  std::vector<std::string> warnings;
  const eis::SerialMesh box =
      eis::loadSerialMesh(eis::readMeshSourceParameters(with({})), 3, PETSC_COMM_WORLD, warnings);
  const std::int64_t points = std::int64_t(box.nodes.size());
  std::ostringstream nodes, cells, indices;
  nodes.precision(17);
  eis::NodalTable carried;
  carried.width = 6;
  std::size_t removedNodes = 0;
  if (eis_test::root()) {
    const eis::CellRemoval left =
        eis::removeCells(box.cells.flat(), box.cells.corners(), points, first);
    removedNodes = std::size_t(points) - left.oldPoint.size();
    std::vector<std::int64_t> newOf(std::size_t(points), -1);
    for (std::size_t i = 0; i < left.oldPoint.size(); ++i) {
      const auto& p = box.nodes[std::size_t(left.oldPoint[i])];
      nodes << p[0] << ' ' << p[1] << ' ' << p[2] << ' ';
      newOf[std::size_t(left.oldPoint[i])] = std::int64_t(i);
      carried.ids.push_back(std::int64_t(i));
      const double* row = after2.find(left.oldPoint[i]);
      carried.values.insert(carried.values.end(), row, row + 6);
    }
    for (const std::int64_t p : left.cells) cells << p << ' ';
    indices << "indices";
    for (const int old : fixedNodes)
      if (newOf[std::size_t(old)] >= 0) indices << ' ' << newOf[std::size_t(old)];
  }
  unsigned long removed = removedNodes;
  MPI_Bcast(&removed, 1, MPI_UNSIGNED_LONG, 0, PETSC_COMM_WORLD);
  ASSERT_GT(removed, 0u) << "the removal should leave nodes without cells";
  const auto shared = [](std::string text) {
    int length = int(text.size());
    MPI_Bcast(&length, 1, MPI_INT, 0, PETSC_COMM_WORLD);
    text.resize(std::size_t(length));
    MPI_Bcast(text.data(), length, MPI_CHAR, 0, PETSC_COMM_WORLD);
    return text;
  };
  const std::string start = file("start.csv");
  eis::writeStateCsv(start, carried, eis::Physics::Elasticity, PETSC_COMM_WORLD);
  eis::Simulation b(with({{"mesh.nodes", shared(nodes.str())},
                          {cellKey, shared(cells.str())},
                          {"solver.steps", "4"},
                          {"constraint.fixed", shared(indices.str())},
                          {"initial.state", start},
                          {"topology.changes", write("b.txt", "T= 0.02\nREMOVE= 1\n0\n")}}),
                    PETSC_COMM_WORLD, nullptr);
  b.run();
  const eis::NodalTable stepped = b.gatherState();
  if (!eis_test::root()) return;
  ASSERT_EQ(stepped.ids, after6.ids);
  double largest = 0, moved = 0;
  for (std::size_t i = 0; i < stepped.values.size(); ++i)
    largest = std::max(largest, std::abs(stepped.values[i] - after6.values[i]));
  for (std::size_t i = 0; i < after6.ids.size(); ++i)
    moved = std::max(moved, std::abs(after6.values[6 * i + 1] - carried.values[6 * i + 1]));
  EXPECT_GT(moved, 1e-4);
  EXPECT_LT(largest, 1e-12 * std::max(1.0, moved)) << "largest difference " << largest;
}

// Two unit cubes H0 = (0 1 4 3 6 7 10 9) and H1 = (1 2 5 4 7 8 11 10) of the 3 x 2 x 2 points
// i + 3 j + 6 k, of total mass 4: density 2, which SOFA's DiagonalMass keeps. Removing H0 at t =
// 0.01 leaves its x = 0 face without a cell: SOFA removes nodes 9, 6, 3 and 0 in turn, each slot
// taking the last node, so the new nodes 0..7 are the old 8 1 2 11 4 5 10 7; DiagonalMass takes
// H0's eighth (2/8) off its nodes, leaving 2/8 on each of H1's (not the total mass 4 shared out
// again). The free body falls: x = x0 + 3 h^2 g after two steps, v = 2 h g.
TEST_F(TopologyChanges, RemovalOfAHexahedronLeavesSofasMassesAndNumbering) {
  const std::string events = write("events.txt", "T= 0.01\n  REMOVE= 1\n0\n");
  std::string nodes;
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 3; ++i)
        nodes += std::to_string(i) + " " + std::to_string(j) + " " + std::to_string(k) + " ";
  eis::Simulation simulation(scene({{"mesh.nodes", nodes},
                                    {"mesh.hexahedra", "0 1 4 3 6 7 10 9 1 2 5 4 7 8 11 10"},
                                    {"mass.total-mass", "4"},
                                    {"load.gravity", "0 0 -10"},
                                    {"material.young-modulus", "1000"},
                                    {"solver.dt", "0.01"},
                                    {"solver.steps", "2"},
                                    {"topology.changes", events}}),
                             PETSC_COMM_WORLD, nullptr);
  simulation.run();
  eis::MechanicalSystem& system = simulation.system();
  Vec rest = system.createVector(), zero = system.createVector(), f = system.createVector();
  system.setRestState(rest);
  VecZeroEntries(zero);
  system.computeForce(rest, zero, f);  // at rest only gravity acts: f = M g
  const eis::NodalTable weights = eis::gatherState(simulation.mesh(), f, zero, nullptr);
  const eis::NodalTable state = eis::gatherState(simulation.mesh(), simulation.positions(),
                                                 simulation.velocities(), simulation.initialOf(0));
  for (Vec* v : {&rest, &zero, &f}) VecDestroy(v);
  if (!eis_test::root()) return;
  ASSERT_EQ(state.ids, (std::vector<std::int64_t>{0, 1, 2, 3, 4, 5, 6, 7}));
  const int old[8] = {8, 1, 2, 11, 4, 5, 10, 7};
  for (std::int64_t id = 0; id < 8; ++id) {
    EXPECT_NEAR(weights.find(id)[2], -10.0 * 2 / 8, 1e-14) << "node " << id;
    const double start[3] = {double(old[id] % 3), double(old[id] / 3 % 2), double(old[id] / 6)};
    const double* row = state.find(id);
    for (int d = 0; d < 3; ++d)
      EXPECT_NEAR(row[d], start[d] + (d == 2 ? 3 * 0.01 * 0.01 * -10 : 0), 1e-12) << id << " " << d;
    EXPECT_NEAR(row[5], 2 * 0.01 * -10, 1e-12) << id;
  }
}

// The box 2 x 1 x 1 in 12 tetrahedra, held at x = 0; five cells go, then one more.
TEST_F(TopologyChanges, StepsAfterARemovalAreThoseOfTheReducedMesh) {
  expectStepsOfTheReducedMesh({{"mesh.box-size", "2 1 1"},
                               {"mesh.box-cells", "2 1 1"},
                               {"load.gravity", "0 -9.81 0"},
                               {"material.young-modulus", "300"},
                               {"material.model", "corotational"},
                               {"solver.dt", "0.01"},
                               {"solver.rayleigh-mass", "0.1"},
                               {"solver.rayleigh-stiffness", "0.1"}},
                              "mesh.tetrahedra", {0, 1, 2, 3, 4}, {0, 3, 6, 9});
}

// The box 3 x 2 x 1 in 6 hexahedra, held at x = 0 (nodes 0 4 8 12 16 20); the column of cells 2
// and 5 at x = 3 goes, then cell 0; with SOFA's HexahedronFEMForceField and its
// HexahedralFEMForceField, whose element data SOFA recomputes (reinit) or keeps for the cells
// left, as a build on the reduced mesh computes them.
TEST_F(TopologyChanges, StepsAfterARemovalOfHexahedraAreThoseOfTheReducedMesh) {
  for (const char* element : {"hexahedron-fem", "hexahedral-fem"}) {
    SCOPED_TRACE(element);
    expectStepsOfTheReducedMesh({{"mesh.box-size", "3 2 1"},
                                 {"mesh.box-cells", "3 2 1"},
                                 {"mesh.cell-type", "hexahedron"},
                                 {"material.hexahedron-element", element},
                                 {"load.gravity", "0 -9.81 0"},
                                 {"material.young-modulus", "300"},
                                 {"material.model", "corotational"},
                                 {"material.density", "2"},
                                 {"solver.dt", "0.01"},
                                 {"solver.rayleigh-mass", "0.1"},
                                 {"solver.rayleigh-stiffness", "0.1"}},
                                "mesh.hexahedra", {2, 5}, {0, 4, 8, 12, 16, 20});
  }
}

// A malformed file and a removal that would empty the body are refused at set-up, on every rank.
TEST_F(TopologyChanges, BadEventsAreRefusedBeforeTheFirstStep) {
  const auto refusal = [&](const std::string& text, int steps,
                           const std::string& mass = "lumped") -> std::string {
    try {
      eis::Simulation s(scene({{"mesh.nodes", "0 0 0 1 0 0 0 1 0 0 0 1 1 1 1"},
                               {"mesh.tetrahedra", "0 1 2 3 1 2 3 4"},
                               {"mass.type", mass},
                               {"solver.steps", std::to_string(steps)},
                               {"topology.changes", write("bad.txt", text)}}),
                        PETSC_COMM_WORLD, nullptr);
    } catch (const eis::Error& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_NE(refusal("T= 0.01\nREMOVE= 2\n0\n", 5).find("bad.txt:3: \"REMOVE= 2\" above"),
            std::string::npos);
  const std::string empty = refusal("T= 0.01\nREMOVE= 1\n0\nT= 0.03\nREMOVE= 1\n0\n", 5);
  EXPECT_NE(empty.find("removes the last cell of the body; a body without cells is not "
                       "supported (it falls at step 4: a run of at most 3 steps ends before it)"),
            std::string::npos)
      << empty;
  EXPECT_EQ(refusal("T= 0.01\nREMOVE= 1\n0\nT= 0.03\nREMOVE= 1\n0\n", 3), "");
  // MeshMatrixMass takes a removed cell's mass off at its current volume: not a rebuild's.
  EXPECT_NE(refusal("T= 0.01\nREMOVE= 1\n0\n", 5, "consistent")
                .find("mass.type = consistent is not supported with topology changes"),
            std::string::npos);
  EXPECT_EQ(refusal("T= 0.01\nREMOVE= 1\n0\n", 1, "consistent"), "");
  EXPECT_NE(refusal("T= 0.01\nREMOVE= 2\n1 1\n", 5).find("cell 1 is listed twice"),
            std::string::npos);
}

}  // namespace
