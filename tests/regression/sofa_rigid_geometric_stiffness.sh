#!/usr/bin/env bash
# SOFA's RigidMapping geometricStiffness (model/rigid_mapping.cpp, model/rigid_body.cpp): a Rigid3d
# frame turned by the quaternion (0.3, -0.5, 0.2, 0.7) normalised and moving, two rigidly mapped
# points of mass 0.5 under gravity, one pushed by a constant force, the other by a damped plane.
# One implicit-Euler step solves (M - h^2 K) dv = h (J^T f + h K v), K = J^T K_c J + G, G on the
# frame's angular unknowns the sum over the points of [f_i]x [R l_i]x, f_i a point's total force
# (geometricStiffness 1, Exact), or that sum symmetrized with its positive eigenvalues set to 0 (2, Stabilized): the
# frame's new velocity and position against that closed form, worked out here (the eigenvalues by
# Jacobi rotations), to 1e-12, for 1, 2, Exact and Stabilized; both differ from the step without
# it. Then 30 steps of each give the same frames on 1, 2 and 3 ranks, bit for bit, the exact one
# solved with the default iterative solver and with a direct one; so do 10 steps of the exact one
# beside a second body of frames joined to it by a spring (one system of both, not symmetric
# either). A value outside None, Exact and Stabilized is refused with one error line.
# Usage: sofa_rigid_geometric_stiffness.sh <euler-implicit> <meshes dir>.
set -euo pipefail
RANKS=3  # MPI ranks per run at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
# shellcheck source=SCRIPTDIR/../common/regression_test.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/regression_test.sh"

Q=$(awk 'BEGIN { n = sqrt(0.09 + 0.25 + 0.04 + 0.49); printf "%.17g %.17g %.17g %.17g",
  0.3 / n, -0.5 / n, 0.2 / n, 0.7 / n }')
V0="0.3 -0.2 0.1 0.5 -0.4 0.8"
scene() {  # scene GEOMETRIC_STIFFNESS
  cat <<XML
<Node name="root" dt="0.01" gravity="0 -9.81 0">
  <DefaultAnimationLoop/>
  <Node name="frame">
    <EulerImplicitSolver/>
    <CGLinearSolver iterations="100" tolerance="1e-20" threshold="1e-30"/>
    <MechanicalObject template="Rigid3d" position="1 2 3 $Q" velocity="$V0"/>
    <UniformMass vertexMass="2 1 1 0 0 0 2 0 0 0 3"/>
    <Node name="points">
      <MechanicalObject template="Vec3d" position="1.5 2 3.5  0 3 2"/>
      <UniformMass vertexMass="0.5"/>
      <ConstantForceField indices="1" forces="30 0 -10"/>
      <PlaneForceField normal="0 1 0" d="2.5" stiffness="100" damping="3"/>
      <RigidMapping globalToLocalCoords="true" geometricStiffness="$1"/>
    </Node>
  </Node>
</Node>
XML
}
for value in 0 1 2 Exact Stabilized 3; do scene "$value" > "g$value.scn"; done

cat > reference.py <<'PY'
import math, sys
rows = [line.strip().split(",") for line in open(sys.argv[1])][1:]
got = [float(t) for t in rows[0][2:]]
q = [float(t) for t in sys.argv[2].split()]
mode = sys.argv[3]  # none, exact or stabilized
c = [1.0, 2.0, 3.0]
v0 = [float(t) for t in sys.argv[4].split()]
points = [[1.5, 2.0, 3.5], [0.0, 3.0, 2.0]]
m, h, k, damping = 0.5, 0.01, 100.0, 3.0
forces = [[0.0, -9.81 * m, 0.0], [30.0, -9.81 * m, -10.0]]
M = [[0.0] * 6 for _ in range(6)]
for i in range(3):
    M[i][i] = 2.0
    M[3 + i][3 + i] = 2.0 * (i + 1)
f = [0.0, -9.81 * 2.0, 0.0, 0.0, 0.0, 0.0]
K = [[0.0] * 6 for _ in range(6)]  # df/dx of the frame: J^T K J, then G
G = [[0.0] * 3 for _ in range(3)]
for p, F in zip(points, forces):
    r = [p[i] - c[i] for i in range(3)]
    J = [[1, 0, 0, 0, r[2], -r[1]], [0, 1, 0, -r[2], 0, r[0]], [0, 0, 1, r[1], -r[0], 0]]
    vc = [sum(J[i][a] * v0[a] for a in range(6)) for i in range(3)]
    gap = p[1] - 2.5
    # The plane y = 2.5 pushes a point below it by -k s n and damps it by c s v; its stiffness
    # is -k n n^T.
    if gap < 0:
        F = [F[i] + (-k * gap if i == 1 else 0.0) + damping * gap * vc[i] for i in range(3)]
        for a in range(6):
            for b in range(6):
                K[a][b] -= k * J[1][a] * J[1][b]
    fr = sum(F[i] * r[i] for i in range(3))
    for a in range(3):
        for b in range(3):
            G[a][b] += r[a] * F[b] - (fr if a == b else 0.0)  # [F]x [r]x
    for a in range(6):
        f[a] += sum(J[i][a] * F[i] for i in range(3))
        for b in range(6):
            M[a][b] += m * sum(J[i][a] * J[i][b] for i in range(3))
