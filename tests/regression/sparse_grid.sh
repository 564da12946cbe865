#!/usr/bin/env bash
# SOFA's SparseGridTopology from a surface under a HexahedronFEMForceField: a scene whose
# grid voxelises a cube ends, on 1 and 2 ranks, where the INI scene of the same hexahedra ends,
# written inline in SOFA's numbering (points by position: z fastest, then y, then x; the cells
# the surface crosses first, at half stiffness, then the inside one); a TetrahedronFEMForceField
# cuts them itself; a MeshSpringForceField's springs are its cubes', as those of the inline
# hexahedra; an open cube keeps the cells SOFA's fill does not reach through its hole; what the
# importer cannot match is refused with one line naming it.
# Usage: sparse_grid.sh <euler-implicit>; the MPI launch line: tests/common/mpi_launch.sh.
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


# The unit cube, its faces as quads.
cp "$here/../common/unit_cube.obj" cube.obj  # the unit cube, 6 quads facing out
# n = 4: 3 x 3 x 3 cells over the cube's box widened by 1%; the surface crosses all but the
# middle one. The 16 points at x = -0.01 are the first 16.
cat >sparse.scn <<'XML'
<Node name="root" dt="0.02" gravity="0 -9.81 0">
  <Node name="block">
    <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.2"/>
    <CGLinearSolver iterations="1000" tolerance="1e-13" threshold="1e-30"/>
    <SparseGridTopology n="4 4 4" fileTopology="cube.obj"/>
    <MechanicalObject/>
    <UniformMass totalMass="3"/>
    <FixedProjectiveConstraint indices="0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15"/>
    <HexahedronFEMForceField youngModulus="4000" poissonRatio="0.3" method="large"/>
  </Node>
</Node>
XML
for ranks in 1 2; do
  run "$ranks" --scene sparse.scn --solver.steps=5 --output.final-state="scene$ranks.csv"
  check "the sparse grid scene runs on $ranks ranks" test -s "scene$ranks.csv"
done
check "the sparse grid scene reports its cells" grep -q "27 hexahedra kept (26 on the surface" \
  run.log

# The same mesh inline: point (i, j, k) at lo + step (i, j, k) is 16 i + 4 j + k; the cells in the
# grid's order (x fastest), the middle one (1, 1, 1) last.
awk 'BEGIN {
  lo = 0 - 1 / 100; hi = 1 + 1 / 100; step = (hi - lo) / 3
  for (i = 0; i < 4; ++i) for (j = 0; j < 4; ++j) for (k = 0; k < 4; ++k)
    nodes = nodes sprintf(" %.17g %.17g %.17g", lo + step * i, lo + step * j, lo + step * k)
  for (pass = 0; pass < 2; ++pass)
    for (z = 0; z < 3; ++z) for (y = 0; y < 3; ++y) for (x = 0; x < 3; ++x) {
      middle = x == 1 && y == 1 && z == 1
      if (middle != pass) continue
      split("0 1 1 0 0 1 1 0", dx, " "); split("0 0 1 1 0 0 1 1", dy, " ")
      split("0 0 0 0 1 1 1 1", dz, " ")
      for (c = 1; c <= 8; ++c) cells = cells " " 16 * (x + dx[c]) + 4 * (y + dy[c]) + z + dz[c]
      factors = factors (middle ? " 1" : " 0.5")
    }
  printf "[mesh]\nnodes = %s\nhexahedra = %s\n[material]\ncell-stiffness-factor = %s\n",
    nodes, cells, factors
}' >inline.ini
run 2 --config=inline.ini --solver.dt=0.02 --solver.steps=5 --solver.rtol=1e-13 \
  --output.progress-every=0 --mass.type=uniform --mass.total-mass=3 --material.model=corotational \
  --material.rotation=large --material.young-modulus=4000 --material.poisson-ratio=0.3 \
  --load.gravity="0 -9.81 0" --solver.rayleigh-stiffness=0.1 --solver.rayleigh-mass=0.2 \
  --constraint.fixed="indices 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15" --output.final-state=ini.csv
check "the inline scene runs" test -s ini.csv
check "the sparse grid scene ends where the inline hexahedra end (1 rank)" same_state scene1.csv \
  ini.csv 1e-11
check "2 ranks end where 1 rank does" same_state scene1.csv scene2.csv 1e-11

# TetrahedronFEMForceField cuts the sparse grid's hexahedra itself.
sed 's|HexahedronFEMForceField youngModulus|TetrahedronFEMForceField youngModulus|' sparse.scn \
  >tetrahedra.scn
run 2 --scene tetrahedra.scn --solver.steps=2 --output.final-state=tetrahedra.csv
check "a TetrahedronFEMForceField on the sparse grid runs" test -s tetrahedra.csv
check "its hexahedra are cut" grep -q "cut into 6 tetrahedra each as TetrahedronFEMForceField" \
  run.log
# Without its face x = 0 the cube is open: cell (0, 1, 1) behind the hole is crossed by no face,
# so SOFA's fill from the grid's border runs in through it and the middle cell: 25 cells left.
head -n 13 cube.obj >open.obj  # the last face left out
sed 's|cube.obj|open.obj|' sparse.scn >open.scn
run 2 --scene open.scn --solver.steps=2 --output.final-state=open.csv
check "an open surface is voxelised as SOFA does" test -s open.csv
check "the fill runs in through its hole" grep -q "25 hexahedra kept (25 on the surface" run.log
sed 's|n="4 4 4"|n="4 1 4"|' sparse.scn >flat.scn
check "n below 2 is refused" \
  refused "at least 2 points along each axis" 2 "$program" --scene flat.scn --solver.steps=1
sed 's|cube.obj|missing.obj|' sparse.scn >missing.scn
check "a missing surface is refused" \
  refused "fileTopology = 'missing.obj': no such file" 2 "$program" --scene missing.scn --solver.steps=1

sed 's|<HexahedronFEMForceField[^>]*>|<MeshSpringForceField stiffness="100"/>|' sparse.scn \
  >springs.scn
# MeshSpringForceField's springs on a sparse grid are its cubes': the grid's hexahedra, not cut.
run 1 --scene springs.scn --solver.steps=2 --output.final-state=springs1.csv
run 2 --scene springs.scn --solver.steps=2 --output.final-state=springs2.csv
check "a MeshSpringForceField on the sparse grid runs" test -s springs2.csv
check "on its hexahedra" grep -q "hexahedra kept" run.log
check "not cut into tetrahedra" bash -c '! grep -q "cut into" run.log'
check "the springs end on 2 ranks where they end on 1" same_state springs1.csv springs2.csv 1e-11
grep -v -e '^\[material\]' -e '^cell-stiffness-factor' inline.ini >springs.ini
run 1 --config=springs.ini --solver.dt=0.02 --solver.steps=2 --solver.rtol=1e-13 \
  --output.progress-every=0 --mass.type=uniform --mass.total-mass=3 --material.model=none \
  --springs.stiffness=100 --load.gravity="0 -9.81 0" --solver.rayleigh-stiffness=0.1 \
  --solver.rayleigh-mass=0.2 --constraint.fixed="indices 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15" \
  --output.final-state=springs-ini.csv
check "they end where springs on the inline hexahedra end" same_state springs1.csv \
  springs-ini.csv 1e-11

echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
