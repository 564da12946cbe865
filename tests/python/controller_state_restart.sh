#!/usr/bin/env bash
# A restart gives back a Python controller's own state (src/io/python/eis_controller_state.py):
# a counter that counts its steps in onAnimateEndEvent (the checkpoint is written before that
# event, which the restart sends again), a numpy array scaled in onAnimateBeginEvent, a list of
# measures, a phase string and a data field of its own (addData), from which each
# onAnimateBeginEvent sets a ConstantForceField's force. Without them the restarted controller
# starts from createScene's values (0.31 apart in position after 10 steps, 1 rank) and,
# without the event sent again, counts one step short (cmp fails either way).
# On a clamped beam of 45 nodes, 10 steps, a checkpoint after step 5, on 1 and 2 ranks: the
# restart from it ends equal to the uninterrupted run's to the bit, and the controller's last
# measures too. An attribute that is neither plain data nor the scene's (a function) is named
# by a restart's one error line; with --restart-force it is a warning and the run goes on. A
# checkpoint written after a step's AnimateBeginEvent, that step then failing, is refused, and
# so is a restart in the script's own process (which does not give the state back), and (in the
# driver alone) a controller with constraint events the restart cannot send again.
# CG and method small, as tests/python/controller_restart.sh (bit for bit).
# Usage: controller_state_restart.sh <python3 with numpy> <euler-implicit> <meshes dir>.
set -u
RANKS=2  # MPI ranks per run at most (tests/CMakeLists.txt: PROCESSORS)
# shellcheck source=SCRIPTDIR/../common/python_test.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/python_test.sh"
PATH=$(dirname "$PYTHON"):$PATH  # the controllers' python3, with numpy

# The scene: tests/common/clamped_beam.py's beam, a ConstantForceField and the counter.
cat "$COMMON/clamped_beam.py" - > scene.template << 'EOF_SCENE'
import numpy as np
import Sofa.Core

UNSAVEABLE = @UNSAVEABLE@
FAIL_AT = @FAIL_AT@  # the count at whose next AnimateBeginEvent the controller raises


class Counter(Sofa.Core.Controller):
    """A force from its own count of steps, scale and phase."""

    def __init__(self, *args, **kwargs):
        Sofa.Core.Controller.__init__(self, *args, **kwargs)
        self.root = kwargs.get("root")
        self.pull = kwargs.get("pull")
        self.bodies = [self.pull, self.root]  # the scene's: left as createScene makes them
        self.count = 0
        self.scale = np.array([1.0, 0.5])
        self.measures = []
        self.phase = "rising"
        self.addData(name="ticks", value=0, type="int")
        if UNSAVEABLE:
            self.rule = lambda n: 0.5 * n

    def onAnimateBeginEvent(self, event):
        self.scale = self.scale * 1.25
        if self.count == FAIL_AT:
            raise RuntimeError("a failure after the scale grew")
        if self.count >= 4:
            self.phase = "falling"
        sign = 1.0 if self.phase == "rising" else -1.0
        push = sign * (1 + self.count + self.ticks.value) * self.scale
        self.pull.forces = [[0.0, push[0], 0.0], [0.0, 0.0, push[1]]]

    def onAnimateEndEvent(self, event):
        self.count += 1
        self.ticks.value = self.ticks.value + 2
        self.measures.append((self.count, float(self.scale[0])))
        if self.count == 10:
            print("measures %r count %d ticks %d" % (self.measures[-3:], self.count,
                                                     self.ticks.value))


def createScene(root):
    beam, _ = clamped_beam(root, "CGLinearSolver",
                           {"iterations": 500, "tolerance": 1e-12, "threshold": 1e-20},
                           method="small")
    pull = beam.addObject("ConstantForceField", name="pull", indices=[43, 44],
                          forces=[[0, 0, 0], [0, 0, 0]])
    root.addObject(Counter(name="counter", root=root, pull=pull))
EOF_SCENE
sed -e "s/@UNSAVEABLE@/False/" -e "s/@FAIL_AT@/-1/" scene.template > counter.py
sed -e "s/@UNSAVEABLE@/True/" -e "s/@FAIL_AT@/7/" scene.template > failing.py

# run RANKS SCENE OUT [KEY=VALUE..]: 10 steps, the final state in OUT.csv, checkpoints OUT/ck.
run() {
  local ranks=$1 name=$2 out=$3
  mkdir -p "$out"
  mpi_command "$ranks" "$EXE"
  timeout 120 "${MPI_COMMAND[@]}" --scene "$name.py" --quiet --solver.steps=10 \
    --output.final-state="$out.csv" --output.checkpoint="$out/ck" --output.checkpoint-every=5 \
    "${@:4}" > "$out.out" 2> "$out.err" < /dev/null && return
  sed 's/^/     | /' "$out.err"
  rm -f "$out.csv"  # a failed run's last good state compares with nothing
}
measures() { grep '^measures ' "$1.out"; }
same_measures() { [ -n "$(measures "$1")" ] && [ "$(measures "$1")" = "$(measures "$2")" ]; }

