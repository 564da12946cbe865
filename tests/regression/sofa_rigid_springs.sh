#!/usr/bin/env bash
# SOFA's SpringForceField between rigid frames (io/sofa_rigid.cpp, model/rigid_group.cpp): two
# Rigid3d states under one EulerImplicitSolver with Rayleigh damping, a spring from the second
# frame of the first to the frame of the second (stiffness, damping and rest length given) and
# one between the first state's two frames (SOFA's default damping 5), the first frame fixed,
# the frames turned and moving. One step is worked out here from SOFA's formulas: the spring's
# force ks (d - L) + kd (v2 - v1).U along U on the centres only (no torque), its D =
# (ks - f/d) U U^T + (f/d) I as -D / +D blocks of K on the linear unknowns, the step
# ((1 + h rM) M - h (h + rK) K) dv = h (f + (-rM M + (h + rK) K) v) on the free unknowns, the
# centre moved by h v and the orientation turned by exp(h w / 2) q; the frames written must
# match it to 1e-12. With a RestShapeSpringsForceField<Rigid3> on one frame (its force -k (c - c0)
# and -ka times q q0^-1's rotation vector, its stiffness -k and -ka) and a PlaneForceField under
# another's centre, three steps, by a direct solve and by CG. Then 20 steps on 1, 2 and 3 ranks,
# bit for bit, and what is refused.
# Usage: sofa_rigid_springs.sh <euler-implicit> <meshes dir>.
set -euo pipefail
RANKS=3  # MPI ranks per run at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
# shellcheck source=SCRIPTDIR/../common/regression_test.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/regression_test.sh"

Q1=$(awk 'BEGIN { n = sqrt(0.09 + 0.25 + 0.04 + 0.49); printf "%.17g %.17g %.17g %.17g",
  0.3 / n, -0.5 / n, 0.2 / n, 0.7 / n }')
Q2=$(awk 'BEGIN { n = sqrt(0.04 + 0.01 + 0.36 + 0.64); printf "%.17g %.17g %.17g %.17g",
  -0.2 / n, 0.1 / n, 0.6 / n, 0.8 / n }')
scene() {  # scene SPRINGS [EXTRA_IN_B]
  cat <<XML
<Node name="root" dt="0.01" gravity="0 -9.81 0">
  <DefaultAnimationLoop/>
  <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.2"/>
  <SparseLDLSolver/>
  <Node name="a">
    <MechanicalObject name="dofs" template="Rigid3d" position="0 0 0 0 0 0 1  1.2 -0.4 0.5 $Q1"
                      velocity="0 0 0 0 0 0  0.3 0.1 -0.2 0.5 -1 2"/>
    <UniformMass vertexMass="2 1 1 0 0 0 2 0 0 0 3"/>
    <FixedProjectiveConstraint indices="0"/>
  </Node>
  <Node name="b">
    <MechanicalObject name="dofs" template="Rigid3d" position="2.5 1.1 0.7 $Q2"
                      velocity="-0.2 0.4 0.1 0.3 0 -0.6"/>
    <UniformMass vertexMass="1.5 1 2 0.5 0 0.5 2 0 0 0 2"/>
    ${2:-}
  </Node>
  $1
</Node>
XML
}
SPRINGS='<SpringForceField object1="@a/dofs" object2="@b/dofs" indices1="1" indices2="0"
                    length="1.5" stiffness="20" damping="2"/>
  <SpringForceField object1="@a/dofs" object2="@a/dofs" indices1="0" indices2="1"
                    length="2.5" stiffness="7"/>'
scene "$SPRINGS" > springs.scn

cat > reference.py <<'PY'
import math, sys
rows = [line.strip().split(",") for line in open(sys.argv[1])][1:]
got = [float(t) for row in rows for t in row[2:]]
springs = sys.argv[2] in ("springs", "loads")
loads = sys.argv[2] == "loads"  # the rest-shape springs and the plane too
Q1 = [float(t) for t in sys.argv[3].split()]
Q2 = [float(t) for t in sys.argv[4].split()]
steps = int(sys.argv[5]) if len(sys.argv) > 5 else 1
h, rM, rK, g = 0.01, 0.2, 0.1, [0.0, -9.81, 0.0]
x = [[0, 0, 0, 0, 0, 0, 1], [1.2, -0.4, 0.5] + Q1, [2.5, 1.1, 0.7] + Q2]
rest = [row[:] for row in x]
v = [0, 0, 0, 0, 0, 0, 0.3, 0.1, -0.2, 0.5, -1, 2, -0.2, 0.4, 0.1, 0.3, 0, -0.6]
masses = [(2.0, [[1, 0, 0], [0, 2, 0], [0, 0, 3]])] * 2 + [(1.5, [[2, 0.5, 0], [0.5, 2, 0], [0, 0, 2]])]
n = 18

