#!/usr/bin/env bash
# SOFA Rigid3d bodies run unchanged (--scene FILE.scn), their frames written by output.frames:
#  - three frames under UniformMass (a full RigidMass: mass, volume, inertia) and gravity: one
#    free, thrown and spinning about z; one fixed (FixedProjectiveConstraint); one held along y
#    (PartialFixedProjectiveConstraint fixedDirections 0 1 0 0 0 0). After 40 steps on 1, 2 and 3
#    ranks the free frame's centre and velocity follow SOFA's implicit-Euler recurrence in closed
#    form (v_n = v_0 + n h g, x_n = x_0 + n h v_0 + h^2 g n (n + 1) / 2) and its orientation is
#    q_n = (0, 0, sin(n h w / 2), cos(n h w / 2)) q_0, to 1e-12; the fixed frame is its input to
#    the bit; the held one keeps y and moves in x and z as the free one does;
#  - the files of 1, 2 and 3 ranks are the same, bit for bit;
#  - the same frames beside a deformable body (a cube of points with springs, in another node
#    with its own ODE solver) are the same, bit for bit, their rows named by their node;
#  - MechanicalObject's rz turns the frames' centres and orientations (the fixed frame against
#    its hand-computed turn), dx dz move the centres (the same run, moved);
#  - what a rigid body cannot do yet is refused by name: frames with no mass, a
#    DiagonalMass on it, a legacy scale of it (sx), and output.final-state in a scene
#    with one.
# Usage: sofa_rigid_bodies.sh <euler-implicit> <meshes dir>; the MPI launch line:
# tests/common/mpi_launch.sh.
set -euo pipefail
RANKS=3  # MPI ranks per run at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
# shellcheck source=SCRIPTDIR/../common/regression_test.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/regression_test.sh"

# q_0: 0.4 rad about x.
S=$(awk 'BEGIN { printf "%.17g", sin(0.2) }')
C=$(awk 'BEGIN { printf "%.17g", cos(0.2) }')
FRAMES="1 2 3 $S 0 0 $C  -1 0.5 0 0 0.6 0 0.8  4 0 1 0 0 0 1"
VELOCITIES="1 0 -2 0 0 3  5 5 5 1 1 1  0.5 7 0 0 0 0"
frames() {  # frames EXTRA: the rigid node, with the component EXTRA in it if given
  cat <<EOF
  <Node name="frames">
    <EulerImplicitSolver/>
    <CGLinearSolver iterations="25" tolerance="1e-20" threshold="1e-30"/>
    <MechanicalObject template="Rigid3d" name="dofs" position="$FRAMES" velocity="$VELOCITIES"/>
    <UniformMass vertexMass="2.5 1 1 0 0 0 2 0 0 0 3"/>
    <FixedProjectiveConstraint indices="1"/>
    <PartialFixedProjectiveConstraint indices="2" fixedDirections="0 1 0 0 0 0"/>
    $1
  </Node>
EOF
}
cube() {
  cat <<EOF
  <Node name="cube">
    <EulerImplicitSolver/>
    <SparseLDLSolver/>
    <MechanicalObject position="0 0 1  1 0 1  0 1 1  1 1 1  0 0 2  1 0 2  0 1 2  1 1 2"/>
    <MeshTopology hexas="0 4 6 2 1 5 7 3"/>
    <UniformMass totalMass="2"/>
    <MeshSpringForceField linesStiffness="300" quadsStiffness="70" cubesStiffness="20"/>
  </Node>
EOF
}
root='<Node name="root" dt="0.01" gravity="0.5 -9.81 -1"><DefaultAnimationLoop/>'
{ echo "$root"; frames ""; echo "</Node>"; } > rigid.scn
{ echo "$root"; frames ""; cube; echo "</Node>"; } > mixed.scn
{ echo "$root"; frames '<DiagonalMass/>'; echo "</Node>"; } > forced.scn

# The largest difference from the closed forms, and whether the fixed frame is its input.
cat > reference.py <<'PY'
import math, sys
rows = [line.strip().split(",") for line in open(sys.argv[1])][1:]
n, h, w = 40, 0.01, 3.0
g = [0.5, -9.81, -1.0]
frames = [float(t) for t in sys.argv[2].split()]
vel = [float(t) for t in sys.argv[3].split()]
got = {int(r[1]): [float(t) for t in r[2:]] for r in rows}
assert sorted(got) == [0, 1, 2], sorted(got)
worst = 0.0
for f, held in ((0, ()), (2, (1,))):
    for d in range(3):
        x0, v0 = frames[7 * f + d], vel[6 * f + d]
        if d in held:
            x, v = x0, 0.0
        else:
            x, v = x0 + n * h * v0 + h * h * g[d] * n * (n + 1) / 2, v0 + n * h * g[d]
        worst = max(worst, abs(got[f][d] - x), abs(got[f][7 + d] - v))
# (0, 0, sin a, cos a) (sin b, 0, 0, cos b) = (cos a sin b, sin a sin b, sin a cos b, cos a cos b)
a, b = n * h * w / 2, 0.2
q = [math.cos(a) * math.sin(b), math.sin(a) * math.sin(b), math.sin(a) * math.cos(b),
     math.cos(a) * math.cos(b)]
