#!/usr/bin/env bash
# Unilateral contacts with Coulomb friction (model/unilateral_lagrangian_constraint.cpp, the
# friction resolution of linalg/block_gauss_seidel.cpp) and the multipliers in the outputs
# (history column constraint_force_norm, output.multipliers), against closed forms:
# - one contact row under an UncoupledConstraintCorrection: W = h c, the force -dfree / (h c)
#   found in the first iteration, the second changes nothing: the history and the multipliers
#   CSV hold those hand values;
# - a stiff block on the plane z = 0, gravity (gx, 0, -g), friction mu on its bottom nodes:
#   below mu g it sticks (the bottom nodes do not slip); above it slides, and the momentum
#   balance of a rigid block whose contacts' friction stays on the cone gives, after N steps of
#   h, mean vx + mu mean vz = N h (gx - mu g) (the elastic block's Poisson spread at the first
#   contact turns its friction a little sideways: 3.3e-7 of 0.6 here); the same on 1, 2 and 3
#   ranks;
# - a restart from a checkpoint, and two such blocks under one ODE solver, end as one run and
#   one block do;
# - a block thrown up from the plane: open while it flies (exact free flight, multipliers 0),
#   closed once it lands (forces >= 0, gaps >= 0, force x gap = 0); a squeezed block that
#   jumps off the plane and lands again: closed, open, closed, at rest its weight;
# - a corner sliding on a segment stays on its line (lagrange.sliding, and SOFA's
#   SlidingLagrangianConstraint with a GenericConstraintCorrection);
# - SOFA's UnbuiltGaussSeidel and NNCG constraint solvers end as its block Gauss-Seidel.
# Usage: lagrange_contacts.sh <euler-implicit> <meshes dir>.
set -uo pipefail
RANKS=3  # MPI ranks per run at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
here=$(dirname "$(realpath "${BASH_SOURCE[0]}")")
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$here/../common/mpi_launch.sh"
# shellcheck source=SCRIPTDIR/../common/checks.sh
source "$here/../common/checks.sh"
EXE=$(realpath "$1")
launch_in_scratch "$RANKS" "$EXE"

# block GRAVITY CORRECTION > FILE: a unit cube of 3 x 3 x 3 nodes resting on z = 0.
block() {
  cat <<XML
<Node name="root" gravity="$1" dt="0.01">
  <FreeMotionAnimationLoop/>
  <BlockGaussSeidelConstraintSolver maxIterations="10000" tolerance="1e-13"/>
  <Node name="block">
    <EulerImplicitSolver/>
    <SparseLDLSolver name="ldl"/>
    <RegularGridTopology name="grid" n="3 3 3" min="0 0 0" max="1 1 1"/>
    <MechanicalObject name="dofs" src="@grid"/>
    <UniformMass totalMass="1"/>
    <TetrahedronFEMForceField youngModulus="1e6" poissonRatio="0.3"/>
    $2
  </Node>
</Node>
XML
}
LDL='<LinearSolverConstraintCorrection linearSolver="@ldl"/>'
BOTTOM='box -1 -1 -0.01 2 2 0.01'

# run NAME RANKS SCENE STEPS KEYS..: the final state in NAME.csv, the history in NAME.hist and
# the multipliers in NAME.lambda.
run() {
  local name=$1 ranks=$2 scene=$3 steps=$4 status=0
  shift 4
  mpi_command "$ranks" "$EXE"
  timeout 120 "${MPI_COMMAND[@]}" --scene "$scene" --solver.steps="$steps" \
    --output.final-state="$name.csv" --output.history="$name.hist" \
    --output.multipliers="$name.lambda" --quiet "$@" > "$name.out" 2> "$name.err" || status=$?
  [ "$status" -eq 0 ] || sed 's/^/     | /' "$name.err"
  return "$status"
}

# One row: node 0 on the plane, gravity -10, compliance c = 0.01: dfree = -h^2 g = -1e-3,
# W = h c = 1e-4, f = 10; two iterations, the last error 0.
block "0 0 -10" '<UncoupledConstraintCorrection defaultCompliance="0.01"/>' > one.scn
check "one contact row runs" run one 2 one.scn 1 "--lagrange.unilateral=indices 0 plane 0 0 0 0 0 1"
one_row_history() {
  awk -F, 'NR == 1 { ok = $11 == "constraint_rows" && $14 == "constraint_force_norm"; next }
    { ok = ok && $11 == 1 && $12 == 2 && $13 + 0 < 1e-18 && ($14 - 10) ^ 2 < 1e-22; n++ }
    END { exit !(ok && n == 1) }' one.hist
}
check "the history: 1 row, 2 iterations, error 0, force norm 10 (1e-11)" one_row_history
one_row_multipliers() {
  awk -F, 'NR == 1 { ok = $0 == "step,time,object,row,force"; next }
    { ok = ok && $1 == 1 && $4 == 0 && ($5 - 10) ^ 2 < 1e-22; n++ } END { exit !(ok && n == 1) }' \
    one.lambda
}
check "the multipliers CSV: step 1, row 0, force 10 (1e-11)" one_row_multipliers
node0_on_plane() { awk -F, '$1 == 0 { exit !($4 ^ 2 < 1e-30) }' one.csv; }
check "node 0 is put back on the plane (1e-15)" node0_on_plane

