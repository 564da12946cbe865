#!/usr/bin/env bash
# mesh.transform through the executable, on 2 ranks: the rest positions of the built-in box and
# of a mesh file are scaled, rotated and translated in the order the keys are given (every node
# fixed and no load, so the final state is the transformed rest state), and a bad operation is
# one error naming the key.
# Usage: mesh_transform.sh <euler-implicit> <meshes dir>; the MPI launch line: tests/common/mpi_launch.sh.
set -euo pipefail
RANKS=2  # MPI ranks per run; tests/CMakeLists.txt reads this line too (PROCESSORS)
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/mpi_launch.sh"
meshes=$(realpath "$2")
launch_in_scratch "$RANKS" "$1"

# shellcheck source=SCRIPTDIR/../common/checks.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/checks.sh"
# run OUTPUT ARGS...: a still run whose final state is OUTPUT; its status in $status.
run() {
  status=0
  timeout 60 "${MPI_COMMAND[@]}" --constraint.fixed=all --load.gravity="0 0 0" \
    --solver.steps=1 --output.final-state="$1" "${@:2}" > "$1.out" 2>&1 || status=$?
  ((status == 0)) || cat "$1.out"
}
# row FILE ID: the position columns of node ID.
row() { awk -F, -v id="$2" '$1 == id {print $2, $3, $4}' "$1"; }
# near FILE ID X Y Z: node ID lies at (X, Y, Z) to 1e-12.
near() {
  row "$1" "$2" | awk -v x="$3" -v y="$4" -v z="$5" \
    '{d = ($1 - x)^2 + ($2 - y)^2 + ($3 - z)^2; exit !(d < 1e-24)}'
}

box=(--mesh.box-size="2 1 1" --mesh.box-cells="2 1 1")
# Node 1 of this box is (1, 0, 0), node 3 is (0, 1, 0).
run scale_then_translate.csv "${box[@]}" --mesh.transform="scale 2 1 1" \
  --mesh.transform="translate 1 0 0"
check "scale then translate: (1,0,0) -> (3,0,0)" test "$(row scale_then_translate.csv 1)" = "3 0 0"
run translate_then_scale.csv "${box[@]}" --mesh.transform="translate 1 0 0" \
  --mesh.transform="scale 2 1 1"
check "translate then scale: (1,0,0) -> (4,0,0)" test "$(row translate_then_scale.csv 1)" = "4 0 0"
run rotate_z.csv "${box[@]}" --mesh.transform="rotate 0 0 90"
check "rotate 0 0 90: (1,0,0) -> (0,1,0)" near rotate_z.csv 1 0 1 0
check "rotate 0 0 90: (0,1,0) -> (-1,0,0)" near rotate_z.csv 3 -1 0 0
run rotate_xy.csv "${box[@]}" --mesh.transform="rotate 90 90 0"
check "rotate 90 90 0 (x first, then y): (0,1,0) -> (1,0,0)" near rotate_xy.csv 3 1 0 0
# A file: the beam's node 0, mirrored in x and moved by (5, 6, 7).
run file.csv --mesh.file="$meshes/beam_v22_ascii.msh" --mesh.transform="scale -1 1 1" \
  --mesh.transform="translate 5 6 7"
x0=$(awk '/\$Nodes/ {getline; getline; print $2, $3, $4; exit}' "$meshes/beam_v22_ascii.msh")
read -r bx by bz <<<"$x0"
check "a file's nodes are transformed too" near file.csv 0 "$(awk -v x="$bx" 'BEGIN {print 5 - x}')" \
  "$(awk -v y="$by" 'BEGIN {print y + 6}')" "$(awk -v z="$bz" 'BEGIN {print z + 7}')"
check "a mirrored mesh's tetrahedra are reported inverted" grep -q "negatively oriented" file.csv.out
status=0
timeout 60 "${MPI_COMMAND[@]}" --mesh.transform="scale 1 0 1" > bad.out 2>&1 || status=$?
check "a zero scale is refused" test "$status" -ne 0
check "with one error naming the key" \
  test "$(grep -c 'euler-implicit: error: mesh.transform = scale 1 0 1' bad.out)" -eq 1
echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
