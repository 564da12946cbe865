"""Sofa.Simulation: init is a no-op; stepping is euler-implicit's job, not the scene's."""
from .Core import SceneError


def init(node):
    pass


def animate(node, dt=0.0):
    raise SceneError("Sofa.Simulation.animate: euler-implicit runs the scene itself; "
                     "createScene only builds it")


def reset(node):
    pass
