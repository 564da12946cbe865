"""SofaPython3's Sofa.SofaConstraintSolver as euler-implicit reads a scene: a constraint
solver's reads (W, lambda_force) are methods of the object addObject returns
(Sofa.Core.ConstraintSolver), which a controller calls while the run goes on."""
from .Core import ConstraintSolver  # noqa: F401
