#!/usr/bin/env bash
# SofaPython3 controllers running with the simulation (io/python_controllers), on a beam of
# tests/data/sofa/beam-small.msh fixed at x = 0 with a ConstantForceField on its tip node 98:
#  - a controller that sets the tip force to -50 k N in onAnimateBeginEvent of step k (and checks
#    the time and dt it is given) ends where runs of one step each, with the same forces written
#    in the scene and each starting from the last one's final state, end (4 steps), to rounding;
#  - its final state is the same on 1, 2 and 3 ranks, to 1e-12 (this beam's CG solves differ
#    in the last bit between rank counts with no controller too);
#  - a controller that reads the whole position and velocity in onAnimateEndEvent logs, every
#    step, the kinetic energy of the history file (UniformMass: 1/2 m sum v^2) and, at the
#    last, the tip position of the final state, to rounding;
#  - totalForce and one force per index written by a controller give the state of the same
#    forces written in the scene, bit for bit; a count that fits neither is one error line;
#  - root.dt set in onAnimateBeginEvent of step 2 applies from step 3, as in SOFA;
#  - an exception in onAnimateBeginEvent of step 3, a write of a data field no controller may
#    write, and an endless loop (scene.python-timeout) each end the run with one error line
#    naming the .py file, line and step (2 ranks);
#  - event methods never sent get one notice; init, bwdInit and the events come in SOFA's order
#    (bwdInit after the node's children's), and an exception in init is one error line.
# Usage: python_controllers.sh <euler-implicit> <meshes dir>; the MPI launch line:
# tests/common/mpi_launch.sh. Needs python3 on PATH (numpy not needed).
set -euo pipefail
RANKS=3  # MPI ranks per run at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
DATA=$(realpath "$2/../tests/data/sofa")
EXE=$(realpath "$1")
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/mpi_launch.sh"
launch_in_scratch "$RANKS" "$EXE"

# shellcheck source=SCRIPTDIR/../common/checks.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/checks.sh"

# run RANKS ARGS...: one run, quiet, matrix-free, its output in run.out / run.err.
run() {
  mpi_command "$1" "$EXE"
  timeout 120 "${MPI_COMMAND[@]}" "${@:2}" --solver.operator=matrix-free --quiet \
    > run.out 2> run.err
}
show() { [ "$failures" -eq 0 ] || sed 's/^/     | /' run.out run.err; }

ln -s "$DATA/beam-small.msh" beam-small.msh
cat > beam.py << 'EOF'
import Sofa.Core


def beam(root, force=0.0, indices=(98,), forces=None):
    root.dt = 0.01
    root.gravity = [0.0, -9.81, 0.0]
    b = root.addChild("beam")
    b.addObject("EulerImplicitSolver", name="ode", rayleighStiffness=0.0, rayleighMass=0.0)
    b.addObject("CGLinearSolver", name="cg", iterations=2000, tolerance=1e-14, threshold=1e-20)
    loader = b.addObject("MeshGmshLoader", name="loader", filename="beam-small.msh")
    b.addObject("TetrahedronSetTopologyContainer", name="topo", src=loader.linkpath)
    b.addObject("MechanicalObject", name="dofs", template="Vec3d")
    b.addObject("UniformMass", name="mass", totalMass=990.0)
    b.addObject("TetrahedronFEMForceField", name="fem", method="small", youngModulus=1e6,
                poissonRatio=0.3)
    box = b.addObject("BoxROI", name="box", box=[[-0.001, -0.001, -0.001], [0.001, 1.001, 1.001]])
    b.addObject("FixedProjectiveConstraint", name="fixed", indices=box.indices.linkpath)
    b.addObject("ConstantForceField", name="pull", indices=list(indices),
                forces=forces or [[0.0, 0.0, force]])
    return b
EOF
cat > ramp.py << 'EOF'
import Sofa.Core
from beam import beam


class Ramp(Sofa.Core.Controller):
    def __init__(self, *args, **kwargs):
        Sofa.Core.Controller.__init__(self, *args, **kwargs)
        self.root, self.pull = kwargs["root"], kwargs["pull"]
        self.k = 0

    def onAnimateBeginEvent(self, event):
        self.k += 1
        if abs(self.root.time.value - (self.k - 1) * 0.01) > 1e-12 or event["dt"] != 0.01 \
                or self.root.dt.value != 0.01:
            raise RuntimeError("time %r, dt %r at step %d" % (self.root.time.value,
                                                               event["dt"], self.k))
        self.pull.forces = [[0.0, 0.0, -50.0 * self.k]]


def createScene(root):
    b = beam(root)
    root.addObject(Ramp(name="ramp", root=root, pull=b.pull))
EOF

