#!/usr/bin/env bash
# SOFA's Lagrangian constraints under FreeMotionAnimationLoop (ode/free_motion_step.cpp): a beam
# cut from a RegularGridTopology, held at its x = 0 face by a FixedLagrangianConstraint with a
# LinearSolverConstraintCorrection and a BlockGaussSeidelConstraintSolver. Holding the face's
# nodes at their rest positions by multipliers solves the same linearized step as removing their
# unknowns (the KKT system of J x_{n+1} = x_rest on unit rows is the projected system), so the run
# must match the same beam under a FixedProjectiveConstraint to the Gauss-Seidel's tolerance; on
# 1, 2 and 3 ranks alike; the held nodes at rest; the history's constraint columns filled. A
# constraint correction alone under DefaultAnimationLoop, which no constraint solver calls, leaves
# the projected beam's run bit for bit. Then every refusal: one error line naming the component.
# Usage: sofa_lagrangian.sh <euler-implicit> <meshes dir>.
set -uo pipefail
RANKS=3  # MPI ranks per run at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
here=$(dirname "$(realpath "${BASH_SOURCE[0]}")")
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$here/../common/mpi_launch.sh"
# shellcheck source=SCRIPTDIR/../common/checks.sh
source "$here/../common/checks.sh"
EXE=$(realpath "$1")
launch_in_scratch "$RANKS" "$EXE"

# scene LOOP SOLVER HOLD CORRECTION > FILE: the beam with the given loop, constraint solver, the
# holding component and its correction.
scene() {
  cat <<XML
<Node name="root" gravity="0 -9.81 0" dt="0.02">
  $1
  $2
  <Node name="beam">
    <EulerImplicitSolver rayleighMass="0.05" rayleighStiffness="0.02"/>
    <SparseLDLSolver name="ldl"/>
    <RegularGridTopology name="grid" n="7 3 3" min="0 0 0" max="0.6 0.2 0.2"/>
    <MechanicalObject name="dofs" src="@grid"/>
    <UniformMass totalMass="0.5"/>
    <TetrahedronFEMForceField youngModulus="2e4" poissonRatio="0.3"/>
    <BoxROI name="face" box="-0.01 -0.01 -0.01 0.01 0.21 0.21"/>
    $3
    $4
  </Node>
</Node>
XML
}
LOOP='<FreeMotionAnimationLoop/>'
GS='<BlockGaussSeidelConstraintSolver maxIterations="1000" tolerance="1e-12"/>'
HOLD='<FixedLagrangianConstraint indices="@face.indices"/>'
CORRECTION='<LinearSolverConstraintCorrection linearSolver="@ldl"/>'
scene "$LOOP" "$GS" "$HOLD" "$CORRECTION" > held.scn
scene '<DefaultAnimationLoop/>' '' '<FixedProjectiveConstraint indices="@face.indices"/>' '' \
  > projected.scn

# run NAME RANKS SCENE: 25 steps, the final state in NAME.csv and the history in NAME.hist.
run() {
  mpi_command "$2" "$EXE"
  local status=0
  timeout 120 "${MPI_COMMAND[@]}" --scene "$3" --solver.steps=25 --output.final-state="$1.csv" \
    --output.history="$1.hist" --quiet > "$1.out" 2> "$1.err" || status=$?
  [ "$status" -eq 0 ] || sed 's/^/     | /' "$1.err"
  return "$status"
}
check "the projected beam runs" run projected 1 projected.scn
for ranks in 1 2 3; do
  check "the held beam runs on $ranks rank(s)" run "held$ranks" "$ranks" held.scn
done
check "held by multipliers = held by projection (to 1e-9 of the largest value)" \
  same_state projected.csv held1.csv 1e-9
check "2 ranks = 1 rank (1e-12)" same_state held1.csv held2.csv 1e-12
check "3 ranks = 1 rank (1e-12)" same_state held1.csv held3.csv 1e-12
# The face's nodes (x = 0) at their rest positions to 1e-10.
at_rest() {
  awk -F, 'FNR > 1 && $1 % 7 == 0 {
      j = int($1 / 7) % 3; k = int($1 / 21)
      e = $2; if (e < 0) e = -e; if (e > w) w = e
      e = $3 - 0.1 * j; if (e < 0) e = -e; if (e > w) w = e
      e = $4 - 0.1 * k; if (e < 0) e = -e; if (e > w) w = e; n++ }
    END { if (n != 9 || w > 1e-10) { print "  " n " nodes, off by " w; exit 1 } }' "$1"
}
check "the held face's 9 nodes stay at rest (1e-10)" at_rest held2.csv
# Columns 11-13: constraint_rows, constraint_iterations, constraint_error.
history_ok() {
  awk -F, 'NR == 1 { ok = $11 == "constraint_rows" && $13 == "constraint_error"; next }
    { ok = ok && $11 == 27 && $12 >= 1 && $13 != "" && $13 + 0 < 27e-12; n++ }
    END { exit !(ok && n == 25) }' "$1"
}
check "the history has 27 constraint rows, iterations and an error below tolerance x rows" \
  history_ok held2.hist

