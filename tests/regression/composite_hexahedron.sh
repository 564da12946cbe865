#!/usr/bin/env bash
# SOFA's HexahedronCompositeFEMForceFieldAndMass (model/composite_hexahedron.hpp) on a
# SparseGridTopology of the unit cube with two virtual finer levels: its fine cells on the surface
# at coefficient 0.5, those inside at 1. The scene ends alike on 1, 2 and 3 ranks; with every
# fine cell at 1 (fillWeighted false) the static condensation's weights are trilinear by symmetry,
# so it ends where NonUniformHexahedronFEMForceFieldAndMass does; with mixed ones it does not.
# HexahedronCompositeFEMMapping's child forces: against an independent computation
# (composite_mapping_forces.py). What is not implemented is refused by name.
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

# Fine cells all at 1: the weights are trilinear, as NonUniformHexahedronFEMForceFieldAndMass's,
# and HexahedronCompositeFEMMapping's, whose rotations then cancel (R^T w R = w): its child's
# forces (in a node below it) act as a BarycentricMapping child's.
LOADS="0.5 0.5 0.5 0 300 0  0.9 0.2 0.7 200 -150 100  0.31 0.77 0.05 -100 0 250  0.6 0.95 0.98 0 0 -200"
columns() { awk -v from="$1" '{ for (i = from; i <= NF; i += 6) printf "%s %s %s  ", $i, $(i+1), $(i+2) }' <<<"$LOADS"; }
with() {  # with BODY-XML < SCENE: the scene with BODY-XML added to its body
  head -n -2
  printf '%s\n  </Node>\n</Node>\n' "$1"
}
child() {  # child MAPPING: 4 points under MAPPING, forces on them in a node below
  with "<Node name=\"surface\"><MechanicalObject position=\"$(columns 1)\"/><$1/>
      <Node name=\"load\"><ConstantForceField indices=\"0 1 2 3\" forces=\"$(columns 4)\"/></Node>
    </Node>"
}
scene HexahedronCompositeFEMForceFieldAndMass 'fillWeighted="false"' '' |
  child HexahedronCompositeFEMMapping >full.scn
scene NonUniformHexahedronFEMForceFieldAndMass 'fillWeighted="false"' '' |
  child BarycentricMapping >fulltrilinear.scn
run 2 --scene full.scn --solver.steps=5 --output.final-state=full.csv
run 3 --scene fulltrilinear.scn --solver.steps=5 --output.final-state=fulltrilinear.csv
check "with full fine cells of one material it ends where the trilinear condensation does, and
     its HexahedronCompositeFEMMapping child's forces act as a BarycentricMapping child's" \
  same_state full.csv fulltrilinear.csv 1e-10

scene HexahedronCompositeFEMForceFieldAndMass '' 'finestToCoarse="true"' >finest.scn
run 2 --scene finest.scn --solver.steps=1
check "finestToCoarse is refused by name" grep -q "finestToCoarse.*not supported" run.log
scene HexahedronCompositeFEMForceFieldAndMass '' 'lumpedMass="true"' >lumped.scn
run 2 --scene lumped.scn --solver.steps=1
check "its lumped mass is refused" grep -q "lumped mass is not supported" run.log
# SparseGridMultipleTopology (ramified levels, each cell one piece here): of the cube alone at
# coefficients 1 its cells are the plain grid's, numbered otherwise; the sums of the final
# coordinates and of their squares, which no numbering changes, are the plain grid's.
sums() {  # sums STATE: the sums of x, y, z and of their squares over the points
  test -s "$1" && awk -F, 'NR > 1 { for (i = 2; i <= 4; ++i) { s[i] += $i; q[i] += $i * $i } }
    END { printf "%.12g %.12g %.12g %.12g %.12g %.12g\n", s[2], s[3], s[4], q[2], q[3], q[4] }' "$1"
}
close() {  # close A B: two lists of sums equal to 1e-10 of the largest magnitude
  awk -v a="$1" -v b="$2" 'BEGIN { n = split(a, x, " "); split(b, y, " ")
    for (i = 1; i <= n; ++i) { d = x[i] - y[i]; d = d < 0 ? -d : d; v = x[i] < 0 ? -x[i] : x[i]
      if (d > m) m = d; if (v > s) s = v }
    exit !(n == 6 && s > 0 && m <= 1e-10 * s) }'
}
apart() { test -n "$1" && test -n "$2" && ! close "$1" "$2"; }
multiple() {  # multiple SURFACES STIFFNESS MASS [SCENE]: SCENE (composite.scn) on
  # SparseGridMultipleTopology, the points at x = -0.01 held by position (the grid numbers them
  # otherwise)
  sed "s/SparseGridTopology n/SparseGridMultipleTopology fileTopologies=\"$1\" finestConnectivity=\"false\" stiffnessCoefs=\"$2\" massCoefs=\"$3\" n/; s/ fileTopology=\"cube.obj\"//
       s/<FixedProjectiveConstraint indices=\"[0-9 ]*\"/<BoxROI name=\"held\" box=\"-1 -1 -1 0 2 2\"\/><FixedProjectiveConstraint indices=\"@held.indices\"/" \
    "${4:-composite.scn}"
}
multiple cube.obj 1 1 >multiple.scn
run 2 --scene multiple.scn --solver.steps=5 --output.final-state=multiple.csv
check "one surface at coefficients 1 on a ramified grid ends where the plain grid does" \
  close "$(sums multiple.csv)" "$(sums scene1.csv)"