if mode == "stabilized":
    S = [[(G[a][b] + G[b][a]) / 2 for b in range(3)] for a in range(3)]
    A = [row[:] for row in S]
    V = [[1.0 if a == b else 0.0 for b in range(3)] for a in range(3)]
    for sweep in range(60):  # Jacobi rotations: A = V^T S V diagonal
        for p_, q_ in ((0, 1), (0, 2), (1, 2)):
            if abs(A[p_][q_]) < 1e-300:
                continue
            theta = (A[q_][q_] - A[p_][p_]) / (2 * A[p_][q_])
            t = math.copysign(1.0, theta) / (abs(theta) + math.sqrt(theta * theta + 1))
            cs = 1 / math.sqrt(t * t + 1)
            sn = t * cs
            for x in range(3):
                A[x][p_], A[x][q_] = cs * A[x][p_] - sn * A[x][q_], sn * A[x][p_] + cs * A[x][q_]
            for x in range(3):
                A[p_][x], A[q_][x] = cs * A[p_][x] - sn * A[q_][x], sn * A[p_][x] + cs * A[q_][x]
            for x in range(3):
                V[x][p_], V[x][q_] = cs * V[x][p_] - sn * V[x][q_], sn * V[x][p_] + cs * V[x][q_]
    w = [min(A[i][i], 0.0) for i in range(3)]
    positive = any(A[i][i] > 0 for i in range(3))
    G = [[sum(V[a][i] * w[i] * V[b][i] for i in range(3)) for b in range(3)]
         for a in range(3)] if positive else S
    print("positive eigenvalue: %s" % positive, file=sys.stderr)
if mode != "none":
    for a in range(3):
        for b in range(3):
            K[3 + a][3 + b] += G[a][b]
# (M - h^2 K) dv = h (f + h K v0), v1 = v0 + dv.
rhs = [h * (f[a] + h * sum(K[a][b] * v0[b] for b in range(6))) for a in range(6)]
A = [[M[a][b] - h * h * K[a][b] for b in range(6)] + [rhs[a]] for a in range(6)]
for col in range(6):
    p = max(range(col, 6), key=lambda i: abs(A[i][col]))
    A[col], A[p] = A[p], A[col]
    for i in range(col + 1, 6):
        t = A[i][col] / A[col][col]
        for j in range(col, 7):
            A[i][j] -= t * A[col][j]
dv = [0.0] * 6
for i in reversed(range(6)):
    dv[i] = (A[i][6] - sum(A[i][j] * dv[j] for j in range(i + 1, 6))) / A[i][i]
v1 = [v0[i] + dv[i] for i in range(6)]
x = [c[i] + h * v1[i] for i in range(3)]
o = [h * v1[3 + i] / 2 for i in range(3)]
t = math.sqrt(sum(e * e for e in o))
s = math.sin(t) / t
e = [s * o[0], s * o[1], s * o[2], math.cos(t)]
turned = [e[3] * q[0] + e[0] * q[3] + e[1] * q[2] - e[2] * q[1],
          e[3] * q[1] + e[1] * q[3] + e[2] * q[0] - e[0] * q[2],
          e[3] * q[2] + e[2] * q[3] + e[0] * q[1] - e[1] * q[0],
          e[3] * q[3] - (e[0] * q[0] + e[1] * q[1] + e[2] * q[2])]
expected = x + turned + v1
print("%.3e" % max(abs(a - b) for a, b in zip(got, expected)))
PY

compare() {  # compare CSV MODE: the worst difference from the closed form
  python3 reference.py "$1" "$Q" "$2" "$V0" 2> reference.err || echo nan
}
for value in 0 1 2 Exact Stabilized; do
  status=0
  run 1 --scene "g$value.scn" --solver.steps=1 --output.frames="step$value.csv" || status=$?
  check "geometricStiffness=\"$value\": a step runs" test "$status" -eq 0
  [ "$status" -eq 0 ] || sed 's/^/     | /' run.err
