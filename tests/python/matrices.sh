#!/usr/bin/env bash
# The matrices a Python controller reads of the run under euler-implicit --scene (SofaPython3's
# ForceField.assembleKMatrix and Mass.assembleMMatrix, app/component_matrices), on a grid of
# 3 x 3 x 4 nodes (108 unknowns; 2 ranks both hold cells) at the end of step 2:
#  - a UniformMass of totalMass 9: M = 0.25 I (to 1e-15: our lumped mass sums the cells' shares
#    of each node); RestShapeSpringsForceField of stiffness 7
#    on nodes 1 and 5: K = df/dx is -7 on those 6 diagonal entries and zero elsewhere, exactly;
#  - a HexahedronFEMForceField (large), the grid fixed at one end and fallen under gravity: K is
#    symmetric and takes every rigid translation to zero (to 1e-12 of its largest entry), the
#    fixed nodes' rows included (SOFA's read applies no projective constraint), and it is the
#    same on 1 and 2 ranks (to 1e-12);
#  - with a MatrixLinearSystem, a linear FEM (small) and Rayleigh damping (rM 0.1, rK 0.2), the
#    last solve's A, b and x (SofaPython3's get_system_matrix, get_rhs_vector, x): A equals
#    (1 + h rM) M - h (h + rK) K built from the K and M read, with the fixed unknowns' rows and
#    columns cleared and 1 on the diagonal (MatrixLinearSystem's Dirichlet rows), A x = b, and
#    all three the same on 1 and 2 ranks;
#  - the same reads in the script's process (mpiexec -n N python3 grid.py), on every rank,
#    equal to those under --scene bit for bit;
#  - a force field's matrix read where the body has another force field is one error line;
#  - SOFA's mass-only MatrixLinearSystem beside the solved one under a CompositeLinearSystem
#    (SofaPython3's access_mass_matrix.py), over two bodies in two nodes, UniformMass 9 on
#    3 x 3 x 4 nodes then 2 on 2 x 2 x 2, both with FEM and fixed nodes: its A() is
#    (1 + h rM) M, block diagonal in graph order, 0.25 (1 + h rM) on the first 108 unknowns and
#    0.25 (1 + h rM) on the next 24 (1e-14), the fixed nodes' rows kept
#    (applyProjectiveConstraints false), on 1 and 2 ranks; its b() and a stiffness-only
#    system's A() are refused, each with its message.
# Usage: matrices.sh <python3 with numpy and scipy> <euler-implicit> <meshes dir>.
set -u
RANKS=2  # MPI ranks per run at most (tests/CMakeLists.txt: PROCESSORS)
# shellcheck source=SCRIPTDIR/../common/python_test.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/python_test.sh"
scene() {  # scene RANKS FILE ARGS...: mpiexec -n RANKS euler-implicit --scene FILE ARGS
  mpi_command "$1" "$EXE"
  PATH=$(dirname "$PYTHON"):$PATH timeout 120 "${MPI_COMMAND[@]}" --scene "$2" --quiet \
    "${@:3}" > run.out 2> run.err
}

cat > grid.py << 'EOF'
import os

import numpy
import Sofa.Core


class Reader(Sofa.Core.Controller):
    """Saves the matrices read at the end of step 2 as dense arrays (OUT-PID-K.npy, ...: in the
    script's process every rank reads them)."""

    def __init__(self, *args, **kwargs):
        Sofa.Core.Controller.__init__(self, *args, **kwargs)
        self.field, self.mass, self.steps = kwargs["field"], kwargs["mass"], 0
        self.system = kwargs.get("system")

    def onAnimateEndEvent(self, event):
        self.steps += 1
        if self.steps == 2:
            out = "%s-%d" % (os.environ["OUT"], os.getpid())
            numpy.save(out + "-K.npy", self.field.assembleKMatrix().toarray())
            numpy.save(out + "-M.npy", self.mass.assembleMMatrix().toarray())
            if self.system:
                numpy.save(out + "-A.npy", self.system.get_system_matrix().toarray())
                numpy.save(out + "-b.npy", self.system.get_rhs_vector())
                numpy.save(out + "-x.npy", self.system.x())


def createScene(root):
    root.gravity = [0.0, -9.81, 0.0]
    root.dt = 0.05
    root.addObject("DefaultAnimationLoop")
    root.addObject("EulerImplicitSolver", rayleighMass=0.1, rayleighStiffness=0.2)
    root.addObject("CGLinearSolver", iterations=500, tolerance=1e-14, threshold=1e-30)
    system = None
    if "SYSTEM" in os.environ:
        system = root.addObject("MatrixLinearSystem", name="system")
    root.addObject("MechanicalObject", name="dofs")
    root.addObject("RegularGridTopology", nx=3, ny=3, nz=4, xmin=0, xmax=1, ymin=0, ymax=1,
                   zmin=0, zmax=3)
    mass = root.addObject("UniformMass", name="mass", totalMass=9.0)
    fields = []
    if "FEM" in os.environ:
        fields.append(root.addObject("HexahedronFEMForceField", name="fem", youngModulus=500.0,
                                     poissonRatio=0.3, method=os.environ["FEM"]))
        root.addObject("FixedProjectiveConstraint", indices=list(range(9)))
    if "SPRINGS" in os.environ:
        fields.append(root.addObject("RestShapeSpringsForceField", name="springs",
                                     stiffness=7.0, points=[1, 5]))
    root.addObject(Reader(name="reader", field=fields[-1], mass=mass, system=system))


