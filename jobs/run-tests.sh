#!/usr/bin/env bash
# Quick start, second command: install, build, and run the whole test suite with ctest (unit
# tests on one rank, MPI tests on 1, 2 and 3 ranks, whole-run regression tests).
set -euo pipefail
cd "$(dirname "$0")/.."
bash jobs/build.sh
source jobs/mpi-env.sh
cd build
ctest --output-on-failure --timeout 300 "$@"
