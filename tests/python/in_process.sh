#!/usr/bin/env bash
# The euler_implicit module in the script's own process (src/io/python/eis_in_process.py):
#  - `python3 scene.py` (a SofaPython3 main loop whose controller ramps a ConstantForceField)
#    and `euler-implicit --scene scene.py` give the same final state, byte for byte, on 1, 2 and
#    3 ranks: the script under `mpiexec -n N python3`, one run over the N ranks;
#  - a controller that writes a MechanicalObject's position (writeableArray) sets where the next
#    step starts: one implicit Euler step of a node held by a spring, computed by hand, in the
#    script's process and under euler-implicit --scene (its controllers' python3);
#  - a Python exception in a controller on every rank, or on one rank only, ends the job under
#    mpiexec -n 2 with one error line naming the .py file, its line and the step, never a hang;
#    so do a controller in an endless loop (scene.python-timeout) and one that resizes an array.
#    When every rank raised, the outputs hold the last good state (as the executable writes it).
#    (Force fields written in Python: tests/python/force_fields.sh.)
# Usage: in_process.sh <python3 with numpy> <euler-implicit> <meshes dir>.
set -u
RANKS=3  # MPI ranks per run at most (tests/CMakeLists.txt: PROCESSORS)
DATA=$(realpath "$3/../tests/data/sofa")
# shellcheck source=SCRIPTDIR/../common/python_test.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/python_test.sh"
export PYTHONPATH
PYTHONPATH=$(dirname "$EXE")/../share/euler-implicit/python
unset EULER_IMPLICIT_LAUNCH EULER_IMPLICIT_RANKS
# The matrix-free operator: a run on 3 ranks is then the same bit for bit each time (the assembled
# matrix's sums over ranks may come in any order).
FLAGS=(--quiet --solver.operator=matrix-free)
# count PATTERN: how often PATTERN is in run.out (the ranks' lines may come joined on one line).
count() { grep -o "$1" run.out | wc -l; }

# py RANKS SCRIPT ARGS...: mpiexec -n RANKS python3 SCRIPT, euler-implicit's ARGS in
# EULER_IMPLICIT_ARGS, output in run.out and run.err.
py() {
  mpi_command "$1" "$PYTHON"
  EULER_IMPLICIT_ARGS="${FLAGS[*]} ${*:3}" timeout 120 "${MPI_COMMAND[@]}" -B "$2" > run.out 2> run.err
}
# exe RANKS ARGS...: euler-implicit itself, output in exe.out.
exe() {
  mpi_command "$1" "$EXE"
  timeout 120 "${MPI_COMMAND[@]}" "${@:2}" "${FLAGS[@]}" > exe.out 2>&1
}

ln -s "$DATA/beam-small.msh" beam-small.msh
cat > scene.py << 'EOF'
import Sofa.Core
import Sofa.Simulation


class Ramp(Sofa.Core.Controller):
    def __init__(self, *args, **kwargs):
        Sofa.Core.Controller.__init__(self, *args, **kwargs)
        self.pull = kwargs["pull"]
        self.k = 0

    def onAnimateBeginEvent(self, event):
        self.k += 1
        self.pull.forces = [[0.0, 20.0 * self.k, -50.0 * self.k]]


def createScene(root):
    root.dt = 0.01
    root.gravity = [0.0, -9.81, 0.0]
    b = root.addChild("beam")
    b.addObject("EulerImplicitSolver", rayleighStiffness=0.1, rayleighMass=0.1)
    b.addObject("CGLinearSolver", iterations=2000, tolerance=1e-14, threshold=1e-20)
    loader = b.addObject("MeshGmshLoader", name="loader", filename="beam-small.msh")
    b.addObject("TetrahedronSetTopologyContainer", name="topo", src=loader.linkpath)
    b.addObject("MechanicalObject", name="dofs", template="Vec3d")
    b.addObject("DiagonalMass", massDensity=1000.0)
    b.addObject("TetrahedronFEMForceField", method="large", youngModulus=1e7, poissonRatio=0.3)
    box = b.addObject("BoxROI", name="box", box=[[-0.001, -0.001, -0.001], [0.001, 1.001, 1.001]])
    b.addObject("FixedProjectiveConstraint", indices=box.indices.linkpath)
    pull = b.addObject("ConstantForceField", name="pull", indices=[98], forces=[[0.0, 0.0, 0.0]])
    root.addObject(Ramp(name="ramp", pull=pull))


