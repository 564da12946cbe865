#!/usr/bin/env bash
# A controller's reads of the constraint problem under euler-implicit --scene (SofaPython3's
# Sofa.SofaConstraintSolver: a BlockGaussSeidelConstraintSolver's W(), lambda_force() and dfree()
# (W f = -dfree to 1e-12), in
# onBuildConstraintSystemEndEvent and onSolveConstraintSystemEndEvent, which the run sends after
# each step under FreeMotionAnimationLoop, before AnimateEndEvent), on a two-edge pendulum whose
# lengths a UniformLagrangianConstraint on a DistanceMapping child holds: the first step's W and
# forces, and the state, against SOFA's step computed with numpy
# (tests/common/distance_step.py), to 1e-9, on 1 and 2 ranks; the events come in SOFA's order,
# once per step each (a MechanicalObject's constraint matrix: constraint_matrix.sh).
# Usage: constraint_solver.sh <python3 with numpy> <euler-implicit> <meshes dir>.
set -u
RANKS=2  # MPI ranks per run at most (tests/CMakeLists.txt: PROCESSORS)
# shellcheck source=SCRIPTDIR/../common/python_test.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/python_test.sh"
scene() {  # scene RANKS FILE ARGS...: mpiexec -n RANKS euler-implicit --scene FILE ARGS
  mpi_command "$1" "$EXE"
  PATH=$(dirname "$PYTHON"):$PATH timeout 120 "${MPI_COMMAND[@]}" --scene "$2" --quiet \
    "${@:3}" > run.out 2> run.err
}

cat > pendulum.py << 'EOF'
import numpy
import Sofa.Core
from Sofa import SofaConstraintSolver  # noqa: F401 (as access_compliance_matrix.py)


class Reader(Sofa.Core.Controller):
    def __init__(self, *args, **kwargs):
        Sofa.Core.Controller.__init__(self, *args, **kwargs)
        self.solver = kwargs["solver"]
        self.log = open("events.txt", "w")

    def onAnimateBeginEvent(self, event):
        self.log.write("begin\n")

    def onBuildConstraintSystemEndEvent(self, event):
        self.log.write("build\n")
        w = self.solver.W()
        if not (w.shape == (2, 2) and w.ndim == 2 and w.dtype == numpy.float64):
            raise ValueError("W is %r" % (w,))
        numpy.savetxt("W.txt", w, fmt="%.17g")

    def onSolveConstraintSystemEndEvent(self, event):
        self.log.write("solve\n")
        numpy.savetxt("lambda.txt", self.solver.lambda_force(), fmt="%.17g")
        # W f = -dfree: the Gauss-Seidel's answer.
        w, f, d = self.solver.W(), self.solver.lambda_force(), self.solver.dfree()
        if not numpy.allclose(w @ f, -d, rtol=0, atol=1e-12):
            raise ValueError("W f + dfree = %r" % (w @ f + d,))

    def onAnimateEndEvent(self, event):
        self.log.write("end\n")
        self.log.flush()


def createScene(root):
    root.dt = 0.01
    root.gravity = [0, -9.81, 0]
    root.addObject("FreeMotionAnimationLoop", solveVelocityConstraintFirst=True)
    solver = root.addObject("BlockGaussSeidelConstraintSolver", tolerance=1e-13,
                            maxIterations=10000)
    root.addObject("EulerImplicitSolver", rayleighMass=0, rayleighStiffness=0)
    root.addObject("EigenSimplicialLLT", template="CompressedRowSparseMatrixMat3x3d")
    root.addObject("GenericConstraintCorrection")
    root.addObject("EdgeSetTopologyContainer", name="topo",
                   position=[[0, 0, 0], [0.6, 0.8, 0], [1.6, 0.8, 0]], edges=[[0, 1], [1, 2]])
    root.addObject("MechanicalObject", name="dofs", template="Vec3d")
    root.addObject("FixedProjectiveConstraint", indices=[0])
    root.addObject("DiagonalMass", totalMass=3)
    lengths = root.addChild("lengths")
    lengths.addObject("MechanicalObject", template="Vec1d")
    lengths.addObject("DistanceMapping", topology="@topo")
    lengths.addObject("UniformLagrangianConstraint", template="Vec1d", iterative=True)
    root.addObject(Reader(name="reader", solver=solver))
EOF

for n in 1 2; do
  check "the pendulum runs a step on $n ranks" scene $n pendulum.py --solver.steps=1 \
    --output.final-state=state$n.csv || show
  check "its W, forces and state are SOFA's step, computed with numpy (1e-9)" \
    "$PYTHON" "$COMMON/distance_step.py" first vel state$n.csv lambda.txt 1e-9 W.txt
done
check "two steps run" scene 2 pendulum.py --solver.steps=2 || show
check "the events come in SOFA's order, once per step each" \
  test "$(tr '\n' ' ' < events.txt)" = "begin build solve end begin build solve end "

echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
