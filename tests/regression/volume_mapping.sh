#!/usr/bin/env bash
# Springs on tetrahedra's volumes: SOFA's VolumeMapping with a RestShapeSpringsForceField<Vec1>
# in its child, imported as volume.stiffness of the body (model/volume_springs.hpp). Checked: one
# tetrahedron, three nodes fixed, node 3 moving: the first step is the one computed by hand
# through J = dV/dx3 (tests/common/volume_spring_step.py), and without the child it is not; a beam
# with the child ends the same on 1, 2 and 3 ranks, and not where it ends without it; what the
# volume springs cannot stand for is refused, naming it; so is a projective constraint in a
# mapped child.
# Usage: volume_mapping.sh <euler-implicit> <meshes dir>; the MPI launch line: tests/common/mpi_launch.sh.
set -uo pipefail
RANKS=3  # MPI ranks at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
meshes=$(realpath "$2")
# shellcheck source=SCRIPTDIR/../common/regression_test.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/regression_test.sh"
fails() { [[ -s ${2:-} ]] && ! "$@"; }  # fails COMMAND FILE ...: FILE is there, COMMAND fails

child='    <Node name="volumes">
        <MechanicalObject template="Vec1d"/>
        <VolumeMapping topology="@../topo" geometricStiffness="Exact" applyRestPosition="true"/>
        <RestShapeSpringsForceField template="Vec1d" stiffness="900"/>
    </Node>'
tetrahedron() {  # tetrahedron FILE CHILD
  cat > "$1" <<XML
<Node name="root" dt="0.05" gravity="0 0 0">
    <EulerImplicitSolver/>
    <SparseLDLSolver/>
    <MeshTopology name="topo" position="0 0 0  1.2 0.1 0  0.2 0.9 0.1  0.3 0.2 1.1"
                  tetrahedra="0 1 2 3"/>
    <MechanicalObject velocity="0 0 0  0 0 0  0 0 0  0.3 -0.2 0.5"/>
    <UniformMass vertexMass="0.7"/>
    <FixedProjectiveConstraint indices="0 1 2"/>
$2
</Node>
XML
}
tetrahedron tet.scn "$child"
tetrahedron bare.scn ""
hand() {
  python3 "$COMMON/volume_spring_step.py" "$1" 0.7 900 0.05 0,0,0 1.2,0.1,0 \
    0.2,0.9,0.1 0.3,0.2,1.1 0.3,-0.2,0.5 1e-12
}
check "one tetrahedron and a VolumeMapping child, one step" \
  run_on 1 tet --scene tet.scn --solver.steps=1 --output.final-state=tet.csv
check "... node 3 ends where the step computed by hand through J ends" hand tet.csv
check "the tetrahedron without the child" \
  run_on 1 bare --scene bare.scn --solver.steps=1 --output.final-state=bare.csv
check "... does not" fails hand bare.csv

beam() {  # beam FILE CHILD: the repository's beam, clamped at x = 0, under gravity
  cat > "$1" <<XML
<Node name="root" dt="0.01" gravity="0 -9.81 0">
    <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>
    <SparseLDLSolver/>
    <MeshGmshLoader name="loader" filename="$meshes/beam_v22_ascii.msh"/>
    <MeshTopology name="topo" src="@loader"/>
    <MechanicalObject/>
    <DiagonalMass massDensity="20"/>
    <BoxROI name="clamp" box="-0.01 -1 -1 0.01 2 2"/>
    <FixedProjectiveConstraint indices="@clamp.indices"/>
    <TetrahedronFEMForceField youngModulus="2000" poissonRatio="0.3"/>
$2
</Node>
XML
}
beam beam.scn "$child"
beam beam_bare.scn ""
for n in 1 2 3; do
  check "a beam with a VolumeMapping child on $n ranks" \
    run_on $n beam$n --scene beam.scn --solver.steps=10 --output.final-state=beam$n.csv
done
check "... 1 and 2 ranks agree" same_state beam1.csv beam2.csv 1e-10
check "... 1 and 3 ranks agree" same_state beam1.csv beam3.csv 1e-10
check "the beam without the child" \
  run_on 2 beam_bare --scene beam_bare.scn --solver.steps=10 --output.final-state=beam_bare.csv
check "... ends elsewhere" fails same_state beam1.csv beam_bare.csv 1e-6

sed 's|applyRestPosition="true"|applyRestPosition="false"|' tet.scn > norest.scn
check "applyRestPosition false is refused" \
  refused "only applyRestPosition=\"true\" is supported" 2 "$EXE" --scene norest.scn
sed 's|<RestShapeSpringsForceField|<UniformMass vertexMass="1"/><RestShapeSpringsForceField|' \
  tet.scn > mass.scn
check "a mass in the child is refused" \
  refused "in a VolumeMapping's child only a RestShapeSpringsForceField is supported" 2 "$EXE" \
  --scene mass.scn
sed 's|stiffness="900"|stiffness="900 800"|' tet.scn > two.scn
check "a stiffness per volume is refused" \
  refused "one stiffness for every volume is supported" 2 "$EXE" --scene two.scn
check "volume springs on hexahedra are refused" \
  refused "the volume springs act on tetrahedra" 2 "$EXE" --mesh.box-size="1 1 1" \
  --mesh.box-cells="2 2 2" --mesh.cell-type=hexahedron --volume.stiffness=10

# A projective constraint in a mapped child: SOFA projects only the child's copy of the response.
cat > fixedchild.scn <<XML
<Node name="root" dt="0.05" gravity="0 -9.81 0">
    <EulerImplicitSolver/>
    <SparseLDLSolver/>
    <MeshTopology name="topo" position="0 0 0  1.2 0.1 0  0.2 0.9 0.1  0.3 0.2 1.1"
                  tetrahedra="0 1 2 3"/>
    <MechanicalObject/>
    <UniformMass vertexMass="0.7"/>
    <FixedProjectiveConstraint indices="0 1 2"/>
    <TetrahedronFEMForceField youngModulus="2000" poissonRatio="0.3"/>
    <Node name="points">
        <MechanicalObject position="0.3 0.3 0.3"/>
        <UniformMass vertexMass="0.1"/>
        <FixedProjectiveConstraint indices="0"/>
        <BarycentricMapping/>
    </Node>
</Node>
XML
check "a FixedProjectiveConstraint in a barycentric child is refused, saying why" \
  refused "a projective constraint on a mapped state holds nothing SOFA integrates" 2 "$EXE" \
  --scene fixedchild.scn

sed 's|<BarycentricMapping/>|<SubsetMultiMapping input="@.." output="@." indexPairs="0 0"/>|; s|<FixedProjectiveConstraint indices="0"/>||' \
  fixedchild.scn > multi.scn
check "a SubsetMultiMapping child's mass is refused, naming the mapping" \
  refused "only a MeshSpringForceField on the child's edges is carried through a SubsetMultiMapping" \
  2 "$EXE" --scene multi.scn

echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
