#!/usr/bin/env bash
# partition-surface (src/app/partition_surface.cpp) on the default 20x4x4 box: its counts agree with
# what euler-implicit itself reports after distributing the same box on 3 ranks (ghost
# nodes per rank, METIS edge cut: both take their owners from eis::balancedVertexOwners), every
# row keeps the ownership invariants, the box converted to HDF5 is reported on 3 ranks as the
# solver partitions it, so is the box of hexahedra, and bad input ends with a non-zero status and
# one error line.
# Usage: partition_surface.sh <euler-implicit> <meshes dir>; partition-surface is looked for next
# to euler-implicit (both land in the build's bin/). The MPI launch line: tests/common/mpi_launch.sh.
set -euo pipefail
RANKS=3  # MPI ranks, as many as parts below; tests/CMakeLists.txt reads this line too (PROCESSORS)
exe=$(realpath "$1")
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/mpi_launch.sh"
mpi_command "$RANKS" "$exe"
tool=$(dirname "$exe")/partition-surface
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

# shellcheck source=SCRIPTDIR/../common/checks.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/checks.sh"
if [ ! -x "$tool" ]; then echo "FAIL $tool is not built"; exit 1; fi

# A row: parts unknowns | owned min mean max max/mean | ghosts min mean max | halo min mean max |
# neighbours min mean max | edge-cut ghost/owned halo/owned off-node-halo seconds (20 fields
# without the bars).
rows() { tr -d '|' < "$1" | awk 'NF == 20 && $1 ~ /^[0-9]+$/'; }
field() { rows "$1" | awk -v p="$2" -v f="$3" '$1 == p {print $f}'; }

# 1. The same partition and ownership as euler-implicit on 3 ranks (where DMPlex's own rule, the
#    highest part owns a shared node, gives other ghost counts: 0..25, not 15..18).
#    One unknown per node, so that ghost unknowns are the ghost nodes its "mesh:" line counts.
"$tool" --parts=3 --dofs-per-node=1 > tool.txt
status=0
timeout 60 "${MPI_COMMAND[@]}" --solver.steps=0 > run.txt 2>&1 ||
  status=$?
check "euler-implicit distributes the box on 3 ranks" test "$status" -eq 0
expected=$(sed -n 's/.*ghost nodes per rank \([0-9]*\)\.\.\([0-9]*\), edge cut \([0-9]*\).*/\1 \2 \3/p' run.txt)
got="$(field tool.txt 3 7) $(field tool.txt 3 9) $(field tool.txt 3 16)"
check "3 parts: ghost min, max and edge cut ($got) as euler-implicit reports ($expected)" \
  test "$got" = "$expected"

# 2. Invariants, 3 unknowns per node: owned unknowns add up to all unknowns (checked exactly for
#    2 parts: min + max), max/mean is owned max over mean and at most 1.05, every part has ghosts
#    (balancing hands shared nodes to both sides), a halo and a neighbour (the box is connected),
#    and 1575 = 525 nodes x 3.
"$tool" --parts="2 4 8" > box.txt
check "three rows" test "$(rows box.txt | wc -l)" -eq 3
check "2 parts own all unknowns" test $(($(field box.txt 2 3) + $(field box.txt 2 5))) -eq 1575
invariants_hold() {
  rows box.txt | awk '{
    ok = $3 <= $4 && $4 <= $5 && ($4 * $1 - $2) ^ 2 < $1 ^ 2 && ($6 - $5 * $1 / $2) ^ 2 < 1e-8 &&
      $6 <= 1.05 && $7 > 0 && $10 > 0 && $13 >= 1
    if (!ok) bad = 1
  } END { exit bad }'
}
check "every row: owned min <= mean <= max, mean x parts = unknowns, max/mean <= 1.05, ghost min, halo and neighbours > 0" \
  invariants_hold

