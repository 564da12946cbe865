#!/usr/bin/env bash
# Which FreeMotionAnimationLoop a SOFA scene runs, and what it refuses first (io/sofa_import,
# io/sofa_lagrangian), as SOFA's DeformableOnRigidFrameMappingConstraints.scn needs:
#  - two loops in the root: Node::animationManager is a single link, so the last one added is
#    the one that runs. With the first asking solveVelocityConstraintFirst (refused with the
#    beam's FixedLagrangianConstraint) the scene runs, and ends as the one-loop scene (1e-15); in
#    the other order it is refused by that field.
#  - a loop with a collision pipeline is refused for its contacts (the scene's constraints) before
#    what a body lacks (here a rigid frame's UncoupledConstraintCorrection), with one line;
#  - a UniformLagrangianConstraint on a DistanceMapping child of a body whose cells are not edges
#    (SofaPython3's access_constraint_matrix.py has a string of edges) is refused, naming that.
# Usage: sofa_free_motion_loops.sh <euler-implicit> <meshes dir>.
set -uo pipefail
RANKS=2  # MPI ranks per run at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
here=$(dirname "$(realpath "${BASH_SOURCE[0]}")")
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$here/../common/mpi_launch.sh"
# shellcheck source=SCRIPTDIR/../common/checks.sh
source "$here/../common/checks.sh"
EXE=$(realpath "$1")
launch_in_scratch "$RANKS" "$EXE"

# scene LOOPS EXTRA > FILE: a beam held at x = 0 by a FixedLagrangianConstraint.
scene() {
  cat <<XML
<Node name="root" gravity="0 -9.81 0" dt="0.02">
  $1
  <BlockGaussSeidelConstraintSolver maxIterations="1000" tolerance="1e-12"/>
  $2
  <Node name="beam">
    <EulerImplicitSolver/>
    <SparseLDLSolver name="ldl"/>
    <RegularGridTopology name="grid" n="4 2 2" min="0 0 0" max="0.3 0.1 0.1"/>
    <MechanicalObject name="dofs" src="@grid"/>
    <UniformMass totalMass="0.5"/>
    <HexahedronFEMForceField youngModulus="2e4" poissonRatio="0.3"/>
    <BoxROI name="face" box="-0.01 -0.01 -0.01 0.01 0.11 0.11"/>
    <FixedLagrangianConstraint indices="@face.indices"/>
    <LinearSolverConstraintCorrection linearSolver="@ldl"/>
  </Node>
</Node>
XML
}
VELOCITY='<FreeMotionAnimationLoop solveVelocityConstraintFirst="true"/>'
scene '<FreeMotionAnimationLoop/>' '' > one.scn
scene "$VELOCITY
  <FreeMotionAnimationLoop/>" '' > last_plain.scn
scene "<FreeMotionAnimationLoop/>
  $VELOCITY" '' > last_velocity.scn
scene '<FreeMotionAnimationLoop/>' '<CollisionPipeline/><BruteForceBroadPhase/><BVHNarrowPhase/>
  <CollisionResponse response="FrictionContactConstraint"/>
  <Node name="frame"><EulerImplicitSolver/><CGLinearSolver iterations="20" tolerance="1e-12" threshold="1e-12"/>
    <MechanicalObject template="Rigid3" position="0 1 0 0 0 0 1"/><UniformMass totalMass="1"/>
    <UncoupledConstraintCorrection/></Node>' > contacts.scn
# The beam's edges' extensions (a DistanceMapping child) held by a UniformLagrangianConstraint,
# as SofaPython3's access_constraint_matrix.py does on a string of edges.
scene '<FreeMotionAnimationLoop/>' '' |
  sed 's|^  </Node>$|    <Node name="ext"><MechanicalObject template="Vec1d"/><DistanceMapping topology="@../grid"/><UniformLagrangianConstraint template="Vec1d"/></Node>\n  </Node>|' \
  > mapped_rows.scn

run() {
  mpi_command 2 "$EXE"
  local status=0
  timeout 120 "${MPI_COMMAND[@]}" --scene "$2" --solver.steps=5 --output.final-state="$1.csv" \
    --quiet > "$1.out" 2> "$1.err" || status=$?
  [ "$status" -eq 0 ] || sed 's/^/     | /' "$1.err"
  return "$status"
}
check "the one-loop scene runs" run one one.scn
check "two loops, the last without solveVelocityConstraintFirst: it runs" run last last_plain.scn
check "  and ends as the one-loop scene (1e-15)" same_state one.csv last.csv 1e-15
check "two loops, the last with solveVelocityConstraintFirst: refused by it" \
  refused "last_velocity.scn:3.*solveVelocityConstraintFirst" \
    2 "$EXE" --scene last_velocity.scn --solver.steps=1
check "a loop with a collision pipeline is refused for its contacts first" \
  refused "FreeMotionAnimationLoop with a CollisionPipeline.*contacts" \
    2 "$EXE" --scene contacts.scn --solver.steps=1
check "a DistanceMapping child on a body whose cells are not edges is refused by what is missing" \
  refused "DistanceMapping.*its edges are read from the body's topology.*cells are edges" \
    2 "$EXE" --scene mapped_rows.scn --solver.steps=1
echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
