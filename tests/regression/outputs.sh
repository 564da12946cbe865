#!/usr/bin/env bash
# Output paths on 2 ranks: missing folders are created; a directory, an impossible folder or
# /dev/full fail with one error line naming the key and the path, and a bad path fails before
# step 1; a failed history write names the step and still leaves the final state of that step;
# the final state replaces its target whole (no temporary left behind, an old file untouched by
# a run that fails before its end); a failed VTK step names the step. On 1 and 2 ranks, a link
# or a regular file left at any output's temporary, or where a file is made afresh, is replaced,
# never written through (the file it points at intact), and the outputs are as without it.
# Usage: outputs.sh <euler-implicit> <meshes dir>; the MPI launch line: tests/common/mpi_launch.sh.
set -uo pipefail
RANKS=2  # MPI ranks per run; tests/CMakeLists.txt reads this line too (PROCESSORS)
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/mpi_launch.sh"
program=$(realpath "$1")
launch_in_scratch "$RANKS" "$1"

NODES=20  # the 4 x 1 x 1 box
run() {  # run NAME ARGS...: out/err in NAME.out, NAME.err, status in NAME.status
  local name=$1 status=0
  shift
  timeout 60 "${MPI_COMMAND[@]}" --mesh.box-cells="4 1 1" --solver.steps=3 "$@" \
    > "$name.out" 2> "$name.err" || status=$?
  echo "$status" > "$name.status"
}
# shellcheck source=SCRIPTDIR/../common/checks.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/checks.sh"
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

