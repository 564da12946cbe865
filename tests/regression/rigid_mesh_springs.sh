#!/usr/bin/env bash
# Springs from points a RigidMapping drives from a frame to a mesh body's nodes
# (rigid.mapped-springs; SOFA's SpringForceField from a RigidMapping child to a body of points),
# the frame and the body stepped as one system (model/joint_system.hpp). A turned, moving frame
# of RigidMass (inertia not diagonal) carries two mapped points of mass 0.3; two springs join them
# to nodes of a cube of 8 nodes (uniform mass 1.5, no material, node 7 fixed), and a spring of the
# cube to itself joins nodes 2 and 6 (its interaction.springs to itself, solved in the same
# system: a coupled group of one body no longer); gravity and Rayleigh damping act. Written as
# INI keys and as a SOFA scene (a SpringForceField from the RigidMapping child to the body,
# object1 and object2 either way). Two steps are worked out here from SOFA's formulas with numpy:
# the points p = c + R(q) l, J = [I, -[R l]x], the mass diag(m, m, m, m I) + J^T m_p J, the
# springs' force ks (d - L) + kd (v2 - v1).u along u = x2 - x1 and
# D = (ks - f/d) u u^T + (f/d) I, as J^T (-D) J on the frame, J^T D and D J across, -D on the
# node (between two nodes: -D on each, D across); the step
# ((1 + h rM) M - h (h + rK) K) dv = h (f + (-rM M + (h + rK) K) v) on the free unknowns, nodes
# moved by h v, the frame's centre by h v and its orientation turned by exp(h w / 2). The frames
# written on 1, 2 and 3 ranks (INI) and on 2 (SOFA) must match it to 1e-12; without the springs,
# or without the cube's own, the answer differs (the check can fail); what is not carried is
# refused.
# Usage: rigid_mesh_springs.sh <euler-implicit> <meshes dir>.
set -uo pipefail
RANKS=3  # MPI ranks per run at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
# shellcheck source=SCRIPTDIR/../common/regression_test.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/regression_test.sh"

Q=$(python3 -c 'import math; q = [0.3, -0.5, 0.2, 0.7]; n = math.sqrt(sum(e * e for e in q))
print(" ".join("%.17g" % (e / n) for e in q))')
cat > joint.ini <<INI
[solver]
dt = 0.01
steps = 2
linear = direct
rayleigh-mass = 0.2
rayleigh-stiffness = 0.1
[output]
progress-every = 0
[load]
gravity = 0 -9.81 0
[r/rigid]
frames = 0.1 1.8 -0.2 $Q
velocities = 0.3 -0.1 0.2 0.5 -0.4 0.7
mass = 2 1 1 0.1 0 0.1 1.5 0 0 0 2
mapped-points = 0 0.5 0.2 -0.3  0 -0.4 0.1 0.6
mapped-mass = 0.3
mapped-springs = /m 0 6 40 1.5 0.8  1 5 25 0.5 1.1
[m/interaction]
springs = self 2 6 30 0.7 0.9
[m/mesh]
nodes = 0 0 0  1 0 0  1 1 0  0 1 0  0 0 1  1 0 1  1 1 1  0 1 1
tetrahedra = 0 1 3 4  1 2 3 6  1 4 5 6  3 4 6 7  1 3 4 6
[m/material]
model = none
[m/mass]
type = uniform
vertex-mass = 1.5
[m/constraint]
fixed = indices 7
[m/initial]
velocities = 0 0 0  0.1 0 0  0 0.2 0  0 0 0  0 0 -0.1  0.2 0.1 0  -0.1 0 0.3  0 0 0
INI

cat > reference.py <<'PY'
import sys
import numpy as np
rows = [line.strip().split(",") for line in open(sys.argv[1])][1:]
got = np.array([float(t) for row in rows for t in row[2:]])
springs = sys.argv[2] != "none"
q = np.array([float(t) for t in sys.argv[3].split()])
h, rM, rK, g = 0.01, 0.2, 0.1, np.array([0.0, -9.81, 0.0])
c = np.array([0.1, 1.8, -0.2])
nodes = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0],
                  [0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1]], float)
v = np.concatenate([[0.3, -0.1, 0.2, 0.5, -0.4, 0.7],
                    [0, 0, 0, 0.1, 0, 0, 0, 0.2, 0, 0, 0, 0, 0, 0, -0.1,
                     0.2, 0.1, 0, -0.1, 0, 0.3, 0, 0, 0]])
