#!/usr/bin/env bash
# A restart (initial.restart) of a run whose Python controller changed the scene: a
# ConstantForceField's force, a TetrahedronFEMForceField's localStiffnessFactor (updateStiffness)
# or the root's dt, written once, at the end of step WRITE_AT (read from the root's time, so the
# restarted controller does not write again). The checkpoint holds them (controller_forces,
# controller_stiffness_factors, controller_dt, controller_next_dt): without them a restart
# from one written after such a write continued with the scene's values and silently differed
# from the run that was not stopped (0.17 apart after 6 steps, the force), then was refused.
# On a clamped beam of 45 nodes, 6 steps, a checkpoint after step 3, on 1 and 2 ranks:
#  - a force on each of two nodes, or factors, written at step 2: a restart from the checkpoint
#    after step 3 ends equal to the uninterrupted run's to the bit, and the writes change the run
#    (factors: method large, a nonlinear model, so with solver.initial-guess previous, Jacobi
#    and solver.pc-lag 1: README.md, "Restart");
#  - dt written at the end of step 2 (0.01, step 3's) and again during step 3 (0.015, at its
#    AnimateBeginEvent: for step 4 on, pending when the checkpoint is written): a restart from
#    the checkpoint after step 3 ends equal to the uninterrupted run's to the bit (solver.pc-lag
#    1, Jacobi), and the writes change the run;
#  - a write at step 4 (after it): a restart from the run's checkpoint after step 3 (what a kill
#    after it leaves) continues, and its final state equals the uninterrupted run's to the bit.
# CG, not SparseLDLSolver: MUMPS' Cholesky on 2 ranks is not the same to the last bit from one
# run to the next (about 5e-15 in 6 steps), so no restart could be compared with cmp; and
# method small (a linear model) where the restart is compared, as a nonlinear one's CG guess is
# not in the checkpoint (README.md, "Restart": bit for bit).
# Usage: controller_restart.sh <python3 with numpy> <euler-implicit> <meshes dir>.
set -u
RANKS=2  # MPI ranks per run at most (tests/CMakeLists.txt: PROCESSORS)
# shellcheck source=SCRIPTDIR/../common/python_test.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/python_test.sh"

# The scene: tests/common/clamped_beam.py's beam, a ConstantForceField and the writer.
cat "$COMMON/clamped_beam.py" - > scene.template << 'EOF_SCENE'
import Sofa.Core

WRITE_AT = @WRITE_AT@  # the step after whose end the controller writes
WHAT = "@WHAT@"  # force, factor or dt


class Writer(Sofa.Core.Controller):
    """Writes WHAT once, at the end of step WRITE_AT (by the root's time: a restart too)."""

    def __init__(self, *args, **kwargs):
        Sofa.Core.Controller.__init__(self, *args, **kwargs)
        self.root = kwargs.get("root")
        self.pull = kwargs.get("pull")
        self.fem = kwargs.get("fem")

    def onAnimateBeginEvent(self, event):
        if WHAT == "dt" and abs(self.root.time.value - 0.02 * WRITE_AT) < 1e-9:
            self.root.dt.value = 0.015

    def onAnimateEndEvent(self, event):
        if abs(self.root.time.value - 0.02 * WRITE_AT) > 1e-9:
            return
        if WHAT == "force":
            self.pull.forces = [[0.0, 3.0, -2.0], [1.0, 0.0, 0.5]]
        elif WHAT == "factor":
            self.fem.localStiffnessFactor.value = [0.5, 1.5, 0.8]
        else:
            self.root.dt.value = 0.01


def createScene(root):
    beam, fem = clamped_beam(root, "CGLinearSolver",
                             dict(iterations=500, tolerance=1e-12, threshold=1e-20),
                             method="@METHOD@", localStiffnessFactor=[1, 1, 1],
                             updateStiffness=True)
    pull = beam.addObject("ConstantForceField", name="pull", indices=[43, 44],
                          forces=[[0, 0, 0], [0, 0, 0]])
    root.addObject(Writer(name="writer", root=root, pull=pull, fem=fem))
