# The start every tests/python/*.sh script shares. Sourced with the script's own arguments
# (<python3> <euler-implicit> ...) once it has set RANKS, the most MPI ranks one of its runs
# starts: PYTHON and EXE, COMMON (this folder), a scratch folder to work in (removed at exit) with
# the launch line of mpi_launch.sh, the checks of checks.sh, and show (the last run's output).
PYTHON=$1
EXE=$(realpath "$2")
COMMON=$(realpath "$(dirname "${BASH_SOURCE[0]}")")
# shellcheck source=SCRIPTDIR/mpi_launch.sh
source "$COMMON/mpi_launch.sh"
launch_in_scratch "$RANKS" "$EXE"
# shellcheck source=SCRIPTDIR/checks.sh
source "$COMMON/checks.sh"
show() { sed 's/^/     | /' run.out run.err; }
