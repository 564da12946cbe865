#!/usr/bin/env bash
# The same mesh read from Gmsh 2.2, Gmsh 1.0, legacy VTK (ASCII, and BINARY in the 5.1 cell
# layout) and XML VTK (.vtu ascii, and appended raw with UInt64 headers) gives bit-identical
# final states, on 2 ranks: every reader yields the same node ids, coordinates and tetrahedron
# vertex orders. The other files are converted from meshes/beam_v22_ascii.msh here, copying the
# coordinates' text (or writing their exact doubles), so no reader can win by rounding.
# Usage: mesh_formats.sh <euler-implicit> <meshes dir>; the MPI launch line: tests/common/mpi_launch.sh.
set -euo pipefail
RANKS=2  # MPI ranks per run; tests/CMakeLists.txt reads this line too (PROCESSORS)
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/mpi_launch.sh"
meshes=$(realpath "$2")
launch_in_scratch "$RANKS" "$1"

cp "$meshes/beam_v22_ascii.msh" beam_v22.msh
python3 - beam_v22.msh <<'PY'
import struct, sys
lines = open(sys.argv[1]).read().split("\n")
nodes_at, elements_at = lines.index("$Nodes"), lines.index("$Elements")
nodes = [l.split() for l in lines[nodes_at + 2:nodes_at + 2 + int(lines[nodes_at + 1])]]
elements = [l.split() for l in lines[elements_at + 2:elements_at + 2 + int(lines[elements_at + 1])]]
position = {n[0]: i for i, n in enumerate(nodes)}
vtk_type = {"1": 3, "2": 5, "4": 10, "15": 1}
cells = []
for e in elements:
    tags = int(e[2])
    cells.append((e[0], e[1], e[3:3 + tags], e[3 + tags:]))

with open("beam_v1.msh", "w") as f:  # Gmsh 1.0, node numbers as in the 2.2 file
    f.write("$NOD\n%d\n" % len(nodes) + "".join(" ".join(n) + "\n" for n in nodes) + "$ENDNOD\n")
    f.write("$ELM\n%d\n" % len(cells))
    for number, kind, tags, ids in cells:
        phys, elem = (tags + ["0", "0"])[:2]
        f.write(" ".join([number, kind, phys, elem, str(len(ids))] + ids) + "\n")
    f.write("$ENDELM\n")

points = [n[1:4] for n in nodes]
conn = [[position[i] for i in ids] for _, _, _, ids in cells]
types = [vtk_type[kind] for _, kind, _, _ in cells]
head = "# vtk DataFile Version %s\nbeam\n%s\nDATASET UNSTRUCTURED_GRID\n"
with open("beam_ascii.vtk", "w") as f:  # counts layout, coordinates as written in the .msh
    f.write(head % ("3.0", "ASCII") + "POINTS %d double\n" % len(points))
    f.write("".join(" ".join(p) + "\n" for p in points))
    f.write("CELLS %d %d\n" % (len(conn), sum(len(c) + 1 for c in conn)))
    f.write("".join(" ".join(map(str, [len(c)] + c)) + "\n" for c in conn))
    f.write("CELL_TYPES %d\n" % len(types) + "".join("%d\n" % t for t in types))
with open("beam_binary.vtk", "wb") as f:  # OFFSETS/CONNECTIVITY layout, big-endian
    offsets = [0]
    for c in conn:
        offsets.append(offsets[-1] + len(c))
    flat = [i for c in conn for i in c]
    f.write((head % ("5.1", "BINARY") + "POINTS %d double\n" % len(points)).encode())
    f.write(b"".join(struct.pack(">3d", *map(float, p)) for p in points))
    f.write(("\nCELLS %d %d\nOFFSETS vtktypeint64\n" % (len(offsets), len(flat))).encode())
    f.write(struct.pack(">%dq" % len(offsets), *offsets))
    f.write(b"\nCONNECTIVITY vtktypeint64\n" + struct.pack(">%dq" % len(flat), *flat))
    f.write(("\nCELL_TYPES %d\n" % len(types)).encode() + struct.pack(">%di" % len(types), *types))
    f.write(b"\n")

