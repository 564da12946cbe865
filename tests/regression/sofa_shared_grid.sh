#!/usr/bin/env bash
# A body whose points and hexahedra come from a SparseGridTopology in another node, through that
# node's MechanicalObject (position="@../data/DOFs.position") and its own MeshTopology or
# HexahedronSetTopologyContainer (hexahedra="@../data/grid.hexahedra"), as SOFA's
# BarycentricMapping benchmarks build it (io/sofa_import.cpp, io/sofa_grid_mesh.cpp): neither
# topology is a GridTopology, so TetrahedronFEMForceField cuts the hexahedra as it cuts the
# sparse grid itself. Each runs as the body with the grid in its own node does (the same final
# state, to rounding), on 1, 2 and 3 ranks; so does a RegularGridTopology's state in a parent
# node, its hexahedra cut by a Hexa2TetraTopologicalMapping into the body's container.
# Usage: sofa_shared_grid.sh <euler-implicit> <meshes dir>.
set -uo pipefail
RANKS=3  # MPI ranks per run at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
here=$(dirname "$(realpath "${BASH_SOURCE[0]}")")
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$here/../common/mpi_launch.sh"
# shellcheck source=SCRIPTDIR/../common/checks.sh
source "$here/../common/checks.sh"
EXE=$(realpath "$1")
launch_in_scratch "$RANKS" "$EXE"

# A 2 x 1 x 1 box, its faces as triangles.
cat > box.obj <<'OBJ'
v 0 0 0
v 2 0 0
v 2 1 0
v 0 1 0
v 0 0 1
v 2 0 1
v 2 1 1
v 0 1 1
f 1 4 3
f 1 3 2
f 5 6 7
f 5 7 8
f 1 2 6
f 1 6 5
f 2 3 7
f 2 7 6
f 3 4 8
f 3 8 7
f 4 1 5
f 4 5 8
OBJ
# body TOPOLOGY-AND-POSITION > FILE
body() {
  cat <<XML
<Node name="root" gravity="0 -9.81 1" dt="0.02">
  <DefaultAnimationLoop/>
  <Node name="data">
    <SparseGridTopology n="7 4 4" name="grid" fileTopology="box.obj"/>
    <MechanicalObject name="DOFs"/>
  </Node>
  <Node name="body">
    <EulerImplicitSolver rayleighMass="0.05" rayleighStiffness="0.02"/>
    <CGLinearSolver iterations="1000" tolerance="1e-24" threshold="1e-30"/>
    $1
    <UniformMass totalMass="0.5"/>
    <TetrahedronFEMForceField youngModulus="2e4" poissonRatio="0.3"/>
    <BoxROI name="held" box="-0.1 -0.1 -0.1 0.01 1.1 1.1"/>
    <FixedProjectiveConstraint indices="@held.indices"/>
  </Node>
</Node>
XML
}
body '<SparseGridTopology n="7 4 4" fileTopology="box.obj"/><MechanicalObject/>' > own.scn
body '<MeshTopology hexahedra="@../data/grid.hexahedra"/>
    <MechanicalObject position="@../data/DOFs.position"/>' > mesh.scn
body '<HexahedronSetTopologyContainer hexahedra="@../data/grid.hexahedra"/>
    <MechanicalObject position="@../data/DOFs.position"/>' > container.scn

# A RegularGridTopology in a parent node with a state of it, cut by a Hexa2TetraTopologicalMapping
# from a HexahedronSetTopologyContainer that takes the grid with src into the body's container
# (BilateralLagrangianConstraint_Soft_Rigid_Bodies.scn's deformable cube), against the same cut
# of a grid in the body's own node.
regular() {
  cat <<XML
<Node name="root" gravity="0 -9.81 1" dt="0.02">
  <DefaultAnimationLoop/>
  $1
</Node>
XML
}
solve='<EulerImplicitSolver rayleighMass="0.05" rayleighStiffness="0.02"/>
    <CGLinearSolver iterations="1000" tolerance="1e-24" threshold="1e-30"/>'
rest='<UniformMass totalMass="0.5"/>
    <TetrahedronFEMForceField youngModulus="2e4" poissonRatio="0.3"/>
    <BoxROI name="held" box="-0.1 -0.1 -0.1 0.01 1.1 1.1"/>
    <FixedProjectiveConstraint indices="@held.indices"/>'
regular "<Node name=\"grid\">
  <RegularGridTopology name=\"grid\" n=\"7 4 4\" min=\"0 0 0\" max=\"2 1 1\"/>
  <HexahedronSetTopologyContainer name=\"hexahedra\" src=\"@grid\"/>
  <MechanicalObject name=\"gridDofs\"/>
  <Node name=\"body\">
    $solve
    <TetrahedronSetTopologyContainer name=\"tetrahedra\"/>
    <MechanicalObject position=\"@../gridDofs.position\"/>
    <Hexa2TetraTopologicalMapping input=\"@../hexahedra\" output=\"@tetrahedra\"/>
    $rest
  </Node>
</Node>" > parent.scn
regular "<Node name=\"body\">
  $solve
  <RegularGridTopology name=\"grid\" n=\"7 4 4\" min=\"0 0 0\" max=\"2 1 1\"/>
  <MechanicalObject/>
  <TetrahedronSetTopologyContainer name=\"tetrahedra\"/>
  <Hexa2TetraTopologicalMapping input=\"@grid\" output=\"@tetrahedra\"/>
  $rest
</Node>" > cut.scn

# run NAME RANKS SCENE: 10 steps, the final state in NAME.csv.
run() {
  mpi_command "$2" "$EXE"
  local status=0
  timeout 120 "${MPI_COMMAND[@]}" --scene "$3" --solver.steps=10 --output.final-state="$1.csv" \
    --quiet > "$1.out" 2> "$1.err" || status=$?
  [ "$status" -eq 0 ] || sed 's/^/     | /' "$1.err"
  return "$status"
}
# moved FILE: 7 x 4 x 4 rows, 16 at rest (x < 0.01), the others moved.
moved() {
  awk -F, 'FNR > 1 { n++; h += ($5 == 0 && $6 == 0 && $7 == 0) }
    END { if (n != 112 || h != 16) { print "  " n " rows, " h " at rest"; exit 1 } }' "$1"
}
for ranks in 1 2 3; do
  for name in own mesh container parent cut; do
    check "$name runs on $ranks rank(s)" run "$name$ranks" "$ranks" "$name.scn"
  done
  check "own$ranks: 112 points, 16 held" moved "own$ranks.csv"
  check "MeshTopology = the grid's own body on $ranks rank(s) (1e-12)" \
    same_state "own$ranks.csv" "mesh$ranks.csv" 1e-12
  check "HexahedronSetTopologyContainer = the grid's own body on $ranks rank(s) (1e-12)" \
    same_state "own$ranks.csv" "container$ranks.csv" 1e-12
  check "cut$ranks: 112 points, 16 held" moved "cut$ranks.csv"
  check "regular grid in the parent node = in the body's on $ranks rank(s) (1e-12)" \
    same_state "cut$ranks.csv" "parent$ranks.csv" 1e-12
done
check "2 ranks = 1 rank (1e-12)" same_state mesh1.csv mesh2.csv 1e-12
check "3 ranks = 1 rank (1e-12)" same_state mesh1.csv mesh3.csv 1e-12
check "regular, 3 ranks = 1 rank (1e-12)" same_state parent1.csv parent3.csv 1e-12

echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
