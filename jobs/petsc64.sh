#!/usr/bin/env bash
# The 64-bit-index build: cmake -DEIS_PETSC64=ON against Debian's libpetsc64-real-dev (PetscInt
# of 64 bits, cmake/FindPETSc.cmake) in ./build-petsc64, then the unit tests in one process and a
# fixed subset of the MPI tests on 2 ranks, once.
# Kept to about 4 minutes on 2 cores, as .ci/run must stay near 15 (it took about 11.5 without
# this): only the library and the two test programs are built, without optimisation
# (build type None: a third less compile time than Release; the tests take as long, the work
# being PETSc's), and only the MPI suites whose code hands PetscInt to MPI, PetscSF, IS or HDF5
# run: Distribution (DMPlex distribution, point records as MPIU_INT, owners, refinement),
# Checkpoint (PetscInt attributes, the scatter to node order and back), MpiChunks, VtkSeries,
# Tangents, Selection and two whole Cantilever runs (assembly with ghost rows sent as MPIU_INT,
# 2 ranks against the serial answer). The 1- and 3-rank runs, the other suites and the whole
# runs of tests/regression repeat what the 32-bit build checks. Measured here, this script under
# a load of 3 to 5 from other jobs, no ccache: 7:22 wall to the end of the unit tests (7.6 CPU
# minutes: about 3.8 on 2 idle cores), then 20 s for the MPI cases (one launch).
set -euo pipefail
cd "$(dirname "$0")/.."
bash jobs/install-deps.sh petsc64
# shellcheck source=mpi-env.sh
source jobs/mpi-env.sh
cmake -S . -B build-petsc64 -DCMAKE_BUILD_TYPE=None -DEIS_PETSC64=ON >/dev/null
cmake --build build-petsc64 -j"$(nproc)" --target eis_unit_tests eis_mpi_tests
cd build-petsc64
bin/eis_unit_tests --gtest_brief=1
mpiexec -n 2 bin/eis_mpi_tests --gtest_brief=1 \
  --gtest_filter='Distribution*:Checkpoint*:MpiChunks*:VtkSeries*:Tangents*:Selection*:Cantilever.EveryRankCount*:Cantilever.MatrixFreeAgrees*'
