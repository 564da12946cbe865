#!/usr/bin/env bash
# SOFA's EulerExplicitSolver on a Rigid3 frame and InteractionEllipsoidForceField<Vec3,Rigid3>
# (the ellipsoids that frame carries, pushing a cloth's points), run unchanged (--scene FILE):
#  - a free frame under gravity, thrown and spinning (no torque), steps as SOFA's symplectic
#    explicit Euler does in closed form, v_n = v_0 + n h g, x_n = x_0 + n h v_0 +
#    h^2 g n (n + 1) / 2, q_n = exp(n h w / 2) q_0, to 1e-12, on 1, 2 and 3 ranks, the same bits
#    on each; the cloth it pushes agrees across ranks to 1e-8;
#  - SOFA's order of the solver nodes: with the obstacle's node first the cloth's step sees the
#    frame after the frame's step (the same cloth, bit for bit, as beside a frame fixed where
#    that step takes it), with the cloth's node first the frame before it (as beside a frame
#    fixed where it starts), and the two differ;
#  - points resting in a held-in ellipsoid (stiffness < 0) of a fixed frame turned 90 degrees
#    about z settle at its bottom, |k| (|dy| / r - 1) = m g: y = 3.5 - 1.002 = 2.498, to 1e-12;
#  - EulerExplicitSolver on cubes of springs with a diagonal mass (UniformMass) follows the
#    symplectic and the forward recurrences, written out by hand, to 1e-12;
#  - refused by name: object2_forces true (SOFA's default; the frame's reaction is not carried),
#    an assembling linear solver (SOFA gives the field no stiffness matrix), and a mass that is
#    not diagonal under EulerExplicitSolver with no linear solver in its node (SOFA's error).
# Usage: sofa_interaction_ellipsoid.sh <euler-implicit> <meshes dir>; the MPI launch line:
# tests/common/mpi_launch.sh.
set -euo pipefail
RANKS=3  # MPI ranks per run at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
# shellcheck source=SCRIPTDIR/../common/regression_test.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/regression_test.sh"

FRAME="0 1 0.5 0 0 0 1"
VELOCITY="0.1 0.5 0 -0.8 0.3 0"
obstacle() {  # obstacle FRAME VELOCITY [FIXED]: the frame's node
  cat <<EOF
  <Node name="obstacle">
    <EulerExplicitSolver/>
    <MechanicalObject name="frame" template="Rigid3" position="$1" velocity="$2"/>
    <UniformMass totalMass="1"/>
    ${3:-}
  </Node>
EOF
}
IMPLICIT='<EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>'
NO_REACTION='object2_forces="false"'
cloth() {  # cloth [SOLVER] [FIELD]: the cloth's node, its ODE solver and its ellipsoids' data
  cat <<EOF
  <Node name="cloth">
    ${1:-$IMPLICIT}
    <CGLinearSolver iterations="25" tolerance="1e-12" threshold="1e-20"/>
    <MechanicalObject name="points"/>
    <UniformMass totalMass="4"/>
    <RegularGridTopology nx="4" ny="1" nz="4" xmin="-1.5" xmax="1.5" ymin="2" ymax="2" zmin="-1" zmax="2"/>
    <FixedProjectiveConstraint indices="0 3"/>
    <MeshSpringForceField stiffness="200" damping="0"/>
    <InteractionEllipsoidForceField template="Vec3,Rigid3" object1="@points" object2="@../obstacle/frame" stiffness="1000" damping="1" center="0 0 0 0 -1 0" vradius="1.6 1.2 1.2 0.5 1 0.5" ${2:-$NO_REACTION}/>
  </Node>
EOF
}
root='<Node name="root" gravity="0 -2 0" dt="0.04"><DefaultAnimationLoop/>'
{ echo "$root"; obstacle "$FRAME" "$VELOCITY"; cloth; echo "</Node>"; } > spin.scn

cat > closed.py <<'PY'
import math, sys
row = [float(t) for t in open(sys.argv[1]).read().split("\n")[1].split(",")[2:]]
x0 = [float(t) for t in sys.argv[2].split()]
v0 = [float(t) for t in sys.argv[3].split()]
n, h, g = 10, 0.04, [0, -2, 0]
worst = 0.0
for d in range(3):
    worst = max(worst, abs(row[d] - (x0[d] + n * h * v0[d] + h * h * g[d] * n * (n + 1) / 2)),
                abs(row[7 + d] - (v0[d] + n * h * g[d])), abs(row[10 + d] - v0[3 + d]))
