#!/usr/bin/env bash
# EIS_TEST_MAX_RANKS: configured with -DMPIEXEC_MAX_NUMPROCS=2, the project generates no test of
# more than 2 ranks (and says which it left out); configured without, the 3-rank tests are there.
# Usage: max_ranks.sh <cmake> <ctest> <source dir>
set -uo pipefail
cmake=$1 ctest=$2 source=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/eis_max_ranks.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
failures=0
check() {  # check DESCRIPTION COMMAND...
  if "${@:2}"; then echo "ok   $1"; else echo "FAIL $1"; failures=$((failures + 1)); fi
}
"$cmake" -S "$source" -B "$work/two" -DMPIEXEC_MAX_NUMPROCS=2 > "$work/two.log" 2>&1 ||
  { cat "$work/two.log"; exit 1; }
"$ctest" --test-dir "$work/two" -N > "$work/two.tests"
check "MPIEXEC_MAX_NUMPROCS=2: no mpi.np3" bash -c "! grep -q 'mpi.np3' '$work/two.tests'"
check "MPIEXEC_MAX_NUMPROCS=2: no 3-rank regression script (restart)" \
  bash -c "! grep -q 'regression.restart\$' '$work/two.tests'"
check "MPIEXEC_MAX_NUMPROCS=2: the 2-rank ones stay (mpi.np2, regression.outputs)" \
  bash -c "grep -q 'mpi.np2' '$work/two.tests' && grep -q 'regression.outputs' '$work/two.tests'"
check "MPIEXEC_MAX_NUMPROCS=2: configure names what it left out" \
  grep -q "Test mpi.np3 not generated: it starts 3 MPI ranks" "$work/two.log"
"$cmake" -S "$source" -B "$work/default" > /dev/null 2>&1
"$ctest" --test-dir "$work/default" -N > "$work/default.tests"
check "by default: mpi.np3 and the 3-rank scripts" \
  bash -c "grep -q 'mpi.np3' '$work/default.tests' && grep -q 'regression.restart\$' '$work/default.tests'"
exit $((failures > 0))
