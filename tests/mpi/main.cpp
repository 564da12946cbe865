// MPI tests: every rank runs every test; only rank 0 prints, and the exit status is the same
// on every rank (a test that fails anywhere fails everywhere through the collective checks).
#include <gtest/gtest.h>
#include <petscsys.h>

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  PetscInitialize(&argc, &argv, nullptr, nullptr);
  int rank = 0;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  if (rank != 0) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  int failed = RUN_ALL_TESTS() != 0, anyFailed = 0;
  MPI_Allreduce(&failed, &anyFailed, 1, MPI_INT, MPI_MAX, PETSC_COMM_WORLD);
  PetscFinalize();
  return anyFailed;
}
