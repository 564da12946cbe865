"""Sofa.Simulation. In a scene that euler-implicit reads (--scene), init does nothing and animate
is an error: the run steps the scene itself. In a script run as `python3 scene.py`, init starts
euler-implicit on the script's graph and animate steps it (eis_main_loop.py)."""
from . import Core
from .Core import SceneError


def _main_loop():
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