ends, end = [], 0
for c in conn:
    end += len(c)
    ends.append(end)
flat = [i for c in conn for i in c]
piece = '<Piece NumberOfPoints="%d" NumberOfCells="%d">' % (len(points), len(conn))
def vtu(header, arrays, appended=b""):
    text = ('<?xml version="1.0"?>\n<VTKFile type="UnstructuredGrid" version="1.0" '
            'byte_order="LittleEndian"%s>\n<UnstructuredGrid>\n%s\n<Points>\n%s\n</Points>\n'
            '<Cells>\n%s\n%s\n%s\n</Cells>\n</Piece>\n</UnstructuredGrid>\n' % ((header, piece) + arrays))
    return text.encode() + appended + b"</VTKFile>\n"
def array(kind, name, body, extra=""):
    return '<DataArray type="%s" Name="%s"%s %s</DataArray>' % (kind, name, extra, body)
with open("beam_ascii.vtu", "wb") as f:
    f.write(vtu("", (
        array("Float64", "Points", '>' + " ".join(" ".join(p) for p in points), ' NumberOfComponents="3" format="ascii"'),
        array("Int64", "connectivity", '>' + " ".join(map(str, flat)), ' format="ascii"'),
        array("Int64", "offsets", '>' + " ".join(map(str, ends)), ' format="ascii"'),
        array("UInt8", "types", '>' + " ".join(map(str, types)), ' format="ascii"'))))
blocks = [b"".join(struct.pack("<3d", *map(float, p)) for p in points),
          struct.pack("<%dq" % len(flat), *flat), struct.pack("<%dq" % len(ends), *ends),
          struct.pack("<%dB" % len(types), *types)]
data, at = b"", []
for b in blocks:
    at.append(len(data))
    data += struct.pack("<Q", len(b)) + b
def empty(kind, name, extra):
    return '<DataArray type="%s" Name="%s"%s/>' % (kind, name, extra)
with open("beam_appended.vtu", "wb") as f:
    f.write(vtu(' header_type="UInt64"', (
        empty("Float64", "Points", ' NumberOfComponents="3" format="appended" offset="%d"' % at[0]),
        empty("Int64", "connectivity", ' format="appended" offset="%d"' % at[1]),
        empty("Int64", "offsets", ' format="appended" offset="%d"' % at[2]),
        empty("UInt8", "types", ' format="appended" offset="%d"' % at[3])),
        b'<AppendedData encoding="raw">\n_' + data + b"\n</AppendedData>\n"))
PY

# shellcheck source=SCRIPTDIR/../common/checks.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/checks.sh"
files=(beam_v22.msh beam_v1.msh beam_ascii.vtk beam_binary.vtk beam_ascii.vtu beam_appended.vtu)
for file in "${files[@]}"; do
  status=0
  timeout 60 "${MPI_COMMAND[@]}" --mesh.file="$file" --solver.steps=5 \
    --constraint.fixed-box="-0.01 -0.01 -0.01 0.01 1.01 1.01" \
    --output.final-state="$file.csv" > "$file.out" 2>&1 || status=$?
  check "$file runs" test "$status" -eq 0
  ((status == 0)) || cat "$file.out"
done
check "the beam moved (a velocity is not zero)" \
  awk -F, 'NR > 1 && ($5 != 0 || $6 != 0 || $7 != 0) {moved = 1} END {exit !moved}' beam_v22.msh.csv
for file in "${files[@]:1}"; do
  check "$file: final state bit-identical to Gmsh 2.2's" cmp -s beam_v22.msh.csv "$file.csv"
done
check "the triangles are kept, not warned of as ignored elements" \
  bash -c "! grep -q 'ignored elements' beam_ascii.vtk.out beam_v1.msh.out"
echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
