#!/usr/bin/env bash
# SOFA's RigidMapping with a UniformMass and a ConstantForceField in the mapped node
# (io/sofa_rigid_mapping.cpp, model/rigid_mapping.cpp, model/rigid_body.cpp): a Rigid3d frame,
# centred at (1, 2, 3) and turned by the quaternion (0.3, -0.5, 0.2, 0.7) normalised, with two
# points given in world coordinates (globalToLocalCoords), each of mass 0.5, one pushed by a
# constant force, under gravity. One implicit-Euler step from rest solves
# (M_frame + sum J^T m J) dv = h sum J^T (m g + f), J = [I, -[R l]x] at the frame's start: the
# frame's new velocity and position (its centre moved by h v, its orientation turned by h w as
# RigidCoord's operator+=) against that closed form, worked out here, to 1e-12; the same with a
# PlaneForceField pushing one point (its force -k s n in f, its stiffness -k n n^T as
# -h^2 J^T K J in the matrix); the points read from a MeshOBJLoader and scaled by the
# MechanicalObject give the same frames; then 30 steps
# give the same frames on 1, 2 and 3 ranks, bit for bit. What is refused: one error line each.
# Usage: sofa_rigid_mapping.sh <euler-implicit> <meshes dir>.
set -euo pipefail
RANKS=3  # MPI ranks per run at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
# shellcheck source=SCRIPTDIR/../common/regression_test.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/regression_test.sh"

Q=$(awk 'BEGIN { n = sqrt(0.09 + 0.25 + 0.04 + 0.49); printf "%.17g %.17g %.17g %.17g",
  0.3 / n, -0.5 / n, 0.2 / n, 0.7 / n }')
