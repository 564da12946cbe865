#!/usr/bin/env bash
# SOFA's QuadPressureForceField and TrianglePressureForceField on a volume's faces
# (io/sofa_quad_pressure.cpp, io/sofa_surface_loads.cpp, model/face_traction.cpp): a constant
# traction on the faces a ROI picks, traction x rest area over the face's vertex count on each.
# A 2 x 1 x 1 block of 2 x 2 x 1 hexahedra (18 nodes of mass 1/18), free, with no damping, under
# pressure="0 0 -2" on its top face (4 quads, area 2): one implicit Euler step of dt = 0.1 from
# rest gives it the momentum dt x 2 x 2 = 0.4 along -z (the elastic forces sum to zero), to
# rounding, whether the quads come from a BoxROI's quadIndices on a RegularGridTopology, from
# dmin/dmax along the normal, or from a GenerateGrid's HexahedronSetTopologyContainer; on 1, 2 and
# 3 ranks alike; and the same block cut into tetrahedra by a GenerateGrid, whose
# TetrahedronSetTopologyContainer's top triangles carry a TrianglePressureForceField, alike.
# Quads by number are refused.
# Usage: sofa_face_pressure.sh <euler-implicit> <meshes dir>.
set -uo pipefail
RANKS=3  # MPI ranks per run at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
here=$(dirname "$(realpath "${BASH_SOURCE[0]}")")
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$here/../common/mpi_launch.sh"
# shellcheck source=SCRIPTDIR/../common/checks.sh
source "$here/../common/checks.sh"
EXE=$(realpath "$1")
launch_in_scratch "$RANKS" "$EXE"

grid='<RegularGridTopology name="grid" n="3 3 2" min="0 0 0" max="2 1 1"/>
    <MechanicalObject name="dofs" src="@grid"/>'
generated='<GenerateGrid name="gen" min="0 0 0" max="2 1 1" resolution="2 2 1"/>
    <HexahedronSetTopologyContainer name="hexa" hexahedra="@gen.hexahedra"
        position="@gen.output_position" createQuadArray="1"/>
    <MechanicalObject name="dofs"/>'
tetra='<GenerateGrid name="gen" min="0 0 0" max="2 1 1" resolution="2 2 1"/>
    <TetrahedronSetTopologyContainer name="tetra" tetrahedra="@gen.tetrahedra"
        position="@gen.output_position" createTriangleArray="1"/>
    <MechanicalObject name="dofs"/>'
roi='<BoxROI name="top" box="-1 -1 0.99 3 2 1.01"/>
    <QuadPressureForceField quadList="@top.quadIndices" pressure="0 0 -2"/>'
hexfem='<HexahedronFEMForceField youngModulus="100" poissonRatio="0.3"/>'
# scene BODY LOAD [FEM] > FILE
scene() {
  cat <<XML
<Node name="root" gravity="0 0 0" dt="0.1">
  <DefaultAnimationLoop/>
  <Node name="block">
    <EulerImplicitSolver rayleighMass="0" rayleighStiffness="0"/>
    <CGLinearSolver iterations="1000" tolerance="1e-24" threshold="1e-30"/>
    $1
    <UniformMass totalMass="1"/>
    ${3:-$hexfem}
    $2
  </Node>
</Node>
XML
}
scene "$grid" "$roi" > roi.scn
scene "$grid" '<QuadPressureForceField normal="0 0 1" dmin="0.99" dmax="1.01" pressure="0 0 -2"/>' \
  > slab.scn
scene "$generated" "$roi" > generated.scn
scene "$grid" '<QuadPressureForceField quadList="0 1" pressure="0 0 -2"/>' > numbered.scn
scene "$tetra" '<BoxROI name="top" box="-1 -1 0.99 3 2 1.01"/>
    <TrianglePressureForceField triangleList="@top.triangleIndices" pressure="0 0 -2"/>' \
  '<TetrahedronFEMForceField youngModulus="100" poissonRatio="0.3"/>' > tetra.scn

# run NAME RANKS SCENE: one step, the final state in NAME.csv.
run() {
  mpi_command "$2" "$EXE"
  local status=0
  timeout 120 "${MPI_COMMAND[@]}" --scene "$3" --solver.steps=1 --output.final-state="$1.csv" \
    --quiet > "$1.out" 2> "$1.err" || status=$?
  [ "$status" -eq 0 ] || sed 's/^/     | /' "$1.err"
  return "$status"
}
for ranks in 1 2 3; do
  check "the block runs on $ranks rank(s)" run "roi$ranks" "$ranks" roi.scn
done
check "the block with dmin/dmax runs on 2 ranks" run slab2 2 slab.scn
check "the generated block runs on 2 ranks" run generated2 2 generated.scn
for ranks in 1 3; do
  check "the block of tetrahedra runs on $ranks rank(s)" run "tetra$ranks" "$ranks" tetra.scn
done

# momentum FILE: 18 rows, sum of v / 18 = (0, 0, -0.4) to 1e-12.
momentum() {
  awk -F, 'FNR > 1 { n++; px += $5 / 18; py += $6 / 18; pz += $7 / 18 }
    END { e = (px < 0 ? -px : px) + (py < 0 ? -py : py) + (pz + 0.4 < 0 ? -(pz + 0.4) : pz + 0.4)
          if (n != 18 || e > 1e-12) { printf "  %d rows, momentum %.17g %.17g %.17g\n", n, px, py, pz
                                      exit 1 } }' "$1"
}
for name in roi1 roi2 roi3 slab2 generated2 tetra1 tetra3; do
  check "$name: momentum 0 0 -0.4 = dt x pressure x area" momentum "$name.csv"
done
check "2 ranks = 1 rank (1e-12)" same_state roi1.csv roi2.csv 1e-12
check "3 ranks = 1 rank (1e-12)" same_state roi1.csv roi3.csv 1e-12
check "dmin/dmax = quadIndices (1e-12)" same_state roi2.csv slab2.csv 1e-12
check "tetrahedra: 3 ranks = 1 rank (1e-12)" same_state tetra1.csv tetra3.csv 1e-12

check "quads by number are refused" \
  refused 'quads by number are not supported' 2 "$EXE" --scene numbered.scn --solver.steps=1

echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
