#!/usr/bin/env bash
# The parallel mesh input (mesh.convert, then mesh.file = X.h5) against the Gmsh path: the HDF5
# path's final states on 1, 2 and 3 ranks, row by input node id, agree with the Gmsh path's on 1
# rank to 1e-10 relative (solver.rtol 1e-13; the partitions differ, so only the linear solves'
# rounding may differ), and on 1 rank, where both paths number and order everything alike, bit
# for bit. (The Gmsh path's own rank independence is tested elsewhere: one reference run each
# keeps the launches, most of this test's time, few.)
# The scenes use what the file must carry besides coordinates: node ids, a named physical group
# (constraint.fixed-group), surface triangles of a named group (load.pressure), the cells' input
# vertex order (corotational), mesh.transform and mesh.refine after loading, a node that no
# tetrahedron uses (an inline mesh converted), and the box.
# Usage: hdf5_mesh.sh <euler-implicit> <meshes dir>; the MPI launch line: tests/common/mpi_launch.sh.
set -euo pipefail
RANKS=3  # MPI ranks per run at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/mpi_launch.sh"
meshes=$(realpath "$2")
exe=$(realpath "$1")
# shellcheck source=SCRIPTDIR/../common/checks.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/checks.sh"
launch_in_scratch 1 "$exe"

# The largest difference between two final-state CSVs relative to the largest magnitude in the
# first, compared with TOLERANCE; the same ids in the same order are required.
agree() {
  python3 - "$1" "$2" "$3" <<'PY'
import csv, sys
def load(path):
    rows = list(csv.reader(open(path)))
    return rows[0], [(r[0], [float(x) for x in r[1:]]) for r in rows[1:]]
head_a, a = load(sys.argv[1])
head_b, b = load(sys.argv[2])
if head_a != head_b or [i for i, _ in a] != [i for i, _ in b]:
    sys.exit("different columns or node ids")
scale = max(abs(x) for _, r in a for x in r)
error = max(abs(x - y) for (_, ra), (_, rb) in zip(a, b) for x, y in zip(ra, rb)) / scale
print("relative difference %.3g (tolerance %s)" % (error, sys.argv[3]))
sys.exit(error > float(sys.argv[3]))
PY
}

# run NAME RANKS ARGS...: one run, its output in NAME.out, its final state in NAME.csv.
run() {
  local name=$1 ranks=$2
  shift 2
  mpi_command "$ranks" "$exe"
  local status=0
  timeout 120 "${MPI_COMMAND[@]}" --quiet --solver.rtol=1e-13 --output.final-state="$name.csv" \
    "$@" > "$name.out" 2>&1 || status=$?
  ((status == 0)) || cat "$name.out"
  return "$status"
}

convert() {
  mpi_command 1 "$exe"
  "${MPI_COMMAND[@]}" "$@" > convert.out 2>&1 || { cat convert.out; return 1; }
}

check "convert the beam (Gmsh 2.2)" convert --mesh.file="$meshes/beam_v22_ascii.msh" \
  --mesh.convert=beam.h5
check "convert says what it wrote" grep -q "wrote beam.h5 (190 nodes, 434 tetrahedra)" convert.out
# Node 2 at (5, 6, 7) belongs to no tetrahedron (read on rank 0 and written there, on both paths).
inline=(--mesh.nodes="0 0 0  1 0 0  5 6 7  0 1 0  0 0 1  1 1 1"
        --mesh.tetrahedra="0 1 3 4  1 3 4 5")
check "convert an inline mesh with an unused node" convert "${inline[@]}" --mesh.convert=inline.h5
check "convert the box" convert --mesh.box-cells="6 2 2" --mesh.convert=box.h5

beam=(--solver.steps=3 --constraint.fixed-group=clamp --load.pressure="2000 group tip"
      --mesh.transform="rotate 10 20 30" --mesh.transform="translate 1 2 3")
small=(--solver.steps=3 --constraint.fixed-box="-0.1 -0.1 -0.1 0.1 1.1 1.1" --load.gravity="0 0 -9.81")
box=(--solver.steps=2 --mesh.refine=1 --constraint.fixed-box="-0.01 -1 -1 0.01 2 2"
     --load.gravity="0 -9.81 0")
check "beam: Gmsh path runs" run gmsh 1 --mesh.file="$meshes/beam_v22_ascii.msh" "${beam[@]}"
check "box refined: Gmsh path runs" run boxg 1 --mesh.box-cells="6 2 2" "${box[@]}"
for ranks in 1 2 3; do
  tolerance=1e-10
  ((ranks > 1)) || tolerance=0
  check "beam, $ranks ranks: HDF5 path runs" run "hdf5$ranks" "$ranks" --mesh.file=beam.h5 "${beam[@]}"
  check "beam, $ranks ranks: final state agrees with the Gmsh path's" \
    agree gmsh.csv "hdf5$ranks.csv" "$tolerance"
  check "beam, $ranks ranks: HDF5 path partitions with PTScotch" grep -q "edge cut n/a" "hdf5$ranks.out"
  check "box refined, $ranks ranks: HDF5 path runs" run "boxh$ranks" "$ranks" --mesh.file=box.h5 \
    "${box[@]}"
  check "box refined, $ranks ranks: final state agrees with the Gmsh path's" \
    agree boxg.csv "boxh$ranks.csv" "$tolerance"
