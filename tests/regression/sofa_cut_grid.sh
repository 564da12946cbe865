#!/usr/bin/env bash
# SOFA's grids whose hexahedra one component reads while a tetrahedral FEM reads them cut: a
# TetrahedronFEMForceField on a RegularGridTopology (its own cut) and a
# TetrahedronHyperelasticityFEMForceField on a Hexa2TetraTopologicalMapping's tetrahedra (the
# swapping cut, its input a link to the grid or to the grid's node) beside a
# MeshSpringForceField of zero stiffness, which reads the hexahedra, end where the same scene
# without the springs ends (the mesh then the cut tetrahedra themselves); with MeshMatrixMass on
# the hexahedra the scene ends alike on 1, 2 and 3 ranks; a mass that reads the cut beside a
# reader of the hexahedra is refused by name. A flat grid keeps its quads under a mass beside a
# triangle FEM, which reads them cut (below).
# Usage: sofa_cut_grid.sh <euler-implicit>; the MPI launch line: tests/common/mpi_launch.sh.
set -uo pipefail
RANKS=3  # MPI ranks at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
here=$(dirname "$(realpath "${BASH_SOURCE[0]}")")
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$here/../common/mpi_launch.sh"
# shellcheck source=SCRIPTDIR/../common/checks.sh
source "$here/../common/checks.sh"
program=$(realpath "$1")
launch_in_scratch 1 "$program"

run() {  # run RANKS ARGS...: euler-implicit on RANKS ranks, its output in run.log
  mpi_command "$1" "$program"
  "${MPI_COMMAND[@]}" "${@:2}" >run.log 2>&1
}

cat > uniform.scn <<'XML'
<Node name="root" dt="0.01" gravity="0 -9 0">
  <Node name="self">
    <EulerImplicitSolver/>
    <CGLinearSolver iterations="1000" tolerance="1e-13" threshold="1e-30"/>
    <RegularGridTopology name="grid" min="0 0 0" max="1 1 2" n="3 3 5"/>
    <MechanicalObject/>
    <UniformMass totalMass="1"/>
    <TetrahedronFEMForceField youngModulus="5000" poissonRatio="0.4" method="large"/>
    <FixedProjectiveConstraint indices="0 1 2 3 4 5 6 7 8"/>
  </Node>
  <Node name="mapped">
    <EulerImplicitSolver/>
    <CGLinearSolver iterations="1000" tolerance="1e-13" threshold="1e-30"/>
    <RegularGridTopology name="grid" min="2 0 0" max="3 1 2" n="3 3 5"/>
    <MechanicalObject/>
    <UniformMass totalMass="1"/>
    <Node name="tetras">
      <TetrahedronSetTopologyContainer name="Container"/>
      <Hexa2TetraTopologicalMapping input="@../grid" output="@Container" swapping="true"/>
      <TetrahedronHyperelasticityFEMForceField ParameterSet="1800 9000" materialName="StVenantKirchhoff"/>
    </Node>
    <FixedProjectiveConstraint indices="0 1 2 3 4 5 6 7 8"/>
  </Node>
  <Node name="node">
    <EulerImplicitSolver/>
    <CGLinearSolver iterations="1000" tolerance="1e-13" threshold="1e-30"/>
    <RegularGridTopology name="grid" min="4 0 0" max="5 1 2" n="3 3 5"/>
    <MechanicalObject/>
    <UniformMass totalMass="1"/>
    <Node name="tetras">
      <MeshTopology name="Container"/>
      <Hexa2TetraTopologicalMapping input="@../" output="@Container" swapping="true"/>
      <TetrahedronHyperelasticityFEMForceField ParameterSet="1800 9000" materialName="NeoHookean"/>
    </Node>
    <FixedProjectiveConstraint indices="0 1 2 3 4 5 6 7 8"/>
  </Node>
