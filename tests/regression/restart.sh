#!/usr/bin/env bash
# Checkpoints and restart on 1, 2 and 3 ranks: a run killed (SIGKILL) at a random step after its
# first checkpoint and restarted with --restart=auto ends bit for bit as the uninterrupted run on
# the same rank count, and within 1e-9 (relative) of it when restarted on another count; its
# history holds every step once with the uninterrupted run's times, and its ParaView series every
# frame once. The killed runs have no end in reach (100,000 steps), so a signal sent late by a
# busy machine still lands mid-run; the restarts end at the first multiple of 100 steps past it. SIGTERM ends a run after its step with a checkpoint, one line and status 75; a
# second signal ends it at once (mid-checkpoint too: --restart=auto then continues from the last
# whole one), one during start-up is held until the handlers are in place, and one during a .py scene's createScene kills its python3 at once. initial.state
# takes a checkpoint and continues its step and time.
# A truncated, foreign or missing checkpoint, or one of another mesh, is one clean error; with
# --restart=auto a cut newest checkpoint is skipped for the one before it. A checkpoint of another
# scene (another Young's modulus; --restart=auto in another run's folder) is refused naming the
# key, loaded with --restart-force and a warning; more steps or another tolerance are the same
# scene.
# Usage: restart.sh <euler-implicit> <meshes dir>; the MPI launch line: tests/common/mpi_launch.sh.
set -uo pipefail
RANKS=3  # MPI ranks at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/mpi_launch.sh"
program=$(realpath "$1")
launch_in_scratch "$RANKS" "$program"

STEPS=100
# Matrix-free with the previous solution as the KSP's start: the integrator's carried state is
# all in the checkpoint, so a restart on the same rank count is bit for bit (docs/architecture.md).
CELLS=(8 2 2)
SCENE=(--mesh.box-cells="${CELLS[*]}" --solver.operator=matrix-free --solver.initial-guess=previous
       --output.progress-every=0)
run_on() {  # run_on RANKS NAME ARGS...: out/err in NAME.out, NAME.err, status in NAME.status
  local ranks=$1 name=$2 status=0
  shift 2
  mpi_command "$ranks" "$program"
  [[ " $* " == *" --solver.steps="* ]] || set -- --solver.steps=$STEPS "$@"
  timeout 100 "${MPI_COMMAND[@]}" "${SCENE[@]}" "$@" \
    > "$name.out" 2> "$name.err" || status=$?
  echo "$status" > "$name.status"
}
# shellcheck source=SCRIPTDIR/../common/checks.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/checks.sh"
status_is() { [ "$(cat "$1.status")" -eq "$2" ]; }
failed_with() {  # failed_with NAME TEXT...: status 1, one error line holding every TEXT
  local name=$1 line
  shift
  status_is "$name" 1 || return 1
  [ "$(grep -c '^euler-implicit: error: ' "$name.err")" -eq 1 ] || return 1
  line=$(grep '^euler-implicit: error: ' "$name.err")
  for text in "$@"; do [[ $line == *"$text"* ]] || return 1; done
}
# agree A B: the largest position difference over the largest displacement from A's rest (the
# contract's agreement metric, with the rest shape from the CELLS box of size 10 x 1 x 1).
agree() {
  python3 - "$1" "$2" "${CELLS[@]}" <<'PY'
import csv, sys
a = list(csv.reader(open(sys.argv[1])))[1:]
b = list(csv.reader(open(sys.argv[2])))[1:]
cx, cy, cz = (int(c) for c in sys.argv[3:6])
assert len(a) == len(b) == (cx + 1) * (cy + 1) * (cz + 1)
diff = max(abs(float(p) - float(q)) for r, s in zip(a, b) for p, q in zip(r[1:4], s[1:4]))
disp = 0.0
for r in a:
    i = int(r[0])
    x = i % (cx + 1) * 10 / cx
    y = i // (cx + 1) % (cy + 1) / cy
    z = i // ((cx + 1) * (cy + 1)) / cz
    disp = max(disp, abs(float(r[1]) - x), abs(float(r[2]) - y), abs(float(r[3]) - z))
sys.exit(0 if diff / disp <= 1e-9 else print(f"agreement {diff / disp:g}") or 1)
PY
}
# The history's steps and times (the wall-clock column differs).
steps_and_times() { cut -d, -f1,2 "$1"; }
# kill_after_rows LAUNCHER ROWS HISTORY: waits until HISTORY has more than ROWS rows, then
# SIGKILLs the ranks (the children of the mpiexec LAUNCHER).
kill_after_rows() {
  local launcher=$1 rows=$2 history=$3
  for _ in $(seq 1 2000); do
    [ -f "$history" ] && [ "$(wc -l < "$history")" -gt "$rows" ] && break
    sleep 0.01
  done
  for pid in $(pgrep -P "$launcher"); do kill -KILL "$pid" 2> /dev/null; done
}

