#!/usr/bin/env bash
# SOFA's rigidified sections (io/sofa_rigid_mapping.cpp, model/rigid_mapped_cells.cpp): a
# HexahedronFEMForceField or TetrahedronFEMForceField and a MeshMatrixMass in the child node of a
# RigidMapping from Rigid3d frames, carried to the frames as J^T f_c, J^T K_c J and J^T M_c J.
# 1. Two frames, the first fixed, carrying the four corners of each end of a unit cube (the
#    frames have no UniformMass: their mass is the child's), the second end pulled by a constant
#    force, under gravity, Rayleigh damping: one implicit-Euler step from rest solves
#    ((1 + h rM) J^T M_c J - h (h + rK) J^T K_c J) dv = h J^T (M_c g + f) on the second frame;
#    worked out here from the trilinear cube's stiffness (2x2x2 Gauss rule), SOFA's hexahedral
#    MeshMatrixMass (V/20 on the diagonal, V/40 along the 12 edges) and J = [I, -[r]x], to 1e-12
#    of the velocities, for method small and large (the same at rest).
# 2. Three free frames with their own mass and a two-cube FEM between them, no gravity, set
#    spinning and moving apart: 40 steps keep the frames' linear momentum to 1e-12.
# 3. The same runs on 1, 2 and 3 ranks write the same frames, bit for bit.
# 4. With RigidMapping's exact geometric stiffness (the FEM's forces in the points' total force)
#    the momentum of 2 stays and the frames move otherwise, the same on 1, 2 and 3 ranks.
# 5. A TetrahedronFEMForceField and a MeshMatrixMass on the cube cut into six tetrahedra (a
#    TetrahedronSetTopologyContainer in the child): one step from rest as in 1, from the linear
#    tetrahedra's stiffness (V B^T C B), SOFA's tetrahedral MeshMatrixMass (V/10 on the
#    diagonal, V/20 off it) and J, for method large (at rest the linear element), on 1, 2 and 3
#    ranks, the same bit for bit. (The deformed child's corotated force and stiffness, and a
#    rigid motion's, are checked in tests/unit/test_rigid_mapped_tetrahedra.cpp.)
# 6. What is refused: one error line each.
# Usage: sofa_rigid_sections.sh <euler-implicit> <meshes dir>.
set -euo pipefail
RANKS=3  # MPI ranks per run at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
# shellcheck source=SCRIPTDIR/../common/regression_test.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/regression_test.sh"

bar() {  # bar METHOD CHILD_EXTRA MAPPING_EXTRA
  cat <<XML
<Node name="root" dt="0.01" gravity="0 -9.81 0">
  <DefaultAnimationLoop/>
  <Node name="frames">
    <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.2"/>
    <SparseLDLSolver/>
    <MechanicalObject template="Rigid3d" position="0 0 0 0 0 0 1  0.1 0 1 0 0 0 1"/>
    <FixedProjectiveConstraint indices="0"/>
    <Node name="bar">
      <RegularGridTopology name="grid" nx="2" ny="2" nz="2" xmin="-0.5" xmax="0.5"
                           ymin="-0.5" ymax="0.5" zmin="0" zmax="1"/>
      <MechanicalObject template="Vec3d" position="@grid.position"/>
      <MeshMatrixMass massDensity="2"/>
      <HexahedronFEMForceField youngModulus="1000" poissonRatio="0.3" method="$1"/>
      <ConstantForceField indices="6" forces="1 0.5 -3"/>
      $2
      <RigidMapping globalToLocalCoords="true" rigidIndexPerPoint="0 0 0 0 1 1 1 1" $3/>
    </Node>
  </Node>
</Node>
XML
}
bar small "" "" > small.scn
bar large "" "" > large.scn

