#!/usr/bin/env bash
# Nodes of one body tied to nodes of another body of its group (attach.pairs; SOFA's
# AttachProjectiveConstraint between two Vec3d states under one solver). Checked: two beams whose
# facing nodes coincide, attached two-way, end where one beam of both (the nodes shared) ends, on
# 1, 2 and 3 ranks; attached one-way, one step is the two beams solved apart (b's attached nodes
# fixed) and then SOFA's projection (tests/common/attach_one_way.py), and five steps agree on 1,
# 2 and 3 ranks; what the projection cannot stand for is refused, naming it. The same as SOFA
# scenes of two RegularGridTopology grids (twoWay against one grid; one-way against the step
# apart; an ODE solver nested below the root's never runs, as in SOFA).
# Usage: attach_constraint.sh <euler-implicit> <meshes dir>; the MPI launch line: tests/common/mpi_launch.sh.
set -uo pipefail
RANKS=3  # MPI ranks at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
# shellcheck source=SCRIPTDIR/../common/regression_test.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/regression_test.sh"
differ() { [[ -s $1 && -s $2 ]] && ! same_state "$@" > /dev/null; }

# Two beams of 4 x 2 x 2 cells side by side along x, a clamped at x = 0; its x = 1 face (nodes
# i = 4) and b's x = 1 face (nodes i = 0) coincide. The merged beam: 8 x 2 x 2 cells.
cat > beams.ini <<'INI'
[solver]
dt = 0.01
steps = 5
linear = direct
[output]
progress-every = 0
[material]
young-modulus = 1e4
poisson-ratio = 0.3
density = 100
[a/mesh]
box-size = 1 0.2 0.2
box-cells = 4 2 2
[a/constraint]
fixed = indices 0 5 10 15 20 25 30 35 40
[b/mesh]
box-size = 1 0.2 0.2
box-cells = 4 2 2
transform = translate 1 0 0
[b/constraint]
fixed-box = 10 10 10 11 11 11
INI
cat > merged.ini <<'INI'
[solver]
dt = 0.01
steps = 5
linear = direct
[output]
progress-every = 0
[material]
young-modulus = 1e4
poisson-ratio = 0.3
density = 100
[mesh]
box-size = 2 0.2 0.2
box-cells = 8 2 2
[constraint]
fixed = indices 0 9 18 27 36 45 54 63 72
INI
pairs="pairs"
for n in 0 1 2 3 4 5 6 7 8; do pairs+=" $((4 + 5 * n)) $((5 * n)) 1"; done

check "one beam of 8 x 2 x 2 cells" run_on 1 merged --config merged.ini --output.final-state=merged.csv
for n in 1 2 3; do
  check "two beams attached two-way on $n ranks" \
    run_on $n two$n --config beams.ini --solver.group=g "--a/attach.pairs=/b two-way $pairs" \
    --output.final-state=two$n.csv
  check "... end where the one beam ends" \
    python3 "$COMMON/attach_merged.py" two$n.csv merged.csv 4 2 2 1e-10
done
check "... 9 attached pairs" grep -q "^group g: /a, /b solved as one system, 0 interaction springs, 9 attached pairs" two1.log
check "the two beams in one group, not attached" \
  run_on 1 loose --config beams.ini --solver.group=g --output.final-state=loose.csv
check "... do not end where the one beam ends" \
  bash -c "! python3 '$COMMON/attach_merged.py' loose.csv merged.csv 4 2 2 1e-10"

check "two beams attached one-way, one step" \
  run_on 1 one --config beams.ini --solver.steps=1 --solver.group=g "--a/attach.pairs=/b $pairs" \
  --output.final-state=one.csv
check "the two beams apart, b's attached nodes fixed, one step" \
  run_on 1 apart --config beams.ini --solver.steps=1 \
  "--b/constraint.fixed=indices 0 5 10 15 20 25 30 35 40" --output.final-state=apart.csv
check "... the one-way step is the step apart, then SOFA's projection" \
  python3 "$COMMON/attach_one_way.py" one.csv apart.csv 4 2 2 1e-12
for n in 1 2 3; do
  check "two beams attached one-way, five steps, on $n ranks" \
    run_on $n five$n --config beams.ini --solver.group=g \
    "--a/attach.pairs=/b position-factor 0.8 velocity-factor 0.6 $pairs" \
    --output.final-state=five$n.csv
done
check "... 1 and 2 ranks agree" same_state five1.csv five2.csv 1e-10
check "... 1 and 3 ranks agree" same_state five1.csv five3.csv 1e-10
check "... and the attachment moved them" differ five1.csv loose.csv 1e-6

check "a node in two pairs is refused" \
  refused "node 0 of /b is in two attached pairs" 2 "$EXE" --config beams.ini --solver.group=g \
  "--a/attach.pairs=/b pairs 4 0 1 9 0 1"
check "a two-way pair with R c = 0.4 is refused" \
  refused "two-way with response-factor x c = 0.4" 2 "$EXE" --config beams.ini \
  --solver.group=g "--a/attach.pairs=/b two-way pairs 4 0 0.4"
check "an attached node its body fixes is refused" \
  refused "node 0 of /a is also fixed by its body's constraints" 2 "$EXE" --config beams.ini \
  --solver.group=g "--a/attach.pairs=/b pairs 0 0 1"
