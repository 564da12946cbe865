#!/usr/bin/env bash
# A force field written in Python with addDForce and no addKToMatrix under a CGLinearSolver (SOFA's
# matrix-free CG, which multiplies by addDForce and assembles nothing) runs under euler-implicit
# --scene's default options: the importer picks solver.operator = matrix-free, noted at start-up,
# and the final state equals, bit for bit, the run given --solver.operator=matrix-free. Under a
# direct solver (SparseLDLSolver assembles) the field's missing matrix is one error line.
# Usage: matrix_free_default.sh <python3 with numpy> <euler-implicit> <meshes dir>.
set -u
RANKS=2  # MPI ranks per run at most (tests/CMakeLists.txt: PROCESSORS)
# shellcheck source=SCRIPTDIR/../common/python_test.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/python_test.sh"
unset EULER_IMPLICIT_LAUNCH EULER_IMPLICIT_RANKS

# Springs of k = 16 joining nodes 1-2 and 2-3 of a tetrahedron (node 0 fixed), node 3 started
# at v = (1, 0, 0): the force couples nodes, so addDForce's product has off-diagonal terms.
cat > springs.py << 'EOF2'
import os

import Sofa.Core

PAIRS = [(1, 2), (2, 3)]


class Springs(Sofa.Core.ForceFieldVec3d):
    """Zero-length springs written with addForce and addDForce only, as SOFA's CG needs."""

    def __init__(self, *args, **kwargs):
        Sofa.Core.ForceFieldVec3d.__init__(self, *args, **kwargs)
        self.addData("ks", type="float", value=kwargs.get("ks"), help="stiffness")

    def addForce(self, m, f, x, v):
        with f.writeableArray() as a:
            for i, j in PAIRS:
                d = self.ks.value * (x.value[j] - x.value[i])
                a[i] += d
                a[j] -= d

    if "NO_DFORCE" not in os.environ:
        def addDForce(self, m, df, dx):
            with df.writeableArray() as a:
                for i, j in PAIRS:
                    d = m["kFactor"] * self.ks.value * (dx[j] - dx[i])
                    a[i] += d
                    a[j] -= d


def createScene(root):
    root.dt = 0.25
    root.gravity = [0.0, 0.0, 0.0]
    n = root.addChild("body")
    n.addObject("EulerImplicitSolver", rayleighStiffness=0.0, rayleighMass=0.0)
    if "DIRECT" in os.environ:
        n.addObject("SparseLDLSolver")
    else:
        n.addObject("CGLinearSolver", iterations=100, tolerance=1e-30, threshold=1e-30)
    n.addObject("TetrahedronSetTopologyContainer", name="topo",
                position=[[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], tetrahedra=[[0, 1, 2, 3]])
    n.addObject("MechanicalObject", name="dofs", template="Vec3d",
                velocity=[[0, 0, 0], [0, 0, 0], [0, 0, 0], [1, 0, 0]])
    n.addObject("UniformMass", vertexMass=3.0)
    n.addObject(Springs(name="springs", ks=16.0))
    n.addObject("FixedProjectiveConstraint", indices=[0])
EOF2
scene() {  # scene RANKS ARGS...: mpiexec -n RANKS euler-implicit --scene springs.py ARGS
  mpi_command "$1" "$EXE"
  PATH=$(dirname "$PYTHON"):$PATH timeout 120 "${MPI_COMMAND[@]}" --scene springs.py \
    --solver.steps=3 "${@:2}" > run.out 2> run.err
}
for ranks in 1 2; do
  scene "$ranks" --output.final-state=default.csv
  status=$?
  check "addForce and addDForce under CGLinearSolver, default options, $ranks rank(s): runs" \
    test "$status" -eq 0 -a -s default.csv
  check "with a start-up note that the operator is matrix-free" \
    grep -q 'springs.*matrix-free (addDForce; addKToMatrix is never called), as SOFA.s CGLinearSolver' \
      run.out run.err
  [ "$failures" -eq 0 ] || show
  scene "$ranks" --solver.operator=matrix-free --output.final-state=given.csv
  check "bit-identical to --solver.operator=matrix-free, $ranks rank(s)" cmp default.csv given.csv
  check "and the springs moved node 2 (not the start)" \
    test "$(awk -F, 'NR == 4 { print ($2 != 0 || $3 != 1) }' default.csv)" = 1
  [ "$failures" -eq 0 ] || show
  rm -f default.csv given.csv
done
# Under a direct solver (it assembles) the field's missing matrix, or a field without addDForce
# (the step's h K v calls it), is one error line naming what is missing.
for field in addDForce neither; do
  if [ "$field" = addDForce ]; then
    why='springs: a force field written in Python without addKToMatrix has no matrix'
    DIRECT=1 scene 2
  else
    why='in Springs.addDForce: the force field has no addDForce, which the step calls'
    DIRECT=1 NO_DFORCE=1 scene 2
  fi
  status=$?
  check "SparseLDLSolver, a field with $field (no addKToMatrix), 2 ranks: refused (status $status)" \
    test "$status" -ne 0 -a "$status" -ne 124
  check "with one error line: $why" \
    test "$(grep -c '^euler-implicit: error: ' run.err)$(grep -c "$why" run.err)" = 11
  [ "$failures" -eq 0 ] || show
done
echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
