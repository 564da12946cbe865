#!/usr/bin/env bash
# The outputs of a scene of several bodies: an INI scene of two boxes (different sizes, meshes
# and materials) on 1 and 2 ranks. The ParaView and XDMF series hold both bodies with their
# `object` arrays and node paths, at the final-state CSV's positions; 5 steps, a restart from the
# checkpoint and 5 more end bit for bit where 10 steps end, with the same series; initial.state
# from the two-body final state (for 0 steps) or checkpoint gives it back; a checkpoint or a
# final state of other bodies is refused with a message naming what differs.
# Usage: several_bodies.sh <euler-implicit> <meshes dir>; the MPI launch line: tests/common/mpi_launch.sh.
set -uo pipefail
RANKS=2  # MPI ranks at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
here=$(dirname "$(realpath "${BASH_SOURCE[0]}")")
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$here/../common/mpi_launch.sh"
# shellcheck source=SCRIPTDIR/../common/checks.sh
source "$here/../common/checks.sh"
program=$(realpath "$1")
launch_in_scratch "$RANKS" "$program"
PYTHON=/usr/bin/python3
if ! "$PYTHON" -c "import h5py, numpy, vtk" 2>/dev/null; then
  echo "FAIL setup: $PYTHON cannot import h5py and vtk (python3-h5py, python3-vtk9; bash jobs/install-deps.sh)"
  exit 1
fi
bodies() { "$PYTHON" "$here/../common/check_bodies.py" "$@"; }

cat > two_boxes.ini <<'INI'
[solver]
dt = 0.01
operator = matrix-free
initial-guess = previous
[output]
progress-every = 0
[small/mesh]
box-size = 1 0.2 0.2
box-cells = 5 2 2
[small/material]
young-modulus = 2e5
[big/mesh]
box-size = 2 0.5 0.4
box-cells = 4 3 2
transform = translate 0 2 0
[big/material]
young-modulus = 5e5
density = 500
INI

run_on() {  # run_on RANKS NAME ARGS...: output in NAME.log; the scene: $CONFIG or two_boxes.ini
  local ranks=$1 name=$2
  shift 2
  mpi_command "$ranks" "$program"
  timeout 100 "${MPI_COMMAND[@]}" --config "${CONFIG:-two_boxes.ini}" "$@" > "$name.log" 2>&1
}
# failed_with NAME TEXT: the run failed, its error naming TEXT.
failed_with() { ! grep -q "^set-up" "$1.log" && grep -qF -- "$2" "$1.log"; }

for n in 1 2; do
  check "$n ranks: 10 steps with every output" \
    run_on $n all$n --solver.steps=10 --output.vtk=a$n/series --output.xdmf=a$n/series \
    --output.final-state=a$n/final.csv --output.checkpoint=a$n/ck --output.checkpoint-every=5
  check "$n ranks: the final state lists /small and /big" \
    test "$(cut -d, -f8 a$n/final.csv | uniq | tr '\n' ' ')" = "object /small /big "
  check "$n ranks: the ParaView series holds both bodies at the final state's positions" \
    bodies vtk a$n/series_000010.pvtu a$n/final.csv
  check "$n ranks: the XDMF series holds both bodies at the final state's positions" \
    bodies xdmf a$n/series a$n/final.csv

  outputs=("--output.final-state=b$n/final.csv" "--output.checkpoint=b$n/ck"
           --output.checkpoint-every=5 "--output.vtk=b$n/series" "--output.xdmf=b$n/series")
  check "$n ranks: 5 steps" run_on $n first$n --solver.steps=5 "${outputs[@]}"
  check "$n ranks: a restart from the checkpoint of step 5, to step 10" \
    run_on $n second$n --solver.steps=10 "${outputs[@]}" --restart=auto
  check "$n ranks: 5 + restart + 5 steps is 10 steps, bit for bit, both bodies" \
    cmp a$n/final.csv b$n/final.csv
  check "$n ranks: ... and so are the continued XDMF series" \
    "$PYTHON" "$here/../common/check_xdmf.py" same a$n/series b$n/series 0
  check "$n ranks: ... and the ParaView series' index and last step" \
    bash -c "cmp a$n/series.pvd b$n/series.pvd && cd a$n/series_000010 &&
             for piece in *.vtu; do cmp \$piece ../../b$n/series_000010/\$piece || exit 1; done"

  check "$n ranks: 0 steps from initial.state = the two-body final state" \
    run_on $n again$n --solver.steps=0 --initial.state=a$n/final.csv --output.final-state=c$n.csv
  check "$n ranks: ... gives that state back" cmp a$n/final.csv c$n.csv
  check "$n ranks: initial.state = the two-body checkpoint of step 10, to step 10" \
    run_on $n fromck$n --solver.steps=10 --initial.state=a$n/ck_000010.h5 \
    --output.final-state=d$n.csv
  check "$n ranks: ... gives its state back" cmp a$n/final.csv d$n.csv
done
check "1 and 2 ranks: the same final state of both bodies to 1e-9" \
  "$PYTHON" -c "
import numpy as np, sys
a, b = (np.genfromtxt(f, delimiter=',', skip_header=1, usecols=range(7)) for f in sys.argv[1:])
sys.exit(not np.allclose(a, b, rtol=0, atol=1e-9 * np.abs(a[:, 1:4]).max()))" a1/final.csv a2/final.csv

# Other bodies: one body alone, a body renamed, a body of another mesh.
printf '[mesh]\nbox-size = 1 0.2 0.2\nbox-cells = 5 2 2\n' > one.ini
CONFIG=one.ini run_on 2 alone --solver.steps=12 --restart=a2/ck_000010.h5
check "a one-body scene from a two-body checkpoint: refused, naming both sets" \
  failed_with alone "a2/ck_000010.h5: the checkpoint holds 2 bodies (/small (54 nodes), /big (60 nodes)), the scene 1"
sed 's/^\[big\//[large\//' two_boxes.ini > renamed.ini
CONFIG=renamed.ini run_on 2 renamed --solver.steps=12 --restart=a2/ck_000010.h5
check "a body renamed: refused, naming it" \
  failed_with renamed "body 2 is /big (60 nodes) in the checkpoint but /large (60 nodes) in the scene"
run_on 2 finer --solver.steps=12 --big/mesh.box-cells="4 3 3" --restart=a2/ck_000010.h5
check "a body of another mesh: refused, naming it" \
  failed_with finer "body /big has 60 nodes of 3 unknowns in the checkpoint, 80 of 3 in the scene"
sed 's|,/big$|,/huge|' a2/final.csv > huge.csv
run_on 2 unknown --solver.steps=0 --initial.state=huge.csv
check "initial.state with rows of an object the scene lacks: refused, naming it" \
  failed_with unknown "rows of object /huge, which is no body of this scene (its bodies: /small, /big)"
grep -v ',/big$' a2/final.csv > small_only.csv
run_on 2 missing --solver.steps=0 --initial.state=small_only.csv
check "initial.state without rows of a body: refused, naming it" \
  failed_with missing "no rows of body /big (the file's objects: /small)"

echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
