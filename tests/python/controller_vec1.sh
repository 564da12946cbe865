#!/usr/bin/env bash
# A controller reading a Vec1 state (euler-implicit --scene FILE.py): SOFA's heat diffusion on two
# tetrahedra, node 0 held at u = 0 and node 4 at u = 1, read by a controller's
# `position.value` after each step. SofaPython3 gives a Vec1 state's position as an array of
# shape (nodes, 1); the values read after the last step are the run's final state
# (output.final-state), to rounding, on 1 and 2 ranks. Before this test the read gave an empty
# array of shape (0, 3): the reply assumed 3 numbers a node. A controller's write of the held
# node's temperature (thermoelasticity.py's heating) equals a run restarted from that state.
# Usage: controller_vec1.sh <python3 with numpy> <euler-implicit> <meshes dir>.
set -u
RANKS=2  # MPI ranks per run at most (tests/CMakeLists.txt: PROCESSORS)
# shellcheck source=SCRIPTDIR/../common/python_test.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/python_test.sh"

cat > heat.py << 'EOF_SCENE'
import Sofa.Core

WRITE_AT = 0  # the step after whose end node 4 is put at u = 0.5 (0: never)


class Reader(Sofa.Core.Controller):
    """Appends the shape and values of the temperatures it reads after each step; after step
    WRITE_AT, puts the held node 4 at 0.5 as thermoelasticity.py heats its node 495."""

    def __init__(self, *args, **kwargs):
        Sofa.Core.Controller.__init__(self, *args, **kwargs)
        self.state = kwargs.get("state")
        self.steps = 0

    def onAnimateEndEvent(self, event):
        u = self.state.position.value
        with open("read.txt", "a") as f:
            f.write("%d %d %s\n" % (u.shape + (" ".join("%.17g" % v for v in u.ravel()),)))
        self.steps += 1
        if self.steps == WRITE_AT:
            with self.state.position.writeableArray() as written:
                written[4][0] = 0.5


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

# A write of the temperatures (writeableArray, one column a node): node 4, held by the
# projective constraint, put at 0.5 after step 1 stays there, and step 2 equals one step from
# the state after step 1 with u4 = 0.5 (the scene's position; a first-order step does not read
# v), to 1e-14, on 1 and 2 ranks.
sed 's/^WRITE_AT = 0 /WRITE_AT = 1 /' heat.py > heat_write.py
# at_half: heat_half.py, heat.py starting from step1.csv (node,u,v) with node 4's u 0.5.
at_half() {
  local u
  u=$(awk -F, 'NR > 1 { printf "%s ", ($1 == 4 ? 0.5 : $2) }' step1.csv)
  sed "s/position=\"0 0 0 0 1\"/position=\"$u\"/" heat.py > heat_half.py
}
# same A B: the two final states' u and v within 1e-14, node 4's u 0.5 in both.
same() {
  /usr/bin/python3 - "$@" << 'EOF_CHECK'
import sys
a, b = ({int(r[0]): [float(x) for x in r[1:3]]
         for r in (line.split(",") for line in open(f).read().splitlines()[1:])}
        for f in sys.argv[1:3])
assert a.keys() == b.keys() == set(range(5)), (a, b)
assert a[4][0] == b[4][0] == 0.5, (a[4], b[4])
assert max(abs(x - y) for i in a for x, y in zip(a[i], b[i])) <= 1e-14, (a, b)
EOF_CHECK
}
for ranks in 1 2; do
  mpi_command "$ranks" "$EXE"
  for run in "heat_write.py 2 written" "heat.py 1 step1" "heat_half.py 1 restarted"; do
    read -r scene steps out <<< "$run"
    [ "$scene" != heat_half.py ] || at_half
    PATH=$(dirname "$PYTHON"):$PATH timeout 120 "${MPI_COMMAND[@]}" --scene "$scene" --quiet \
      --solver.steps="$steps" --output.final-state="$out.csv" > run.out 2> run.err < /dev/null ||
      sed 's/^/     | /' run.err
  done
  check "$ranks rank(s): u4 written to 0.5 after step 1 = one step from that state" \
    same written.csv restarted.csv
  check "$ranks rank(s): the write changes the step" \
    /usr/bin/python3 -c "import sys; sys.exit(open('written.csv').read() == open('final.csv').read())"
  rm -f written.csv step1.csv restarted.csv
done

echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
