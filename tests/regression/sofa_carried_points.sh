#!/usr/bin/env bash
# SOFA's DeformableOnRigidFrameMapping: a body given in a rigid frame's coordinates, a
# BarycentricMapping child of the state the mapping puts it in, and a PlaneForceField on that
# child (io/sofa_carried_points, model/carried_points, model/joint_system). Checked: with the
# frame held (FixedProjectiveConstraint fixAll), moved and turned a quarter about z, the body ends,
# on 1, 2 and 3 ranks, where the same body without the frame ends under the plane written in its
# coordinates (normal R^T n, offset d - n.c, worked out here): the points' forces, their stiffness
# through the frame's rotation and the barycentric weights are the frame's and the plane's; with
# the frame free (it falls onto the plane), every rank count ends in the same state and the frame
# has moved; what is not read so is refused.
# Usage: sofa_carried_points.sh <euler-implicit> <meshes dir>; the MPI launch line:
# tests/common/mpi_launch.sh.
set -uo pipefail
RANKS=3  # MPI ranks at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
# shellcheck source=SCRIPTDIR/../common/regression_test.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/regression_test.sh"
cp "$COMMON/unit_cube.obj" cube.obj

POINTS="0.1 0.2 0.3  0.05 0.5 0.5  0.2 0.8 0.9  0.6 0.3 0.4  0.9 0.9 0.1  0.25 0.1 0.7"
TOP="12 13 14 15 28 29 30 31 44 45 46 47 60 61 62 63"  # the grid's points at y = 1.01
block() {  # block CHILD: the cube on a sparse grid, held by its top, with CHILD
  cat <<XML
      <SparseGridTopology name="grid" n="4 4 4" fileTopology="cube.obj"/>
      <MechanicalObject name="dofs"/>
      <UniformMass totalMass="3"/>
      <FixedProjectiveConstraint indices="$TOP"/>
      <HexahedronFEMForceField youngModulus="4000" poissonRatio="0.3" method="large"/>
      $1
XML
}
skin() {  # skin NORMAL D: the child's points under the plane
  cat <<XML
<Node name="skin">
        <MechanicalObject position="$POINTS"/>
        <BarycentricMapping/>
        <PlaneForceField normal="$1" d="$2" stiffness="300" damping="2"/>
      </Node>
XML
}
# carrier NAME FRAME BLOCK: the root and the solver's node, with FRAME (XML, may be empty) beside
# the block's node, whose child is BLOCK.
carrier() {
  cat > "$1" <<XML
<Node name="root" dt="0.02" gravity="0 -9.81 0">
  <Node name="carrier">
    <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.2"/>
    <SparseLDLSolver/>
    $2
    <Node name="block">
$(block "$3")
    </Node>
  </Node>
</Node>
XML
}
# carried NAME FRAME CONSTRAINT: the block carried by the frame, under the floor y = 0.1.
carried() {
  carrier "$1" "<MechanicalObject name=\"frame\" template=\"Rigid3\" position=\"$2\"/>
    <UniformMass totalMass=\"2\"/>
    $3" "<Node name=\"placed\">
        <SparseGridTopology n=\"4 4 4\" fileTopology=\"cube.obj\"/>
        <MechanicalObject name=\"world\"/>
        <DeformableOnRigidFrameMapping input1=\"@..\" input2=\"@../../frame\" output=\"@world\"/>
        $(skin "0 1 0" 0.1)
      </Node>"
}
# direct NAME NORMAL D: the block alone, the plane written in its coordinates.
direct() {
  carrier "$1" "" "$(skin "$2" "$3")"
}
held='<FixedProjectiveConstraint fixAll="true"/>'
# c = (0.4, -0.2, 0.1): n.c = -0.2, so d - n.c = 0.3; a quarter turn about z, R^T (0 1 0) = (1 0 0).
carried moved.scn "0.4 -0.2 0.1 0 0 0 1" "$held"
direct moved_direct.scn "0 1 0" 0.3
carried turned.scn "0.4 -0.2 0.1 0 0 0.70710678118654757 0.70710678118654757" "$held"
direct turned_direct.scn "1 0 0" 0.3
for case in moved turned; do
  check "the block alone under the plane in its coordinates ($case)" \
    run_on 1 "${case}_direct" --scene "${case}_direct.scn" --solver.steps=20 \
    --output.final-state="${case}_direct.csv"
  for ranks in 1 2 3; do
    check "the block a held frame carries ($case), $ranks ranks" \
      run_on "$ranks" "$case$ranks" --scene "$case.scn" --solver.steps=20 \
      --output.final-state="$case$ranks.csv"
    check "... is one system with the frame, 6 points carried" \
      grep -q "0 between its nodes, 6 points carried by a frame" "$case$ranks.log"
    check "... ends where the block alone ends" \
      same_state "$case$ranks.csv" "${case}_direct.csv" 1e-12
  done
done
direct slack.scn "0 1 0" -100
check "the block alone with the plane out of reach" \
  run_on 1 slack --scene slack.scn --solver.steps=20 --output.final-state=slack.csv
differ() { ! same_state "$1" "$2" "$3" > /dev/null; }
check "... ends elsewhere: the plane pushes" differ moved_direct.csv slack.csv 1e-3

# same_frames A B TOL: two output.frames files whose numbers differ by at most TOL of the largest.
same_frames() {
  awk -F, -v tol="$3" 'NR == FNR { for (i = 3; i <= NF; ++i) a[FNR, i] = $i; next }
    FNR > 1 { for (i = 3; i <= NF; ++i) { d = a[FNR, i] - $i; if (d < 0) d = -d; if (d > m) m = d
                                          v = $i < 0 ? -$i : $i; if (v > s) s = v }; n++ }
    END { exit !(n > 0 && m <= tol * s) }' "$1" "$2"
}
# A free frame falls, carrying the block onto the floor.
carried free.scn "0.4 -0.2 0.1 0 0 0.70710678118654757 0.70710678118654757" ""
for ranks in 1 2 3; do
  check "the block a free frame carries, $ranks ranks" \
    run_on "$ranks" "free$ranks" --scene free.scn --solver.steps=30 \
    --output.final-state="free$ranks.csv" --output.frames="frames$ranks.csv"
done
for ranks in 2 3; do
  check "... $ranks ranks end where 1 rank ends" same_state "free$ranks.csv" free1.csv 1e-12
  check "... the frame too" same_frames "frames$ranks.csv" frames1.csv 1e-12
done
check "... and the frame has fallen" \
  awk -F, 'NR == 2 { exit !($4 < -0.2 - 0.01) }' frames1.csv

# Refused: another component among the carried points, points spread over several frames, a
# grid in the mapping's node that is not the body's.
sed 's|<PlaneForceField|<UniformMass totalMass="1"/><PlaneForceField|' moved.scn > mass.scn
check "a mass on the carried points is refused" \
  refused "only PlaneForceField is carried there" 2 "$EXE" --scene mass.scn --solver.steps=1
sed 's|output="@world"|output="@world" repartition="3 3"|' moved.scn > spread.scn
check "points spread over several frames are refused" \
  refused "repartition.*points spread over several frames" 2 "$EXE" --scene spread.scn \
  --solver.steps=1
sed 's|<SparseGridTopology n="4 4 4"|<SparseGridTopology n="3 3 3"|' moved.scn > grid.scn
check "another grid in the mapping's node is refused" \
  refused "not the body's grid" 2 "$EXE" --scene grid.scn --solver.steps=1

echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