w = v0[3:]
norm = math.sqrt(sum(a * a for a in w))
s, c = math.sin(n * h * norm / 2), math.cos(n * h * norm / 2)
# exp(n h w / 2) q_0 with q_0 the identity
q = [s * a / norm for a in w] + [c]
worst = max([worst] + [abs(row[3 + i] - q[i]) for i in range(4)])
print("%.3e" % worst)
PY

for ranks in 1 2 3; do
  status=0
  run "$ranks" --scene spin.scn --solver.steps=10 --output.frames="frames$ranks.csv" \
    --output.final-state="cloth$ranks.csv" || status=$?
  check "the frame and the cloth run on $ranks rank(s)" test "$status" -eq 0
  [ "$status" -eq 0 ] || { sed 's/^/     | /' run.err; continue; }
  value=$(python3 closed.py "frames$ranks.csv" "$FRAME" "$VELOCITY")
  check "on $ranks rank(s) the frame follows the explicit closed form: $value <= 1e-12" \
    below "$value" 1e-12
done
check "1 and 2 ranks step the frame alike, bit for bit" cmp -s frames1.csv frames2.csv
check "1 and 3 ranks step the frame alike, bit for bit" cmp -s frames1.csv frames3.csv
check "the cloth on 2 ranks agrees with 1 to 1e-8" same_state cloth1.csv cloth2.csv 1e-8
check "the cloth on 3 ranks agrees with 1 to 1e-8" same_state cloth1.csv cloth3.csv 1e-8
check "the ellipsoids moved the cloth's points apart" test \
  "$(cut -d, -f6 cloth1.csv | sort -u | wc -l)" -gt 3

# One step in each order, against frames fixed where the step takes the frame or where it starts.
fixed='<FixedProjectiveConstraint indices="0"/>'
run 1 --scene spin.scn --solver.steps=1 --output.frames=after.csv --output.final-state=first.csv
moved=$(sed -n 2p after.csv | cut -d, -f3-9 | tr , ' ')
{ echo "$root"; obstacle "$moved" "0 0 0 0 0 0" "$fixed"; cloth; echo "</Node>"; } > moved.scn
{ echo "$root"; cloth; obstacle "$FRAME" "$VELOCITY"; echo "</Node>"; } > last.scn
{ echo "$root"; obstacle "$FRAME" "0 0 0 0 0 0" "$fixed"; cloth; echo "</Node>"; } > still.scn
run 1 --scene moved.scn --solver.steps=1 --output.final-state=moved.csv
run 1 --scene last.scn --solver.steps=1 --output.final-state=last.csv
run 1 --scene still.scn --solver.steps=1 --output.final-state=still.csv
check "obstacle node first: the cloth sees the frame after its step, bit for bit" \
  cmp -s first.csv moved.csv
check "cloth node first: the cloth sees the frame before its step, bit for bit" \
  cmp -s last.csv still.csv
check "the two orders differ" eval '! cmp -s first.csv last.csv'

cat > rest.scn <<'EOF'
<Node name="root" gravity="0 -2 0" dt="0.05">
  <DefaultAnimationLoop/>
  <Node name="obstacle">
    <EulerExplicitSolver/>
    <MechanicalObject name="frame" template="Rigid3" position="0 3 0 0 0 0.70710678118654757 0.70710678118654757"/>
    <UniformMass totalMass="1"/>
    <FixedProjectiveConstraint indices="0"/>
  </Node>
  <Node name="points">
    <EulerImplicitSolver rayleighMass="4"/>
    <CGLinearSolver iterations="25" tolerance="1e-12" threshold="1e-20"/>
    <MechanicalObject name="dofs"/>
    <UniformMass totalMass="0.4"/>
    <RegularGridTopology nx="2" ny="1" nz="2" xmin="-0.05" xmax="0.05" ymin="2.6" ymax="2.6" zmin="-0.05" zmax="0.05"/>
    <InteractionEllipsoidForceField object2="@../obstacle/frame" stiffness="-100" damping="0.5" center="0.5 0 0" vradius="1 0.3 0.3" object2_forces="false"/>
  </Node>
</Node>
EOF
status=0
run 2 --scene rest.scn --solver.steps=300 --output.final-state=rest.csv || status=$?
check "points in a held-in ellipsoid run" test "$status" -eq 0
gap=$(awk -F, 'NR > 1 { for (i = 2; i <= 4; ++i) { w = (i == 3 ? 2.498 : 0); d = $i - w
  if (d < 0) d = -d; if (d > m) m = d } } END { printf "%.3e", m + 0 }' rest.csv)