# Temporaries are never written through (issue 39). On 1 and 2 ranks, for every output kind, a
# link left at the name a temporary takes (PATH.partial, the .pvd's old PATH.tmp, a checkpoint's
# .h5.partial, the one the pre-run check probes) and pointing at a victim file leaves the victim
# as it was; so does a link where a file is created afresh (the XDMF .h5 of a fresh run, a VTK
# step's .pvtu and piece, mesh.convert's file). A regular file left at those names by an earlier
# run is replaced. The outputs are those of a run without any: a first run of 4 steps, two
# restarts to 6 and 8 steps (the second with regular leftovers), and the uninterrupted run of 8.
LINKED=(--solver.operator=matrix-free --solver.initial-guess=previous --mesh.box-cells="4 1 1")
run_linked() {  # run_linked RANKS NAME ARGS...
  local ranks=$1 name=$2 status=0
  shift 2
  mpi_command "$ranks" "$program"
  timeout 60 "${MPI_COMMAND[@]}" "${LINKED[@]}" "$@" > "$name.out" 2> "$name.err" || status=$?
  echo "$status" > "$name.status"
}
# plant DIR KIND NAME...: links DIR/NAME to a victim of its own, DIR/victims/KIND:NAME (a / of
# NAME as a +), that holds "precious".
plant() {
  local dir=$1 kind=$2 name victim
  shift 2
  mkdir -p "$dir/victims"
  for name in "$@"; do
    mkdir -p "$(dirname "$dir/$name")"
    victim=$(realpath "$dir/victims")/$kind:${name//\//+}
    echo precious > "$victim"
    rm -rf "${dir:?}/$name"
    ln -s "$victim" "$dir/$name"
  done
}
victims_intact() {  # victims_intact DIR [KIND]: every victim (of KIND) still holds "precious"
  local victim intact=0
  for victim in "$1/victims/${2:-}"*; do
    [ "$(cat "$victim")" = precious ] && continue
    echo "${victim##*/} now holds: $(head -c 40 "$victim" | tr -c '[:print:]' .)"
    intact=1
  done
  return $intact
}
stale() {  # stale DIR NAME...: a regular file left at DIR/NAME
  local name
  for name in "${@:2}"; do rm -f "$1/$name"; echo stale > "$1/$name"; done
}
no_link_left() { [ -z "$(find "$1" -type l)" ]; }
series_steps() { grep -o 'series_[0-9]*\.pvtu' "$1/series.pvd" | tr '\n' ' '; }
xdmf_steps() { grep -o 'Grid Name="step_[0-9]*"' "$1/x.xdmf" | tr '\n' ' '; }
is_hdf5() { [ "$(head -c 8 "$1" | od -An -c | tr -d ' ')" = '211HDF\r\n032\n' ]; }
for n in 1 2; do
  d=links$n
  mkdir -p $d
  run_linked $n $d/ref --solver.steps=8 --output.final-state=$d/ref.csv --output.history=$d/ref.h.csv \
    --output.vtk=$d/ref/series --output.xdmf=$d/ref/x
  all=("--output.final-state=$d/state.csv" "--output.history=$d/h.csv" "--output.vtk=$d/series"
       "--output.xdmf=$d/x" "--output.checkpoint=$d/ck" --output.checkpoint-every=2)
  plant $d final state.csv.partial
  plant $d vtk series.pvd.partial series.pvd.tmp series_000000.pvtu series_000000/piece_0000.vtu \
    series_000004/piece_0000.vtu
  plant $d xdmf x.xdmf.partial x.h5.partial x.h5
  plant $d checkpoint ck_000000.h5.partial ck_000002.h5.partial ck_000004.h5.partial
  run_linked $n $d/first --solver.steps=4 "${all[@]}"
  check "$n ranks, links at the temporaries: the run succeeds" test "$(cat $d/first.status)" -eq 0
  plant $d history h.csv.partial
  plant $d checkpoint ck_000006.h5.partial
  plant $d vtk series_000006/piece_0000.vtu
  run_linked $n $d/second --solver.steps=6 --restart=auto "${all[@]}"
  check "$n ranks, links at the temporaries: the restart succeeds" \
    test "$(cat $d/second.status)" -eq 0
  check "$n ranks: every victim of a link is as it was" victims_intact $d
  stale $d state.csv.partial h.csv.partial series.pvd.partial x.xdmf.partial ck_000008.h5.partial
  run_linked $n $d/third --solver.steps=8 --restart=auto "${all[@]}"
  check "$n ranks, regular leftovers at the temporaries: the restart succeeds" \
    test "$(cat $d/third.status)" -eq 0
  check "$n ranks: no temporary left" test -z "$(find $d -maxdepth 1 -name '*.partial')"
  check "$n ranks: no link left at the outputs" no_link_left $d/series_000000
  check "$n ranks: the final state is the uninterrupted run's" cmp -s $d/state.csv $d/ref.csv
  check "$n ranks: the history is the uninterrupted run's" \
    cmp -s <(cut -d, -f1,2 $d/h.csv) <(cut -d, -f1,2 $d/ref.h.csv)
  check "$n ranks: the ParaView series lists steps 0..8 once" \
    test "$(series_steps $d)" = "$(series_steps $d/ref)"
  check "$n ranks: the XDMF index lists steps 0..8 once" \
    test "$(xdmf_steps $d)" = "$(xdmf_steps $d/ref)"
  check "$n ranks: the XDMF .h5 is an HDF5 file, not a link" \
    bash -c "[ ! -L $d/x.h5 ] && $(declare -f is_hdf5); is_hdf5 $d/x.h5"
  check "$n ranks: the last two checkpoints are kept, HDF5 files" \
    bash -c "$(declare -f is_hdf5); is_hdf5 $d/ck_000006.h5 && is_hdf5 $d/ck_000008.h5"

  plant $d mesh mesh.h5.partial mesh.h5
  run_linked $n $d/convert --mesh.convert=$d/mesh.h5
  check "$n ranks, links at mesh.convert's file and temporary: the conversion succeeds" \
    test "$(cat $d/convert.status)" -eq 0
  check "$n ranks: mesh.convert left every victim as it was" victims_intact $d mesh
  stale $d mesh.h5.partial
  run_linked $n $d/convert2 --mesh.convert=$d/mesh.h5
  check "$n ranks, a regular leftover of mesh.convert: the conversion succeeds" \
    test "$(cat $d/convert2.status)" -eq 0
  check "$n ranks: no temporary of mesh.convert left" test ! -e $d/mesh.h5.partial
  run_linked $n $d/frommesh --solver.steps=8 --mesh.file=$d/mesh.h5 --output.final-state=$d/m.csv
  check "$n ranks: the converted mesh runs" test "$(cat $d/frommesh.status)" -eq 0
done

if ((failures)); then tail -n 5 ./*.err; fi
echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
