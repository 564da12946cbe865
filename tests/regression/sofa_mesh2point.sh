#!/usr/bin/env bash
# A MechanicalObject whose points SOFA's Mesh2PointTopologicalMapping computes, under the body's
# ODE solver with nothing acting on it (SOFA's Mesh2PointTopologicalMapping.scn): its rows of the
# step are zero, so SOFA leaves it where the mapping puts it and the body moves as without it.
# The scene ends where the same scene without that node ends, on 1, 2 and 3 ranks; such a state
# with a mass, or with a velocity of its own (it would drift), stays refused.
# Usage: sofa_mesh2point.sh <euler-implicit>; the MPI launch line: tests/common/mpi_launch.sh.
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

cat > points.scn <<'XML'
<Node name="root" dt="0.01" gravity="0 -9.81 0">
  <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>
  <CGLinearSolver iterations="1000" tolerance="1e-13" threshold="1e-30"/>
  <RegularGridTopology name="grid" min="0 0 0" max="1 1 2" n="3 3 5"/>
  <MechanicalObject/>
  <UniformMass totalMass="1"/>
  <TetrahedronFEMForceField youngModulus="5000" poissonRatio="0.4" method="large"/>
  <FixedProjectiveConstraint indices="0 1 2 3 4 5 6 7 8"/>
  <Node name="points">
    <PointSetTopologyContainer name="Container2"/>
    <Mesh2PointTopologicalMapping input="@../grid" output="@Container2" pointBaryCoords="0 0 0" edgeBaryCoords="0.5 0.5 0"/>
    <MechanicalObject/>
    <SphereCollisionModel radius="0.25"/>
  </Node>
</Node>
XML
sed '/<Node name="points">/,/<\/Node>/d' points.scn >alone.scn
run 1 --scene alone.scn --solver.steps=5 --output.final-state=alone.csv
check "the body alone runs" test -s alone.csv
for ranks in 1 2 3; do
  run "$ranks" --scene points.scn --solver.steps=5 --output.final-state="points$ranks.csv"
  check "the body with the mapping's points, $ranks ranks: runs" test -s "points$ranks.csv"
  check "... and ends where the body alone ends" same_state alone.csv "points$ranks.csv" 1e-11
done
check "the points are said to stay where the mapping puts them" grep -q \
  "in /points: Mesh2PointTopologicalMapping gives it its points and nothing acts on it.*skipped" \
  run.log
sed 's|<SphereCollisionModel radius="0.25"/>|<UniformMass totalMass="1"/>|' points.scn >mass.scn
check "the points with a mass stay refused" refused \
  "Mesh2PointTopologicalMapping: gives MechanicalObject .* its points, which it computes" \
  2 "$program" --scene mass.scn --solver.steps=1
sed 's|    <MechanicalObject/>|    <MechanicalObject velocity="0 0 1"/>|' points.scn >moving.scn
check "the points with a velocity stay refused" refused \
  "Mesh2PointTopologicalMapping: gives MechanicalObject .* its points, which it computes" \
  2 "$program" --scene moving.scn --solver.steps=1
echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
