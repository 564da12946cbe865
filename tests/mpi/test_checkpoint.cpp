// Checkpoint files (src/io/checkpoint_file.cpp) on 1, 2 and 3 ranks: a checkpoint holds the
// state in the input's node order, so its "positions" dataset read back on any rank count is
// the final-state CSV's x, y, z to the bit, and loaded back into the solver's layout it is the
// state it was written from; an HDF5 file that is not a checkpoint is a clean error on every rank.
#include <gtest/gtest.h>
#include <petscviewerhdf5.h>

#include <string>

#include "eis/app/simulation.hpp"
#include "eis/core/error.hpp"
#include "eis/io/checkpoint_file.hpp"
#include "mpi_support.hpp"
#include "output_files.hpp"

namespace {

using eis_test::root;
using eis_test::smallBeam;

class Checkpoint : public eis_test::TemporaryFolderTest {};

TEST_F(Checkpoint, LoadsBackTheStateItWasWrittenFromInNodeOrder) {
  eis_test::SceneFields scene = smallBeam();
  scene.steps = 3;
  eis::Simulation simulation(scene.toScene(), PETSC_COMM_WORLD, nullptr);
  simulation.run();
  const std::string path = file("state.h5");
  const eis::NodalTable gathered = simulation.gatherState();
  {
    eis::CheckpointWriter writer(path, simulation.mesh(), simulation.positions());
    writer.save("positions", simulation.positions(), 0, nullptr);
    writer.save("velocities", simulation.velocities(), 1, nullptr);
    writer.commit({3, 0.25});
  }
  eis::CheckpointReader reader("initial.restart", path, simulation.mesh(), simulation.positions());
  EXPECT_EQ(reader.clock().step, 3);
  EXPECT_EQ(reader.clock().time, 0.25);
  Vec x, v;
  ASSERT_EQ(VecDuplicate(simulation.positions(), &x), 0);
  ASSERT_EQ(VecDuplicate(simulation.velocities(), &v), 0);
  EXPECT_FALSE(reader.load("euler.solution", v)) << "a dataset that was not written";
  EXPECT_TRUE(reader.load("positions", x));
  EXPECT_TRUE(reader.load("velocities", v));
  PetscBool sameX = PETSC_FALSE, sameV = PETSC_FALSE;
  VecEqual(x, simulation.positions(), &sameX);
  VecEqual(v, simulation.velocities(), &sameV);
  EXPECT_TRUE(sameX);
  EXPECT_TRUE(sameV);
  VecDestroy(&x);
  VecDestroy(&v);

  // The dataset itself, row = node id: what the final-state CSV holds, to the bit.
  PetscViewer viewer;
  Vec natural;
  ASSERT_EQ(PetscViewerHDF5Open(PETSC_COMM_WORLD, path.c_str(), FILE_MODE_READ, &viewer), 0);
  ASSERT_EQ(VecCreate(PETSC_COMM_WORLD, &natural), 0);
  PetscObjectSetName(reinterpret_cast<PetscObject>(natural), "positions");
  ASSERT_EQ(VecLoad(natural, viewer), 0);
  VecScatter toZero;
  Vec all;
  ASSERT_EQ(VecScatterCreateToZero(natural, &toZero, &all), 0);
  VecScatterBegin(toZero, natural, all, INSERT_VALUES, SCATTER_FORWARD);
  VecScatterEnd(toZero, natural, all, INSERT_VALUES, SCATTER_FORWARD);
  PetscInt size = 0;
  VecGetSize(natural, &size);
  if (root()) {
    ASSERT_EQ(std::size_t(size), 3 * gathered.ids.size());
    const PetscScalar* values;
    VecGetArrayRead(all, &values);
    for (std::size_t k = 0; k < gathered.ids.size(); ++k)
      for (int d = 0; d < 3; ++d)
        EXPECT_EQ(values[3 * gathered.ids[k] + d], gathered.values[6 * k + d]) << k;
    VecRestoreArrayRead(all, &values);
  }
  VecScatterDestroy(&toZero);
  VecDestroy(&all);
  VecDestroy(&natural);
  PetscViewerDestroy(&viewer);
}

TEST_F(Checkpoint, AnHdf5FileThatIsNotACheckpointIsACleanError) {
  eis_test::SceneFields scene = smallBeam();
  eis::Simulation simulation(scene.toScene(), PETSC_COMM_WORLD, nullptr);
  const std::string path = file("foreign.h5");
  PetscViewer viewer;
  ASSERT_EQ(PetscViewerHDF5Open(PETSC_COMM_WORLD, path.c_str(), FILE_MODE_WRITE, &viewer), 0);
  PetscObjectSetName(reinterpret_cast<PetscObject>(simulation.positions()), "positions");
  ASSERT_EQ(VecView(simulation.positions(), viewer), 0);
  PetscViewerDestroy(&viewer);
  try {
    eis::CheckpointReader reader("initial.restart", path, simulation.mesh(),
                                 simulation.positions());
    FAIL() << "a foreign HDF5 file was read as a checkpoint";
  } catch (const eis::Error& e) {
    EXPECT_NE(std::string(e.what()).find("not an euler-implicit checkpoint"), std::string::npos)
        << e.what();
  }
}

}  // namespace
