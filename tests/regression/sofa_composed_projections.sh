#!/usr/bin/env bash
# Two projective constraints on one node (model/fixed_constraint.cpp): SOFA projects a node's
# response by each in graph order; where a partial fixing by axes and a plane or line projection
# commute, their product is that order's (and the other's). A 0.6 x 0.2 x 0.2 beam of 7 x 3 x 3
# grid nodes, 0.1 apart, held at x = 0, pulled along +x, -y and -z; a FixedPlaneProjectiveConstraint
# keeps its 21 nodes with rest z = 0 on z = 0, and a LineProjectiveConstraint keeps node 6
# (0.6, 0, 0), one of them, on the x axis. After 20 steps node 6 has y = z = 0 and vy = vz = 0
# exactly and has moved along x; the 21 plane nodes have z = vz = 0; the same with the two
# constraints in the other order (to rounding) and with a direct solver (to 1e-9), on 1, 2 and 3
# ranks alike. A line along (1 0 1),
# which does not commute with the fixed z, is refused with one clear error.
# Usage: sofa_composed_projections.sh <euler-implicit> <meshes dir>.
set -uo pipefail
RANKS=3  # MPI ranks per run at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
here=$(dirname "$(realpath "${BASH_SOURCE[0]}")")
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$here/../common/mpi_launch.sh"
# shellcheck source=SCRIPTDIR/../common/checks.sh
source "$here/../common/checks.sh"
EXE=$(realpath "$1")
launch_in_scratch "$RANKS" "$EXE"

plane='<FixedPlaneProjectiveConstraint direction="0 0 1" dmin="-0.01" dmax="0.01"/>'
cg='<CGLinearSolver iterations="1000" tolerance="1e-24" threshold="1e-30"/>'
# scene FIRST SECOND [SOLVER] > FILE: the beam with two constraints, in that order.
scene() {
  cat <<XML
<Node name="root" gravity="3 -9.81 -5" dt="0.02">
  <DefaultAnimationLoop/>
  <Node name="beam">
    <EulerImplicitSolver rayleighMass="0.05" rayleighStiffness="0.02"/>
    ${3:-$cg}
    <RegularGridTopology name="grid" n="7 3 3" min="0 0 0" max="0.6 0.2 0.2"/>
    <MechanicalObject name="dofs" src="@grid"/>
    <UniformMass totalMass="0.5"/>
    <TetrahedronFEMForceField youngModulus="2e4" poissonRatio="0.3"/>
    <BoxROI name="near" box="-0.01 -0.01 -0.01 0.01 0.21 0.21"/>
    <FixedProjectiveConstraint indices="@near.indices"/>
    $1
    $2
  </Node>
</Node>
XML
}
scene "$plane" '<LineProjectiveConstraint direction="1 0 0" origin="0 0 0" indices="6"/>' > a.scn
scene '<LineProjectiveConstraint direction="1 0 0" origin="0 0 0" indices="6"/>' "$plane" > b.scn
scene "$plane" '<LineProjectiveConstraint direction="1 0 0" origin="0 0 0" indices="6"/>' \
  '<SparseLDLSolver/>' > ldl.scn
scene "$plane" '<LineProjectiveConstraint direction="1 0 1" origin="0 0 0" indices="6"/>' > bad.scn

# run NAME RANKS SCENE: 20 steps, the final state in NAME.csv.
run() {
  mpi_command "$2" "$EXE"
  local status=0
  timeout 120 "${MPI_COMMAND[@]}" --scene "$3" --solver.steps=20 --output.final-state="$1.csv" \
    --quiet > "$1.out" 2> "$1.err" || status=$?
  [ "$status" -eq 0 ] || sed 's/^/     | /' "$1.err"
  return "$status"
}
for ranks in 1 2 3; do
  check "the beam runs on $ranks rank(s)" run "a$ranks" "$ranks" a.scn
done
check "the beam with the line first runs on 2 ranks" run b2 2 b.scn
check "the beam with a direct solver runs on 2 ranks" run ldl2 2 ldl.scn

# on_shapes FILE: node 6 (x = 0.6 at rest) with y = z = vy = vz = 0 and x moved; 21 rows with
# z = vz = 0 exactly.
on_shapes() {
  awk -F, 'FNR > 1 { plane += ($4 == 0 && $7 == 0)
                     if ($1 == 6) line = ($3 == 0 && $4 == 0 && $6 == 0 && $7 == 0 && $2 > 0.6) }
    END { if (!line || plane != 21) { print "  line " line ", " plane " on the plane"; exit 1 } }' "$1"
}
for name in a1 a2 a3 b2 ldl2; do
  check "$name: node 6 on the x axis and moved along it, 21 nodes on z = 0" on_shapes "$name.csv"
done
check "2 ranks = 1 rank (1e-12)" same_state a1.csv a2.csv 1e-12
check "3 ranks = 1 rank (1e-12)" same_state a1.csv a3.csv 1e-12
check "line first = plane first (1e-12)" same_state a2.csv b2.csv 1e-12
check "direct = iterative (1e-9)" same_state a2.csv ldl2.csv 1e-9

check "a line along (1 0 1) on a node fixed in z is refused" \
  refused 'does not commute' 2 "$EXE" --scene bad.scn --solver.steps=2

echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
