#!/usr/bin/env bash
# SOFA's heat diffusion (--scene FILE.scn): a Vec1 temperature state with a
# TetrahedronDiffusionFEMForceField, a MeshMatrixMass<Vec1,Vec3> and a FixedProjectiveConstraint,
# on the tetrahedra of a Vec3 state found by its tag, stepped by EulerImplicitSolver firstOrder,
# on a bar of 5 cubes (30 tetrahedra) held at u = 0 at x = 0 and u = 1 at x = 1:
#  - one step from a non-uniform start equals numpy's implicit Euler step, (M + h L) v = -L u0
#    on the free nodes, u1 = u0 + h v, with L the P1 Laplacian D V grad(N_i).grad(N_j) and M the
#    P1 mass (rho V / 20 (1 + delta_ij); lumped: rho V / 4), consistent and lumped, on 1, 2 and
#    3 ranks;
#  - after 8 long steps the bar holds the linear profile u = x, exact for P1, on 1, 2 and 3 ranks;
#  - 10 steps with the end x = 1 driven by a LinearMovementProjectiveConstraint<Vec1> (a ramp,
#    then held) equal numpy's steps with that end put at u0 + m(t) after each step of start
#    time t, SOFA's DefaultAnimationLoop order;
#  - the mass's geometryState a state whose position links the geometry's: the same step;
#  - gravity along x (a heat source through SOFA's mass), anisotropy and too few starting values
#    are one clear error line.
# Usage: sofa_heat_diffusion.sh <euler-implicit> <meshes dir>; the MPI launch line:
# tests/common/mpi_launch.sh.
set -euo pipefail
RANKS=3  # MPI ranks per run at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
EXE=$(realpath "$1")
HERE=$(realpath "$(dirname "${BASH_SOURCE[0]}")")
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$HERE/../common/mpi_launch.sh"
launch_in_scratch "$RANKS" "$EXE"

# bar.py NAME DT LUMPING GRAVITY EXTRA [STEPS [copy]]: writes NAME.scn and NAME.ref (id u) after one
# step, or with STEPS, after STEPS steps of the end x = 1 moved by SOFA's
# LinearMovementProjectiveConstraint (keyTimes 0 0.05 1, movements 0 1 1: put at u0 + m(t) at
# the start and after each step of start time t in [0, 1), held in the solves).
cat > bar.py <<'PY'
import sys
import numpy as np
name, dt, lumping, gravity, extra = sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
steps = int(sys.argv[6]) if len(sys.argv) > 6 else 0
# "copy": the mass's geometryState is a state whose position links the geometry's.
mass_geometry = "@../copy/points" if len(sys.argv) > 7 and sys.argv[7] == "copy" else "@../geometry"
n, D, rho = 5, 3.0, 2.0
pts = np.array([(i / n, 0.2 * j, 0.2 * k) for i in range(n + 1) for k in range(2) for j in range(2)])
idx = lambda i, j, k: 4 * i + 2 * k + j
tets = []
for i in range(n):
    c = [idx(i, 0, 0), idx(i + 1, 0, 0), idx(i + 1, 1, 0), idx(i, 1, 0),
         idx(i, 0, 1), idx(i + 1, 0, 1), idx(i + 1, 1, 1), idx(i, 1, 1)]
    for t in [(0, 1, 2, 6), (0, 2, 3, 6), (0, 3, 7, 6), (0, 7, 4, 6), (0, 4, 5, 6), (0, 5, 1, 6)]:
        tets.append([c[a] for a in t])
x = pts[:, 0]
fixed = [v for v in range(len(pts)) if x[v] in (0.0, 1.0)]
u0 = np.where(x == 1.0, 1.0, 0.0) + np.where((x > 0) & (x < 1), np.sin(7 * x + pts[:, 1] - 3 * pts[:, 2]), 0)
N = len(pts)
L, M = np.zeros((N, N)), np.zeros((N, N))
for t in tets:
    P = pts[t]
    A = np.hstack([np.ones((4, 1)), P])  # rows (1, x, y, z): N_a = coefficients of inv(A)
    G = np.linalg.inv(A)[1:, :].T        # G[a] = grad N_a
    V = abs(np.linalg.det(A)) / 6
    Me = rho * V / 20 * (np.ones((4, 4)) + np.eye(4))
    if lumping == "1":
        Me = np.diag(Me.sum(axis=1))
    L[np.ix_(t, t)] += D * V * G @ G.T
    M[np.ix_(t, t)] += Me
free = [v for v in range(N) if v not in fixed]
A = M[np.ix_(free, free)] + dt * L[np.ix_(free, free)]
u1 = u0.copy()
for n in range(max(steps, 1)):
    if steps:
        # DefaultAnimationLoop projects after the solve, before it advances the clock (and the
        # solver's init at t = 0): step n solves with the end at u0 + m(t_{n-1}).
        t = max(n - 1, 0) * dt
        u1[x == 1.0] = u0[x == 1.0] + (t / 0.05 if t < 0.05 else 1.0)
    u1[free] += dt * np.linalg.solve(A, -(L @ u1)[free])
with open(name + ".ref", "w") as f:
    for v in range(N):
        f.write("%d %.17g\n" % (v, u1[v]))
