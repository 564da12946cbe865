#!/usr/bin/env bash
# A controller writing a TetrahedronFEMForceField's localStiffnessFactor (euler-implicit --scene
# FILE.py), as SofaPython3's thermoelasticity.py does: with updateStiffness, SOFA computes each
# element's material stiffness again at every AnimateBeginEvent, element i's modulus E times
# localStiffnessFactor[i M / N]. A clamped beam of 96 tetrahedra under gravity, 7 factors (M != N)
# in the scene, replaced in place at the end of step 3 of 6:
#  - the run equals one of 3 steps from the state after step 3 (output.final-state of a run
#    without the write, as initial.state) with the new factors in the scene file, to 1e-12, on
#    1, 2 and 3 ranks, assembled (direct solve) and, on 2 ranks, matrix-free (CG);
#  - the same under mpiexec -n 2 python3 scene.py (the euler_implicit module), where built;
#  - it differs from the run without the write (so the factors are applied);
#  - without updateStiffness the write changes nothing, as in SOFA (the same bits), and is noted;
#  - a factor that is not a finite number, and method small (whose matrix is built once), are
#    one error line each.
# Before the change the write was refused ("cannot be written by a controller").
# Usage: stiffness_factor_controller.sh <python3 with numpy> <euler-implicit> <meshes dir>.
set -u
RANKS=3  # MPI ranks per run at most (tests/CMakeLists.txt: PROCESSORS)
# shellcheck source=SCRIPTDIR/../common/python_test.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/python_test.sh"
export PATH
PATH=$(dirname "$PYTHON"):$PATH

# The scene: tests/common/clamped_beam.py's beam and the controller.
cat "$COMMON/clamped_beam.py" - > scene.template << 'EOF_SCENE'
import Sofa.Core

WRITE_AT = @WRITE_AT@  # the step after whose end the controller writes the factors (0: never)
FACTORS = [@NEW@]


class Softener(Sofa.Core.Controller):
    """Writes localStiffnessFactor in place at the end of step WRITE_AT."""

    def __init__(self, *args, **kwargs):
        Sofa.Core.Controller.__init__(self, *args, **kwargs)
        self.fem = kwargs.get("fem")
        self.steps = 0

    def onAnimateEndEvent(self, event):
        self.steps += 1
        if self.steps == WRITE_AT:
            with self.fem.localStiffnessFactor.writeableArray() as factors:
                for i in range(len(factors)):
                    factors[i] = FACTORS[i]


def createScene(root):
    _, fem = clamped_beam(root, "SparseLDLSolver", {}, method="@METHOD@",
                          localStiffnessFactor=[@FILE@], updateStiffness=@UPDATE@)
    root.addObject(Softener(name="softener", fem=fem))


if __name__ == "__main__":
    import Sofa.Simulation
    root = Sofa.Core.Node("root")
    createScene(root)
    Sofa.Simulation.init(root)
    for k in range(6):
        Sofa.Simulation.animate(root, root.dt.value)
EOF_SCENE
# scene NAME WRITE_AT NEW FILE [METHOD [UPDATE]] > NAME.py
scene() {
  sed -e "s/@WRITE_AT@/$2/" -e "s/@NEW@/$3/" -e "s/@FILE@/$4/" -e "s/@METHOD@/${5:-large}/" \
    -e "s/@UPDATE@/${6:-True}/" scene.template > "$1.py"
}
F0="1, 0.8, 1.2, 1, 0.9, 1.1, 1"
F1="0.3, 1.5, 0.6, 2.0, 0.4, 1.2, 0.8"
scene written 3 "$F1" "$F0"
scene unwritten 0 "$F1" "$F0"
scene restarted 0 "$F1" "$F1"
scene ignored 3 "$F1" "$F0" large False
scene not_a_number 3 "float('nan'), 1, 1, 1, 1, 1, 1" "$F0"
scene small 3 "$F1" "$F0" small

# run RANKS SCENE STEPS OUT [KEY=VALUE..]: the scene's final state in OUT.csv.
run() {
  local ranks=$1 name=$2 steps=$3 out=$4
  mpi_command "$ranks" "$EXE"
  timeout 120 "${MPI_COMMAND[@]}" --scene "$name.py" --quiet --solver.steps="$steps" \
    --output.final-state="$out.csv" "${@:5}" > "$out.out" 2> "$out.err" < /dev/null && return
  sed 's/^/     | /' "$out.err"
  rm -f "$out.csv"  # a failed run's last good state compares with nothing
}
# differ A B BOUND: the largest difference of the two final states (every x and v) <= BOUND;
# "above" BOUND for the opposite.
differ() {
  /usr/bin/python3 - "$@" << 'EOF_CHECK'
import sys
import numpy
a, b = (numpy.loadtxt(f + ".csv", delimiter=",", skiprows=1) for f in sys.argv[1:3])
gap = abs(a - b).max() if a.shape == b.shape == (45, 7) else float("inf")
print("     | %s vs %s: %.3g" % (sys.argv[1], sys.argv[2], gap))
if len(sys.argv) > 4:
    sys.exit(0 if float(sys.argv[4]) < gap < float("inf") else 1)
sys.exit(0 if gap <= float(sys.argv[3]) else 1)
EOF_CHECK
}

run 1 unwritten 3 step3
run 1 unwritten 6 unwritten
MF=(--solver.operator=matrix-free --solver.linear=iterative --solver.rtol=1e-14
  --solver.max-iterations=2000)
for ranks in 1 2 3; do
  run "$ranks" written 6 "written$ranks"
  run "$ranks" restarted 3 "restarted$ranks" --initial.state=step3.csv
  check "$ranks rank(s): the factors written after step 3 = the run restarted there with them" \
    differ "written$ranks" "restarted$ranks" 1e-12
  check "$ranks rank(s): the written factors change the run" \
    differ "written$ranks" unwritten above 1e-3
done
run 2 written 6 matrix_free "${MF[@]}"
check "2 ranks, matrix-free: the factors written after step 3 = the restarted run" \
  differ matrix_free restarted2 1e-12
# In the script's process (the euler_implicit module, where it is built): the same write.
export PYTHONPATH
PYTHONPATH=$(dirname "$EXE")/../share/euler-implicit/python
if compgen -G "$PYTHONPATH/euler_implicit/_engine*" > /dev/null; then
  mpi_command 2 "$PYTHON"
  (unset EULER_IMPLICIT_LAUNCH EULER_IMPLICIT_RANKS
    EULER_IMPLICIT_ARGS="--quiet --output.final-state=in_process.csv" timeout 120 \
      "${MPI_COMMAND[@]}" -B written.py > in_process.out 2> in_process.err < /dev/null) ||
    sed 's/^/     | /' in_process.err
  check "2 ranks, python3 scene.py: the factors written after step 3 = the restarted run" \
    differ in_process restarted2 1e-12
else
  echo "skip python3 scene.py: the euler_implicit module is not built"
fi
run 1 ignored 6 ignored
check "without updateStiffness the write changes nothing (as in SOFA)" cmp -s ignored.csv unwritten.csv
check "without updateStiffness the write is noted" \
  grep -q "fem.localStiffnessFactor: written by a controller with no effect" ignored.out
check "a factor that is not a number: one error line" \
  refused "localStiffnessFactor: each factor must be a finite number, got nan" 2 "$EXE" \
  --scene not_a_number.py --quiet --solver.steps=6
check "method small: one error line naming it" \
  refused "localStiffnessFactor: .*method small, whose matrix is built once" 2 "$EXE" \
  --scene small.py --quiet --solver.steps=6

echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
