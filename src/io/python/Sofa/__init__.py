"""A stand-in for SofaPython3's Sofa package: scenes run against it to record their graph for
euler-implicit (src/io/python/eis_sofa_scene.py); nothing here simulates."""
from . import Core, Simulation  # noqa: F401


def msg_info(*args):
    pass


msg_warning = msg_error = msg_deprecated = msg_info