# Friction: mu = 0.5, g = 10; gx = 3 sticks, gx = 8 slides with acceleration 3.
block "3 0 -10" "$LDL" > stick.scn
block "8 0 -10" "$LDL" > slide.scn
FRICTION="--lagrange.unilateral=$BOTTOM plane 0 0 0 0 0 1 mu 0.5"
check "the block below the friction limit runs" run stick 2 stick.scn 20 "$FRICTION"
for ranks in 1 2 3; do
  check "the block above the friction limit runs on $ranks rank(s)" \
    run "slide$ranks" "$ranks" slide.scn 20 "$FRICTION"
done
# bottom_slip FILE: the largest |x - x_rest| of the nodes at z = 0 (rest x = 0.5 (id % 3)).
bottom_slip() {
  awk -F, 'FNR > 1 && int($1 / 9) == 0 { e = $2 - 0.5 * ($1 % 3); if (e < 0) e = -e
    if (e > w) w = e } END { print w + 0 }' "$1"
}
sticks() { awk -v w="$(bottom_slip stick.csv)" 'BEGIN { exit !(w < 1e-9) }'; }
check "below mu g the bottom nodes stick (slip < 1e-9)" sticks
# N = 20, h = 0.01: mean vx + 0.5 mean vz = 0.2 (8 - 5) = 0.6.
slides() {
  awk -F, 'FNR > 1 { vx += $5; vz += $7; n++ }
    END { s = vx / n + 0.5 * vz / n; e = s - 0.6; if (e < 0) e = -e
      if (e > 1e-6) { printf "  mean vx + mu mean vz = %.17g\n", s; exit 1 } }' slide1.csv &&
    awk -v w="$(bottom_slip slide1.csv)" 'BEGIN { exit !(w > 0.05) }'
}
check "above mu g it slides: mean vx + mu mean vz = N h (gx - mu g) (1e-6)" slides
# Every contact slides on the cone: the two tangent forces of each contact have the norm
# mu f_n (rows 3k, 3k+1, 3k+2 of the last step).
on_cone() {
  awk -F, 'NR > 1 && $1 == 20 { r = $4 % 3; f[r] = $5
      if (r == 2) { t = sqrt(f[1] ^ 2 + f[2] ^ 2); e = t - 0.5 * f[0]; if (e < 0) e = -e
        if (f[0] <= 0 || e > 1e-9 * f[0]) bad = 1; n++ } }
    END { exit !(n == 9 && !bad) }' slide1.lambda
}
check "  each of its 9 contacts has |f_t| = mu f_n (1e-9)" on_cone
check "  2 ranks = 1 rank (1e-12)" same_state slide1.csv slide2.csv 1e-12
check "  3 ranks = 1 rank (1e-12)" same_state slide1.csv slide3.csv 1e-12
same_multipliers() {
  paste -d, "$1" "$2" | awk -F, 'NR > 1 { e = $5 - $10; if (e < 0) e = -e
      s = $5 < 0 ? -$5 : $5; if (s > m) m = s; if (e > w) w = e; n++ }
    END { exit !(n == 540 && w <= 1e-10 * m) }'
}
# (W's columns come from the direct solver's factorization of each partition: the same to
# rounding, not to the bit.)
check "  its multipliers on 2 and 3 ranks = on 1 (1e-10 of the largest)" \
  eval 'same_multipliers slide1.lambda slide2.lambda && same_multipliers slide1.lambda slide3.lambda'
