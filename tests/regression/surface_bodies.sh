#!/usr/bin/env bash
# Bodies whose cells are triangles, quadrangles or edges (core/cells.hpp), in 3D space: a
# membrane patch of triangles (SOFA's TriangularFEMForceField, method small) under a uniform edge
# traction ends, in one step of a huge time step (the static solution), at the closed form of
# plane stress, u = (sigma x / E, -nu sigma y / E), to the last digits (the patch test: linear
# triangles hold a uniform strain exactly, the inner node off centre); a Gmsh file of triangles
# (and lines, ignored) is a body of triangles that ends in one state on 1, 2 and 3 ranks, whose
# ParaView and XDMF files say triangles (VTK type 5, XDMF Triangle), whose HDF5 conversion and
# checkpoint end where it ends; quadrangles with mesh springs and a line of edges with springs end in one state on 1, 2
# and 3 ranks; what is written for volume cells is refused with one line.
# Usage: surface_bodies.sh <euler-implicit>; the MPI launch line: tests/common/mpi_launch.sh.
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
fails_with() {  # fails_with TEXT RANKS ARGS...: the run fails, its log holding TEXT
  ! run "${@:2}" && grep -q -- "$1" run.log
}

# The patch: the unit square in z = 0, its inner node off centre, 8 triangles counter-clockwise.
patch=(--mesh.nodes="0 0 0 0.5 0 0 1 0 0 0 0.5 0 0.55 0.45 0 1 0.5 0 0 1 0 0.5 1 0 1 1 0"
  --mesh.triangles="0 1 4 0 4 3 1 2 5 1 5 4 3 4 7 3 7 6 4 5 8 4 8 7")
# sigma = 10 on the edge x = 1 (thickness 1): 2.5, 5, 2.5 on its nodes; x held on x = 0, y at
# the origin, z everywhere (a membrane has no stiffness across its plane).
run 1 "${patch[@]}" --membrane.young-modulus=1000 --membrane.poisson-ratio=0.3 \
  --membrane.method=small --material.model=none --material.density=1e-9 --load.gravity="0 0 0" \
  --load.nodal-forces="2 2.5 0 0 5 5 0 0 8 2.5 0 0" --constraint.partial-fixed="1 1 1 indices 0" \
  --constraint.partial-fixed="1 0 1 indices 3 6" \
  --constraint.partial-fixed="0 0 1 indices 1 2 4 5 7 8" --solver.dt=1000 --solver.steps=1 \
  --solver.rtol=1e-15 --output.final-state=patch.csv
check "the triangle patch runs" test -s patch.csv
closed_form() {
  awk -F, -v nu=0.3 'NR > 1 { X[0]=0; split("0 0.5 1 0 0.55 1 0 0.5 1", x, " ")
      split("0 0 0 0.5 0.45 0.5 1 1 1", y, " "); i = $1 + 1
      ex = x[i] + 0.01 * x[i]; ey = y[i] - nu * 0.01 * y[i]
      e = ($2 - ex) ^ 2 + ($3 - ey) ^ 2 + $4 ^ 2; if (e > m) m = e; n++ }
    END { if (n != 9 || m > 1e-26) { printf "  off by %g\n", sqrt(m); exit 1 } }' patch.csv
}
check "the patch holds the uniform stretch of plane stress exactly" closed_form

# A Gmsh 2.2 file of 6 x 4 squares cut into triangles, with its boundary lines.
{
  echo '$MeshFormat'; echo '2.2 0 8'; echo '$EndMeshFormat'; echo '$Nodes'; echo 35
  for j in 0 1 2 3 4; do for i in 0 1 2 3 4 5 6; do
    echo "$((7 * j + i + 1)) $(awk -v i=$i 'BEGIN { print i / 6 }') $(awk -v j=$j 'BEGIN { print j / 8 }') 0"
  done; done
  echo '$EndNodes'; echo '$Elements'; echo $((48 + 6))
  e=0
  for i in 0 1 2 3 4 5; do e=$((e + 1)); echo "$e 1 2 0 1 $((i + 1)) $((i + 2))"; done
  for j in 0 1 2 3; do for i in 0 1 2 3 4 5; do
    a=$((7 * j + i + 1)); b=$((a + 1)); c=$((a + 8)); d=$((a + 7))
    e=$((e + 1)); echo "$e 2 2 0 1 $a $b $c"
    e=$((e + 1)); echo "$e 2 2 0 1 $a $c $d"
  done; done
  echo '$EndElements'
} >sheet.msh
sheet=(--membrane.young-modulus=600 --membrane.poisson-ratio=0.3
  --material.model=none --material.density=0.005 --load.gravity="0 -9.8 10"
  --constraint.fixed="indices 0 1 2" --solver.dt=0.05 --solver.rtol=1e-15
  --solver.rayleigh-mass=0.1 --solver.rayleigh-stiffness=0.1)
for ranks in 1 2 3; do
  run "$ranks" --mesh.file=sheet.msh "${sheet[@]}" --solver.steps=5 \
    --output.final-state="sheet$ranks.csv" --output.vtk="sheet$ranks" --output.xdmf="sheet$ranks"
  check "the Gmsh sheet of triangles runs on $ranks ranks" test -s "sheet$ranks.csv"
