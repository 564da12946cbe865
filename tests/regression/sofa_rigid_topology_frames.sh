#!/usr/bin/env bash
# A SOFA Rigid3d state with no position of its own takes its frames from the node's topology
# container (MechanicalObject::init: at most one frame and one velocity given, the container's
# points, unturned, its one velocity copied to every frame; then reinit's dx dy dz):
#  - four frames at an EdgeSetTopologyContainer's written points, one velocity given, the first
#    frame fixed, under gravity: after 30 steps on 1, 2 and 3 ranks each free frame follows
#    SOFA's implicit-Euler recurrence in closed form (x_n = p + d + n h v_0 + h^2 g n (n + 1) / 2,
#    v_n = v_0 + n h g, orientation (0, 0, 0, 1)) to 1e-12, the fixed one is p + d, bit for bit;
#  - the files of 1, 2 and 3 ranks are the same, bit for bit;
#  - two frames written in `position` stay the frames (SOFA keeps a position of more than one);
#  - a container whose points come from a loader (src) is refused, naming it; so is an
#    UncoupledConstraintCorrection on the frames, as a Lagrangian constraint on rigid frames.
# Usage: sofa_rigid_topology_frames.sh <euler-implicit> <meshes dir>; the MPI launch line:
# tests/common/mpi_launch.sh.
set -euo pipefail
RANKS=3  # MPI ranks per run at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
# shellcheck source=SCRIPTDIR/../common/regression_test.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/regression_test.sh"

POINTS="0 0 0  0.5 0 0  1 0.25 0  1.5 0 -0.5"
scene() {  # scene STATE-ATTRIBUTES CONTAINER-ATTRIBUTES EXTRA
  cat <<EOF
<Node name="root" dt="0.01" gravity="0.5 -9.81 -1"><DefaultAnimationLoop/>
  <Node name="needle">
    <EulerImplicitSolver/>
    <CGLinearSolver iterations="25" tolerance="1e-20" threshold="1e-30"/>
    <EdgeSetTopologyContainer name="edges" $2 edges="0 1 1 2 2 3"/>
    <EdgeSetTopologyModifier/>
    <MechanicalObject template="Rigid3d" name="mstate" $1/>
    <UniformMass totalMass="0.004"/>
    <FixedProjectiveConstraint indices="0"/>
    $3
  </Node>
</Node>
EOF
}
scene 'velocity="1 -2 0.5 0 0 0" dx="2" dz="-1"' "position=\"$POINTS\"" "" > topology.scn
scene 'position="0 0 0 0 0 0 1  3 0 0 0 0 0 1"' "position=\"$POINTS\"" "" > written.scn
scene '' 'src="@loader"' "" |
  sed 's|<EdgeSetTopologyContainer|<MeshOBJLoader name="loader" filename="x.obj"/>&|' > loaded.scn
scene '' "position=\"$POINTS\"" '<UncoupledConstraintCorrection/>' > uncoupled.scn

# The largest difference from the closed forms, and whether the fixed frame is p + d.
cat > reference.py <<'PY'
import sys
rows = [line.strip().split(",") for line in open(sys.argv[1])][1:]
n, h = 30, 0.01
g, d, v0 = [0.5, -9.81, -1.0], [2.0, 0.0, -1.0], [1.0, -2.0, 0.5]
p = [float(t) for t in sys.argv[2].split()]
got = {int(r[1]): [float(t) for t in r[2:]] for r in rows}
assert sorted(got) == [0, 1, 2, 3], sorted(got)
worst = 0.0
for f in (1, 2, 3):
    for i in range(3):
        x = p[3 * f + i] + d[i] + n * h * v0[i] + h * h * g[i] * n * (n + 1) / 2
        v = v0[i] + n * h * g[i]
        worst = max(worst, abs(got[f][i] - x), abs(got[f][7 + i] - v))
    worst = max([worst] + [abs(got[f][3 + i] - [0, 0, 0, 1][i]) for i in range(4)])
    worst = max([worst] + [abs(got[f][10 + i]) for i in range(3)])
exact = got[0] == [p[i] + d[i] for i in range(3)] + [0.0, 0.0, 0.0, 1.0] + [0.0] * 6
print("%.3e %s" % (worst, "exact" if exact else "moved"))
PY

for ranks in 1 2 3; do
  status=0
  run "$ranks" --scene topology.scn --solver.steps=30 --output.frames="frames$ranks.csv" ||
    status=$?
  check "frames at a container's points run on $ranks rank(s)" test "$status" -eq 0
  [ "$status" -eq 0 ] || { sed 's/^/     | /' run.err; continue; }
  read -r value fixed < <(python3 reference.py "frames$ranks.csv" "$POINTS")
  check "on $ranks rank(s) the frames follow the closed forms: $value <= 1e-12" below "$value" 1e-12
  check "on $ranks rank(s) the fixed frame is the point moved by dx dz, bit for bit" \
    test "$fixed" = exact
done
check "1 and 2 ranks write the same frames, bit for bit" cmp -s frames1.csv frames2.csv
check "1 and 3 ranks write the same frames, bit for bit" cmp -s frames1.csv frames3.csv

status=0
run 2 --scene written.scn --solver.steps=1 --output.frames=written.csv || status=$?
check "two written frames beside a container run" test "$status" -eq 0
check "two written frames stay the frames (not the container's four)" \
  test "$(tail -n +2 written.csv | wc -l)" -eq 2

status=0
run 2 --scene loaded.scn --solver.steps=1 --output.frames=loaded.csv || status=$?
check "a container's points from a loader are refused" test "$status" -ne 0
check "its error names the container and the loader" \
  grep -q "edges.*taken from a loader are not supported" run.err

status=0
run 2 --scene uncoupled.scn --solver.steps=1 --output.frames=uncoupled.csv || status=$?
check "an UncoupledConstraintCorrection on frames is refused" test "$status" -ne 0
check "its error says Lagrangian constraints on rigid frames" \
  grep -q "UncoupledConstraintCorrection.*Lagrangian constraints on rigid frames" run.err
echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
