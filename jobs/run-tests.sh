#!/usr/bin/env bash
# Quick start, second command: install, build, and run the whole test suite with ctest, every
# launch of a GoogleTest program a test of its own (unit: one process; mpi.np<N>: on 1, 2 and 3
# ranks; GTEST_FILTER=<Suite>.* picks suites) and every whole run too (regression.*), as many at
# once as there are cores. CMake sets up the MPI launch
# (root, oversubscription), so no environment is needed. Then the checking build
# (jobs/sanitize.sh), against the PETSc with 64-bit indices: the unit and 2-rank MPI tests again
# under AddressSanitizer and UndefinedBehaviorSanitizer, and each fuzz harness for 30 s
# (EIS_FUZZ_SECONDS).
# Extra arguments go to ctest, e.g. -L mpi, -R Corotational, -N, and run that subset of the first
# build only; EIS_SKIP_SANITIZE=1 leaves the checking build out.
# Each stage's wall time is printed when it ends (CI has a time budget: this says where it went).
set -euo pipefail
cd "$(dirname "$0")/.."
# stage NAME COMMAND...: runs the command, then prints how long it took.
stage() {
  local start=$SECONDS
  "${@:2}"
  echo "run-tests: $1 took $((SECONDS - start)) s"
}
stage "install and build" bash jobs/build.sh
suite() { (cd build && ctest --output-on-failure --parallel "$(nproc)" "$@"); }
stage "the test suite" suite "$@"
if (($# == 0)) && [[ "${EIS_SKIP_SANITIZE:-0}" != 1 ]]; then
  stage "the checking build and its tests" bash jobs/sanitize.sh
fi
