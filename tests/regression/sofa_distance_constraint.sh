#!/usr/bin/env bash
# Edges held at their lengths by Lagrangian rows (model/distance_lagrangian_constraint.cpp):
# SOFA's UniformLagrangianConstraint<Vec1> on the child of a DistanceMapping, under
# FreeMotionAnimationLoop with and without solveVelocityConstraintFirst
# (lagrange.velocity-first), against tests/common/distance_step.py:
# - a string of 10 edges falling from horizontal for 60 steps: at each step the rows hold the
#   lengths linearized at the step's start, L + u.dx = L0, so L_after^2 = L0^2 + |dx across|^2
#   to 1e-9 for every edge (the string stretches by the square of its turn, as SOFA's does);
# - the same final state on 1, 2 and 3 ranks (1e-10), and from a StringMeshCreator with the loop,
#   the constraint solver and the body all at the root (SofaPython3's examples' layout);
# - iterative="false" (all the rows one BilateralConstraintResolutionNDof block, solved together
#   at each visit) under a Gauss-Seidel of one iteration: the pendulum's first step is the direct
#   solve of numpy (velocities first on 1, 2 and 3 ranks, positions on 3; the rows one at a time
#   give another answer), the string holds its linearized lengths at step 60 and agrees across
#   ranks;
# - a StringMeshCreator's points moved by a TransformEngine into the EdgeSetTopologyContainer
#   (SOFA's InextensiblePendulum.scn, with its trail of one point, only drawn): the same run as
#   the string written at the moved points, and so with a TransformPosition; the engine fed
#   another state's points refused;
# - the mapping's geometric stiffness (geometricStiffness Stabilized, the default, Exact and None)
#   in every free motion after the first, from the last step's multipliers over h: 4 steps of
#   three hanging chains of 3 edges that pull and push, one body for each value, with
#   rayleighStiffness 0.1, the free motion, W, the multipliers and the correction of each step
#   as numpy's SOFA steps (distance_step.py steps) to 1e-9 on 1, 2 and 3 ranks (matrix-free CG
#   on 3), both orders (the chain with None differs from the steps with Stabilized by more than
#   1e-6); a value SOFA does not have and constrainToRestPos="true" refused in one error line.
# Usage: sofa_distance_constraint.sh <euler-implicit> <meshes dir>.
set -uo pipefail
RANKS=3  # MPI ranks per run at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
here=$(dirname "$(realpath "${BASH_SOURCE[0]}")")
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$here/../common/mpi_launch.sh"
# shellcheck source=SCRIPTDIR/../common/checks.sh
source "$here/../common/checks.sh"
EXE=$(realpath "$1")
STEP="$here/../common/distance_step.py"
PYTHON=/usr/bin/python3
if ! "$PYTHON" -c "import numpy" 2>/dev/null; then
  echo "FAIL setup: $PYTHON cannot import numpy (python3-numpy; bash jobs/install-deps.sh)"
  exit 1
fi
launch_in_scratch "$RANKS" "$EXE"

# string FIRST POSITIONS EDGES MASS CONSTRAINT_ATTRIBUTES [MAX_ITERATIONS] > FILE
# The strings here and the scenes written like them check the rows' linearization, their
# solves and the importer; they leave out the mapping's geometric stiffness (checked with the
# three chains below), which would refactorize the matrix at every step.
string() {
  cat <<XML
<Node name="root" dt="0.01" gravity="0 -9.81 0">
  <FreeMotionAnimationLoop solveVelocityConstraintFirst="$1"/>
  <BlockGaussSeidelConstraintSolver tolerance="1e-13" maxIterations="${6:-10000}"/>
  <Node name="string">
    <EulerImplicitSolver rayleighMass="0" rayleighStiffness="0"/>
    <SparseLDLSolver template="CompressedRowSparseMatrixMat3x3d"/>
    <GenericConstraintCorrection/>
    <EdgeSetTopologyContainer name="topo" position="$2" edges="$3"/>
    <MechanicalObject name="dofs" template="Vec3d"/>
    <FixedProjectiveConstraint indices="0"/>
    <DiagonalMass totalMass="$4"/>
    <Node name="lengths">
      <MechanicalObject template="Vec1d"/>
      <DistanceMapping geometricStiffness="None" topology="@../topo"/>
      <UniformLagrangianConstraint template="Vec1d" $5/>
    </Node>
  </Node>
</Node>
XML
}

