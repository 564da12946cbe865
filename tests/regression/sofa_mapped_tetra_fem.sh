#!/usr/bin/env bash
# TetrahedronFEMForceField in children that an IdentityMapping or SubsetMapping drives from a body
# on a RegularGridTopology (io/sofa_mapped_fem.cpp): J selects body nodes, so J^T K_c J of a child
# tetrahedron (the child's grid cut as TetrahedronFEMForceField cuts it) is the body's element on
# the tetrahedron it selects, with the child's modulus, the children's moduli adding up per
# tetrahedron.
# - an IdentityMapping child carrying the FEM moves the body as the body carrying it does;
# - two SubsetMapping children (one matched by position, one by `indices`) over parts of the
#   body's 4 x 2 x 1 cubes, overlapping in two, move it as the body with the per-tetrahedron
#   moduli worked out by hand (each cube's six tetrahedra: 1300 1300 500 500 800 800 0 0);
# on 1, 2 and 3 ranks, to 1e-10 of the largest value. Then what is refused, one error line each.
# Then a body on no grid (io/sofa_mapped_fem.cpp, mapSharedTopologyFem): an IdentityMapping child
# whose topology reads the body's points and cells (a MeshTopology of the body's loader, a
# container linking the body's) has J = I on the same cells, and its FEM force field
# (TetrahedronFEMForceField, TetrahedralCorotationalFEMForceField, HexahedronFEMForceField) moves
# the body as the same force field in the body does, on 1, 2 and 3 ranks to 1e-10; what differs
# from that is refused.
# Usage: sofa_mapped_tetra_fem.sh <euler-implicit> <meshes dir>.
set -euo pipefail
RANKS=3  # MPI ranks per run at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
EXE=$(realpath "$1")
MESHES=$(realpath "$2")
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/mpi_launch.sh"
launch_in_scratch "$RANKS" "$EXE"
# shellcheck source=SCRIPTDIR/../common/checks.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/checks.sh"

# scene BODY_COMPONENTS CHILDREN > FILE: a 5 x 3 x 2 point grid on [0,4] x [0,2] x [0,1], fixed
# at x = 0.
scene() {
  cat <<XML
<Node name="root" gravity="0.5 -9.81 2" dt="0.02">
  <DefaultAnimationLoop/>
  <Node name="body">
    <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>
    <CGLinearSolver iterations="2000" tolerance="1e-14" threshold="1e-30"/>
    <RegularGridTopology name="grid" n="5 3 2" min="0 0 0" max="4 2 1"/>
    <MechanicalObject name="dofs"/>
    <UniformMass totalMass="2"/>
    <FixedProjectiveConstraint indices="0 5 10 15 20 25"/>
    $1
    $2
  </Node>
</Node>
XML
}
# child NAME GRID MAPPING E [FORCE FIELD]
child() {
  cat <<XML
<Node name="$1">
      $2
      <MechanicalObject/>
      <${5:-TetrahedronFEMForceField} youngModulus="$4" poissonRatio="0.3" method="large"/>
      $3
    </Node>
XML
}
repeat() { for value in "$@"; do printf '%s %s %s %s %s %s ' "$value" "$value" "$value" \
  "$value" "$value" "$value"; done; }
FEM='<TetrahedronFEMForceField youngModulus="800" poissonRatio="0.3" method="large"/>'
scene "$FEM" "" > body.scn
scene "" "$(child all '<RegularGridTopology n="5 3 2" min="0 0 0" max="4 2 1"/>' \
  '<IdentityMapping/>' 800)" > identity.scn
scene "<TetrahedronFEMForceField youngModulus=\"$(repeat 1300 1300 500 500 800 800 0 0)\"
    poissonRatio=\"0.3\" method=\"large\"/>" "" > cells.scn
# Child b's points (i, j, k) are body nodes i + 5 (j + 3 k).
scene "" "$(child a '<RegularGridTopology n="3 3 2" min="0 0 0" max="2 2 1"/>' \
  '<SubsetMapping/>' 800)
    $(child b '<RegularGridTopology n="5 2 2" min="0 0 0" max="4 1 1"/>' \
  '<SubsetMapping indices="0 1 2 3 4 5 6 7 8 9 15 16 17 18 19 20 21 22 23 24"/>' 500)" \
  > subsets.scn

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
  check "$ranks rank(s): the subset children's FEMs give each tetrahedron the sum of their moduli" \
    same_state cells-$ranks.csv subsets-$ranks.csv 1e-10
  check "$ranks rank(s): the subset children give the same state as on 1 rank" \
    same_state subsets-1.csv subsets-$ranks.csv 1e-10
done
differs() { ! same_state "$@"; }
check "the children's moduli matter (the comparisons can fail)" \
  differs body-1.csv cells-1.csv 1e-6