# 3. An HDF5 mesh, partitioned by PTScotch across the ranks that read it (run to run the parallel
#    partition may differ, so the counts are checked for what they must be, not against a run):
#    one row for 3 parts, owned unknowns adding up, no part above the mean rounded up (the owners
#    euler-implicit gives, mesh/parallel_vertex_owners), and the same row shape.
mpi_command 1 "$exe"
timeout 60 "${MPI_COMMAND[@]}" --mesh.box-cells="20 4 4" --mesh.convert=box.h5 > convert.txt 2>&1
mpi_command "$RANKS" "$tool"
timeout 60 "${MPI_COMMAND[@]}" --mesh.file=box.h5 --dofs-per-node=1 > hdf5.txt 2> hdf5.err || true
check "HDF5 mesh on 3 ranks: one row, for 3 parts" test "$(rows hdf5.txt | awk '{print $1}')" = 3
check "HDF5 mesh: owned nodes add up to 525, none above 175" \
  test "$(field hdf5.txt 3 3)" -ge 174 -a "$(field hdf5.txt 3 5)" -le 175 \
  -a "$(field hdf5.txt 3 4)" -eq 175
check "HDF5 mesh: the edge cut is PTScotch's, not counted" test "$(field hdf5.txt 3 16)" = n/a
status=0
"$tool" --mesh.file=box.h5 > out.txt 2> err.txt || status=$?
check "HDF5 mesh on one process: fails, saying to run it under mpiexec" \
  test "$status" -ne 0 -a "$(grep -c '^partition-surface: error: .*mpiexec -n P' err.txt)" -eq 1
mpi_command "$RANKS" "$exe"

# 4. Hexahedra: the box of hexahedra partitioned as euler-implicit partitions it on 3 ranks (the
#    same ghost counts and edge cut), and converted to HDF5, reported on 3 ranks with its 525
#    nodes owned in full.
"$tool" --parts=3 --dofs-per-node=1 --mesh.cell-type=hexahedron > hex.txt
check "hexahedra: the header names them" grep -q "box 20 x 4 x 4 cells, 320 hexahedra" hex.txt
status=0
timeout 60 "${MPI_COMMAND[@]}" --solver.steps=0 --mesh.cell-type=hexahedron > hexrun.txt 2>&1 ||
  status=$?
check "euler-implicit distributes the box of hexahedra on 3 ranks" test "$status" -eq 0
expected=$(sed -n 's/.*ghost nodes per rank \([0-9]*\)\.\.\([0-9]*\), edge cut \([0-9]*\).*/\1 \2 \3/p' hexrun.txt)
got="$(field hex.txt 3 7) $(field hex.txt 3 9) $(field hex.txt 3 16)"
check "hexahedra, 3 parts: ghost min, max and edge cut ($got) as euler-implicit reports ($expected)" \
  test "$got" = "$expected"
mpi_command 1 "$exe"
timeout 60 "${MPI_COMMAND[@]}" --mesh.box-cells="20 4 4" --mesh.cell-type=hexahedron \
  --mesh.convert=hexbox.h5 > convert.txt 2>&1
mpi_command "$RANKS" "$tool"
timeout 60 "${MPI_COMMAND[@]}" --mesh.file=hexbox.h5 --dofs-per-node=1 > hexh5.txt 2> hexh5.err ||
  true
check "HDF5 mesh of hexahedra on 3 ranks: one row, for 3 parts" \
  test "$(rows hexh5.txt | awk '{print $1}')" = 3
check "HDF5 mesh of hexahedra: owned nodes add up to 525, none above 175" \
  test "$(field hexh5.txt 3 3)" -ge 174 -a "$(field hexh5.txt 3 5)" -le 175 \
  -a "$(field hexh5.txt 3 4)" -eq 175
mpi_command "$RANKS" "$exe"

# 5. Bad input: non-zero status, one error line.
bad() {  # bad DESCRIPTION ARGS...
  local status=0
  "$tool" "${@:2}" > out.txt 2> err.txt || status=$?
  check "$1: fails with one error line" \
    test "$status" -ne 0 -a "$(grep -c '^partition-surface: error: ' err.txt)" -eq 1
}
bad "one part" --parts=1
bad "more parts than tetrahedra" --mesh.box-cells="1 1 2" --parts="2 13"
bad "zero unknowns per node" --dofs-per-node=0
bad "two box cell counts" --mesh.box-cells="2 1"
bad "an unknown cell type" --mesh.cell-type=prism
bad "a missing mesh file" --mesh.file=missing.msh
bad "an unknown option" --mesh.boxcells="2 2 2"
bad "a stray argument" 4
check "--help succeeds" bash -c "'$tool' --help > /dev/null"

if ((failures)); then cat tool.txt run.txt box.txt hex.txt hexh5.txt hexh5.err err.txt; fi
echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