if __name__ == "__main__":
    import Sofa.Simulation
    root = Sofa.Core.Node("root")
    createScene(root)
    Sofa.Simulation.init(root)
    for step in range(2):
        Sofa.Simulation.animate(root, root.dt.value)
EOF

cat > load.py << 'EOF'
import glob

import numpy


def load(prefix, name):
    """The array saved as PREFIX-PID-NAME.npy, the same in every file (every rank's)."""
    files = sorted(glob.glob("%s-[0-9]*-%s.npy" % (prefix, name)))
    assert files, "no %s-*-%s.npy" % (prefix, name)
    arrays = [numpy.load(f) for f in files]
    assert all(a.shape == arrays[0].shape and (a == arrays[0]).all() for a in arrays), files
    return arrays[0]
EOF

SPRINGS=1 OUT=springs scene 2 grid.py --solver.steps=2
check "springs: M and K read on 2 ranks" "$PYTHON" -c "from load import load; load('springs', 'M')"
[ "$failures" -eq 0 ] || show
check "springs: M = totalMass / n I (1e-15) and K = -7 on nodes 1 and 5's diagonal, exactly" \
  "$PYTHON" -c "
import numpy
from load import load
M, K = load('springs', 'M'), load('springs', 'K')
expected = numpy.zeros((108, 108))
for node in (1, 5):
    for d in range(3):
        expected[3 * node + d, 3 * node + d] = -7.0
assert abs(M - 0.25 * numpy.eye(108)).max() <= 1e-15 and (K == expected).all(), (M, K)"

for ranks in 1 2; do
  FEM=large OUT=fem$ranks scene "$ranks" grid.py --solver.steps=2
  check "FEM: K read on $ranks rank(s)" "$PYTHON" -c "from load import load; load('fem$ranks', 'K')"
  [ "$failures" -eq 0 ] || show
done
check "FEM: K symmetric, rigid translations in its null space (fixed rows too), 1e-12" \
  "$PYTHON" -c "
import numpy
from load import load
K = load('fem2', 'K')
scale = abs(K).max()
assert scale > 0 and abs(K - K.T).max() <= 1e-12 * scale
for d in range(3):
    t = numpy.zeros(108)
    t[d::3] = 1.0
    assert abs(K @ t).max() <= 1e-12 * scale, abs(K @ t).max()
assert abs(K[:27]).max() > 0"
check "FEM: the same K on 1 and 2 ranks (1e-12)" "$PYTHON" -c "
from load import load
a, b = load('fem1', 'K'), load('fem2', 'K')
assert abs(a - b).max() <= 1e-12 * abs(a).max(), abs(a - b).max()"

for ranks in 1 2; do
  SYSTEM=1 FEM=small OUT=system$ranks scene "$ranks" grid.py --solver.steps=2
  check "system: A, b and x read on $ranks rank(s)" \
    "$PYTHON" -c "from load import load; load('system$ranks', 'x')"
  [ "$failures" -eq 0 ] || show
  check "system, $ranks rank(s): A from K and M, fixed rows e_i (1e-12), A x = b (1e-9)" \
    "$PYTHON" -c "
import numpy
from load import load
A, K, M, b, x = (load('system$ranks', n) for n in 'AKMbx')
h, rM, rK = 0.05, 0.1, 0.2
free = numpy.ones(108)
free[:27] = 0.0
P = numpy.diag(free)
expected = P @ ((1 + h * rM) * M - h * (h + rK) * K) @ P + numpy.eye(108) - P
assert abs(A - expected).max() <= 1e-12 * abs(A).max(), abs(A - expected).max()
assert abs(b).max() > 0 and abs(A @ x - b).max() <= 1e-9 * abs(b).max(), abs(A @ x - b).max()"
done
check "system: the same A, b and x on 1 and 2 ranks (1e-12; x to 1e-9)" "$PYTHON" -c "
from load import load
for n, tol in (('A', 1e-12), ('b', 1e-12), ('x', 1e-9)):
    a, b = load('system1', n), load('system2', n)
    assert abs(a - b).max() <= tol * abs(a).max(), (n, abs(a - b).max())"

