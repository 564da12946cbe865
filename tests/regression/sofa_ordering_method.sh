#!/usr/bin/env bash
# The ordering methods a direct solver links (SOFA's NaturalOrderingMethod, AMDOrderingMethod,
# COLAMDOrderingMethod: the order in which SparseLDLSolver factorises, io/sofa_walk.cpp): they
# change the rounding of the exact solve, not the solve. A hexahedral beam fixed at one end, 10
# steps under gravity with a SparseLDLSolver: linked to each ordering method, the final state is
# the one without (to 1e-12 of the largest coordinate; ours is MUMPS's ordering either way) on 1,
# 2 and 3 ranks, and differs from the beam that does not fall (the check can fail).
# Usage: sofa_ordering_method.sh <euler-implicit> <meshes dir>.
set -euo pipefail
RANKS=3  # MPI ranks per run at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
EXE=$(realpath "$1")
HERE=$(realpath "$(dirname "${BASH_SOURCE[0]}")")
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$HERE/../common/mpi_launch.sh"
launch_in_scratch "$RANKS" "$EXE"
# shellcheck source=SCRIPTDIR/../common/checks.sh
source "$HERE/../common/checks.sh"

beam() {  # beam GRAVITY ORDERING_COMPONENT SOLVER_LINK
  cat <<XML
<Node name="root" dt="0.01" gravity="$1">
  <DefaultAnimationLoop/>
  <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>
  $2
  <SparseLDLSolver $3/>
  <Node name="beam">
    <RegularGridTopology name="grid" nx="2" ny="2" nz="4" xmin="0" xmax="1" ymin="0" ymax="1"
                         zmin="0" zmax="3"/>
    <MechanicalObject template="Vec3d" name="DOFs"/>
    <MeshMatrixMass totalMass="2"/>
    <HexahedronFEMForceField youngModulus="1000" poissonRatio="0.3" method="large"/>
    <BoxROI name="fixed" box="-0.1 -0.1 -0.1 1.1 1.1 0.1"/>
    <FixedProjectiveConstraint indices="@fixed.indices"/>
  </Node>
</Node>
XML
}
beam "0 -9.81 0" "" "" > none.scn
beam "0 0 0" "" "" > still.scn
for method in Natural AMD COLAMD; do
  beam "0 -9.81 0" "<${method}OrderingMethod name=\"ordering\"/>" 'orderingMethod="@ordering"' \
    > "$method.scn"
done

for ranks in 1 2 3; do
  mpi_command "$ranks" "$EXE"
  for name in none still Natural AMD COLAMD; do
    status=0
    timeout 60 "${MPI_COMMAND[@]}" --scene "$name.scn" --solver.steps=10 \
      --output.final-state="$name$ranks.csv" > run.out 2> run.err || status=$?
    check "$name.scn: 10 steps on $ranks rank(s)" test "$status" -eq 0
    [ "$status" -eq 0 ] || sed 's/^/     | /' run.err
  done
  for method in Natural AMD COLAMD; do
    check "$ranks rank(s): ${method}OrderingMethod leaves the state unchanged to rounding" \
      same_state "none$ranks.csv" "$method$ranks.csv" 1e-12
  done
  check "$ranks rank(s): the beam falls (the check can fail)" \
    eval "! same_state none$ranks.csv still$ranks.csv 1e-6 > /dev/null"
done
echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
