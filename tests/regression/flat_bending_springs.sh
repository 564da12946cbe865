#!/usr/bin/env bash
# SOFA's TriangularBendingSprings on a body of triangles whose triangles lie on several ranks (a
# spring's two triangles on two ranks borrow the far vertex, model/boundary_bending_springs): a
# sheet of 6 x 4 squares cut into triangles, held along one edge, bending under gravity out of
# its plane, ends in one state on 1, 2 and 3 ranks. Its force and tangent are checked against a
# serial evaluation, a spring worked out by hand and finite differences in
# tests/mpi/test_flat_bending_springs.cpp.
# Usage: flat_bending_springs.sh <euler-implicit>; the MPI launch line: tests/common/mpi_launch.sh.
set -uo pipefail
RANKS=3  # MPI ranks at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
here=$(dirname "$(realpath "${BASH_SOURCE[0]}")")
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$here/../common/mpi_launch.sh"
# shellcheck source=SCRIPTDIR/../common/checks.sh
source "$here/../common/checks.sh"
program=$(realpath "$1")
launch_in_scratch 1 "$program"

run() {  # run RANKS ARGS...: euler-implicit on RANKS ranks, its output in run.log
  mpi_command "$1" "$program"
  "${MPI_COMMAND[@]}" "${@:2}" >run.log 2>&1
}

nodes="" triangles=""
for j in 0 1 2 3 4; do for i in 0 1 2 3 4 5 6; do nodes+="$i $j 0 "; done; done
for j in 0 1 2 3; do for i in 0 1 2 3 4 5; do
  a=$((7 * j + i)); triangles+="$a $((a + 1)) $((a + 8)) $a $((a + 8)) $((a + 7)) "
done; done
for ranks in 1 2 3; do
  run "$ranks" --mesh.nodes="$nodes" --mesh.triangles="$triangles" \
    --membrane.young-modulus=600 --membrane.poisson-ratio=0.3 --material.model=none \
    --bending.stiffness=50 --bending.damping=0.5 --solver.operator=matrix-free \
    --material.density=0.01 --load.gravity="0 -2 -9.8" --constraint.fixed="indices 0 7 14 21 28" \
    --solver.dt=0.05 --solver.steps=4 --solver.rtol=1e-13 --output.final-state="sheet$ranks.csv"
  check "the sheet with bending springs runs on $ranks ranks" test -s "sheet$ranks.csv"
done
check "the sheet ends on 2 ranks where on 1" same_state sheet1.csv sheet2.csv 1e-10
check "the sheet ends on 3 ranks where on 1" same_state sheet1.csv sheet3.csv 1e-10

echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
