#!/usr/bin/env bash
# A SofaPython3 script's own main loop (`python3 scene.py`: createScene, Sofa.Simulation.init,
# animate; src/io/python/eis_main_loop.py) on a beam of tests/data/sofa/beam-small.msh fixed at
# x = 0, with a ConstantForceField on its tip node 98 and a ramp controller on it:
#  - `python3 scene.py` (4 animate calls) and `euler-implicit --scene scene.py --solver.steps=4`
#    give bit-identical final states on 1, 2 and 3 ranks (the launch: EULER_IMPLICIT_LAUNCH);
#  - the positions and velocities read after animate k are, bit for bit, the final state of a
#    run of k steps (k = 1..4), its time and kinetic energy the history's (to 1e-12);
#  - forces written between animate calls equal the same forces written by a controller in
#    onAnimateBeginEvent, and root.dt set between them applies from the next animate, bit for
#    bit; animate(root, dt) with another dt takes it for that step only;
#  - reset: time 0 and the initial state (2 steps after it end where a 2-step run ends); the
#    script's controllers get init, bwdInit, the events and reset in SOFA's order;
#  - an exception in the script, one in a controller during animate, Ctrl-C (SIGINT) and SIGKILL
#    of the script each end the engine with no process left (pgrep) within the time limit; a
#    script that never animates exits with status 0; `mpiexec -n 2 python3 scene.py` is refused.
# Usage: python_main_loop.sh <euler-implicit> <meshes dir>. Needs python3 on PATH.
set -euo pipefail
RANKS=3  # MPI ranks per run at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
DATA=$(realpath "$2/../tests/data/sofa")
EXE=$(realpath "$1")
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/mpi_launch.sh"
launch_in_scratch "$RANKS" "$EXE"

# shellcheck source=SCRIPTDIR/../common/checks.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/checks.sh"

# The Sofa package beside the executable, as after `cmake --install` (PREFIX/bin and
# PREFIX/share/euler-implicit/python): the engine is found from it. Temporary files (the
# script's socket) go under $work, so that pgrep finds this test's processes only.
export PYTHONPATH
PYTHONPATH=$(dirname "$EXE")/../share/euler-implicit/python
export TMPDIR=$work
FLAGS=(--solver.operator=matrix-free --quiet)

# launch RANKS: the launcher of RANKS ranks (EULER_IMPLICIT_LAUNCH), and its flags after the
# program (MPIEXEC_POSTFLAGS) first in EULER_IMPLICIT_ARGS.
launch() {
  mpi_command "$1" "$EXE"
  local i
  for i in "${!MPI_COMMAND[@]}"; do [ "${MPI_COMMAND[i]}" = "$EXE" ] && break; done
  export EULER_IMPLICIT_LAUNCH="${MPI_COMMAND[*]:0:i}"
  POST="${MPI_COMMAND[*]:i+1}"
}
# py RANKS SCRIPT ARGS...: python3 SCRIPT with euler-implicit's ARGS, output in run.out/run.err.
py() {
  launch "$1"
  EULER_IMPLICIT_ARGS="$POST ${FLAGS[*]} ${*:3}" timeout 120 python3 -B "$2" > run.out 2> run.err
}
# exe RANKS ARGS...: euler-implicit itself.
exe() {
  mpi_command "$1" "$EXE"
  timeout 120 "${MPI_COMMAND[@]}" "${@:2}" "${FLAGS[@]}" > run.out 2> run.err
}
show() { [ "$failures" -eq 0 ] || sed 's/^/     | /' run.out run.err; }
left() { pgrep -f -- "--scene.python-main=$work" > /dev/null; }
none_left() { sleep 1; ! left; }

ln -s "$DATA/beam-small.msh" beam-small.msh
cat > beam.py << 'EOF'
import Sofa.Core


def beam(root, force=0.0):
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
    b.addObject("ConstantForceField", name="pull", indices=[98], forces=[[0.0, 0.0, force]])
    return b


