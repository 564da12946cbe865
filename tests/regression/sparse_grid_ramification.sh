#!/usr/bin/env bash
# SOFA's SparseGridRamificationTopology under a HexahedronFEMForceField: two bars in a grid of
# 2 x 1 x 1 coarse cells with one finer level, the first coarse cell holding a piece of each bar
# (not joined: two hexahedra with points of their own), the second the rest of the first bar
# (joined to its first piece across x = 2). The scene ends, on 1, 2 and 3 ranks, where the INI
# scene of those 3 hexahedra ends, written inline in SOFA's numbering with SOFA's coefficients;
# under HexahedronFEMForceFieldAndMass each cell's mass is weighed by the grid's coefficient;
# a SparseGridMultipleTopology of a closed and an open surface ends, on 1, 2 and 3 ranks, where
# its cells inline end, with the factors SOFA's fill and assembly give them; what SOFA cannot
# build or the importer cannot match is refused with one line naming it.
# Usage: sparse_grid_ramification.sh <euler-implicit>; the MPI launch: tests/common/mpi_launch.sh.
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

# Bar A [0.2, 3.8] x [0.2, 0.8] x [0.2, 0.8] and bar B [0.2, 1.8] x [1.2, 1.8] x [1.2, 1.8], their
# faces as quads.
awk 'BEGIN {
  split("0.2 0.2 0.2 3.8 0.8 0.8 0.2 1.2 1.2 1.8 1.8 1.8", b, " ")
  for (k = 0; k < 2; ++k) {
    for (v = 0; v < 8; ++v) {
      x = (v == 1 || v == 2 || v == 5 || v == 6); y = (v == 2 || v == 3 || v == 6 || v == 7)
      z = v >= 4
      printf "v %s %s %s\n", b[6 * k + 1 + 3 * x], b[6 * k + 2 + 3 * y], b[6 * k + 3 + 3 * z]
    }
    o = 8 * k
    printf "f %d %d %d %d\nf %d %d %d %d\nf %d %d %d %d\n", o + 1, o + 4, o + 3, o + 2, o + 5,
      o + 6, o + 7, o + 8, o + 1, o + 2, o + 6, o + 5
    printf "f %d %d %d %d\nf %d %d %d %d\nf %d %d %d %d\n", o + 2, o + 3, o + 7, o + 6, o + 3,
      o + 4, o + 8, o + 7, o + 4, o + 1, o + 5, o + 8
  }
}' >bars.obj
# Points 0..7: the first piece of A, 8..15: B, both on the first coarse cell's corners; 16..19 the
# second cell's far corners. Fixed: each piece's face x = 0.
cat >ramified.scn <<'XML'
<Node name="root" dt="0.02" gravity="0 -9.81 0">
  <Node name="bars">
    <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.2"/>
    <CGLinearSolver iterations="1000" tolerance="1e-13" threshold="1e-30"/>
    <SparseGridRamificationTopology n="3 2 2" min="0 0 0" max="4 2 2" nbVirtualFinerLevels="1"
        finestConnectivity="0" fileTopology="bars.obj"/>
    <MechanicalObject/>
    <UniformMass totalMass="2"/>
    <FixedProjectiveConstraint indices="0 3 4 7 8 11 12 15"/>
    <HexahedronFEMForceField youngModulus="300" poissonRatio="0.3" method="large"/>
  </Node>
</Node>
XML
for ranks in 1 2 3; do
  run "$ranks" --scene ramified.scn --solver.steps=5 --output.final-state="scene$ranks.csv"
  check "the ramified grid scene runs on $ranks ranks" test -s "scene$ranks.csv"
done
check "it reports its pieces" grep -q "20 points and 3 hexahedra kept" run.log