EOF_SCENE
# scene NAME WRITE_AT WHAT > NAME.py
scene() {
  local method=small
  [ "$3" = factor ] && method=large  # small's matrix is built once: no factors written
  sed -e "s/@WRITE_AT@/$2/" -e "s/@WHAT@/$3/" -e "s/@METHOD@/$method/" scene.template > "$1.py"
}

# run RANKS SCENE STEPS OUT [KEY=VALUE..]: the scene's final state in OUT.csv, checkpoints OUT/ck.
run() {
  local ranks=$1 name=$2 steps=$3 out=$4
  mkdir -p "$out"
  mpi_command "$ranks" "$EXE"
  timeout 120 "${MPI_COMMAND[@]}" --scene "$name.py" --quiet --solver.steps="$steps" \
    --output.final-state="$out.csv" --output.checkpoint="$out/ck" --output.checkpoint-every=3 \
    "${@:5}" > "$out.out" 2> "$out.err" < /dev/null && return
  sed 's/^/     | /' "$out.err"
  rm -f "$out.csv"  # a failed run's last good state compares with nothing
}

scene dt 2 dt
scene early_factor 2 factor
scene early_force 2 force
for ranks in 1 2; do
  factor_keys=(--solver.initial-guess=previous --solver.pc-lag=1 --solver.preconditioner=jacobi)
  run "$ranks" early_factor 6 "factor_straight$ranks" "${factor_keys[@]}"
  run "$ranks" early_factor 6 "factor_stopped$ranks" "${factor_keys[@]}" \
    --restart="factor_straight$ranks/ck_000003.h5"
  check "$ranks rank(s), factors written before the checkpoint: the restart = the straight run" \
    cmp "factor_straight$ranks.csv" "factor_stopped$ranks.csv"
  run "$ranks" early_force 6 "force_straight$ranks"
  run "$ranks" early_force 6 "force_stopped$ranks" --restart="force_straight$ranks/ck_000003.h5"
  check "$ranks rank(s), force written before the checkpoint: the restart = the straight run" \
    cmp "force_straight$ranks.csv" "force_stopped$ranks.csv"
  # Each dt is another matrix: the preconditioner is set up again for each (solver.pc-lag 1),
  # and from it alone (Jacobi: GAMG would keep its first set-up's interpolation, which the
  # restart's first set-up builds anew; README.md, "Restart").
  dt_keys=(--solver.pc-lag=1 --solver.preconditioner=jacobi)
  run "$ranks" dt 6 "dt_straight$ranks" "${dt_keys[@]}"
  run "$ranks" dt 6 "dt_stopped$ranks" "${dt_keys[@]}" --restart="dt_straight$ranks/ck_000003.h5"
  check "$ranks rank(s), dt written before the checkpoint: the restart = the straight run" \
    cmp "dt_straight$ranks.csv" "dt_stopped$ranks.csv"
  scene late 4 force
  run "$ranks" late 6 "straight$ranks"
  run "$ranks" late 6 "stopped$ranks" --restart="straight$ranks/ck_000003.h5"
  check "$ranks rank(s), force written after the checkpoint: the restart = the straight run" \
    cmp "straight$ranks.csv" "stopped$ranks.csv"
done
scene unwritten 0 force
run 1 unwritten 6 unwritten
differs() { ! cmp -s "$1" "$2"; }
check "the write after the checkpoint changes the run" differs straight1.csv unwritten.csv
check "the dt writes change the run" differs dt_straight1.csv unwritten.csv
check "the force write before the checkpoint changes the run" \
  differs force_straight1.csv unwritten.csv
scene unwritten_factor 0 factor
run 1 unwritten_factor 6 unwritten_factor "${factor_keys[@]}"
check "the factors write changes the run" differs factor_straight1.csv unwritten_factor.csv

echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
