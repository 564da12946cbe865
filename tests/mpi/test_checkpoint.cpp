// Checkpoint files (src/io/checkpoint_file.cpp) on 1, 2 and 3 ranks: a checkpoint holds the
// state in the input's node order, so its "positions" dataset read back on any rank count is
// the final-state CSV's x, y, z to the bit, and loaded back into the solver's layout it is the
// state it was written from; an HDF5 file that is not a checkpoint, or one whose step, time or
// values no run can have, is a clean error on every rank. A checkpoint records the scene's keys
// that change the answer (io/checkpoint_scene), and a restart names the first that differs.
// It holds what a Python controller changed; an older one that lacked it is refused at restart.
#include <gtest/gtest.h>
#include <petscviewerhdf5.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

#include "eis/app/simulation.hpp"
#include "eis/core/error.hpp"
#include "eis/io/checkpoint_file.hpp"
#include "eis/io/checkpoint_scene.hpp"
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
    writer.commit({3, 0.25, 0.25000000000000006});
  }
  eis::CheckpointReader reader("initial.restart", path, simulation.mesh(), simulation.positions());
  EXPECT_EQ(reader.clock().step, 3);
  EXPECT_EQ(reader.clock().time, 0.25);
  EXPECT_EQ(reader.clock().clock, 0.25000000000000006) << "the steps' clock, to the bit";
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

// The message of the error `read` throws, or "no error".
template <class Read>
std::string errorOf(Read read) {
  try {
    read();
  } catch (const eis::Error& e) {
    return e.what();
  }
  return "no error";
}

TEST_F(Checkpoint, AStateNoRunCanHaveIsRefusedWhenOpened) {
  eis_test::SceneFields scene = smallBeam();
  eis::Simulation simulation(scene.toScene(), PETSC_COMM_WORLD, nullptr);
  const auto write = [&](const std::string& path, eis::Clock clock, Vec x) {
    eis::CheckpointWriter writer(path, simulation.mesh(), simulation.positions());
    writer.save("positions", x, 0, nullptr);
    writer.save("velocities", simulation.velocities(), 1, nullptr);
    writer.commit(clock);
  };
  const auto open = [&](const std::string& path) {
    return errorOf([&] {
      eis::CheckpointReader reader("initial.restart", path, simulation.mesh(),
                                   simulation.positions());
      Vec x;
      EIS_CHECK(VecDuplicate(simulation.positions(), &x));
      try {
        reader.load("positions", x);
      } catch (const eis::Error&) {
        VecDestroy(&x);
        throw;
      }
      EIS_CHECK(VecDestroy(&x));
    });
  };
  write(file("negative.h5"), {-1, 0.0}, simulation.positions());
  EXPECT_EQ(open(file("negative.h5")),
            "initial.restart = " + file("negative.h5") + ": attribute step is -1, not >= 0");
  write(file("nan_time.h5"), {1, std::nan("")}, simulation.positions());
  EXPECT_EQ(open(file("nan_time.h5")),
            "initial.restart = " + file("nan_time.h5") + ": attribute time is not a finite number");
  Vec x;
  ASSERT_EQ(VecDuplicate(simulation.positions(), &x), 0);
  ASSERT_EQ(VecCopy(simulation.positions(), x), 0);
  PetscInt start = 0, end = 0;
  ASSERT_EQ(VecGetOwnershipRange(x, &start, &end), 0);
  if (end > start) ASSERT_EQ(VecSetValue(x, start, std::nan(""), INSERT_VALUES), 0);
  ASSERT_EQ(VecAssemblyBegin(x), 0);
  ASSERT_EQ(VecAssemblyEnd(x), 0);
  write(file("nan_x.h5"), {1, 0.01}, x);
  VecDestroy(&x);
  EXPECT_EQ(open(file("nan_x.h5")),
            "initial.restart = " + file("nan_x.h5") +
                ": dataset positions holds a value that is not finite (NaN or infinite)");
}

TEST_F(Checkpoint, RecordsTheKeysThatChangeTheAnswer) {
  eis_test::SceneFields scene = smallBeam();
  const std::string ours = eis::checkpointSceneText(scene.toScene());
  EXPECT_NE(ours.find("material.young-modulus=10000\n"), std::string::npos) << ours;
  EXPECT_NE(ours.find("solver.dt="), std::string::npos) << ours;
  for (const char* left : {"solver.steps=", "output.", "initial.", "solver.rtol=", "scene."})
    EXPECT_EQ(ours.find(left), std::string::npos) << left;

  scene.youngModulus = 2e4;
  const std::string stiffer = eis::checkpointSceneText(scene.toScene());
  EXPECT_EQ(eis::checkpointSceneDifference(ours, stiffer),
            "material.young-modulus is 10000 in the checkpoint, 20000 in this scene");
  scene.youngModulus = 1e4;
  scene.steps = 500;
  scene.pcLag = 3;
  scene.extra.push_back({"solver.rtol", "1e-12"});
  scene.extra.push_back({"output.checkpoint", "elsewhere/ck"});
  EXPECT_EQ(eis::checkpointSceneDifference(ours, eis::checkpointSceneText(scene.toScene())), "");
  EXPECT_EQ(eis::checkpointSceneDifference("a=1\n", ""),
            "a is 1 in the checkpoint, not given in "
            "this scene");

  // The record goes into the file with its body and comes back as written.
  eis::Simulation simulation(scene.toScene(), PETSC_COMM_WORLD, nullptr);
  {
    eis::CheckpointWriter writer(file("record.h5"), PETSC_COMM_WORLD);
    writer.body("", simulation.mesh(), simulation.positions(), ours);
    writer.save("positions", simulation.positions(), 0, nullptr);
    writer.save("velocities", simulation.velocities(), 1, nullptr);
    writer.commit({0, 0.0});
  }
  eis::CheckpointReader reader("initial.restart", file("record.h5"), PETSC_COMM_WORLD);
  ASSERT_EQ(reader.bodies().size(), 1u);
  EXPECT_EQ(reader.bodies()[0].scene, ours);
}