# A cube one step along x from the body's first is cut mirrored there: its tetrahedra are not
# the body's.
scene "" "$(child a '<RegularGridTopology n="2 2 2" min="1 0 0" max="2 1 1"/>' \
  '<SubsetMapping/>' 800)" > mirrored.scn
check "a child tetrahedron that is no body tetrahedron is refused" \
  refused "TetrahedronFEMForceField.*not, corner by corner, a tetrahedron" \
    1 "$EXE" --scene mirrored.scn --solver.steps=1
scene "" "$(child a '<RegularGridTopology n="2 2 2" min="0.2 0.2 0.2" max="0.8 0.8 0.8"/>' \
  '<BarycentricMapping/>' 800)" > barycentric.scn
check "a FEM force field in a barycentric child is refused" \
  refused "TetrahedronFEMForceField.*only through IdentityMapping or SubsetMapping" \
    1 "$EXE" --scene barycentric.scn --solver.steps=1
scene "$FEM" "$(child all '<RegularGridTopology n="5 3 2" min="0 0 0" max="4 2 1"/>' \
  '<IdentityMapping/>' 800)" > both.scn
check "a child's FEM beside the body's own is refused" refused "FEM force field of its own" \
    1 "$EXE" --scene both.scn --solver.steps=1
scene '<MeshSpringForceField stiffness="10"/>' \
  "$(child all '<RegularGridTopology n="5 3 2" min="0 0 0" max="4 2 1"/>' \
    '<IdentityMapping/>' 800)" > hexahedra.scn
check "a child's tetrahedra over a body read as hexahedra are refused" \
  refused "TetrahedronFEMForceField.*body's components read its cells otherwise" \
    1 "$EXE" --scene hexahedra.scn --solver.steps=1
scene "" "$(child a '<RegularGridTopology n="3 3 2" min="0 0 0" max="2 2 1"/>' \
  '<SubsetMapping/>' 800)
    $(child b '<RegularGridTopology n="3 3 2" min="2 0 0" max="4 2 1"/>' \
    '<SubsetMapping/>' 800 HexahedronFEMForceField)" > mixed.scn
check "tetrahedral and hexahedral children of one body are refused" \
  refused "element differ from" 1 "$EXE" --scene mixed.scn --solver.steps=1

# on_mesh BODY_TOPOLOGY BODY_FEM CHILD > FILE: the beam of meshes/beam_v22_ascii.msh, fixed at
# x = 0, or four tetrahedra written in the scene, fixed at nodes 0 1 2.
on_mesh() {
  cat <<XML
<Node name="root" gravity="0.5 -9.81 2" dt="0.02">
  <DefaultAnimationLoop/>
  <Node name="body">
    <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>
    <CGLinearSolver iterations="2000" tolerance="1e-14" threshold="1e-30"/>
    $1
    <MechanicalObject name="dofs"/>
    <UniformMass totalMass="2"/>
    $2
    $3
  </Node>
</Node>
XML
}
LOADER="<MeshGmshLoader name=\"loader\" filename=\"$MESHES/beam_v22_ascii.msh\"/>
    <MeshTopology name=\"topo\" src=\"@loader\"/>
    <BoxROI name=\"box\" box=\"-0.01 -1 -1 0.01 2 2\"/>
    <FixedProjectiveConstraint indices=\"@box.indices\"/>"
WRITTEN='<TetrahedronSetTopologyContainer name="topo" position="0 0 0  1 0 0  0 1 0  0 0 1
      1 1 1  1 0.2 -0.8  -0.5 1 1" tetrahedra="0 1 2 3  1 2 3 4  0 1 3 5  2 3 4 6"/>
    <FixedProjectiveConstraint indices="0 1 2"/>'
TFEM='<TetrahedronFEMForceField youngModulus="800 500 300 900" poissonRatio="0.3"
      method="large"/>'
HEXAHEDRA='<HexahedronSetTopologyContainer name="topo" position="0 0 0  1 0 0  1 1 0  0 1 0
      0 0 1  1 0 1  1 1 1  0 1 1  2 0 0  2 1 0  2 0 1  2 1 1.2"
      hexahedra="0 1 2 3 4 5 6 7  1 8 9 2 5 10 11 6"/>
    <FixedProjectiveConstraint indices="0 3 4 7"/>'
HFEM='<HexahedronFEMForceField youngModulus="700" poissonRatio="0.35" method="large"/>'
CFEM='<TetrahedralCorotationalFEMForceField youngModulus="650" poissonRatio="0.3"
      method="polar"/>'
