#!/usr/bin/env bash
# SOFA scenes with masses and force fields in a mapped child (IdentityMapping, SubsetMapping,
# BarycentricMapping; io/sofa_mapped_child.cpp, model/mapped_child.cpp): a child that every
# mapping ties to the body's own nodes (IdentityMapping; SubsetMapping listing every node;
# BarycentricMapping with the nodes' positions as its points, written or from a MeshOBJLoader's
# file) carrying half the mass, a plane,
# constant forces and rest-shape springs on every and on listed points moves the body as the body carrying them itself does, on
# 1 and 2 ranks, to 1e-10 of the largest value (the child's points given, as SOFA needs them
# for its components to see the child's size). Then what is refused: one error line naming the
# component.
# Usage: sofa_mapped_child.sh <euler-implicit> <meshes dir>.
set -euo pipefail
RANKS=2  # MPI ranks per run at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
EXE=$(realpath "$1")
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/mpi_launch.sh"
launch_in_scratch "$RANKS" "$EXE"
# shellcheck source=SCRIPTDIR/../common/checks.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/checks.sh"

NODES="0 0 0  1 0 0  0 1 0  0 0 1  1 1 1  1 0.2 -0.8"
LOADS='<PlaneForceField normal="0 1 0" d="-0.02" stiffness="800" damping="2"/>
    <ConstantForceField forces="0.5 0 -3"/>
    <RestShapeSpringsForceField stiffness="40"/>
    <ConstantForceField indices="1 4" forces="0.2 0 1"/>
    <ConstantForceField indices="2 5" forces="0 1 0  -1 0 0.5"/>
    <RestShapeSpringsForceField points="2 5" stiffness="25"/>'
# scene MASS BODY_LOADS CHILD > FILE
scene() {
  cat <<XML
<Node name="root" gravity="0.3 -9.81 0.1" dt="0.02">
  <DefaultAnimationLoop/>
  <Node name="body">
    <EulerImplicitSolver/>
    <CGLinearSolver iterations="1000" tolerance="1e-14" threshold="1e-30"/>
    <TetrahedronSetTopologyContainer name="topo" tetrahedra="0 1 2 3  1 2 3 4  0 1 3 5"/>
    <MechanicalObject name="dofs" position="$NODES"/>
    <UniformMass totalMass="$1"/>
    <TetrahedronFEMForceField youngModulus="500" poissonRatio="0.3" method="large"/>
    $2
    $3
  </Node>
</Node>
XML
}
child() {  # MAPPING [MechanicalObject fields]
  cat <<XML
<Node name="child">
      <MechanicalObject ${2:-}/>
      <UniformMass totalMass="3"/>
      $LOADS
      $1
    </Node>
XML
}
scene 6 "$LOADS" "" > body.scn
scene 3 "" "$(child '<IdentityMapping/>' "position=\"$NODES\"")" > identity.scn
scene 3 "" "$(child '<SubsetMapping indices="0 1 2 3 4 5"/>' "position=\"$NODES\"")" > subset.scn
scene 3 "" "$(child '<BarycentricMapping/>' "position=\"$NODES\"")" > barycentric.scn
# The child's points from a MeshOBJLoader's file (its v lines) rather than written.
printf 'v %s %s %s\n' $NODES > child.obj
sed 's|<MechanicalObject position="[^"]*"/>|<MeshOBJLoader name="points" filename="child.obj"/><MechanicalObject src="@points"/>|' \
  barycentric.scn > loaded.scn

for ranks in 1 2; do
  mpi_command "$ranks" "$EXE"
  for name in body identity subset barycentric loaded; do
    status=0
    timeout 60 "${MPI_COMMAND[@]}" --scene $name.scn --solver.steps=20 \
      --output.final-state=$name-$ranks.csv --quiet > run.out 2> run.err || status=$?
    check "$ranks rank(s): $name.scn runs" test "$status" -eq 0
    [ "$status" -eq 0 ] || sed 's/^/     | /' run.err
  done
  for name in identity subset barycentric loaded; do
    check "$ranks rank(s): the $name child moves the body as the body carrying its loads does" \
      same_state body-$ranks.csv $name-$ranks.csv 1e-10
  done
done

scene 3 "" '<Node name="child">
      <MechanicalObject position="0 0 0  1 0 0  0 1 0  0 0 1  1 1 1  1 0.2 -0.8"/>
      <TetrahedronFEMForceField youngModulus="500"/>
      <IdentityMapping/>
    </Node>' > fem.scn
check "a FEM force field in a mapped child beside the body's own is refused, naming it" \
  refused "TetrahedronFEMForceField.*FEM force field of its own" \
    1 "$EXE" --scene fem.scn --solver.steps=1