for ranks in 1 2; do
  run "$ranks" counter "straight$ranks"
  run "$ranks" counter "stopped$ranks" --restart="straight$ranks/ck_000005.h5"
  check "$ranks rank(s): the restart from step 5 = the straight run" \
    cmp "straight$ranks.csv" "stopped$ranks.csv"
  check "$ranks rank(s): the restarted controller's count, scale and measures are the straight's" \
    same_measures "straight$ranks" "stopped$ranks"
done
expected="measures [(8, 5.9604644775390625), (9, 7.450580596923828), (10, 9.313225746154785)]"
check "the measures are the count and 1.25^count" \
  test "$(measures straight1)" = "$expected count 10 ticks 20"

# The script's own process (the euler_implicit module) runs its controllers itself: a restart
# there from a checkpoint holding their state is refused by name.
cat > in_process.py << 'EOF_MAIN'
import Sofa.Core
import Sofa.Simulation
from counter import createScene

root = Sofa.Core.Node("root")
createScene(root)
Sofa.Simulation.init(root)
Sofa.Simulation.animate(root, root.dt.value)
EOF_MAIN
mpi_command 1 "$PYTHON"
PYTHONPATH=$(dirname "$EXE")/../share/euler-implicit/python \
  EULER_IMPLICIT_ARGS="--quiet --restart=straight1/ck_000005.h5" \
  timeout 120 "${MPI_COMMAND[@]}" -B in_process.py > in_process.out 2> in_process.err < /dev/null
check "the script's own process refuses a restart holding the controllers' state" \
  grep -q "^euler-implicit: error: initial.restart = straight1/ck_000005.h5: the checkpoint holds the Python controllers' own state, which only euler-implicit --scene gives back" in_process.err

# The controller also holds a function (not held), and step 8's AnimateBeginEvent raises after
# changing the scale: the run ends with the state of step 7 in a checkpoint, which a restart
# would take the changed scale from.
mkdir -p failing
mpi_command 1 "$EXE"
timeout 120 "${MPI_COMMAND[@]}" --scene failing.py --quiet --solver.steps=10 --output.checkpoint=failing/ck \
  --output.checkpoint-every=5 > failing.out 2> failing.err < /dev/null
check "the failing run leaves the checkpoints of steps 5 and 7" \
  test -s failing/ck_000005.h5 -a -s failing/ck_000007.h5
check "a restart from step 5 names the attribute not held" \
  refused "initial.restart = failing/ck_000005.h5: failing.py: controller /counter (Counter): attribute 'rule' (a function) could not be held by the checkpoint: the restarted run would differ" \
  1 "$EXE" --scene failing.py --solver.steps=10 --restart=failing/ck_000005.h5
timeout 120 "${MPI_COMMAND[@]}" --scene failing.py --quiet --solver.steps=10 \
  --restart=failing/ck_000005.h5 --restart-force > forced.out 2> forced.err < /dev/null
check "--restart-force warns and restarts with it as createScene makes it" \
  grep -q "warning: failing.py: controller /counter (Counter): attribute 'rule' (a function).*--restart-force" forced.out
check "... and goes on to the scene's failure at step 8" \
  grep -q "step 8 .*a failure after the scale grew" forced.err
check "a restart from step 7 is refused, naming the event whose changes it holds" \
  refused "initial.restart = failing/ck_000007.h5: written after step 8's AnimateBeginEvent, whose step then failed" \
  2 "$EXE" --scene failing.py --solver.steps=10 --restart=failing/ck_000007.h5

# Within the driver (no run): a restart's AnimateEndEvent sent again under a
# FreeMotionAnimationLoop refuses a controller with the constraint events, which it cannot send
# again, unless forced; and the record's unpickler makes nothing but plain data.
cat > driver_checks.py << 'EOF_DRIVER'
import pickle
import subprocess

import Sofa.Core
import eis_controller_state
import eis_controllers as driver


class Reader(Sofa.Core.Controller):
    def onSolveConstraintSystemEndEvent(self, event):
        raise RuntimeError("sent again")

    def onAnimateEndEvent(self, event):
        self.ended = True


root = Sofa.Core.Node("root")
root.addObject("FreeMotionAnimationLoop")
reader = root.addObject(Reader(name="reader"))
what, e = driver.call_event(driver.Run(None), [reader], ["end", "5", "0.1", "0.02", "again"])
print("refused: %s" % e)
driver.RESTART["force"] = True
what, e = driver.call_event(driver.Run(None), [reader], ["end", "5", "0.1", "0.02", "again"])
print("forced: %s %s" % (e, reader.ended))


class Call:
    def __reduce__(self):
        return (subprocess.call, (["true"],))


try:
    eis_controller_state.restore([reader], pickle.dumps({"saved": Call(), "unsaved": []}), False)
except Sofa.Core.SceneError as e:
    print("unpickled: %s" % e)
EOF_DRIVER
PYTHONPATH=$(dirname "$EXE")/../share/euler-implicit/python "$PYTHON" -B driver_checks.py \
  > driver.out 2>&1
check "a constraint event not sent again is refused by name" grep -q "^refused: \
Reader.onSolveConstraintSystemEndEvent: the checkpoint was written before this step's constraint events" \
  driver.out
check "... and with --restart-force the AnimateEndEvent alone is sent" \
  grep -q "^forced: None True" driver.out
check "the record's unpickler refuses anything but plain data" \
  grep -q "^unpickled: .*subprocess.call is not plain data" driver.out

echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
