#!/usr/bin/env bash
# How a run ends on 2 ranks (app/run_outcome.hpp), driven by eis_lone_error_probe: an error every
# rank saw is one line from rank 0 and status 1; an error one rank saw while the other finished is
# the same; an error one rank saw while the other waits for it in a collective call is that rank's
# line, "rank 1: ...", and the job ends (MPI_Abort) instead of hanging. Then the same lone error
# in a real run of euler-implicit, which must end the same way.
# Usage: lone_error.sh <eis_lone_error_probe> <euler-implicit>; the MPI launch line:
# tests/common/mpi_launch.sh.
set -uo pipefail
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/mpi_launch.sh"
program=$(realpath "$2")
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

# A run in which rank 0 alone fails, inside the step's linear solve (SOR smoothers meet a zero
# pivot on its part of a GAMG level, made an error by -ksp_error_if_not_converged), while rank 1
# waits for it in the solve's next collective call. The communicator of the ranks' last meeting
# was made after the run: a collective call too, it hung there until the timeout; and the last
# good state, which every rank writes together, waited there for rank 1 too. Rank 0 is known to
# fail alone here: it waits 2 s for the others, not 20 (EULER_IMPLICIT_LONE_ERROR_WAIT).
mpi_command 2 "$program"
EULER_IMPLICIT_LONE_ERROR_WAIT=2 timeout 60 "${MPI_COMMAND[@]}" --mesh.box-cells="40 8 8" --solver.steps=1 \
  --output.final-state=final.csv \
  -mg_levels_ksp_type richardson -mg_levels_pc_type sor -ksp_error_if_not_converged \
  2> err.txt > /dev/null
status=$?
check "lone error in a run: the job ends, not by the 60 s timeout" \
  test "$status" -ne 0 -a "$status" -ne 124
check "lone error in a run: the failing rank names itself and the solve's failure" \
  grep -q '^euler-implicit: error: rank 0: step 1 .*ZEROPIVOT' err.txt
check "lone error in a run: it says that no state was written" \
  grep -q 'the other ranks did not fail with it, so no state was written' err.txt

echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