m, inertia = 2.0, np.array([[1, 0.1, 0], [0.1, 1.5, 0], [0, 0, 2.0]])
local = np.array([[0.5, 0.2, -0.3], [-0.4, 0.1, 0.6]])
mp, mn = 0.3, 1.5
law = [(0, 6, 40.0, 1.5, 0.8), (1, 5, 25.0, 0.5, 1.1)] if springs else []
own = [(2, 6, 30.0, 0.7, 0.9)] if sys.argv[2] == "springs" else []
n = 6 + 3 * len(nodes)

def rotation(q):
    x, y, z, w = q
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                     [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                     [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])

def cross(r):
    return np.array([[0, -r[2], r[1]], [r[2], 0, -r[0]], [-r[1], r[0], 0]])

def product(a, b):  # Hamilton product of quaternions (x y z w)
    return np.array([a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
                     a[3] * b[1] + a[1] * b[3] + a[2] * b[0] - a[0] * b[2],
                     a[3] * b[2] + a[2] * b[3] + a[0] * b[1] - a[1] * b[0],
                     a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2]])

for step in range(2):
    M, K, f = np.zeros((n, n)), np.zeros((n, n)), np.zeros(n)
    M[:3, :3] = m * np.eye(3)
    M[3:6, 3:6] = m * inertia
    f[:3] = m * g
    R = rotation(q)
    J = []
    for l in local:
        r = R @ l
        Ji = np.hstack([np.eye(3), -cross(r)])
        J.append((c + r, Ji))
        M[:6, :6] += mp * Ji.T @ Ji
        f[:6] += Ji.T @ (mp * g)
    for i in range(len(nodes)):
        M[6 + 3 * i: 9 + 3 * i, 6 + 3 * i: 9 + 3 * i] = mn * np.eye(3)
        f[6 + 3 * i: 9 + 3 * i] = mn * g
    for (p, k, ks, kd, L) in law:
        x1, Ji = J[p]
        v1 = Ji @ v[:6]
        x2, v2 = nodes[k], v[6 + 3 * k: 9 + 3 * k]
        u = x2 - x1
        d = np.linalg.norm(u)
        u /= d
        force = ks * (d - L) + kd * u @ (v2 - v1)
        D = (ks - force / d) * np.outer(u, u) + force / d * np.eye(3)
        s = slice(6 + 3 * k, 9 + 3 * k)
        f[:6] += Ji.T @ (force * u)
        f[s] -= force * u
        K[:6, :6] -= Ji.T @ D @ Ji
        K[:6, s] += Ji.T @ D
        K[s, :6] += D @ Ji
        K[s, s] -= D
    for (a, b, ks, kd, L) in own:
        sa, sb = slice(6 + 3 * a, 9 + 3 * a), slice(6 + 3 * b, 9 + 3 * b)
        u = nodes[b] - nodes[a]
        d = np.linalg.norm(u)
        u /= d
        force = ks * (d - L) + kd * u @ (v[sb] - v[sa])
        D = (ks - force / d) * np.outer(u, u) + force / d * np.eye(3)
        f[sa] += force * u
        f[sb] -= force * u
        K[sa, sa] -= D
        K[sb, sb] -= D
        K[sa, sb] += D
        K[sb, sa] += D
    free = [i for i in range(n) if not 6 + 3 * 7 <= i < 6 + 3 * 8]
    A = (1 + h * rM) * M - h * (h + rK) * K
    rhs = h * (f + (-rM * M + (h + rK) * K) @ v)
    dv = np.zeros(n)
    dv[free] = np.linalg.solve(A[np.ix_(free, free)], rhs[free])
    v = v + dv
    nodes = nodes + h * v[6:].reshape(-1, 3)
    o = h * v[3:6] / 2
    t = np.linalg.norm(o)
    if t > 0:
        q = product(np.concatenate([np.sin(t) / t * o, [np.cos(t)]]), q)
    c = c + h * v[:3]
expected = np.concatenate([c, q, v[:6]])
print("%.3e" % (np.abs(got - expected).max() if got.shape == expected.shape else float("nan")))
PY

PY3=/usr/bin/python3
for ranks in 1 2 3; do
  status=0
  run "$ranks" --config joint.ini --output.frames="frames$ranks.csv" || status=$?
  check "a frame sprung to a mesh body runs on $ranks rank(s)" test "$status" -eq 0
  [ "$status" -eq 0 ] || sed 's/^/     | /' run.err
  worst=$($PY3 reference.py "frames$ranks.csv" springs "$Q" || echo nan)
  check "... two steps follow SOFA's formulas worked out here: $worst <= 1e-12" \
    below "$worst" 1e-12
