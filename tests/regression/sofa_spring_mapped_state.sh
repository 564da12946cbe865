#!/usr/bin/env bash
# A SOFA SpringForceField (or AttachProjectiveConstraint) whose object1 or object2 is a state a
# mechanical mapping drives (a BarycentricMapping child here) is refused in one error line that
# names the component's file and line, the field and the mapping; the same springs to the body's
# own state run.
# Usage: sofa_spring_mapped_state.sh <euler-implicit> <meshes dir>; the MPI launch line:
# tests/common/mpi_launch.sh.
set -euo pipefail
RANKS=2  # MPI ranks per run at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
# shellcheck source=SCRIPTDIR/../common/regression_test.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/regression_test.sh"

scene() {  # scene OBJECT2 COMPONENT
  cat <<EOF
<Node name="root" dt="0.01" gravity="0 -9.81 0"><DefaultAnimationLoop/>
  <EulerImplicitSolver/>
  <CGLinearSolver iterations="50" tolerance="1e-12" threshold="1e-20"/>
  <Node name="a">
    <MechanicalObject name="dofs" position="0 0 0  1 0 0  0 1 0  0 0 1"/>
    <TetrahedronSetTopologyContainer tetrahedra="0 1 2 3"/>
    <UniformMass totalMass="1"/>
    <TetrahedronFEMForceField youngModulus="100" poissonRatio="0.3"/>
    <FixedProjectiveConstraint indices="0"/>
  </Node>
  <Node name="b">
    <MechanicalObject name="dofs" position="2 0 0  3 0 0  2 1 0  2 0 1"/>
    <TetrahedronSetTopologyContainer tetrahedra="0 1 2 3"/>
    <UniformMass totalMass="1"/>
    <TetrahedronFEMForceField youngModulus="100" poissonRatio="0.3"/>
    <Node name="skin">
      <MechanicalObject name="points" position="2.1 0.1 0.1"/>
      <BarycentricMapping/>
    </Node>
  </Node>
  $2
</Node>
EOF
}
scene "" '<SpringForceField object1="@a/dofs" object2="@b/dofs" spring="1 0 10 0 1"/>' > body.scn
scene "" '<SpringForceField object1="@a/dofs" object2="@b/skin/points" spring="1 0 10 0 1"/>' \
  > spring.scn
scene "" '<AttachProjectiveConstraint object1="@b/skin/points" object2="@a/dofs" indices1="0"
            indices2="1"/>' > attach.scn

mpi_command 2 "$EXE"
status=0
timeout 60 "${MPI_COMMAND[@]}" --scene body.scn --solver.steps=2 --quiet > run.out 2> run.err ||
  status=$?
check "springs between the two bodies' own states run" test "$status" -eq 0
for name in spring attach; do
  status=0
  timeout 60 "${MPI_COMMAND[@]}" --scene "$name.scn" --solver.steps=2 --quiet > run.out \
    2> run.err || status=$?
  check "$name to a mapped state is refused" test "$status" -ne 0
  field=$([ "$name" = spring ] && echo object2 || echo object1)
  check "in one error line naming $name.scn:21, $field and the mapping" \
    test "$(grep -c "error: $name.scn:21: .*: $field (/b/skin) is a state BarycentricMapping (\
$name.scn:18) drives" run.err)" -eq 1
done
echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
