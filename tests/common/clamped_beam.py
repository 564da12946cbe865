# The start of the SofaPython3 scenes of tests/python/controller_restart.sh,
# controller_state_restart.sh and stiffness_factor_controller.sh, which write it out ahead of
# their own controllers: a beam of
# 5 x 3 x 3 grid points (45 nodes, 96 tetrahedra of a Hexa2TetraTopologicalMapping), clamped at
# x = 0, under gravity, integrated by an EulerImplicitSolver.


def clamped_beam(root, solver, solver_data, **fem_data):
    """The beam under `root` (dt 0.02), solved by the linear solver `solver` with `solver_data`;
    returns its node and its TetrahedronFEMForceField (E 2e4, nu 0.3, and `fem_data`)."""
    root.dt = 0.02
    root.gravity = [0, -9.81, 0]
    root.addObject("DefaultAnimationLoop")
    grid = root.addObject("RegularGridTopology", name="grid", nx=5, ny=3, nz=3, xmin=0, xmax=1,
                          ymin=0, ymax=0.25, zmin=0, zmax=0.25)
    topology = root.addChild("topology")
    tetrahedra = topology.addObject("TetrahedronSetTopologyContainer", name="tetrahedra")
    topology.addObject("TetrahedronSetTopologyModifier")
    topology.addObject("Hexa2TetraTopologicalMapping", input=grid.linkpath,
                       output=tetrahedra.linkpath)
    topology.addObject("MechanicalObject", name="points", position="@../grid.position")
    topology.addObject("BoxROI", name="clamp", box=[-0.01, -0.01, -0.01, 0.01, 0.26, 0.26])
    beam = topology.addChild("beam")
    beam.addObject("EulerImplicitSolver")
    beam.addObject(solver, **solver_data)
    beam.addObject("TetrahedronSetTopologyContainer", name="tetrahedra", src=tetrahedra.linkpath)
    beam.addObject("MechanicalObject", name="dofs", position="@../points.position")
    beam.addObject("MeshMatrixMass", massDensity=100, topology=tetrahedra.linkpath)
    beam.addObject("FixedConstraint", indices="@../clamp.indices")
    fem = beam.addObject("TetrahedronFEMForceField", name="fem", youngModulus=2e4,
                         poissonRatio=0.3, **fem_data)
    return beam, fem