cat >inline.ini <<'INI'
[mesh]
nodes = 0 0 0 2 0 0 2 2 0 0 2 0 0 0 2 2 0 2 2 2 2 0 2 2 0 0 0 2 0 0 2 2 0 0 2 0 0 0 2 2 0 2 2 2 2 0 2 2 4 0 0 4 2 0 4 0 2 4 2 2
hexahedra = 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 1 16 17 2 5 18 19 6
[material]
cell-stiffness-factor = 0.0625 0.0625 0.125
INI
run 2 --config=inline.ini --solver.dt=0.02 --solver.steps=5 --solver.rtol=1e-13 \
  --output.progress-every=0 --mass.type=uniform --mass.total-mass=2 --material.model=corotational \
  --material.rotation=large --material.young-modulus=300 --material.poisson-ratio=0.3 \
  --load.gravity="0 -9.81 0" --solver.rayleigh-stiffness=0.1 --solver.rayleigh-mass=0.2 \
  --constraint.fixed="indices 0 3 4 7 8 11 12 15" --output.final-state=ini.csv
check "the inline scene runs" test -s ini.csv
check "the ramified grid scene ends where the inline hexahedra end" same_state scene1.csv ini.csv \
  1e-11
check "2 ranks end where 1 rank does" same_state scene1.csv scene2.csv 1e-11
check "3 ranks end where 1 rank does" same_state scene1.csv scene3.csv 1e-11

# HexahedronFEMForceFieldAndMass weighs each cell's mass by the grid's mass coefficients (the
# stiffness ones): the scene ends where the inline hexahedra with mass.cell-factor end, and not
# where they end without it.
sed 's|<UniformMass totalMass="2"/>||; s|<HexahedronFEMForceField |<HexahedronFEMForceFieldAndMass density="5" |' \
  ramified.scn >andmass.scn
for ranks in 1 2 3; do
  run "$ranks" --scene andmass.scn --solver.steps=5 --output.final-state="andmass$ranks.csv"
  check "HexahedronFEMForceFieldAndMass on the ramified grid runs on $ranks ranks" \
    test -s "andmass$ranks.csv"
done
inline_mass() {  # inline_mass OUT [ARGS...]: the inline hexahedra under SOFA's hexahedral mass
  run 2 --config=inline.ini --solver.dt=0.02 --solver.steps=5 --solver.rtol=1e-13 \
    --output.progress-every=0 --mass.type=hexahedron-fem --material.density=5 \
    --material.model=corotational --material.rotation=large --material.young-modulus=300 \
    --material.poisson-ratio=0.3 --load.gravity="0 -9.81 0" --solver.rayleigh-stiffness=0.1 \
    --solver.rayleigh-mass=0.2 --constraint.fixed="indices 0 3 4 7 8 11 12 15" \
    --output.final-state="$1" "${@:2}"
}
inline_mass andmass-ini.csv --mass.cell-factor="0.0625 0.0625 0.125"
check "it ends where the inline hexahedra with their mass factors end" same_state andmass1.csv \
  andmass-ini.csv 1e-11
check "2 and 3 ranks end where 1 rank does" eval \
  'same_state andmass1.csv andmass2.csv 1e-11 && same_state andmass1.csv andmass3.csv 1e-11'
inline_mass andmass-full.csv
check "without the factors the inline hexahedra end elsewhere" eval \
  '! same_state andmass1.csv andmass-full.csv 1e-6'
inline_mass short.csv --mass.cell-factor="0.5 0.5"
check "a factor list of the wrong length is refused" grep -q "mass.cell-factor has 2 values for 3 cells" \
  run.log

sed 's|finestConnectivity="0"|finestConnectivity="sometimes"|' ramified.scn >flag.scn
check "a finestConnectivity that is no boolean is refused" \
  refused "finestConnectivity" 2 "$program" --scene flag.scn --solver.steps=1
