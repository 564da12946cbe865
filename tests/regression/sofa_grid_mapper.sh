#!/usr/bin/env bash
# BarycentricMapping from a body on a RegularGridTopology (SOFA's
# BarycentricMapperRegularGridTopology: each point in the cube the grid's index gives,
# io/sofa_mapped_child.cpp; model/child_mapping.cpp ChildMapping::inCells):
# - a child at the grid's nodes (on faces shared by two cubes, on the far faces, which the
#   index clamps) carrying half the mass and the loads moves the body as the body carrying
#   them does;
# - a child at points inside and outside the grid gives the same state on 1, 2 and 3 ranks;
# and the same from a body on a SparseGridTopology (BarycentricMapperSparseGridTopology: the
# regular grid's cube when the sparse grid keeps it, else the nearest boundary cube);
# to 1e-10 of the largest value.
# Usage: sofa_grid_mapper.sh <euler-implicit> <meshes dir>.
set -euo pipefail
RANKS=3  # MPI ranks per run at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
EXE=$(realpath "$1")
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/mpi_launch.sh"
launch_in_scratch "$RANKS" "$EXE"
# shellcheck source=SCRIPTDIR/../common/checks.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/checks.sh"

# The grid's 18 nodes, x fastest: 3 x 3 x 2 points on [0,2] x [0,1] x [0,1].
NODES=$(for z in 0 1; do for y in 0 0.5 1; do for x in 0 1 2; do echo -n "$x $y $z  "; done; done; done)
LOADS='<ConstantForceField forces="0.5 0 -3"/>
    <ConstantForceField indices="4 7" forces="0.2 0 1  0 -1 0.5"/>
    <RestShapeSpringsForceField points="2 8" stiffness="25"/>'
# scene MASS BODY_LOADS CHILD [GRID] > FILE
GRID='<RegularGridTopology n="3 3 2" min="0 0 0" max="2 1 1"/>'
# The sparse grid of the unit cube's surface, n = 3 3 3: its box widened by 1%, every cell kept.
SPARSE='<SparseGridTopology n="3 3 3" position="0 0 0 1 0 0 1 1 0 0 1 0 0 0 1 1 0 1 1 1 1 0 1 1"
      triangles="0 2 1 0 3 2 4 5 6 4 6 7 0 1 5 0 5 4 3 7 6 3 6 2 0 4 7 0 7 3 1 2 6 1 6 5"/>'
SPARSE_NODES=$(for x in -0.01 0.5 1.01; do for y in -0.01 0.5 1.01; do for z in -0.01 0.5 1.01; do
  echo -n "$x $y $z  "; done; done; done)
scene() {
  cat <<XML
<Node name="root" gravity="0.3 -9.81 0.1" dt="0.02">
  <DefaultAnimationLoop/>
  <Node name="body">
    <EulerImplicitSolver rayleighMass="0.1"/>
    <CGLinearSolver iterations="1000" tolerance="1e-14" threshold="1e-30"/>
    ${4:-$GRID}
    <MechanicalObject/>
    <UniformMass totalMass="$1"/>
    <HexahedronFEMForceField youngModulus="400" poissonRatio="0.3"/>
    <FixedProjectiveConstraint indices="0 3 6"/>
    $2
    $3
  </Node>
</Node>
XML
}
child() {  # POINTS
  cat <<XML
<Node name="child">
      <MechanicalObject position="$1"/>
      <UniformMass totalMass="3"/>
      $LOADS
      <BarycentricMapping/>
    </Node>
XML
}
scene 6 "$LOADS" "" > body.scn
scene 6 "$LOADS" "" "$SPARSE" > sparse-body.scn
scene 3 "" "$(child "$SPARSE_NODES")" "$SPARSE" > sparse-nodes.scn
scene 3 "" "$(child "0.3 0.2 0.7  1.6 0.9 0.1  2.5 0.5 0.5  -0.4 1.3 0.2  1 0.5 0.5
  0.1 0.1 1.2  0.9 0.6 0.4  0.7 -0.2 0.9  0.5 0.4 0.3")" "$SPARSE" > sparse-points.scn
scene 3 "" "$(child "$NODES")" > nodes.scn
scene 3 "" "$(child "0.3 0.2 0.7  1.6 0.9 0.1  2.5 0.5 0.5  -0.4 1.3 0.2  1 0.5 0.5
  0.1 0.1 1.2  1.9 0.6 0.4  0.7 -0.2 0.9  1.2 0.4 0.3")" > points.scn

for ranks in 1 2 3; do
  mpi_command "$ranks" "$EXE"
  for name in body nodes points sparse-body sparse-nodes sparse-points; do
    status=0
    timeout 60 "${MPI_COMMAND[@]}" --scene $name.scn --solver.steps=10 \
      --output.final-state=$name-$ranks.csv --quiet > run.out 2> run.err || status=$?
    check "$ranks rank(s): $name.scn runs" test "$status" -eq 0
    [ "$status" -eq 0 ] || sed 's/^/     | /' run.err
  done
  check "$ranks rank(s): a child at the grid's nodes moves the body as the body carrying its loads" \
    same_state body-$ranks.csv nodes-$ranks.csv 1e-10
  check "$ranks rank(s): a child inside and outside the grid gives the 1-rank state" \
    same_state points-1.csv points-$ranks.csv 1e-10
  check "$ranks rank(s): sparse grid: a child at its nodes moves it as it carrying the loads" \
    same_state sparse-body-$ranks.csv sparse-nodes-$ranks.csv 1e-10
  check "$ranks rank(s): sparse grid: a child inside and outside gives the 1-rank state" \
    same_state sparse-points-1.csv sparse-points-$ranks.csv 1e-10
done
differs() { ! same_state "$@"; }
check "the child's points matter (the comparisons can fail)" \
  differs nodes-1.csv points-1.csv 1e-6
echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
