#!/usr/bin/env bash
# How a run ends on 2 ranks (app/run_outcome.hpp), driven by eis_lone_error_probe: an error every
# rank saw is one line from rank 0 and status 1; an error one rank saw while the other finished is
# the same; an error one rank saw while the other waits for it in a collective call is that rank's
# line, "rank 1: ...", and the job ends (MPI_Abort) instead of hanging.
# Usage: lone_error.sh <eis_lone_error_probe>; the MPI launch line: tests/common/mpi_launch.sh.
set -uo pipefail
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/mpi_launch.sh"
launch_in_scratch 2 "$1"

# shellcheck source=SCRIPTDIR/../common/checks.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/checks.sh"
run_mode() {  # run_mode MODE: runs the probe; sets status, err (its standard error)
  timeout 60 "${MPI_COMMAND[@]}" "$1" 2> err.txt > /dev/null
  status=$?
  err=$(grep '^euler-implicit: error:' err.txt)
}

run_mode all
check "collective error: status 1" test "$status" -eq 1
check "collective error: one line, from rank 0" \
  test "$err" = "euler-implicit: error: the same on every rank"

run_mode one
check "error on one rank, the other at the end: status 1" test "$status" -eq 1
check "error on one rank, the other at the end: its message, once" \
  test "$err" = "euler-implicit: error: seen by rank 1 only"

run_mode lone
check "lone error: the job ends, not by the 60 s timeout" test "$status" -ne 0 -a "$status" -ne 124
check "lone error: the failing rank names itself" \
  test "$err" = "euler-implicit: error: rank 1: seen by rank 1 only"

echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