# ref_of RANKS END: the uninterrupted run of END steps on RANKS ranks, once (refRANKS_END.csv and
# refRANKS_END.history.csv).
ref_of() {
  [ -f ref$1_$2.csv ] || run_on "$1" ref$1_$2 --solver.steps="$2" --output.final-state=ref$1_$2.csv \
    --output.history=ref$1_$2.history.csv
}
for n in 1 2 3; do
  ref_of $n $STEPS
  check "reference run on $n ranks" status_is ref${n}_$STEPS 0
done

# SIGKILL once the history passes a random step between 21 and 58 (checkpoints every 20 steps),
# restarted on the same count and on another. Not at step 20 itself: its history row is written
# before its checkpoint, so a kill there may leave no checkpoint, and the restart starts afresh
# (seen under load).
for n in 1 2 3; do
  for m in $n $((n % 3 + 1)); do
    dir=kill$n$m
    mkdir -p $dir
    args=(--output.checkpoint=$dir/ck --output.checkpoint-every=20 --output.history=$dir/h.csv
          --output.vtk=$dir/series --output.every=25 --output.final-state=$dir/state.csv)
    mpi_command "$n" "$program"
    "${MPI_COMMAND[@]}" "${SCENE[@]}" --solver.steps=100000 "${args[@]}" > $dir/first.out 2>&1 &
    launcher=$!
    kill_after_rows $launcher $((21 + RANDOM % 38)) $dir/h.csv
    wait $launcher
    killed_at=$(tail -n 1 $dir/h.csv | cut -d, -f1)
    end=$(((killed_at / STEPS + 1) * STEPS))
    check "$n ranks: killed at step $killed_at, past the first checkpoint" test "$killed_at" -gt 20
    check "$n ranks: no final state after the kill" test ! -e $dir/state.csv
    ref_of $n $end
    ref_of $m $end
    run_on "$m" $dir/restart --restart=auto --solver.steps=$end "${args[@]}"
    check "$n ranks killed, $m ranks restart: status 0" status_is $dir/restart 0
    check "$n -> $m ranks: the restart said where it started" \
      grep -Eq "^initial.restart: $dir/ck_000[0-9]{2}0.h5, step [0-9]+0, t = " $dir/restart.out
    if [ $n -eq $m ]; then
      check "$n -> $m ranks: final state bit for bit the uninterrupted run's" \
        cmp -s $dir/state.csv ref${n}_$end.csv
    else
      check "$n -> $m ranks: final state agrees with the uninterrupted run to 1e-9" \
        agree ref${m}_$end.csv $dir/state.csv
    fi
    check "$n -> $m ranks: history holds steps 1..$end once, with the uninterrupted times" \
      cmp -s <(steps_and_times $dir/h.csv) <(steps_and_times ref${n}_$end.history.csv)
    check "$n -> $m ranks: the ParaView series lists steps 0, 25, ..., $end once" \
      test "$(grep -o 'series_[0-9]*\.pvtu' $dir/series.pvd | tr '\n' ' ')" = \
      "$(for f in $(seq 0 25 $end); do printf 'series_%06d.pvtu ' "$f"; done)"
    check "$n -> $m ranks: the last two checkpoints are kept" \
      test "$(ls $dir | grep -c '^ck_.*\.h5$')" -eq 2
  done
done

# SIGTERM to every rank mid-run: a checkpoint of the step it ended, one line, status 75. The run
# has no end in reach, so the signal always lands mid-run, however late the watcher sends it; the
# step it stopped after then sets the uninterrupted runs it is compared with.
mkdir -p term
mpi_command 2 "$program"
timeout 100 "${MPI_COMMAND[@]}" "${SCENE[@]}" --solver.steps=100000 --output.checkpoint=term/ck \
  --output.history=term/h.csv --output.final-state=term/state.csv > term.out 2> term.err &
launcher=$!
for _ in $(seq 1 2000); do
  [ -f term/h.csv ] && [ "$(wc -l < term/h.csv)" -gt 30 ] && break
  sleep 0.01
