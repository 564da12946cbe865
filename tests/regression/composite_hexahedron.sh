#!/usr/bin/env bash
# SOFA's HexahedronCompositeFEMForceFieldAndMass (model/composite_hexahedron.hpp) on a
# SparseGridTopology of the unit cube with two virtual finer levels: its fine cells on the surface
# at coefficient 0.5, those inside at 1. The scene ends alike on 1, 2 and 3 ranks; with every
# fine cell at 1 (fillWeighted false) the static condensation's weights are trilinear by symmetry,
# so it ends where NonUniformHexahedronFEMForceFieldAndMass does; with mixed ones it does not.
# What is not implemented is refused by name.
# Usage: composite_hexahedron.sh <euler-implicit>; the MPI launch line: tests/common/mpi_launch.sh.
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

cp "$here/../common/unit_cube.obj" cube.obj  # the unit cube, 6 quads facing out
scene() {  # scene FORCEFIELD GRID-FIELDS FIELD-FIELDS: the cube, the first 9 points (x = -0.01) held
  cat <<XML
<Node name="root" dt="0.02" gravity="0 -9.81 0">
  <Node name="block">
    <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.2"/>
    <CGLinearSolver iterations="1000" tolerance="1e-13" threshold="1e-30"/>
    <SparseGridTopology n="3 3 3" nbVirtualFinerLevels="2" fileTopology="cube.obj" $2/>
    <MechanicalObject/>
    <FixedProjectiveConstraint indices="0 1 2 3 4 5 6 7 8"/>
    <$1 nbVirtualFinerLevels="2" youngModulus="4000" poissonRatio="0.3" method="large" density="2" $3/>
  </Node>
</Node>
XML
}
scene HexahedronCompositeFEMForceFieldAndMass '' '' >composite.scn
for ranks in 1 2 3; do
  run "$ranks" --scene composite.scn --solver.steps=5 --output.final-state="scene$ranks.csv"
  check "the scene runs on $ranks ranks" test -s "scene$ranks.csv"
done
check "the stiffness is homogenised statically" grep -qx "finer-homogenisation = static" run.log
check "and the mass" test "$(grep -cx "finer-homogenisation = static" run.log)" = 2
check "2 ranks end where 1 rank does" same_state scene1.csv scene2.csv 1e-10
check "3 ranks end where 1 rank does" same_state scene1.csv scene3.csv 1e-10
scene NonUniformHexahedronFEMForceFieldAndMass '' '' >nonuniform.scn
run 2 --scene nonuniform.scn --solver.steps=5 --output.final-state=nonuniform.csv
differ() { ! same_state "$@" >/dev/null; }
check "with mixed fine cells it does not end where the trilinear condensation does" \
  differ scene2.csv nonuniform.csv 1e-4

# Fine cells all at 1: the weights are trilinear, as NonUniformHexahedronFEMForceFieldAndMass's.
scene HexahedronCompositeFEMForceFieldAndMass 'fillWeighted="false"' '' >full.scn
scene NonUniformHexahedronFEMForceFieldAndMass 'fillWeighted="false"' '' >fulltrilinear.scn
run 2 --scene full.scn --solver.steps=5 --output.final-state=full.csv
run 3 --scene fulltrilinear.scn --solver.steps=5 --output.final-state=fulltrilinear.csv
check "with full fine cells of one material it ends where the trilinear condensation does" \
  same_state full.csv fulltrilinear.csv 1e-10

scene HexahedronCompositeFEMForceFieldAndMass '' 'finestToCoarse="true"' >finest.scn
run 2 --scene finest.scn --solver.steps=1
check "finestToCoarse is refused by name" grep -q "finestToCoarse.*not supported" run.log
scene HexahedronCompositeFEMForceFieldAndMass '' 'lumpedMass="true"' >lumped.scn
run 2 --scene lumped.scn --solver.steps=1
check "its lumped mass is refused" grep -q "lumped mass is not supported" run.log
sed 's/SparseGridTopology n/SparseGridMultipleTopology fileTopologies="cube.obj" stiffnessCoefs="1" massCoefs="1" n/' \
  composite.scn >multiple.scn
run 2 --scene multiple.scn --solver.steps=1
check "finer levels of a ramified grid are refused by name" \
  grep -q "nbVirtualFinerLevels.*on a SparseGridMultipleTopology: not supported" run.log
head -n -2 composite.scn >mapped.scn
cat >>mapped.scn <<'XML'
    <Node name="surface">
      <MechanicalObject position="0.5 0.5 0.5"/>
      <HexahedronCompositeFEMMapping/>
      <ConstantForceField indices="0" forces="0 1 0"/>
    </Node>
  </Node>
</Node>
XML
run 2 --scene mapped.scn --solver.steps=1
check "HexahedronCompositeFEMMapping's mechanical children are refused by name" \
  grep -q "HexahedronCompositeFEMMapping children are not carried" run.log

echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