# The same reads in the script's process (mpiexec -n N python3 grid.py, every rank reading).
export PYTHONPATH
PYTHONPATH=$(dirname "$EXE")/../share/euler-implicit/python
unset EULER_IMPLICIT_LAUNCH EULER_IMPLICIT_RANKS
for ranks in 1 2; do
  mpi_command "$ranks" "$PYTHON"
  SYSTEM=1 FEM=small OUT=script$ranks EULER_IMPLICIT_ARGS="--quiet" timeout 120 \
    "${MPI_COMMAND[@]}" -B grid.py > run.out 2> run.err
  check "python3 grid.py on $ranks rank(s): every rank reads A, b, x, K and M as --scene does" \
    "$PYTHON" -c "
from load import load
for n in 'AbxKM':
    assert (load('script$ranks', n) == load('system$ranks', n)).all(), n"
  [ "$failures" -eq 0 ] || show
done

FEM=large SPRINGS=1 OUT=both scene 2 grid.py --solver.steps=2
check "both: the springs' K alone is refused with one error line" \
  test "$(grep -c 'euler-implicit: error: .*/springs: the body of / also has .*/fem' run.err)" = 1
[ "$failures" -eq 0 ] || show

cat > two.py << 'EOF'
import os

import numpy
import Sofa.Core


class Reader(Sofa.Core.Controller):
    """Saves the mass-only system's A() at the end of step 2 (OUT-PID-MA.npy), and the
    messages of the reads refused (OUT-PID-refused.txt)."""

    def __init__(self, *args, **kwargs):
        Sofa.Core.Controller.__init__(self, *args, **kwargs)
        self.mass, self.stiffness, self.steps = kwargs["mass"], kwargs["stiffness"], 0

    def onAnimateEndEvent(self, event):
        self.steps += 1
        if self.steps == 2:
            out = "%s-%d" % (os.environ["OUT"], os.getpid())
            numpy.save(out + "-MA.npy", self.mass.A().toarray())
            refused = []
            for read in (self.mass.b, self.stiffness.A):
                try:
                    read()
                    refused.append("read")
                except Exception as e:
                    refused.append(str(e))
            with open(out + "-refused.txt", "w") as f:
                f.write("\n".join(refused) + "\n")


def createScene(root):
    root.dt = 0.05
    root.addObject("DefaultAnimationLoop")
    root.addObject("EulerImplicitSolver", rayleighMass=0.1, rayleighStiffness=0.2)
    matrices = root.addChild("matrices")
    matrices.addObject("MatrixLinearSystem", name="system")
    mass = matrices.addObject("MatrixLinearSystem", name="M", assembleStiffness=False,
                              assembleDamping=False, assembleGeometricStiffness=False,
                              applyProjectiveConstraints=False)
    stiffness = matrices.addObject("MatrixLinearSystem", name="K", assembleMass=False,
                                   assembleDamping=False, applyProjectiveConstraints=False)
    root.addObject("CompositeLinearSystem", name="composite",
                   linearSystems="@matrices/system @matrices/M "
                   "@matrices/K", solverLinearSystem="@matrices/system")
    root.addObject("CGLinearSolver", iterations=500, tolerance=1e-14, threshold=1e-30,
                   linearSystem="@composite")
    for name, n, total in (("big", (3, 3, 4), 9.0), ("small", (2, 2, 2), 2.0)):
        body = root.addChild(name)
        body.addObject("MechanicalObject", name="dofs")
        body.addObject("RegularGridTopology", nx=n[0], ny=n[1], nz=n[2], xmin=0, xmax=1,
                       ymin=0, ymax=1, zmin=0, zmax=n[2] - 1)
        body.addObject("UniformMass", name="mass", totalMass=total)
        body.addObject("HexahedronFEMForceField", youngModulus=500.0, poissonRatio=0.3)
        body.addObject("FixedProjectiveConstraint", indices=list(range(n[0] * n[1])))
    matrices.addObject(Reader(name="reader", mass=mass, stiffness=stiffness))
EOF
for ranks in 1 2; do
  OUT=two$ranks scene "$ranks" two.py --solver.steps=2
  check "mass-only system read on $ranks rank(s)" \
    "$PYTHON" -c "from load import load; load('two$ranks', 'MA')"
  [ "$failures" -eq 0 ] || show
  check "mass-only system, $ranks rank(s): A = (1 + h rM) M, both bodies in graph order (1e-14)" \
    "$PYTHON" -c "
import numpy
from load import load
A = load('two$ranks', 'MA')
m = 1 + 0.05 * 0.1
expected = numpy.diag([m * 9.0 / 36] * 108 + [m * 2.0 / 8] * 24)
assert A.shape == expected.shape and abs(A - expected).max() <= 1e-14, abs(A - expected).max()"
  check "mass-only system, $ranks rank(s): its b() and a stiffness-only system's A() refused" \
    "$PYTHON" -c "
import glob
lines = open(sorted(glob.glob('two$ranks-[0-9]*-refused.txt'))[0]).read().splitlines()
assert 'matrices/M: the right-hand side and solution of a linear system assembled beside' \
    in lines[0], lines
assert 'matrices/K: a linear system that leaves out part of the matrix (assembleMass, ' \
    'assembleDamping, applyProjectiveConstraints false) is read only as SOFA' in lines[1], lines"
done

echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
