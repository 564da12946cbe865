#!/usr/bin/env bash
# SOFA's BilateralLagrangianConstraint (model/bilateral_lagrangian_constraint.cpp) from SOFA
# scenes: a beam cut from a RegularGridTopology whose x = 0 face is held to the points of a
# MechanicalObject that nothing integrates (SOFA's "target" objects: no correction moves them).
#  - Held to a copy of its own face, the bilateral rows are the fixed rows with the sign -1, so
#    the run must end where the FixedLagrangianConstraint run ends (the multipliers change sign,
#    W and the corrections do not), to the Gauss-Seidel's tolerance.
#  - Held to points 0.05 above the face: the face's nodes end at those points (1e-10), the same
#    on 1, 2 and 3 ranks (1e-12).
#  - Over-constrained (the face held to two targets at different places, as SOFA's
#    BilateralLagrangianConstraint_with_regularization_unsolvable.scn does): the Gauss-Seidel
#    runs to maxIterations at every step, as SOFA's does, and the run ends; with the correction's
#    regularizationTerm it converges.
#  - A second object integrated by an ODE solver is refused with one line.
# Usage: sofa_bilateral.sh <euler-implicit> <meshes dir>.
set -uo pipefail
RANKS=3  # MPI ranks per run at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
here=$(dirname "$(realpath "${BASH_SOURCE[0]}")")
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$here/../common/mpi_launch.sh"
# shellcheck source=SCRIPTDIR/../common/checks.sh
source "$here/../common/checks.sh"
EXE=$(realpath "$1")
launch_in_scratch "$RANKS" "$EXE"

CORRECTION='<LinearSolverConstraintCorrection linearSolver="@ldl"/>'
# scene HOLD TARGETS [CORRECTION] > FILE: the beam, its holding components and the targets.
scene() {
  cat <<XML
<Node name="root" gravity="0 -9.81 0" dt="0.02">
  <FreeMotionAnimationLoop/>
  <BlockGaussSeidelConstraintSolver maxIterations="${GS_ITERATIONS:-1000}" tolerance="1e-12"/>
  $2
  <Node name="beam">
    <EulerImplicitSolver rayleighMass="0.05" rayleighStiffness="0.02"/>
    <SparseLDLSolver name="ldl"/>
    <RegularGridTopology name="grid" n="7 3 3" min="0 0 0" max="0.6 0.2 0.2"/>
    <MechanicalObject name="dofs" src="@grid"/>
    <UniformMass totalMass="0.5"/>
    <TetrahedronFEMForceField youngModulus="2e4" poissonRatio="0.3"/>
    <BoxROI name="face" box="-0.01 -0.01 -0.01 0.01 0.21 0.21"/>
    ${3:-$CORRECTION}
  </Node>
  $1
</Node>
XML
}
# target NAME X: a MechanicalObject nothing integrates, a 1 x 3 x 3 grid at x = X (a face).
target() {
  echo "<Node name=\"$1\"><RegularGridTopology name=\"g\" n=\"1 3 3\" min=\"$2 0 0\" max=\"$2 0.2 0.2\"/><MechanicalObject name=\"mo\"/></Node>"
}
# bilateral NAME: the beam's face to all the target's points.
bilateral() {
  echo "<BilateralLagrangianConstraint object1=\"@beam/dofs\" first_point=\"@beam/face.indices\" object2=\"@$1/mo\" second_point=\"0 1 2 3 4 5 6 7 8\"/>"
}
scene '' '' '<FixedLagrangianConstraint indices="@face.indices"/>
    <LinearSolverConstraintCorrection linearSolver="@ldl"/>' > fixed.scn
scene "$(bilateral copy)" "$(target copy 0)" > copy.scn
# 0.05 above: a 1 x 3 x 3 grid's points lie at the midpoint in x, at min in z (setPos).
echo "<Node name=\"up\"><MechanicalObject name=\"mo\" position=\"0 0 0.05 0 0.1 0.05 0 0.2 0.05 0 0 0.15 0 0.1 0.15 0 0.2 0.15 0 0 0.25 0 0.1 0.25 0 0.2 0.25\"/></Node>" > up.xml
scene "$(bilateral up)" "$(cat up.xml)" > up.scn

