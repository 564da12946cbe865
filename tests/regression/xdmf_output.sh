#!/usr/bin/env bash
# output.xdmf: one HDF5 file and its XDMF 3 index, written by every rank together. On 1, 2 and 3
# ranks the index parses, lists the written steps (output.every, and the last) with their times,
# and every dataset it names has the declared shape and type; the tetrahedra fill the box; the
# last step's positions (geometry + displacement, by node id) are the final-state CSV's to 1e-12
# and its velocities exactly; the mesh datasets are the same bits on every rank count (refined
# too) and the fields agree to 1e-9. A restart from a checkpoint before the index's last step
# ends with the uninterrupted run's series, bit for bit on the same rank count.
# Usage: xdmf_output.sh <euler-implicit> <meshes dir>; the MPI launch line: tests/common/mpi_launch.sh.
set -uo pipefail
RANKS=3  # MPI ranks at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
here=$(dirname "$(realpath "${BASH_SOURCE[0]}")")
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$here/../common/mpi_launch.sh"
# shellcheck source=SCRIPTDIR/../common/checks.sh
source "$here/../common/checks.sh"
program=$(realpath "$1")
launch_in_scratch "$RANKS" "$program"
PYTHON=/usr/bin/python3
if ! "$PYTHON" -c "import h5py, numpy" 2>/dev/null; then
  echo "FAIL setup: $PYTHON cannot import h5py (python3-h5py; bash jobs/install-deps.sh)"
  exit 1
fi
xdmf() { "$PYTHON" "$here/../common/check_xdmf.py" "$@"; }

# Matrix-free with the previous solution as the KSP's start: a restart on the same rank count is
# then bit for bit (as tests/regression/restart.sh relies on).
SCENE=(--mesh.box-cells="6 2 2" --solver.dt=0.01 --solver.operator=matrix-free
       --solver.initial-guess=previous --output.progress-every=0 --output.every=3)
run_on() {  # run_on RANKS NAME ARGS...: output in NAME.log
  local ranks=$1 name=$2
  shift 2
  mpi_command "$ranks" "$program"
  timeout 100 "${MPI_COMMAND[@]}" "${SCENE[@]}" "$@" > "$name.log" 2>&1
}

for n in 1 2 3; do
  check "$n ranks: a run with output.xdmf" \
    run_on $n run$n --solver.steps=10 --output.xdmf=r$n/beam --output.final-state=r$n/final.csv
  check "$n ranks: steps 0, 3, 6, 9, 10; shapes; the box; the final state" \
    xdmf series r$n/beam r$n/final.csv 0,3,6,9,10 0.01 10,1,1
  check "$n ranks: one .h5 and one .xdmf" test "$(cd r$n && echo *)" = "beam.h5 beam.xdmf final.csv"
done
for n in 2 3; do
  check "1 and $n ranks: the same mesh bits, fields to 1e-9" xdmf same r1/beam r$n/beam 1e-9
done

for n in 1 3; do
  check "$n ranks, mesh.refine = 1: a run" \
    run_on $n refined$n --solver.steps=2 --mesh.refine=1 --output.xdmf=f$n/beam \
    --output.final-state=f$n/final.csv
  check "$n ranks, refined: steps 0, 2; the box; the final state" \
    xdmf series f$n/beam f$n/final.csv 0,2 0.01 10,1,1
done
check "refined, 1 and 3 ranks: the same mesh bits, fields to 1e-9" xdmf same f1/beam f3/beam 1e-9

# A run stopped after step 7 with checkpoints at 4 and 7; the one of step 7 lost (as if killed
# before it): the restart from step 4 drops step 6 and 7 from the index and writes 6, 9, 10.
for n in 2 3; do
  args=(--output.xdmf="k$n/beam" --output.checkpoint="k$n/ck" --output.checkpoint-every=4
        --output.final-state="k$n/final.csv")
  check "restart on $n ranks: the first 7 steps" run_on 2 first$n --solver.steps=7 "${args[@]}"
  rm -f k$n/ck_000007.h5
  check "restart on $n ranks: the first run's index ends at step 7" \
    xdmf series k$n/beam k$n/final.csv 0,3,6,7 0.01 10,1,1
  check "restart on $n ranks: from step 4 to 10" \
    run_on $n restart$n --solver.steps=10 --restart=auto "${args[@]}"
  check "restart on $n ranks: steps 0, 3, 6, 9, 10 once; the final state" \
    xdmf series k$n/beam k$n/final.csv 0,3,6,9,10 0.01 10,1,1
done
check "2 ranks restarted on 2: the uninterrupted run's series, bit for bit" \
  xdmf same r2/beam k2/beam 0
check "2 ranks restarted on 3: the uninterrupted run's series to 1e-9" \
  xdmf same r3/beam k3/beam 1e-9

echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
