#!/usr/bin/env bash
# SOFA's TopologicalChangeProcessor (topology.changes) in a scene of our own, on 2 ranks: two
# removals of tetrahedra renumber cells and nodes as SOFA does (worked out by hand below), the
# final state follows the new numbering, and bad event files or outputs that cannot follow a
# changing mesh are one clear error at set-up.
# Usage: topology_changes.sh <euler-implicit> <meshes dir>; the MPI launch line: tests/common/mpi_launch.sh.
set -euo pipefail
RANKS=2  # MPI ranks per run; tests/CMakeLists.txt reads this line too (PROCESSORS)
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/mpi_launch.sh"
program=$(realpath "$1")
launch_in_scratch "$RANKS" "$program"
# shellcheck source=SCRIPTDIR/../common/checks.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/checks.sh"

# A chain T0 = (0 1 2 3), T1 = (1 2 3 4), T2 = (2 3 4 5), T3 = (3 4 5 6); node 7 in no cell.
cat > chain.msh <<'MSH'
$MeshFormat
2.2 0 8
$EndMeshFormat
$Nodes
8
1 0 0 0
2 1 0 0
3 0 1 0
4 0 0 1
5 1 1 1
6 1 2 2
7 2 1 3
8 5 5 5
$EndNodes
$Elements
4
1 4 2 1 1 1 2 3 4
2 4 2 1 1 2 3 4 5
3 4 2 1 1 3 4 5 6
4 4 2 1 1 4 5 6 7
$EndElements
MSH
scene() {  # scene EVENTS-FILE
  cat <<XML
<Node name="root" dt="0.01" gravity="0 -9.81 0">
  <DefaultAnimationLoop/>
  <Node name="chain">
    <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>
    <CGLinearSolver iterations="200" tolerance="1e-12" threshold="1e-20"/>
    <MeshGmshLoader name="loader" filename="chain.msh"/>
    <MechanicalObject src="@loader"/>
    <TetrahedronSetTopologyContainer src="@loader"/>
    <TetrahedronSetTopologyModifier/>
    <DiagonalMass massDensity="1"/>
    <FixedProjectiveConstraint indices="5 6"/>
    <TetrahedralCorotationalFEMForceField youngModulus="300" poissonRatio="0.3" method="large"/>
    <TopologicalChangeProcessor filename="$1"/>
  </Node>
</Node>
XML
}
# At t = 0.02 T0 goes: T3 takes its place, node 0 loses its last cell and node 7 (in no cell)
# takes its number. At t = 0.04 cell 1 (T1) goes: T2 takes its place, node 1 loses its last
# cell and the last node, old 6, takes its number. Left: old nodes 7 6 2 3 4 5 as 0..5, cells
# (3 4 5 1) (2 3 4 5), fixed 5 and 1.
printf 'T= 0.02\n  REMOVE= 1\n0\nT= 0.04\n  REMOVE= 1\n1\n' > events.txt
scene events.txt > chain.scn

run() {  # run LOG SCENE ARGS...: the status of a run of SCENE
  local log=$1 scene=$2 status=0
  shift 2
  timeout 60 "${MPI_COMMAND[@]}" --scene="$scene" "$@" > "$log" 2>&1 || status=$?
  return $status
}

status=0
run out.txt chain.scn --solver.steps=6 --output.final-state=final.csv || status=$?
check "the run through both removals succeeds" test "$status" -eq 0
check "two rebuilds are reported" test "$(grep -c '^topology change at t = ' out.txt)" -eq 2
check "6 nodes are left" test "$(($(wc -l < final.csv) - 1))" -eq 6
check "node 0 is the former node 7, in no cell, at rest" grep -qx '0,5,5,5,0,0,0' final.csv
check "node 1 is the former node 6, still fixed" grep -qx '1,2,1,3,0,0,0' final.csv
check "node 5 is still fixed" grep -qx '5,1,2,2,0,0,0' final.csv
check "free node 4 (1 1 1) moved" bash -c "grep -q '^4,' final.csv && ! grep -q '^4,1,1,1,' final.csv"

# The first removal alone: 7 nodes, the former node 6 still last.
status=0
run out3.txt chain.scn --solver.steps=3 --output.final-state=final3.csv || status=$?
check "after the first removal 7 nodes are left" test "$(($(wc -l < final3.csv) - 1))" -eq 7
check "and node 6 is still fixed at rest" grep -qx '6,2,1,3,0,0,0' final3.csv

printf 'T= 0.02\n  REMOVE= 2\n0\n' > short.txt
scene short.txt > short.scn
check "a count that the indices do not match" \
  refused 'short.txt:3: "REMOVE= 2" above, but this line lists 1' \
  "$RANKS" "$program" --scene=short.scn --solver.steps=6
printf 'T= 0.02\n  ADD= Tetrahedra 1\n0 1 2 3\n' > add.txt
scene add.txt > add.scn
check "adding cells, in a run that reaches it" \
  refused 'add.txt:2: ADD= (adding cells) is not supported; only REMOVE= of tetrahedra or hexahedra is (it falls at step 3: a run of at most 2 steps ends before it)' \
  "$RANKS" "$program" --scene=add.scn --solver.steps=6
status=0
run add_short.txt add.scn --solver.steps=2 || status=$?
check "adding cells in a run that ends before it changes nothing" test "$status" -eq 0
printf 'T= 0.01\n  REMOVE= 2\n0 1\nT= 0.03\n  REMOVE= 2\n0 1\n' > all.txt
scene all.txt > all.scn
check "a removal that empties the body" \
  refused 'removes the last cell of the body; a body without cells is not supported (it falls at step 4' \
  "$RANKS" "$program" --scene=all.scn --solver.steps=6
check "a VTK series, which cannot follow the mesh" \
  refused 'output.vtk is not supported on a body whose cells are removed during the run (its first event, topology.changes = .*events.txt:1 (T= 0.02), falls at step 3' \
  "$RANKS" "$program" --scene=chain.scn --solver.steps=6 --output.vtk=series/chain
status=0
run ck.txt chain.scn --solver.steps=1 --output.checkpoint=ck || status=$?
check "a run before the first event writes a checkpoint" test "$status" -eq 0
check "a run that starts from a checkpoint" \
  refused 'a run that starts from a checkpoint (step 1) is not supported with topology changes' \
  "$RANKS" "$program" --scene=chain.scn --solver.steps=6 --initial.state=ck_000001.h5
status=0
run short_run.txt all.scn --solver.steps=3 || status=$?
check "the same events in a run that ends before the last one" test "$status" -eq 0

echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
