#!/usr/bin/env bash
# SOFA's CylinderGridTopology and SphereGridTopology: a cylinder under a HexahedronFEMForceField
# and a ball under a TetrahedronFEMForceField (which cuts the grid's hexahedra itself) end alike
# on 1, 2 and 3 ranks, and the cylinder where the INI scene of the same hexahedra ends, its
# points computed here from SOFA's formula (CylinderGridTopology::getPointInGrid).
# Usage: round_grids.sh <euler-implicit>; the MPI launch line: tests/common/mpi_launch.sh.
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

# A cylinder along z, 3 x 3 points a layer, 4 layers; the first layer (points 0 to 8) fixed.
cat >cylinder.scn <<'XML'
<Node name="root" dt="0.02" gravity="0 -9.81 0">
  <Node name="cylinder">
    <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>
    <CGLinearSolver iterations="1000" tolerance="1e-13" threshold="1e-30"/>
    <CylinderGridTopology nx="3" ny="3" nz="4" radius="0.5" length="3" center="1 0 0"/>
    <MechanicalObject/>
    <UniformMass totalMass="2"/>
    <FixedProjectiveConstraint indices="0 1 2 3 4 5 6 7 8"/>
    <HexahedronFEMForceField youngModulus="3000" poissonRatio="0.3" method="large"/>
  </Node>
</Node>
XML
# A ball of 4 x 4 x 4 points about the y axis; the points of the lowest layer (k = 0) fixed.
cat >ball.scn <<'XML'
<Node name="root" dt="0.02" gravity="0 0 -9.81">
  <Node name="ball">
    <EulerImplicitSolver/>
    <CGLinearSolver iterations="1000" tolerance="1e-13" threshold="1e-30"/>
    <SphereGridTopology n="4 4 4" radius="2" axis="0 1 0"/>
    <MechanicalObject/>
    <UniformMass totalMass="5"/>
    <FixedProjectiveConstraint indices="0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15"/>
    <TetrahedronFEMForceField youngModulus="2000" poissonRatio="0.3" method="polar"/>
  </Node>
</Node>
XML
for scene in cylinder ball; do
  for ranks in 1 2 3; do
    run "$ranks" --scene "$scene.scn" --solver.steps=5 --output.final-state="$scene$ranks.csv"
    check "the $scene scene runs on $ranks ranks" test -s "$scene$ranks.csv"
  done
  check "the $scene ends on 2 ranks where it ends on 1" same_state "${scene}1.csv" \
    "${scene}2.csv" 1e-11
  check "the $scene ends on 3 ranks where it ends on 1" same_state "${scene}1.csv" \
    "${scene}3.csv" 1e-11
done
check "the ball's hexahedra are cut" grep -q "cut into 6 tetrahedra each as TetrahedronFEM" run.log
check "the ball moved" awk -F, 'NR > 1 && ($7 > 1e-6 || $7 < -1e-6) { m = 1 }
  END { exit !m }' ball1.csv

# The cylinder inline: point (i, j, k), i + 3 (j + 3 k), at the center plus the square's point
# (i r - r, j r - r) (2 r / (n - 1) = r) pushed out to the circle, plus k (length / 3) along z.
awk 'BEGIN {
  r = 0.5
  for (k = 0; k < 4; ++k) for (j = 0; j < 3; ++j) for (i = 0; i < 3; ++i) {
    x = i * 2 * r / 2 - r; y = j * 2 * r / 2 - r; n = sqrt(x * x + y * y)
    if (n > 1e-7) { m = (x < 0 ? -x : x); if ((y < 0 ? -y : y) > m) m = (y < 0 ? -y : y)
                    x *= m / n; y *= m / n }
    nodes = nodes sprintf(" %.17g %.17g %.17g", 1 + x, y, k * 3 / 3)
  }
  for (z = 0; z < 3; ++z) for (y = 0; y < 2; ++y) for (x = 0; x < 2; ++x) {
    split("0 1 1 0 0 1 1 0", dx, " "); split("0 0 1 1 0 0 1 1", dy, " ")
    split("0 0 0 0 1 1 1 1", dz, " ")
    for (c = 1; c <= 8; ++c) cells = cells " " (x + dx[c]) + 3 * ((y + dy[c]) + 3 * (z + dz[c]))
  }
  printf "[mesh]\nnodes = %s\nhexahedra = %s\n", nodes, cells
}' >cylinder.ini
run 2 --config=cylinder.ini --solver.dt=0.02 --solver.steps=5 --solver.rtol=1e-13 \
  --output.progress-every=0 --mass.type=uniform --mass.total-mass=2 \
  --material.model=corotational --material.rotation=large --material.young-modulus=3000 \
  --material.poisson-ratio=0.3 --load.gravity="0 -9.81 0" --solver.rayleigh-stiffness=0.1 \
  --solver.rayleigh-mass=0.1 --constraint.fixed="indices 0 1 2 3 4 5 6 7 8" \
  --output.final-state=ini.csv
check "the inline cylinder runs" test -s ini.csv
check "the cylinder scene ends where the inline hexahedra end" same_state cylinder1.csv ini.csv \
  1e-11

echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
