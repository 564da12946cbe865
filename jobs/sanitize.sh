#!/usr/bin/env bash
# The checking build: clang with AddressSanitizer and UndefinedBehaviorSanitizer in
# ./build-sanitize, against the PETSc with 64-bit indices (cmake -DEIS_PETSC64=ON, Debian's
# libpetsc64-real-dev: every PetscInt handed to MPI, PetscSF, IS or HDF5 is then 64 bits wide, so
# this one build also checks the build that takes meshes past 2^31 unknowns). -O1 with line
# tables, assertions on: what the sanitizers are usually run with, and about half the compile
# time of an optimised build with full debug information; only the programs run below are
# built. Then the unit tests, in two GoogleTest shards side by side, one per core (leaks checked
# too: OpenMPI's and PETSc's start-up allocations are suppressed by tests/sanitize/lsan.supp,
# nothing of ours is; unwinding every allocation for that check keeps a core busy), the MPI
# tests on 2 ranks in one launch (memory errors and undefined behaviour; unwinding every
# allocation of every rank for the leak check would multiply their time, and their code is the
# unit tests'; the studies of the discretisation, minutes of steps of code the other tests run
# too, skip there: EIS_ON_ONE_RANK_ONLY in tests/common/mpi_support.hpp) and the libFuzzer
# harnesses, side by side (each fuzz.<reader> replays its past findings from
# tests/fuzz/regressions, then fuzzes EIS_FUZZ_SECONDS, 30 by default, leaks checked; a longer
# campaign is EIS_FUZZ_SECONDS=3600 bash jobs/sanitize.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
bash jobs/install-deps.sh petsc64
# shellcheck source=mpi-env.sh
source jobs/mpi-env.sh
# Set before the build too: the test listing after each link runs the instrumented executables.
# OpenMPI keeps its plugins loaded so that leak reports can name them (and be suppressed).
export OMPI_MCA_mca_base_component_disable_dlclose=1 PMIX_MCA_mca_base_component_disable_dlclose=1
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1:fast_unwind_on_malloc=0
export LSAN_OPTIONS=suppressions=$PWD/tests/sanitize/lsan.supp:print_suppressions=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
CC=clang CXX=clang++ cmake -S . -B build-sanitize -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_C_FLAGS_DEBUG="-O1 -gline-tables-only" -DCMAKE_CXX_FLAGS_DEBUG="-O1 -gline-tables-only" \
  -DEIS_SANITIZE=ON -DEIS_FUZZ=ON -DEIS_PETSC64=ON \
  -DEIS_FUZZ_SECONDS="${EIS_FUZZ_SECONDS:-30}" >/dev/null
cmake --build build-sanitize -j"$(nproc)" --target eis_unit_tests eis_mpi_tests \
  fuzz_gmsh_reader fuzz_config_file fuzz_command_line
cd build-sanitize
for shard in 0 1; do
  GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$shard bin/eis_unit_tests --gtest_brief=1 &
  shards[shard]=$!
done
# Both shards end before either one's failure stops the script, so every failing test is reported.
failed=0
for pid in "${shards[@]}"; do wait "$pid" || failed=1; done
((failed == 0))
ctest --verbose --parallel 3 -R '^fuzz\.'
ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:strict_string_checks=1 \
  mpiexec -n 2 bin/eis_mpi_tests --gtest_brief=1