cat > frame_step.py <<'PY'
# One implicit-Euler step from rest of a two-frame bar whose frame 0 is fixed, from its child's
# points (pts, each on frame[a]), df/dx K (3 a point) and mass M (a point by a point): the
# ((1 + h rM) J^T M J - h (h + rK) J^T K J) dv = h J^T (M g + f) of frame 1, a constant force on
# point 6, solved by Gaussian elimination; prints the largest gap to the run's frame 1 (rows of
# its frames CSV), the largest |dv| and the fixed frame's largest velocity.
import math

# The bar both references step: the step's and the material's figures, the frames' centres, the
# child's points (x fastest), each point's frame, and the isotropic elasticity matrix D.
h, rM, rK, rho, E, nu = 0.01, 0.2, 0.1, 2.0, 1000.0, 0.3
g = [0.0, -9.81, 0.0]
centres = [[0.0, 0.0, 0.0], [0.1, 0.0, 1.0]]
pts = [[x, y, z] for z in (0.0, 1.0) for y in (-0.5, 0.5) for x in (-0.5, 0.5)]
frame = [0, 0, 0, 0, 1, 1, 1, 1]
lam = E * nu / ((1 + nu) * (1 - 2 * nu))
mu = E / (2 * (1 + nu))
D = [[0.0] * 6 for _ in range(6)]
for i in range(3):
    for j in range(3):
        D[i][j] = lam + (2 * mu if i == j else 0.0)
    D[3 + i][3 + i] = mu


def report(rows, K, M):
    got = [float(t) for t in rows[1][2:]]
    def jac(a):
        r = [pts[a][i] - centres[frame[a]][i] for i in range(3)]
        return [[1, 0, 0, 0, r[2], -r[1]], [0, 1, 0, -r[2], 0, r[0]], [0, 0, 1, r[1], -r[0], 0]]
    A = [[0.0] * 6 for _ in range(6)]
    f = [0.0] * 6
    force = {6: [1.0, 0.5, -3.0]}
    for a in range(8):
        if frame[a] != 1:
            continue
        Ja = jac(a)
        load = [sum(M[a]) * g[i] + force.get(a, [0, 0, 0])[i] for i in range(3)]
        for k in range(6):
            f[k] += sum(Ja[i][k] * load[i] for i in range(3))
        for b in range(8):
            if frame[b] != 1:
                continue
            Jb = jac(b)
            for k in range(6):
                for l in range(6):
                    m = M[a][b] * sum(Ja[i][k] * Jb[i][l] for i in range(3))
                    s = sum(Ja[i][k] * K[3 * a + i][3 * b + j] * Jb[j][l]
                            for i in range(3) for j in range(3))
                    A[k][l] += (1 + h * rM) * m - h * (h + rK) * s
    T = [A[i][:] + [h * f[i]] for i in range(6)]
    for k in range(6):
        p = max(range(k, 6), key=lambda i: abs(T[i][k]))
        T[k], T[p] = T[p], T[k]
        for i in range(k + 1, 6):
            t = T[i][k] / T[k][k]
            for j in range(k, 7):
                T[i][j] -= t * T[k][j]
    dv = [0.0] * 6
    for i in reversed(range(6)):
        dv[i] = (T[i][6] - sum(T[i][j] * dv[j] for j in range(i + 1, 6))) / T[i][i]
    o = [h * dv[3 + i] / 2 for i in range(3)]
    t = math.sqrt(sum(e * e for e in o))
    s = math.sin(t) / t
    expected = [centres[1][i] + h * dv[i] for i in range(3)] + \
        [s * o[0], s * o[1], s * o[2], math.cos(t)] + dv
    worst = max(abs(a - b) for a, b in zip(got, expected))
    fixed = max(abs(float(v)) for v in rows[0][9:])
    print("%.3e %.3e %.3e" % (worst, max(abs(v) for v in dv), fixed))
