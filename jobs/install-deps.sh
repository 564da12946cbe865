#!/usr/bin/env bash
# Installs the Debian packages euler-implicit builds and tests with; skips what is already there.
# Idempotent: a second run installs nothing. Needs root (or sudo) on Debian bookworm.
#   bash jobs/install-deps.sh            what jobs/build.sh, run-tests.sh and sanitize.sh need
#   bash jobs/install-deps.sh petsc64    those and the PETSc with 64-bit indices
#                                        (libpetsc64-real-dev, for the checking build,
#                                        jobs/sanitize.sh: it brings a second set of PETSc's
#                                        solver libraries, which the default build never uses)
set -euo pipefail

packages=(
  g++ cmake make pkg-config
  petsc-dev libopenmpi-dev openmpi-bin
  libmetis-dev libboost-program-options-dev libgtest-dev zlib1g-dev libtinyxml2-dev
  clang libclang-rt-14-dev
  python3-dolfinx python3-vtk9 python3-matplotlib python3-h5py xvfb
  pybind11-dev python3-dev python3-numpy python3-mpi4py
  slurmd slurmctld slurm-client munge
)

for group in "$@"; do
  case $group in
    petsc64) packages+=(libpetsc64-real-dev) ;;
    *) echo "install-deps: unknown package group '$group' (known: petsc64)" >&2; exit 2 ;;
  esac
done

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]} == 0)); then
  echo "install-deps: all packages present"
  exit 0
fi

sudo=""
if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: done"