# A checkpoint at step 12 and a restart to 25 end where the uninterrupted run does: the
# multipliers travel in the checkpoint (lagrange.forces), the Gauss-Seidel's start. The XDMF
# series' step 12, which the restart writes again, shows the same constraint forces as the first
# run wrote (lagrange.constraint-force), bit for bit, and they are not zero.
restarted() {
  mpi_command 2 "$EXE"
  timeout 120 "${MPI_COMMAND[@]}" --scene held.scn --solver.steps=12 --output.checkpoint=ck/held \
    --output.checkpoint-every=12 --output.xdmf=ck/x --output.every=12 --quiet > ck.out 2> ck.err &&
    cp ck/x.h5 first12.h5 &&
    timeout 120 "${MPI_COMMAND[@]}" --scene held.scn --solver.steps=25 --output.checkpoint=ck/held \
      --restart=auto --output.final-state=restarted.csv --output.xdmf=ck/x --output.every=12 \
      --quiet >> ck.out 2>> ck.err &&
    same_state held2.csv restarted.csv 1e-14 &&
    /usr/bin/python3 - <<'PY'
import sys
import h5py
import numpy as np
name = "steps/000012/constraint_force"
with h5py.File("first12.h5", "r") as first, h5py.File("ck/x.h5", "r") as again:
    a, b = first[name][:], again[name][:]
if not (np.abs(a).max() > 0 and np.array_equal(a, b)):
    print(f"  constraint_force at step 12: first run max {np.abs(a).max()}, "
          f"restart differs by {np.abs(a - b).max()}")
    sys.exit(1)
PY
}
check "a restart from step 12 ends as the run without one (1e-14), showing the same forces" \
  restarted

scene '<DefaultAnimationLoop/>' '' "$HOLD" "$CORRECTION" > no_loop.scn
check "a Lagrangian constraint under DefaultAnimationLoop is refused" \
  refused "no_loop.scn:12.*FixedLagrangianConstraint.*FreeMotionAnimationLoop" \
    2 "$EXE" --scene no_loop.scn --solver.steps=1
scene '<DefaultAnimationLoop/>' '' '<FixedProjectiveConstraint indices="@face.indices"/>' \
  "$CORRECTION" > correction_alone.scn
inert_correction() {
  run correction_alone 1 correction_alone.scn && same_state projected.csv correction_alone.csv 0
}
check "a constraint correction alone under DefaultAnimationLoop changes nothing (bit for bit)" \
  inert_correction
scene '<DefaultAnimationLoop/>' "$GS" '' '' > solver_alone.scn
check "a constraint solver no FreeMotionAnimationLoop calls is refused" \
  refused "solver_alone.scn:3.*BlockGaussSeidelConstraintSolver.*no FreeMotionAnimationLoop" \
    2 "$EXE" --scene solver_alone.scn --solver.steps=1
scene "$LOOP" '<ImprovedJacobiConstraintSolver/>' "$HOLD" "$CORRECTION" > jacobi.scn
check "ImprovedJacobiConstraintSolver is refused by name" \
  refused "jacobi.scn:3.*ImprovedJacobiConstraintSolver: not supported" \
    2 "$EXE" --scene jacobi.scn --solver.steps=1
# UncoupledConstraintCorrection: W = h c I on the face's rows, so each step puts the face's nodes
# back at rest exactly (the other nodes follow through the elastic forces only).
scene "$LOOP" "$GS" "$HOLD" '<UncoupledConstraintCorrection defaultCompliance="0.01"/>' \
  > uncoupled.scn
check "the beam held with an UncoupledConstraintCorrection runs" run uncoupled 2 uncoupled.scn
check "  its face's 9 nodes stay at rest (1e-10)" at_rest uncoupled.csv
scene "$LOOP" "$GS" "$HOLD" '<UncoupledConstraintCorrection compliance="0.01 0.02"/>' \
  > per_node.scn
check "a compliance per node is refused" \
  refused "per_node.scn:13.*UncoupledConstraintCorrection.*per node" \
    2 "$EXE" --scene per_node.scn --solver.steps=1
scene "$LOOP" "$GS" "$HOLD" '' > no_correction.scn
check "a Lagrangian constraint without a correction is refused" \
  refused "lagrange.correction.*LinearSolverConstraintCorrection" \
    2 "$EXE" --scene no_correction.scn --solver.steps=1