PY
cat > reference.py <<'PY'
# One step from rest of the two-frame bar, frame 0 fixed: rows of frame 1 only.
import math, sys
from frame_step import rho, pts, frame, D
import frame_step
rows = [line.strip().split(",") for line in open(sys.argv[1])][1:]
# Signs s of each grid corner about the cube's centre (0, 0, 0.5).
signs = [[2 * p[0], 2 * p[1], 2 * (p[2] - 0.5)] for p in pts]
K = [[0.0] * 24 for _ in range(24)]
gp = 1 / math.sqrt(3)
for xi in (-gp, gp):
    for eta in (-gp, gp):
        for zeta in (-gp, gp):
            B = [[0.0] * 24 for _ in range(6)]
            for a, s in enumerate(signs):
                n = [1 + s[0] * xi, 1 + s[1] * eta, 1 + s[2] * zeta]
                # dN/dx = dN/dxi * 2 (the cube's edge is 1, its reference edge 2); det J = 1/8.
                d = [s[0] * n[1] * n[2] / 4, s[1] * n[0] * n[2] / 4, s[2] * n[0] * n[1] / 4]
                for i in range(3):
                    B[i][3 * a + i] = d[i]
                B[3][3 * a + 0], B[3][3 * a + 1] = d[1], d[0]
                B[4][3 * a + 1], B[4][3 * a + 2] = d[2], d[1]
                B[5][3 * a + 0], B[5][3 * a + 2] = d[2], d[0]
            DB = [[sum(D[i][k] * B[k][c] for k in range(6)) for c in range(24)] for i in range(6)]
            for r in range(24):
                for c in range(24):
                    K[r][c] -= sum(B[k][r] * DB[k][c] for k in range(6)) / 8  # df/dx = -K0
# SOFA's hexahedral MeshMatrixMass: rho V / 20 on the diagonal, rho V / 40 along each edge.
M = [[0.0] * 8 for _ in range(8)]
for a in range(8):
    for b in range(8):
        differ = sum(1 for i in range(3) if signs[a][i] != signs[b][i])
        M[a][b] = rho / 20 if a == b else (rho / 40 if differ == 1 else 0.0)
frame_step.report(rows, K, M)
PY

for method in small large; do
  status=0
  run 1 --scene $method.scn --solver.steps=1 --output.frames=$method-step.csv || status=$?
  check "method $method: two frames carrying a rigidified hexahedron run" test "$status" -eq 0
  [ "$status" -eq 0 ] || sed 's/^/     | /' run.err
  read -r worst scale fixed < <(python3 reference.py $method-step.csv || echo "nan 0 nan")
  check "method $method: one step follows the worked-out system: $worst <= 1e-12 of $scale" \
    below "$worst" "$(awk -v s="$scale" 'BEGIN { print 1e-12 * s }')"
  check "method $method: the fixed frame stays still ($fixed)" below "$fixed" 0
  check "method $method: the load moves the free frame (the check can fail)" below 1e-3 "$scale"
done

# Three free frames, each of mass 2, a FEM between them, no gravity, moving apart and spinning.
cat > free.scn <<'XML'
<Node name="root" dt="0.01" gravity="0 0 0">
  <DefaultAnimationLoop/>
  <Node name="frames">
    <EulerImplicitSolver rayleighStiffness="0.1"/>
    <SparseLDLSolver/>
    <MechanicalObject template="Rigid3d" position="0 0 0 0 0 0 1  0 0 1 0 0 0 1  0 0 2 0 0 0 1"
                      velocity="1 0 0 0 0 2  0 0.5 0 1 0 0  0 0 -1 0 0 0"/>
    <UniformMass vertexMass="2 1 1 0 0 0 1 0 0 0 1"/>
    <Node name="bar">
      <RegularGridTopology name="grid" nx="2" ny="2" nz="3" xmin="-0.5" xmax="0.5"
                           ymin="-0.5" ymax="0.5" zmin="0" zmax="2"/>
      <MechanicalObject template="Vec3d" position="@grid.position"/>
      <HexahedronFEMForceField youngModulus="100" poissonRatio="0.3" method="large"/>
      <RigidMapping globalToLocalCoords="true" rigidIndexPerPoint="0 0 0 0 1 1 1 1 2 2 2 2"/>
    </Node>
  </Node>