pos = " ".join("%g %g %g" % tuple(p) for p in pts)
cells = " ".join(" ".join(map(str, t)) for t in tets)
with open(name + ".scn", "w") as f:
    f.write(f'''<Node name="root" dt="{dt}" gravity="{gravity}">
  <DefaultAnimationLoop/>
  <TetrahedronSetTopologyContainer name="topo" tetrahedra="{cells}"/>
  <MechanicalObject name="geometry" tags="shape" position="{pos}"/>
  <Node name="copy">
    <MechanicalObject name="points" position="@../geometry.position"/>
  </Node>
  <Node name="heat">
    <EulerImplicitSolver firstOrder="1"/>
    <CGLinearSolver iterations="500" tolerance="1e-15" threshold="1e-30"/>
    <MechanicalObject template="Vec1" name="T" position="{" ".join("%.17g" % u for u in u0)}"/>
    <TetrahedronDiffusionFEMForceField constantDiffusionCoefficient="{D}" tagMechanics="shape"
                                       topology="@../topo" {extra}/>
    <MeshMatrixMass template="Vec1,Vec3" massDensity="{rho}" lumping="{lumping}"
                    geometryState="{mass_geometry}" topology="@../topo"/>
    <FixedProjectiveConstraint indices="{" ".join(map(str, fixed if not steps else [v for v in fixed if x[v] == 0]))}"/>
    {'<LinearMovementProjectiveConstraint template="Vec1" keyTimes="0 0.05 1" movements="0 1 1" indices="%s"/>' % " ".join(str(v) for v in fixed if x[v] == 1) if steps else ""}
  </Node>
</Node>
''')
PY

# compare FINAL.csv REF TOLERANCE: the largest |u - ref| over the nodes, within TOLERANCE.
compare() {
  /usr/bin/python3 - "$@" <<'PY'
import sys
final, ref, tol = sys.argv[1], sys.argv[2], float(sys.argv[3])
want = {}
for line in open(ref):
    i, u = line.split()
    want[int(i)] = float(u)
got = {}
for line in open(final).read().splitlines()[1:]:
    i, u, _ = line.split(",")
    got[int(i)] = float(u)
if sorted(got) != sorted(want):
    sys.exit("nodes differ: %d rows, %d expected" % (len(got), len(want)))
err = max(abs(got[i] - want[i]) for i in want)
print("max |u - reference| = %.3g" % err)
sys.exit(0 if err <= tol else 1)
PY
}

status=0
/usr/bin/python3 bar.py consistent 0.01 0 "0 -9.81 0" ""
/usr/bin/python3 bar.py lumped 0.01 1 "0 0 0" ""
/usr/bin/python3 bar.py steady 10 0 "0 0 0" ""
# Three starting values for 24 nodes.
sed 's/name="T" position="[^"]*"/name="T" position="1 0 1"/' consistent.scn > short.scn
# The linear profile u = x.
awk '{ printf "%d %.17g\n", $1, int($1 / 4) / 5 }' steady.ref > linear.ref
/usr/bin/python3 bar.py moving 0.01 0 "0 0 0" "" 10
/usr/bin/python3 bar.py copied 0.01 0 "0 -9.81 0" "" 0 copy
/usr/bin/python3 bar.py source 0.01 0 "1 0 0" ""
/usr/bin/python3 bar.py anisotropic 0.01 0 "0 0 0" 'anisotropyRatio="2"'

for ranks in 1 2 3; do
  mpi_command "$ranks" "$EXE"
  for case in consistent:1:consistent lumped:1:lumped steady:8:linear moving:10:moving \
    copied:1:consistent; do
    IFS=: read -r name steps ref <<< "$case"
    if ! timeout 60 "${MPI_COMMAND[@]}" --scene "$name.scn" --solver.steps="$steps" --quiet \
      --output.final-state="$name-$ranks.csv" > run.out 2> run.err; then
      echo "FAIL: $name on $ranks ranks did not run"
      cat run.err
      status=1
      continue
    fi
    if ! result=$(compare "$name-$ranks.csv" "$ref.ref" 1e-10); then
      echo "FAIL: $name on $ranks ranks: $result"
      status=1
    else
      echo "$name on $ranks ranks: $result"
    fi
  done
  for case in "source:gravity along x acts on the Vec1 temperature" \
    "anisotropic:anisotropyRatio = '2': anisotropic diffusion is not supported yet" \
    "short:initial.values: 3 values for 24 nodes; give one per node"; do
    name=${case%%:*}
    want=${case#*:}
    if timeout 60 "${MPI_COMMAND[@]}" --scene "$name.scn" --solver.steps=1 --quiet \
      > run.out 2> run.err; then
      echo "FAIL: $name ran on $ranks ranks"
      status=1
    fi
    errors=$(grep -c '^euler-implicit: error: ' run.err || true)
    matching=$(grep -cF "$want" run.err || true)
    if [ "$errors" != 1 ] || [ "$matching" != 1 ]; then
      echo "FAIL: $name on $ranks ranks: expected one error line with '$want'"
      sed 's/^/  got: /' run.err
      status=1
    fi
  done
done
[ "$status" = 0 ] && echo "PASS: sofa_heat_diffusion"
