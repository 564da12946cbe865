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
#  - Two bodies under one ODE solver glued face to face end where the beam of one mesh ends.
#  - A second object integrated by another ODE solver is refused with one line.
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

# Two bodies under one ODE solver (one solver.group), the end face of the first glued to the start
# face of the second, the first held at x = 0: with hexahedra and a mass lumped from the density,
# the glued nodes' masses add up to the shared node's, so the two bodies are the beam of twice
# the length in one mesh (the multipliers solve the KKT system of the merged unknowns); with the
# Gauss-Seidel converged to 1e-16 they end where that beam ends, to 1e-12.
piece() {  # NAME XMIN XMAX BOXES...
  echo "<Node name=\"$1\"><RegularGridTopology name=\"grid\" n=\"7 3 3\" min=\"$2 0 0\" max=\"$3 0.2 0.2\"/><MechanicalObject name=\"dofs\" src=\"@grid\"/><DiagonalMass massDensity=\"1\"/><HexahedronFEMForceField youngModulus=\"2e4\" poissonRatio=\"0.3\"/>$4<LinearSolverConstraintCorrection linearSolver=\"@../ldl\"/></Node>"
}
GLUE_GS='<BlockGaussSeidelConstraintSolver maxIterations="100000" tolerance="1e-16"/>'
cat > glued.scn <<XML
<Node name="root" gravity="0 -9.81 0" dt="0.02">
  <FreeMotionAnimationLoop/>
  $GLUE_GS
  <Node name="both">
    <EulerImplicitSolver rayleighMass="0.05" rayleighStiffness="0.02"/>
    <SparseLDLSolver name="ldl"/>
    $(piece a 0 0.6 '<BoxROI name="start" box="-0.01 -0.01 -0.01 0.01 0.21 0.21"/><BoxROI name="end" box="0.59 -0.01 -0.01 0.61 0.21 0.21"/><FixedLagrangianConstraint indices="@start.indices"/>')
    $(piece b 0.6 1.2 '<BoxROI name="start" box="0.59 -0.01 -0.01 0.61 0.21 0.21"/>')
  </Node>
  <BilateralLagrangianConstraint object1="@both/a/dofs" first_point="@both/a/end.indices"
    object2="@both/b/dofs" second_point="@both/b/start.indices"/>
</Node>
XML
cat > single.scn <<XML
<Node name="root" gravity="0 -9.81 0" dt="0.02">
  <FreeMotionAnimationLoop/>
  $GLUE_GS
  <Node name="beam">
    <EulerImplicitSolver rayleighMass="0.05" rayleighStiffness="0.02"/>
    <SparseLDLSolver name="ldl"/>
    <RegularGridTopology name="grid" n="13 3 3" min="0 0 0" max="1.2 0.2 0.2"/>
    <MechanicalObject name="dofs" src="@grid"/>
    <DiagonalMass massDensity="1"/>
    <HexahedronFEMForceField youngModulus="2e4" poissonRatio="0.3"/>
    <BoxROI name="start" box="-0.01 -0.01 -0.01 0.01 0.21 0.21"/>
    <FixedLagrangianConstraint indices="@start.indices"/>
    <LinearSolverConstraintCorrection linearSolver="@ldl"/>
  </Node>
</Node>
XML
check "the single beam runs" run single 2 single.scn
for ranks in 1 2 3; do
  check "two bodies under one ODE solver, glued, run on $ranks rank(s)" run "glued$ranks" "$ranks" glued.scn
done
check "  2 ranks = 1 rank (1e-12)" same_state glued1.csv glued2.csv 1e-12
check "  3 ranks = 1 rank (1e-12)" same_state glued1.csv glued3.csv 1e-12
# glued.csv's node i + 7 r of /both/a is the single beam's i + 13 r, of /both/b its 6 + i + 13 r.
as_single() {
  awk -F, 'NR == FNR { if (FNR > 1) for (c = 2; c <= 7; ++c) s[$1, c] = $c; next }
    FNR > 1 { id = ($8 == "/both/b" ? 6 : 0) + $1 % 7 + 13 * int($1 / 7)
      for (c = 2; c <= 7; ++c) { d = $c - s[id, c]; if (d < 0) d = -d; if (d > m) m = d
        v = s[id, c] < 0 ? -s[id, c] : s[id, c]; if (v > big) big = v }; n++ }
    END { if (n != 126 || m > 1e-12 * big) { print "  " n " nodes, differ by " m " of " big; exit 1 } }' "$1" "$2"
}
for ranks in 1 2 3; do
  check "  on $ranks rank(s) they end where the beam of one mesh ends (1e-12)" \
    as_single single.csv "glued$ranks.csv"
done

scene "$(bilateral other)" '<Node name="other"><EulerImplicitSolver/><SparseLDLSolver/><RegularGridTopology name="g" n="2 3 3" min="-0.1 0 0" max="0 0.2 0.2"/><MechanicalObject name="mo"/><UniformMass totalMass="1"/><TetrahedronFEMForceField/></Node>' \
  > two_solvers.scn
check "a second object integrated by another ODE solver is refused" \
  refused "BilateralLagrangianConstraint.*another ODE solver than object1.*not supported yet" \
    2 "$EXE" --scene two_solvers.scn --solver.steps=1
scene "$(bilateral copy | sed 's/first_point/load="0.5" first_point/')" "$(target copy 0)" > load.scn
check "a load factor is refused" \
  refused "load.*not supported" 2 "$EXE" --scene load.scn --solver.steps=1
# Pairs with another body's nodes outside a solver.group: one line.
alone() {
  local status=0
  mpi_command 2 "$EXE"
  timeout 60 "${MPI_COMMAND[@]}" --mesh.box-cells=2,1,1 --solver.steps=1 --lagrange.solver=block-gauss-seidel \
    --lagrange.correction=linear-solver "--lagrange.bilateral=indices 0 to body /b indices 1" \
    --quiet > alone.out 2> alone.err || status=$?
  [ "$status" -ne 0 ] && [ "$(grep -c '^euler-implicit: error: ' alone.err)" -eq 1 ] &&
    grep -q "need both bodies in one solver.group" alone.err
}
check "pairs with another body's nodes outside a solver.group are refused" alone
echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
