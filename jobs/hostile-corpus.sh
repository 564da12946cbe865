#!/usr/bin/env bash
# The hostile corpus: about 600 malformed inputs, faults and signals, each run on 2 ranks and
# classified as a clean error, a clean success, a stop after a signal, a crash, a hang or a
# silent wrong result (an input that must be refused but ran). Not part of ctest: it takes
# about 6 minutes on 2 cores. Exits non-zero if any case is not what its table row expects.
# The cases are data, one row each, in jobs/hostile/cases.py and cases_more.py; their files are
# generated afresh in a temporary folder, kept (and named at the end) when a case fails.
#
#   bash jobs/hostile-corpus.sh [build/bin/euler-implicit] [NAME-FILTER]
#   env: HOSTILE_JOBS (cases at once, default 3), HOSTILE_LIMIT (seconds a case, default 60)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
exe=${1:-$here/../build/bin/euler-implicit}
if [[ ! -x $exe ]]; then echo "no executable $exe: build it first (bash jobs/build.sh)"; exit 1; fi
# shellcheck source=mpi-env.sh
source "$here/mpi-env.sh"
# The system python3 has numpy and h5py (the checkpoint and HDF5 cases need them).
py=/usr/bin/python3
[[ -x $py ]] || py=python3
exec "$py" "$here/hostile/run.py" "$exe" "$here/../meshes" "${2:-}"
