# Sourced by the local scripts: lets OpenMPI run as root (containers, CI) and run more ranks
# than cores, which it refuses by default.
if [[ $(id -u) -eq 0 ]]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
export OMPI_MCA_rmaps_base_oversubscribe=1
