#!/usr/bin/env bash
# A node that no tetrahedron uses: one warning, and the final state lists it unchanged (its
# input position, zero velocity) in its input position among the rows, on 2 ranks.
# Usage: unused_nodes.sh <euler-implicit> <meshes dir>; the MPI launch line: tests/common/mpi_launch.sh.
set -euo pipefail
RANKS=2  # MPI ranks per run; tests/CMakeLists.txt reads this line too (PROCESSORS)
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/mpi_launch.sh"
launch_in_scratch "$RANKS" "$1"

# Node tag 3 (0-based id 2) at (5, 6, 7) belongs to no element.
cat > unused.msh <<'MSH'
$MeshFormat
2.2 0 8
$EndMeshFormat
$Nodes
6
1 0 0 0
2 1 0 0
3 5 6 7
4 0 1 0
5 0 0 1
6 1 1 1
$EndNodes
$Elements
2
1 4 2 1 1 1 2 4 5
2 4 2 1 1 2 4 5 6
$EndElements
MSH

status=0
timeout 60 "${MPI_COMMAND[@]}" --mesh.file=unused.msh \
  --constraint.fixed-box="0 0 0 0 1 1" --solver.steps=2 --output.final-state=final.csv \
  > out.txt 2> err.txt || status=$?
failures=0
check() {  # check DESCRIPTION COMMAND...
  if "${@:2}"; then echo "ok   $1"; else echo "FAIL $1"; failures=$((failures + 1)); fi
}
check "the run succeeds" test "$status" -eq 0
check "one warning names the unused node count" \
  test "$(grep -c 'warning: 1 nodes belong to no tetrahedron' out.txt err.txt | awk -F: '{s += $2} END {print s}')" -eq 1
check "every input node has a row" test "$(($(wc -l < final.csv) - 1))" -eq 6
check "the unused node is unchanged" grep -qx '2,5,6,7,0,0,0' final.csv
check "a used, free node moved" bash -c "grep -q '^5,' final.csv && ! grep -qx '5,1,1,1,0,0,0' final.csv"
if ((failures)); then cat out.txt err.txt; fi
echo "$((5 - failures)) passed, $failures failed"
exit $((failures > 0))
