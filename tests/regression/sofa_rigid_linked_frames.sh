#!/usr/bin/env bash
# SOFA Rigid3d states whose points come through links (MechanicalObject's `position` linked):
#  - frames at a RegularGridTopology's points (position="@grid.position": SOFA copies each point's
#    3 numbers into a frame's centre, its orientation the identity) with a RigidMapping child
#    whose points are another grid's (position="@childgrid.position"), a UniformMass on both,
#    the first frame fixed, under gravity: the frames after 20 steps are those of the same scene
#    with every value written out, bit for bit, on 1, 2 and 3 ranks;
#  - frames linked to those written in another Rigid3d state are that scene's too, bit for bit;
#  - a frame position linked to a loader's or a Vec3d state's points, mapped points linked to a
#    STL loader's, and either linked to a grid SOFA initialises after them (which fills its
#    points in GridTopology::init), are refused in one error line naming the scene's file and
#    line.
# Usage: sofa_rigid_linked_frames.sh <euler-implicit> <meshes dir>; the MPI launch line:
# tests/common/mpi_launch.sh.
set -euo pipefail
RANKS=3  # MPI ranks per run at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
# shellcheck source=SCRIPTDIR/../common/regression_test.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/regression_test.sh"

# The grids' points as SOFA's RegularGridTopology numbers them (point i + nx (j + ny k)): one
# point along x and y lies midway between min and max.
FRAMES="0.5 0 0 0 0 0 1  0.5 0 1 0 0 0 1  0.5 0 2 0 0 0 1  0.5 0 3 0 0 0 1"
POINTS=""
for z in 0 1 2 3; do for y in -1 1; do for x in 0 1; do POINTS="$POINTS $x $y $z "; done; done; done
scene() {  # scene FRAME-POSITION CHILD-POSITION EXTRA
  cat <<EOF
<Node name="root" dt="0.01" gravity="0.5 -9.81 -1"><DefaultAnimationLoop/>
  <Node name="store"><MechanicalObject template="Rigid3d" name="frames" position="$FRAMES"/></Node>
  <Node name="beam">
    <EulerImplicitSolver/>
    <CGLinearSolver iterations="50" tolerance="1e-20" threshold="1e-30"/>
    <RegularGridTopology name="grid" n="1 1 4" min="0.5 -1 0" max="0.5 1 3"/>
    $3
    <MechanicalObject template="Rigid3d" name="dofs" position="$1" velocity="0.1 0 0.2 0 0.3 0"/>
    <UniformMass totalMass="0.4"/>
    <FixedProjectiveConstraint indices="0"/>
    <Node name="body">
      <RegularGridTopology name="childgrid" n="2 2 4" min="0 -1 0" max="1 1 3"/>
      <MechanicalObject template="Vec3d" name="points" position="$2"/>
      <UniformMass totalMass="1.6"/>
      <RigidMapping globalToLocalCoords="true"
                    rigidIndexPerPoint="0 0 0 0 1 1 1 1 2 2 2 2 3 3 3 3"/>
    </Node>
  </Node>
</Node>
EOF
}
scene "$FRAMES" "$POINTS" "" > written.scn
scene "@grid.position" "@childgrid.position" "" > linked.scn
scene "@/store/frames.position" "$POINTS" "" > stored.scn
scene "@loader.position" "$POINTS" '<MeshOBJLoader name="loader" filename="x.obj"/>' > loader.scn
scene "@/points/vec.position" "$POINTS" "" |
  sed 's|<Node name="store">|<Node name="points"><MechanicalObject name="vec" position="0 0 0"/></Node>&|' \
    > vec.scn
scene "$FRAMES" "@stl.position" "" |
  sed 's|<RegularGridTopology name="childgrid"|<MeshSTLLoader name="stl" filename="x.stl"/>&|' \
    > stl.scn
scene "@late.position" "$POINTS" "" |
  sed 's|<UniformMass totalMass="0.4"/>|<RegularGridTopology name="late" n="1 1 4"/>&|' > late.scn
scene "$FRAMES" "@late.position" "" |
  sed 's|<UniformMass totalMass="1.6"/>|<RegularGridTopology name="late" n="2 2 4"/>&|' \
    > late-points.scn

status=0
run 2 --scene written.scn --solver.steps=20 --output.frames=written.csv || status=$?
check "the scene with the values written runs" test "$status" -eq 0
[ "$status" -eq 0 ] || sed 's/^/     | /' run.err
for ranks in 1 2 3; do
  status=0
  run "$ranks" --scene linked.scn --solver.steps=20 --output.frames="linked$ranks.csv" ||
    status=$?
  check "frames and mapped points linked to grids run on $ranks rank(s)" test "$status" -eq 0
  [ "$status" -eq 0 ] || { sed 's/^/     | /' run.err; continue; }
  check "on $ranks rank(s) they end where the written values do, bit for bit" \
    cmp -s written.csv "linked$ranks.csv"
done
check "the frames moved (the test compares motion, not rest)" \
  test "$(sed -n 3p written.csv | cut -d, -f3-5)" != "0.5,0,1"

status=0
run 2 --scene stored.scn --solver.steps=20 --output.frames=stored.csv || status=$?
check "frames linked to another Rigid3d state's run" test "$status" -eq 0
check "they end where the written values do, bit for bit" cmp -s written.csv stored.csv

# One step on 2 ranks of each scene: one error line naming the scene's line.
grid_link="position.*: a Rigid3d state's position links a regular grid's points"
late="position: links the points of RegularGridTopology 'late' .* put the grid first"
check "a frame position linked to a loader is refused (loader.scn:8)" \
  refused "loader.scn:8: .*$grid_link" 2 "$EXE" --scene loader.scn --solver.steps=1
check "a frame position linked to a Vec3d state is refused (vec.scn:8)" \
  refused "vec.scn:8: .*$grid_link" 2 "$EXE" --scene vec.scn --solver.steps=1
check "mapped points linked to an STL loader are refused (stl.scn:13)" \
  refused "stl.scn:13: .*position: a link is not supported here (but to a MeshOBJLoader's, \
MeshGmshLoader's or MeshVTKLoader's points, a regular grid's or a SubsetTopology's pointsInROI \
or pointsOutROI)" 2 "$EXE" --scene stl.scn --solver.steps=1
check "frames linked to a grid after the state are refused (late.scn:8)" \
  refused "late.scn:8: .*$late" 2 "$EXE" --scene late.scn --solver.steps=1
check "mapped points linked to a grid after their state are refused (late-points.scn:13)" \
  refused "late-points.scn:13: .*$late" 2 "$EXE" --scene late-points.scn --solver.steps=1
echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
