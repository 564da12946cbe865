#!/usr/bin/env bash
# Output paths on 2 ranks: missing folders are created; a directory, an impossible folder or
# /dev/full fail with one error line naming the key and the path, and a bad path fails before
# step 1; a failed history write names the step and still leaves the final state of that step;
# the final state replaces its target whole (no temporary left behind, an old file untouched by
# a run that fails before its end); a failed VTK step names the step.
# Usage: outputs.sh <euler-implicit> <meshes dir>; the MPI launch line: tests/common/mpi_launch.sh.
set -uo pipefail
RANKS=2  # MPI ranks per run; tests/CMakeLists.txt reads this line too (PROCESSORS)
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/mpi_launch.sh"
launch_in_scratch "$RANKS" "$1"

NODES=20  # the 4 x 1 x 1 box
run() {  # run NAME ARGS...: out/err in NAME.out, NAME.err, status in NAME.status
  local name=$1 status=0
  shift
  timeout 60 "${MPI_COMMAND[@]}" --mesh.box-cells="4 1 1" --solver.steps=3 "$@" \
    > "$name.out" 2> "$name.err" || status=$?
  echo "$status" > "$name.status"
}
failures=0
checks=0
check() {  # check DESCRIPTION COMMAND...
  checks=$((checks + 1))
  if "${@:2}"; then echo "ok   $1"; else echo "FAIL $1"; failures=$((failures + 1)); fi
}
failed_with() {  # failed_with NAME TEXT...: non-zero status, one error line holding every TEXT
  local name=$1 line
  shift
  [ "$(cat "$name.status")" -ne 0 ] || return 1
  [ "$(grep -c '^euler-implicit: error: ' "$name.err")" -eq 1 ] || return 1
  line=$(grep '^euler-implicit: error: ' "$name.err")
  for text in "$@"; do [[ $line == *"$text"* ]] || return 1; done
}
no_step_ran() { ! grep -q '^step ' "$1.out"; }
whole_state() { [ "$(head -n 1 "$1")" = id,x,y,z,vx,vy,vz ] && [ "$(wc -l < "$1")" -eq $((NODES + 1)) ]; }

run created --output.history=a/b/history.csv --output.final-state=c/d/state.csv
check "missing folders: the run succeeds" test "$(cat created.status)" -eq 0
check "missing folders: the history has its header and 3 rows" \
  test "$(wc -l < a/b/history.csv)" -eq 4
check "missing folders: the final state is whole" whole_state c/d/state.csv
check "no temporary left beside the final state" test "$(ls -A c/d)" = state.csv

mkdir folder
run history_dir --output.history=folder
check "history = a directory: one error naming key and path" \
  failed_with history_dir "output.history = folder" "is a directory"
check "history = a directory: no step ran" no_step_ran history_dir
echo old > kept.csv
run state_dir --output.final-state=folder --output.history=h.csv
check "final-state = a directory: one error naming key and path" \
  failed_with state_dir "output.final-state = folder" "is a directory"
check "final-state = a directory: no step ran" no_step_ran state_dir
touch plain
run under_file --output.final-state=plain/state.csv
check "final-state under a regular file: one error naming the folder" \
  failed_with under_file "output.final-state = plain/state.csv" "cannot create the folder"
run vtk_under_file --output.vtk=plain/x/beam
check "vtk under a regular file: one error naming key and prefix" \
  failed_with vtk_under_file "output.vtk = plain/x/beam" "cannot create the folder"
check "vtk under a regular file: no step ran" no_step_ran vtk_under_file
run state_full --output.final-state=/dev/full
check "final-state = /dev/full: one error, before step 1" \
  failed_with state_full "output.final-state = /dev/full" "not a regular file"
check "final-state = /dev/full: no step ran" no_step_ran state_full

run history_full --output.history=/dev/full --output.final-state=full_state.csv
check "history = /dev/full: one error naming the step and the path" \
  failed_with history_full "step 1 (t = 0.01)" "output.history = /dev/full" "write failed"
check "history = /dev/full: the final state of step 1 is still written whole" \
  whole_state full_state.csv
check "history = /dev/full: no temporary left behind" test ! -e full_state.csv.partial

run kept --output.history=folder --output.final-state=kept.csv
check "a run that fails leaves the old final state as it was" test "$(cat kept.csv)" = old
run replaced --output.final-state=kept.csv
check "a run that succeeds replaces the old final state whole" whole_state kept.csv
check "no temporary left after replacing" test ! -e kept.csv.partial

# Step 0 writes series_000000; a file where step 2's folder must go fails step 2 only.
touch series_000002
run vtk_step --output.vtk=series
check "a failed VTK step: one error naming the step" failed_with vtk_step "step 2 (t = 0.02)"
check "a failed VTK step: step 1 ran" grep -q '^step 1/3' vtk_step.out

if ((failures)); then tail -n 5 ./*.err; fi
echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