check "they rest at the ellipsoid's bottom, y = 2.498: $gap <= 1e-12" below "$gap" 1e-12

# EulerExplicitSolver on bodies of points with a diagonal mass: a cube of springs (lines
# stiffness 300 on its 12 unit edges, SOFA's stiffness / length) thrown apart, symplectic and
# forward, against the recurrences by hand.
CUBE="0 0 1 1 0 1 0 1 1 1 1 1 0 0 2 1 0 2 0 1 2 1 1 2"
SPREAD="-1 0 -1 1 0 -1 0 1 -1 1 1 -0.5 -1 -1 1 1 -1 1 -0.5 1 1 1 1 1"
cube() {  # cube NAME SYMPLECTIC
  cat <<EOF
  <Node name="$1">
    <EulerExplicitSolver symplectic="$2"/>
    <MechanicalObject position="$CUBE" velocity="$SPREAD"/>
    <MeshTopology hexas="0 4 6 2 1 5 7 3"/>
    <UniformMass totalMass="2"/>
    <MeshSpringForceField linesStiffness="300"/>
  </Node>
EOF
}
{ echo "$root"; cube symplectic true; cube forward false; echo "</Node>"; } > cubes.scn
cat > cubes.py <<'PY'
import math, sys
x0 = [float(t) for t in sys.argv[2].split()]
v0 = [float(t) for t in sys.argv[3].split()]
rows = [line.split(",") for line in open(sys.argv[1]).read().split("\n")[1:] if line]
n, h, m, k, g = 4, 0.04, 0.25, 300.0, [0, -2, 0]
P = [x0[3 * i:3 * i + 3] for i in range(8)]
edges = [(i, j) for i in range(8) for j in range(i + 1, 8)
         if sum(P[i][d] != P[j][d] for d in range(3)) == 1]
assert len(edges) == 12
def force(x):
    f = [[m * g[d] for d in range(3)] for _ in range(8)]
    for i, j in edges:
        d = [x[j][c] - x[i][c] for c in range(3)]
        length = math.sqrt(sum(a * a for a in d))
        for c in range(3):
            f[i][c] += k * (length - 1) * d[c] / length
            f[j][c] -= k * (length - 1) * d[c] / length
    return f
worst = 0.0
for body, symplectic in (("/symplectic", True), ("/forward", False)):
    x = [list(p) for p in P]
    v = [v0[3 * i:3 * i + 3] for i in range(8)]
    for _ in range(n):
        f = force(x)
        for i in range(8):
            for c in range(3):
                if symplectic:
                    v[i][c] += h * f[i][c] / m
                    x[i][c] += h * v[i][c]
                else:
                    x[i][c] += h * v[i][c]
                    v[i][c] += h * f[i][c] / m
    got = [r for r in rows if r[-1].strip() == body]
    assert len(got) == 8, body
    for r in got:
        i = int(r[0])
        for c in range(3):
            worst = max(worst, abs(float(r[1 + c]) - x[i][c]), abs(float(r[4 + c]) - v[i][c]))
print("%.3e" % worst)
PY
status=0
run 1 --scene cubes.scn --solver.steps=4 --output.final-state=cubes.csv || status=$?
check "cubes of springs under EulerExplicitSolver run" test "$status" -eq 0
value=$(python3 cubes.py cubes.csv "$CUBE" "$SPREAD")
check "they follow the symplectic and forward recurrences: $value <= 1e-12" below "$value" 1e-12

{ echo "$root"; obstacle "$FRAME" "$VELOCITY"; cloth "" " "; echo "</Node>"; } > reaction.scn
check "object2_forces true (SOFA's default) is refused by name" \
  refused "object2_forces.*reaction on the frame is not carried" 1 "$EXE" --scene reaction.scn \
  --solver.steps=1
sed 's|<CGLinearSolver [^>]*/>|<SparseLDLSolver/>|' spin.scn > assembled.scn
check "an assembling linear solver is refused, naming why" \
  refused "InteractionEllipsoidForceField.*no stiffness matrix" 1 "$EXE" \
  --scene assembled.scn --solver.steps=1
sed 's|<UniformMass totalMass="2"/>|<MeshMatrixMass totalMass="2"/>|' cubes.scn > consistent.scn
check "a mass that is not diagonal without a linear solver is refused as SOFA does" \
  refused "EulerExplicitSolver: the mass of .* is not diagonal" 1 "$EXE" \
  --scene consistent.scn --solver.steps=1
echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
