#!/usr/bin/env bash
# Force fields written in Python (Sofa.Core.ForceFieldVec3d subclasses, model/
# gathered_force_field) in the script's process, `mpiexec -n N python3 scene.py`:
#  - a one-DOF oscillator: node 3 of one tetrahedron (the others fixed), mass m = 3, held by a
#    Python spring of k = 16 to where it starts, given v0 = 1 along x; SOFA's implicit Euler step
#    with h = 0.25 (h^2 k / m = 1/3) gives v1 = v0 / (4/3) - ..., exact in binary: (x, v) =
#    (0.1875, 0.75), (0.28125, 0.375), (0.28125, 0) after steps 1 to 3. Checked on 1 and 2 ranks,
#    assembled (addKToMatrix as rows (i, j, value), then as SofaPython3's dense N x N x 1 array)
#    and matrix-free (addDForce);
#  - the beam: Python rest-shape springs on the free end equal RestShapeSpringsForceField to
#    rounding, and Python springs between neighbouring nodes (off-diagonal K) give the same state
#    assembled on 1 and 2 ranks as matrix-free on 1 (the assembled entries are placed once);
#  - an exception inside addForce ends every rank with one error line naming the .py file, its
#    line and the step;
#  - under euler-implicit --scene (the controllers' python3 computes the field): the oscillator
#    by hand, the final states (it and the beam with Python springs) bit-identical (cmp) to
#    python3 scene.py's on 1 and 2 ranks, the exception's line, and python3 killed in addForce.
# The scenes' CGLinearSolver has the importer never call addKToMatrix, as SOFA's CG does not
# (python.add-k-to-matrix = false): the runs that choose an operator ask for it back.
# Usage: force_fields.sh <python3 with numpy> <euler-implicit> <meshes dir>.
set -u
RANKS=2  # MPI ranks per run at most (tests/CMakeLists.txt: PROCESSORS)
DATA=$(realpath "$3/../tests/data/sofa")
# shellcheck source=SCRIPTDIR/../common/python_test.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/python_test.sh"
export PYTHONPATH
PYTHONPATH=$(dirname "$EXE")/../share/euler-implicit/python
unset EULER_IMPLICIT_LAUNCH EULER_IMPLICIT_RANKS
count() { grep -o "$1" run.out | wc -l; }
# py RANKS SCRIPT ARGS...: mpiexec -n RANKS python3 SCRIPT, euler-implicit's ARGS in
# EULER_IMPLICIT_ARGS, output in run.out and run.err.
py() {
  mpi_command "$1" "$PYTHON"
  EULER_IMPLICIT_ARGS="--quiet ${*:3}" timeout 120 "${MPI_COMMAND[@]}" -B "$2" > run.out 2> run.err
}

cat > osc.py << 'EOF'
import os
import sys

import numpy
import Sofa.Core
import Sofa.Simulation


class Spring(Sofa.Core.ForceFieldVec3d):
    """A spring tying node 3 to where it starts, as SofaPython3's examples write one."""

    def __init__(self, *args, **kwargs):
        Sofa.Core.ForceFieldVec3d.__init__(self, *args, **kwargs)
        self.addData("ks", type="float", value=kwargs.get("ks"), help="stiffness")

    def init(self):
        self.rest = self.getContext().dofs.position.array()[3].copy()

    def addForce(self, m, f, x, v):
        if m["time"] > 0.2 and "FAIL" in os.environ:
            raise ValueError("no force at t = %g" % m["time"])
        with f.writeableArray() as a:
            a[3] -= self.ks.value * (x.value[3] - self.rest)

    def addDForce(self, m, df, dx):
        with df.writeableArray() as a:
            a[3] -= m["kFactor"] * self.ks.value * dx[3]

    def addKToMatrix(self, m, nNodes, nDofs):
        k = -m["kFactor"] * self.ks.value
        if "DENSE" in os.environ:
            K = numpy.zeros((nNodes * nDofs, nNodes * nDofs, 1))
            for d in range(nDofs):
                K[3 * nDofs + d, 3 * nDofs + d] = k
            return K
        return numpy.array([[3 * nDofs + d, 3 * nDofs + d, k] for d in range(nDofs)])