# run NAME RANKS SCENE: 25 steps, the final state in NAME.csv and the history in NAME.hist.
run() {
  mpi_command "$2" "$EXE"
  local status=0
  timeout 120 "${MPI_COMMAND[@]}" --scene "$3" --solver.steps=25 --output.final-state="$1.csv" \
    --output.history="$1.hist" --quiet > "$1.out" 2> "$1.err" || status=$?
  [ "$status" -eq 0 ] || sed 's/^/     | /' "$1.err"
  return "$status"
}
check "the beam held by a FixedLagrangianConstraint runs" run fixed 2 fixed.scn
check "the beam held to a copy of its face runs" run copy 2 copy.scn
check "held to a copy of its face = held by FixedLagrangianConstraint (1e-9)" \
  same_state fixed.csv copy.csv 1e-9
for ranks in 1 2 3; do
  check "the beam held to points above its face runs on $ranks rank(s)" run "up$ranks" "$ranks" up.scn
done
check "2 ranks = 1 rank (1e-12)" same_state up1.csv up2.csv 1e-12
check "3 ranks = 1 rank (1e-12)" same_state up1.csv up3.csv 1e-12
# The face's nodes (x = 0) at the points 0.05 above their rest positions to 1e-10.
at_points() {
  awk -F, 'FNR > 1 && $1 % 7 == 0 {
      j = int($1 / 7) % 3; k = int($1 / 21)
      e = $2; if (e < 0) e = -e; if (e > w) w = e
      e = $3 - 0.1 * j; if (e < 0) e = -e; if (e > w) w = e
      e = $4 - 0.1 * k - 0.05; if (e < 0) e = -e; if (e > w) w = e; n++ }
    END { if (n != 9 || w > 1e-10) { print "  " n " nodes, off by " w; exit 1 } }' "$1"
}
check "the face's 9 nodes are at the target's points (1e-10)" at_points up2.csv

# Over-constrained: the face to its copy and to the points above. Columns 11-12 of the history:
# constraint_rows, constraint_iterations.
GS_ITERATIONS=200 scene "$(bilateral copy) $(bilateral up)" "$(target copy 0) $(cat up.xml)" \
  > unsolvable.scn
GS_ITERATIONS=200 scene "$(bilateral copy) $(bilateral up)" "$(target copy 0) $(cat up.xml)" \
  '<LinearSolverConstraintCorrection linearSolver="@ldl" regularizationTerm="1"/>' \
  > regularized.scn
iterations() {
  awk -F, -v want="$2" 'NR > 1 { ok = $11 == 54 && (want == "all" ? $12 == 200 : $12 < 200); n++
      if (!ok) { print "  step " $1 ": " $11 " rows, " $12 " iterations"; exit 1 } }
    END { exit !(n == 25) }' "$1"
}
check "the over-constrained beam runs to its end" run unsolvable 2 unsolvable.scn
check "  its Gauss-Seidel runs to maxIterations at every step, as SOFA's" \
  iterations unsolvable.hist all
check "regularized (regularizationTerm 1) it runs" run regularized 2 regularized.scn
check "  and its Gauss-Seidel converges" iterations regularized.hist some

# refused SCENE TEXT...: exit non-zero, one error line, holding every TEXT.
refused() {
  local file=$1 status=0
  shift
  mpi_command 2 "$EXE"
  timeout 60 "${MPI_COMMAND[@]}" --scene "$file" --solver.steps=1 --quiet > bad.out 2> bad.err ||
    status=$?
  [ "$status" -ne 0 ] && [ "$(grep -c '^euler-implicit: error: ' bad.err)" -eq 1 ] || return 1
  for text in "$@"; do grep -q -- "$text" bad.err || { sed 's/^/     | /' bad.err; return 1; }; done
}
scene "$(bilateral other)" '<Node name="other"><EulerImplicitSolver/><SparseLDLSolver/><RegularGridTopology name="g" n="2 3 3" min="-0.1 0 0" max="0 0.2 0.2"/><MechanicalObject name="mo"/><UniformMass totalMass="1"/><TetrahedronFEMForceField/></Node>' \
  > two_solvers.scn
check "a second object integrated by another ODE solver is refused" \
  refused two_solvers.scn "BilateralLagrangianConstraint" "another ODE solver" "not supported yet"
scene "$(bilateral copy | sed 's/first_point/load="0.5" first_point/')" "$(target copy 0)" > load.scn
check "a load factor is refused" refused load.scn "load" "not supported"
echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
