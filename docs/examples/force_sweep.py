"""A parameter sweep through the euler_implicit module, in the script's own process: one node
of mass m held by a spring of stiffness k (RestShapeSpringsForceField) and pulled along x by a
ConstantForceField of force F, run once per F. After every step the script reads the node's
displacement (a numpy row of mo.position.value), keeps the series as numpy arrays, saves them
(.npz) and plots them with matplotlib. Each series tends to the static deflection F / k, and
the series are proportional to F (the mechanics is linear).

    export PYTHONPATH=$PWD/build/share/euler-implicit/python
    python3 docs/examples/force_sweep.py --steps 60 --png sweep.png --npz sweep.npz

Under mpiexec -n N every rank runs it (one simulation per F over the N ranks); rank 0 alone
writes the files. EULER_IMPLICIT_ARGS passes options to the runs (e.g. --quiet).
"""
import argparse

import matplotlib
import numpy

import euler_implicit
import Sofa.Core
import Sofa.Simulation

matplotlib.use("Agg")  # no display: write the figure to a file
import matplotlib.pyplot as plt  # noqa: E402 (after the backend is chosen)

MASS, STIFFNESS, DT = 1.0, 100.0, 0.1


def createScene(root, force=1.0):
    """Nodes 0, 1, 2 fixed; node 3 free, held at its start by the spring, pulled by `force`."""
    root.dt = DT
    root.gravity = [0.0, 0.0, 0.0]
    n = root.addChild("point")
    n.addObject("EulerImplicitSolver", rayleighStiffness=0.0, rayleighMass=0.0)
    n.addObject("CGLinearSolver", iterations=100, tolerance=1e-30, threshold=1e-30)
    n.addObject("TetrahedronSetTopologyContainer", name="topo",
                position=[[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], tetrahedra=[[0, 1, 2, 3]])
    n.addObject("MechanicalObject", name="dofs", template="Vec3d")
    n.addObject("UniformMass", vertexMass=MASS)
    n.addObject("RestShapeSpringsForceField", stiffness=STIFFNESS, points=[3])
    n.addObject("FixedProjectiveConstraint", indices=[0, 1, 2])
    n.addObject("ConstantForceField", name="pull", indices=[3], forces=[[force, 0.0, 0.0]])


def displacements(force, steps):
    """Node 3's x displacement after each of `steps` steps under `force`."""
    root = Sofa.Core.Node("root")
    createScene(root, force)
    Sofa.Simulation.init(root)  # a new run of this graph (the previous one ends)
    start = root.point.dofs.position.value[3][0]
    series = numpy.empty(steps)
    for k in range(steps):
        Sofa.Simulation.animate(root, root.dt.value)
        series[k] = root.point.dofs.position.value[3][0] - start
    Sofa.Simulation.unload(root)
    return series


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--forces", type=float, nargs="+", default=[1.0, 2.0, 4.0])
    parser.add_argument("--steps", type=int, default=60)
    parser.add_argument("--png", default="force_sweep.png")
    parser.add_argument("--npz", default="")
    args = parser.parse_args()
    time = DT * numpy.arange(1, args.steps + 1)
    series = numpy.array([displacements(f, args.steps) for f in args.forces])
    if euler_implicit.rank() != 0:
        return
    if args.npz:
        numpy.savez(args.npz, time=time, forces=numpy.array(args.forces), displacement=series)
    fig, ax = plt.subplots(figsize=(6, 3.5), dpi=80)
    for f, u in zip(args.forces, series):
        line, = ax.plot(time, u, label="F = %g N" % f)
        ax.axhline(f / STIFFNESS, color=line.get_color(), linestyle=":", linewidth=1)
    ax.set_xlabel("time (s)")
    ax.set_ylabel("displacement (m)")
    ax.set_title("spring-mass under a constant force (dotted: F / k)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(args.png)
    print("wrote %s: final displacements %s" % (args.png, series[:, -1].tolist()))


if __name__ == "__main__":
    main()