# The ramp, by the controller and by one-step runs with the force written in the scene.
for ranks in 1 2 3; do
  status=0
  run "$ranks" --scene ramp.py --solver.steps=4 --output.final-state="ramp$ranks.csv" || status=$?
  check "the ramp controller runs on $ranks rank(s)" test "$status" -eq 0
  show
done
check "the ramp gives the same state on 1 and 2 ranks (to 1e-12)" same_state ramp1.csv ramp2.csv 1e-12
check "the ramp gives the same state on 1 and 3 ranks (to 1e-12)" same_state ramp1.csv ramp3.csv 1e-12
start=()
for k in 1 2 3 4; do
  printf 'from beam import beam\n\n\ndef createScene(root):\n    beam(root, %s)\n' \
    "-50.0 * $k" > "fixed$k.py"
  status=0
  run 2 --scene "fixed$k.py" --solver.steps=1 --output.final-state="fixed$k.csv" "${start[@]}" ||
    status=$?
  check "one step with the ramp's force of step $k written in the scene" test "$status" -eq 0
  show
  start=(--initial.state="fixed$k.csv")
done
check "the controller's ramp ends where the one-step runs end (to 1e-12)" \
  same_state ramp1.csv fixed4.csv 1e-12

# totalForce and one force per index, on tip nodes 97 and 98, against the same forces written
# in the scene; a count that fits neither is one error line.
for write in "totalForce = [0.0, 0.0, -100.0]" "forces = [[0.0, 0.0, -30.0], [0.0, 0.0, -70.0]]" \
  "forces = [[0.0, 0.0, 1.0]] * 3"; do
  cat > two.py << EOF
import Sofa.Core
from beam import beam


class Two(Sofa.Core.Controller):
    def __init__(self, *args, **kwargs):
        Sofa.Core.Controller.__init__(self, *args, **kwargs)
        self.pull = kwargs["pull"]

    def onAnimateBeginEvent(self, event):
        self.pull.$write


def createScene(root):
    b = beam(root, indices=(97, 98))
    root.addObject(Two(name="two", pull=b.pull))
EOF
  status=0
  run 2 --scene two.py --solver.steps=3 --output.final-state=two.csv || status=$?
  case $write in
    totalForce*) forces="[[0.0, 0.0, -50.0], [0.0, 0.0, -50.0]]" ;;
    *-30.0*) forces="[[0.0, 0.0, -30.0], [0.0, 0.0, -70.0]]" ;;
    *)
      check "pull.$write: one error line naming the field, the counts and the line" \
        grep -qx "euler-implicit: error: step 1 (t = 0.01): two.py:11: in Two.onAnimateBeginEvent: /beam/pull.forces: expected 3 numbers or 3 per index (6), got 9; the state of step 0 was written to the configured outputs" run.err
      show
      continue
      ;;
  esac
  check "pull.$write runs" test "$status" -eq 0
  show
  printf 'from beam import beam\n\n\ndef createScene(root):\n    beam(root, indices=(97, 98), forces=%s)\n' \
    "$forces" > two-written.py
  run 2 --scene two-written.py --solver.steps=3 --output.final-state=two-written.csv
  check "pull.$write gives the state of forces=$forces in the scene, bit for bit" \
    cmp -s two.csv two-written.csv
done

# Reads: the kinetic energy of the whole velocity every step, the tip at the end.
cat > tip.py << 'EOF'
import Sofa.Core
from beam import beam


class Tip(Sofa.Core.Controller):
    def __init__(self, *args, **kwargs):
        Sofa.Core.Controller.__init__(self, *args, **kwargs)
        self.dofs = kwargs["dofs"]
        self.root = kwargs["root"]

    def onAnimateEndEvent(self, event):
        x, v = self.dofs.position.value, self.dofs.velocity.value
        energy = 0.5 * 10.0 * sum(c * c for row in v for c in row)
        with open("tip.log", "a") as log:
            log.write("%r,%r,%r,%r,%r\n" % (self.root.time.value, energy, float(x[98][0]),
                                             float(x[98][1]), float(x[98][2])))

    def onKeypressedEvent(self, event):
        pass


def createScene(root):
    b = beam(root, -500.0)
    root.addObject(Tip(name="tip", dofs=b.dofs, root=root))
EOF
status=0
run 2 --scene tip.py --solver.steps=5 --output.history=tip-history.csv \
  --output.final-state=tip-state.csv || status=$?
check "the reading controller runs (2 ranks)" test "$status" -eq 0
show
check "it logged 5 steps" test "$(wc -l < tip.log)" -eq 5
check "its time and kinetic energy are the history's, step by step (to 1e-12)" \
  awk -F, 'NR == FNR { t[FNR] = $1; e[FNR] = $2; next }
    FNR > 1 { d = e[FNR - 1] - $7; if (d < 0) d = -d
              if (t[FNR - 1] != $2 || d > 1e-12 * $7 || $7 == 0) bad = 1; n++ }
    END { exit bad || n != 5 }' tip.log tip-history.csv