# not_in FILE PATTERN: FILE holds no line matching PATTERN.
not_in() { ! grep -q "$2" "$1"; }

# disagrees COMMAND...: distance_step.py read the files and found them off (its status 3).
disagrees() {
  local status=0
  "$@" || status=$?
  [ "$status" -eq 3 ]
}

# run NAME RANKS SCENE STEPS [OPTION..]: the final state in NAME.csv, the multipliers in
# NAME.lambda.
run() {
  local name=$1 ranks=$2 scene=$3 steps=$4 status=0
  mpi_command "$ranks" "$EXE"
  timeout 120 "${MPI_COMMAND[@]}" --scene "$scene" --solver.steps="$steps" "${@:5}" \
    --output.final-state="$name.csv" --output.multipliers="$name.lambda" --quiet \
    > "$name.out" 2> "$name.err" || status=$?
  [ "$status" -eq 0 ] || sed 's/^/     | /' "$name.err"
  return "$status"
}

PENDULUM=("0 0 0  0.6 0.8 0  1.6 0.8 0" "0 1  1 2" 3 'iterative="true"')
CHAIN_POSITIONS="" CHAIN_EDGES=""
for i in $(seq 0 10); do CHAIN_POSITIONS+="0.$i 0 0  "; done
CHAIN_POSITIONS=${CHAIN_POSITIONS/0.10 0 0/1 0 0}
for i in $(seq 0 9); do CHAIN_EDGES+="$i $((i + 1))  "; done
for first in true false; do
  mode=$([ "$first" = true ] && echo vel || echo pos)
  string "$first" "$CHAIN_POSITIONS" "$CHAIN_EDGES" 1 "" > chain_$mode.scn
  for n in 1 2 3; do
    check "the string ($mode) falls 60 steps on $n ranks" run chain_${mode}_$n $n chain_$mode.scn 60
  done
  check "... 59 steps on 3 ranks" run chain_${mode}_59 3 chain_$mode.scn 59
  check "step 60 holds every edge at L0 linearized: L^2 = L0^2 + dx_across^2 (1e-9)" \
    "$PYTHON" "$STEP" chain chain_${mode}_59.csv chain_${mode}_3.csv 0.1 1e-9
  for n in 2 3; do
    check "the same on $n ranks as on 1 (1e-10)" same_state chain_${mode}_1.csv chain_${mode}_$n.csv 1e-10
  done
done

# The string as SofaPython3's access_constraint_matrix.py builds it: everything at the root, the
# points and edges from a StringMeshCreator (resolution 11: x = i / 10), an EigenSimplicialLLT.
cat > root.scn <<XML
<Node name="root" dt="0.01" gravity="0 -9.81 0">
  <FreeMotionAnimationLoop solveVelocityConstraintFirst="true"/>
  <BlockGaussSeidelConstraintSolver tolerance="1e-13" maxIterations="10000"/>
  <StringMeshCreator name="loader" resolution="11"/>
  <EulerImplicitSolver rayleighMass="0" rayleighStiffness="0"/>
  <EigenSimplicialLLT template="CompressedRowSparseMatrixMat3x3d"/>
  <GenericConstraintCorrection/>
  <EdgeSetTopologyContainer name="topo" position="@loader.position" edges="@loader.edges"/>
  <MechanicalObject name="dofs" template="Vec3d"/>
  <FixedProjectiveConstraint indices="0"/>
  <DiagonalMass totalMass="1"/>
  <Node name="lengths">
    <MechanicalObject template="Vec1d"/>
    <DistanceMapping geometricStiffness="None" topology="@topo"/>
    <UniformLagrangianConstraint template="Vec1d" iterative="true"/>
  </Node>
</Node>
XML
check "the StringMeshCreator string at the root runs 60 steps on 3 ranks" run root 3 root.scn 60
check "... and ends as the string written out (1e-10)" same_state chain_vel_1.csv root.csv 1e-10