done
# On 2 ranks: the unused node stays with rank 0, as on the Gmsh path.
check "inline mesh: Gmsh path runs" run ing 1 "${inline[@]}" "${small[@]}"
check "inline mesh, 2 ranks: HDF5 path runs" run inh2 2 --mesh.file=inline.h5 "${small[@]}"
check "inline mesh, 2 ranks: final state agrees, the unused node included" \
  agree ing.csv inh2.csv 1e-10
check "the unused node is written unchanged" grep -q "^2,5,6,7,0,0,0$" inh2.csv
check "the unused node is warned of" grep -q "belong to no tetrahedron" inh2.out
# The unknowns are the owned nodes: PTScotch balances cells, and the shared nodes' owners are
# chosen so that no rank owns more than the mean, rounded up (DMPlex's own choice gave this box
# 162..185 on 3 ranks, 1085..1120 once refined).
check "convert a longer box" convert --mesh.box-cells="20 4 4" --mesh.convert=long.h5
balanced() {
  local name=$1 ranks=$2
  shift 2
  mpi_command "$ranks" "$exe"
  "${MPI_COMMAND[@]}" --solver.steps=0 "$@" > "$name.out" 2>&1 || { cat "$name.out"; return 1; }
  python3 - "$name.out" "$ranks" <<'PY'
import math, re, sys
text = open(sys.argv[1]).read()
nodes = int(re.search(r"mesh: (\d+) nodes", text).group(1))
low, high = map(int, re.search(r"owned nodes per rank (\d+)\.\.(\d+)", text).groups())
limit = math.ceil(nodes / int(sys.argv[2]))
print("owned nodes per rank %d..%d, at most %d allowed" % (low, high, limit))
sys.exit(high > limit)
PY
}
for ranks in 2 3; do
  check "long box, $ranks ranks: no rank owns more nodes than the mean, rounded up" \
    balanced "long$ranks" "$ranks" --mesh.file=long.h5
  check "long box refined, $ranks ranks: no rank owns more nodes than the mean, rounded up" \
    balanced "longr$ranks" "$ranks" --mesh.file=long.h5 --mesh.refine=1
done
# Hexahedra: a Gmsh file of them (SOFA's vertex order, physical group 7 "base" on the nodes at
# x = 0 through its quadrangles) converted and run on 1, 2 and 3 ranks ends where the Gmsh
# path ends; corotational, whose element frame depends on the vertex order kept.
/usr/bin/python3 - <<'PY'
n = (7, 3, 3)
ids = lambda i, j, k: 1 + i + n[0] * (j + n[1] * k)
nodes = [(i / 3, j / 4, k / 5) for k in range(3) for j in range(3) for i in range(7)]
cells = [(ids(i, j, k), ids(i + 1, j, k), ids(i + 1, j + 1, k), ids(i, j + 1, k),
          ids(i, j, k + 1), ids(i + 1, j, k + 1), ids(i + 1, j + 1, k + 1), ids(i, j + 1, k + 1))
         for k in range(2) for j in range(2) for i in range(6)]
quads = [(ids(0, j, k), ids(0, j + 1, k), ids(0, j + 1, k + 1), ids(0, j, k + 1))
         for k in range(2) for j in range(2)]
with open("hexbox.msh", "w") as f:
    f.write("$MeshFormat\n2.2 0 8\n$EndMeshFormat\n")
    f.write('$PhysicalNames\n1\n2 7 "base"\n$EndPhysicalNames\n$Nodes\n%d\n' % len(nodes))
    for i, p in enumerate(nodes):
        f.write("%d %.17g %.17g %.17g\n" % ((i + 1,) + p))
    f.write("$EndNodes\n$Elements\n%d\n" % (len(quads) + len(cells)))
    for e, q in enumerate(quads):
        f.write("%d 3 2 7 1 %s\n" % (e + 1, " ".join(map(str, q))))
    for e, c in enumerate(cells):
        f.write("%d 5 2 0 1 %s\n" % (len(quads) + e + 1, " ".join(map(str, c))))
    f.write("$EndElements\n")
PY
check "convert a Gmsh file of hexahedra" convert --mesh.file=hexbox.msh --mesh.convert=hexbox.h5
check "convert says it wrote hexahedra" grep -q "wrote hexbox.h5 (63 nodes, 24 hexahedra)" \
  convert.out
hexa=(--solver.steps=3 --material.model=corotational --constraint.fixed-group=base
      --load.gravity="0 -9.81 -3")
check "hexahedra: Gmsh path runs" run hexg 1 --mesh.file=hexbox.msh "${hexa[@]}"
for ranks in 1 2 3; do
  tolerance=1e-10
  ((ranks > 1)) || tolerance=0
  check "hexahedra, $ranks ranks: HDF5 path runs" run "hexh$ranks" "$ranks" \
    --mesh.file=hexbox.h5 "${hexa[@]}"
  check "hexahedra, $ranks ranks: final state agrees with the Gmsh path's" \
    agree hexg.csv "hexh$ranks.csv" "$tolerance"
done
check "the hexahedra moved" awk -F, 'NR > 1 && ($7 > 1e-6 || $7 < -1e-6) { m = 1 }
  END { exit !m }' hexh2.csv
# A truncated file: a clean error (HDF5 prints its own error stack to standard error as well).
# Standard error apart: mpiexec forwards the two streams separately, and a line of one written
# between two pieces of the other would no longer start a line.
head -c 2000 box.h5 > cut.h5
check "a truncated file is refused, named in one error line" \
  refused "mesh.file = cut.h5: cannot be read as HDF5 (truncated" 2 "$exe" --mesh.file=cut.h5
echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