</Node>
XML
sed 's|<UniformMass totalMass="1"/>|&<MeshSpringForceField stiffness="0"/>|' uniform.scn >springs.scn
run 1 --scene uniform.scn --solver.steps=10 --output.final-state=tetrahedra.csv
check "the grids cut into tetrahedra run" test -s tetrahedra.csv
run 2 --scene springs.scn --solver.steps=10 --output.final-state=cut.csv
check "the grids kept as hexahedra, the FEM on their cut, run" test -s cut.csv
check "each FEM reads the hexahedra cut as a mesh of the cut would be" grep -q \
  "its 16 hexahedra, cut into 6 tetrahedra each for TetrahedronHyperelasticityFEMForceField.*by Hexa2TetraTopologicalMapping.*whole for MeshSpringForceField" \
  run.log
check "the cut hexahedra end where the tetrahedra end" same_state tetrahedra.csv cut.csv 1e-11

sed 's|<UniformMass totalMass="1"/>|<MeshMatrixMass totalMass="1"/>|' uniform.scn >mass.scn
for ranks in 1 2 3; do
  run "$ranks" --scene mass.scn --solver.steps=10 --output.final-state="mass$ranks.csv"
  check "MeshMatrixMass on the hexahedra on $ranks ranks runs" test -s "mass$ranks.csv"
done
check "2 ranks end where 1 rank does" same_state mass1.csv mass2.csv 1e-11
check "3 ranks end where 1 rank does" same_state mass1.csv mass3.csv 1e-11

sed 's|<TetrahedronHyperelasticityFEMForceField|<MeshMatrixMass totalMass="1"/>&|' springs.scn >two.scn
run 2 --scene two.scn --solver.steps=1
check "a mass on the cut beside springs on the hexahedra is refused" grep -q \
  "MeshMatrixMass: reads the grid's cells cut into tetrahedra, and MeshSpringForceField.*its hexahedra; a body of two meshes is not supported" \
  run.log
# A container that copies the mapping's output whole (src, SofaPython3's thermoelasticity.py)
# holds its tetrahedra: a FEM on it ends where the FEM on the mapping's output ends.
cat > direct.scn <<'XML'
<Node name="root" dt="0.01" gravity="0 -9 0">
  <EulerImplicitSolver/>
  <CGLinearSolver iterations="1000" tolerance="1e-13" threshold="1e-30"/>
  <RegularGridTopology name="grid" min="0 0 0" max="1 1 2" n="3 3 5"/>
  <MechanicalObject/>
  <MeshMatrixMass totalMass="1"/>
  <FixedProjectiveConstraint indices="0 1 2 3 4 5 6 7 8"/>
  <Node name="tetras">
    <TetrahedronSetTopologyContainer name="Container"/>
    <Hexa2TetraTopologicalMapping input="@../grid" output="@Container" swapping="true"/>
    <TetrahedronFEMForceField youngModulus="5000" poissonRatio="0.4" method="large"/>
  </Node>
</Node>
XML
sed 's|^    <TetrahedronFEMForceField.*|  </Node>\n  <Node name="copy">\n    <TetrahedronSetTopologyContainer src="@../tetras/Container"/>\n&|' \
  direct.scn >copy.scn
run 2 --scene direct.scn --solver.steps=5 --output.final-state=direct.csv
check "a FEM on the mapping's output runs" test -s direct.csv
run 2 --scene copy.scn --solver.steps=5 --output.final-state=copy.csv
check "a FEM on a copy of the mapping's output runs" test -s copy.csv
check "the copy ends where the output ends" same_state direct.csv copy.csv 1e-12