done
# The same scene written for SOFA: a SpringForceField from the RigidMapping child's points to
# the mesh body's nodes, and the same springs with object1 and object2 swapped.
cat > joint.scn <<XML
<Node name="root" dt="0.01" gravity="0 -9.81 0">
  <DefaultAnimationLoop/>
  <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.2"/>
  <SparseLDLSolver/>
  <Node name="r">
    <MechanicalObject name="dofs" template="Rigid3d" position="0.1 1.8 -0.2 $Q"
                      velocity="0.3 -0.1 0.2 0.5 -0.4 0.7"/>
    <UniformMass vertexMass="2 1 1 0.1 0 0.1 1.5 0 0 0 2"/>
    <Node name="points">
      <MechanicalObject name="dofs" template="Vec3d" position="0.5 0.2 -0.3  -0.4 0.1 0.6"/>
      <UniformMass vertexMass="0.3"/>
      <RigidMapping/>
    </Node>
  </Node>
  <Node name="m">
    <MeshTopology position="0 0 0  1 0 0  1 1 0  0 1 0  0 0 1  1 0 1  1 1 1  0 1 1"
                  tetrahedra="0 1 3 4  1 2 3 6  1 4 5 6  3 4 6 7  1 3 4 6"/>
    <MechanicalObject name="dofs" template="Vec3d" velocity="0 0 0  0.1 0 0  0 0.2 0  0 0 0
                      0 0 -0.1  0.2 0.1 0  -0.1 0 0.3  0 0 0"/>
    <UniformMass vertexMass="1.5"/>
    <FixedProjectiveConstraint indices="7"/>
    <SpringForceField object1="@dofs" object2="@dofs" spring="2 6 30 0.7 0.9"/>
  </Node>
  <SpringForceField object1="@r/points/dofs" object2="@m/dofs"
                    spring="0 6 40 1.5 0.8  1 5 25 0.5 1.1"/>
</Node>
XML
sed -e 's|object1="@r/points/dofs" object2="@m/dofs"|object1="@m/dofs" object2="@r/points/dofs"|' \
  -e 's|spring="0 6 40 1.5 0.8  1 5 25 0.5 1.1"|spring="6 0 40 1.5 0.8  5 1 25 0.5 1.1"|' \
  joint.scn > swapped.scn
for scene in joint swapped; do
  status=0
  run 2 --scene "$scene.scn" --solver.steps=2 --output.frames="$scene.csv" || status=$?
  check "the SOFA scene $scene.scn runs on 2 ranks" test "$status" -eq 0
  [ "$status" -eq 0 ] || sed 's/^/     | /' run.err
  worst=$($PY3 reference.py "$scene.csv" springs "$Q" || echo nan)
  check "... and follows the same formulas: $worst <= 1e-12" below "$worst" 1e-12
done
worst=$($PY3 reference.py frames1.csv none "$Q" || echo nan)
check "the springs change the steps (the check can fail): $worst > 1e-4" below 1e-4 "$worst"
worst=$($PY3 reference.py frames1.csv points "$Q" || echo nan)
check "the cube's own spring changes them too: $worst > 1e-9" below 1e-9 "$worst"

check "springs to a body of frames are refused" \
  refused "rigid.mapped-springs of /r to /s: the target is a body of rigid frames" 1 "$EXE" \
  --config joint.ini --s/rigid.frames="0 0 0 0 0 0 1" --r/rigid.mapped-springs="/s 0 0 1 0 1"
check "a mesh body joined to two bodies of frames not joined to each other is refused" \
  refused "the mesh body /m is joined to /r and to /s, bodies of frames not joined" 1 "$EXE" \
  --config joint.ini --s/rigid.frames="0 0 0 0 0 0 1" --s/rigid.mapped-points="0 0 0 0" \
  --s/rigid.mapped-springs="/m 0 1 1 0 1"
check "carried points of a body that is no body of frames are refused" \
  refused "carried.frames of /m (/n): no body of rigid frames" 1 "$EXE" --config joint.ini \
  --n/mass.type=uniform --n/mesh.nodes="0 0 0  1 0 0  0 1 0  0 0 1" \
  --n/mesh.tetrahedra="0 1 2 3" --n/material.model=none --m/carried.frames=/n \
  --m/carried.points="0:1"
check "a mesh body in a coupled group is refused" \
  refused "the mesh body /m, joined to the frames of /r .*, is in a coupled group" 1 "$EXE" \
  --config joint.ini --m/solver.group=g --n/solver.group=g --n/mass.type=uniform \
  --n/mesh.nodes="0 0 0  1 0 0  0 1 0  0 0 1" --n/mesh.tetrahedra="0 1 2 3" --n/material.model=none
echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