# A checkpoint at step 10 and a restart to 20 end where the uninterrupted run does: the contact
# forces travel in the checkpoint (J^T f, from which f = J J^T f: each contact's rows n, -t, -s
# are orthonormal on its own node), and the multipliers CSV keeps its rows through step 10.
restarted() {
  mpi_command 2 "$EXE"
  timeout 120 "${MPI_COMMAND[@]}" --scene slide.scn --solver.steps=10 --output.checkpoint=ck/slide \
    --output.checkpoint-every=10 --output.multipliers=restarted.lambda --quiet "$FRICTION" \
    > ck.out 2> ck.err &&
    timeout 120 "${MPI_COMMAND[@]}" --scene slide.scn --solver.steps=20 \
      --output.checkpoint=ck/slide --restart=auto --output.final-state=restarted.csv \
      --output.multipliers=restarted.lambda --quiet "$FRICTION" >> ck.out 2>> ck.err &&
    same_state slide2.csv restarted.csv 1e-12 && same_multipliers slide2.lambda restarted.lambda
}
check "a restart from step 10 ends as the run without one (state 1e-12, multipliers 1e-10)" \
  restarted

# Two blocks under one ODE solver, each with its contacts: the group's joined rows (each
# member's own, read through its part of the joined vectors) end each block where it ends alone.
cat > two.scn <<XML
<Node name="root" gravity="8 0 -10" dt="0.01">
  <FreeMotionAnimationLoop/>
  <BlockGaussSeidelConstraintSolver maxIterations="10000" tolerance="1e-13"/>
  <Node name="both">
    <EulerImplicitSolver/>
    <SparseLDLSolver name="ldl"/>
    <Node name="a">
      <RegularGridTopology name="grid" n="3 3 3" min="0 0 0" max="1 1 1"/>
      <MechanicalObject src="@grid"/>
      <UniformMass totalMass="1"/>
      <TetrahedronFEMForceField youngModulus="1e6" poissonRatio="0.3"/>
      <LinearSolverConstraintCorrection linearSolver="@../ldl"/>
    </Node>
    <Node name="b">
      <RegularGridTopology name="grid" n="3 3 3" min="0 5 0" max="1 6 1"/>
      <MechanicalObject src="@grid"/>
      <UniformMass totalMass="1"/>
      <TetrahedronFEMForceField youngModulus="1e6" poissonRatio="0.3"/>
      <LinearSolverConstraintCorrection linearSolver="@../ldl"/>
    </Node>
  </Node>
</Node>
XML
grouped() {
  run two 2 two.scn 20 "--lagrange.unilateral=box -1 -1 -0.01 2 7 0.01 plane 0 0 0 0 0 1 mu 0.5" &&
    { head -1 two.csv | cut -d, -f1-7; grep ',/both/a$' two.csv | cut -d, -f1-7; } > two_a.csv &&
    same_state slide2.csv two_a.csv 1e-10 &&
    grep ',/both/b$' two.csv | awk -F, '{ vx += $5; vz += $7; n++ }
      END { s = vx / n + 0.5 * vz / n - 0.6; if (s < 0) s = -s; exit !(n == 27 && s < 1e-6) }'
}
check "two blocks under one ODE solver slide as one does alone (1e-10)" grouped

# Thrown up at 0.975 from the plane, g = 10, h = 0.01: z_n = 0.00975 n - 0.0005 n (n + 1),
# positive through n = 18 (z_18 = 0.0045: the contacts stay open), negative at 19 (they close).
block "0 0 -10" "$LDL" > thrown.scn
UP="--initial.velocities=$(for i in $(seq 27); do printf '0 0 0.975 '; done)"
CONTACT="--lagrange.unilateral=$BOTTOM plane 0 0 0 0 0 1"
check "the thrown block runs to step 18" run flying 2 thrown.scn 18 "$CONTACT" "$UP"
check "the thrown block runs to step 30" run landed 2 thrown.scn 30 "$CONTACT" "$UP"
free_flight() {
  awk -F, 'FNR > 1 { e = $4 - 0.5 * int($1 / 9) - 0.0045; if (e < 0) e = -e; if (e > w) w = e }
    END { exit !(w < 1e-12) }' flying.csv &&
    awk -F, 'NR > 1 && $5 != 0 { bad = 1 } END { exit bad }' flying.lambda
}
check "open: 18 steps of exact free flight (1e-12), every multiplier 0" free_flight
# Complementarity at step 30, each bottom node's gap z and force f: f >= 0, z >= -1e-12,
# |f z| < 1e-12; the block rests on them (their forces sum to more than 0).
complementary() {
  awk -F, 'NR == FNR { if (FNR > 1 && int($1 / 9) == 0) z[k++] = $4; next }
    FNR > 1 && $1 == 30 { f = $5; g = z[$4]; sum += f
      if (f < 0 || g < -1e-12 || (f * g) ^ 2 > 1e-24) bad = 1; n++ }
    END { exit !(n == 9 && !bad && sum > 0) }' landed.csv landed.lambda
}
check "closed: forces >= 0, gaps >= 0, force x gap = 0 (1e-12)" complementary
# A soft block squeezed to 0.9 of its height on the plane: the contacts push while it expands
# (closed), let go as it jumps (open: every force exactly 0), take it back when it lands (closed
# again), and once it rests their forces sum to its weight's impulse h M g = 0.1 a step.
block "0 0 -10" "$LDL" | sed 's|youngModulus="1e6"|youngModulus="1e3"|' > squeezed.scn
SQUEEZED="--initial.positions=$(for k in 0 1 2; do for j in 0 1 2; do for i in 0 1 2; do
  printf '%s %s %s ' "$(awk -v i=$i 'BEGIN { print 0.5 * i }')" \
    "$(awk -v j=$j 'BEGIN { print 0.5 * j }')" "$(awk -v k=$k 'BEGIN { print 0.45 * k }')"
