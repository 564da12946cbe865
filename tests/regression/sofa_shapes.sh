#!/usr/bin/env bash
# SOFA's projective constraints on shapes and the ROIs that select them (io/sofa_constraints.cpp,
# io/sofa_selections.cpp, model/selection.cpp): a 0.6 x 0.2 x 0.2 beam of 7 x 3 x 3 grid nodes,
# 0.1 apart, pulled by gravity along -y and -z, held at x = 0 by a PlaneROI and at x = 0.6 by a
# BoxROI's orientedBox (9 nodes each, counted by hand), and kept on the plane z = 0 by a
# FixedPlaneProjectiveConstraint (its 21 nodes with rest z = 0 in the slab |z| < 0.01). After 20
# steps exactly the 18 held nodes have zero velocity, exactly the 21 slab nodes have z = 0 and
# vz = 0 (the rest fall along z), with an iterative and with a direct solver alike (SOFA's
# assembled system discards the same axis), on 1, 2 and 3 ranks alike.
# Usage: sofa_shapes.sh <euler-implicit> <meshes dir>.
set -uo pipefail
RANKS=3  # MPI ranks per run at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
here=$(dirname "$(realpath "${BASH_SOURCE[0]}")")
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$here/../common/mpi_launch.sh"
# shellcheck source=SCRIPTDIR/../common/checks.sh
source "$here/../common/checks.sh"
EXE=$(realpath "$1")
launch_in_scratch "$RANKS" "$EXE"

# scene LINEAR-SOLVER > FILE
scene() {
  cat <<XML
<Node name="root" gravity="0 -9.81 -5" dt="0.02">
  <DefaultAnimationLoop/>
  <Node name="beam">
    <EulerImplicitSolver rayleighMass="0.05" rayleighStiffness="0.02"/>
    $1
    <RegularGridTopology name="grid" n="7 3 3" min="0 0 0" max="0.6 0.2 0.2"/>
    <MechanicalObject name="dofs" src="@grid"/>
    <UniformMass totalMass="0.5"/>
    <TetrahedronFEMForceField youngModulus="2e4" poissonRatio="0.3"/>
    <PlaneROI name="near" plane="0 -0.01 -0.01  0 0.21 -0.01  0 0.21 0.21  0.02"
              position="@dofs.rest_position"/>
    <FixedProjectiveConstraint indices="@near.indices"/>
    <BoxROI name="far" orientedBox="0.6 -0.01 -0.01  0.6 0.21 -0.01  0.6 0.21 0.21  0.02"/>
    <FixedProjectiveConstraint indices="@far.indices"/>
    <FixedPlaneProjectiveConstraint direction="0 0 1" dmin="-0.01" dmax="0.01"/>
  </Node>
</Node>
XML
}
scene '<CGLinearSolver iterations="1000" tolerance="1e-24" threshold="1e-30"/>' > cg.scn
scene '<SparseLDLSolver/>' > ldl.scn

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
  check "the CG beam runs on $ranks rank(s)" run "cg$ranks" "$ranks" cg.scn
done
check "the LDL beam runs on 2 ranks" run ldl2 2 ldl.scn

# counts FILE: rows with v = 0 exactly (columns 5-7), rows with z = 0 and vz = 0 exactly, and
# rows above the plane (node id / 21 = k > 0, rest z = 0.1 k) whose z has moved: 18, 21 (the
# 6 held ones among them) and 42 - 12 held = 30.
counts() {
  awk -F, 'FNR > 1 {
      k = int($1 / 21); held += ($5 == 0 && $6 == 0 && $7 == 0); plane += ($4 == 0 && $7 == 0)
      off += (k > 0 && $4 != 0.1 * k) }
    END { if (held != 18 || plane != 21 || off != 30) {
            print "  " held " held, " plane " on the plane, " off " off their rest z"; exit 1 } }' "$1"
}
for name in cg1 cg2 cg3 ldl2; do
  check "$name: 18 nodes held, 21 on z = 0, the 30 others off their rest z" counts "$name.csv"
done
check "2 ranks = 1 rank (1e-12)" same_state cg1.csv cg2.csv 1e-12
check "3 ranks = 1 rank (1e-12)" same_state cg1.csv cg3.csv 1e-12
check "direct = iterative (1e-9)" same_state cg2.csv ldl2.csv 1e-9

echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