POINTS="1.5 2 3.5  0 3 2"
scene() {  # scene CHILD_EXTRA MAPPING_FIELDS [STATE_FIELDS]
  cat <<XML
<Node name="root" dt="0.01" gravity="0 -9.81 0">
  <DefaultAnimationLoop/>
  <Node name="frame">
    <EulerImplicitSolver/>
    <SparseLDLSolver/>
    <MechanicalObject template="Rigid3d" position="1 2 3 $Q"/>
    <UniformMass vertexMass="2 1 1 0 0 0 2 0 0 0 3"/>
    <Node name="points">
      ${3:-<MechanicalObject template=\"Vec3d\" position=\"$POINTS\"/>}
      <UniformMass vertexMass="0.5"/>
      <ConstantForceField indices="1" forces="3 0 -1"/>
      $1
      <RigidMapping globalToLocalCoords="true" ${2:-}/>
    </Node>
  </Node>
</Node>
XML
}
scene "" > mapped.scn
# The same points from a MeshOBJLoader, halved by the MechanicalObject's scale.
printf 'v 3 4 7\nv 0 6 4\n' > points.obj
scene "" "" '<MeshOBJLoader name="loader" filename="points.obj"/>
      <MechanicalObject template="Vec3d" src="@loader" scale="0.5"/>' > loader.scn
# The first point (y = 2) lies 0.5 below the plane y = 2.5, the second above it.
scene '<PlaneForceField normal="0 1 0" d="2.5" stiffness="100" damping="3"/>' > plane.scn

cat > reference.py <<'PY'
import math, sys
rows = [line.strip().split(",") for line in open(sys.argv[1])][1:]
got = [float(t) for t in rows[0][2:]]
q = [float(t) for t in sys.argv[2].split()]
c = [1.0, 2.0, 3.0]
points = [[1.5, 2.0, 3.5], [0.0, 3.0, 2.0]]
forces = [[0.0, -9.81 * 0.5, 0.0], [3.0, -9.81 * 0.5, -1.0]]
m, h = 0.5, 0.01
k = float(sys.argv[3]) if len(sys.argv) > 3 else 0.0  # the plane y = 2.5's stiffness
# The frame's own mass: 2 on the linear unknowns, 2 diag(1, 2, 3) on the angular ones.
M = [[0.0] * 6 for _ in range(6)]
for i in range(3):
    M[i][i] = 2.0
    M[3 + i][3 + i] = 2.0 * (i + 1)
f = [0.0, -9.81 * 2.0, 0.0, 0.0, 0.0, 0.0]  # the frame's own weight
for p, F in zip(points, forces):
    r = [p[i] - c[i] for i in range(3)]  # R l: the world offset itself
    J = [[1, 0, 0, 0, r[2], -r[1]], [0, 1, 0, -r[2], 0, r[0]], [0, 0, 1, r[1], -r[0], 0]]
    gap = p[1] - 2.5
    # PlaneForceField, the point at rest: -k s n, and its stiffness -k n n^T in the step's matrix
    # as -h^2 J^T K J = h^2 k J^T n n^T J.
    pushed = k > 0 and gap < 0
    F = [F[0], F[1] - (k * gap if pushed else 0.0), F[2]]
    for a in range(6):
        f[a] += sum(J[i][a] * F[i] for i in range(3))
        for b in range(6):
            M[a][b] += m * sum(J[i][a] * J[i][b] for i in range(3))
            if pushed:
                M[a][b] += h * h * k * J[1][a] * J[1][b]
# Gaussian elimination: M dv = h f.
A = [row[:] + [h * f[i]] for i, row in enumerate(M)]
for k in range(6):
    p = max(range(k, 6), key=lambda i: abs(A[i][k]))
    A[k], A[p] = A[p], A[k]
    for i in range(k + 1, 6):
        t = A[i][k] / A[k][k]
        for j in range(k, 7):
            A[i][j] -= t * A[k][j]
dv = [0.0] * 6
for i in reversed(range(6)):
    dv[i] = (A[i][6] - sum(A[i][j] * dv[j] for j in range(i + 1, 6))) / A[i][i]
# The centre moves by h v, the orientation turns by exp(h w / 2) q (Hamilton product).
x = [c[i] + h * dv[i] for i in range(3)]
o = [h * dv[3 + i] / 2 for i in range(3)]
t = math.sqrt(sum(e * e for e in o))
s = math.sin(t) / t
e = [s * o[0], s * o[1], s * o[2], math.cos(t)]
turned = [e[3] * q[0] + e[0] * q[3] + e[1] * q[2] - e[2] * q[1],
          e[3] * q[1] + e[1] * q[3] + e[2] * q[0] - e[0] * q[2],
          e[3] * q[2] + e[2] * q[3] + e[0] * q[1] - e[1] * q[0],
          e[3] * q[3] - (e[0] * q[0] + e[1] * q[1] + e[2] * q[2])]
expected = x + turned + dv
worst = max(abs(a - b) for a, b in zip(got, expected))
scale = max(abs(v) for v in dv)
print("%.3e %.3e" % (worst, scale))
PY

status=0
run 1 --scene mapped.scn --solver.steps=1 --output.frames=step.csv || status=$?
check "a frame with rigidly mapped points runs" test "$status" -eq 0
[ "$status" -eq 0 ] || sed 's/^/     | /' run.err
read -r worst scale < <(python3 reference.py step.csv "$Q" || echo "nan 0")
check "one step follows the closed form: $worst <= 1e-12 (velocities up to $scale)" \
  below "$worst" 1e-12
check "the mapped points move the frame (the check can fail)" below 1e-3 "$scale"
status=0
run 1 --scene plane.scn --solver.steps=1 --output.frames=plane.csv || status=$?
check "a frame with a plane under a mapped point runs" test "$status" -eq 0
[ "$status" -eq 0 ] || sed 's/^/     | /' run.err
read -r worst scale < <(python3 reference.py plane.csv "$Q" 100 || echo "nan 0")
check "with the plane, one step follows the closed form: $worst <= 1e-12" below "$worst" 1e-12
read -r worst scale < <(python3 reference.py plane.csv "$Q" || echo "nan 0")
check "the plane changes the step (the check can fail)" below 1e-6 "$worst"
for ranks in 1 2 3; do
  for name in mapped plane; do
    status=0
    run "$ranks" --scene $name.scn --solver.steps=30 --output.frames="$name$ranks.csv" ||
      status=$?
    check "$name.scn: 30 steps on $ranks rank(s)" test "$status" -eq 0
  done
done
status=0
run 1 --scene loader.scn --solver.steps=30 --output.frames=loader.csv || status=$?
check "points from a MeshOBJLoader, scaled, give the written points' frames, bit for bit" \
  cmp -s loader.csv mapped1.csv
for name in mapped plane; do
  check "$name.scn: 1 and 2 ranks write the same frames, bit for bit" \
    cmp -s ${name}1.csv ${name}2.csv
  check "$name.scn: 1 and 3 ranks write the same frames, bit for bit" \
    cmp -s ${name}1.csv ${name}3.csv
done

scene '<RestShapeSpringsForceField stiffness="10"/>' > springs.scn
check "a RestShapeSpringsForceField in a rigidly mapped child is refused, naming it" \
  refused "RestShapeSpringsForceField.*not supported in a rigidly mapped child" \
    1 "$EXE" --scene springs.scn --solver.steps=1
echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