if __name__ == "__main__":
    root = Sofa.Core.Node("root")
    createScene(root)
    Sofa.Simulation.init(root)
    for k in range(5):
        Sofa.Simulation.animate(root, root.dt.value)
    x = root.beam.dofs.position.value
    print("tip %r %r" % (len(x), x[98].tolist()))
EOF

for ranks in 1 2 3; do
  py "$ranks" scene.py --output.final-state=script.csv
  status=$?
  check "mpiexec -n $ranks python3 scene.py runs one simulation" test "$status" -eq 0
  [ "$status" -eq 0 ] || show
  exe "$ranks" --scene scene.py --solver.steps=5 --output.final-state=exe.csv
  check "python3 scene.py and euler-implicit --scene scene.py: the same final state, byte for byte ($ranks rank(s))" \
    cmp -s script.csv exe.csv
  # Every rank read every node (the gathered copy), the tip's row that of the final state.
  tip=$(awk -F, '$1 == 98 { printf "[%s, %s, %s]", $2, $3, $4 }' exe.csv)
  check "each of the $ranks rank(s) reads all 99 rows of mo.position.value" \
    test "$(count "tip 99 ")" -eq "$ranks"
  check "the tip row read is the final state's ($ranks rank(s))" \
    "$PYTHON" -c "import sys; a = [float(v) for v in sys.argv[1].strip('[]').split(',')]
b = [float(v) for v in sys.argv[2].split(' ', 2)[2].strip('[]').split(',')]
sys.exit(a != b)" "$tip" "$(grep -o 'tip 99 \[[^]]*\]' run.out | head -1)"
done

# Reading a few values of mo.position.value fetches those rows alone (eis_lazy_state.py): no
# whole-array gather (engine.state) for x[i], x[[i, j]], x[a:b], x[i, j] or len(x), and the rows
# equal the whole array's, on 1, 2 and 3 ranks.
cat > reads.py << 'EOF'
import numpy
import Sofa.Core
import Sofa.Simulation
from scene import createScene


class Counting:
    """The engine, counting its whole-array reads."""

    def __init__(self, engine):
        self.engine, self.whole = engine, 0

    def state(self, *args):
        self.whole += 1
        return self.engine.state(*args)

    def __getattr__(self, name):
        return getattr(self.engine, name)


if __name__ == "__main__":
    root = Sofa.Core.Node("root")
    createScene(root)
    Sofa.Simulation.init(root)
    live = Sofa.Core.LIVE
    live.engine = Counting(live.engine)
    for k in range(2):
        Sofa.Simulation.animate(root, root.dt.value)
        live.engine.whole = 0
        x = root.beam.dofs.position.value
        v = root.beam.dofs.velocity.value
        parts = [x[98], x[[90, 94]], x[5:8], x[-1, 1], v[98], len(x)]
        print("whole reads after rows %d" % live.engine.whole)
        full, fullv = numpy.asarray(x), numpy.asarray(v)
        same = [(full[98] == parts[0]).all(), (full[[90, 94]] == parts[1]).all(),
                (full[5:8] == parts[2]).all(), full[-1, 1] == parts[3],
                (fullv[98] == parts[4]).all(), len(full) == parts[5] == 99]
        print("rows equal whole %s" % all(same))