done
# The corotational sheet's system is stiff (136 CG iterations a step): the ranks' sums agree to
# the solver's tolerance, not to the last digit.
check "the sheet ends on 2 ranks where it ends on 1" same_state sheet1.csv sheet2.csv 1e-10
check "the sheet ends on 3 ranks where it ends on 1" same_state sheet1.csv sheet3.csv 1e-10
check "the sheet sags under gravity" awk -F, 'NR == 36 && $4 > 0.001 { ok = 1 } END { exit !ok }' sheet1.csv
vtk_cells() {  # vtk_cells FILE TYPE COUNT: a ParaView file of COUNT cells of VTK type TYPE
  /usr/bin/python3 - "$1" "$2" "$3" <<'PY'
import sys, vtk
reader = vtk.vtkXMLPUnstructuredGridReader() if sys.argv[1].endswith(".pvtu") else vtk.vtkXMLUnstructuredGridReader()
reader.SetFileName(sys.argv[1])
reader.Update()
grid = reader.GetOutput()
ghosts = grid.GetCellData().GetArray("vtkGhostType")
kept = [c for c in range(grid.GetNumberOfCells()) if ghosts is None or ghosts.GetValue(c) == 0]
types = {grid.GetCellType(c) for c in kept}
sys.exit(0 if types == {int(sys.argv[2])} and len(kept) == int(sys.argv[3]) else 1)
PY
}
if /usr/bin/python3 -c 'import vtk' 2>/dev/null; then
  last=$(ls sheet3_*.pvtu 2>/dev/null | sort | tail -n 1)
  check "the ParaView files of 3 ranks hold 48 triangles (VTK type 5)" vtk_cells "$last" 5 48
else
  echo "skip the ParaView check (no python3-vtk)"
fi
check "the XDMF file says Triangle, 3 nodes each" grep -q 'TopologyType="Triangle" NumberOfElements="48" NodesPerElement="3"' sheet2.xdmf

# The sheet converted to HDF5 (its cell type in eis_cell_type) runs from the file on 2 ranks and
# ends where the Gmsh file does; 3 steps, a checkpoint, then 2 more on 3 ranks end there too.
run 1 --mesh.file=sheet.msh --mesh.convert=sheet.h5
check "the sheet of triangles converts to HDF5" test -s sheet.h5
run 2 --mesh.file=sheet.h5 "${sheet[@]}" --solver.steps=5 --output.final-state=h5.csv
check "the converted sheet ends where the Gmsh sheet ends" same_state sheet1.csv h5.csv 1e-10
run 2 --mesh.file=sheet.msh "${sheet[@]}" --solver.steps=3 --output.checkpoint=part \
  --output.checkpoint-every=3
run 3 --mesh.file=sheet.msh "${sheet[@]}" --solver.steps=5 --initial.state=part_000003.h5 \
  --output.final-state=resumed.csv
check "3 steps, a checkpoint, then 2 more end where 5 steps end" same_state sheet1.csv resumed.csv 1e-10

# Quadrangles (4 x 3, counter-clockwise) with mesh springs on their edges and diagonals, and a
# line of 8 edges with springs: one state on 1, 2 and 3 ranks.
quad_nodes="" quads=""
for j in 0 1 2 3; do for i in 0 1 2 3 4; do quad_nodes+="$i $j 0 "; done; done
for j in 0 1 2; do for i in 0 1 2 3; do
  a=$((5 * j + i)); quads+="$a $((a + 1)) $((a + 6)) $((a + 5)) "
done; done
line_nodes="" edges=""
for i in 0 1 2 3 4 5 6 7 8; do line_nodes+="$i 0 0 "; done
for i in 0 1 2 3 4 5 6 7; do edges+="$i $((i + 1)) "; done
for ranks in 1 2 3; do
  run "$ranks" --mesh.nodes="$quad_nodes" --mesh.quadrangles="$quads" --material.model=none \
    --springs.stiffness=500 --mass.type=consistent --constraint.fixed="indices 0 5 10 15" \
    --solver.steps=4 --solver.rtol=1e-13 --output.final-state="quads$ranks.csv" \
    --output.vtk="quads$ranks"
  check "the quadrangles run on $ranks ranks" test -s "quads$ranks.csv"
  run "$ranks" --mesh.nodes="$line_nodes" --mesh.edges="$edges" --material.model=none \
    --springs.stiffness=500 --constraint.fixed="indices 0" --solver.steps=4 --solver.rtol=1e-13 \
    --load.gravity="0 -9.81 0" --output.final-state="line$ranks.csv"
  check "the line of edges runs on $ranks ranks" test -s "line$ranks.csv"
done
if /usr/bin/python3 -c 'import vtk' 2>/dev/null; then
  last=$(ls quads3_*.pvtu 2>/dev/null | sort | tail -n 1)
  check "the ParaView files of 3 ranks hold 12 quadrangles (VTK type 9)" vtk_cells "$last" 9 12
fi
check "the quadrangles end on 2 ranks where on 1" same_state quads1.csv quads2.csv 1e-11
check "the quadrangles end on 3 ranks where on 1" same_state quads1.csv quads3.csv 1e-11
check "the line ends on 2 ranks where on 1" same_state line1.csv line2.csv 1e-11
check "the line ends on 3 ranks where on 1" same_state line1.csv line3.csv 1e-11

check "a tetrahedral element on triangles is refused by name" fails_with \
  "integrated on tetrahedra only so far, and this mesh has triangles" 2 "${patch[@]}" \
  --material.model=corotational --solver.steps=1
check "a consistent mass on edges is refused by name" fails_with \
  "MeshMatrixMass has no mass matrix on edges" 2 --mesh.nodes="$line_nodes" \
  --mesh.edges="$edges" --material.model=none --mass.type=consistent --solver.steps=1

echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