</Node>
XML
cat > momentum.py <<'PY'
import sys
rows = [line.strip().split(",") for line in open(sys.argv[1])][1:]
p = [sum(2 * float(r[9 + i]) for r in rows) for i in range(3)]
start = [2.0, 1.0, -2.0]
changed = max(abs(float(rows[0][9 + i]) - [1, 0, 0][i]) for i in range(3))
print("%.3e %.3e" % (max(abs(p[i] - start[i]) for i in range(3)), changed))
PY
status=0
run 1 --scene free.scn --solver.steps=40 --output.frames=free1.csv || status=$?
check "three free frames with a FEM between them run" test "$status" -eq 0
read -r drift changed < <(python3 momentum.py free1.csv || echo "nan 0")
check "their linear momentum stays (2, 1, -2): drift $drift <= 1e-12" below "$drift" 1e-12
check "the FEM changes the frames' velocities (the check can fail): $changed" below 1e-3 "$changed"

for ranks in 2 3; do
  for name in large free; do
    status=0
    steps=$([ $name = free ] && echo 40 || echo 1)
    out=$([ $name = free ] && echo free$ranks.csv || echo large-step$ranks.csv)
    run "$ranks" --scene $name.scn --solver.steps="$steps" --output.frames="$out" || status=$?
    check "$name.scn on $ranks ranks runs" test "$status" -eq 0
  done
  check "free.scn: 1 and $ranks ranks write the same frames, bit for bit" \
    cmp -s free1.csv free$ranks.csv
  check "large.scn: 1 and $ranks ranks write the same frames, bit for bit" \
    cmp -s large-step.csv large-step$ranks.csv
done

# The same with the mapping's exact geometric stiffness, the FEM's forces in the points' total
# force: it acts on the angular unknowns alone, so the momentum stays, and the frames move
# otherwise.
sed 's/<RigidMapping /<RigidMapping geometricStiffness="Exact" /' free.scn > exact.scn
for ranks in 1 2 3; do
  status=0
  run "$ranks" --scene exact.scn --solver.steps=40 --output.frames="exact$ranks.csv" ||
    status=$?
  check "exact.scn: geometricStiffness Exact with cells runs on $ranks ranks" test "$status" -eq 0
done
read -r drift changed < <(python3 momentum.py exact1.csv || echo "nan 0")
check "with it, the momentum stays (2, 1, -2): drift $drift <= 1e-12" below "$drift" 1e-12
check "it changes the frames (the check can fail)" eval '! cmp -s exact1.csv free1.csv'
for ranks in 2 3; do
  check "exact.scn: 1 and $ranks ranks write the same frames, bit for bit" \
    cmp -s exact1.csv exact$ranks.csv
