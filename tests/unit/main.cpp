// Unit tests run on one rank; PETSc is initialized once for all of them.
#include <gtest/gtest.h>
#include <petscsys.h>

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  PetscInitialize(&argc, &argv, nullptr, nullptr);
  const int result = RUN_ALL_TESTS();
  PetscFinalize();
  return result;
}
