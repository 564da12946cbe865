#!/usr/bin/env bash
# PETSc's own diagnostics options run clean on 2 ranks: each run exits 0, PETSc reports no error
# (-malloc_debug and -malloc_dump check every allocation, and that the error handlers pushed are
# popped), -options_left finds no unused option, and -log_view names every stage it lists.
# Options that make the solution check meaningless are warned of by name, and a PETSc output file
# that cannot be created is refused before step 1.
#   bash petsc_options.sh <path-to-euler-implicit> <path-to-meshes-dir>
set -u
RANKS=2  # MPI ranks per run; tests/CMakeLists.txt reads this line too (PROCESSORS)
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/mpi_launch.sh"
launch_in_scratch "$RANKS" "$1"

tiny=(--mesh.box-cells="4 1 1" --solver.steps=2)
failures=0
# clean NAME OPTIONS...: the run exits 0 and nothing on its output says PETSc saw a problem.
clean() {
  local name=$1
  shift
  timeout 60 "${MPI_COMMAND[@]}" "${tiny[@]}" "$@" >"$name.log" 2>&1
  local rc=$?
  if ((rc != 0)) || grep -q -e 'PETSC ERROR' -e 'WARNING!' -e 'euler-implicit: warning' \
      -e 'Stage [0-9]*: Unknown' "$name.log"; then
    echo "FAIL $name (exit $rc):"
    grep -m 5 -e 'PETSC ERROR' -e 'WARNING' -e 'warning' -e 'Stage [0-9]*: Unknown' -e 'error' "$name.log"
    failures=$((failures + 1))
  else
    echo "ok   $name"
  fi
}
clean malloc_debug -malloc_debug -malloc_dump
clean options_left -options_left -ksp_rtol 1e-9
clean log_view -log_view
if ! grep -q 'There are no unused options' options_left.log; then
  echo "FAIL options_left: PETSc did not report on unused options"
  failures=$((failures + 1))
fi

# warned NAME TEXT OPTIONS...: options that leave the solution check nothing to hold an answer
# to run, and are warned of once, by name.
warned() {
  local name=$1 text=$2
  shift 2
  timeout 60 "${MPI_COMMAND[@]}" "${tiny[@]}" "$@" >"$name.log" 2>&1
  local rc=$? count
  count=$(grep -c -F -e "euler-implicit: warning: $text" "$name.log")
  if ((rc != 0 || count != 1)); then
    echo "FAIL $name (exit $rc, $count warnings):"
    grep -m 3 -e warning -e error "$name.log"
    failures=$((failures + 1))
  else
    echo "ok   $name"
  fi
}
warned rtol_negative "-ksp_rtol -1 is no relative tolerance" -ksp_rtol -1
warned atol_huge "-ksp_atol 1e+30 is at least ||b||" -ksp_atol 1e30
warned norm_none "-ksp_norm_type none: the solver tests no norm" -ksp_type richardson \
  -ksp_norm_type none

# A PETSc output file that cannot be created is refused before step 1, in one error line, and
# PetscFinalize does not fail on it again.
timeout 60 "${MPI_COMMAND[@]}" "${tiny[@]}" -log_view :/nonexistent/log.txt >log_path.log 2>&1
rc=$?
if ((rc != 1)) || [ "$(grep -c 'error' log_path.log)" -ne 1 ] ||
  ! grep -q "error: PETSc option -log_view :/nonexistent/log.txt: no folder /nonexistent" log_path.log ||
  grep -q '^step 1' log_path.log; then
  echo "FAIL log_view_path (exit $rc):"
  grep -m 3 -e error -e '^step' log_path.log
  failures=$((failures + 1))
else
  echo "ok   log_view_path"
fi
exit $((failures > 0))