EOF
for ranks in 1 2 3; do
  py "$ranks" reads.py
  check "x[i], x[[i, j]], x[a:b], x[i, j], len(x): no whole-array read ($ranks rank(s))" \
    test "$(count 'whole reads after rows 0')" -eq "$((2 * ranks))"
  check "and those rows equal the whole array's, bit for bit, at steps 1 and 2 ($ranks rank(s))" \
    test "$(count 'rows equal whole True')" -eq "$((2 * ranks))"
  [ "$failures" -eq 0 ] || show
done

# One node (3) held by a spring of stiffness k to where it starts, mass m, the others fixed; no
# gravity. The controller moves it by d along x before step 1 (x = x0 + d, v = 0), so that SOFA's
# implicit Euler step, (m + h^2 k) dv = h (-k d), gives dv = -h k d / (m + h^2 k) and
# x1 = x0 + d + h dv. With h = 0.25, k = 16, m = 3, d = 0.5: dv = -2 / 4 = -0.5 and x1 = 0.375,
# exact in binary.
cat > spring.py << 'EOF'
import Sofa.Core
import Sofa.Simulation


class Move(Sofa.Core.Controller):
    def __init__(self, *args, **kwargs):
        Sofa.Core.Controller.__init__(self, *args, **kwargs)
        self.dofs = kwargs["dofs"]
        self.step = 0

    def onAnimateBeginEvent(self, event):
        self.step += 1
        if self.step == 1:
            with self.dofs.position.writeableArray() as x:
                x[3][0] += 0.5


