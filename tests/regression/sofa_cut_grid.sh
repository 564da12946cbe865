#!/usr/bin/env bash
# SOFA's grids whose hexahedra one component reads while a tetrahedral FEM reads them cut: a
# TetrahedronFEMForceField on a RegularGridTopology (its own cut) and a
# TetrahedronHyperelasticityFEMForceField on a Hexa2TetraTopologicalMapping's tetrahedra (the
# swapping cut, its input a link to the grid or to the grid's node) beside a
# MeshSpringForceField of zero stiffness, which reads the hexahedra, end where the same scene
# without the springs ends (the mesh then the cut tetrahedra themselves); with MeshMatrixMass on
# the hexahedra the scene ends alike on 1, 2 and 3 ranks; a mass that reads the cut beside a
# reader of the hexahedra is refused by name.
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
echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
