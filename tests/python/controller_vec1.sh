#!/usr/bin/env bash
# A controller reading a Vec1 state (euler-implicit --scene FILE.py): SOFA's heat diffusion on two
# tetrahedra, node 0 held at u = 0 and node 4 at u = 1, read by a controller's
# `position.value` after each step. SofaPython3 gives a Vec1 state's position as an array of
# shape (nodes, 1); the values read after the last step are the run's final state
# (output.final-state), to rounding, on 1 and 2 ranks. Before this test the read gave an empty
# array of shape (0, 3): the reply assumed 3 numbers a node.
# Usage: controller_vec1.sh <python3 with numpy> <euler-implicit> <meshes dir>.
set -u
RANKS=2  # MPI ranks per run at most (tests/CMakeLists.txt: PROCESSORS)
# shellcheck source=SCRIPTDIR/../common/python_test.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/python_test.sh"

cat > heat.py << 'EOF_SCENE'
import Sofa.Core


class Reader(Sofa.Core.Controller):
    """Appends the shape and values of the temperatures it reads after each step."""

    def __init__(self, *args, **kwargs):
        Sofa.Core.Controller.__init__(self, *args, **kwargs)
        self.state = kwargs.get("state")

    def onAnimateEndEvent(self, event):
        u = self.state.position.value
        with open("read.txt", "a") as f:
            f.write("%d %d %s\n" % (u.shape + (" ".join("%.17g" % v for v in u.ravel()),)))


def createScene(root):
    root.dt = 0.1
    root.gravity = [0.0, 0.0, 0.0]
    root.addObject("DefaultAnimationLoop")
    root.addObject("TetrahedronSetTopologyContainer", name="topo", tetrahedra="0 1 2 3  1 2 3 4")
    root.addObject("MechanicalObject", name="geometry", tags="shape",
                   position="0 0 0  1 0 0  0 1 0  0 0 1  1 1 1")
    heat = root.addChild("heat")
    heat.addObject("EulerImplicitSolver", firstOrder=True)
    heat.addObject("CGLinearSolver", iterations=200, tolerance=1e-15, threshold=1e-30)
    u = heat.addObject("MechanicalObject", template="Vec1", name="T", position="0 0 0 0 1")
    heat.addObject("TetrahedronDiffusionFEMForceField", constantDiffusionCoefficient=2.0,
                   tagMechanics="shape", topology="@../topo")
    heat.addObject("MeshMatrixMass", template="Vec1,Vec3", massDensity=1.0,
                   geometryState="@../geometry", topology="@../topo")
    heat.addObject("FixedProjectiveConstraint", indices=[0, 4])
    root.addObject(Reader(name="reader", state=u))
EOF_SCENE

# read_is_final: 2 reads, each of shape (5, 1), the last one the final state's u to 1e-14.
read_is_final() {
  /usr/bin/python3 - << 'EOF_CHECK'
rows = [line.split() for line in open("read.txt")]
assert len(rows) == 2, rows
assert all(r[:2] == ["5", "1"] for r in rows), [r[:2] for r in rows]
final = {}
for line in open("final.csv").read().splitlines()[1:]:
    node, u, _ = line.split(",")
    final[int(node)] = float(u)
got = [float(v) for v in rows[-1][2:]]
assert max(abs(got[i] - final[i]) for i in range(5)) <= 1e-14, (got, final)
assert 0 < got[1] < 1 and got[0] == 0 and got[4] == 1, got
EOF_CHECK
}
for ranks in 1 2; do
  rm -f read.txt final.csv
  mpi_command "$ranks" "$EXE"
  PATH=$(dirname "$PYTHON"):$PATH timeout 120 "${MPI_COMMAND[@]}" --scene heat.py --quiet \
    --solver.steps=2 --output.final-state=final.csv > run.out 2> run.err
  check "$ranks rank(s): the controller reads (5, 1) temperatures, the last the final state" \
    read_is_final
  [ "$failures" -eq 0 ] || sed 's/^/     | /' run.err
done

echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
