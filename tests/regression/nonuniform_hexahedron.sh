#!/usr/bin/env bash
# SOFA's NonUniformHexahedronFEMForceFieldAndMass on a SparseGridTopology of the unit cube with
# one virtual finer level: each of its 8 cells holds 7 fine cells of the surface (coefficient
# 0.5) and 1 inside (1), the child at the cube's centre, w = (1 - x) + 2 (1 - y) + 4 (1 - z) for
# the cell (x, y, z) (cells numbered with x slowest and z fastest). The keys list those
# coefficients as computed here by hand; the scene ends alike on 1, 2 and 3 ranks; with
# nbVirtualFinerLevels 0 it is HexahedronFEMForceFieldAndMass to the last bit.
# Usage: nonuniform_hexahedron.sh <euler-implicit>; the MPI launch line: tests/common/mpi_launch.sh.
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
scene() {  # scene FORCEFIELD LEVELS: the cube under FORCEFIELD, the first 9 points (x = -0.01) held
  cat <<XML
<Node name="root" dt="0.02" gravity="0 -9.81 0">
  <Node name="block">
    <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.2"/>
    <CGLinearSolver iterations="1000" tolerance="1e-13" threshold="1e-30"/>
    <SparseGridTopology n="3 3 3" nbVirtualFinerLevels="1" fileTopology="cube.obj"/>
    <MechanicalObject/>
    <FixedProjectiveConstraint indices="0 1 2 3 4 5 6 7 8"/>
    <$1 $2 youngModulus="4000" poissonRatio="0.3" method="large" density="2"/>
  </Node>
</Node>
XML
}
scene NonUniformHexahedronFEMForceFieldAndMass 'nbVirtualFinerLevels="1"' >nonuniform.scn
for ranks in 1 2 3; do
  run "$ranks" --scene nonuniform.scn --solver.steps=5 --output.final-state="scene$ranks.csv"
  check "the scene runs on $ranks ranks" test -s "scene$ranks.csv"
done
expected=$(awk 'BEGIN {
  for (x = 0; x < 2; ++x) for (y = 0; y < 2; ++y) for (z = 0; z < 2; ++z)
    for (w = 0; w < 8; ++w) s = s (s == "" ? "" : " ") (w == (1 - x) + 2 * (1 - y) + 4 * (1 - z) ? 1 : 0.5)
  print s }')
check "the stiffness is condensed from the finer cells, as by hand" \
  grep -qx "cell-finer-stiffness-factor = $expected" run.log
check "the mass too" grep -qx "cell-finer-factor = $expected" run.log
check "gravity acts on the cells' own mass, (7 * 0.5 + 1) / 8 of it" \
  grep -qx "cell-factor = 0.5625 0.5625 0.5625 0.5625 0.5625 0.5625 0.5625 0.5625" run.log
check "2 ranks end where 1 rank does" same_state scene1.csv scene2.csv 1e-11
check "3 ranks end where 1 rank does" same_state scene1.csv scene3.csv 1e-11

# Without finer levels the element matrices are HexahedronFEMForceFieldAndMass's.
scene NonUniformHexahedronFEMForceFieldAndMass 'nbVirtualFinerLevels="0"' >none.scn
scene HexahedronFEMForceFieldAndMass '' >classical.scn
run 2 --scene none.scn --solver.steps=5 --output.final-state=none.csv
run 2 --scene classical.scn --solver.steps=5 --output.final-state=classical.csv
check "with 0 finer levels it ends where HexahedronFEMForceFieldAndMass does, to the bit" \
  same_state none.csv classical.csv 0
differ() { ! same_state "$@" >/dev/null; }
check "and not where the condensed one does" differ scene2.csv classical.csv 1e-5

# SOFA sets no method for small (its init reads an unset one); more levels than the grid's reads
# past them.
scene NonUniformHexahedronFEMForceFieldAndMass 'nbVirtualFinerLevels="2"' >deeper.scn
run 2 --scene deeper.scn --solver.steps=1
check "more finer levels than the grid's are refused by name" \
  grep -q "nbVirtualFinerLevels.*more than the 1 of" run.log
sed 's/method="large"/method="small"/' nonuniform.scn >small.scn
run 2 --scene small.scn --solver.steps=1
check "method small is refused by name" grep -q "method.*expected large or polar" run.log

sed 's/<SparseGridTopology n="3 3 3" nbVirtualFinerLevels="1" fileTopology="cube.obj"\/>/<RegularGridTopology n="3 3 3" min="0 0 0" max="1 1 1"\/>/' \
  nonuniform.scn >regular.scn
run 2 --scene regular.scn --solver.steps=1
check "finer levels on a regular grid are refused by name" \
  grep -q "nbVirtualFinerLevels.*finer levels need a SparseGridTopology" run.log

echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