done
# 5. Tetrahedra in the child.
tbar() {  # tbar METHOD
  cat <<XML
<Node name="root" dt="0.01" gravity="0 -9.81 0">
  <DefaultAnimationLoop/>
  <Node name="frames">
    <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.2"/>
    <SparseLDLSolver/>
    <MechanicalObject template="Rigid3d" position="0 0 0 0 0 0 1  0.1 0 1 0 0 0 1"/>
    <FixedProjectiveConstraint indices="0"/>
    <Node name="bar">
      <MechanicalObject template="Vec3d" position="-0.5 -0.5 0  0.5 -0.5 0  -0.5 0.5 0  0.5 0.5 0
                                                   -0.5 -0.5 1  0.5 -0.5 1  -0.5 0.5 1  0.5 0.5 1"/>
      <TetrahedronSetTopologyContainer tetrahedra="0 1 3 7  0 3 2 7  0 2 6 7  0 6 4 7  0 4 5 7
                                                   0 5 1 7"/>
      <MeshMatrixMass massDensity="2"/>
      <TetrahedronFEMForceField youngModulus="1000" poissonRatio="0.3" method="$1"/>
      <ConstantForceField indices="6" forces="1 0.5 -3"/>
      <RigidMapping globalToLocalCoords="true" rigidIndexPerPoint="0 0 0 0 1 1 1 1"/>
    </Node>
  </Node>
</Node>
XML
}
tbar large > tlarge.scn
cat > treference.py <<'PY'
# One step from rest of the two-frame tetrahedral bar, frame 0 fixed: rows of frame 1 only.
import math, sys
from frame_step import rho, pts, frame, D
import frame_step
rows = [line.strip().split(",") for line in open(sys.argv[1])][1:]
tets = [[0, 1, 3, 7], [0, 3, 2, 7], [0, 2, 6, 7], [0, 6, 4, 7], [0, 4, 5, 7], [0, 5, 1, 7]]
def sub(a, b): return [a[i] - b[i] for i in range(3)]
def cross(a, b): return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
K = [[0.0] * 24 for _ in range(24)]  # df/dx
M = [[0.0] * 8 for _ in range(8)]
for t in tets:
    e = [sub(pts[t[a]], pts[t[0]]) for a in (1, 2, 3)]
    det = sum(e[0][i] * cross(e[1], e[2])[i] for i in range(3))
    grads = [[c / det for c in cross(e[1], e[2])], [c / det for c in cross(e[2], e[0])],
             [c / det for c in cross(e[0], e[1])]]
    grads.insert(0, [-(grads[0][i] + grads[1][i] + grads[2][i]) for i in range(3)])
    B = [[0.0] * 12 for _ in range(6)]
    for a, d in enumerate(grads):
        for i in range(3):
            B[i][3 * a + i] = d[i]
        B[3][3 * a + 0], B[3][3 * a + 1] = d[1], d[0]
        B[4][3 * a + 1], B[4][3 * a + 2] = d[2], d[1]
        B[5][3 * a + 0], B[5][3 * a + 2] = d[2], d[0]
    V = abs(det) / 6
    for r in range(12):
        for c in range(12):
            k = sum(B[i][r] * D[i][j] * B[j][c] for i in range(6) for j in range(6))
            K[3 * t[r // 3] + r % 3][3 * t[c // 3] + c % 3] -= V * k
    for a in range(4):
        for b in range(4):
            M[t[a]][t[b]] += rho * V * (0.1 if a == b else 0.05)
frame_step.report(rows, K, M)
PY
for ranks in 1 2 3; do
  status=0
  run "$ranks" --scene tlarge.scn --solver.steps=1 --output.frames="tlarge-$ranks.csv" ||
    status=$?
  check "tetrahedra, method large: the bar runs on $ranks ranks" test "$status" -eq 0
  [ "$status" -eq 0 ] || sed 's/^/     | /' run.err
  read -r worst scale fixed < <(python3 treference.py "tlarge-$ranks.csv" || echo "nan 0 nan")
  check "tetrahedra on $ranks ranks: one step as worked out: $worst <= 1e-12 of $scale" \
    below "$worst" "$(awk -v s="$scale" 'BEGIN { print 1e-12 * s }')"
  check "tetrahedra on $ranks ranks: the fixed frame stays still ($fixed)" below "$fixed" 0
  [ "$ranks" -eq 1 ] || check "tetrahedra: 1 and $ranks ranks write the same frames, bit for bit" \
    cmp -s tlarge-1.csv "tlarge-$ranks.csv"
done

bar large "" "" | sed 's/<HexahedronFEMForceField /<TetrahedronFEMForceField /' > tetra.scn
check "a TetrahedronFEMForceField on the child's RegularGridTopology is refused, naming it" \
  refused "tetrahedra of a rigidly mapped child.*TetrahedronSetTopologyContainer or MeshTopology.*RegularGridTopology" \
    1 "$EXE" --scene tetra.scn --solver.steps=1
echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
