#!/usr/bin/env bash
# A body with no mass component under euler-implicit --scene: SOFA's EulerImplicitSolver then
# has M = 0, and its step solves -h (h + rK) K dv = h (f + (h + rK) K v) (gravity, which SOFA
# applies through the masses, pulls on nothing).
#  - A chain of springs along x (SpringForceField, rest lengths the spacings, rK 0), node 0
#    fixed, constant forces along x: from rest, one step gives h v_1 = -K^-1 f, so
#    x_1 = x_0 + S^-1 f with S the springs' axial stiffness matrix: the static solution, which
#    numpy computes here from the spring list; v_1 = (x_1 - x_0) / h. The chain has no stiffness
#    across itself (K singular, f in its range): SOFA's plain CG from zero leaves y and z at 0.
#    On 1, 2 and 3 ranks, to 1e-12.
#  - The same points with no stiffness and a zero force under a direct solver (SparseLDLSolver):
#    a zero matrix and a zero right-hand side, dv = 0, the state unchanged bit for bit after 2
#    steps (before: MUMPS failed on the zero matrix).
#  - A nonzero force on points that no stiffness holds: one error line saying the massless step
#    is singular there.
# Usage: massless_springs.sh <python3 with numpy> <euler-implicit> <meshes dir>.
set -u
RANKS=3  # MPI ranks per run at most (tests/CMakeLists.txt: PROCESSORS)
# shellcheck source=SCRIPTDIR/../common/python_test.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/python_test.sh"
scene() {  # scene RANKS FILE ARGS...: mpiexec -n RANKS euler-implicit --scene FILE ARGS
  mpi_command "$1" "$EXE"
  timeout 120 "${MPI_COMMAND[@]}" --scene "$2" --quiet "${@:3}" > run.out 2> run.err
}

POSITIONS="0 0 0  1 0 0  2.5 0 0  3 0 0  4.2 0 0"
SPRINGS="0 1 100 0 1  1 2 50 0 1.5  2 3 200 0 0.5  3 4 80 0 1.2"
cat > chain.scn << EOF_SCENE
<Node name="root" dt="0.1" gravity="0 0 -9.81">
  <DefaultAnimationLoop/>
  <EulerImplicitSolver/>
  <CGLinearSolver iterations="100" tolerance="1e-12" threshold="1e-20"/>
  <MechanicalObject name="dofs" position="$POSITIONS"/>
  <SpringForceField spring="$SPRINGS"/>
  <FixedProjectiveConstraint indices="0"/>
  <ConstantForceField indices="2 4" forces="3 0 0  7 0 0"/>
</Node>
EOF_SCENE

static() {  # static FILE: the chain's static solution and velocity (x_1 - x_0) / h, to 1e-12
  "$PYTHON" - "$1" "$POSITIONS" "$SPRINGS" << 'EOF_CHECK'
import sys
import numpy as np
x0 = np.array(sys.argv[2].split(), float).reshape(-1, 3)
springs = np.array(sys.argv[3].split(), float).reshape(-1, 5)
h = 0.1
f = np.zeros(len(x0))
f[2], f[4] = 3.0, 7.0
stiffness = np.zeros((len(x0), len(x0)))
for i, j, k, _, _ in springs:
    i, j = int(i), int(j)
    stiffness[np.ix_([i, j], [i, j])] += k * np.array([[1, -1], [-1, 1]])
free = np.arange(1, len(x0))  # node 0 fixed
u = np.zeros(len(x0))
u[free] = np.linalg.solve(stiffness[np.ix_(free, free)], f[free])
want = x0.copy()
want[:, 0] += u
got = np.loadtxt(sys.argv[1], delimiter=",", skiprows=1)
ok = (got.shape == (len(x0), 7) and np.abs(got[:, 1:4] - want).max() <= 1e-12
      and np.abs(got[:, 4:7] - (want - x0) / h).max() <= 1e-11)
if not ok:
    print("want", want.tolist(), "\ngot", got.tolist())
sys.exit(0 if ok else 1)
EOF_CHECK
}
for ranks in 1 2 3; do
  scene "$ranks" chain.scn --solver.steps=1 --output.final-state=chain.csv
  check "$ranks rank(s): one massless step of the spring chain is its static solution" \
    static chain.csv
  [ "$failures" -eq 0 ] || show
  rm -f chain.csv
done

sed -e 's|<CGLinearSolver.*/>|<SparseLDLSolver/>|' -e '/SpringForceField/d' \
  -e 's|forces="3 0 0  7 0 0"|forces="0 0 0  0 0 0"|' chain.scn > still.scn
scene 2 still.scn --solver.steps=2 --output.final-state=still.csv
at_rest() {  # the five points where they started, velocity 0, to the last bit
  "$PYTHON" - "$POSITIONS" << 'EOF_CHECK'
import sys
import numpy as np
x0 = np.array(sys.argv[1].split(), float).reshape(-1, 3)
got = np.loadtxt("still.csv", delimiter=",", skiprows=1)
sys.exit(0 if got.shape == (5, 7) and (got[:, 1:4] == x0).all() and (got[:, 4:] == 0).all()
         else 1)
EOF_CHECK
}
check "2 ranks, a direct solver: no stiffness, no force: at rest bit for bit" at_rest
[ "$failures" -eq 0 ] || show

sed 's|forces="0 0 0  0 0 0"|forces="0 1 0  0 0 0"|' still.scn > loose.scn
scene 2 loose.scn --solver.steps=1
check "a force on points no stiffness holds: one error line naming the massless step" \
  test "$(grep -c 'euler-implicit: error: .*linear solve.*mass.type = none.*singular' \
    run.err)" = 1
[ "$failures" -eq 0 ] || show

echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
