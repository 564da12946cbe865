"""euler-implicit's engine in this Python process (the extension module _engine, src/python).

    import euler_implicit
    run = euler_implicit.Simulation(["--scene", "beam.scn", "--quiet"])
    for _ in range(10):
        run.step()                       # one step (dt: the scene's; step(dt) for this step only)
    x = run.positions()                  # this rank's owned rows, (n, 3); no communication
    everything = run.positions(gathered=True)   # every node's row in node order, on every rank
    tip = run.positions(nodes=[98])      # those nodes' rows on every rank (one Allreduce of them)
    run.finish()                         # the outputs finished

The arguments are euler-implicit's command line (--scene file.scn|file.py, --section.key=value,
PETSc's -options). Under `mpiexec -n N python3 script.py` every rank runs the script and makes
the same calls: the simulation is one, distributed over the N ranks (MPI is started by mpi4py
when it is installed, else by PETSc). owned_ids() gives the node ids of this rank's rows.
"""
import atexit
import os

try:  # MPI's libraries loaded for the whole process before PETSc needs them
    from mpi4py import MPI  # noqa: F401
except ImportError:
    pass

# The scene driver a .py scene's import runs (eis_sofa_scene.py) lies beside this package.
os.environ.setdefault("EULER_IMPLICIT_PYTHON",
                      os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from . import _engine
from ._engine import Error, fail, rank, size  # noqa: F401

atexit.register(_engine.finalize)


class Simulation(_engine.Simulation):
    """One run, stepped by the caller; see the package's help."""

    def positions(self, body=0, gathered=False, nodes=None):
        if nodes is not None:
            return self.rows(body, False, list(nodes))
        return self.state(body, False, gathered)

    def velocities(self, body=0, gathered=False, nodes=None):
        if nodes is not None:
            return self.rows(body, True, list(nodes))
        return self.state(body, True, gathered)

    def set_positions(self, values, body=0, owned=False):
        self.set_state(body, False, values, owned)

    def set_velocities(self, values, body=0, owned=False):
        self.set_state(body, True, values, owned)