def state(dofs, name):
    """The state as output.final-state writes it (id, x, y, z, vx, vy, vz)."""
    x, v = dofs.position.value, dofs.velocity.value
    with open(name, "w") as out:
        out.write("id,x,y,z,vx,vy,vz\n")
        for i in range(len(x)):
            out.write("%d,%s\n" % (i, ",".join(repr(float(c)) for c in list(x[i]) + list(v[i]))))


def energy(dofs):
    return 0.5 * 10.0 * sum(float(c) ** 2 for row in dofs.velocity.value for c in row)
EOF
# The main loop of SofaPython3's examples (basic.py), and a ramp controller.
cat > scene.py << 'EOF'
import Sofa.Core
import Sofa.Simulation
from beam import beam, energy, state


class Ramp(Sofa.Core.Controller):
    def __init__(self, *args, **kwargs):
        Sofa.Core.Controller.__init__(self, *args, **kwargs)
        self.pull = kwargs["pull"]
        self.k = 0

    def onAnimateBeginEvent(self, event):
        self.k += 1
        self.pull.forces = [[0.0, 0.0, -50.0 * self.k]]


def createScene(root):
    b = beam(root)
    root.addObject(Ramp(name="ramp", pull=b.pull))


def main():
    root = Sofa.Core.Node("root")
    createScene(root)
    Sofa.Simulation.init(root)
    with open("main.log", "w") as log:
        for k in range(1, 5):
            Sofa.Simulation.animate(root, root.dt.value)
            state(root.beam.dofs, "step%d.csv" % k)
            log.write("%r,%r\n" % (root.time.value, energy(root.beam.dofs)))


if __name__ == "__main__":
    main()
EOF
# The number columns of two final-state files, bit for bit (the same text is not required).
same_numbers() {
  awk -F, 'NR == FNR { if (FNR > 1) row[$1] = $0; next }
    FNR > 1 { split(row[$1], a, ","); for (i = 2; i <= 7; ++i) if (a[i] != $i + 0) bad = 1; n++ }
    END { exit bad || n == 0 }' "$1" "$2"
}

for ranks in 1 2 3; do
  status=0
  py "$ranks" scene.py --output.final-state="py$ranks.csv" --output.history="pyh$ranks.csv" ||
    status=$?
  check "python3 scene.py runs on $ranks rank(s)" test "$status" -eq 0
  show
  exe "$ranks" --scene scene.py --solver.steps=4 --output.final-state="exe$ranks.csv"
  check "python3 scene.py and euler-implicit --scene scene.py: the same final state, bit for bit ($ranks rank(s))" \
    cmp -s "py$ranks.csv" "exe$ranks.csv"
  check "the state read after the last animate is that final state ($ranks rank(s))" \
    same_numbers step4.csv "exe$ranks.csv"
  check "no process left" none_left
done
for k in 1 2 3; do
  exe 3 --scene scene.py --solver.steps=$k --output.final-state="exe-k$k.csv"
  check "the state read after animate $k is a $k-step run's final state, bit for bit" \
    same_numbers "step$k.csv" "exe-k$k.csv"
done
check "the time and kinetic energy read after each animate are the history's" \
  awk -F, 'NR == FNR { t[FNR] = $1; e[FNR] = $2; next }
    FNR > 1 { d = e[FNR - 1] - $7; if (d < 0) d = -d
              if (t[FNR - 1] != $2 || d > 1e-12 * $7 || $7 == 0) bad = 1; n++ }
    END { exit bad || n != 4 }' main.log pyh3.csv

# Writes between animate calls: the ramp and a dt of 0.02 from step 3, against the controller
# doing the same in onAnimateBeginEvent (dt set there in step 2 applies from step 3).
sed -e 's/        self.k += 1/        self.k += 1\n        if self.k == 2:\n            self.getContext().dt.value = 0.02/' \
  scene.py > controlled.py