# shared_child TOPOLOGY [MAPPING] [STATE FIELDS] [FEM]
shared_child() {
  cat <<XML
<Node name="child">
      $1
      <MechanicalObject ${3:-}/>
      ${4:-$TFEM}
      <${2:-IdentityMapping}/>
    </Node>
XML
}
on_mesh "$LOADER" "$TFEM" "" > loader-body.scn
on_mesh "$LOADER" "" "$(shared_child '<MeshTopology src="@../loader"/>')" > loader-child.scn
on_mesh "$WRITTEN" "$TFEM" "" > written-body.scn
on_mesh "$WRITTEN" "" "$(shared_child '<TetrahedronSetTopologyContainer src="@../topo"/>')" \
  > written-child.scn
on_mesh "$WRITTEN" "$CFEM" "" > corotational-body.scn
on_mesh "$WRITTEN" "" "$(shared_child '<TetrahedronSetTopologyContainer src="@../topo"/>' \
  IdentityMapping '' "$CFEM")" > corotational-child.scn
on_mesh "$HEXAHEDRA" "$HFEM" "" > hexahedra-body.scn
on_mesh "$HEXAHEDRA" "" "$(shared_child '<HexahedronSetTopologyContainer src="@../topo"/>' \
  IdentityMapping '' "$HFEM")" > hexahedra-child.scn
for ranks in 1 2 3; do
  mpi_command "$ranks" "$EXE"
  for name in {loader,written,corotational,hexahedra}-{body,child}; do
    status=0
    timeout 60 "${MPI_COMMAND[@]}" --scene $name.scn --solver.steps=10 \
      --output.final-state=$name-$ranks.csv --quiet > run.out 2> run.err || status=$?
    check "$ranks rank(s): $name.scn runs" test "$status" -eq 0
    [ "$status" -eq 0 ] || sed 's/^/     | /' run.err
  done
  for mesh in loader written corotational hexahedra; do
    check "$ranks rank(s): on the $mesh mesh, the identity child's FEM moves the body as its own" \
      same_state $mesh-body-$ranks.csv $mesh-child-$ranks.csv 1e-10
  done
done
on_mesh "$WRITTEN" "" "" > written-none.scn
mpi_command 1 "$EXE"
timeout 60 "${MPI_COMMAND[@]}" --scene written-none.scn --solver.steps=10 \
  --output.final-state=written-none.csv --quiet > run.out 2> run.err
check "the FEM matters on the written mesh (the comparisons can fail)" \
  differs written-body-1.csv written-none.csv 1e-6
scene "" "$(child all '<RegularGridTopology n="5 3 2" min="0 0 0" max="4 2 1"/>' \
  '<IdentityMapping/>' 800 TetrahedralCorotationalFEMForceField)" > grid-corotational.scn
check "a TetrahedralCorotationalFEMForceField child of a body on a grid is refused" \
  refused "TetrahedralCorotationalFEMForceField.*only TetrahedronFEMForceField" \
    1 "$EXE" --scene grid-corotational.scn --solver.steps=1
on_mesh "$WRITTEN" "" "$(shared_child '<TetrahedronSetTopologyContainer src="@../topo"/>' \
  SubsetMapping)" > subset-shared.scn
check "a subset child's FEM on the body's own topology is refused" \
  refused "TetrahedronFEMForceField.*in a child of SubsetMapping" \
    1 "$EXE" --scene subset-shared.scn --solver.steps=1
on_mesh "$WRITTEN" "" "$(shared_child '')" > no-topology.scn
check "a child FEM without a topology of its node is refused" \
  refused "TetrahedronFEMForceField.*on a topology of its node" \
    1 "$EXE" --scene no-topology.scn --solver.steps=1
on_mesh "$WRITTEN" "" "$(shared_child '<TetrahedronSetTopologyContainer
      position="0 0 0  1 0 0  0 1 0  0 0 1  1 1 1  1 0.2 -0.8  -0.5 1 1"
      tetrahedra="0 1 2 3  1 2 3 4  0 1 3 5  2 3 4 6"/>')" > copied.scn
check "a child topology holding cells of its own is refused" \
  refused "TetrahedronSetTopologyContainer.*not the body's" \
    1 "$EXE" --scene copied.scn --solver.steps=1
on_mesh "$WRITTEN" "" "$(shared_child '<TetrahedronSetTopologyContainer src="@../topo"/>' \
  IdentityMapping 'position="0 0 0  1 0 0  0 1 0  0 0 1  1 1 1  1 0.2 -0.8  -0.5 1 1"')" \
  > positioned.scn
check "a child state with points of its own is refused" \
  refused "MechanicalObject.*position.*on the points of the child's topology" \
    1 "$EXE" --scene positioned.scn --solver.steps=1
on_mesh "$WRITTEN" "$TFEM" "$(shared_child '<TetrahedronSetTopologyContainer src="@../topo"/>')" \
  > both-shared.scn
check "a child's FEM beside the body's own FEM on its topology is refused" \
  refused "FEM force field of its own" 1 "$EXE" --scene both-shared.scn --solver.steps=1
echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
