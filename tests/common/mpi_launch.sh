# Sourced by the regression scripts: the MPI launch line, from the variables CTest gives them (see
# tests/CMakeLists.txt): MPIEXEC, MPIEXEC_NUMPROC_FLAG, MPIEXEC_PREFLAGS and MPIEXEC_POSTFLAGS,
# flags separated by spaces. Run by hand, the defaults are a plain `mpiexec -n`; with OpenMPI,
# source jobs/mpi-env.sh first as root or for more ranks than cores.
# shellcheck shell=bash

# mpi_command RANKS PROGRAM: sets the array MPI_COMMAND to the launch of PROGRAM on RANKS ranks;
# run it with the program's arguments after it: "${MPI_COMMAND[@]}" ARGS...
mpi_command() {
  local pre post
  read -r -a pre <<<"${MPIEXEC_PREFLAGS:-}"
  read -r -a post <<<"${MPIEXEC_POSTFLAGS:-}"
  # shellcheck disable=SC2034  # for the scripts that source this file
  MPI_COMMAND=("${MPIEXEC:-mpiexec}" "${MPIEXEC_NUMPROC_FLAG:--n}" "$1" "${pre[@]}" "$2" "${post[@]}")
}

# launch_in_scratch RANKS PROGRAM: mpi_command RANKS PROGRAM (PROGRAM made absolute), then a
# temporary folder, removed when the script exits, as the working folder ($work).
launch_in_scratch() {
  mpi_command "$1" "$(realpath "$2")"
  work=$(mktemp -d "${TMPDIR:-/tmp}/eis_regression.XXXXXX") || exit 1
  trap 'rm -rf "$work"' EXIT
  cd "$work" || exit 1
}