// A checkpoint written before checkpoints recorded their scene (the one-body writer records
// none) still restarts, with one warning that it was not checked.
TEST_F(Checkpoint, ACheckpointWithoutASceneRecordRestartsWithAWarning) {
  eis_test::SceneFields scene = smallBeam();
  const std::string path = file("old.h5");
  {
    eis::Simulation simulation(scene.toScene(), PETSC_COMM_WORLD, nullptr);
    eis::CheckpointWriter writer(path, simulation.mesh(), simulation.positions());
    writer.save("positions", simulation.positions(), 0, nullptr);
    writer.save("velocities", simulation.velocities(), 1, nullptr);
    writer.commit({2, 0.02});
  }
  scene.extra.push_back({"initial.restart", path});
  const std::string logPath = file("log" + std::to_string(eis::commRank(PETSC_COMM_WORLD)));
  std::FILE* log = std::fopen(logPath.c_str(), "w");
  ASSERT_NE(log, nullptr);
  { const eis::Simulation restarted(scene.toScene(), PETSC_COMM_WORLD, log); }
  std::fclose(log);
  if (!root()) return;
  std::ifstream in(logPath);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("euler-implicit: warning: initial.restart = " + path +
                      ": written before checkpoints recorded their scene; not checked against "
                      "this one\n"),
            std::string::npos)
      << text;
}

}  // namespace

// What a Python controller changed is held (app/simulation_controllers): the root's dt, and a
// body's loads and stiffness factors as text, read back as written; a dt no run has is refused
// when opened. A checkpoint of an older build that names what it lacked
// (changed_by_controller) is refused at restart, naming it.
TEST_F(Checkpoint, HoldsWhatAControllerChangedAndRefusesAnOlderOneThatLackedIt) {
  eis_test::SceneFields scene = smallBeam();
  const auto write = [&](const std::string& path, const eis::ControllerDt& dt) {
    eis::Simulation simulation(scene.toScene(), PETSC_COMM_WORLD, nullptr);
    eis::CheckpointWriter writer(path, PETSC_COMM_WORLD);
    writer.body("", simulation.mesh(), simulation.positions(), "", "0 0 1 2 3 0\n", "2 0.5 1.5");
    writer.save("positions", simulation.positions(), 0, nullptr);
    writer.save("velocities", simulation.velocities(), 1, nullptr);
    writer.commit({2, 0.02}, dt);
  };
  write(file("held.h5"), {true, 0.01, 0.015, 0});
  {
    const eis::CheckpointReader reader("initial.restart", file("held.h5"), PETSC_COMM_WORLD);
    EXPECT_TRUE(reader.controllerDt().stored);
    EXPECT_EQ(reader.controllerDt().dt, 0.01);
    EXPECT_EQ(reader.controllerDt().next, 0.015);
    EXPECT_EQ(reader.controllerDt().root, 0.0);
    ASSERT_EQ(reader.bodies().size(), 1u);
    EXPECT_EQ(reader.bodies()[0].forces, "0 0 1 2 3 0\n");
    EXPECT_EQ(reader.bodies()[0].factors, "2 0.5 1.5");
    EXPECT_EQ(reader.changed(), "");
  }
  write(file("zero_dt.h5"), {true, 0.0, 0.0, 0.0});
  EXPECT_EQ(errorOf([&] {
              eis::CheckpointReader reader("initial.restart", file("zero_dt.h5"), PETSC_COMM_WORLD);
            }),
            "initial.restart = " + file("zero_dt.h5") +
                ": attribute controller_dt is not a finite number > 0");

  const std::string path = file("older.h5");
  write(path, {});
  PetscViewer viewer;
  ASSERT_EQ(PetscViewerHDF5Open(PETSC_COMM_WORLD, path.c_str(), FILE_MODE_APPEND, &viewer), 0);
  const char* changed = "pull (ConstantForceField force)";
  ASSERT_EQ(
      PetscViewerHDF5WriteAttribute(viewer, "/", "changed_by_controller", PETSC_STRING, changed),
      0);
  ASSERT_EQ(PetscViewerDestroy(&viewer), 0);
  scene.extra.push_back({"initial.restart", path});
  EXPECT_EQ(
      errorOf([&] { const eis::Simulation restarted(scene.toScene(), PETSC_COMM_WORLD, nullptr); }),
      "initial.restart = " + path +
          ": a Python controller changed pull (ConstantForceField force) during the run "
          "that wrote it, which the checkpoint does not hold, so a restart would differ "
          "from that run (start afresh instead)");
}
