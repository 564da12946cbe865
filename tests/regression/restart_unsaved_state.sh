#!/usr/bin/env bash
# A restart of a scene whose state carries from step to step outside the checkpoint is refused
# at set-up with one error line naming the feature: plasticity (the per-element plastic
# strains), a follower load.edge-pressure (the previous step's positions),
# lagrange.bilateral moving points (they project one step late), a lagrange.distance geometric
# stiffness (the last step's multipliers) and HexahedronCompositeFEMMapping's forces
# (mapped.composite-loads: turned a step late). Each scene writes a
# checkpoint first, and its own restart is refused; a restart of the scene without them loads.
# Usage: restart_unsaved_state.sh <euler-implicit> <meshes dir>; the MPI launch line:
# tests/common/mpi_launch.sh.
set -uo pipefail
RANKS=2  # MPI ranks at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/mpi_launch.sh"
program=$(realpath "$1")
launch_in_scratch "$RANKS" "$program"
# shellcheck source=SCRIPTDIR/../common/checks.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/checks.sh"

BASE=(--mesh.box-cells="4 1 1" --solver.steps=2 --output.checkpoint-every=2
      --output.progress-every=0)
run() {  # run NAME ARGS...: the scene on RANKS ranks, out/err in NAME.out, NAME.err
  local name=$1 status=0
  shift
  mpi_command "$RANKS" "$program"
  timeout 100 "${MPI_COMMAND[@]}" "${BASE[@]}" --output.checkpoint="$name/ck" "$@" \
    > "$name.out" 2> "$name.err" || status=$?
  return $status
}

declare -A SCENES=(
  [plastic]="--material.model=corotational --material.plastic-max-threshold=0.05
             --material.plastic-yield-threshold=0.002"
  [follower]="--load.edge-pressure=follower|1|0|0|1|edges|0|1|1"
  [moving]="--lagrange.solver=block-gauss-seidel --lagrange.correction=linear-solver
            --lagrange.bilateral=indices|19|to|points|10|1|1|moving|0|0|0|0|1|0.1|0|0"
  [distance]="--lagrange.solver=block-gauss-seidel --lagrange.correction=linear-solver
              --lagrange.distance=0|1|geometric-stiffness|stabilized"
)
SCENES[composite]="--mesh.cell-type=hexahedron --mapped.composite-loads=0$(printf '|0.5%.0s' {1..216})"
declare -A NAMED=([plastic]="plastic strains" [follower]="previous step's positions"
                  [moving]="moving points" [distance]="last step's multipliers"
                  [composite]="frames of the step before")
for name in plastic follower moving distance composite; do
  read -r -d "" -a args <<< "${SCENES[$name]}"
  args=("${args[@]//|/ }")
  mkdir -p "$name"
  check "$name: the run writes its checkpoint" run "$name" "${args[@]}"
  check "$name: its restart is refused with one line naming why" \
    refused "initial.restart = $name/ck_000002.h5.*${NAMED[$name]}.*not in the checkpoint" \
    "$RANKS" "$program" "${BASE[@]}" --output.checkpoint="$name-restart/ck" "${args[@]}" \
    --restart="$name/ck_000002.h5"
done
mkdir -p plain
check "without them: the run writes its checkpoint" run plain
check "without them: its restart loads" run plain --restart=plain/ck_000002.h5
check "without them: restarted at step 2" grep -q 'initial.restart: plain/ck_000002.h5, step 2' \
  plain.out plain.err

echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
