#!/usr/bin/env bash
# SOFA's BeamFEMForceField on Rigid3d frames under BTDLinearSolver (model/beam_fem.cpp,
# io/sofa_rigid.cpp; the node "rigid3" of SOFA's VisualPointCloud.scn). A chain of 4 frames,
# turned differently and moving, one fixed, three steps worked out here in numpy from SOFA's
# formulas (BeamFEMForceField.inl: the element's local stiffness with shear areas 0, the
# displacement of b in a's frame and the rotation vector of qDiff(qDiff(q_b, q_a), dQ0), the
# forces turned by q_a, the stiffness -R k R^T by 3 x 3 blocks with R = q_a; the step
# ((1 + h rM) M - h (h + rK) K) dv = h (f + (-rM M + (h + rK) K) v)); the frames written must
# match to 1e-10, and the same steps on 1, 2 and 3 ranks bit for bit. A cantilever of three
# beams under a tip load, one step of a nearly massless chain (M / h^2 about 1e-9 of K), is the
# linear static answer: the tip's deflection P L^3 / (3 E I) and turn P L^2 / (2 E I), SOFA's
# element having no shear term. Then what is refused: the block-tridiagonal solve where a beam or
# a spring joins frames that are not consecutive in the system, and listSegment; and a rigid.*
# key given to a body of points (it was silently ignored).
# Usage: sofa_beams.sh <euler-implicit> <meshes dir>.
set -euo pipefail
RANKS=3  # MPI ranks per run at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
# shellcheck source=SCRIPTDIR/../common/regression_test.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/regression_test.sh"
PYTHON=/usr/bin/python3

FRAMES="0 0 1 0 0 0 1  1 0.1 1 0.1 0 0.2 0.97467943448089633  2 0 1.2 -0.3 0.1 0 0.94868329805051377
        3 0.2 1 0 0.2 0.1 0.97467943448089633"
VELOCITIES="0 0 0 0 0 0  0.5 -0.3 0.2 1 -2 0.5  -0.4 0.6 0.1 0.3 1 -1.5  0.2 0.1 -0.6 -2 0.5 1"
chain() {  # chain LINES [EXTRA]
  cat <<XML
<Node name="root" dt="0.01" gravity="0 -9.81 0">
  <DefaultAnimationLoop/>
  <Node name="rigid3">
    <EulerImplicitSolver rayleighStiffness="0.05" rayleighMass="0.1"/>
    <BTDLinearSolver template="BTDMatrix6d"/>
    <MechanicalObject template="Rigid3" name="DoFs" position="$FRAMES" velocity="$VELOCITIES"/>
    <MeshTopology name="lines" lines="$1"/>
    <FixedProjectiveConstraint indices="0"/>
    <UniformMass totalMass="4"/>
    <BeamFEMForceField radius="0.05" radiusInner="0.01" youngModulus="200000" poissonRatio="0.3"
                       ${2:-}/>
  </Node>
</Node>
XML
}
chain "0 1 1 2 2 3" > chain.scn

cat > reference.py <<'PY'
import sys
import numpy as np

got = np.array([[float(t) for t in line.split(",")[2:]] for line in open(sys.argv[1]).readlines()[1:]])
beams = sys.argv[2] == "beams"
frames = np.array([float(t) for t in sys.argv[3].split()]).reshape(-1, 7)
v = np.array([float(t) for t in sys.argv[4].split()])
h, rM, rK, g = 0.01, 0.1, 0.05, np.array([0.0, -9.81, 0.0])
E, nu, r, ri, lines = 200000.0, 0.3, 0.05, 0.01, [(0, 1), (1, 2), (2, 3)]
n = 6 * len(frames)
x, rest = frames.copy(), frames.copy()

def mul(a, b):  # Quat::operator*, (x y z w)
    return np.array([a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
                     a[3] * b[1] + a[1] * b[3] + a[2] * b[0] - a[0] * b[2],
                     a[3] * b[2] + a[2] * b[3] + a[0] * b[1] - a[1] * b[0],
                     a[3] * b[3] - a[:3] @ b[:3]])

def unit(q):  # Quat::normalize
    m = q @ q
    return q if abs(m - 1) <= 1e-10 else q / np.sqrt(m)

def inv(q):  # Quat::inverse: conjugate over the norm
    return np.array([-q[0], -q[1], -q[2], q[3]]) / np.sqrt(q @ q)

def qdiff(a, b):  # BeamFEMForceField's qDiff: b^-1 a, a's sign turned when a.b < 0
    return mul(inv(b), -a if a @ b < 0 else a)