# A stiff heavy core (the box [0.3, 0.7]^3, in the inner fine cells): on 1, 2 and 3 ranks alike,
# not where the cube alone ends.
printf 'v 0.3 0.3 0.3\nv 0.7 0.3 0.3\nv 0.7 0.7 0.3\nv 0.3 0.7 0.3\nv 0.3 0.3 0.7\nv 0.7 0.3 0.7\nv 0.7 0.7 0.7\nv 0.3 0.7 0.7\nf 1 4 3 2\nf 5 6 7 8\nf 1 2 6 5\nf 2 3 7 6\nf 3 4 8 7\nf 4 1 5 8\n' >core.obj
multiple "cube.obj core.obj" "1 50" "1 4" >cored.scn
for ranks in 1 2 3; do
  run "$ranks" --scene cored.scn --solver.steps=5 --output.final-state="cored$ranks.csv"
  check "the cored cube runs on $ranks ranks" test -s "cored$ranks.csv"
done
check "the cored cube ends alike on 2 ranks" same_state cored1.csv cored2.csv 1e-10
check "and on 3" same_state cored1.csv cored3.csv 1e-10
check "the core changes where it ends" apart "$(sums cored1.csv)" "$(sums multiple.csv)"
# useMass false (NonUniformHexahedronFEMForceFieldAndMass's init): every point's mass is
# totalMass / (the hexahedra), whatever the density and massCoefs, in addMDx and in gravity. The
# cored cube free (27 points, 8 hexahedra), without Rayleigh mass, forces F on two points: the
# internal forces and K sum to zero over the points, so one step's mean velocity is exactly
# h g + h F C / (N T) (C cells, N points, T totalMass); M = T / N (UniformMass's) would be 27/8 off.
sed 's/rayleighMass="0.2"/rayleighMass="0"/; s/density="2" /density="2" useMass="false" totalMass="3" /
     s/<BoxROI [^>]*\/><FixedProjectiveConstraint [^>]*\/>/<ConstantForceField indices="3 20" forces="6 0 0  0 9 -3"\/>/' \
  cored.scn >free.scn
mean_velocity() {  # mean_velocity STATE: the mean of vx, vy, vz over the points
  test -s "$1" && awk -F, 'NR > 1 { for (i = 5; i <= 7; ++i) s[i] += $i; n++ }
    END { printf "%.15g %.15g %.15g 0 0 0\n", s[5] / n, s[6] / n, s[7] / n }' "$1"
}
expected=$(awk 'BEGIN { h = 0.02; k = 8 / (27 * 3)
  printf "%.15g %.15g %.15g 0 0 0\n", h * 6 * k, h * (-9.81 + 9 * k), h * (-3) * k }')