def product(a, b):  # Hamilton product of quaternions (x y z w)
    return [a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
            a[3] * b[1] + a[1] * b[3] + a[2] * b[0] - a[0] * b[2],
            a[3] * b[2] + a[2] * b[3] + a[0] * b[1] - a[1] * b[0],
            a[3] * b[3] - (a[0] * b[0] + a[1] * b[1] + a[2] * b[2])]

def rest_rotation(q, q0):  # RestShapeSpringsForceField<Rigid3>: axis * angle of q q0^-1
    norm = math.sqrt(sum(e * e for e in q0))
    dq = product(q, [-q0[0] / norm, -q0[1] / norm, -q0[2] / norm, q0[3] / norm])
    m = sum(e * e for e in dq)
    if abs(m - 1) > 1e-10:
        dq = [e / math.sqrt(m) for e in dq]
    if dq[3] < 0:
        dq = [-e for e in dq]
    if not dq[3] < 1:
        return [0.0, 0.0, 0.0]
    if dq[3] > 0.999:
        s = math.sqrt(dq[0] ** 2 + dq[1] ** 2 + dq[2] ** 2)
        angle = 2 * math.asin(s)
    else:
        angle = 2 * math.acos(dq[3])
        s = math.sin(angle / 2)
    return [dq[k] / s * angle for k in range(3)]

for step in range(steps):
    M = [[0.0] * n for _ in range(n)]
    K = [[0.0] * n for _ in range(n)]
    f = [0.0] * n
    for i, (m, inertia) in enumerate(masses):
        for a in range(3):
            M[6 * i + a][6 * i + a] = m
            f[6 * i + a] = m * g[a]
            for b in range(3):
                M[6 * i + 3 + a][6 * i + 3 + b] = m * inertia[a][b]
    # SpringForceField::computeSpringForce on the centres: (frame1, frame2, ks, kd, L).
    for (p, q, ks, kd, L) in ([(1, 2, 20.0, 2.0, 1.5), (0, 1, 7.0, 5.0, 2.5)] if springs else []):
        u = [x[q][k] - x[p][k] for k in range(3)]
        d = math.sqrt(sum(c * c for c in u))
        U = [c / d for c in u]
        rate = sum(U[k] * (v[6 * q + k] - v[6 * p + k]) for k in range(3))
        force = ks * (d - L) + kd * rate
        for j in range(3):
            f[6 * p + j] += force * U[j]
            f[6 * q + j] -= force * U[j]
            for k in range(3):
                D = (ks - force / d) * U[j] * U[k] + (force / d if j == k else 0.0)
                K[6 * p + j][6 * p + k] -= D
                K[6 * p + j][6 * q + k] += D
                K[6 * q + j][6 * p + k] += D
                K[6 * q + j][6 * q + k] -= D
    if loads:
        # RestShapeSpringsForceField on the second frame: k 30, angular 4.
        turn = rest_rotation(x[1][3:], rest[1][3:])
        for k in range(3):
            f[6 + k] -= 30 * (x[1][k] - rest[1][k])
            f[9 + k] -= 4 * turn[k]
            K[6 + k][6 + k] -= 30
            K[9 + k][9 + k] -= 4
        # PlaneForceField y = 1.2 (k 300, damping 2) under the third frame's centre.
        s = x[2][1] - 1.2
        if s < 0:
            f[13] += -300 * s
            for k in range(3):
                f[12 + k] -= v[12 + k] * (-2 * s)
            K[13][13] -= 300
    free = list(range(6, n))  # the first frame is fixed
    A = [[(1 + h * rM) * M[r][c] - h * (h + rK) * K[r][c] for c in free] for r in free]
    rhs = [h * (f[r] + sum((-rM * M[r][c] + (h + rK) * K[r][c]) * v[c] for c in range(n)))
           for r in free]
    m = len(free)
    A = [A[i] + [rhs[i]] for i in range(m)]
    for k in range(m):
        p = max(range(k, m), key=lambda i: abs(A[i][k]))
        A[k], A[p] = A[p], A[k]
        for i in range(k + 1, m):
            t = A[i][k] / A[k][k]
            for j in range(k, m + 1):
                A[i][j] -= t * A[k][j]
    dv = [0.0] * m
    for i in reversed(range(m)):
        dv[i] = (A[i][m] - sum(A[i][j] * dv[j] for j in range(i + 1, m))) / A[i][i]
    for i, r in enumerate(free):
        v[r] += dv[i]
    for i in range(3):
        w = v[6 * i: 6 * i + 6]
        o = [h * w[3 + k] / 2 for k in range(3)]
        t = math.sqrt(sum(e * e for e in o))
        q = x[i][3:]
        if t > 0:
            s = math.sin(t) / t
            q = product([s * o[0], s * o[1], s * o[2], math.cos(t)], q)
        x[i] = [x[i][k] + h * w[k] for k in range(3)] + q
expected = []
for i in range(3):
    expected += x[i] + v[6 * i: 6 * i + 6]
worst = max(abs(a - b) for a, b in zip(got, expected)) if len(got) == len(expected) else float("nan")
print("%.3e" % worst)
PY

