#!/usr/bin/env bash
# The 64-bit-index build: cmake -DEIS_PETSC64=ON against Debian's libpetsc64-real-dev (PetscInt
# of 64 bits, cmake/FindPETSc.cmake) in ./build-petsc64, then the unit tests in one process and
# the MPI tests on 2 ranks once. Only the two test programs are built (the library whole, not the
# euler-implicit and partition-surface programs, which add nothing the tests would check here),
# and only the 2-rank MPI tests are run: the 1- and 3-rank runs of the same cases and the whole
# runs of tests/regression repeat what the 32-bit build checks and would take CI past its 15
# minutes on 2 cores. What differs with 64-bit PetscInt (MPI datatypes, IS and HDF5 integer
# datasets, the size limits of mesh/mesh_source.cpp) is reached by these.
set -euo pipefail
cd "$(dirname "$0")/.."
bash jobs/install-deps.sh
# shellcheck source=mpi-env.sh
source jobs/mpi-env.sh
cmake -S . -B build-petsc64 -DCMAKE_BUILD_TYPE=Release -DEIS_PETSC64=ON >/dev/null
cmake --build build-petsc64 -j"$(nproc)" --target eis_unit_tests eis_mpi_tests
cd build-petsc64
bin/eis_unit_tests --gtest_brief=1
ctest --output-on-failure --parallel "$(nproc)" -R '^mpi\.np2\.'
