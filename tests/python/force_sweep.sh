#!/usr/bin/env bash
# docs/examples/force_sweep.py (the euler_implicit module's sweep example) on 2 ranks: its
# displacement series, step by step, against SOFA's implicit Euler step for one node of mass m
# held by a spring k and pulled by F, worked here independently:
#   (m + h^2 k) dv = h (F - k u - h k v),  v += dv,  u += h v
# (EulerImplicitSolver with no Rayleigh damping); the series for 2F and 4F are 2 and 4 times the
# one for F, and the last value is near F / k; the figure is a PNG.
# Usage: force_sweep.sh <python3 with numpy and matplotlib> <euler-implicit>.
set -u
PYTHON=$1
HERE=$(realpath "$(dirname "${BASH_SOURCE[0]}")")
EXE=$(realpath "$2")
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$HERE/../common/mpi_launch.sh"
launch_in_scratch 2 "$EXE"
# shellcheck source=SCRIPTDIR/../common/checks.sh
source "$HERE/../common/checks.sh"
export PYTHONPATH
PYTHONPATH=$(dirname "$EXE")/../share/euler-implicit/python
unset EULER_IMPLICIT_LAUNCH EULER_IMPLICIT_RANKS
if ! "$PYTHON" -c "import matplotlib" 2> /dev/null; then
  echo "skipped: $PYTHON has no matplotlib"
  exit 0
fi
mpi_command 2 "$PYTHON"
EULER_IMPLICIT_ARGS=--quiet timeout 120 "${MPI_COMMAND[@]}" "$HERE/../../docs/examples/force_sweep.py" --steps 40 \
  --png sweep.png --npz sweep.npz > run.out 2> run.err
status=$?
check "force_sweep.py runs on 2 ranks" test "$status" -eq 0
[ "$status" -eq 0 ] || sed 's/^/     | /' run.out run.err
check "it writes one PNG (rank 0)" "$PYTHON" -c "import sys
sys.exit(open('sweep.png', 'rb').read(8) != b'\x89PNG\r\n\x1a\n')"
check "each step's displacement is the implicit Euler recurrence's, to 1e-12" "$PYTHON" -c "
import numpy, sys
d = numpy.load('sweep.npz')
m, k, h = 1.0, 100.0, 0.1
worst = 0.0
for f, series in zip(d['forces'], d['displacement']):
    u = v = 0.0
    for got in series:
        v += h * (f - k * u - h * k * v) / (m + h * h * k)
        u += h * v
        worst = max(worst, abs(got - u) / (f / k))
print('worst relative difference', worst)
sys.exit(not worst < 1e-12)"
check "the series for 2F and 4F are 2 and 4 times F's, to 1e-13, and end near F / k" "$PYTHON" -c "
import numpy, sys
d = numpy.load('sweep.npz')
u = d['displacement']
ratio = numpy.abs(u[1:] - u[:1] * (d['forces'][1:] / d['forces'][0])[:, None]).max() / u.max()
static = numpy.abs(u[:, -1] - d['forces'] / 100.0).max() / (d['forces'].max() / 100.0)
print('linearity', ratio, 'static', static)
sys.exit(not (ratio < 1e-13 and static < 1e-4 and (d['forces'] == [1, 2, 4]).all()))"
echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