# The grid and its cut in a node without a state, the body's container a copy (src) of the cut
# and its state without points of its own (SOFA's BarycentricTetraMapping.scn): the grid's points
# and cut are the body's, and it ends where the body with the grid in its own node ends.
cat > apart.scn <<'XML'
<Node name="root" dt="0.01" gravity="0 -9 0">
  <Node name="volume">
    <RegularGridTopology name="grid" min="0 0 0" max="1 1 2" n="3 3 5"/>
    <TetrahedronSetTopologyContainer name="Container" position="@grid.position"/>
    <Hexa2TetraTopologicalMapping input="@grid" output="@Container"/>
  </Node>
  <Node name="body">
    <EulerImplicitSolver/>
    <CGLinearSolver iterations="1000" tolerance="1e-13" threshold="1e-30"/>
    <TetrahedronSetTopologyContainer name="Container" src="@../volume/Container"/>
    <MechanicalObject/>
    <DiagonalMass massDensity="10"/>
    <TetrahedronFEMForceField youngModulus="5000" poissonRatio="0.4"/>
    <FixedProjectiveConstraint indices="0 1 2 3 4 5 6 7 8"/>
  </Node>
</Node>
XML
cat > together.scn <<'XML'
<Node name="root" dt="0.01" gravity="0 -9 0">
  <Node name="body">
    <EulerImplicitSolver/>
    <CGLinearSolver iterations="1000" tolerance="1e-13" threshold="1e-30"/>
    <RegularGridTopology name="grid" min="0 0 0" max="1 1 2" n="3 3 5"/>
    <MechanicalObject/>
    <TetrahedronSetTopologyContainer name="Container"/>
    <Hexa2TetraTopologicalMapping input="@grid" output="@Container"/>
    <DiagonalMass massDensity="10"/>
    <TetrahedronFEMForceField youngModulus="5000" poissonRatio="0.4"/>
    <FixedProjectiveConstraint indices="0 1 2 3 4 5 6 7 8"/>
  </Node>
</Node>
XML
run 2 --scene apart.scn --solver.steps=5 --output.final-state=apart.csv
check "a body on a copy of a grid's cut in another node runs" test -s apart.csv
run 2 --scene together.scn --solver.steps=5 --output.final-state=together.csv
check "the same body with the grid in its node runs" test -s together.csv
check "the two end alike" same_state apart.csv together.csv 1e-12

# Two grids of as many points in the body's node, the rest positions one's and the starting
# positions the other's (SOFA's TetrahedronHyperelasticityFEMForceField_invertedTets.scn): the
# mass reads the node's topology, the second grid, whose hexahedra are the first's; the scene ends
# where it ends with the two grids written the other way round.
cat > stretched.scn <<'XML'
<Node name="root" dt="0.01" gravity="0 0 0">
  <EulerImplicitSolver/>
  <CGLinearSolver iterations="1000" tolerance="1e-13" threshold="1e-30"/>
  <RegularGridTopology name="grid" min="0 0 0" max="1 1 2" n="3 3 5"/>
  <RegularGridTopology name="start" min="0 0 0" max="1 1 2.2" n="3 3 5"/>
  <MechanicalObject rest_position="@grid.position" position="@start.position"/>
  <MeshMatrixMass totalMass="1"/>
  <FixedProjectiveConstraint indices="0 1 2 3 4 5 6 7 8"/>
  <Node name="tetras">
    <TetrahedronSetTopologyContainer name="Container"/>
    <Hexa2TetraTopologicalMapping input="@../grid" output="@Container" swapping="true"/>
    <TetrahedronHyperelasticityFEMForceField ParameterSet="1800 9000" materialName="StableNeoHookean"/>
  </Node>
</Node>
XML
awk '/name="grid"/ { grid = $0; next } /name="start"/ { print; print grid; next } { print }' \
  stretched.scn >swapped.scn
run 2 --scene stretched.scn --solver.steps=5 --output.final-state=stretched.csv
check "a mass on a second grid of the same points runs" test -s stretched.csv
run 2 --scene swapped.scn --solver.steps=5 --output.final-state=swapped.csv
check "the grids written the other way round run" test -s swapped.csv
check "the two orders end alike" same_state stretched.csv swapped.csv 1e-12