done
for pid in $(pgrep -P "$(pgrep -P $launcher)"); do kill -TERM "$pid"; done
wait $launcher
echo $? > term.status
stopped=$(tail -n 1 term/h.csv | cut -d, -f1)
check "SIGTERM: status 75" status_is term 75
check "SIGTERM: one line naming the signal and the step" \
  test "$(grep -c "^euler-implicit: stopped by SIGTERM after step $stopped " term.out)" -eq 1
check "SIGTERM: the checkpoint of that step" test -f "term/ck_$(printf %06d "$stopped").h5"
run_on 2 term/upto --solver.steps="$stopped" --output.final-state=term/upto.csv
check "SIGTERM: the final state bit for bit the uninterrupted run's of that step" \
  cmp -s term/state.csv term/upto.csv
run_on 2 term/restart --restart=auto --output.checkpoint=term/ck --solver.steps=$((stopped + 10)) \
  --output.final-state=term/end.csv
run_on 2 term/ref --solver.steps=$((stopped + 10)) --output.final-state=term/ref.csv
check "SIGTERM: the restart finishes bit for bit as the uninterrupted run" \
  cmp -s term/end.csv term/ref.csv

# A second signal ends the run at once: no checkpoint, not status 75.
mkdir -p twice
"${MPI_COMMAND[@]}" "${SCENE[@]}" --solver.steps=100000 --output.checkpoint=twice/ck \
  --output.history=twice/h.csv > twice.out 2> twice.err &
launcher=$!
for _ in $(seq 1 2000); do
  [ -f twice/h.csv ] && [ "$(wc -l < twice/h.csv)" -gt 5 ] && break
  sleep 0.01
done
# Two different signals: two of the same kind sent at once may reach the process as one.
for pid in $(pgrep -P $launcher); do kill -USR1 "$pid"; kill -TERM "$pid"; done
wait $launcher
echo $? > twice.status
check "a second signal: the run ends, neither 0 nor 75" \
  bash -c '[ "$(cat twice.status)" -ne 0 ] && [ "$(cat twice.status)" -ne 75 ]'
check "a second signal: no checkpoint written" test -z "$(ls twice | grep '\.h5$')"

# The same while checkpoints are written every step, so the second signal meets one being
# written as often as not: the run may die mid-write, but what --restart=auto finds is the last
# whole checkpoint (a .partial is never taken), and the run continues from it.
mkdir -p often
"${MPI_COMMAND[@]}" "${SCENE[@]}" --solver.steps=100000 --output.checkpoint=often/ck \
  --output.checkpoint-every=1 --output.history=often/h.csv > often.out 2> often.err &
launcher=$!
for _ in $(seq 1 2000); do
  [ -f often/h.csv ] && [ "$(wc -l < often/h.csv)" -gt 5 ] && break
  sleep 0.01
done
for pid in $(pgrep -P $launcher); do kill -USR1 "$pid"; kill -TERM "$pid"; done
wait $launcher
newest=$(find often -name 'ck_*.h5' | sort | tail -n 1)
newest_step=$((10#$(basename "$newest" .h5 | sed 's/^ck_//')))
run_on 2 often/restart --restart=auto --output.checkpoint=often/ck \
  --solver.steps=$((newest_step + 3))
check "a second signal mid-checkpoint: --restart=auto continues from the newest whole one" \
  bash -c "[ \"\$(cat often/restart.status)\" -eq 0 ] &&
    grep -q '^initial.restart: $newest, step $newest_step,' often/restart.out"

# A stop signal that arrives while MPI and PETSc start, before the handlers are in place, is
# held until they are, and the run stops after its first step (status 75). Made exact here: the
# launcher blocks SIGUSR1, sends it to itself and execs the program, which starts with it
# pending (before the fix it stayed blocked, lost, and the run finished with status 0).
/usr/bin/env python3 - "$program" --mesh.box-cells="4 1 1" --solver.steps=50 \
  --output.progress-every=0 > early.out 2>&1 <<'PY'
import os, signal, sys
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR1})
pid = os.fork()
if pid == 0:
    os.kill(os.getpid(), signal.SIGUSR1)
    os.execv(sys.argv[1], sys.argv[1:])
_, status = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(status))
PY
echo $? > early.status
check "a signal during start-up: held, then the run stops after step 1 (status 75)" \
  bash -c '[ "$(cat early.status)" -eq 75 ] && grep -q "stopped by SIGUSR1 after step 1 " early.out'