worst = max([worst] + [abs(got[0][3 + i] - q[i]) for i in range(4)])
worst = max([worst] + [abs(got[0][10 + i] - vel[3 + i]) for i in range(3)])
worst = max([worst] + [abs(got[2][3 + i] - frames[14 + 3 + i]) for i in range(4)])
exact = got[1][:7] == frames[7:14] and got[1][7:] == [0.0] * 6
print("%.3e %s" % (worst, "exact" if exact else "moved"))
PY

for ranks in 1 2 3; do
  status=0
  run "$ranks" --scene rigid.scn --solver.steps=40 --output.frames="frames$ranks.csv" || status=$?
  check "three rigid frames run on $ranks rank(s)" test "$status" -eq 0
  [ "$status" -eq 0 ] || { sed 's/^/     | /' run.err; continue; }
  read -r value fixed < <(python3 reference.py "frames$ranks.csv" "$FRAMES" "$VELOCITIES")
  check "on $ranks rank(s) the frames follow the closed forms: $value <= 1e-12" below "$value" 1e-12
  check "on $ranks rank(s) the fixed frame is its input, bit for bit" test "$fixed" = exact
done
check "1 and 2 ranks write the same frames, bit for bit" cmp -s frames1.csv frames2.csv
check "1 and 3 ranks write the same frames, bit for bit" cmp -s frames1.csv frames3.csv

status=0
run 2 --scene mixed.scn --solver.steps=40 --output.frames=mixed.csv || status=$?
check "the frames beside a deformable body run" test "$status" -eq 0
# The object column names the body's node in a scene of several ("/" for the one body of a scene).
check "beside a deformable body the frames are the same, bit for bit" \
  cmp -s <(cut -d, -f2- frames1.csv) <(cut -d, -f2- mixed.csv)
check "beside a deformable body the frames' object is their node" grep -q "^/frames,0," mixed.csv

status=0
run 2 --scene forced.scn --solver.steps=2 --output.frames=forced.csv || status=$?
check "a DiagonalMass on rigid frames is refused" test "$status" -ne 0
check "its error names it and the frames" grep -q "DiagonalMass.*not supported on rigid" run.err
# SOFA's frames without a mass: M = 0 and gravity pulls on nothing (SOFA's step leaves them at
# rest); a default mass of 1 would let them fall.
grep -v "<UniformMass" rigid.scn > massless.scn
check "frames with no mass are refused in one line" \
  refused "massless.scn:.*rigid frames with no mass" 2 "$EXE" --scene massless.scn --solver.steps=1
sed 's/name="dofs"/name="dofs" sx="2"/' rigid.scn > scaled.scn
status=0
run 2 --scene scaled.scn --solver.steps=2 --output.frames=scaled.csv || status=$?
check "a legacy scale of the frames (sx) is refused, by name" \
  grep -q "sx = '2': a scale of a Rigid3d state is not supported" run.err
# rz = 90 turns the fixed frame's centre (-1, 0.5, 0) to (-0.5, -1, 0) and its orientation
# (0, 0.6, 0, 0.8) to (0, 0, s, s) (0, 0.6, 0, 0.8) = (-0.6 s, 0.6 s, 0.8 s, 0.8 s), s = 1/sqrt(2).
sed 's/name="dofs"/name="dofs" rz="90"/' rigid.scn > turned.scn
status=0
run 2 --scene turned.scn --solver.steps=2 --output.frames=turned.csv || status=$?
check "frames turned by rz run" test "$status" -eq 0
turned=nan
[ -s turned.csv ] && turned=$(python3 -c '
import math, sys
s = 1 / math.sqrt(2)
row = [float(t) for t in open(sys.argv[1]).read().split("\n")[2].split(",")[2:9]]
want = [-0.5, -1, 0, -0.6 * s, 0.6 * s, 0.8 * s, 0.8 * s]
print("%.3e" % max(abs(a - b) for a, b in zip(row, want)))' turned.csv)
check "the fixed frame is turned by rz = 90 about z: $turned <= 1e-15" below "$turned" 1e-15
# A translation moves the centres alone: dx dy dz (single precision) as SOFA's legacy names.
sed 's/name="dofs"/name="dofs" dx="0.5" dz="-2"/' rigid.scn > moved.scn
status=0
run 2 --scene moved.scn --solver.steps=40 --output.frames=moved.csv || status=$?
check "frames moved by dx dz run" test "$status" -eq 0
check "they are the frames moved by (0.5, 0, -2), to 6 digits" cmp -s \
  <(awk -F, 'NR > 1 { $3 += 0.5; $5 -= 2 } { print }' frames1.csv) \
  <(awk -F, 'NR > 1 { $3 += 0; $5 += 0 } { print }' moved.csv)
status=0
run 2 --scene rigid.scn --solver.steps=2 --output.final-state=final.csv || status=$?
check "output.final-state with rigid bodies is refused" test "$status" -ne 0
check "its error points to output.frames" \
  grep -q "output.final-state: the scene has rigid bodies.*output.frames" run.err
echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
