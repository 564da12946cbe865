#!/usr/bin/env bash
# A controller's read of a MechanicalObject's constraint matrix under euler-implicit --scene
# (SofaPython3's MechanicalObject.constraint.value: SOFA's CompressedRowSparseMatrixConstraint
# after applyProjectiveConstraintOnConstraintMatrix, as a scipy.sparse CSR matrix of SOFA's
# AutoSize shape, one stored block of 3 per node a row touches, its zeros included), read in
# onBuildConstraintSystemEndEvent of step 1:
#  - the two-edge pendulum of constraint_solver.sh (DistanceMapping + UniformLagrangianConstraint,
#    node 0 fixed by a FixedProjectiveConstraint): J's rows are -u on a and u on b at x_0, u the
#    edge's direction, node 0's block cleared: shape (2, 9), 9 stored entries;
#  - four points held by a FixedLagrangianConstraint on indices 3 and 1: rows 0..2 the unit
#    blocks of node 3, rows 3..5 those of node 1: shape (6, 12), 18 stored entries;
# both exactly (1e-15), on 1 and 2 ranks. The constraint matrix of the mapped child (the
# pendulum's lengths, which the run does not simulate as a state) is one error line.
# Usage: constraint_matrix.sh <python3 with numpy and scipy> <euler-implicit> <meshes dir>.
set -u
RANKS=2  # MPI ranks per run at most (tests/CMakeLists.txt: PROCESSORS)
# shellcheck source=SCRIPTDIR/../common/python_test.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/python_test.sh"
scene() {  # scene RANKS FILE ARGS...: mpiexec -n RANKS euler-implicit --scene FILE ARGS
  rm -f J.txt
  mpi_command "$1" "$EXE"
  PATH=$(dirname "$PYTHON"):$PATH timeout 120 "${MPI_COMMAND[@]}" --scene "$2" --quiet \
    "${@:3}" > run.out 2> run.err
}

cat > reader.py << 'EOF'
import numpy
import Sofa.Core


class Reader(Sofa.Core.Controller):
    """Writes the state's constraint matrix of step 1: shape, format and stored entries."""

    def __init__(self, *args, **kwargs):
        Sofa.Core.Controller.__init__(self, *args, **kwargs)
        self.state = kwargs["state"]
        self.done = False

    def onBuildConstraintSystemEndEvent(self, event):
        if self.done:
            return
        self.done = True
        j = self.state.constraint.value
        coo = j.tocoo()
        with open("J.txt", "w") as out:
            out.write("%s %d %d %d %d\n" % (j.format, j.shape[0], j.shape[1], j.ndim, j.nnz))
            for r, c, v in sorted(zip(coo.row, coo.col, coo.data)):
                out.write("%d %d %.17g\n" % (r, c, v))
EOF

cat > pendulum.py << 'EOF'
from reader import Reader

STATE = "dofs"


def createScene(root):
    root.dt = 0.01
    root.gravity = [0, -9.81, 0]
    root.addObject("FreeMotionAnimationLoop", solveVelocityConstraintFirst=True)
    root.addObject("BlockGaussSeidelConstraintSolver", tolerance=1e-13, maxIterations=10000)
    root.addObject("EulerImplicitSolver", rayleighMass=0, rayleighStiffness=0)
    root.addObject("EigenSimplicialLLT", template="CompressedRowSparseMatrixMat3x3d")
    root.addObject("GenericConstraintCorrection")
    root.addObject("EdgeSetTopologyContainer", name="topo",
                   position=[[0, 0, 0], [0.6, 0.8, 0], [1.6, 0.8, 0]], edges=[[0, 1], [1, 2]])
    state = root.addObject("MechanicalObject", name="dofs", template="Vec3d")
    root.addObject("FixedProjectiveConstraint", indices=[0])
    root.addObject("DiagonalMass", totalMass=3)
    lengths = root.addChild("lengths")
    child = lengths.addObject("MechanicalObject", template="Vec1d")
    lengths.addObject("DistanceMapping", topology="@topo")
    lengths.addObject("UniformLagrangianConstraint", template="Vec1d", iterative=True)
    root.addObject(Reader(name="reader", state=state if STATE == "dofs" else child))
EOF

cat > points.py << 'EOF'
from reader import Reader


def createScene(root):
    root.dt = 0.01
    root.gravity = [0, -9.81, 0]
    root.addObject("FreeMotionAnimationLoop")
    root.addObject("BlockGaussSeidelConstraintSolver", tolerance=1e-13, maxIterations=1000)
    root.addObject("EulerImplicitSolver")
    root.addObject("EigenSimplicialLLT", template="CompressedRowSparseMatrixMat3x3d")
    root.addObject("GenericConstraintCorrection")
    state = root.addObject("MechanicalObject", template="Vec3d",
                           position=[[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]])
    root.addObject("UniformMass", totalMass=4)
    root.addObject("FixedLagrangianConstraint", indices=[3, 1])
    root.addObject(Reader(name="reader", state=state))
EOF

# expect.py KIND J.txt: the matrix read equals the one written here from SOFA's definitions.
cat > expect.py << 'EOF'
import sys

import numpy as np

kind, path = sys.argv[1], sys.argv[2]
if kind == "pendulum":
    x0 = np.array([[0, 0, 0], [0.6, 0.8, 0], [1.6, 0.8, 0]], float)
    rows, columns = 2, 9
    blocks = {}
    for k, (a, b) in enumerate([(0, 1), (1, 2)]):
        u = (x0[b] - x0[a]) / np.linalg.norm(x0[b] - x0[a])
        blocks[k, a] = -u
        blocks[k, b] = u
    del blocks[0, 0]  # FixedProjectiveConstraint on node 0: its block cleared
else:
    rows, columns = 6, 12
    blocks = {(3 * i + d, node): np.eye(3)[d] for i, node in enumerate([3, 1]) for d in range(3)}
want = sorted((r, 3 * node + d, u[d]) for (r, node), u in blocks.items() for d in range(3))
with open(path) as f:
    head = f.readline().split()
    got = [(int(r), int(c), float(v)) for r, c, v in (line.split() for line in f)]
if head != ["csr", str(rows), str(columns), "2", str(len(want))]:
    sys.exit("read %s, expected csr %d %d 2 %d" % (" ".join(head), rows, columns, len(want)))
if [g[:2] for g in got] != [w[:2] for w in want]:
    sys.exit("stored entries %s, expected %s" % ([g[:2] for g in got], [w[:2] for w in want]))
gap = max(abs(g[2] - w[2]) for g, w in zip(got, want))
if gap > 1e-15:
    sys.exit("values differ by %g" % gap)
EOF

for n in 1 2; do
  check "the pendulum runs a step on $n ranks" scene $n pendulum.py --solver.steps=1 || show
  check "its constraint matrix is J at x_0, node 0's block cleared (shape (2, 9), 1e-15)" \
    "$PYTHON" expect.py pendulum J.txt
  check "four points held by a FixedLagrangianConstraint run a step on $n ranks" \
    scene $n points.py --solver.steps=1 || show
  check "its constraint matrix is the unit blocks of nodes 3 and 1 (shape (6, 12))" \
    "$PYTHON" expect.py points J.txt
done
sed 's/^STATE = "dofs"/STATE = "lengths"/' pendulum.py > child.py
child_refused() {
  ! scene 2 child.py --solver.steps=1 &&
    [ "$(grep -c "error:.*lengths.*not a body of the run" run.err)" -eq 1 ]
}
check "the mapped child's constraint matrix is one error line naming it" child_refused || show

echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
