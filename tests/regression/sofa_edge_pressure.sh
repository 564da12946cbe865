#!/usr/bin/env bash
# SOFA's EdgePressureForceField (io/sofa_edge_pressure.cpp, model/edge_pressure.cpp) on the
# right side x = 1 of a free 5 x 5 GridMeshCreator sheet (4 boundary edges of length 0.25,
# oriented upward by the creator), as SOFA's PointProjectiveConstraint.scn sets it up, with no
# damping and mass 1 in all. p_intensity = -10 with binormal 0 0 1 gives each edge
# -10 x 0.25 x (0 0 1) x (0 1 0) = (2.5 0 0), (10 0 0) in all; SOFA applies the direction of the
# previous step, so steps 1 and 2 both follow the rest positions and two implicit Euler steps of
# dt = 0.05 give the sheet the momentum 2 x 0.05 x 10 = 1 along x, none along y, to rounding
# (the springs' forces sum to zero). pressure = 0 3 0 gives (0 0.75 0) an edge: momentum 0.3
# along y. On 1, 2 and 3 ranks alike.
# Usage: sofa_edge_pressure.sh <euler-implicit> <meshes dir>.
set -uo pipefail
RANKS=3  # MPI ranks per run at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
here=$(dirname "$(realpath "${BASH_SOURCE[0]}")")
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$here/../common/mpi_launch.sh"
# shellcheck source=SCRIPTDIR/../common/checks.sh
source "$here/../common/checks.sh"
EXE=$(realpath "$1")
launch_in_scratch "$RANKS" "$EXE"

# scene LOAD > FILE
scene() {
  cat <<XML
<Node name="root" gravity="0 0 0" dt="0.05">
  <DefaultAnimationLoop/>
  <Node name="Square">
    <EulerImplicitSolver rayleighMass="0" rayleighStiffness="0"/>
    <CGLinearSolver iterations="1000" tolerance="1e-24" threshold="1e-30"/>
    <GridMeshCreator name="loader" resolution="5 5" trianglePattern="1"/>
    <MechanicalObject name="dofs" position="@loader.position"/>
    <TriangleSetTopologyContainer name="Container" position="@loader.position"
        edges="@loader.edges" triangles="@loader.triangles"/>
    <UniformMass totalMass="1"/>
    <MeshSpringForceField trianglesStiffness="1000"/>
    <Node name="Boundary Edges">
      <EdgeSetTopologyContainer name="Container"/>
      <EdgeSetTopologyModifier/>
      <Triangle2EdgeTopologicalMapping input="@../Container" output="@Container"/>
      <BoxROI name="right" box="0.95 -0.05 -0.05 1.05 1.05 0.05"
          position="@../dofs.rest_position" edges="@Container.edges"/>
      <EdgePressureForceField edgeIndices="@right.edgeIndices" $1/>
    </Node>
  </Node>
</Node>
XML
}
scene 'binormal="0 0 1" p_intensity="-10"' > follower.scn
scene 'pressure="0 3 0"' > constant.scn

# run NAME RANKS SCENE: two steps, the final state in NAME.csv.
run() {
  mpi_command "$2" "$EXE"
  local status=0
  timeout 120 "${MPI_COMMAND[@]}" --scene "$3" --solver.steps=2 --output.final-state="$1.csv" \
    --quiet > "$1.out" 2> "$1.err" || status=$?
  [ "$status" -eq 0 ] || sed 's/^/     | /' "$1.err"
  return "$status"
}
for ranks in 1 2 3; do
  check "the follower load runs on $ranks rank(s)" run "follower$ranks" "$ranks" follower.scn
done
check "the constant load runs on 2 ranks" run constant2 2 constant.scn

# momentum FILE PX PY: 25 rows, sum of v / 25 = (PX, PY, 0) to 1e-12.
momentum() {
  awk -F, -v ex="$2" -v ey="$3" 'FNR > 1 { n++; px += $5 / 25; py += $6 / 25; pz += $7 / 25 }
    END { e = (px - ex < 0 ? ex - px : px - ex) + (py - ey < 0 ? ey - py : py - ey) \
              + (pz < 0 ? -pz : pz)
          if (n != 25 || e > 1e-12) { printf "  %d rows, momentum %.17g %.17g %.17g\n", n, px, py, pz
                                      exit 1 } }' "$1"
}
for name in follower1 follower2 follower3; do
  check "$name: momentum 1 0 0 = 2 dt x 10, the direction of the rest state" momentum \
    "$name.csv" 1 0
done
check "constant2: momentum 0 0.3 0 = 2 dt x 3 x 4 x 0.25" momentum constant2.csv 0 0.3
check "2 ranks = 1 rank (1e-12)" same_state follower1.csv follower2.csv 1e-12
check "3 ranks = 1 rank (1e-12)" same_state follower1.csv follower3.csv 1e-12

echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