scene 3 "" '<Node name="child">
      <MeshTopology triangles="0 1 2  1 4 2"/>
      <MechanicalObject position="0 0 0  1 0 0  0 1 0  0 0 1  1 1 1  1 0.2 -0.8"/>
      <TrianglePressureForceField pressure="0 0 10" triangleList="0 1"/>
      <BarycentricMapping/>
    </Node>' > pressure.scn
check "a TrianglePressureForceField on a mapped child's triangles is refused, naming it" \
  refused "TrianglePressureForceField.*a pressure on a mapped child's own triangles or quadrangles is not supported (in node /body/child); SurfacePressureForceField's is" \
    1 "$EXE" --scene pressure.scn --solver.steps=1
scene 3 "" '<Node name="child">
      <MechanicalObject position="0 0 0  1 0 0  0 1 0  0 0 1  1 1 1  1 0.2 -0.8"/>
      <BoxROI name="roi" box="-1 -1 -1 0.5 2 2"/>
      <ConstantForceField indices="@roi.indices" forces="0 0 1"/>
      <IdentityMapping/>
    </Node>' > box.scn
check "a force on a mapped child's points in a box is refused, naming it" \
  refused "ConstantForceField.*selected by index or all" 1 "$EXE" --scene box.scn --solver.steps=1
scene 3 "" '<Node name="child">
      <MechanicalObject/>
      <UniformMass totalMass="1"/>
      <SubsetMapping/>
    </Node>' > match.scn
check "a SubsetMapping without indices is refused, naming the field" \
  refused "SubsetMapping.*indices.*write .indices." 1 "$EXE" --scene match.scn --solver.steps=1
scene 3 "" '<Node name="child">
      <MechanicalObject/>
      <UniformMass totalMass="1"/>
      <IdentityMapping/>
    </Node>' > unsized.scn
check "an IdentityMapping child without written points is refused (SOFA's mass would see one)" \
  refused "MechanicalObject.*position.*written in the scene" \
    1 "$EXE" --scene unsized.scn --solver.steps=1
scene 3 "" '<Node name="child">
      <UniformMass totalMass="1"/>
      <MechanicalObject position="0 0 0  1 0 0  0 1 0  0 0 1  1 1 1  1 0.2 -0.8"/>
      <IdentityMapping/>
    </Node>' > before.scn
sed 's|<MeshOBJLoader name="points"|<MeshOBJLoader name="points" translation="1 0 0"|' loaded.scn \
  > moved.scn
check "a child's MeshOBJLoader that moves its points is refused, naming the field" \
  refused "MeshOBJLoader.*translation" 1 "$EXE" --scene moved.scn --solver.steps=1
check "a mass written before the child's MechanicalObject is refused, naming it" \
  refused "UniformMass.*before .*MechanicalObject" 1 "$EXE" --scene before.scn --solver.steps=1
scene 3 "" '<Node name="child">
      <MechanicalObject position="0 0 0  1 0 0"/>
      <UniformMass totalMass="1"/>
      <IdentityMapping/>
    </Node>' > short.scn
check "an IdentityMapping child with fewer points than the body is refused" \
  refused "mapped.points gives 2 points for the 6" 1 "$EXE" --scene short.scn --solver.steps=1
scene 3 "" "$(child '<IdentityMapping/>' "position=\"$NODES\"")
    $(child '<IdentityMapping/>' "position=\"$NODES\"" | sed 's/name="child"/name="other"/')" \
  > two.scn
check "a second mapped child of one body is refused, naming the first" \
  refused "second mapped child .*the first: /body/child" 1 "$EXE" --scene two.scn --solver.steps=1
# SOFA's context gives a node without a state of its own the nearest state above it: a load in a
# node below a mapped child (two levels down here, the child carrying nothing itself) acts on the
# child's state, as the same load in the child's own node does.
for mapping in BarycentricMapping IdentityMapping; do
  loaded() {  # loaded LOAD-NODES: the child, its load wrapped in LOAD-NODES' nodes
    local open="" close="" name
    for name in $1; do open+="<Node name=\"$name\">"; close+="</Node>"; done
    scene 6 "$LOADS" '<Node name="child">
      <MechanicalObject position="'"$NODES"'"/>
      <'$mapping'/>
      '"$open"'<ConstantForceField indices="0 4" forces="0 1 0  2 0 -1"/>'"$close"'
    </Node>'
  }
  loaded "" >in.scn
  loaded "load deeper" >below.scn
  for ranks in 1 2; do
    mpi_command "$ranks" "$EXE"
    for name in in below; do
      "${MPI_COMMAND[@]}" --scene $name.scn --solver.steps=20 --output.final-state=$name.csv \
        --quiet >run.out 2>&1 || sed 's/^/     | /' run.out
    done
    check "$ranks rank(s): a load in a node below the child ($mapping) acts as in its node" \
      same_state in.csv below.csv 1e-12
    rm -f in.csv below.csv
  done
done
echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
