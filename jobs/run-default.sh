#!/usr/bin/env bash
# Quick start, first command: install, build, and run the built-in default scene (a cantilever
# beam under gravity) on 2 MPI ranks, writing ParaView output under ./output.
# Extra arguments go to euler-implicit (e.g. --solver.steps=20 -ksp_monitor).
set -euo pipefail
cd "$(dirname "$0")/.."
bash jobs/build.sh
source jobs/mpi-env.sh
mkdir -p output
mpiexec -n 2 build/bin/euler-implicit \
  --output.vtk=output/beam --output.history=output/history.csv \
  --output.final-state=output/final_state.csv "$@"
echo "Open output/beam.pvd in ParaView."