check "a target outside the group is refused" \
  refused "attach.pairs of /a: the target /c is no body of its solver.group" 2 "$EXE" \
  --config beams.ini --solver.group=g "--a/attach.pairs=/c pairs 4 0 1"
check "a body attached to itself is refused" \
  refused "the target is the body itself" 2 "$EXE" --config beams.ini --solver.group=g \
  "--a/attach.pairs=/a pairs 4 0 1"

# The same as SOFA scenes: two grids of 2 x 2 x 2 hexahedra side by side along x under one solver,
# an AttachProjectiveConstraint between them (object1/object2, indices1/indices2), against one grid
# of 4 x 2 x 2 hexahedra.
grid() {  # grid NAME MIN MAX N: a grid node with its hexahedral FEM and mass
  cat <<XML
    <Node name="$1">
        <RegularGridTopology n="$4" min="$2" max="$3"/>
        <MechanicalObject/>
        <DiagonalMass massDensity="2"/>
        <HexahedronFEMForceField youngModulus="3000" poissonRatio="0.3"/>
XML
}
scene() {  # scene FILE ATTACH-ATTRIBUTES B-CONSTRAINT
  {
    echo '<Node name="root" dt="0.02" gravity="0 -9.81 0">'
    echo '    <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>'
    echo '    <SparseLDLSolver/>'
    grid a "0 0 0" "2 1 1" "3 3 3"
    echo '        <FixedProjectiveConstraint indices="0 3 6 9 12 15 18 21 24"/>'
    echo '    </Node>'
    grid b "2 0 0" "4 1 1" "3 3 3"
    echo "        $3"
    echo '    </Node>'
    [[ -n $2 ]] && echo "    <AttachProjectiveConstraint object1=\"@a\" object2=\"@b\" $2
        indices1=\"2 5 8 11 14 17 20 23 26\" indices2=\"0 3 6 9 12 15 18 21 24\"/>"
    echo '</Node>'
  } > "$1"
}
scene two.scn 'twoWay="true"' ''
scene one.scn 'twoWay="false"' ''
scene apart.scn '' '<FixedProjectiveConstraint indices="0 3 6 9 12 15 18 21 24"/>'
{
  echo '<Node name="root" dt="0.02" gravity="0 -9.81 0">'
  echo '    <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>'
  echo '    <SparseLDLSolver/>'
  grid m "0 0 0" "4 1 1" "5 3 3"
  echo '        <FixedProjectiveConstraint indices="0 5 10 15 20 25 30 35 40"/>'
  echo '    </Node>'
  echo '</Node>'
} > merged.scn
check "SOFA scene: one grid of 4 x 2 x 2 hexahedra" \
  run_on 2 merged_scn --scene merged.scn --solver.steps=10 --output.final-state=merged_scn.csv
check "SOFA scene: two grids, AttachProjectiveConstraint twoWay" \
  run_on 2 two_scn --scene two.scn --solver.steps=10 --output.final-state=two_scn.csv
check "... 9 attached pairs" grep -q "^group /: /a, /b solved as one system, 0 interaction springs, 9 attached pairs" two_scn.log
check "... end where the one grid ends" \
  python3 "$COMMON/attach_merged.py" two_scn.csv merged_scn.csv 2 2 2 1e-10
check "SOFA scene: AttachProjectiveConstraint one-way, one step" \
  run_on 2 one_scn --scene one.scn --solver.steps=1 --output.final-state=one_scn.csv
check "SOFA scene: the grids apart, b's attached nodes fixed, one step" \
  run_on 2 apart_scn --scene apart.scn --solver.steps=1 --output.final-state=apart_scn.csv
check "... the one-way step is the step apart, then SOFA's projection" \
  python3 "$COMMON/attach_one_way.py" one_scn.csv apart_scn.csv 2 2 2 1e-12
# SOFA's SolveVisitor stops at the first node with an ODE solver: one below it never runs, and the
# attach between a and b is under one solver still.
sed 's|<Node name="b">|<Node name="b"><EulerImplicitSolver rayleighStiffness="0.5"/><CGLinearSolver/>|' \
  two.scn > nested.scn
check "SOFA scene: b with an ODE solver of its own below the root's" \
  run_on 2 nested_scn --scene nested.scn --solver.steps=10 --output.final-state=nested_scn.csv
check "... which never runs, and says so" grep -q "EulerImplicitSolver never runs" nested_scn.log
check "... the same state as without it" same_state nested_scn.csv two_scn.csv 1e-14
scene refused.scn 'minDistance="0.5"' ''
check "SOFA scene: minDistance is refused" \
  refused "releasing pairs further apart than minDistance is not supported" 2 "$EXE" \
  --scene refused.scn

scene linked.scn 'twoWay="true"' ''
sed -i 's|indices1="2 5 8 11 14 17 20 23 26"|indices1="@a/box.indices"|; s|<FixedProjectiveConstraint indices="0 3 6 9|<BoxROI name="box" box="1.9 -1 -1 2.1 2 2"/><FixedProjectiveConstraint indices="0 3 6 9|' linked.scn
check "SOFA scene: indices1 linked to a BoxROI's output is refused" \
  refused "a link to values SOFA computes (an engine's output) is not supported" 2 "$EXE" \
  --scene linked.scn

echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