status=0
run 1 --scene springs.scn --solver.steps=1 --output.frames=step.csv || status=$?
check "springs between rigid frames run" test "$status" -eq 0
[ "$status" -eq 0 ] || sed 's/^/     | /' run.err
worst=$(python3 reference.py step.csv springs "$Q1" "$Q2" || echo nan)
check "one step follows SOFA's formulas worked out here: $worst <= 1e-12" below "$worst" 1e-12
worst=$(python3 reference.py step.csv none "$Q1" "$Q2" || echo nan)
check "the springs change the step (the check can fail): $worst > 1e-4" below 1e-4 "$worst"
LOADS='<RestShapeSpringsForceField points="1" stiffness="30" angularStiffness="4"/>'
sed "s|<FixedProjectiveConstraint indices=\"0\"/>|&\n    $LOADS|" springs.scn |
  sed "s|<UniformMass vertexMass=\"1.5 1 2 0.5 0 0.5 2 0 0 0 2\"/>|&\n    <PlaneForceField normal=\"0 1 0\" d=\"1.2\" stiffness=\"300\" damping=\"2\"/>|" \
  > loads.scn
status=0
run 1 --scene loads.scn --solver.steps=3 --output.frames=loads.csv || status=$?
check "rest-shape springs and a plane on frames run" test "$status" -eq 0
[ "$status" -eq 0 ] || sed 's/^/     | /' run.err
worst=$(python3 reference.py loads.csv loads "$Q1" "$Q2" 3 || echo nan)
check "with them, three steps follow SOFA's formulas: $worst <= 1e-12" below "$worst" 1e-12
worst=$(python3 reference.py loads.csv springs "$Q1" "$Q2" 3 || echo nan)
check "they change the steps (the check can fail): $worst > 1e-4" below 1e-4 "$worst"
sed 's|<SparseLDLSolver/>|<CGLinearSolver iterations="1000" tolerance="1e-14" threshold="1e-30"/>|' \
  loads.scn > cg.scn
status=0
run 2 --scene cg.scn --solver.steps=3 --output.frames=cg.csv || status=$?
worst=$(python3 reference.py cg.csv loads "$Q1" "$Q2" 3 || echo nan)
check "with CGLinearSolver too (status $status): $worst <= 1e-10" below "$worst" 1e-10
for ranks in 1 2 3; do
  status=0
  run "$ranks" --scene loads.scn --solver.steps=20 --output.frames="steps$ranks.csv" ||
    status=$?
  check "20 steps on $ranks rank(s)" test "$status" -eq 0
done
check "1 and 2 ranks write the same frames, bit for bit" cmp -s steps1.csv steps2.csv
check "1 and 3 ranks write the same frames, bit for bit" cmp -s steps1.csv steps3.csv
sed 's|stiffness="30"|stiffness="30 40"|' loads.scn > two.scn
check "several rest-shape stiffnesses on frames are refused" refused \
  "one stiffness for every frame" 2 "$EXE" --scene two.scn --solver.steps=1

# A body between the two that the springs join, in the scene: the frames are written in the
# scene's order of bodies all the same.
sed 's|<Node name="b">|<Node name="between"><MechanicalObject name="dofs" template="Rigid3d"/>\
    <UniformMass vertexMass="1"/></Node>\n  &|' springs.scn > order.scn
status=0
run 1 --scene order.scn --solver.steps=1 --output.frames=order.csv || status=$?
check "the frames come in the scene's order of bodies (status $status)" \
  test "$(cut -d, -f1 order.csv | tr '\n' ' ')" = "object /a /a /between /b "
sed 's|template="Rigid3d" position="2.5|restScale="2" &|' loads.scn > scaled.scn
check "a scaled rest position of frames is refused" refused "restScale.*scaled rest position" \
  2 "$EXE" --scene scaled.scn --solver.steps=1
scene '<SpringForceField object1="@a/dofs" object2="@b/dofs" indices1="1" indices2="3"/>' \
  > range.scn
check "a spring to a frame past the last is refused" refused "frame 3 of 1 frames of /b" \
  2 "$EXE" --scene range.scn --solver.steps=1
scene '<SpringForceField object1="@a/dofs" object2="@p/dofs" indices1="1" indices2="0"/>
  <Node name="p"><MechanicalObject name="dofs" position="2 1 0"/><UniformMass totalMass="1"/></Node>' \
  > points.scn
check "a spring from frames to a body of points is refused" refused \
  "springs between rigid frames and a body of points are not supported" \
  2 "$EXE" --scene points.scn --solver.steps=1
sed -e 's|object1="@a/dofs" object2="@p/dofs"|object1="@p/dofs" object2="@a/dofs"|' \
  -e 's|indices1="1" indices2="0"|indices1="0" indices2="1"|' points.scn > from_points.scn
check "a spring from a body of points to frames is refused" refused \
  "springs between rigid frames and a body of points are not supported" \
  2 "$EXE" --scene from_points.scn --solver.steps=1
echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
