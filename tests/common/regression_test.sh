# The start the tests/regression/*.sh scripts share. Sourced with the script's own arguments
# (<euler-implicit> <meshes dir>) once it has set RANKS, the most MPI ranks one of its runs
# starts: EXE, COMMON (this folder), a scratch folder to work in (removed at exit) with the launch
# line of mpi_launch.sh, the checks of checks.sh, run and run_on.
EXE=$(realpath "$1")
COMMON=$(realpath "$(dirname "${BASH_SOURCE[0]}")")
# shellcheck source=SCRIPTDIR/mpi_launch.sh
source "$COMMON/mpi_launch.sh"
launch_in_scratch "$RANKS" "$EXE"
# shellcheck source=SCRIPTDIR/checks.sh
source "$COMMON/checks.sh"

run() {  # run RANKS ARGS...: euler-implicit ARGS --quiet on RANKS ranks, 60 s at most; its
  # output in run.out and run.err
  mpi_command "$1" "$EXE"
  timeout 60 "${MPI_COMMAND[@]}" "${@:2}" --quiet > run.out 2> run.err
}

run_on() {  # run_on RANKS NAME ARGS...: euler-implicit ARGS on RANKS ranks, 100 s at most; its
  # output (both streams) in NAME.log
  mpi_command "$1" "$EXE"
  timeout 100 "${MPI_COMMAND[@]}" "${@:3}" > "$2.log" 2>&1
}