def rotvec(q):  # Quat::quatToRotationVector
    q = unit(q)
    q = -q if q[3] < 0 else q
    if q[3] > 0.999:
        s = np.linalg.norm(q[:3]); angle = 2 * np.arcsin(s)
    else:
        angle = 2 * np.arccos(q[3]); s = np.sin(angle / 2)
    return np.zeros(3) if s < np.finfo(float).eps else q[:3] / s * angle

def matrix(q):  # the rotation Quat::rotate applies: v + w t + q x t, t = 2 q x v
    def rot(u):
        t = 2 * np.cross(q[:3], u)
        return u + q[3] * t + np.cross(q[:3], t)
    return np.column_stack([rot(e) for e in np.eye(3)])

def local_stiffness(L):  # computeStiffness with Asy = Asz = 0
    G = E / (2 * (1 + nu)); I = np.pi * (r**4 - ri**4) / 4; J = 2 * I; A = np.pi * (r**2 - ri**2)
    k = np.zeros((12, 12))
    k[0, 0] = k[6, 6] = E * A / L
    k[1, 1] = k[7, 7] = k[2, 2] = k[8, 8] = 12 * E * I / L**3
    k[3, 3] = k[9, 9] = G * J / L
    k[4, 4] = k[10, 10] = k[5, 5] = k[11, 11] = 4 * E * I / L
    k[4, 2] = -6 * E * I / L**2; k[5, 1] = 6 * E * I / L**2
    k[6, 0] = -k[0, 0]; k[7, 1] = -k[1, 1]; k[7, 5] = -k[5, 1]; k[8, 2] = -k[2, 2]
    k[8, 4] = -k[4, 2]; k[9, 3] = -k[3, 3]; k[10, 2] = k[4, 2]; k[10, 4] = 2 * E * I / L
    k[10, 8] = -k[4, 2]; k[11, 1] = k[5, 1]; k[11, 5] = 2 * E * I / L; k[11, 7] = -k[5, 1]
    return np.tril(k) + np.tril(k, -1).T

ks = [local_stiffness(np.linalg.norm(rest[b, :3] - rest[a, :3])) for a, b in lines]
M = np.zeros((n, n))
for i in range(len(frames)):
    M[6 * i:6 * i + 6, 6 * i:6 * i + 6] = np.eye(6)  # totalMass 4 over 4 frames, inertia I
free = list(range(6, n))
for step in range(3):
    f = np.zeros(n); K = np.zeros((n, n))
    for i in range(len(frames)):
        f[6 * i:6 * i + 3] = g
    for (a, b), k in zip(lines if beams else [], ks):
        qa = x[a, 3:]
        R = matrix(qa)  # x[a]'s orientation, a unit quaternion up to rounding
        u = R.T @ (x[b, :3] - x[a, :3]) - matrix(rest[a, 3:]).T @ (rest[b, :3] - rest[a, :3])
        dq0 = unit(qdiff(rest[b, 3:], rest[a, 3:]))
        dq = unit(qdiff(x[b, 3:], qa))
        d = np.concatenate([np.zeros(6), u, rotvec(unit(qdiff(dq, dq0)))])
        local = k @ d
        idx = list(range(6 * a, 6 * a + 6)) + list(range(6 * b, 6 * b + 6))
        for p in range(4):
            f[idx[3 * p:3 * p + 3]] -= R @ local[3 * p:3 * p + 3]
        Ru = matrix(unit(qa))
        T = np.kron(np.eye(4), Ru)
        K[np.ix_(idx, idx)] -= T @ k @ T.T
    A = (1 + h * rM) * M - h * (h + rK) * K
    rhs = h * (f + (-rM * M + (h + rK) * K) @ v)
    dv = np.zeros(n)
    dv[free] = np.linalg.solve(A[np.ix_(free, free)], rhs[free])
    v = v + dv
    for i in range(len(frames)):
        w = v[6 * i:6 * i + 6]
        o = h * w[3:] / 2
        t = np.linalg.norm(o)
        q = x[i, 3:]
        if t > 0:
            q = mul(np.concatenate([np.sin(t) / t * o, [np.cos(t)]]), q)
        x[i] = np.concatenate([x[i, :3] + h * w[:3], q])
expected = np.hstack([x, v.reshape(-1, 6)])
print("%.3e" % (np.abs(got - expected).max() if got.shape == expected.shape else float("nan")))
PY