check "its last tip position is the final state's" \
  awk -F, 'NR == FNR { x = $3; y = $4; z = $5; next } $1 == 98 { ok = ($2 == x && $3 == y && $4 == z) }
    END { exit !ok }' tip.log tip-state.csv
check "the methods never called get one notice" \
  test "$(grep -c '^note: Python controller methods never called .*: Tip.onKeypressedEvent$' run.out)" -eq 1
show

# dt set in onAnimateBeginEvent of step 2: step 2 keeps 0.01, step 3 on take 0.02.
sed -e 's/self.k += 1/self.k += 1\n        if self.k == 2:\n            self.root.dt.value = 0.02\n        return/' \
  ramp.py > dt.py
status=0
run 2 --scene dt.py --solver.steps=4 --output.history=dt-history.csv || status=$?
check "a controller setting dt runs" test "$status" -eq 0
show
check "the steps' times are 0.01 0.02 0.04 0.06" \
  awk -F, 'BEGIN { split("0.01 0.02 0.04 0.06", t, " ") }
    NR > 1 { d = $2 - t[NR - 1]; if (d < 0) d = -d; if (d > 1e-15) bad = 1; n++ }
    END { exit bad || n != 4 }' dt-history.csv

# init in graph order, bwdInit after the node's children's, events in graph order; an exception
# in init is one error line naming it.
cat > order.py << 'EOF'
import Sofa.Core
from beam import beam


class Say(Sofa.Core.Controller):
    def say(self, what):
        with open("order.log", "a") as log:
            log.write("%s %s\n" % (what, self.getName()))

    def init(self):
        self.say("init")

    def bwdInit(self):
        self.say("bwdInit")

    def onAnimateBeginEvent(self, event):
        self.say("begin")

    def onAnimateEndEvent(self, event):
        self.say("end")


def createScene(root):
    b = beam(root)
    root.addObject(Say(name="top"))
    b.addObject(Say(name="inner"))
EOF
status=0
run 2 --scene order.py --solver.steps=1 || status=$?
check "init, bwdInit and events come in SOFA's order" \
  test "$(tr '\n' ' ' < order.log)" = "init top init inner bwdInit inner bwdInit top begin top begin inner end top end inner "
show
sed -e 's/        self.say("init")/        raise KeyError("no init")/' order.py > noinit.py
status=0
run 2 --scene noinit.py --solver.steps=1 || status=$?
check "an exception in init is one error line naming it" \
  grep -qx "euler-implicit: error: noinit.py:11: in Say.init: KeyError: 'no init'" run.err
show

# One error line naming the file, the line and the step.
sed -e 's/self.k += 1/self.k += 1\n        if self.k == 3:\n            raise ValueError("three")/' \
  ramp.py > boom.py
line=$(grep -n 'raise ValueError' boom.py | cut -d: -f1)
status=0
run 2 --scene boom.py --solver.steps=5 --output.final-state=boom.csv || status=$?
check "an exception at step 3 fails the run" test "$status" -ne 0
check "with one error line naming the file, line and step" \
  grep -qx "euler-implicit: error: step 3 (t = 0.03): boom.py:$line: in Ramp.onAnimateBeginEvent: ValueError: three; the state of step 2 was written to the configured outputs" run.err
check "and no other error line" test "$(grep -c 'error' run.err)" -eq 1
show

sed -e 's/self.k += 1/self.k += 1\n        self.root.beam.dofs.position.value = [[0.0, 0.0, 0.0]]/' \
  ramp.py > write.py
line=$(grep -n 'position.value =' write.py | cut -d: -f1)
status=0
run 2 --scene write.py --solver.steps=2 || status=$?
check "a MechanicalObject's position written with too few rows is one error line naming it and the line" \
  grep -qx "euler-implicit: error: step 1 (t = 0.01): write.py:$line: in Ramp.onAnimateBeginEvent: /beam/dofs.position: expected 297 numbers (3 per node), got 3; the state of step 0 was written to the configured outputs" run.err
check "(and the run failed)" test "$status" -ne 0
show

sed -e 's/self.k += 1/self.k += 1\n        while self.k == 2:\n            pass/' ramp.py > loop.py
status=0
SECONDS=0
run 2 --scene loop.py --solver.steps=3 --scene.python-timeout=3 || status=$?
check "an endless loop in a controller ends the run within the time limit" \
  test "$status" -ne 0 -a "$SECONDS" -lt 60
check "with one error line saying so" \
  grep -qx "euler-implicit: error: step 2 (t = 0.02): loop.py: the Python controllers did not return within 3 s (scene.python-timeout); python3 killed (an endless loop?); the state of step 1 was written to the configured outputs" run.err
show

echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
