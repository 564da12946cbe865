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
# - LCPConstraintSolver on explicit contacts against closed forms (below);
#   PrecomputedConstraintCorrection refused by name. The outputs show the constraint forces
#   J^T lambda / h per node: on a resting contact node (-m gx', 0, m g), gx' the tangent force's
#   share (gx sticking, mu g sliding), zero on the others, in the XDMF and the ParaView series.
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
# LCPConstraintSolver (lagrange.solver = lcp) on contacts given explicitly: 4 nodes of mass
# m = 0.5 resting on the plane z = 0 (a cube of 2 x 2 x 2 nodes, no force field: the top ones
# fly), gravity (gx, 0, -10), h = 0.01. Each contact carries h m g = 0.05 (the impulse of its
# node's weight over a step). The solver's mu = 0.5 replaces the contacts' own 0.9: gx = 3 sticks
# (|f_t| = h m gx = 0.015, v = 0), gx = 8 slides (|f_t| = mu f_n = 0.025, after N = 3 steps
# vx = N h (gx - mu g) = 0.09, where mu 0.9 would stick); with mu = 0 (one row a contact) it
# slides freely, vx = N h gx = 0.24, f_n still 0.05.
cube() {
  cat <<XML
<Node name="root" gravity="$1 0 -10" dt="0.01">
  <FreeMotionAnimationLoop/>
  <LCPConstraintSolver maxIt="1000" tolerance="1e-14" mu="$2"/>
  <Node name="cube">
    <EulerImplicitSolver/>
    <SparseLDLSolver name="ldl"/>
    <RegularGridTopology name="grid" n="2 2 2" min="0 0 0" max="1 1 1"/>
    <MechanicalObject name="dofs" src="@grid"/>
    <UniformMass vertexMass="0.5"/>
    <LinearSolverConstraintCorrection linearSolver="@ldl"/>
  </Node>
</Node>
XML
}
# lcp NAME RANKS SCENE CONTACTS: 3 steps, the state in NAME.csv, the multipliers in NAME.lambda,
# the series in NAME.xdmf and NAME.pvd.
lcp() {
  local status=0
  mpi_command "$2" "$EXE"
  timeout 120 "${MPI_COMMAND[@]}" --scene "$3" --solver.steps=3 --output.final-state="$1.csv" \
    --output.multipliers="$1.lambda" --output.xdmf="$1" --output.vtk="$1" \
    "--lagrange.unilateral=indices 0 1 2 3 plane 0 0 0 0 0 1$4" \
    --quiet > "$1.out" 2> "$1.err" || status=$?
  [ "$status" -eq 0 ] || sed 's/^/     | /' "$1.err"
  return "$status"
}
# contacts FILE ROWS FN FT VX: at the last step each contact's normal force FN and tangent norm
# FT (ROWS rows a contact), each bottom node at z = 0 with velocity (VX, 0, 0) (1e-12).
contacts() {
  awk -F, -v rows="$2" -v fn="$3" -v ft="$4" 'NR > 1 && $1 == 3 { r = $4 % rows; f[r] = $5
      if (r == rows - 1) { t = rows == 3 ? sqrt(f[1] ^ 2 + f[2] ^ 2) : 0
        if ((f[0] - fn) ^ 2 > 1e-24 || (t - ft) ^ 2 > 1e-24) { print "  " f[0] " " t; bad = 1 }
        n++ } } END { exit !(n == 4 && !bad) }' "$1.lambda" &&
    awk -F, -v vx="$5" 'FNR > 1 && $1 < 4 { if ($4 ^ 2 + ($5 - vx) ^ 2 + $6 ^ 2 + $7 ^ 2 > 1e-24) {
        print "  node " $0; bad = 1 } } END { exit bad }' "$1.csv"
}
# shown NAME FX: the last step's constraint_force in NAME.h5 (by node id) and in NAME's last
# ParaView step (every point of every piece, ghosts too) is (FX, 0, 5) on nodes 0-3 (m g =
# 0.5 x 10), zero on the others, to 1e-12; before the first step it is zero.
shown() {
  /usr/bin/python3 - "$1" "$2" <<'PY'
import sys
import h5py
import numpy as np
import vtk
from vtk.util.numpy_support import vtk_to_numpy

name, fx = sys.argv[1], float(sys.argv[2])
expected = np.zeros((8, 3))
expected[:4] = [fx, 0, 5]
with h5py.File(name + ".h5", "r") as f:
    last = f["steps/000003/constraint_force"][:]
    first = f["steps/000000/constraint_force"][:]
reader = vtk.vtkXMLPUnstructuredGridReader()
reader.SetFileName(name + "_000003.pvtu")
reader.Update()
grid = reader.GetOutput()
ids = vtk_to_numpy(grid.GetPointData().GetArray("node_id")).astype(int)
pieces = vtk_to_numpy(grid.GetPointData().GetArray("constraint_force"))
bad = [f"xdmf: {last.tolist()}"] if np.abs(last - expected).max() > 1e-12 else []
if np.abs(first).max() != 0:
    bad.append(f"xdmf step 0: {first.tolist()}")
if np.abs(pieces - expected[ids]).max() > 1e-12:
    bad.append(f"vtk: {pieces.tolist()} at nodes {ids.tolist()}")
for line in bad:
    print("  " + line)
sys.exit(1 if bad else 0)
PY
}
cube 3 0.5 > stick.scn
cube 8 0.5 > slide.scn
cube 8 0 > frictionless.scn
check "LCPConstraintSolver, friction, gx = 3 runs" lcp stick 1 stick.scn " mu 0.9"
check "  sticks: f_n = h m g, |f_t| = h m gx, v = 0" contacts stick 3 0.05 0.015 0
check "  the outputs show J^T f / h = (-m gx, 0, m g) on the contacts" shown stick -1.5
for ranks in 1 2 3; do
  check "LCPConstraintSolver, friction, gx = 8 runs on $ranks rank(s)" \
    lcp "slide$ranks" "$ranks" slide.scn " mu 0.9"
done
check "  slides: f_n = h m g, |f_t| = mu f_n, vx = N h (gx - mu g)" contacts slide1 3 0.05 0.025 0.09
check "  2 ranks = 1 rank (1e-14)" same_state slide1.csv slide2.csv 1e-14
check "  3 ranks = 1 rank (1e-14)" same_state slide1.csv slide3.csv 1e-14
for ranks in 1 3; do
  check "  the outputs show (-mu m g, 0, m g) on the contacts, $ranks rank(s)" \
    shown "slide$ranks" -2.5
done
check "LCPConstraintSolver mu = 0 runs" lcp free 2 frictionless.scn ""
check "  slides freely: f_n = h m g, vx = N h gx" contacts free 1 0.05 0 0.24
check "  mu > 0 on contacts of one row is refused in one line" \
  refused 'LCPConstraintSolver with mu > 0 solves contacts of 3 rows' 2 "$EXE" --scene slide.scn \
  --solver.steps=1 "--lagrange.unilateral=indices 0 1 2 3 plane 0 0 0 0 0 1"

sed 's|<LinearSolverConstraintCorrection linearSolver="@ldl"/>|<PrecomputedConstraintCorrection/>|' \
  bgs.scn > precomputed.scn
check "PrecomputedConstraintCorrection is refused in one line, by name" \
  refused 'precomputed.scn:13: PrecomputedConstraintCorrection: not supported' \
  2 "$EXE" --scene precomputed.scn --solver.steps=1
echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
