#!/usr/bin/env bash
# SOFA's other constraint solvers on a problem whose answer the block Gauss-Seidel gives: a
# beam of 5 x 3 x 3 nodes under gravity, its end x = 0 held by a FixedLagrangianConstraint (27
# bilateral rows), a FreeMotionAnimationLoop and a LinearSolverConstraintCorrection.
# - PreconditionedConjugateResidual (lagrange.solver = preconditioned-conjugate-residual):
#   conjugate residuals on W f = -dfree reach the exact multipliers within m = 27 iterations, so
#   run that far it ends as BlockGaussSeidelConstraintSolver at 1e-14 does, on 1, 2 and 3 ranks;
#   with maxIterations 3 it stops early and ends elsewhere (the test can tell).
# - UnbuiltGaussSeidelConstraintSolver takes `multithreading` (a threading switch SOFA's
#   example scenes give it) and ends as without it, bit for bit.
# Usage: lagrange_solvers.sh <euler-implicit> <meshes dir>.
set -uo pipefail
RANKS=3  # MPI ranks per run at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
here=$(dirname "$(realpath "${BASH_SOURCE[0]}")")
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$here/../common/mpi_launch.sh"
# shellcheck source=SCRIPTDIR/../common/checks.sh
source "$here/../common/checks.sh"
EXE=$(realpath "$1")
launch_in_scratch "$RANKS" "$EXE"

# beam SOLVER > FILE
beam() {
  cat <<XML
<Node name="root" gravity="0 0 -9.81" dt="0.01">
  <FreeMotionAnimationLoop/>
  <$1/>
  <Node name="beam">
    <EulerImplicitSolver rayleighMass="0.1" rayleighStiffness="0.1"/>
    <SparseLDLSolver name="ldl"/>
    <RegularGridTopology name="grid" n="5 3 3" min="0 0 0" max="0.4 0.1 0.1"/>
    <MechanicalObject name="dofs" src="@grid"/>
    <UniformMass totalMass="1"/>
    <TetrahedronFEMForceField youngModulus="6e4" poissonRatio="0.4"/>
    <BoxROI name="end" box="-0.01 -0.01 -0.01 0.001 0.11 0.11"/>
    <FixedLagrangianConstraint indices="@end.indices"/>
    <LinearSolverConstraintCorrection linearSolver="@ldl"/>
  </Node>
</Node>
XML
}

# run NAME RANKS SCENE: 10 steps, the final state in NAME.csv, the history in NAME.hist.
run() {
  local status=0
  mpi_command "$2" "$EXE"
  timeout 120 "${MPI_COMMAND[@]}" --scene "$3" --solver.steps=10 --output.final-state="$1.csv" \
    --output.history="$1.hist" --quiet > "$1.out" 2> "$1.err" || status=$?
  [ "$status" -eq 0 ] || sed 's/^/     | /' "$1.err"
  return "$status"
}

beam 'BlockGaussSeidelConstraintSolver maxIterations="100000" tolerance="1e-14"' > bgs.scn
check "BlockGaussSeidelConstraintSolver at 1e-14 runs" run bgs 2 bgs.scn
# SOFA's stopping test reads one entry of the residual, r_i at iteration i, which can be small
# while others are not (and which one it reads follows the rounding of W, thus the partition):
# a tolerance of 1e-300 lets it run its m iterations.
beam 'PreconditionedConjugateResidual maxIterations="1000" tolerance="1e-300"' > pcr.scn
for ranks in 1 2 3; do
  check "PreconditionedConjugateResidual, m iterations, runs on $ranks rank(s)" \
    run "pcr$ranks" "$ranks" pcr.scn
done
check "  it ends as the block Gauss-Seidel (1e-10)" same_state bgs.csv pcr2.csv 1e-10
check "  1 rank = 2 ranks (1e-12)" same_state pcr2.csv pcr1.csv 1e-12
check "  3 ranks = 2 ranks (1e-12)" same_state pcr2.csv pcr3.csv 1e-12
# At most m = 27 iterations a step, and more than 1.
iterations() { awk -F, 'NR > 1 && ($12 > 27 || $12 < 2) { bad = 1 } END { exit bad }' pcr2.hist; }
check "  at most m = 27 iterations a step" iterations
beam 'PreconditionedConjugateResidual maxIterations="3" tolerance="1e-14"' > pcr_short.scn
check "PreconditionedConjugateResidual with maxIterations 3 runs" run pcr_short 2 pcr_short.scn
check "  and ends elsewhere" eval '! same_state bgs.csv pcr_short.csv 1e-10 > /dev/null'

beam 'UnbuiltGaussSeidelConstraintSolver tolerance="1e-10"' > ugs.scn
beam 'UnbuiltGaussSeidelConstraintSolver tolerance="1e-10" multithreading="true"' > ugs_mt.scn
# One rank: MUMPS on several may sum in another order from one run to the next.
check "UnbuiltGaussSeidelConstraintSolver runs on 1 rank" run ugs 1 ugs.scn
check "  with multithreading too" run ugs_mt 1 ugs_mt.scn
check "  the same bits" cmp -s ugs.csv ugs_mt.csv
echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
