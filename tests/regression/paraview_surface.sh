#!/usr/bin/env bash
# ParaView's surface of a run on 3 ranks is that of the run on 1 rank: the partition seams do not
# show. Each piece carries one layer of ghost cells flagged DUPLICATECELL; VTK's surface filters
# (what ParaView's Extract Surface and its renderer run) then see the seam faces as inner ones.
# Counted with Debian's python3-vtk9: vtkGeometryFilter's polygons, and vtkDataSetSurfaceFilter's
# polygons but those of ghost cells (which ParaView does not draw), for the built-in box (an exact
# count) and a Gmsh beam; cell data "region" is each cell's physical volume tag (0 for the box).
#
#   bash paraview_surface.sh <path-to-euler-implicit> <path-to-meshes-dir>
#   env: the MPI launch line (tests/common/mpi_launch.sh)
set -u

EXE=${1:?usage: paraview_surface.sh <euler-implicit> <meshes-dir>}
RANKS=3  # MPI ranks of the partitioned run; tests/CMakeLists.txt reads this line too (PROCESSORS)
EXE=$(cd "$(dirname "$EXE")" && pwd)/$(basename "$EXE")
MESHES=$(cd "${2:?usage: paraview_surface.sh <euler-implicit> <meshes-dir>}" && pwd) || exit 1
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

# The box, and the Gmsh beam whose tetrahedra form the physical volume "beam" (tag 3).
declare -A SCENES=([box]="--mesh.box-cells=8,3,3" [gmsh]="--mesh.file=$MESHES/beam_v41_ascii.msh")
for scene in box gmsh; do
  for ranks in 1 "$RANKS"; do
    mpi_command "$ranks" "$EXE"
    if ! "${MPI_COMMAND[@]}" "${SCENES[$scene]}" --solver.steps=2 \
      --output.vtk="$scene/np$ranks/beam" >"$scene$ranks.log" 2>&1; then
      echo "FAIL: the $scene run on $ranks rank(s) failed"
      cat "$scene$ranks.log"
      exit 1
    fi
  done
done

"$PYTHON" - "$RANKS" <<'PYTHON'
import sys
import vtk
from vtk.util.numpy_support import vtk_to_numpy


def read(path):
    reader = vtk.vtkXMLPUnstructuredGridReader()
    reader.SetFileName(path)
    reader.Update()
    return reader


def surface_polygons(reader):
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


def regions(reader):
    array = reader.GetOutput().GetCellData().GetArray("region")
    return set() if array is None else set(vtk_to_numpy(array).tolist())


failed = False
# The box of 8 x 3 x 3 hexahedra has 4 (8 3 + 8 3 + 3 3) triangles on its surface.
for scene, polygons, region in (("box", 4 * (8 * 3 + 8 * 3 + 3 * 3), 0), ("gmsh", None, 3)):
    one, many = (read(f"{scene}/np{ranks}/beam_000002.pvtu") for ranks in ("1", sys.argv[1]))
    counts = [surface_polygons(one), surface_polygons(many)]
    print(f"{scene}: surface polygons (vtkGeometryFilter, vtkDataSetSurfaceFilter less ghosts): "
          f"1 rank {counts[0]}, {sys.argv[1]} ranks {counts[1]}; regions {regions(many)}")
    expected = counts[0][0] if polygons is None else polygons
    if counts != [(expected, expected)] * 2:
        print(f"FAIL {scene}: expected {expected} polygons from both filters on any rank count")
        failed = True
    if regions(one) != {region} or regions(many) != {region}:
        print(f"FAIL {scene}: cell data region should be {region} everywhere")
        failed = True
sys.exit(1 if failed else 0)
PYTHON