status=0
run 1 --scene chain.scn --solver.steps=3 --output.frames=steps1.csv || status=$?
check "a chain of beams under BTDLinearSolver runs" test "$status" -eq 0
[ "$status" -eq 0 ] || sed 's/^/     | /' run.err
worst=$("$PYTHON" reference.py steps1.csv beams "$FRAMES" "$VELOCITIES" || echo nan)
check "three steps follow SOFA's formulas worked out here: $worst <= 1e-10" below "$worst" 1e-10
worst=$("$PYTHON" reference.py steps1.csv none "$FRAMES" "$VELOCITIES" || echo 0)
check "the beams change the steps (the check can fail): $worst > 1e-3" below 1e-3 "$worst"
for ranks in 2 3; do
  status=0
  run "$ranks" --scene chain.scn --solver.steps=3 --output.frames="steps$ranks.csv" || status=$?
  check "$ranks ranks write the same frames as 1, bit for bit" cmp -s steps1.csv "steps$ranks.csv"
done

# The cantilever: E 2e7, r 0.05 (I = pi r^4 / 4), three beams of 1 along x, P = 2 at the tip.
cat > cantilever.scn <<'XML'
<Node name="root" dt="1" gravity="0 0 0">
  <DefaultAnimationLoop/>
  <EulerImplicitSolver rayleighStiffness="0" rayleighMass="0"/>
  <BTDLinearSolver template="BTDMatrix6d"/>
  <MechanicalObject template="Rigid3" position="0 0 1 0 0 0 1  1 0 1 0 0 0 1  2 0 1 0 0 0 1
                                                3 0 1 0 0 0 1"/>
  <MeshTopology lines="0 1 1 2 2 3"/>
  <FixedProjectiveConstraint indices="0"/>
  <UniformMass vertexMass="1e-9"/>
  <ConstantForceField indices="3" forces="0 2 0 0 0 0"/>
  <BeamFEMForceField radius="0.05" youngModulus="20000000" poissonRatio="0.49"/>
</Node>
XML
status=0
run 2 --scene cantilever.scn --solver.steps=1 --output.frames=cantilever.csv || status=$?
check "the cantilever runs" test "$status" -eq 0
errors=$("$PYTHON" - <<'PY' || echo "nan nan"
import math
tip = [float(t) for t in open("cantilever.csv").read().split("\n")[4].split(",")[2:]]
EI = 2e7 * math.pi * 0.05**4 / 4
deflection, turn = 2 * 27 / (3 * EI), 2 * 9 / (2 * EI)
print("%.3e %.3e" % (abs(tip[1] / deflection - 1), abs(2 * math.asin(tip[5]) / turn - 1)))
PY
)
read -r deflection turn <<< "$errors"
check "its tip deflects by P L^3 / (3 E I): relative error $deflection <= 1e-8" below "$deflection" 1e-8
check "and turns by P L^2 / (2 E I): relative error $turn <= 1e-8" below "$turn" 1e-8

chain "0 1 1 2 1 3" > apart.scn
check "a beam between frames 1 and 3 under BTDLinearSolver is refused" \
  refused "BTDLinearSolver.*a beam joins frame 1 and frame 3" 2 "$EXE" --scene apart.scn \
  --quiet
cat > springs.scn <<'XML'
<Node name="root">
  <DefaultAnimationLoop/>
  <EulerImplicitSolver/>
  <BTDLinearSolver template="BTDMatrix6d"/>
  <Node name="rigid3">
    <MechanicalObject template="Rigid3" name="DoFs" position="0 0 1 0 0 0 1  1 0 1 0 0 0 1
                                                              2 0 1 0 0 0 1"/>
    <MeshTopology lines="0 1 1 2"/>
    <FixedProjectiveConstraint indices="0"/>
    <UniformMass totalMass="3"/>
    <BeamFEMForceField radius="0.05"/>
  </Node>
  <Node name="other">
    <MechanicalObject template="Rigid3" name="DoFs" position="3 0 1 0 0 0 1"/>
    <UniformMass totalMass="1"/>
  </Node>
  <SpringForceField object1="@rigid3/DoFs" object2="@other/DoFs" indices1="1" indices2="0"/>
</Node>
XML
check "a spring from frame 1 to the next body's frame 0 (frame 3 of the system) is refused" \
  refused "a spring joins /rigid3 frame 1 and /other frame 0" 2 "$EXE" --scene springs.scn --quiet
chain "0 1 1 2 2 3" 'listSegment="0 1"' > segments.scn
check "listSegment is refused" refused "listSegment.*some of the topology's edges" 2 "$EXE" \
  --scene segments.scn --quiet
cat > points.scn <<'XML'
<Node><EulerImplicitSolver/><SparseLDLSolver/>
  <MechanicalObject position="0 0 0  1 0 0"/><UniformMass totalMass="1"/></Node>
XML
check "rigid.block-tridiagonal on a body of points is refused" refused \
  "rigid.block-tridiagonal = true: acts on a body of rigid frames, and this body has none" 2 \
  "$EXE" --scene points.scn --rigid.block-tridiagonal=true --quiet
echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
