#!/usr/bin/env bash
# The matrices a Python controller reads of the run under euler-implicit --scene (SofaPython3's
# ForceField.assembleKMatrix and Mass.assembleMMatrix, app/component_matrices), on a grid of
# 2 x 2 x 3 nodes (36 unknowns) at the end of step 2:
#  - a UniformMass of totalMass 3: M = 0.25 I exactly; RestShapeSpringsForceField of stiffness 7
#    on nodes 1 and 5: K = df/dx is -7 on those 6 diagonal entries and zero elsewhere, exactly;
#  - a HexahedronFEMForceField (large), the grid fixed at one end and fallen under gravity: K is
#    symmetric and takes every rigid translation to zero (to 1e-12 of its largest entry), the
#    fixed nodes' rows included (SOFA's read applies no projective constraint), and it is the
#    same on 1 and 2 ranks (to 1e-12);
#  - a force field's matrix read where the body has another force field is one error line.
# Usage: matrices.sh <python3 with numpy and scipy> <euler-implicit> <meshes dir>.
set -u
RANKS=2  # MPI ranks per run at most (tests/CMakeLists.txt: PROCESSORS)
PYTHON=$1
EXE=$(realpath "$2")
COMMON=$(realpath "$(dirname "${BASH_SOURCE[0]}")/../common")
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$COMMON/mpi_launch.sh"
launch_in_scratch "$RANKS" "$EXE"
# shellcheck source=SCRIPTDIR/../common/checks.sh
source "$COMMON/checks.sh"
show() { sed 's/^/     | /' run.out run.err; }
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
    """Saves the matrices read at the end of step 2 as dense arrays (FILE-K.npy, FILE-M.npy)."""

    def __init__(self, *args, **kwargs):
        Sofa.Core.Controller.__init__(self, *args, **kwargs)
        self.field, self.mass, self.steps = kwargs["field"], kwargs["mass"], 0

    def onAnimateEndEvent(self, event):
        self.steps += 1
        if self.steps == 2:
            out = os.environ["OUT"]
            numpy.save(out + "-K.npy", self.field.assembleKMatrix().toarray())
            numpy.save(out + "-M.npy", self.mass.assembleMMatrix().toarray())


def createScene(root):
    root.gravity = [0.0, -9.81, 0.0]
    root.dt = 0.05
    root.addObject("DefaultAnimationLoop")
    root.addObject("EulerImplicitSolver")
    root.addObject("CGLinearSolver", iterations=200, tolerance=1e-12, threshold=1e-20)
    root.addObject("MechanicalObject", name="dofs")
    root.addObject("RegularGridTopology", nx=2, ny=2, nz=3, xmin=0, xmax=1, ymin=0, ymax=1,
                   zmin=0, zmax=2)
    mass = root.addObject("UniformMass", name="mass", totalMass=3.0)
    fields = []
    if "FEM" in os.environ:
        fields.append(root.addObject("HexahedronFEMForceField", name="fem", youngModulus=500.0,
                                     poissonRatio=0.3, method="large"))
        root.addObject("FixedProjectiveConstraint", indices=[0, 1, 2, 3])
    if "SPRINGS" in os.environ:
        fields.append(root.addObject("RestShapeSpringsForceField", name="springs",
                                     stiffness=7.0, points=[1, 5]))
    root.addObject(Reader(name="reader", field=fields[-1], mass=mass))
EOF

SPRINGS=1 OUT=springs scene 2 grid.py --solver.steps=2
check "springs: M and K read on 2 ranks" test -s springs-K.npy -a -s springs-M.npy
[ "$failures" -eq 0 ] || show
check "springs: M = totalMass / n I and K = -7 on nodes 1 and 5's diagonal, exactly" \
  "$PYTHON" -c "
import numpy
M, K = numpy.load('springs-M.npy'), numpy.load('springs-K.npy')
expected = numpy.zeros((36, 36))
for node in (1, 5):
    for d in range(3):
        expected[3 * node + d, 3 * node + d] = -7.0
assert (M == 0.25 * numpy.eye(36)).all() and (K == expected).all(), (M, K)"

for ranks in 1 2; do
  FEM=1 OUT=fem$ranks scene "$ranks" grid.py --solver.steps=2
  check "FEM: K read on $ranks rank(s)" test -s "fem$ranks-K.npy"
  [ "$failures" -eq 0 ] || show
done
check "FEM: K symmetric, rigid translations in its null space (fixed rows too), 1e-12" \
  "$PYTHON" -c "
import numpy
K = numpy.load('fem2-K.npy')
scale = abs(K).max()
assert scale > 0 and abs(K - K.T).max() <= 1e-12 * scale
for d in range(3):
    t = numpy.zeros(36)
    t[d::3] = 1.0
    assert abs(K @ t).max() <= 1e-12 * scale, abs(K @ t).max()
assert abs(K[:12]).max() > 0"
check "FEM: the same K on 1 and 2 ranks (1e-12)" "$PYTHON" -c "
import numpy
a, b = numpy.load('fem1-K.npy'), numpy.load('fem2-K.npy')
assert abs(a - b).max() <= 1e-12 * abs(a).max(), abs(a - b).max()"

FEM=1 SPRINGS=1 OUT=both scene 2 grid.py --solver.steps=2
check "both: the springs' K alone is refused with one error line" \
  test "$(grep -c 'euler-implicit: error: .*/springs: the body of / also has .*/fem' run.err)" = 1
[ "$failures" -eq 0 ] || show

echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
