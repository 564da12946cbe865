#!/usr/bin/env bash
# A run of N steps and a run of K steps restarted from its checkpoint for the N - K others end
# in the same final state, bit for bit (cmp), on 1 and on 2 ranks, with the solver's defaults:
# a linear model's solves start from PETSc's projection on the last 10 (b, x) pairs, which the
# checkpoint carries (euler.projection.*) and the restart hands back to PETSc. Scenes: the
# default tetrahedral box; a UniformMass box without material (the solve is M dv = h f); and
# Newton iterations (solver.newton = full, Newton's previous velocity carried) under Rayleigh
# damping; and a LinearMovement (SOFA rule) whose key frames read the steps' clock, t += dt
# from the run's start, which the checkpoint carries (attribute clock: 13 additions of 0.01 are
# not 0.13). K = 7 (fewer pairs than 10 stored) and K = 13 (the window has moved).
# Usage: restart_bitwise.sh <euler-implicit> <meshes dir>; the MPI launch line:
# tests/common/mpi_launch.sh.
set -uo pipefail
RANKS=2  # MPI ranks at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/mpi_launch.sh"
# shellcheck source=SCRIPTDIR/../common/checks.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/checks.sh"
program=$(realpath "$1")
launch_in_scratch "$RANKS" "$program"

STEPS=20
run() {  # run RANKS ARGS...: status 0
  mpi_command "$1" "$program"
  shift
  timeout 100 "${MPI_COMMAND[@]}" --mesh.box-cells="6 2 2" --output.progress-every=0 "$@" \
    > /dev/null 2>&1
}
# same_after_restart NAME RANKS K ARGS...: the run of STEPS steps and the restart from step K
# write the same final state.
same_after_restart() {
  local name=$1 ranks=$2 k=$3
  shift 3
  run "$ranks" "$@" --solver.steps=$STEPS --output.final-state="$name.full.csv" &&
    run "$ranks" "$@" --solver.steps="$k" --output.checkpoint="$name.ck" &&
    run "$ranks" "$@" --solver.steps=$STEPS --restart="$(printf '%s.ck_%06d.h5' "$name" "$k")" \
      --output.final-state="$name.restart.csv" &&
    cmp -s "$name.full.csv" "$name.restart.csv"
}
for n in 1 2; do
  for k in 7 13; do
    check "$n ranks, default scene, restart at step $k: bit for bit" \
      same_after_restart default$n$k $n $k
  done
  check "$n ranks, UniformMass without material, restart at step 13: bit for bit" \
    same_after_restart uniform$n $n 13 --mass.type=uniform --material.model=none
  check "$n ranks, Newton under Rayleigh damping, restart at step 13: bit for bit" \
    same_after_restart newton$n $n 13 --solver.newton=full --solver.newton-guess=extrapolated \
    --solver.rayleigh-mass=0.1 --solver.rayleigh-stiffness=0.01
  check "$n ranks, LinearMovement under Rayleigh damping, restart at step 13: bit for bit" \
    same_after_restart movement$n $n 13 --solver.rayleigh-mass=0.1 \
    --solver.rayleigh-stiffness=0.01 --constraint.linear-movement="0 0 0 0 0.2 0 0.1 0 : box \
9.99 -1 -1 11 2 2"
done

echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
