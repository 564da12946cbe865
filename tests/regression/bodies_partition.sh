#!/usr/bin/env bash
# The bodies of a scene share one partition of the ranks: a body of 8 cells beside a larger one
# lies whole on one of 3 ranks (alone it would be cut over all three), and both bodies
# end on 2 and 3 ranks where they end on 1.
# Usage: bodies_partition.sh <euler-implicit>; the MPI launch line: tests/common/mpi_launch.sh.
set -uo pipefail
RANKS=3  # MPI ranks at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
here=$(dirname "$(realpath "${BASH_SOURCE[0]}")")
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$here/../common/mpi_launch.sh"
# shellcheck source=SCRIPTDIR/../common/checks.sh
source "$here/../common/checks.sh"
program=$(realpath "$1")
launch_in_scratch 1 "$program"

cat > bodies.ini <<'INI'
[solver]
dt = 0.01
steps = 4
rtol = 1e-13
[output]
progress-every = 0
[beam/mesh]
box-size = 2 0.4 0.4
box-cells = 10 2 2
[beam/material]
model = corotational
[cube/mesh]
box-size = 0.3 0.3 0.3
box-cells = 2 2 2
cell-type = hexahedron
transform = translate 0 1 0
[cube/mass]
type = uniform
[cube/material]
model = corotational
young-modulus = 2e4
INI

for ranks in 1 2 3; do
  mpi_command "$ranks" "$program"
  "${MPI_COMMAND[@]}" --config bodies.ini --output.final-state="end$ranks.csv" >"run$ranks.log" 2>&1
  check "two bodies run on $ranks ranks" test -s "end$ranks.csv"
done
check "the 8-cell body lies whole on one rank of 3" grep -q \
  "mesh of /cube: 27 nodes, 81 unknowns on 3 ranks; cells per rank 0\.\.8," run3.log
check "2 ranks end where 1 rank does" same_state end1.csv end2.csv 1e-11
check "3 ranks end where 1 rank does" same_state end1.csv end3.csv 1e-11

# One ParaView series holds both bodies, 240 tetrahedra and 8 hexahedra, each once.
mpi_command 3 "$program"
"${MPI_COMMAND[@]}" --config bodies.ini --solver.steps=1 --output.vtk=out/b >vtk.log 2>&1
both_cell_types() {
  /usr/bin/python3 - <<'PY'
import collections, glob, sys
import vtk
from vtk.util.numpy_support import vtk_to_numpy
reader = vtk.vtkXMLPUnstructuredGridReader()
reader.SetFileName(sorted(glob.glob("out/b_*.pvtu"))[-1])
reader.Update()
grid = reader.GetOutput()
own = vtk_to_numpy(grid.GetCellData().GetArray("vtkGhostType")) == 0
count = collections.Counter(grid.GetCellType(c) for c in range(grid.GetNumberOfCells()) if own[c])
print("  cells by VTK type", dict(count))
sys.exit(0 if count == {10: 240, 12: 8} else 1)
PY
}
check "the ParaView series holds the tetrahedra and the hexahedra once each" both_cell_types

echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