done; done; done)"
check "a squeezed block on the plane runs 200 steps" \
  run squeezed 2 squeezed.scn 200 "$CONTACT" "$SQUEEZED"
reopens() {
  awk -F, 'NR > 1 { s[$1] += $5; if ($5 < 0) bad = 1 }
    END { phase = 0; changes = 0
      for (i = 1; i <= 200; ++i) { p = s[i] > 0; if (i > 1 && p != last) ++changes; last = p }
      e = s[200] - 0.1; if (e < 0) e = -e
      if (bad || !(s[1] > 0) || changes != 2 || e > 1e-6) {
        printf "  first %g, changes %d, last %.10g\n", s[1], changes, s[200]; exit 1 } }' \
    squeezed.lambda
}
check "  closed, open (forces 0), closed again; at rest the forces sum to h M g (1e-6)" reopens

# Sliding: the top corner (node 26, at (1, 1, 1)) on the segment from (-1, 1, 3) to (3, 1, -1)
# through it; the block hangs from it and the corner slides down the line.
block "0 0 -10" "$LDL" > hanging.scn
for ranks in 1 3; do
  check "a block hanging from a sliding corner runs on $ranks rank(s)" \
    run "sliding$ranks" "$ranks" hanging.scn 30 "--lagrange.sliding=indices 26 on -1 1 3 3 1 -1"
done
# The corner's distance to the line |(P - A) x u| and its travel along it (P - A).u - 2 sqrt 2.
on_line() {
  awk -F, '$1 == 26 { px = $2 + 1; py = $3 - 1; pz = $4 - 3; u = sqrt(0.5)
      cx = py * -u; cy = pz * u - px * -u; cz = -py * u; d = sqrt(cx * cx + cy * cy + cz * cz)
      t = (px - pz) * u - 2 * sqrt(2)
      if (d > 1e-9 || t < 1e-3) { print "  distance " d ", travel " t; exit 1 } }' sliding1.csv
}
check "the sliding corner stays on its line (1e-9) and slides along it" on_line
check "  3 ranks = 1 rank (1e-12)" same_state sliding1.csv sliding3.csv 1e-12
# The same written as SOFA writes it: a SlidingLagrangianConstraint from the block's node 26 to
# the two points of a MechanicalObject that nothing integrates, the correction a
# GenericConstraintCorrection (its linear solver's: LinearSolverConstraintCorrection's W).
sed -e 's|<LinearSolverConstraintCorrection linearSolver="@ldl"/>|<GenericConstraintCorrection linearSolver="@ldl"/>|' \
  -e 's|</Node>$|</Node><Node name="line"><MechanicalObject name="ends" position="-1 1 3  3 1 -1"/></Node><SlidingLagrangianConstraint object1="@block/dofs" object2="@line/ends" sliding_point="26" axis_1="0" axis_2="1"/>|' \
  hanging.scn | sed '$d' > sofa_sliding.scn
echo '</Node>' >> sofa_sliding.scn
check "SlidingLagrangianConstraint and GenericConstraintCorrection run" \
  run sofa_sliding 3 sofa_sliding.scn 30
check "  = the block hanging from lagrange.sliding (1e-12)" \
  same_state sliding3.csv sofa_sliding.csv 1e-12

