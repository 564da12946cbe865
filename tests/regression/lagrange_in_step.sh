#!/usr/bin/env bash
# SOFA's EulerImplicitSolver solveConstraint under DefaultAnimationLoop (lagrange.in-step): the
# step calls the constraint solver on v_{n+1} (velocity violation, W = J A^-1 J^T, v corrected),
# then on x_{n+1} = x_n + h v_{n+1} (position violation, W = h J A^-1 J^T, x corrected), against
# hand values. A cube of 2 x 2 x 2 nodes, no force field, every node of mass m = 0.5, gravity
# g = -10 in z, h = 0.01, A = M:
# - the free nodes fall freely: after N steps v = N h g, z = z_0 + h^2 g N (N + 1) / 2;
# - node 0 under a FixedLagrangianConstraint: its velocity violation is SOFA's position one
#   (x_n - x_rest = 0), so the velocity problem leaves v alone and the position problem puts x
#   back: x stays at rest while v = N h g, as in SOFA (a FreeMotionAnimationLoop would give 0);
# - node 1 held by a BilateralLagrangianConstraint to the fixed point q = (1, 0, 0.5): the
#   velocity problem makes (q - x_n) / h - v = 0, so after step 1 x = q and v = (0, 0, 50), after
#   step 2 x = q and v = 0;
# - the same on 1, 2 and 3 ranks; with an elastic cube node 1 is still held at q with v = 0;
# - unilateral contacts with solveConstraint, and solveConstraint under a
#   FreeMotionAnimationLoop, are refused in one line.
# Usage: lagrange_in_step.sh <euler-implicit> <meshes dir>.
set -uo pipefail
RANKS=3  # MPI ranks per run at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
here=$(dirname "$(realpath "${BASH_SOURCE[0]}")")
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$here/../common/mpi_launch.sh"
# shellcheck source=SCRIPTDIR/../common/checks.sh
source "$here/../common/checks.sh"
EXE=$(realpath "$1")
launch_in_scratch "$RANKS" "$EXE"

# cube LOOP SOLVER_ATTRIBUTES EXTRA > FILE
cube() {
  cat <<XML
<Node name="root" gravity="0 0 -10" dt="0.01">
  <$1/>
  <Node name="fixed">
    <MechanicalObject name="points" position="1 0 0.5"/>
  </Node>
  <Node name="cube">
    <EulerImplicitSolver $2/>
    <SparseLDLSolver name="ldl"/>
    <BlockGaussSeidelConstraintSolver maxIterations="1000" tolerance="1e-14"/>
    <RegularGridTopology name="grid" n="2 2 2" min="0 0 0" max="1 1 1"/>
    <MechanicalObject name="dofs" src="@grid"/>
    <UniformMass vertexMass="0.5"/>
    <FixedLagrangianConstraint indices="0"/>
    <BilateralLagrangianConstraint object1="@dofs" object2="@../fixed/points" first_point="1"
                                   second_point="0"/>
    <LinearSolverConstraintCorrection linearSolver="@ldl"/>
    ${3:-}
  </Node>
</Node>
XML
}

# run NAME RANKS SCENE STEPS: the final state in NAME.csv.
run() {
  local status=0
  mpi_command "$2" "$EXE"
  timeout 120 "${MPI_COMMAND[@]}" --scene "$3" --solver.steps="$4" --output.final-state="$1.csv" \
    --quiet > "$1.out" 2> "$1.err" || status=$?
  [ "$status" -eq 0 ] || sed 's/^/     | /' "$1.err"
  return "$status"
}

# hand N FILE: every node against the values above after N steps (1e-12 absolute).
hand() {
  awk -F, -v n="$1" 'BEGIN { h = 0.01; g = -10 }
    function near(a, b) { d = a - b; return d < 1e-12 && d > -1e-12 }
    FNR == 1 { next }
    { id = $1; x0 = id % 2; y0 = int(id / 2) % 2; z0 = int(id / 4)
      if (id == 0) { ex = 0; ey = 0; ez = 0; evz = n * h * g }
      else if (id == 1) { ex = 1; ey = 0; ez = 0.5; evz = n == 1 ? 50 : 0 }
      else { ex = x0; ey = y0; ez = z0 + h * h * g * n * (n + 1) / 2; evz = n * h * g }
      if (!(near($2, ex) && near($3, ey) && near($4, ez) && near($5, 0) && near($6, 0) &&
            near($7, evz))) { print "  node " id ": " $0 " expected z " ez " vz " evz; bad = 1 }
      count++ }
    END { exit !(count == 8 && !bad) }' "$2"
}

cube DefaultAnimationLoop 'solveConstraint="true"' > instep.scn
check "solveConstraint runs 1 step" run one 1 instep.scn 1
check "  step 1: node 1 at q with v = (q - x_0) / h, node 0 at rest, free fall" hand 1 one.csv
for ranks in 1 2 3; do
  check "solveConstraint runs 5 steps on $ranks rank(s)" run "five$ranks" "$ranks" instep.scn 5
done
check "  step 5: node 1 at q, v = 0; node 0 at rest, v = 5 h g; free fall" hand 5 five1.csv
check "  2 ranks = 1 rank (1e-14)" same_state five1.csv five2.csv 1e-14
check "  3 ranks = 1 rank (1e-14)" same_state five1.csv five3.csv 1e-14

# FreeMotionAnimationLoop finds its constraint solver below it; the importer reads the root's.
cube FreeMotionAnimationLoop '' | awk '/<BlockGaussSeidel/ { next } { print }
  /<FreeMotionAnimationLoop/ { print "<BlockGaussSeidelConstraintSolver tolerance=\"1e-14\"/>" }' \
  > freemotion.scn
check "the same constraints after a free motion run" run free 2 freemotion.scn 5
fixed_still() { awk -F, '$1 == 0 { exit !($7 ^ 2 < 1e-24) }' free.csv; }
check "  there node 0 has v = 0: another answer than solveConstraint's" fixed_still

cube DefaultAnimationLoop 'solveConstraint="true"' \
  '<TetrahedronFEMForceField youngModulus="1e4" poissonRatio="0.3"/>' > elastic.scn
check "an elastic cube with solveConstraint runs 10 steps on 2 ranks" run elastic 2 elastic.scn 10
held() {
  awk -F, '$1 == 1 { exit !(($2 - 1) ^ 2 + $3 ^ 2 + ($4 - 0.5) ^ 2 < 1e-24 &&
                            $5 ^ 2 + $6 ^ 2 + $7 ^ 2 < 1e-20) }
           $1 == 0 { if ($2 ^ 2 + $3 ^ 2 + $4 ^ 2 > 1e-24) exit 1 }' elastic.csv
}
check "  node 1 at q with v = 0 (1e-10), node 0 at rest (1e-12)" held

cube FreeMotionAnimationLoop 'solveConstraint="true"' > both.scn
check "solveConstraint under a FreeMotionAnimationLoop is refused" \
  refused 'both.scn:7: EulerImplicitSolver: solveConstraint.*FreeMotionAnimationLoop' \
  2 "$EXE" --scene both.scn --solver.steps=1
check "unilateral contacts with solveConstraint are refused" \
  refused 'lagrange.unilateral with lagrange.in-step' 2 "$EXE" --scene instep.scn --solver.steps=1 \
  "--lagrange.unilateral=indices 2 plane 0 0 -1 0 0 1"
echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
