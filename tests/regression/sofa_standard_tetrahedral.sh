#!/usr/bin/env bash
# SOFA's StandardTetrahedralFEMForceField, run unchanged (--scene FILE.scn): for ArrudaBoyce (its
# default), StVenantKirchhoff and NeoHookean it computes TetrahedronHyperelasticityFEMForceField's
# force and tangent (io/sofa_elastic_fem.cpp), so a bar of 3 x 1 x 1 cubes of 6 tetrahedra each,
# held at one end and sagging under gravity, ends in the same state with either field, on 2
# ranks, and so for MooneyRivlin; so does a grid cut into tetrahedra as SOFA's example scene cuts
# it. StableNeoHookean, which it lacks, and Ogden, not implemented, are refused.
# The hyperelastic laws themselves are checked in tests/unit/test_hyperelastic_fem.cpp.
# Usage: sofa_standard_tetrahedral.sh <euler-implicit> <meshes dir>; the MPI launch line:
# tests/common/mpi_launch.sh.
set -euo pipefail
RANKS=2  # MPI ranks per run at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
# shellcheck source=SCRIPTDIR/../common/regression_test.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/regression_test.sh"

run() {  # run ARGS...: on 2 ranks
  mpi_command 2 "$EXE"
  timeout 60 "${MPI_COMMAND[@]}" "$@" --quiet > run.out 2> run.err
}

# Vertex (i, j, k) of the 4 x 2 x 2 grid is i + 4 j + 8 k; each cube cut into the six
# tetrahedra around its diagonal from corner 0 to corner 7.
points="" tetras=""
for k in 0 1; do for j in 0 1; do for i in 0 1 2 3; do points+="$i $j $k  "; done; done; done
for i in 0 1 2; do
  c=()
  for corner in 0 1 2 3 4 5 6 7; do
    c+=($((i + corner % 2 + 4 * (corner / 2 % 2) + 8 * (corner / 4))))
  done
  for t in "1 3" "1 5" "2 3" "2 6" "4 5" "4 6"; do
    read -r a b <<< "$t"
    tetras+="${c[0]} ${c[a]} ${c[b]} ${c[7]}  "
  done
done
scene() {  # scene FILE FORCE-FIELD
  cat > "$1" <<SCN
<Node name="root" dt="0.01" gravity="0 -9.81 0">
  <EulerImplicitSolver/>
  <CGLinearSolver iterations="500" tolerance="1e-20" threshold="1e-20"/>
  <MechanicalObject position="$points"/>
  <MeshTopology tetrahedra="$tetras"/>
  <UniformMass totalMass="2"/>
  $2
  <FixedProjectiveConstraint indices="0 4 8 12"/>
</Node>
SCN
}

# moved FINAL: some point's y is 0.01 or more off its rest value (0 or 1).
moved() { awk -F, 'NR > 1 && ($3 < -0.01 || $3 > 0.01 + int($3)) { n++ } END { exit !n }' "$1"; }
for material in ArrudaBoyce StVenantKirchhoff NeoHookean MooneyRivlin; do
  name="materialName=\"$material\""
  [ "$material" = ArrudaBoyce ] && name=""  # both fields' default
  parameters="300 2000"
  [ "$material" = MooneyRivlin ] && parameters="100 50 2000"  # C10 C01 K0
  for field in TetrahedronHyperelasticityFEMForceField StandardTetrahedralFEMForceField; do
    scene "$field.scn" "<$field $name ParameterSet=\"$parameters\"/>"
    status=0
    run --scene "$field.scn" --solver.steps=5 --output.final-state="$field.csv" || status=$?
    check "$field $material runs" test "$status" -eq 0
    [ "$status" -eq 0 ] || sed 's/^/     | /' run.err
  done
  check "StandardTetrahedralFEMForceField $material ends where TetrahedronHyperelasticity does" \
    same_state StandardTetrahedralFEMForceField.csv TetrahedronHyperelasticityFEMForceField.csv \
    1e-12
  check "and the bar has sagged" moved StandardTetrahedralFEMForceField.csv
done

# SOFA's example layout: the grid in the body's node, its hexahedra cut into tetrahedra in a
# child by a Hexa2TetraTopologicalMapping whose input links the parent node ("@../"), which SOFA
# resolves to that node's topology: the same state as with the grid linked by name.
grid() {  # grid FILE INPUT
  cat > "$1" <<SCN
<Node name="root" dt="0.01" gravity="0 -9.81 0">
  <EulerImplicitSolver/>
  <CGLinearSolver iterations="500" tolerance="1e-20" threshold="1e-20"/>
  <RegularGridTopology name="hexaGrid" min="0 0 0" max="1 1 2" n="2 2 4"/>
  <MechanicalObject/>
  <UniformMass totalMass="1"/>
  <Node name="tetras">
    <TetrahedronSetTopologyContainer name="Container"/>
    <Hexa2TetraTopologicalMapping input="$2" output="@Container" swapping="true"/>
    <StandardTetrahedralFEMForceField ParameterSet="300 2000" materialName="NeoHookean"/>
  </Node>
  <FixedProjectiveConstraint indices="0 1 2 3"/>
</Node>
SCN
}
grid by_node.scn "@../"
grid by_name.scn "@../hexaGrid"
for way in by_node by_name; do
  status=0
  run --scene "$way.scn" --solver.steps=3 --output.final-state="$way.csv" || status=$?
  check "the grid cut into tetrahedra, its input linked $way, runs" test "$status" -eq 0
  [ "$status" -eq 0 ] || sed 's/^/     | /' run.err
done
check "the input linked by node is the grid" same_state by_node.csv by_name.csv 0
check "and the grid has sagged" moved by_name.csv

for material in StableNeoHookean Ogden; do
  scene refused.scn "<StandardTetrahedralFEMForceField materialName=\"$material\" \
ParameterSet=\"300 2000\"/>"
  status=0
  run --scene refused.scn --solver.steps=1 || status=$?
  check "StandardTetrahedralFEMForceField $material is refused" test "$status" -ne 0
  check "naming the material" grep -q "materialName = '$material': $material is not implemented" \
    run.err
done

echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
