#!/usr/bin/env bash
# HexahedronFEMForceField in children that an IdentityMapping or SubsetMapping drives from a body
# on a RegularGridTopology (io/sofa_mapped_fem.cpp): J selects body nodes, so J^T K_c J of a child
# hexahedron is the body's element on the hexahedron it selects, with the child's modulus, the
# children's moduli adding up per hexahedron.
# - an IdentityMapping child carrying the FEM moves the body as the body carrying it does;
# - two SubsetMapping children (one matched by position, one by `indices`) over parts of the
#   body's 3 x 2 x 1 cells, overlapping in one, move it as the body with the per-hexahedron moduli
#   worked out by hand (youngModulus list: 800 800 0 800 1300 500);
# on 1, 2 and 3 ranks, to 1e-10 of the largest value. Then what is refused, one error line each.
# Usage: sofa_mapped_fem.sh <euler-implicit> <meshes dir>.
set -euo pipefail
RANKS=3  # MPI ranks per run at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
EXE=$(realpath "$1")
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/mpi_launch.sh"
launch_in_scratch "$RANKS" "$EXE"
# shellcheck source=SCRIPTDIR/../common/checks.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/checks.sh"

# scene BODY_FEM CHILDREN > FILE: a 4 x 3 x 2 point grid on [0,3] x [0,2] x [0,1], fixed at x = 0.
scene() {
  cat <<XML
<Node name="root" gravity="0.5 -9.81 2" dt="0.02">
  <DefaultAnimationLoop/>
  <Node name="body">
    <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>
    <CGLinearSolver iterations="1000" tolerance="1e-14" threshold="1e-30"/>
    <RegularGridTopology name="grid" n="4 3 2" min="0 0 0" max="3 2 1"/>
    <MechanicalObject name="dofs"/>
    <UniformMass totalMass="2"/>
    <FixedProjectiveConstraint indices="0 4 8 12 16 20"/>
    $1
    $2
  </Node>
</Node>
XML
}
# child NAME GRID MAPPING E
child() {
  cat <<XML
<Node name="$1">
      $2
      <MechanicalObject/>
      <HexahedronFEMForceField youngModulus="$4" poissonRatio="0.3" method="large"/>
      $3
    </Node>
XML
}
FEM='<HexahedronFEMForceField youngModulus="800" poissonRatio="0.3" method="large"/>'
scene "$FEM" "" > body.scn
scene "" "$(child all '<RegularGridTopology n="4 3 2" min="0 0 0" max="3 2 1"/>' \
  '<IdentityMapping/>' 800)" > identity.scn
scene '<HexahedronFEMForceField youngModulus="800 800 0 800 1300 500" poissonRatio="0.3"
    method="large"/>' "" > cells.scn
# Child b's points (i, j, k) are body nodes (1 + i) + 4 ((1 + j) + 3 k).
scene "" "$(child a '<RegularGridTopology n="3 3 2" min="0 0 0" max="2 2 1"/>' \
  '<SubsetMapping/>' 800)
    $(child b '<RegularGridTopology n="3 2 2" min="1 1 0" max="3 2 1"/>' \
  '<SubsetMapping indices="5 6 7 9 10 11 17 18 19 21 22 23"/>' 500)" > subsets.scn

for ranks in 1 2 3; do
  mpi_command "$ranks" "$EXE"
  for name in body identity cells subsets; do
    status=0
    timeout 60 "${MPI_COMMAND[@]}" --scene $name.scn --solver.steps=10 \
      --output.final-state=$name-$ranks.csv --quiet > run.out 2> run.err || status=$?
    check "$ranks rank(s): $name.scn runs" test "$status" -eq 0
    [ "$status" -eq 0 ] || sed 's/^/     | /' run.err
  done
  check "$ranks rank(s): the identity child's FEM moves the body as the body's own does" \
    same_state body-$ranks.csv identity-$ranks.csv 1e-10
  check "$ranks rank(s): the subset children's FEMs give each hexahedron the sum of their moduli" \
    same_state cells-$ranks.csv subsets-$ranks.csv 1e-10
  check "$ranks rank(s): the subset children give the same state as on 1 rank" \
    same_state subsets-1.csv subsets-$ranks.csv 1e-10
done
differs() { ! same_state "$@"; }
check "the children's moduli matter (the comparisons can fail)" \
  differs body-1.csv cells-1.csv 1e-6

scene "" "$(child a '<RegularGridTopology n="2 2 2" min="0.5 0 0" max="1.5 1 1"/>' \
  '<SubsetMapping indices="0 1 4 5 12 13 16 17"/>' 800)" > across.scn
check "a child hexahedron on other rest points than the body's is refused" \
  refused "MechanicalObject.*position.*from the body node it follows" \
    1 "$EXE" --scene across.scn --solver.steps=1
scene "" "$(child a '<RegularGridTopology n="2 2 2" min="0 0 0" max="2 1 1"/>' \
  '<SubsetMapping indices="0 2 4 6 12 14 16 18"/>' 800)" > wide.scn
check "a child hexahedron over two of the body's is refused" \
  refused "HexahedronFEMForceField.*not, corner by corner, a hexahedron" \
    1 "$EXE" --scene wide.scn --solver.steps=1
scene "" "$(child a '<RegularGridTopology n="2 2 2" min="0.2 0.2 0.2" max="0.8 0.8 0.8"/>' \
  '<BarycentricMapping/>' 800)" > barycentric.scn
check "a FEM force field in a barycentric child is refused" \
  refused "HexahedronFEMForceField.*only through IdentityMapping or SubsetMapping" \
    1 "$EXE" --scene barycentric.scn --solver.steps=1
scene "$FEM" "$(child all '<RegularGridTopology n="4 3 2" min="0 0 0" max="3 2 1"/>' \
  '<IdentityMapping/>' 800)" > both.scn
check "a child's FEM beside the body's own is refused" refused "FEM force field of its own" \
    1 "$EXE" --scene both.scn --solver.steps=1
echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