# SIGTERM while a .py scene's createScene loops: python3 is killed at once (not after the scene
# time limit), one error line, status 1, no python3 left behind.
printf 'import os\ndef createScene(root):\n    open("endless.pid", "w").write(str(os.getpid()))\n    while True:\n        pass\n' \
  > endless.py
mpi_command 2 "$program"
"${MPI_COMMAND[@]}" --scene=endless.py > endless.out 2> endless.err &
launcher=$!
for _ in $(seq 1 2000); do
  [ -s endless.pid ] && break
  sleep 0.01
done
started=$SECONDS
for pid in $(pgrep -P $launcher); do kill -TERM "$pid"; done
wait $launcher
echo $? > endless.status
check "SIGTERM during a .py scene: the run ends within 10 s" test $((SECONDS - started)) -le 10
check "SIGTERM during a .py scene: one error line, status 1" failed_with endless \
  "scene.file = endless.py: stopped by signal 15" "python3 killed"
check "SIGTERM during a .py scene: no python3 left" bash -c "! kill -0 $(cat endless.pid)"

# A checkpoint of step 100, for the tests below.
mkdir -p ck100
run_on 2 ck100/run --output.checkpoint=ck100/ck --output.checkpoint-every=$STEPS
check "a run's checkpoint of step $STEPS" test -f ck100/ck_000100.h5

# initial.state = a checkpoint: the state, step and time continue; the outputs start afresh.
run_on 2 fromstate --initial.state=ck100/ck_000100.h5 --solver.steps=$((STEPS + 5)) \
  --output.history=fromstate.csv
check "initial.state = checkpoint: status 0" status_is fromstate 0
check "initial.state = checkpoint: the history starts at step 101, t = 1.01" \
  test "$(sed -n 2p fromstate.csv | cut -d, -f1,2)" = "101,1.01"

# GAMG keeps its first set-up's interpolation for later ones unless told not to, and a restart
# builds it from its own first matrix: with -pc_gamg_reuse_interpolation false and a
# preconditioner set up at every step, a nonlinear model's restart is bit for bit (README).
GAMG=(--mesh.box-cells="12 3 3" --material.model=corotational --solver.preconditioner=gamg
      --solver.pc-lag=1 --solver.initial-guess=zero --output.progress-every=0
      -pc_gamg_reuse_interpolation false)
mkdir -p gamg
for run in "full --solver.steps=20 --output.final-state=gamg/full.csv" \
  "first --solver.steps=10 --output.checkpoint=gamg/ck" \
  "rest --solver.steps=20 --restart=gamg/ck_000010.h5 --output.final-state=gamg/rest.csv"; do
  # shellcheck disable=SC2086  # the run's name and options are words
  set -- $run
  mpi_command 2 "$program"
  timeout 100 "${MPI_COMMAND[@]}" "${GAMG[@]}" "${@:2}" > "gamg/$1.out" 2>&1
done
check "GAMG without reused interpolation, pc-lag 1: a corotational restart is bit for bit" \
  cmp -s gamg/full.csv gamg/rest.csv

# Bad checkpoints: one error line each, before any step.
head -c 2000 ck100/ck_000100.h5 > truncated.h5
echo "id,x,y,z,vx,vy,vz" > text.h5
run_on 2 truncated --restart=truncated.h5
check "truncated checkpoint: clean error" failed_with truncated "initial.restart = truncated.h5" \
  "cannot be read as HDF5"
run_on 2 text --restart=text.h5
check "a text file: clean error" failed_with text "not an HDF5 file"
run_on 2 missing --restart=missing.h5
check "a missing checkpoint: clean error" failed_with missing "missing.h5: no such file"
run_on 2 othermesh --restart=ck100/ck_000100.h5 --mesh.refine=1
check "another mesh's checkpoint: clean error" failed_with othermesh "written for 81 nodes" \
  "this mesh has 425"
run_on 2 otherscene --restart=ck100/ck_000100.h5 --solver.steps=102 \
  --material.young-modulus=123456
check "another scene's checkpoint: clean error naming the key" failed_with otherscene \
  "initial.restart = ck100/ck_000100.h5: written by another scene: material.young-modulus is " \
  " 123456 in this scene (--restart-force loads it anyway)"
run_on 2 forced --restart=ck100/ck_000100.h5 --solver.steps=102 --material.young-modulus=123456 \
  --restart-force
