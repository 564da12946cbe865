#!/usr/bin/env bash
# Mappings written in Python (Sofa.Core.Mapping_* subclasses) in a SofaPython3 scene run by
# euler-implicit --scene, as example-mapping.py writes them: the mapping's __init__ follows its
# input and output links (LinkPath.target()) and reads the output's given position as an array
# of rows; the body sits in a node added to two parents (SofaPython3's Modelling and Simulation
# idiom), integrated by the second's solver. Its mapped child holds no mass, force field or
# constraint, so SOFA's motion of the body does not depend on it: the final state must equal,
# bit for bit (cmp), that of the same body built in one node with no mapped child, on 1 and 2
# ranks; and both must have moved (gravity on a grid fixed at one end). A controller of the
# node of two parents is called once per event, and the mapped output it reads is the mapping's
# apply on the body's current state (an affine map, checked exactly), under --scene and in the
# script's process (mpiexec -n N python3 grid.py) on 1 and 2 ranks. A Python mapping whose
# child carries a mass changes the motion and is refused with one error line naming it.
# Usage: mappings.sh <python3 with numpy> <euler-implicit> <meshes dir>.
set -u
RANKS=2  # MPI ranks per run at most (tests/CMakeLists.txt: PROCESSORS)
# shellcheck source=SCRIPTDIR/../common/python_test.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/python_test.sh"
scene() {  # scene RANKS FILE ARGS...: mpiexec -n RANKS euler-implicit --scene FILE ARGS
  mpi_command "$1" "$EXE"
  PATH=$(dirname "$PYTHON"):$PATH timeout 120 "${MPI_COMMAND[@]}" --scene "$2" --quiet \
    "${@:3}" > run.out 2> run.err
}

cat > grid.py << 'EOF'
import os

import numpy
import Sofa.Core


class Offset(Sofa.Core.Mapping_Vec3d_Vec3d):
    """An affine map, as example-mapping.py writes one: the output's two points are twice the
    input's nodes 0 and 26, shifted by where the output starts less 1."""

    def __init__(self, *args, **kwargs):
        for key in ("input", "output"):
            kwargs[key] = kwargs[key].linkpath
        Sofa.Core.Mapping_Vec3d_Vec3d.__init__(self, *args, **kwargs)
        self.delta = kwargs["output"].target().position.value - 1.0
        self.source = kwargs["input"].target()

    def apply(self, m, outCoord, inCoord):
        with outCoord.writeableArray() as wa:
            wa[:] = 2.0 * inCoord.value[[0, 26]] + self.delta

    def applyJ(self, m, outDeriv, inDeriv):
        pass

    def applyJT(self, m, outDeriv, inDeriv):
        pass


class Tick(Sofa.Core.Controller):
    """Says each step's end: once, though its node has two parents; and whether the mapped
    output read then is the affine map of the body's state."""

    def __init__(self, *args, **kwargs):
        Sofa.Core.Controller.__init__(self, *args, **kwargs)
        self.dofs, self.out = kwargs["dofs"], kwargs["out"]

    def onAnimateEndEvent(self, event):
        print("tick", flush=True)
        x = numpy.array(self.dofs.position.value)
        expected = 2.0 * x[[0, 26]] + numpy.array([[0.0, 0.5, 0.0], [1.0, 0.5, 0.0]])
        moved = abs(x[26] - [1.0, 1.0, 2.0]).max() > 1e-6
        if moved and (numpy.array(self.out.position.value) == expected).all():
            print("mapped ok", flush=True)


def createScene(root):
    root.gravity = [0.0, -9.81, 0.0]
    root.dt = 0.01
    root.addObject("DefaultAnimationLoop")
    shared = "MAPPED" in os.environ
    model = root.addChild("Modelling") if shared else root
    body = model.addChild("body")
    dofs = body.addObject("MechanicalObject", name="dofs")
    body.addObject("RegularGridTopology", nx=3, ny=3, nz=3, xmin=0, xmax=1, ymin=0, ymax=1,
                   zmin=0, zmax=2)
    body.addObject("UniformMass", totalMass=2.0)
    body.addObject("HexahedronFEMForceField", youngModulus=2000.0, poissonRatio=0.3)
    body.addObject("FixedProjectiveConstraint", indices=list(range(9)))
    if shared:
        child = body.addChild("mapped")
        out = child.addObject("MechanicalObject", name="out", position=[[1, 1.5, 1], [2, 1.5, 1]])
        child.addObject(Offset(name="offset", input=dofs, output=out))
        body.addObject(Tick(name="tick", dofs=dofs, out=out))
        if "MASS" in os.environ:
            child.addObject("UniformMass", totalMass=1.0)
        solved = root.addChild("Simulation")
        solved.addChild(model)
    else:
        solved = body
    solved.addObject("EulerImplicitSolver")
    solved.addObject("CGLinearSolver", iterations=200, tolerance=1e-12, threshold=1e-20)


if __name__ == "__main__":
    import Sofa.Simulation
    root = Sofa.Core.Node("root")
    createScene(root)
    Sofa.Simulation.init(root)
    for step in range(5):
        Sofa.Simulation.animate(root, root.dt.value)
EOF

for ranks in 1 2; do
  scene "$ranks" grid.py --solver.steps=5 --output.final-state=plain.csv
  check "$ranks rank(s): the body alone runs" test -s plain.csv
  [ "$failures" -eq 0 ] || show
  MAPPED=1 scene "$ranks" grid.py --solver.steps=5 --output.final-state=mapped.csv
  check "$ranks rank(s): with a Python mapping's child, in a node of two parents, it runs" \
    test -s mapped.csv
  [ "$failures" -eq 0 ] || show
  check "$ranks rank(s): a controller of that node ends each of the 5 steps once" \
    test "$(grep -c '^tick$' run.out)" = 5
  check "$ranks rank(s): and reads the mapped output as apply gives it, each step" \
    test "$(grep -c '^mapped ok$' run.out)" = 5
  check "$ranks rank(s): and its final state is the body's alone, bit for bit" \
    cmp plain.csv mapped.csv
  # shellcheck disable=SC2016  # awk's fields, not the shell's
  check "$ranks rank(s): the free end has fallen" \
    awk -F, 'NR > 1 && $1 == 26 { fell = $3 < 0.999 } END { exit !fell }' mapped.csv
  rm -f plain.csv mapped.csv
done

# In the script's process (mpiexec -n N python3 grid.py): every rank's controller reads it.
# Counted as words: mpiexec may join two ranks' lines when both print at once.
export PYTHONPATH
PYTHONPATH=$(dirname "$EXE")/../share/euler-implicit/python
unset EULER_IMPLICIT_LAUNCH EULER_IMPLICIT_RANKS
for ranks in 1 2; do
  mpi_command "$ranks" "$PYTHON"
  MAPPED=1 EULER_IMPLICIT_ARGS="--quiet" timeout 120 "${MPI_COMMAND[@]}" -B grid.py \
    > run.out 2> run.err
  check "python3 grid.py on $ranks rank(s): each rank reads the mapped output each step" \
    test "$(grep -o 'mapped ok' run.out | wc -l)" = $((5 * ranks))
  [ "$failures" -eq 0 ] || show
done

MASS=1 MAPPED=1 scene 2 grid.py --solver.steps=1
check "a mass under a Python mapping: one error line naming the class" \
  test "$(grep -c 'euler-implicit: error: .*grid.py:.*Offset' run.err)" = 1
[ "$failures" -eq 0 ] || show

echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