def createScene(root):
    root.dt = 0.25
    root.gravity = [0.0, 0.0, 0.0]
    n = root.addChild("point")
    n.addObject("EulerImplicitSolver", rayleighStiffness=0.0, rayleighMass=0.0)
    n.addObject("CGLinearSolver", iterations=100, tolerance=1e-30, threshold=1e-30)
    n.addObject("TetrahedronSetTopologyContainer", name="topo",
                position=[[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], tetrahedra=[[0, 1, 2, 3]])
    n.addObject("MechanicalObject", name="dofs", template="Vec3d",
                velocity=[[0, 0, 0], [0, 0, 0], [0, 0, 0], [1, 0, 0]])
    n.addObject("UniformMass", vertexMass=3.0)
    n.addObject(Spring(name="spring", ks=16.0))
    n.addObject("FixedProjectiveConstraint", indices=[0, 1, 2])


if __name__ == "__main__":
    root = Sofa.Core.Node("root")
    createScene(root)
    Sofa.Simulation.init(root)
    for k in range(3):
        Sofa.Simulation.animate(root, root.dt.value)
        dofs = root.point.dofs
        print("node3 %d %r %r" % (k + 1, dofs.position.value[3].tolist(),
                                  dofs.velocity.value[3].tolist()))
EOF
for ranks in 1 2; do
  for op in assembled matrix-free dense; do
    if [ "$op" = dense ]; then
      DENSE=1 py "$ranks" osc.py --solver.operator=assembled --python.add-k-to-matrix=true
    else
      py "$ranks" osc.py --solver.operator=$op --python.add-k-to-matrix=true
    fi
    check "a Python spring, one-DOF oscillator, $op, $ranks rank(s): (x, v) by hand at steps 1..3" \
      test "$(count 'node3 1 \[0.1875, 0.0, 1.0\] \[0.75, 0.0, 0.0\]')$(count 'node3 2 \[0.28125, 0.0, 1.0\] \[0.375, 0.0, 0.0\]')$(count 'node3 3 \[0.28125, 0.0, 1.0\] \[0.0, 0.0, 0.0\]')" = "$ranks$ranks$ranks"
    [ "$failures" -eq 0 ] || show
  done
done

# An exception inside addForce at step 2 (SOFA's time in it: 0.25, the step's start), on every rank.
FAIL=1 py 2 osc.py
status=$?
check "an exception in addForce ends the job on 2 ranks (status $status)" \
  test "$status" -ne 0 -a "$status" -ne 124
check "with one error line naming osc.py, its line and step 2" \
  test "$(grep -c '^euler-implicit: error: step 2 (t = 0.5): osc.py:21: in Spring.addForce: ValueError: no force at t = 0.25; the state of step 1 was written to the configured outputs$' run.err)" -eq 1
check "and no step 2 printed" test "$(count 'node3 2')" -eq 0
[ "$failures" -eq 0 ] || show
# euler-implicit --scene FILE.py: the controllers' python3 computes the field, each call a request
# carrying the gathered arrays as raw doubles (io/python_remote_force_field.cpp). A probe prints
# node 3 after each step (rank 0's python3 only), and the final state equals, bit for bit, the
# script's own process's (python3 scene.py).
cat > probe.py << 'EOF'
import os
import signal

import Sofa.Core
import Sofa.Simulation
from osc import Spring, createScene as oscillator

if "DIE" in os.environ:  # python3 killed inside addForce
    Spring.addForce = lambda self, m, f, x, v: os.kill(os.getpid(), signal.SIGKILL)


class Probe(Sofa.Core.Controller):
    def __init__(self, *args, **kwargs):
        Sofa.Core.Controller.__init__(self, *args, **kwargs)
        self.step = 0

    def onAnimateEndEvent(self, event):
        self.step += 1
        dofs = self.getContext().point.dofs
        print("probe %d %r %r" % (self.step, dofs.position.value[3].tolist(),
                                  dofs.velocity.value[3].tolist()))


def createScene(root):
    oscillator(root)
    root.addObject(Probe(name="probe"))


if __name__ == "__main__":
    root = Sofa.Core.Node("root")
    createScene(root)
    Sofa.Simulation.init(root)
    for k in range(3):
        Sofa.Simulation.animate(root, root.dt.value)
EOF
scene() {  # scene RANKS FILE ARGS...: mpiexec -n RANKS euler-implicit --scene FILE ARGS
  mpi_command "$1" "$EXE"
  PATH=$(dirname "$PYTHON"):$PATH timeout 120 "${MPI_COMMAND[@]}" --scene "$2" --quiet \
    "${@:3}" > run.out 2> run.err
}
for ranks in 1 2; do
  for op in assembled matrix-free; do
    scene "$ranks" probe.py --solver.steps=3 --solver.operator=$op \
      --python.add-k-to-matrix=true --output.final-state=scene.csv
    check "--scene, a Python spring, $op, $ranks rank(s): (x, v) by hand at steps 1..3" \
      test "$(count 'probe 1 \[0.1875, 0.0, 1.0\] \[0.75, 0.0, 0.0\]')$(count 'probe 2 \[0.28125, 0.0, 1.0\] \[0.375, 0.0, 0.0\]')$(count 'probe 3 \[0.28125, 0.0, 1.0\] \[0.0, 0.0, 0.0\]')" = 111
    [ "$failures" -eq 0 ] || show
    py "$ranks" probe.py --solver.operator=$op \
      --python.add-k-to-matrix=true --output.final-state=script.csv
    check "--scene and python3 scene.py, $op, $ranks rank(s): bit-identical final states" \
      cmp scene.csv script.csv
    [ "$failures" -eq 0 ] || show
    rm -f scene.csv script.csv
  done
done
FAIL=1 scene 2 probe.py --solver.steps=3
status=$?
check "--scene: an exception in addForce ends the job on 2 ranks (status $status)" \
  test "$status" -ne 0 -a "$status" -ne 124
grep '^euler-implicit: error:' run.err > scene.err
check "with one error line naming osc.py, its line and step 2" \
  test "$(grep -c ': error: step 2 (t = 0.5): .*osc.py:21: in Spring.addForce: ValueError: no force at t = 0.25; the state of step 1 was written to the configured outputs$' scene.err)" -eq 1
check "and no step 2 printed" test "$(count 'probe 2')" -eq 0
[ "$failures" -eq 0 ] || show
FAIL=1 py 2 probe.py
check "the same line as python3 scene.py's" cmp scene.err <(grep '^euler-implicit: error:' run.err)
[ "$failures" -eq 0 ] || show
DIE=1 scene 2 probe.py --solver.steps=3
status=$?
check "--scene: python3 killed inside addForce ends the job on 2 ranks (status $status)" \
  test "$status" -ne 0 -a "$status" -ne 124
check "with one error line naming probe.py, the field, the method and step 1" \
  test "$(grep -c '^euler-implicit: error: step 1 (t = 0.25): probe.py: /point/spring addForce: python3 running the controllers ended without a word' run.err)" -eq 1
[ "$failures" -eq 0 ] || show

# The beam: Python springs on it (numpy, every node at once) against the built-in ones.
ln -s "$DATA/beam-small.msh" beam-small.msh
cat > beam.py << 'EOF'
import os

import numpy
import Sofa.Core
import Sofa.Simulation

TIP = [90, 94, 98]


class RestSprings(Sofa.Core.ForceFieldVec3d):
    """Springs of stiffness k tying TIP to their rest positions."""

    def init(self):
        self.rest = self.getContext().dofs.position.array()[TIP].copy()

    def addForce(self, m, f, x, v):
        with f.writeableArray() as a:
            a[TIP] -= 2000.0 * (x.value[TIP] - self.rest)

    def addDForce(self, m, df, dx):
        with df.writeableArray() as a:
            a[TIP] -= m["kFactor"] * 2000.0 * dx.value[TIP]

    def addKToMatrix(self, m, nNodes, nDofs):
        return numpy.array([[3 * i + d, 3 * i + d, -2000.0 * m["kFactor"]]
                            for i in TIP for d in range(3)])


class Links(Sofa.Core.ForceFieldVec3d):
    """Linear springs f_a = -k (x_a - x_b - (X_a - X_b)) between the pairs of PAIRS (nodes of
    one tetrahedron)."""

    def init(self):
        self.rest = self.getContext().dofs.position.array().copy()
        with open("beam-small.msh") as mesh:
            lines = mesh.read().split("$Elements")[1].splitlines()[2:]
        tets = [[int(n) - 1 for n in line.split()[5:]] for line in lines
                if line.split()[1:2] == ["4"]]
        self.pairs = [(t[0], t[1]) for t in tets[::7]]
        if "FAR" in os.environ:
            self.pairs.append((0, 98))  # nodes of no common tetrahedron

    def addForce(self, m, f, x, v):
        u = x.value - self.rest
        with f.writeableArray() as a:
            for p, q in self.pairs:
                a[p] -= 500.0 * (u[p] - u[q])
                a[q] += 500.0 * (u[p] - u[q])

    def addDForce(self, m, df, dx):
        k = 500.0 * m["kFactor"]
        with df.writeableArray() as a:
            for p, q in self.pairs:
                a[p] -= k * (dx[p] - dx[q])
                a[q] += k * (dx[p] - dx[q])

    def addKToMatrix(self, m, nNodes, nDofs):
        k = -500.0 * m["kFactor"]
        return numpy.array([e for p, q in self.pairs for d in range(3)
                            for e in ([3 * p + d, 3 * p + d, k], [3 * q + d, 3 * q + d, k],
                                      [3 * p + d, 3 * q + d, -k], [3 * q + d, 3 * p + d, -k])])


def createScene(root):
    root.dt = 0.01
    root.gravity = [0.0, -9.81, 0.0]
    b = root.addChild("beam")
    b.addObject("EulerImplicitSolver", rayleighStiffness=0.1, rayleighMass=0.1)
    b.addObject("CGLinearSolver", iterations=2000, tolerance=1e-16, threshold=1e-30)
    loader = b.addObject("MeshGmshLoader", name="loader", filename="beam-small.msh")
    b.addObject("TetrahedronSetTopologyContainer", name="topo", src=loader.linkpath)
    b.addObject("MechanicalObject", name="dofs", template="Vec3d")
    b.addObject("DiagonalMass", massDensity=1000.0)
    b.addObject("TetrahedronFEMForceField", method="large", youngModulus=1e5, poissonRatio=0.3)
    box = b.addObject("BoxROI", name="box", box=[[-0.001, -0.001, -0.001], [0.001, 1.001, 1.001]])
    b.addObject("FixedProjectiveConstraint", indices=box.indices.linkpath)
    field = os.environ["FIELD"]
    if field == "builtin":
        b.addObject("RestShapeSpringsForceField", stiffness=2000.0, points=TIP)
    else:
        b.addObject({"rest": RestSprings, "links": Links}[field](name=field))


if __name__ == "__main__":
    root = Sofa.Core.Node("root")
    createScene(root)
    Sofa.Simulation.init(root)
    for k in range(10):
        Sofa.Simulation.animate(root, root.dt.value)
EOF
for ranks in 1 2; do
  FIELD=builtin py "$ranks" beam.py --output.final-state=builtin$ranks.csv
  FIELD=rest py "$ranks" beam.py --output.final-state=rest$ranks.csv
  check "Python rest-shape springs on the beam = RestShapeSpringsForceField ($ranks rank(s))" \
    same_state builtin$ranks.csv rest$ranks.csv 1e-12
  [ "$failures" -eq 0 ] || show
done
FIELD=links py 1 beam.py --output.final-state=free.csv --solver.operator=matrix-free \
  --python.add-k-to-matrix=true
for ranks in 1 2; do
  FIELD=links py "$ranks" beam.py --output.final-state=links$ranks.csv --solver.operator=assembled \
    --python.add-k-to-matrix=true
  check "Python springs inside cells (off-diagonal K), assembled on $ranks rank(s) = matrix-free" \
    same_state free.csv links$ranks.csv 1e-10
  [ "$failures" -eq 0 ] || show
done
# Under --scene, 10 steps as beam.py's main loop makes: the same bits as python3 beam.py.
for ranks in 1 2; do
  FIELD=links scene "$ranks" beam.py --solver.steps=10 --solver.operator=assembled \
    --python.add-k-to-matrix=true \
    --output.final-state=scene.csv
  check "--scene: the beam with Python springs, $ranks rank(s): bit-identical to python3 beam.py" \
    cmp scene.csv links$ranks.csv
  [ "$failures" -eq 0 ] || show
done
differs() { ! same_state "$@" > /dev/null; }
FAR=1 FIELD=links py 2 beam.py --solver.operator=assembled --python.add-k-to-matrix=true
check "a spring between nodes of no common cell, assembled: one error line naming them, 2 ranks" \
  test "$(grep -c '^euler-implicit: error: step 1 (t = 0.01): /beam/links: addKToMatrix couples nodes 0 and 98, which share no cell' run.err)" -eq 1
[ "$failures" -eq 0 ] || show
FAR=1 FIELD=links py 2 beam.py --solver.operator=matrix-free --python.add-k-to-matrix=true
check "and matrix-free it runs (2 ranks)" test "$?" -eq 0
check "and those springs change the state (against the built-in rest springs' run)" \
  differs builtin1.csv free.csv 1e-6

echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