sed -e 's/    root.addObject(Ramp(name="ramp", pull=b.pull))/    pass/' \
  -e 's/            Sofa.Simulation.animate(root, root.dt.value)/            root.beam.pull.forces = [[0.0, 0.0, -50.0 * k]]\n            Sofa.Simulation.animate(root, root.dt.value)\n            if k == 2:\n                root.dt.value = 0.02/' \
  scene.py > writes.py
status=0
py 2 writes.py --output.final-state=writes.csv --output.history=writes-history.csv || status=$?
check "forces and dt written between animate calls run" test "$status" -eq 0
show
exe 2 --scene controlled.py --solver.steps=4 --output.final-state=controlled.csv
check "they give the state of the same writes by a controller, bit for bit" \
  cmp -s writes.csv controlled.csv
check "the steps' times are 0.01 0.02 0.04 0.06" \
  awk -F, 'BEGIN { split("0.01 0.02 0.04 0.06", t, " ") }
    NR > 1 { d = $2 - t[NR - 1]; if (d < 0) d = -d; if (d > 1e-15) bad = 1; n++ }
    END { exit bad || n != 4 }' writes-history.csv
sed -e 's/            Sofa.Simulation.animate(root, root.dt.value)/            Sofa.Simulation.animate(root, 0.02 if k == 2 else 0.0)/' \
  scene.py > onestep.py
status=0
py 2 onestep.py --output.history=onestep-history.csv || status=$?
check "animate(root, 0.02) at step 2 of dt 0.01: times 0.01 0.03 0.04 0.05" \
  awk -F, 'BEGIN { split("0.01 0.03 0.04 0.05", t, " ") }
    NR > 1 { d = $2 - t[NR - 1]; if (d < 0) d = -d; if (d > 1e-15) bad = 1; n++ }
    END { exit bad || n != 4 }' onestep-history.csv
show

# reset: time 0, the initial state; two steps after it end where a 2-step run ends.
sed -e 's/    root.addObject(Ramp(name="ramp", pull=b.pull))/    b.pull.forces = [[0.0, 0.0, -100.0]]/' \
  -e 's/        for k in range(1, 5):/        for k in range(1, 3):\n            Sofa.Simulation.animate(root, root.dt.value)\n        Sofa.Simulation.reset(root)\n        assert root.time.value == 0.0, root.time.value\n        for k in range(1, 3):/' \
  scene.py > reset.py
status=0
py 2 reset.py --output.final-state=reset.csv || status=$?
check "a script that resets runs" test "$status" -eq 0
show
sed -e 's/    root.addObject(Ramp(name="ramp", pull=b.pull))/    b.pull.forces = [[0.0, 0.0, -100.0]]/' scene.py > plain.py
exe 2 --scene plain.py --solver.steps=2 --output.final-state=plain.csv
check "after reset, 2 steps end where a 2-step run ends, bit for bit" cmp -s reset.csv plain.csv

# mpiexec -n 2 python3 scene.py would start two runs: refused, pointing to EULER_IMPLICIT_RANKS.
mpi_command 2 python3
status=0
EULER_IMPLICIT_ARGS="$POST ${FLAGS[*]}" timeout 120 "${MPI_COMMAND[@]}" -B scene.py \
  > run.out 2> run.err || status=$?
check "mpiexec -n 2 python3 scene.py is refused, naming EULER_IMPLICIT_RANKS" \
  grep -q "^Sofa.Core.SceneError: Sofa.Simulation.init: this script is one of 2 MPI ranks, .*EULER_IMPLICIT_RANKS=N" run.err
check "(none left)" none_left
show

# The controllers' calls in the script's process, in SOFA's order; reset calls their reset().
cat > calls.py << 'EOF'
import Sofa.Core
import Sofa.Simulation
from beam import beam


class Say(Sofa.Core.Controller):
    def say(self, what):
        with open("calls.log", "a") as log:
            log.write(what + " ")

    def init(self):
        self.say("init")

    def bwdInit(self):
        self.say("bwdInit")

    def reset(self):
        self.say("reset")

    def onAnimateBeginEvent(self, event):
        self.say("begin")

    def onAnimateEndEvent(self, event):
        self.say("end")


