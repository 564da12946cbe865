#!/usr/bin/env bash
# jobs/plot-history.py and jobs/render.py on a small run: each writes a non-empty PNG, and each
# ends with one "error:" line and a non-zero status when its input file is missing.
#
#   bash pictures.sh <path-to-euler-implicit> <path-to-meshes-dir>
#   env: the MPI launch line (tests/common/mpi_launch.sh)
set -u

EXE=${1:?usage: pictures.sh <euler-implicit> <meshes-dir>}
RANKS=2  # MPI ranks of the run; tests/CMakeLists.txt reads this line too (PROCESSORS)
EXE=$(cd "$(dirname "$EXE")" && pwd)/$(basename "$EXE")
JOBS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../jobs" && pwd)
PYTHON=/usr/bin/python3
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/mpi_launch.sh"
mpi_command "$RANKS" "$EXE"

T=$(mktemp -d "${TMPDIR:-/tmp}/eis_pictures.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1

if ! "${MPI_COMMAND[@]}" --mesh.box-cells="8 2 2" --solver.steps=3 --output.vtk=out/beam \
  --output.history=out/history.csv >run.log 2>&1; then
  echo "FAIL: the run failed"
  cat run.log
  exit 1
fi

status=0
check_png() {  # check_png NAME PNG COMMAND...
  local name=$1 png=$2
  shift 2
  if ! "$@" >"$name.log" 2>&1; then
    echo "FAIL $name: exit status non-zero"
    cat "$name.log"
    status=1
  elif [ ! -s "$png" ] || [ "$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')" != 89504e470d0a1a0a ]; then
    echo "FAIL $name: $png is missing, empty or not a PNG"
    status=1
  else
    echo "ok $name: $png, $(wc -c <"$png") bytes"
  fi
}
check_missing() {  # check_missing NAME COMMAND...: must fail with one error line naming the file
  local name=$1
  shift
  if "$@" >"$name.missing.log" 2>&1; then
    echo "FAIL $name: succeeded on a missing file"
    status=1
  elif [ "$(grep -c "error: .*nope" "$name.missing.log")" != 1 ]; then
    echo "FAIL $name: no single error line naming the missing file:"
    cat "$name.missing.log"
    status=1
  else
    echo "ok $name: $(cat "$name.missing.log")"
  fi
}

check_png plot-history history.png "$PYTHON" "$JOBS_DIR/plot-history.py" out/history.csv history.png
check_png render beam.png "$PYTHON" "$JOBS_DIR/render.py" out/beam.pvd beam.png
check_png render-from-below below.png "$PYTHON" "$JOBS_DIR/render.py" out/beam.pvd below.png \
  --up 0,0,1 --from 0.3,-1,0.25
if "$PYTHON" "$JOBS_DIR/render.py" out/beam.pvd x.png --up 0,1 >bad-up.log 2>&1 ||
  [ "$(grep -c "error: --up '0,1'" bad-up.log)" != 1 ]; then
  echo "FAIL render: --up 0,1 is not one error line naming it:"
  cat bad-up.log
  status=1
else
  echo "ok render: $(cat bad-up.log)"
fi
# The XDMF series of the same run draws the same picture as the ParaView one.
if ! "${MPI_COMMAND[@]}" --mesh.box-cells="8 2 2" --solver.steps=3 --output.xdmf=out/beam \
  >xdmf-run.log 2>&1; then
  echo "FAIL: the XDMF run failed"
  cat xdmf-run.log
  exit 1
fi
check_png render-xdmf beam-xdmf.png "$PYTHON" "$JOBS_DIR/render.py" out/beam.xdmf beam-xdmf.png
if cmp -s beam.png beam-xdmf.png; then
  echo "ok render-xdmf: the same picture as from the .pvd"
else
  echo "FAIL render-xdmf: not the picture drawn from the .pvd"
  status=1
fi
check_png render-step-0 first.png "$PYTHON" "$JOBS_DIR/render.py" out/beam.pvd first.png --step 0
if grep -q "^render: step 0 of 4 (t = 0 s)" render-step-0.log && ! cmp -s first.png beam.png; then
  echo "ok render --step 0: $(cat render-step-0.log)"
else
  echo "FAIL render --step 0: not the first step, or the last one's picture:"
  cat render-step-0.log
  status=1
fi
check_png render-time mid.png "$PYTHON" "$JOBS_DIR/render.py" out/beam.xdmf mid.png --time 0.021
grep -q "^render: step 2 of 4 (t = 0.02 s)" render-time.log ||
  { echo "FAIL render --time 0.021: not step 2:"; cat render-time.log; status=1; }
# The default colour range is the 2nd to 98th percentile of the last step's von Mises stress,
# computed here from the HDF5 file, on a log scale where it spans more than two decades.
expected=$("$PYTHON" -c '
import h5py, numpy
v = h5py.File("out/beam.h5", "r")["steps/000003/von_mises"][()]
low, high = numpy.percentile(v, [2, 98])
print("%.6g to %.6g, %s" % (low, high, "log" if low > 0 and high > 100 * low else "linear"))')
if grep -q "von_mises from $expected (" render-xdmf.log; then
  echo "ok render: the colour range is the 2nd to 98th percentile, $expected"
else
  echo "FAIL render: the colour range is not the 2nd to 98th percentile ($expected):"
  cat render-xdmf.log
  status=1
fi
check_png render-linear linear.png "$PYTHON" "$JOBS_DIR/render.py" out/beam.pvd linear.png \
  --scale linear --range 0,50
grep -q "von_mises from 0 to 50, linear (" render-linear.log ||
  { echo "FAIL render --scale linear --range 0,50:"; cat render-linear.log; status=1; }
for bad in "--step 4|error: --step 4: .* lists 4 steps" "--colour nope|error: --colour nope" \
  "--range 2,1|error: --range '2,1'" "--scale log --range 0,50|error: --scale log"; do
  # shellcheck disable=SC2086  # the option and its value are two words
  if "$PYTHON" "$JOBS_DIR/render.py" out/beam.pvd x.png ${bad%%|*} >bad.log 2>&1 ||
    [ "$(grep -c -- "${bad#*|}" bad.log)" != 1 ]; then
    echo "FAIL render ${bad%%|*}: not one error line:"
    cat bad.log
    status=1
  else
    echo "ok render ${bad%%|*}: $(cat bad.log)"
  fi
done
check_missing plot-history "$PYTHON" "$JOBS_DIR/plot-history.py" nope.csv x.png
check_missing render "$PYTHON" "$JOBS_DIR/render.py" nope.pvd x.png
exit $status