# iterative="false" with one Gauss-Seidel iteration: the block's first visit is the direct solve.
for first in true false; do
  mode=$([ "$first" = true ] && echo vel || echo pos)
  string "$first" "${PENDULUM[@]:0:3}" 'iterative="false"' 1 > block_$mode.scn
  ranks=$([ "$first" = true ] && echo "1 2 3" || echo 3)
  for n in $ranks; do
    check "the pendulum ($mode, one block, one iteration) runs a step on $n ranks" \
      run block_${mode}_$n $n block_$mode.scn 1
    check "its first step is numpy's direct solve (1e-9)" \
      "$PYTHON" "$STEP" first $mode block_${mode}_$n.csv block_${mode}_$n.lambda 1e-9
  done
done
string true "${PENDULUM[@]:0:3}" 'iterative="true"' 1 > rows.scn
check "the rows one at a time, one iteration: the pendulum runs a step" run rows 2 rows.scn 1
check "... and is not the direct solve (off by more than 1e-6)" \
  disagrees "$PYTHON" "$STEP" first vel rows.csv rows.lambda 1e-6
string true "$CHAIN_POSITIONS" "$CHAIN_EDGES" 1 'iterative="false"' 1 > block_chain.scn
for n in 1 3; do
  check "the string (one block, one iteration) falls 60 steps on $n ranks" \
    run block_chain_$n $n block_chain.scn 60
done
check "... 59 steps on 3 ranks" run block_chain_59 3 block_chain.scn 59
check "step 60 holds every edge at L0 linearized (1e-9)" \
  "$PYTHON" "$STEP" chain block_chain_59.csv block_chain_3.csv 0.1 1e-9
check "the same on 3 ranks as on 1 (1e-10)" same_state block_chain_1.csv block_chain_3.csv 1e-10

# SOFA's InextensiblePendulum.scn's layout: the StringMeshCreator's points scaled by 2 along x,
# turned 90 degrees about y and moved by (0, 1, -2) in a TransformEngine, which gives the
# container its points: x_i = (0, 1, -2 - i / 5), as written out in moved.scn.
MOVED_POSITIONS="" MOVED_EDGES=""
for i in $(seq 0 10); do MOVED_POSITIONS+="0 1 $(awk -v i="$i" 'BEGIN { print -2 - i / 5 }')  "; done
for i in $(seq 0 9); do MOVED_EDGES+="$i $((i + 1))  "; done
string true "$MOVED_POSITIONS" "$MOVED_EDGES" 1 'iterative="false"' > moved.scn
cat > engine.scn <<XML
<Node name="root" dt="0.01" gravity="0 -9.81 0">
  <FreeMotionAnimationLoop solveVelocityConstraintFirst="true"/>
  <BlockGaussSeidelConstraintSolver tolerance="1e-13" maxIterations="10000"/>
  <StringMeshCreator name="loader" resolution="11"/>
  <TransformEngine name="move" input_position="@loader.position" scale="2 1 1" rotation="0 90 0"
                   translation="0 1 -2"/>
  <EulerImplicitSolver rayleighMass="0" rayleighStiffness="0"/>
  <EigenSimplicialLLT template="CompressedRowSparseMatrixMat3x3d"/>
  <GenericConstraintCorrection/>
  <EdgeSetTopologyContainer name="topo" position="@move.output_position" edges="@loader.edges"/>
  <MechanicalObject name="dofs" template="Vec3d"/>
  <FixedProjectiveConstraint indices="0"/>
  <DiagonalMass totalMass="1"/>
  <Node name="lengths">
    <MechanicalObject template="Vec1d"/>
    <DistanceMapping geometricStiffness="None" topology="@../topo"/>
    <UniformLagrangianConstraint template="Vec1d" iterative="false"/>
  </Node>
  <Node name="visual">
    <PointsFromIndices name="points" position="@../dofs.position" indices="10"/>
    <TrailRenderer template="Vec3" position="@points.indices_position" nbSteps="50"/>
  </Node>
</Node>
XML
check "the string written at the moved points falls 20 steps on 2 ranks" run moved 2 moved.scn 20
check "the string moved by a TransformEngine falls 20 steps on 2 ranks" run engine 2 engine.scn 20
check "... and ends as the string written at the moved points (1e-10)" \
  same_state moved.csv engine.csv 1e-10