# A flat grid: a mass on its quads beside a triangle FEM. The membrane on the quads cut as
# GridTopology cuts them, (q0 q1 q2) and (q0 q2 q3), ends where it ends on those triangles
# written out as the mesh (UniformMass: the same node masses); SOFA's scene of a
# MeshMatrixMass on the quads and a TriangleFEMForceField ends alike on 1, 2 and 3 ranks, and
# springs on the triangles beside the mass stay refused.
flat_nodes=$(awk 'BEGIN { for (j = 0; j < 4; j++) for (i = 0; i < 5; i++)
  printf "%s%g 0 %g", (i + j ? " " : ""), 0.5 * i, 0.4 * j }')
flat_cells() {  # flat_cells quads|triangles
  awk -v kind="$1" 'BEGIN { for (j = 0; j < 3; j++) for (i = 0; i < 4; i++) {
    a = i + 5 * j; b = a + 1; c = a + 6; d = a + 5
    if (kind == "quads") printf "%d %d %d %d ", a, b, c, d
    else printf "%d %d %d %d %d %d ", a, b, c, a, c, d } }'
}
flat=(--mesh.nodes="$flat_nodes" --material.model=none --membrane.young-modulus=4000
  --membrane.poisson-ratio=0.3 --mass.type=uniform --mass.total-mass=2 --load.gravity="0 -9.81 1"
  --constraint.fixed="indices 0 1 2 3 4" --solver.dt=0.01 --solver.steps=5 --solver.rtol=1e-13
  --output.progress-every=0)
run 1 "${flat[@]}" --mesh.quadrangles="$(flat_cells quads)" --membrane.faces=cut-quadrangles \
  --output.final-state=quads.csv
check "a membrane on cut quadrangles runs" test -s quads.csv
run 1 "${flat[@]}" --mesh.triangles="$(flat_cells triangles)" --output.final-state=triangles.csv
check "a membrane on the same triangles runs" test -s triangles.csv
check "the cut quadrangles end where the triangles end" same_state quads.csv triangles.csv 1e-11
run 1 "${flat[@]}" --mesh.triangles="$(flat_cells triangles)" --membrane.faces=cut-quadrangles
check "cut-quadrangles on a body of triangles is refused" grep -q \
  "membrane.young-modulus: triangle membranes on cut quadrangles act on a body of quadrangles" \
  run.log

cat > flat.scn <<'XML'
<Node name="root" dt="0.01" gravity="0 -9.81 1">
  <EulerImplicitSolver/>
  <CGLinearSolver iterations="1000" tolerance="1e-13" threshold="1e-30"/>
  <MechanicalObject/>
  <MeshMatrixMass totalMass="5"/>
  <RegularGridTopology name="grid" nx="5" ny="4" nz="1" min="0 0 0" max="2 1.2 0"/>
  <FixedProjectiveConstraint indices="0 1 2 3 4"/>
  <TriangleFEMForceField youngModulus="4000" poissonRatio="0.3" method="large"/>
</Node>
XML
for ranks in 1 2 3; do
  run "$ranks" --scene flat.scn --solver.steps=5 --output.final-state="flat$ranks.csv"
  check "MeshMatrixMass on the quads, the FEM on their triangles, $ranks ranks: runs" \
    test -s "flat$ranks.csv"
done
check "the flat grid keeps its quads" grep -q "a grid of 5 x 4 x 1 points and 12 quads" run.log
check "the flat grid: 2 ranks end where 1 rank does" same_state flat1.csv flat2.csv 1e-11
check "the flat grid: 3 ranks end where 1 rank does" same_state flat1.csv flat3.csv 1e-11
sed 's|<TriangleFEMForceField .*/>|&<TriangularBendingSprings stiffness="10"/>|' flat.scn >bending.scn
run 2 --scene bending.scn --solver.steps=1
check "springs on the triangles beside the mass on the quads are refused" grep -q \
  "MeshMatrixMass: integrates the quads of .*TriangularBendingSprings.* reads its triangles" run.log
echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