check "--restart-force: loaded, status 0" status_is forced 0
check "--restart-force: one warning naming the key" test "$(grep -c "^euler-implicit: warning: \
initial.restart = ck100/ck_000100.h5: written by another scene: material.young-modulus is .*; \
loaded anyway (--restart-force)" forced.out)" -eq 1
run_on 2 otherchain --restart=auto --output.checkpoint=ck100/ck --material.young-modulus=123456
check "--restart=auto in a folder of another scene's run: refused naming the checkpoint" \
  failed_with otherchain "initial.restart = ck100/ck_000100.h5: written by another scene: " \
  "material.young-modulus"
check "... and it was not skipped as damaged" test "$(grep -c 'skipped' otherchain.out)" -eq 0
run_on 2 samescene --restart=ck100/ck_000100.h5 --solver.steps=102 --solver.rtol=1e-10 \
  --output.history=samescene.csv
check "more steps, another tolerance and outputs: the same scene" status_is samescene 0
run_on 2 noprefix --restart=auto
check "--restart=auto without output.checkpoint: clean error" failed_with noprefix \
  "needs output.checkpoint"
run_on 2 complete --restart=ck100/ck_000100.h5 --solver.steps=30
check "a restart past solver.steps says the run is complete and how to go on" \
  grep -q "the run is already complete: it starts at step 100 .*give a larger --solver.steps" \
  complete.out
check "... and ends with status 0" status_is complete 0
run_on 2 fresh --restart=auto --output.checkpoint=none/ck --output.final-state=fresh.csv
check "--restart=auto with no checkpoint: a fresh start, the uninterrupted run" \
  cmp -s fresh.csv ref2_$STEPS.csv

# A newest checkpoint cut short (a node failure under a file system that had renamed it already)
# is skipped by --restart=auto, with one warning naming it and why, and the run continues from
# the one before it, ending bit for bit as the uninterrupted run; --restart=FILE still refuses
# it. On 1 and 2 ranks. When none can be read, one error naming the newest and why.
for n in 1 2; do
  dir=fallback$n
  mkdir -p $dir
  run_on $n $dir/first --solver.steps=40 --output.checkpoint=$dir/ck --output.checkpoint-every=20
  check "$n ranks: checkpoints of steps 20 and 40" \
    test -f $dir/ck_000020.h5 -a -f $dir/ck_000040.h5
  head -c 2000 $dir/ck_000040.h5 > $dir/cut.h5
  mv $dir/cut.h5 $dir/ck_000040.h5
  run_on $n $dir/file --restart=$dir/ck_000040.h5
  check "$n ranks: --restart=FILE of the cut checkpoint: clean error" \
    failed_with $dir/file "initial.restart = $dir/ck_000040.h5" "cannot be read as HDF5"
  run_on $n $dir/restart --restart=auto --output.checkpoint=$dir/ck --output.checkpoint-every=20 \
    --output.final-state=$dir/state.csv
  check "$n ranks: --restart=auto past a cut newest checkpoint: status 0" status_is $dir/restart 0
  check "$n ranks: one warning naming the skipped checkpoint and why" test "$(grep -c \
    "^euler-implicit: warning: initial.restart = auto: skipped $dir/ck_000040.h5: cannot be read as HDF5" \
    $dir/restart.out)" -eq 1
  check "$n ranks: restarted from the checkpoint before it" \
    grep -q "^initial.restart: $dir/ck_000020.h5, step 20, t = " $dir/restart.out
  check "$n ranks: final state bit for bit the uninterrupted run's" \
    cmp -s $dir/state.csv ref${n}_$STEPS.csv
done
mkdir -p allcut
head -c 2000 fallback2/ck_000020.h5 > allcut/ck_000020.h5
cp truncated.h5 allcut/ck_000040.h5
run_on 2 allcut/restart --restart=auto --output.checkpoint=allcut/ck
check "--restart=auto with no readable checkpoint: one error naming the newest" \
  failed_with allcut/restart "initial.restart = auto" "allcut/ck_000040.h5" "cannot be read as HDF5"
check "--restart=auto with no readable checkpoint: a warning for each" test "$(grep -c \
  "^euler-implicit: warning: initial.restart = auto: skipped allcut/ck_0000[24]0.h5: " \
  allcut/restart.out)" -eq 2

echo "$failures failures"
[ "$failures" -eq 0 ]