# SparseGridMultipleTopology of a closed cube (stiffness 2) and the cube without its face x = 0
# (8), on 3 x 3 x 3 cells over their box widened by 1%: SOFA's fill runs into the open one
# through cell (0, 1, 1), which no face crosses, so the middle cell is inside the closed cube only
# (factor 2), cell (0, 1, 1) on the closed one only ((0 + 2) / 2 = 1), the other 25 on both
# ((1 + 8) / 2 = 4.5). 1, 2 and 3 ranks end alike.
cp "$here/../common/unit_cube.obj" cube.obj  # 6 quads, the last the face x = 0
head -n 13 cube.obj >open.obj
cat >multiple.scn <<'XML'
<Node name="root" dt="0.02" gravity="0 -9.81 0">
  <Node name="cubes">
    <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.2"/>
    <CGLinearSolver iterations="1000" tolerance="1e-13" threshold="1e-30"/>
    <SparseGridMultipleTopology n="4 4 4" fileTopologies="cube.obj open.obj"
        stiffnessCoefs="2 8" finestConnectivity="0"/>
    <MechanicalObject/>
    <UniformMass totalMass="3"/>
    <FixedProjectiveConstraint indices="0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15"/>
    <HexahedronFEMForceField youngModulus="300" poissonRatio="0.3" method="large"/>
  </Node>
</Node>
XML
for ranks in 1 2 3; do
  run "$ranks" --scene multiple.scn --solver.steps=3 --output.final-state="multiple$ranks.csv"
  check "a multiple grid with an open surface runs on $ranks ranks" test -s "multiple$ranks.csv"
done
check "it keeps the closed cube's cells" grep -q "27 hexahedra kept (26 on the surface" run.log
check "2 and 3 ranks end where 1 rank does" eval \
  'same_state multiple1.csv multiple2.csv 1e-11 && same_state multiple1.csv multiple3.csv 1e-11'
# The same cells inline: point (i, j, k) at lo + step (i, j, k) is 16 i + 4 j + k; the cells the
# surfaces cross in the grid's order (x fastest), then the middle one.
awk 'BEGIN {
  lo = 0 - 1 / 100; hi = 1 + 1 / 100; step = (hi - lo) / 3
  for (i = 0; i < 4; ++i) for (j = 0; j < 4; ++j) for (k = 0; k < 4; ++k)
    nodes = nodes sprintf(" %.17g %.17g %.17g", lo + step * i, lo + step * j, lo + step * k)
  split("0 1 1 0 0 1 1 0", dx, " "); split("0 0 1 1 0 0 1 1", dy, " ")
  split("0 0 0 0 1 1 1 1", dz, " ")
  for (pass = 0; pass < 2; ++pass)
    for (z = 0; z < 3; ++z) for (y = 0; y < 3; ++y) for (x = 0; x < 3; ++x) {
      middle = x == 1 && y == 1 && z == 1
      if (middle != pass) continue
      for (c = 1; c <= 8; ++c) cells = cells " " 16 * (x + dx[c]) + 4 * (y + dy[c]) + z + dz[c]
      factors = factors (middle ? " 2" : x == 0 && y == 1 && z == 1 ? " 1" : " 4.5")
    }
  printf "[mesh]\nnodes = %s\nhexahedra = %s\n[material]\ncell-stiffness-factor = %s\n",
    nodes, cells, factors
}' >multiple.ini
run 2 --config=multiple.ini --solver.dt=0.02 --solver.steps=3 --solver.rtol=1e-13 \
  --output.progress-every=0 --mass.type=uniform --mass.total-mass=3 --material.model=corotational \
  --material.rotation=large --material.young-modulus=300 --material.poisson-ratio=0.3 \
  --load.gravity="0 -9.81 0" --solver.rayleigh-stiffness=0.1 --solver.rayleigh-mass=0.2 \
  --constraint.fixed="indices 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15" \
  --output.final-state=multiple-ini.csv
check "it ends where the inline cells with those factors end" same_state multiple1.csv \
  multiple-ini.csv 1e-11
sed 's|min="0 0 0"|cellWidth="1" min="0 0 0"|' ramified.scn >width.scn
check "cellWidth with finer levels is refused" \
  refused "cellWidth" 2 "$program" --scene width.scn --solver.steps=1

echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
