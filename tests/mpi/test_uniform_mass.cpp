// mass.type = uniform (SOFA UniformMass, model/mass.cpp) on 1, 2 and 3 ranks: every node has the
// mass asked for, whatever the cells' volumes and the partition, so a free body falls as the
// implicit Euler step of a point mass does on any mesh.
#include <gtest/gtest.h>

#include "eis/app/simulation.hpp"
#include "eis/model/mechanical_system.hpp"
#include "mpi_support.hpp"

namespace {

class UniformMass : public eis_test::TightSolvesTest {};

// M applied to a unit translation gives every node the same mass; free fall under gravity is
// x_n = x_0 + h^2 g n (n + 1) / 2 on a coarse and a fine mesh.
TEST_F(UniformMass, EveryNodeHasItsMassAndFallsFreely) {
  const std::array<int, 3> meshes[] = {{4, 1, 1}, {8, 2, 3}};
  for (const auto& cells : meshes)
    for (const std::string key : {"mass.total-mass", "mass.vertex-mass", ""}) {
      SCOPED_TRACE(key + " " + std::to_string(cells[2]));
      eis_test::SceneFields scene;
      scene.boxSize = {4, 1, 1};
      scene.boxCells = cells;
      scene.youngModulus = 2e3;
      scene.steps = 5;
      scene.mass = eis::MassType::Uniform;
      scene.gravity = {0.5, -9.81, 1};
      if (!key.empty()) scene.extra = {{key, "2.5"}};  // none: SOFA's total mass 1
      const double nodes = (cells[0] + 1) * (cells[1] + 1) * (cells[2] + 1);
      const double vertexMass = key == "mass.vertex-mass" ? 2.5 : (key.empty() ? 1 : 2.5) / nodes;
      eis::Simulation simulation(scene.toScene(), PETSC_COMM_WORLD, nullptr);
      eis::MechanicalSystem& system = simulation.system();
      Vec ones = system.createVector(), masses = system.createVector();
      VecSet(ones, 1.0);
      VecZeroEntries(masses);
      system.addMBKv(masses, 1.0, 0.0, 0.0, ones);
      PetscReal lo, hi, total;
      VecMin(masses, nullptr, &lo);
      VecMax(masses, nullptr, &hi);
      VecSum(masses, &total);
      EXPECT_NEAR(lo, vertexMass, 1e-14);
      EXPECT_NEAR(hi, vertexMass, 1e-14);
      EXPECT_NEAR(total, 3 * nodes * vertexMass, 1e-12);
      for (Vec* w : {&ones, &masses}) VecDestroy(w);
      simulation.run();
      const eis::NodalTable state = simulation.gatherState();
      if (!eis_test::root()) continue;
      ASSERT_EQ(double(state.ids.size()), nodes);
      const double n = scene.steps, h = scene.dt;
      for (std::size_t i = 0; i < state.ids.size(); ++i) {
        const auto rest = eis_test::boxRestPosition(scene.boxSize, cells, state.ids[i]);
        for (int d = 0; d < 3; ++d) {
          EXPECT_NEAR(state.values[i * state.width + d],
                      rest[d] + h * h * scene.gravity[d] * n * (n + 1) / 2, 1e-11);
          EXPECT_NEAR(state.values[i * state.width + 3 + d], n * h * scene.gravity[d], 1e-11);
        }
      }
    }
}

}  // namespace