sed 's/<TransformEngine /<TransformPosition method="scaleRotationTranslation" /' engine.scn > \
  position.scn
check "the string moved by a TransformPosition falls 20 steps on 2 ranks" \
  run position 2 position.scn 20
check "... and ends as the string written at the moved points (1e-10)" \
  same_state moved.csv position.csv 1e-10
sed 's/input_position="@loader.position"/input_position="@dofs.position"/' engine.scn > state.scn
check "a TransformEngine giving a container another state's points is refused in one line" \
  refused "TransformEngine: gives .*supported only from the position of" 2 "$EXE" \
  --scene state.scn --solver.steps=1
# The mapping's geometric stiffness under the last step's multipliers over h, in each later free
# motion: 4 steps of three hanging chains, one body each, whose edges pull and push (so
# Stabilized, the default, drops some blocks), with geometricStiffness Stabilized, Exact and None,
# and rayleighStiffness 0.1 (K's factors h + rK and -h (h + rK)), against numpy.
# chains FIRST > FILE
chains() {
  echo '<Node name="root" dt="0.01" gravity="0 -9.81 0">'
  echo "  <FreeMotionAnimationLoop solveVelocityConstraintFirst=\"$1\"/>"
  echo '  <BlockGaussSeidelConstraintSolver tolerance="1e-13" maxIterations="10000"/>'
  for stiffness in stabilized exact none; do
    attribute=$([ $stiffness = stabilized ] || echo " geometricStiffness=\"${stiffness^}\"")
    cat <<XML
  <Node name="$stiffness">
    <EulerImplicitSolver rayleighMass="0" rayleighStiffness="0.1"/>
    <SparseLDLSolver template="CompressedRowSparseMatrixMat3x3d"/>
    <GenericConstraintCorrection/>
    <EdgeSetTopologyContainer name="topo" position="0 0 0  0.6 -0.8 0  1.6 -0.8 0  1.6 0.2 0.5"
                              edges="0 1  1 2  2 3"/>
    <MechanicalObject name="dofs" template="Vec3d"/>
    <FixedProjectiveConstraint indices="0"/>
    <DiagonalMass totalMass="1"/>
    <Node name="lengths">
      <MechanicalObject template="Vec1d"/>
      <DistanceMapping topology="@../topo"$attribute/>
      <UniformLagrangianConstraint template="Vec1d"/>
    </Node>
  </Node>
XML
  done
  echo '</Node>'
}
chains false > chains_pos.scn
chains true > chains_vel.scn
# On 3 ranks matrix-free, solved by CG: the blocks in the operator's products.
FREE=(--solver.operator=matrix-free --solver.linear=iterative --solver.rtol=1e-15)
runs=()
for n in 1 2 3; do
  mode=$([ $n = 2 ] && echo vel || echo pos)
  options=()
  [ $n = 3 ] && options=("${FREE[@]}")
  check "the three chains ($mode${options:+, matrix-free}) fall 4 steps on $n ranks" \
    run chains_${mode}_$n $n chains_$mode.scn 4 "${options[@]}"
  runs+=($mode chains_${mode}_$n.csv chains_${mode}_$n.lambda)
done
check "... each as numpy's SOFA steps with its geometric stiffness (1e-9; None's off by 1e-6)" \
  "$PYTHON" "$STEP" steps 0.1 4 1e-9 "${runs[@]}"
check "no warning of the geometric stiffness" not_in chains_pos_1.err geometricStiffness
string true "${PENDULUM[@]}" | sed 's|geometricStiffness="None"|geometricStiffness="3"|' \
  > bad.scn
check "geometricStiffness 3 is refused in one line" \
  refused "geometricStiffness = '3': expected None, Exact or Stabilized" 2 "$EXE" \
  --scene bad.scn --solver.steps=1
string true "${PENDULUM[@]:0:3}" 'constrainToRestPos="true"' > rest.scn
check "constrainToRestPos=\"true\" is refused in one line" \
  refused constrainToRestPos 2 "$EXE" --scene rest.scn --solver.steps=1

echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