def createScene(root):
    beam(root)
    root.addObject(Say(name="say"))


if __name__ == "__main__":
    root = Sofa.Core.Node("root")
    createScene(root)
    Sofa.Simulation.init(root)
    Sofa.Simulation.animate(root, root.dt.value)
    Sofa.Simulation.reset(root)
    Sofa.Simulation.animate(root, root.dt.value)
EOF
status=0
py 2 calls.py || status=$?
check "init, bwdInit, the events and reset() reach the script's controller in order" \
  test "$status" -eq 0 -a "$(cat calls.log)" = "init bwdInit begin end reset begin end "
show
sed -e 's/        self.say("init")/        raise RuntimeError("no init")/' calls.py > noinit.py
status=0
SECONDS=0
py 2 noinit.py || status=$?
check "an exception in a controller's init ends the script with it, and the engine, at once" \
  grep -q "^RuntimeError: no init$" run.err
check "(within 30 s)" test "$status" -ne 0 -a "$SECONDS" -lt 30
check "(none left)" none_left
show

# Ways out: none leaves a process behind, none hangs.
sed -e 's/            log.write(/            if k == 3:\n                raise ValueError("three")\n            log.write(/' \
  scene.py > boom.py
status=0
SECONDS=0
py 2 boom.py --output.final-state=boom.csv || status=$?
check "an exception in the script ends it with its traceback" \
  grep -q '^ValueError: three$' run.err
check "and the engine within 60 s, leaving no process" test "$status" -ne 0 -a "$SECONDS" -lt 60
check "(none left)" none_left
show
sed -e 's/        self.k += 1/        self.k += 1\n        if self.k == 3:\n            raise KeyError("in step three")/' \
  scene.py > cboom.py
line=$(grep -n 'raise KeyError' cboom.py | cut -d: -f1)
status=0
py 2 cboom.py || status=$?
check "an exception in a controller during animate: the engine's one error line names it" \
  grep -qx "euler-implicit: error: step 3 (t = 0.03): cboom.py:$line: in Ramp.onAnimateBeginEvent: KeyError: 'in step three'; the state of step 2 was written to the configured outputs" run.err
check "and the script ends with the exception" grep -q "^KeyError: 'in step three'$" run.err
check "(none left)" none_left
show
sed -e 's/        for k in range(1, 5):/        for k in range(0):/' scene.py > idle.py
status=0
py 2 idle.py --output.final-state=idle.csv || status=$?
check "a script that never animates exits with status 0" test "$status" -eq 0
check "(the final state is step 0's: 99 nodes at rest)" \
  awk -F, 'NR > 1 { n++; if ($5 != 0 || $6 != 0 || $7 != 0) bad = 1 } END { exit bad || n != 99 }' idle.csv
check "(none left)" none_left
show
for sig in INT KILL; do
  sed -e 's/        for k in range(1, 5):/        import signal\n        import time\n        signal.signal(signal.SIGINT, signal.default_int_handler)\n        open("started", "w").close()\n        time.sleep(300)\n        for k in range(0):/' \
    scene.py > wait.py
  rm -f started
  launch 2
  EULER_IMPLICIT_ARGS="$POST ${FLAGS[*]}" python3 -B wait.py > run.out 2> run.err &
  script=$!
  for _ in $(seq 600); do [ -e started ] && break; sleep 0.1; done
  kill -s "$sig" "$script"
  SECONDS=0
  { wait "$script"; } 2> /dev/null || true  # (no "Killed" line from bash)
  for _ in $(seq 300); do left || break; sleep 0.1; done
  check "SIG$sig to the script: the engine ends within 30 s, no process left" \
    test "$SECONDS" -lt 30 -a -e started
  check "(none left)" none_left
  show
done

echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