# SOFA's other constraint solvers on a held block (its bottom held by a FixedLagrangianConstraint
# of 27 rows): UnbuiltGaussSeidelConstraintSolver (the sweeps from zero forces) and
# NNCGConstraintSolver (accelerated sweeps) reach the block Gauss-Seidel's answer.
held() {
  cat <<XML
<Node name="root" gravity="3 0 -10" dt="0.01">
  <FreeMotionAnimationLoop/>
  <$1 maxIterations="100000" tolerance="1e-13"/>
  <Node name="block">
    <EulerImplicitSolver/>
    <SparseLDLSolver name="ldl"/>
    <RegularGridTopology name="grid" n="3 3 3" min="0 0 0" max="1 1 1"/>
    <MechanicalObject name="dofs" src="@grid"/>
    <UniformMass totalMass="1"/>
    <TetrahedronFEMForceField youngModulus="1e3" poissonRatio="0.3"/>
    <BoxROI name="bottom" box="-1 -1 -0.01 2 2 0.01"/>
    <FixedLagrangianConstraint indices="@bottom.indices"/>
    $LDL
  </Node>
</Node>
XML
}
for solver in BlockGaussSeidel UnbuiltGaussSeidel NNCG; do
  held "${solver}ConstraintSolver" > "$solver.scn"
  check "${solver}ConstraintSolver runs" run "$solver" 2 "$solver.scn" 10
done
check "  UnbuiltGaussSeidelConstraintSolver = BlockGaussSeidelConstraintSolver (1e-10)" \
  same_state BlockGaussSeidel.csv UnbuiltGaussSeidel.csv 1e-10
check "  NNCGConstraintSolver = BlockGaussSeidelConstraintSolver (1e-10)" \
  same_state BlockGaussSeidel.csv NNCG.csv 1e-10
# BlockGaussSeidelConstraintSolver useSVDForRegularization: the term only on the rows of W's null
# space. Under an UncoupledConstraintCorrection W = h c J J^T: node 0 and node 2 held once each
# give W = h c I, no null space, and the run is the unregularized one to the bit (the plain term
# changes it); node 0 held twice gives two sets of rows that work against each other, which
# share its force equally (the Gauss-Seidel alone gives it all to the first). On 1 rank: runs
# on several differ in the last bits from one to the next (the direct solver's parallel sums).
svd_scene() {
  held BlockGaussSeidelConstraintSolver |
    sed -e "s|<FixedLagrangianConstraint indices=\"@bottom.indices\"/>|<FixedLagrangianConstraint indices=\"$1\"/>|" \
      -e "s|tolerance=\"1e-13\"/>|tolerance=\"1e-13\" $2/>|" \
      -e 's|<LinearSolverConstraintCorrection linearSolver="@ldl"/>|<UncoupledConstraintCorrection defaultCompliance="0.01"/>|'
}
svd_scene "0 2" '' > svd_none.scn
svd_scene "0 2" 'regularizationTerm="0.01" useSVDForRegularization="true"' > svd_full.scn
svd_scene "0 2" 'regularizationTerm="0.01"' > svd_plain.scn
svd_scene "0 0 2" 'regularizationTerm="0.01" useSVDForRegularization="true"' > svd_twice.scn
for name in svd_none svd_full svd_plain svd_twice; do
  check "$name.scn runs" run "$name" 1 "$name.scn" 5
done
check "  no null space: the SVD regularization changes nothing (bit for bit)" \
  cmp -s svd_none.csv svd_full.csv
check "  the plain regularization does change it" eval '! cmp -s svd_none.csv svd_plain.csv'
shared() {
  awk -F, 'NR > 1 && $1 == 5 { f[$4] = $5 }
    END { for (r = 0; r < 3; ++r) { e = f[r] - f[r + 3]; if (e < 0) e = -e
        m = f[r] < 0 ? -f[r] : f[r]; if (e > 1e-8 * m || m == 0) exit 1 } }' svd_twice.lambda
}
check "  node 0 held twice: both its rows' forces equal (1e-8)" shared

# SOFA master removed GenericConstraintSolver (v25.12): an older scene's is read as the component
# that replaced its resolutionMethod, with a warning (ProjectedGaussSeidel, the default: the block
# Gauss-Seidel); its NNCG method is refused, naming NNCGConstraintSolver.
held GenericConstraintSolver > generic_pgs.scn
check "GenericConstraintSolver runs" run generic_pgs 2 generic_pgs.scn 10
check "  as BlockGaussSeidelConstraintSolver (1e-10)" same_state BlockGaussSeidel.csv generic_pgs.csv 1e-10
sed 's|<NNCGConstraintSolver |<GenericConstraintSolver resolutionMethod="NonsmoothNonlinearConjugateGradient" |' \
  NNCG.scn > generic.scn
check "  with resolutionMethod NNCG refused, naming NNCGConstraintSolver" \
  refused 'generic.scn:3: GenericConstraintSolver: resolutionMethod.*write NNCGConstraintSolver' \
  2 "$EXE" --scene generic.scn --solver.steps=1
echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