scene "$LOOP <DefaultPipeline/>" "$GS" "$HOLD" "$CORRECTION" > pipeline.scn
check "FreeMotionAnimationLoop with a collision pipeline is refused" \
  refused "pipeline.scn:2.*DefaultPipeline.*contacts" 2 "$EXE" --scene pipeline.scn --solver.steps=1
scene '<FreeMotionAnimationLoop solveVelocityConstraintFirst="true"/>' "$GS" "$HOLD" "$CORRECTION" \
  > velocity_first.scn
check "solveVelocityConstraintFirst with a FixedLagrangianConstraint is refused" \
  refused "velocity_first.scn:2.*solveVelocityConstraintFirst" \
    2 "$EXE" --scene velocity_first.scn --solver.steps=1
scene "$LOOP" '<BlockGaussSeidelConstraintSolver sor="3"/>' "$HOLD" "$CORRECTION" > sor.scn
check "sor outside (0, 2) is refused" refused "sor.scn:3.*sor = '3'" \
    2 "$EXE" --scene sor.scn --solver.steps=1
scene "$LOOP" '<GenericConstraintSolver resolutionMethod="NonsmoothNonlinearConjugateGradient"/>' \
  "$HOLD" "$CORRECTION" > generic.scn
check "GenericConstraintSolver's NNCG method (replaced in SOFA master) is refused by name" \
  refused "generic.scn:3.*write NNCGConstraintSolver" 2 "$EXE" --scene generic.scn --solver.steps=1
scene "$LOOP <CGLinearSolver name=\"cg\"/>" "$GS" "$HOLD" '<LinearSolverConstraintCorrection linearSolver="@../cg"/>' \
  > other_solver.scn
check "a correction through another linear solver than the body's is refused" \
  refused "other_solver.scn:13.*linearSolver: not the linear solver" \
    2 "$EXE" --scene other_solver.scn --solver.steps=1
# The correction through the preconditioner of the body's PCGLinearSolver (SOFA's falling-beam
# demos): W and the correction through the step's own converged solve, the same to its tolerance.
sed 's|<SparseLDLSolver name="ldl"/>|<PCGLinearSolver preconditioner="@ldl"/><SparseLDLSolver name="ldl"/>|' \
  held.scn > preconditioner.scn
through_preconditioner() {
  run preconditioner 2 preconditioner.scn && same_state held2.csv preconditioner.csv 1e-6
}
check "a correction through the PCG's preconditioner = through the direct solver (1e-6)" \
  through_preconditioner
# Two beams, each under its own ODE solver: no row joins them, so each solves its own constraint
# problem and the held beam ends as it does alone.
sed 's|<Node name="beam">|<Node name="beam2"><EulerImplicitSolver/><SparseLDLSolver/><RegularGridTopology name="g2" n="2 2 2"/><MechanicalObject src="@g2"/><UniformMass totalMass=\"1\"/><TetrahedronFEMForceField/></Node>\n  <Node name="beam">|' \
  held.scn > two_bodies.scn
held_beside() {
  run two 2 two_bodies.scn && { head -1 two.csv; grep ',/beam$' two.csv; } > two_beam.csv &&
    same_state held2.csv two_beam.csv 1e-12
}
check "a held beam beside another body ends as it does alone (1e-12)" held_beside
# Bodies under one ODE solver are one system, whose joined rows hold the first body's node 0.
cat > one_solver.scn <<XML
<Node name="root" gravity="0 -9.81 0" dt="0.02">
  $LOOP
  $GS
  <Node name="both">
    <EulerImplicitSolver/>
    <SparseLDLSolver name="ldl"/>
    <Node name="a">
      <RegularGridTopology name="g" n="2 2 2"/>
      <MechanicalObject src="@g"/>
      <UniformMass totalMass="1"/>
      <TetrahedronFEMForceField/>
      <FixedLagrangianConstraint indices="0"/>
      <LinearSolverConstraintCorrection linearSolver="@../ldl"/>
    </Node>
    <Node name="b">
      <RegularGridTopology name="g" n="2 2 2" min="2 0 0" max="3 1 1"/>
      <MechanicalObject src="@g"/>
      <UniformMass totalMass="1"/>
      <TetrahedronFEMForceField/>
    </Node>
  </Node>
</Node>
XML
node0_held() {
  run one_solver 2 one_solver.scn &&
    awk -F, '$1 == 0 && $8 == "/both/a" { n++; for (c = 2; c <= 4; ++c) if ($c > 1e-10 || $c < -1e-10) bad = 1 }
      END { exit !(n == 1 && !bad) }' one_solver.csv
}
check "Lagrangian rows of a body under one ODE solver with another hold it (1e-10)" node0_held
echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
