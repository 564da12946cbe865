#!/usr/bin/env bash
# The VTK readers against files VTK itself writes (python3-vtk9, as the pictures test uses): the
# beam of meshes/beam_v22_ascii.msh written by vtkUnstructuredGridWriter (legacy 4.2 and 5.1,
# ASCII and BINARY) and vtkXMLUnstructuredGridWriter (.vtu ascii, binary with UInt32 and UInt64
# headers, zlib-compressed, appended raw and appended base64), run on 2 ranks. Every file but the
# legacy ASCII ones holds the coordinates' exact doubles, so its final state must be
# bit-identical to the Gmsh file's; VTK's legacy ASCII writer keeps 11 significant digits, so
# those agree to 1e-9 in every position. A build without zlib must refuse the
# compressed file by name.
# Usage: vtk_writers.sh <euler-implicit> <meshes dir>; the MPI launch line: tests/common/mpi_launch.sh.
set -euo pipefail
RANKS=2  # MPI ranks per run; tests/CMakeLists.txt reads this line too (PROCESSORS)
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/mpi_launch.sh"
meshes=$(realpath "$2")
launch_in_scratch "$RANKS" "$1"

cp "$meshes/beam_v22_ascii.msh" beam.msh
/usr/bin/python3 - beam.msh <<'PY'
import sys
import vtk
lines = open(sys.argv[1]).read().split("\n")
nodes_at, elements_at = lines.index("$Nodes"), lines.index("$Elements")
nodes = [l.split() for l in lines[nodes_at + 2:nodes_at + 2 + int(lines[nodes_at + 1])]]
elements = [l.split() for l in lines[elements_at + 2:elements_at + 2 + int(lines[elements_at + 1])]]
position = {n[0]: i for i, n in enumerate(nodes)}
grid = vtk.vtkUnstructuredGrid()
points = vtk.vtkPoints()
points.SetDataTypeToDouble()
for n in nodes:
    points.InsertNextPoint(float(n[1]), float(n[2]), float(n[3]))
grid.SetPoints(points)
kinds = {"2": vtk.VTK_TRIANGLE, "4": vtk.VTK_TETRA}
for e in elements:
    ids = [position[i] for i in e[3 + int(e[2]):]]
    grid.InsertNextCell(kinds[e[1]], len(ids), ids)
for version in (42, 51):
    for binary in (False, True):
        w = vtk.vtkUnstructuredGridWriter()
        w.SetFileName("legacy%d_%s.vtk" % (version, "binary" if binary else "ascii"))
        w.SetInputData(grid)
        w.SetFileVersion(version)
        w.SetFileTypeToBinary() if binary else w.SetFileTypeToASCII()
        w.Write()
for name, mode, zlib, header64, base64 in [
        ("ascii", "Ascii", False, False, False), ("binary32", "Binary", False, False, False),
        ("binary64", "Binary", False, True, False), ("zlib", "Binary", True, True, False),
        ("appended", "Appended", False, True, False), ("appended_zlib_base64", "Appended", True, False, True)]:
    w = vtk.vtkXMLUnstructuredGridWriter()
    w.SetFileName("xml_%s.vtu" % name)
    w.SetInputData(grid)
    getattr(w, "SetDataModeTo" + mode)()
    w.SetCompressorTypeToZLib() if zlib else w.SetCompressorTypeToNone()
    w.SetHeaderTypeToUInt64() if header64 else w.SetHeaderTypeToUInt32()
    w.SetEncodeAppendedData(base64)
    w.Write()
PY

# shellcheck source=SCRIPTDIR/../common/checks.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/checks.sh"
run() {  # run MESH: its final state in MESH.csv, its output in MESH.out, its status in $status
  status=0
  timeout 60 "${MPI_COMMAND[@]}" --mesh.file="$1" --solver.steps=5 \
    --constraint.fixed-box="-0.01 -0.01 -0.01 0.01 1.01 1.01" \
    --output.final-state="$1.csv" > "$1.out" 2>&1 || status=$?
}
# agree A B: no position of B differs from A's by 1e-9 or more (the 11 significant digits of
# coordinates up to 10 round them by at most 5e-10).
agree() {
  awk -F, 'FNR == 1 {file++; next}
           file == 1 {for (c = 2; c <= 4; c++) a[FNR, c] = $c}
           file == 2 {for (c = 2; c <= 4; c++) {d = $c - a[FNR, c]; if (d < 0) d = -d; if (d > m) m = d}}
           END {print "largest difference", m; exit !(m < 1e-9)}' "$1" "$2"
}

run beam.msh
check "the Gmsh reference runs" test "$status" -eq 0
for mesh in legacy42_binary.vtk legacy51_binary.vtk xml_ascii.vtu xml_binary32.vtu \
  xml_binary64.vtu xml_appended.vtu xml_zlib.vtu xml_appended_zlib_base64.vtu; do
  run "$mesh"
  if ((status != 0)) && grep -q "this build has no zlib" "$mesh.out"; then
    check "$mesh: refused by name without zlib" grep -q "$mesh.*zlib" "$mesh.out"
    continue
  fi
  check "$mesh runs" test "$status" -eq 0
  check "$mesh: final state bit-identical to the Gmsh file's" cmp -s beam.msh.csv "$mesh.csv"
done
for mesh in legacy42_ascii.vtk legacy51_ascii.vtk; do
  run "$mesh"
  check "$mesh runs" test "$status" -eq 0
  check "$mesh: positions agree to 1e-9 (VTK writes 11 digits)" agree beam.msh.csv "$mesh.csv"
done
if ((failures)); then tail -n 5 ./*.out; fi
echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