done
worst=$(compare step0.csv none)
check "geometricStiffness 0: the step without it: $worst <= 1e-12" below "$worst" 1e-12
for value in 1 Exact; do
  worst=$(compare "step$value.csv" exact)
  check "geometricStiffness $value: the closed form with G exact: $worst <= 1e-12" \
    below "$worst" 1e-12
done
for value in 2 Stabilized; do
  worst=$(compare "step$value.csv" stabilized)
  check "geometricStiffness $value: the closed form with G stabilized: $worst <= 1e-12" \
    below "$worst" 1e-12
done
check "the symmetrized block has a positive eigenvalue (the projection acts)" \
  grep -q "positive eigenvalue: True" reference.err
for mode in exact stabilized; do
  worst=$(compare step0.csv "$mode")
  check "the step without it misses the $mode block by $worst (the check can fail)" \
    below 1e-9 "$worst"
done
worst=$(compare step1.csv stabilized)
check "exact and stabilized steps differ by $worst (the check can fail)" below 1e-9 "$worst"

for ranks in 1 2 3; do
  for value in 1 2; do
    status=0
    run "$ranks" --scene "g$value.scn" --solver.steps=30 --output.frames="g$value-$ranks.csv" ||
      status=$?
    check "geometricStiffness $value: 30 steps on $ranks rank(s)" test "$status" -eq 0
  done
  status=0
  run "$ranks" --scene g1.scn --solver.steps=30 --solver.linear=direct \
    --output.frames="direct-$ranks.csv" || status=$?
  check "geometricStiffness 1, a direct solver: 30 steps on $ranks rank(s)" test "$status" -eq 0
done
for name in g1 g2 direct; do
  check "$name: 1 and 2 ranks write the same frames, bit for bit" cmp -s "$name-1.csv" "$name-2.csv"
  check "$name: 1 and 3 ranks write the same frames, bit for bit" cmp -s "$name-1.csv" "$name-3.csv"
done
differ() {  # differ A.csv B.csv: the largest difference of their frames
  python3 - "$1" "$2" <<'PY'
import sys
a, b = ([[float(t) for t in l.split(",")[2:]] for l in open(f).readlines()[1:]]
        for f in sys.argv[1:3])
print("%.3e" % max(abs(x - y) for ra, rb in zip(a, b) for x, y in zip(ra, rb)))
PY
}
worst=$(differ g1-1.csv direct-1.csv)
check "geometricStiffness 1: the iterative and direct solvers agree after 30 steps ($worst)" \
  below "$worst" 1e-9
# The exact block in a system of frames that springs join (model/rigid_group): that system is
# not symmetric either, so the direct solve is an LU one; a Cholesky one would read half of it.
cat > grouped.scn <<XML
<Node name="root" dt="0.01" gravity="0 -9.81 0">
  <DefaultAnimationLoop/>
  <EulerImplicitSolver/>
  <CGLinearSolver iterations="100" tolerance="1e-20" threshold="1e-30"/>
  <Node name="frame">
    <MechanicalObject name="a" template="Rigid3d" position="1 2 3 $Q" velocity="$V0"/>
    <UniformMass vertexMass="2 1 1 0 0 0 2 0 0 0 3"/>
    <Node name="points">
      <MechanicalObject template="Vec3d" position="1.5 2 3.5  0 3 2"/>
      <UniformMass vertexMass="0.5"/>
      <ConstantForceField indices="1" forces="30 0 -10"/>
      <RigidMapping globalToLocalCoords="true" geometricStiffness="1"/>
    </Node>
  </Node>
  <Node name="other">
    <MechanicalObject name="b" template="Rigid3d" position="3 2 3 0 0 0 1"/>
    <UniformMass vertexMass="2 1 1 0 0 0 2 0 0 0 3"/>
  </Node>
  <SpringForceField object1="@frame/a" object2="@other/b" spring="0 0 50 1 2"/>
</Node>
XML
for solver in iterative direct; do
  status=0
  run 1 --scene grouped.scn --solver.steps=10 --solver.linear="$solver" \
    --output.frames="grouped-$solver.csv" || status=$?
  check "geometricStiffness 1 beside a spring to other frames, $solver: 10 steps" test "$status" -eq 0
done
worst=$(differ grouped-iterative.csv grouped-direct.csv)
check "beside a spring, the iterative and direct solvers agree after 10 steps ($worst)" \
  below "$worst" 1e-9
check "geometricStiffness=\"3\" is refused, naming the field" \
  refused "geometricStiffness.*None, Exact or Stabilized" 2 "$EXE" --scene g3.scn --solver.steps=1
echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