for ranks in 1 2 3; do
  run "$ranks" --scene free.scn --solver.steps=1 --output.final-state="free$ranks.csv"
  check "useMass false on $ranks ranks: one step's mean velocity is h g + h F C / (N totalMass)" \
    close "$(mean_velocity "free$ranks.csv")" "$expected"
done
check "and ends alike on 2 ranks" same_state free1.csv free2.csv 1e-10
check "and on 3" same_state free1.csv free3.csv 1e-10
sed 's/ totalMass="3"//' free.scn >massless.scn
check "useMass false without totalMass (SOFA's 0: no mass) is refused by name" \
  refused "totalMass.*expected > 0 without useMass" 2 "$program" --scene massless.scn --solver.steps=1
sed 's/finestConnectivity="false" //' cored.scn >connected.scn
run 2 --scene connected.scn --solver.steps=1
check "finestConnectivity with no fileTopology is refused by name" \
  grep -q "finestConnectivity" run.log
# HexahedronCompositeFEMMapping carrying a child's constant forces, one finer level (4^3 finest
# cells, 0.5 on the surface, 1 inside): the body's nodal forces composite_mapping_forces.py
# computes from SOFA's formulas (its own static condensation, applyJT's sums) move it alike. SOFA's
# mapping turns the weights by the coarse cells' rotations of the step before (at the first two
# steps, the initial ones): 3 steps of the child on 1, 2 and 3 ranks end where 2 steps of the
# unturned nodal forces then 1 of those turned by the cells' frames after step 1 do, not where a
# third unturned step does.
python=${PYTHON:-/usr/bin/python3}
scene HexahedronCompositeFEMForceFieldAndMass '' '' | sed 's/nbVirtualFinerLevels="2"/nbVirtualFinerLevels="1"/g' >one.scn
child HexahedronCompositeFEMMapping <one.scn >mapped.scn
nodal() {  # nodal STATE|rest FILE: one.scn with the nodal forces at STATE's frames
  local forces
  forces=$("$python" "$here/../common/composite_mapping_forces.py" "$1" "$LOADS") || return
  with "<ConstantForceField indices=\"$(sed -n 1p <<<"$forces")\" forces=\"$(sed -n 2p <<<"$forces")\"/>" \
    <one.scn >"$2"
}
nodal rest unturned.scn
run 1 --scene unturned.scn --solver.steps=1 --output.final-state=step1.csv
run 1 --scene unturned.scn --solver.steps=1 --initial.state=step1.csv --output.final-state=step2.csv
nodal step1.csv turned.scn
run 1 --scene turned.scn --solver.steps=1 --initial.state=step2.csv --output.final-state=step3.csv
run 1 --scene unturned.scn --solver.steps=1 --initial.state=step2.csv --output.final-state=late.csv
for ranks in 1 2 3; do
  run "$ranks" --scene mapped.scn --solver.steps=3 --output.final-state="mapped$ranks.csv"
  check "$ranks rank(s): the mapped child's forces act as SOFA's applyJT's, turned a step late" \
    same_state mapped$ranks.csv step3.csv 1e-10
done
check "and the turn shows" differ mapped1.csv late.csv 1e-8
# On a ramified grid (SparseGridMultipleTopology of the cube alone, numbered otherwise) SOFA's
# mapping reads the same finest weights through the ramified children: it ends where the plain
# grid's 3 steps do, in the sums no numbering changes.
multiple cube.obj 1 1 mapped.scn >ramified.scn
for ranks in 1 2 3; do
  run "$ranks" --scene ramified.scn --solver.steps=3 --output.final-state="ramified$ranks.csv"
  check "$ranks rank(s): on a ramified grid the mapped child's forces act as on the plain one" \
    close "$(sums "ramified$ranks.csv")" "$(sums step3.csv)"
done
check "its loads on a refined mesh are refused by name" \
  refused "mapped.composite-loads .*mesh.refine" 1 "$program" --mesh.cell-type=hexahedron \
  --mesh.refine=1 --mapped.composite-loads="0$(printf ' 0.5%.0s' {1..216})" --solver.steps=1
echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
