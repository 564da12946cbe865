#!/usr/bin/env bash
# A MechanicalObject given no position, as SofaPython3's emptyForceField.py writes it, under
# euler-implicit --scene: SOFA's constructor gives it `size` points (default 1) at the origin.
# With a UniformMass of 1 per point, a Python force field that adds nothing and gravity g, SOFA's
# implicit Euler step with h = 0.01 gives v_n = n h g and x_n = h^2 g n (n + 1) / 2: after 3
# steps y = -9.81e-4 * 6 and vy = -0.03 * 9.81 on every point, x and z 0, on 1 and 2 ranks
# (to 1e-12). With no mass, as emptyForceField.py has it, SOFA's step is quasi-static (M = 0,
# and gravity, applied through the masses, pulls on nothing): the system matrix
# -h (h + rayleighStiffness) K and the right-hand side are zero, dv = 0, and the point stays at
# the origin, at rest, bit for bit (on 2 ranks). The force field's addKToMatrix returns nothing,
# as emptyForceField.py's: SOFA's CGLinearSolver never calls it, and the field runs matrix-free
# (before, it was assembled, and the run stopped on that answer). Refused, with one error line: a
# size of 0.
# emptyForceField.py's CGLinearSolver tolerance = threshold = "10-3", which SOFA's stream reads
# as 10: the run is the same (the solve is converged to rtol 1e-8 whatever the scene's
# tolerance), with a warning saying 10; under scene.linear-solver-limits = scene a tolerance of
# at least 1 (SOFA's CG then stops before its first iteration) is refused with one error line.
# Usage: points_at_origin.sh <python3 with numpy> <euler-implicit> <meshes dir>.
set -u
RANKS=2  # MPI ranks per run at most (tests/CMakeLists.txt: PROCESSORS)
# shellcheck source=SCRIPTDIR/../common/python_test.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/python_test.sh"
scene() {  # scene RANKS FILE ARGS...: mpiexec -n RANKS euler-implicit --scene FILE ARGS
  mpi_command "$1" "$EXE"
  PATH=$(dirname "$PYTHON"):$PATH timeout 120 "${MPI_COMMAND[@]}" --scene "$2" --quiet \
    "${@:3}" > run.out 2> run.err
}

cat > empty.py << 'EOF_SCENE'
import os

import Sofa.Core


class Nothing(Sofa.Core.ForceFieldVec3d):
    """A force field that adds no force and no stiffness."""

    def __init__(self, *args, **kwargs):
        Sofa.Core.ForceFieldVec3d.__init__(self, *args, **kwargs)

    def addForce(self, m, forces, pos, vel):
        pass

    def addDForce(self, m, dforce, dx):
        pass

    def addKToMatrix(self, mparams, nNodes, nDofs):
        """Returns nothing, as emptyForceField.py's: SOFA's CG never calls it."""


def createScene(root):
    root.dt = 0.01
    root.gravity = [0.0, -9.81, 0.0]
    root.addObject("DefaultAnimationLoop")
    node = root.addChild("points")
    node.addObject("EulerImplicitSolver")
    # emptyForceField.py's tolerance "10-3": SOFA's stream reads 10.
    limit = "10-3" if "TYPO" in os.environ else 1e-3
    node.addObject("CGLinearSolver", iterations=100, tolerance=limit, threshold=limit)
    if "SIZE" in os.environ:
        node.addObject("MechanicalObject", template="Vec3d", size=int(os.environ["SIZE"]))
    else:
        node.addObject("MechanicalObject", template="Vec3d")
    if "MASSLESS" not in os.environ:
        node.addObject("UniformMass", vertexMass=1.0)
    node.addObject(Nothing(name="nothing"))
EOF_SCENE

fallen() {  # fallen FILE POINTS: that many rows, each where 3 steps of gravity leave it
  # shellcheck disable=SC2016  # awk's fields, not the shell's
  awk -F, -v n="$2" 'function off(a, b) { return a - b > 1e-12 || b - a > 1e-12 }
    NR > 1 { rows++; if ($2 != 0 || $4 != 0 || $5 != 0 || $7 != 0) bad = 1
             if (off($3, -9.81e-4 * 6) || off($6, -0.03 * 9.81)) bad = 1 }
    END { exit !(rows == n && !bad) }' "$1"
}
for ranks in 1 2; do
  scene "$ranks" empty.py --solver.steps=3 --output.final-state=one.csv
  check "$ranks rank(s): no position: one point, from the origin, fallen 3 steps" \
    fallen one.csv 1
  [ "$failures" -eq 0 ] || show
  SIZE=3 scene "$ranks" empty.py --solver.steps=3 --output.final-state=three.csv
  check "$ranks rank(s): size = 3: three points, from the origin, fallen 3 steps" \
    fallen three.csv 3
  [ "$failures" -eq 0 ] || show
  rm -f one.csv three.csv
done

TYPO=1 scene 2 empty.py --solver.steps=3 --output.final-state=typo.csv
check "tolerance '10-3': read as SOFA reads it, 10, with a warning, and the same fall" \
  fallen typo.csv 1
check "tolerance '10-3': the warning says 10" \
  grep -q "warning: .*tolerance = '10-3': SOFA reads 10," run.err
[ "$failures" -eq 0 ] || show
TYPO=1 scene 2 empty.py --solver.steps=1 --scene.linear-solver-limits=scene
check "tolerance 10 under the scene's limits: one error line naming it" \
  test "$(grep -c "euler-implicit: error: .*CGLinearSolver.*tolerance = '10-3': at least 1" \
    run.err)" = 1
[ "$failures" -eq 0 ] || show

MASSLESS=1 TYPO=1 scene 2 empty.py --solver.steps=3 --output.final-state=massless.csv
check "no mass, as emptyForceField.py: 3 quasi-static steps leave the point at the origin" \
  test "$(tail -n +2 massless.csv)" = "0,0,0,0,0,0,0"
[ "$failures" -eq 0 ] || show
SIZE=0 scene 2 empty.py --solver.steps=1
check "size = 0: one error line naming the field" \
  test "$(grep -c 'euler-implicit: error: .*empty.py:.*size' run.err)" = 1
[ "$failures" -eq 0 ] || show

echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