def createScene(root):
    root.dt = 0.25
    root.gravity = [0.0, 0.0, 0.0]
    n = root.addChild("point")
    n.addObject("EulerImplicitSolver", rayleighStiffness=0.0, rayleighMass=0.0)
    n.addObject("CGLinearSolver", iterations=100, tolerance=1e-30, threshold=1e-30)
    n.addObject("TetrahedronSetTopologyContainer", name="topo",
                position=[[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], tetrahedra=[[0, 1, 2, 3]])
    dofs = n.addObject("MechanicalObject", name="dofs", template="Vec3d")
    n.addObject("UniformMass", vertexMass=3.0)
    n.addObject("RestShapeSpringsForceField", stiffness=16.0, points=[3])
    n.addObject("FixedProjectiveConstraint", indices=[0, 1, 2])
    root.addObject(Move(name="move", dofs=dofs))


if __name__ == "__main__":
    root = Sofa.Core.Node("root")
    createScene(root)
    Sofa.Simulation.init(root)
    Sofa.Simulation.animate(root, root.dt.value)
    dofs = root.point.dofs
    print("node3 %r %r" % (dofs.position.value[3].tolist(), dofs.velocity.value[3].tolist()))
EOF
for ranks in 1 2; do
  py "$ranks" spring.py --output.final-state=script.csv
  check "a position written by a controller starts the step: x = 0.375, v = -0.5 by hand ($ranks rank(s))" \
    test "$(count 'node3 \[0.375, 0.0, 1.0\] \[-0.5, 0.0, 0.0\]')" -eq "$ranks"
  [ "$failures" -eq 0 ] || show
  # The same controller under euler-implicit --scene (its python3 beside rank 0).
  exe "$ranks" --scene spring.py --solver.steps=1 --output.final-state=exe.csv
  check "and so under euler-implicit --scene spring.py, byte for byte ($ranks rank(s))" \
    cmp -s script.csv exe.csv
done

# An exception in a controller at step 3: on every rank, then on rank 1 alone.
cat > boom.py << 'EOF'
import os

import Sofa.Core
import Sofa.Simulation
from spring import createScene as spring


class Boom(Sofa.Core.Controller):
    def __init__(self, *args, **kwargs):
        Sofa.Core.Controller.__init__(self, *args, **kwargs)
        self.step = 0

    def onAnimateBeginEvent(self, event):
        self.step += 1
        rank = os.environ.get("OMPI_COMM_WORLD_RANK", os.environ.get("PMI_RANK", "0"))
        if self.step == 3 and rank in os.environ["BOOM_RANKS"].split():
            raise ValueError("boom")


def createScene(root):
    spring(root)
    root.addObject(Boom(name="boom"))


if __name__ == "__main__":
    root = Sofa.Core.Node("root")
    createScene(root)
    Sofa.Simulation.init(root)
    for k in range(5):
        Sofa.Simulation.animate(root, root.dt.value)
    print("not reached")
EOF
# Every rank raising writes the last good state (step 2's) to the outputs, as the executable does
# after a failed controller; one rank alone writes none (the others are inside step 3).
exe 2 --scene spring.py --solver.steps=2 --output.final-state=two.csv
# Rank 1 alone is known to fail alone: it waits 2 s for the others, not 20
# (EULER_IMPLICIT_LONE_ERROR_WAIT); when every rank raises, they wait the 20 s they are given.
for who in "0 1" "1"; do
  start=$SECONDS
  rm -f fail.csv
  wait=20
  [ "$who" = 1 ] && wait=2
  BOOM_RANKS=$who EULER_IMPLICIT_LONE_ERROR_WAIT=$wait py 2 boom.py --output.final-state=fail.csv
  status=$?
  check "an exception on rank(s) $who ends the job (status $status, $((SECONDS - start)) s)" \
    test "$status" -ne 0 -a "$status" -ne 124
  if [ "$who" = "1" ]; then
    end='; the other ranks did not fail with it, so no state was written'
    check "with no final state written (rank 1 alone)" test ! -e fail.csv
  else
    end='; the state of step 2 was written to the configured outputs'
    check "and the final state written is step 2's, byte for byte (every rank)" \
      cmp -s fail.csv two.csv
  fi
  check "with one error line naming boom.py, its line and step 3 (rank(s) $who)" \
    test "$(grep -c "^euler-implicit: error: \(rank 1: \)\?step 3: boom.py:17: in Boom.onAnimateBeginEvent: ValueError: boom$end\$" run.err)" -eq 1
  check "and nothing after it runs (rank(s) $who)" test "$(grep -c 'not reached' run.out)" -eq 0
  [ "$failures" -eq 0 ] || show
done

# A controller stuck in an endless loop at step 2 is cut by scene.python-timeout, and one that
# writes 3 rows of a 4-node position array is refused: each one error line naming the step.
cat > stuck.py << 'EOF'
import os

import Sofa.Core
import Sofa.Simulation
from spring import createScene as spring


class Stuck(Sofa.Core.Controller):
    def __init__(self, *args, **kwargs):
        Sofa.Core.Controller.__init__(self, *args, **kwargs)
        self.dofs = kwargs["dofs"]
        self.step = 0

    def onAnimateBeginEvent(self, event):
        self.step += 1
        if self.step == 2 and os.environ["STUCK"] == "loop":
            while True:
                pass
        if self.step == 2:
            self.dofs.position.value = [[0.0, 0.0, 0.0]] * 3


def createScene(root):
    spring(root)
    root.addObject(Stuck(name="stuck", dofs=root.point.dofs))


if __name__ == "__main__":
    root = Sofa.Core.Node("root")
    createScene(root)
    Sofa.Simulation.init(root)
    for k in range(4):
        Sofa.Simulation.animate(root, root.dt.value)
    print("not reached")
EOF
start=$SECONDS
STUCK=loop py 2 stuck.py --scene.python-timeout=2
status=$?
check "an endless loop in a controller ends the job on 2 ranks (status $status, $((SECONDS - start)) s)" \
  test "$status" -ne 0 -a "$status" -ne 124
check "with one error line: stuck.py, its line, step 2 and scene.python-timeout" \
  test "$(grep -c '^euler-implicit: error: step 2: stuck.py:1[78]: in Stuck.onAnimateBeginEvent: did not return within 2 s (scene.python-timeout; an endless loop?); the state of step 1 was written to the configured outputs$' run.err)" -eq 1
[ "$failures" -eq 0 ] || show
STUCK=resize py 2 stuck.py
check "a controller that writes 3 rows of 4: one error line naming stuck.py, its line and step 2" \
  test "$(grep -c '^euler-implicit: error: step 2: stuck.py:20: in Stuck.onAnimateBeginEvent: /point/dofs.position: expected 12 numbers (3 per node), got 9; the state of step 1 was written to the configured outputs$' run.err)" -eq 1
check "and nothing after it runs" test "$(grep -c 'not reached' run.out)" -eq 0
[ "$failures" -eq 0 ] || show

# An exception in the script itself, between steps, on every rank: one line, its file and line.
cat > late.py << 'EOF'
import Sofa.Core
import Sofa.Simulation
from spring import createScene

root = Sofa.Core.Node("root")
createScene(root)
Sofa.Simulation.init(root)
Sofa.Simulation.animate(root, root.dt.value)
x = root.point.dofs.position.value[4]
EOF
py 2 late.py
check "an exception in the script on 2 ranks: one error line naming late.py and its line" \
  test "$(grep -c '^euler-implicit: error: late.py:9: IndexError: index 4 is out of bounds' run.err)" -eq 1
[ "$failures" -eq 0 ] || show

# The module alone: a rank's own rows are the gathered copy's rows at its node ids, and its rows
# written back (owned=True) are what it reads.
cat > direct.py << 'EOF'
import euler_implicit
run = euler_implicit.Simulation(["--scene", "scene.py", "--quiet", "--solver.steps=3"])
run.step()
run.step()
own, ids, everything = run.positions(), run.owned_ids(), run.positions(gathered=True)
moved = own + 1.0
run.set_positions(moved, owned=True)
again = run.positions(gathered=True)
print("direct %d %d %s %s %s" % (euler_implicit.size(), len(everything),
                                 (everything[ids] == own).all(), (again[ids] == moved).all(),
                                 (again == everything + 1.0).all()))
run.finish()
EOF
py 2 direct.py
check "owned rows, gathered rows and owned writes agree on 2 ranks" \
  test "$(count 'direct 2 99 True True True')" -eq 2
[ "$failures" -eq 0 ] || show

# getContext().getTime(): SOFA's DefaultAnimationLoop sends AnimateBeginEvent at the step's start
# time and AnimateEndEvent after the time has advanced: at step k (from 1), (k - 1) dt and k dt,
# in the script's process and under euler-implicit --scene, on 2 ranks.
cat > clock.py << 'EOF'
import Sofa.Core
import Sofa.Simulation
from scene import createScene as base


class Clock(Sofa.Core.Controller):
    def __init__(self, *args, **kwargs):
        Sofa.Core.Controller.__init__(self, *args, **kwargs)
        self.k = 0

    def onAnimateBeginEvent(self, event):
        self.k += 1
        begin = self.getContext().getTime()
        assert abs(begin - (self.k - 1) * 0.01) < 1e-12, (self.k, begin)

    def onAnimateEndEvent(self, event):
        context = self.getContext()
        end = context.getTime()
        assert abs(end - self.k * 0.01) < 1e-12 and context.getDt() == 0.01, (self.k, end)
        print("clock %d %.12g" % (self.k, end))


def createScene(root):
    base(root)
    root.addObject(Clock(name="clock"))


if __name__ == "__main__":
    root = Sofa.Core.Node("root")
    createScene(root)
    Sofa.Simulation.init(root)
    for k in range(3):
        Sofa.Simulation.animate(root, root.dt.value)
EOF
py 2 clock.py
check "getContext().getTime() in a controller: (k - 1) dt at step k's begin, k dt at its end" \
  test "$(count 'clock 3 0.03')" -eq 2
[ "$failures" -eq 0 ] || show
exe 2 --scene clock.py --solver.steps=3
check "the same clock under euler-implicit --scene on 2 ranks" \
  test "$(grep -o 'clock 3 0.03' exe.out | wc -l)" -ge 1
[ "$failures" -eq 0 ] || sed 's/^/     | /' exe.out

echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
