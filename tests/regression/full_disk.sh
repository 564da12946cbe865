#!/usr/bin/env bash
# A disk that fills under one rank's part of a collective HDF5 write (output.xdmf, a checkpoint)
# or of the ParaView series (output.vtk, a piece per rank):
# the run ends on every rank within a minute (it hung before: the other rank waited in the next
# collective call), with one error line naming the key, the file, the step and, where the failing
# rank is the first, the cause; the final state of that step is still written whole, and a
# checkpoint that failed leaves no .partial.
#
# A full disk is made per process: each rank runs under a wrapper that ignores SIGXFSZ and, on
# the chosen rank only, limits the size of the files it writes (ulimit -f), so that rank's write
# fails with "File too large" (EFBIG) as a full disk fails with ENOSPC.
# Usage: full_disk.sh <euler-implicit> <meshes dir>; the MPI launch line: tests/common/mpi_launch.sh.
set -uo pipefail
RANKS=2  # MPI ranks per run; tests/CMakeLists.txt reads this line too (PROCESSORS)
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/mpi_launch.sh"
program=$(realpath "$1")
launch_in_scratch "$RANKS" "$1"

cat > limited.sh <<'EOF'
#!/usr/bin/env bash
# limited.sh PROGRAM ARGS...: PROGRAM, its writes limited to EIS_LIMIT_KB on rank EIS_FULL_RANK.
trap '' XFSZ
rank=${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-${PMIX_RANK:-0}}}
if [ "$rank" = "$EIS_FULL_RANK" ]; then ulimit -f "$EIS_LIMIT_KB"; fi
exec "$@"
EOF
chmod +x limited.sh
mpi_command "$RANKS" "$PWD/limited.sh"

NODES=81  # the 8 x 2 x 2 box
run() {  # run NAME RANK LIMIT_KB ARGS...: out/err in NAME.out, NAME.err, status in NAME.status
  local name=$1 status=0
  export EIS_FULL_RANK=$2 EIS_LIMIT_KB=$3
  shift 3
  timeout 60 "${MPI_COMMAND[@]}" "$program" --mesh.box-cells="8 2 2" --solver.steps=20 "$@" \
    > "$name.out" 2> "$name.err" || status=$?
  echo "$status" > "$name.status"
}
# shellcheck source=SCRIPTDIR/../common/checks.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/checks.sh"
failed_with() {  # failed_with NAME TEXT...: failed (not timed out), one error line holding each TEXT
  local name=$1 line status
  shift
  status=$(cat "$name.status")
  [ "$status" -ne 0 ] && [ "$status" -ne 124 ] || return 1
  [ "$(grep -c '^euler-implicit: error: ' "$name.err")" -eq 1 ] || return 1
  line=$(grep '^euler-implicit: error: ' "$name.err")
  for text in "$@"; do [[ $line == *"$text"* ]] || return 1; done
}
error_step() {  # error_step NAME: the step the error line names
  sed -n 's/^euler-implicit: error: step \([0-9]*\) .*/\1/p' "$1.err"
}
state_of_step() {  # state_of_step NAME CSV: the CSV is whole and the error names a step
  [ "$(head -n 1 "$2")" = id,x,y,z,vx,vy,vz ] && [ "$(wc -l < "$2")" -eq $((NODES + 1)) ] &&
    [ -n "$(error_step "$1")" ]
}

for rank in 1 0; do
  run "xdmf_$rank" "$rank" 40 --output.xdmf="x$rank/beam" --output.final-state="x$rank/state.csv"
  check "xdmf, rank $rank's part too large: one error naming the key, file and step" \
    failed_with "xdmf_$rank" "step " "output.xdmf = x$rank/beam.h5" "failed"
  check "xdmf, rank $rank: the final state of the failed step is whole" \
    state_of_step "xdmf_$rank" "x$rank/state.csv"
  run "ck_$rank" "$rank" 6 --output.checkpoint="c$rank/ck" --output.checkpoint-every=1
  check "checkpoint, rank $rank's part too large: one error naming the key, file and step" \
    failed_with "ck_$rank" "step " "output.checkpoint = c$rank/ck_" "failed"
  check "checkpoint, rank $rank: no .partial left" \
    bash -c "! ls c$rank/*.partial 2>/dev/null | grep -q ."
done
for rank in 1 0; do
  run "vtk_$rank" "$rank" 6 --output.vtk="v$rank/beam"
  check "vtk, rank $rank's piece too large: one error naming the series, the file and the step" \
    failed_with "vtk_$rank" "(step 0): VTK output" "piece_000$rank.vtu" "File too large"
done
check "the cause is named where the first rank failed (rank 1's only)" \
  failed_with xdmf_1 "File too large"
check "xdmf: the failure came at a step after the mesh was written" \
  test "$(error_step xdmf_1)" -ge 1

echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
