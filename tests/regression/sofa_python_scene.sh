#!/usr/bin/env bash
# SofaPython3 scenes (--scene FILE.py) run through the Python front end and the SOFA XML builder:
#  - tests/data/sofa/scenes/a_small.py, the twin of a_small.scn written as a SofaPython3 user
#    would, gives bit-identical final states to the .scn on 1, 2 and 3 ranks (matrix-free, whose
#    sums have a fixed order; see sofa_scene.sh);
#  - a scene adding a Python controller that does nothing gives a_small's state bit for bit
#    (2 ranks; what controllers do: python_controllers.sh);
#  - a Python error in the scene is one error line naming the scene's file and line (2 ranks).
# Usage: sofa_python_scene.sh <euler-implicit> <meshes dir>; the MPI launch line:
# tests/common/mpi_launch.sh. Needs python3 on PATH.
set -euo pipefail
RANKS=3  # MPI ranks per run at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
DATA=$(realpath "$2/../tests/data/sofa")
EXE=$(realpath "$1")
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/mpi_launch.sh"
launch_in_scratch "$RANKS" "$EXE"

# shellcheck source=SCRIPTDIR/../common/checks.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/checks.sh"

# run RANKS ARGS...: one run, quiet, its output in run.out / run.err.
run() {
  mpi_command "$1" "$EXE"
  timeout 60 "${MPI_COMMAND[@]}" "${@:2}" --quiet > run.out 2> run.err
}

for ranks in 1 2 3; do
  for kind in scn py; do
    status=0
    run "$ranks" --scene "$DATA/scenes/a_small.$kind" --solver.steps=20 \
      --solver.operator=matrix-free --output.final-state="$kind.csv" || status=$?
    check "a_small.$kind on $ranks rank(s): the run succeeds" test "$status" -eq 0
    [ "$status" -eq 0 ] || sed 's/^/     | /' run.err
  done
  check "a_small.py and a_small.scn give bit-identical states on $ranks rank(s)" cmp -s scn.csv py.csv
  cp py.csv "py$ranks.csv"
done

mkdir -p scenes
ln -s "$DATA/beam-small.msh" beam-small.msh
sed -e 's|^    return rootNode$|    rootNode.beam.addObject(Pusher(name="pusher"))\n    return rootNode|' \
  -e 's|^def createScene|class Pusher(Sofa.Core.Controller):\n    def onAnimateBeginEvent(self, event):\n        pass\n\n\ndef createScene|' \
  "$DATA/scenes/a_small.py" > scenes/controlled.py
status=0
run 2 --scene scenes/controlled.py --solver.steps=20 --solver.operator=matrix-free \
  --output.final-state=controlled.csv || status=$?
check "a scene with a controller that does nothing runs" test "$status" -eq 0
check "and gives a_small's state bit for bit" cmp -s controlled.csv py2.csv
[ "$failures" -eq 0 ] || sed 's/^/     | /' run.err

printf 'import Sofa.Core\n\ndef createScene(root):\n    root.addChild("a").addObject("BoxROI", name="box")\n    print(root.a.box.indices.value)\n' \
  > scenes/computed.py
status=0
run 2 --scene scenes/computed.py --solver.steps=1 || status=$?
check "reading a computed data value fails with one error line naming the scene line" \
  test "$status" -ne 0 -a "$(grep -c 'euler-implicit: error:' run.err)" -eq 1
check "and the link to use" grep -qx "euler-implicit: error: scenes/computed.py:5: /a/box.indices is computed by SOFA when the scene runs, which euler-implicit does not do in Python; pass the link '@/a/box.indices' instead of its value" run.err
[ "$failures" -eq 0 ] || sed 's/^/     | /' run.err

if [ "$failures" -ne 0 ]; then echo "$failures check(s) failed"; exit 1; fi
echo "all checks passed"
