#!/usr/bin/env bash
# SOFA's SparseGridTopology with nbVirtualFinerLevels under a HexahedronFEMForceField: the cube
# voxelised on a grid twice as fine, then coarsened as SOFA's buildFromFiner does. Its 8 cells
# each hold 7 fine cells of the surface (stiffness 0.5) and 1 inside (1): stiffness
# (7 * 0.5 + 1) / 8 = 0.5625, numbered with x slowest and z fastest. The scene ends, on 1, 2 and 3
# ranks, where the INI scene of those hexahedra and factors written inline ends.
# Usage: sparse_grid_levels.sh <euler-implicit>; the MPI launch line: tests/common/mpi_launch.sh.
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
# The 9 points at x = -0.01 are the first 9.
cat >levels.scn <<'XML'
<Node name="root" dt="0.02" gravity="0 -9.81 0">
  <Node name="block">
    <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.2"/>
    <CGLinearSolver iterations="1000" tolerance="1e-13" threshold="1e-30"/>
    <SparseGridTopology n="3 3 3" nbVirtualFinerLevels="1" fileTopology="cube.obj"/>
    <MechanicalObject/>
    <UniformMass totalMass="3"/>
    <FixedProjectiveConstraint indices="0 1 2 3 4 5 6 7 8"/>
    <HexahedronFEMForceField youngModulus="4000" poissonRatio="0.3" method="large"/>
  </Node>
</Node>
XML
for ranks in 1 2 3; do
  run "$ranks" --scene levels.scn --solver.steps=5 --output.final-state="scene$ranks.csv"
  check "the scene runs on $ranks ranks" test -s "scene$ranks.csv"
done
check "it reports stiffness from the finer levels" \
  grep -q "27 points and 8 hexahedra kept (8 on the surface; stiffness from the finer" run.log

# The same mesh inline. The fine grid spans the cube's box widened by 1% in 4 steps; the coarse
# one min + (3 - 1) * 2 fine steps in 2: point (i, j, k) is 9 i + 3 j + k, the cells in the order
# of (x, y, z) with z fastest.
awk 'BEGIN {
  lo = 0 - 1 / 100; hi = 1 + 1 / 100; top = lo + (3 - 1) * 2.0 * ((hi - lo) / 4)
  step = (top - lo) / 2
  for (i = 0; i < 3; ++i) for (j = 0; j < 3; ++j) for (k = 0; k < 3; ++k)
    nodes = nodes sprintf(" %.17g %.17g %.17g", lo + step * i, lo + step * j, lo + step * k)
  split("0 1 1 0 0 1 1 0", dx, " "); split("0 0 1 1 0 0 1 1", dy, " ")
  split("0 0 0 0 1 1 1 1", dz, " ")
  for (x = 0; x < 2; ++x) for (y = 0; y < 2; ++y) for (z = 0; z < 2; ++z) {
    for (c = 1; c <= 8; ++c) cells = cells " " 9 * (x + dx[c]) + 3 * (y + dy[c]) + z + dz[c]
    factors = factors " 0.5625"
  }
  printf "[mesh]\nnodes = %s\nhexahedra = %s\n[material]\ncell-stiffness-factor = %s\n",
    nodes, cells, factors
}' >inline.ini
run 1 --config=inline.ini --solver.dt=0.02 --solver.steps=5 --solver.rtol=1e-13 \
  --output.progress-every=0 --mass.type=uniform --mass.total-mass=3 --material.model=corotational \
  --material.rotation=large --material.young-modulus=4000 --material.poisson-ratio=0.3 \
  --load.gravity="0 -9.81 0" --solver.rayleigh-stiffness=0.1 --solver.rayleigh-mass=0.2 \
  --constraint.fixed="indices 0 1 2 3 4 5 6 7 8" --output.final-state=ini.csv
check "the inline scene runs" test -s ini.csv
check "the scene ends where the inline hexahedra end (1 rank)" same_state scene1.csv ini.csv 1e-11
check "2 ranks end where 1 rank does" same_state scene1.csv scene2.csv 1e-11
check "3 ranks end where 1 rank does" same_state scene1.csv scene3.csv 1e-11

echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
