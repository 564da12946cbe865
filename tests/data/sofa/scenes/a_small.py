"""The a_small.scn scene written as a SofaPython3 user would: a beam of beam-small.msh fixed at
x = 0, under gravity, with SOFA's implicit Euler step and a conjugate-gradient solve."""
import Sofa.Core

PLUGINS = ["Sofa.Component.ODESolver.Backward", "Sofa.Component.LinearSolver.Iterative",
           "Sofa.Component.IO.Mesh", "Sofa.Component.Topology.Container.Dynamic",
           "Sofa.Component.StateContainer", "Sofa.Component.Mass",
           "Sofa.Component.SolidMechanics.FEM.Elastic", "Sofa.Component.Constraint.Projective",
           "Sofa.Component.Engine.Select"]


def addBeam(parent, mesh):
    beam = parent.addChild("beam")
    beam.addObject("EulerImplicitSolver", name="odesolver", rayleighStiffness=0.0,
                   rayleighMass=0.0, vdamping=0.0, trapezoidalScheme=False)
    beam.addObject("CGLinearSolver", name="linsolver", iterations=2000, tolerance=1e-14,
                   threshold=1e-20)
    loader = beam.addObject("MeshGmshLoader", name="loader", filename=mesh)
    beam.addObject("TetrahedronSetTopologyContainer", name="topo", src=loader.linkpath)
    beam.addObject("MechanicalObject", name="dofs", template="Vec3d")
    beam.addObject("DiagonalMass", name="mass", massDensity=1000.0)
    beam.addObject("TetrahedronFEMForceField", name="fem", template="Vec3d", method="small",
                   youngModulus=1e8, poissonRatio=0.3)
    box = beam.addObject("BoxROI", name="fixedBox", template="Vec3d",
                         box=[[-0.001, -0.001, -0.001], [0.001, 1.001, 1.001]])
    beam.addObject("FixedProjectiveConstraint", name="fixed", template="Vec3d",
                   indices=box.indices.linkpath)
    return beam


def createScene(rootNode):
    rootNode.gravity = [0.0, -9.81, 0.0]
    rootNode.dt = 0.01
    for plugin in PLUGINS:
        rootNode.addObject("RequiredPlugin", pluginName=plugin)
    rootNode.addObject("DefaultAnimationLoop")
    addBeam(rootNode, "../beam-small.msh")
    return rootNode


if __name__ == "__main__":
    import Sofa.Simulation
    root = Sofa.Core.Node("root")
    createScene(root)
    Sofa.Simulation.init(root)
