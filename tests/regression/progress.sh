#!/usr/bin/env bash
# The per-step progress lines on 2 ranks: one per step by default, each with the time left;
# output.progress-every = N prints steps 1, N, 2N, ... and the last; 0 and --quiet print none,
# but still the start-up report and the summary (and its CPU times per rank).
# Usage: progress.sh <euler-implicit> <meshes dir>; the MPI launch line: tests/common/mpi_launch.sh.
set -uo pipefail
RANKS=2  # MPI ranks per run; tests/CMakeLists.txt reads this line too (PROCESSORS)
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/mpi_launch.sh"
launch_in_scratch "$RANKS" "$1"

# shellcheck source=SCRIPTDIR/../common/checks.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/checks.sh"
steps_printed() {  # steps_printed ARGS...: the step numbers of the progress lines, one line
  if ! timeout 60 "${MPI_COMMAND[@]}" --mesh.box-cells="4 1 1" --solver.steps=10 "$@" > run.out ||
    ! grep -q '^set-up: ' run.out || ! grep -q '^summary: 10 steps' run.out; then
    echo "the run failed or lacks its report"
    return
  fi
  sed -n 's|^step \([0-9]*\)/10 .*|\1|p' run.out | tr '\n' ' '
}

check "default: every step" test "$(steps_printed)" = "1 2 3 4 5 6 7 8 9 10 "
check "each line ends with the time left" \
  test "$(grep -c '^step .*  left [0-9.]* s$' run.out)" -eq 10
check "the last line leaves no time" grep -q '^step 10/10 .*  left 0.00 s$' run.out
check "progress-every = 3: the first, every third and the last" \
  test "$(steps_printed --output.progress-every=3)" = "1 3 6 9 10 "
check "progress-every = 20: the first and the last" \
  test "$(steps_printed --output.progress-every=20)" = "1 10 "
check "progress-every = 0: no step lines" test "$(steps_printed --output.progress-every=0)" = ""
check "--quiet: no step lines" test "$(steps_printed --quiet)" = ""
check "the CPU seconds of the parts follow the summary, least..most over the ranks" \
  grep -q '^cpu time per rank: forces [0-9.]*\.\.[0-9.]* s, .*loop [0-9.]*\.\.[0-9.]* s' run.out
check "the summary counts the outputs' writing apart" \
  bash -c 'steps=$(timeout 60 "$@" --mesh.box-cells="4 1 1" --solver.steps=3 --quiet \
    --output.vtk=series) && grep -q "^summary: .*, outputs [0-9.]* s, .*other" <<<"$steps"' \
  _ "${MPI_COMMAND[@]}"

echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
