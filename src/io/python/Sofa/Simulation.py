"""Sofa.Simulation. In a scene that euler-implicit reads (--scene), init does nothing and animate
is an error: the run steps the scene itself. In a script run as `python3 scene.py`, init makes
the simulation of the script's graph and animate steps it: in this process when the
euler_implicit module is built (eis_in_process.py; `mpiexec -n N python3 scene.py` is one run on
N ranks), else, or when EULER_IMPLICIT_LAUNCH or EULER_IMPLICIT_RANKS is set, by starting
euler-implicit beside the script (eis_main_loop.py)."""
import os

from . import Core
from .Core import SceneError


def _main_loop():
    if not os.environ.get("EULER_IMPLICIT_LAUNCH") and not os.environ.get("EULER_IMPLICIT_RANKS"):
        try:  # the module, and numpy (a python3 other than the one it was built for may lack it)
            import euler_implicit  # noqa: F401
            import numpy  # noqa: F401
        except ImportError:
            pass
        else:
            import eis_in_process
            return eis_in_process
    import eis_main_loop
    return eis_main_loop


def init(node):
    if not Core.DRIVER:
        _main_loop().init(node)


initRoot = init


def animate(node, dt=0.0):
    if Core.DRIVER:
        raise SceneError("Sofa.Simulation.animate: euler-implicit runs the scene itself; "
                         "createScene only builds it")
    _main_loop().animate(node, dt)


def reset(node):
    if not Core.DRIVER:
        _main_loop().reset(node)


def unload(node):
    if not Core.DRIVER:
        _main_loop().unload(node)
