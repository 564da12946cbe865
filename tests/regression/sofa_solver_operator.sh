#!/usr/bin/env bash
# One ODE solver over bodies of different kinds: SOFA's CGLinearSolver (a GraphScatteredMatrix)
# is matrix-free for every state its solver integrates, so where TriangularBendingSprings (springs
# in no cell) make one body's operator matrix-free, the other bodies under the same solver take
# it too, and the scene runs (their solver keys agree) on 1 and 2 ranks; no spring couples them,
# so each ends where it ends in a scene of its own.
# Usage: sofa_solver_operator.sh <euler-implicit>; the MPI launch line: tests/common/mpi_launch.sh.
set -uo pipefail
RANKS=2  # MPI ranks at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
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

cube='<Node name="cube">
    <RegularGridTopology name="grid" n="4 3 3" min="0 0 0" max="3 1 1"/>
    <MechanicalObject/>
    <UniformMass vertexMass="0.5"/>
    <HexahedronFEMForceField method="large" youngModulus="800" poissonRatio="0.3"/>
    <FixedProjectiveConstraint indices="0 4 8 12 16 20 24 28 32"/>
  </Node>'
square='<Node name="square">
    <RegularGridTopology name="grid" n="4 1 4" min="4 0 0" max="7 0 3"/>
    <MechanicalObject/>
    <UniformMass vertexMass="0.2"/>
    <TriangularFEMForceField youngModulus="600" poissonRatio="0.3" method="large"/>
    <TriangularBendingSprings stiffness="30" damping="1"/>
    <FixedProjectiveConstraint indices="0 1 2 3"/>
  </Node>'
scene() {  # scene BODIES...: the bodies under one solver at the root
  echo '<Node name="root" gravity="0 -9.81 0" dt="0.01">'
  echo '  <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>'
  echo '  <CGLinearSolver iterations="1000" tolerance="1e-14" threshold="1e-30"/>'
  printf '  %s\n' "$@"
  echo '</Node>'
}
scene "$cube" "$square" >both.scn
scene "$cube" >cube.scn
scene "$square" >square.scn
for ranks in 1 2; do
  run "$ranks" --scene both.scn --solver.steps=10 --output.final-state="both$ranks.csv"
  check "two bodies of different kinds under one solver run on $ranks ranks" test -s "both$ranks.csv"
done
check "the cube takes the square's matrix-free operator" grep -q \
  "MechanicalObject.*the step's matrix is matrix-free, as MechanicalObject" run.log
check "2 ranks end where 1 rank does" same_state both1.csv both2.csv 1e-10
run 2 --scene cube.scn --solver.steps=10 --solver.operator=matrix-free --output.final-state=cube.csv
check "the cube alone runs" test -s cube.csv
run 2 --scene square.scn --solver.steps=10 --output.final-state=square.csv
check "the square alone runs" test -s square.csv
body() { awk -F, -v o="$2" 'NR == 1 || $8 == o' "$1"; }
body both2.csv /cube >both_cube.csv
body both2.csv /square >both_square.csv
check "the cube ends where it ends alone" same_state both_cube.csv cube.csv 1e-12
check "the square ends where it ends alone" same_state both_square.csv square.csv 1e-12
echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
