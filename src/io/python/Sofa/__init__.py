"""A stand-in for SofaPython3's Sofa package: scenes run against it to record their graph for
euler-implicit (src/io/python/eis_sofa_scene.py), and again for the controllers that run with
the simulation (src/io/python/eis_controllers.py); nothing here simulates."""
from . import Core, Helper, Simulation  # noqa: F401
from .Helper import msg_advice, msg_deprecated, msg_error, msg_fatal, msg_info, msg_warning  # noqa: F401,E501
