#!/usr/bin/env bash
# ParaView's surface of a run on 3 ranks is that of the run on 1 rank: the partition seams do not
# show. Each piece carries one layer of ghost cells flagged DUPLICATECELL; VTK's surface filters
# (what ParaView's Extract Surface and its renderer run) then see the seam faces as inner ones.
# Counted with Debian's python3-vtk9: vtkGeometryFilter's polygons, and vtkDataSetSurfaceFilter's
# polygons but those of ghost cells (which ParaView does not draw).
#
#   bash paraview_surface.sh <path-to-euler-implicit> <path-to-meshes-dir>
#   env: the MPI launch line (tests/common/mpi_launch.sh)
set -u

EXE=${1:?usage: paraview_surface.sh <euler-implicit> <meshes-dir>}
RANKS=3  # MPI ranks of the partitioned run; tests/CMakeLists.txt reads this line too (PROCESSORS)
EXE=$(cd "$(dirname "$EXE")" && pwd)/$(basename "$EXE")
PYTHON=/usr/bin/python3
if ! "$PYTHON" -c "import vtk" 2>/dev/null; then
  echo "FAIL setup: $PYTHON cannot import vtk (python3-vtk9; bash jobs/install-deps.sh)"
  exit 1
fi
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/mpi_launch.sh"

T=$(mktemp -d "${TMPDIR:-/tmp}/eis_paraview_surface.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1

SCENE=(--mesh.box-cells="8 3 3" --solver.steps=2)
for ranks in 1 "$RANKS"; do
  mpi_command "$ranks" "$EXE"
  if ! "${MPI_COMMAND[@]}" "${SCENE[@]}" --output.vtk="np$ranks/beam" >"run$ranks.log" 2>&1; then
    echo "FAIL: the run on $ranks rank(s) failed"
    cat "run$ranks.log"
    exit 1
  fi
done

"$PYTHON" - "np1/beam_000002.pvtu" "np$RANKS/beam_000002.pvtu" <<'PYTHON'
import sys
import vtk
from vtk.util.numpy_support import vtk_to_numpy


def surface_polygons(path):
    reader = vtk.vtkXMLPUnstructuredGridReader()
    reader.SetFileName(path)
    reader.Update()
    geometry = vtk.vtkGeometryFilter()
    geometry.SetInputConnection(reader.GetOutputPort())
    geometry.Update()
    surface = vtk.vtkDataSetSurfaceFilter()
    surface.SetInputConnection(reader.GetOutputPort())
    surface.Update()
    flags = surface.GetOutput().GetCellData().GetArray("vtkGhostType")
    drawn = surface.GetOutput().GetNumberOfPolys()
    if flags is not None:  # 1 = vtkDataSetAttributes::DUPLICATECELL
        drawn = int((vtk_to_numpy(flags) & 1 == 0).sum())
    return geometry.GetOutput().GetNumberOfPolys(), drawn


one, many = (surface_polygons(path) for path in sys.argv[1:3])
print(f"surface polygons (vtkGeometryFilter, vtkDataSetSurfaceFilter less ghosts): "
      f"1 rank {one}, partitioned {many}")
# The box of 8 x 3 x 3 hexahedra, each face cut in two triangles.
expected = 4 * (8 * 3 + 8 * 3 + 3 * 3)
if one != (expected, expected) or many != one:
    print(f"FAIL: expected {expected} polygons from both filters on any rank count")
    sys.exit(1)
print("PASS")
PYTHON
