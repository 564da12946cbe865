#!/usr/bin/env bash
# SOFA's BilateralLagrangianConstraint to points that a RigidMapping drives from a Rigid3 frame
# that no ODE solver integrates and a LinearMovementProjectiveConstraint moves (as SOFA's
# BilateralLagrangianConstraint_with_svd_regularization_solvable.scn does). SOFA's
# FreeMotionAnimationLoop projects the frame at the end of each step at that step's start time
# (before it advances the clock), and at initialization at t = 0, only while the time lies in
# [first key time, last key time); the next step's violation reads the points so moved. A beam's
# x = 0 face (4 nodes) is held to 4 such points, without gravity, dt = 0.01, 10 steps, so the
# last step (from t_9) holds them to the points moved by m(t_8):
#  - keys 0 1, movements 0 -> (0, 0.5, 0): the face ends 0.04 up in y (1e-10; the clock's t_8 or
#    t_10 would give 0.045 or 0.05), the same on 1, 2 and 3 ranks (1e-12);
#  - keys 0 0.05, movements 0 -> (0, 0.025, 0): the last projection that acts is at t_4, so the
#    face ends 0.02 up (1e-10);
#  - the frame at (1, 0, 0) turned 90 degrees about z, the points given in its local
#    coordinates (RigidMapping without globalToLocalCoords) at the same world positions: the
#    run ends as the unturned one (1e-12);
#  - a turning movement is refused with one line.
# Usage: sofa_bilateral_moving.sh <euler-implicit> <meshes dir>.
set -uo pipefail
RANKS=3  # MPI ranks per run at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
here=$(dirname "$(realpath "${BASH_SOURCE[0]}")")
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$here/../common/mpi_launch.sh"
# shellcheck source=SCRIPTDIR/../common/checks.sh
source "$here/../common/checks.sh"
EXE=$(realpath "$1")
launch_in_scratch "$RANKS" "$EXE"

# scene KEYS MOVEMENTS FRAME POINTS > FILE
scene() {
  cat <<XML
<Node name="root" gravity="0 0 0" dt="0.01">
  <FreeMotionAnimationLoop/>
  <BlockGaussSeidelConstraintSolver maxIterations="1000" tolerance="1e-14"/>
  <Node name="frame">
    <MechanicalObject name="mo" template="Rigid3" position="$3"/>
    <LinearMovementProjectiveConstraint indices="0" keyTimes="$1" movements="$2"/>
    <Node name="attach">
      <MechanicalObject name="mo" template="Vec3" position="$4"/>
      <RigidMapping/>
    </Node>
  </Node>
  <Node name="beam">
    <EulerImplicitSolver rayleighMass="0.05" rayleighStiffness="0.02"/>
    <SparseLDLSolver name="ldl"/>
    <RegularGridTopology name="grid" n="4 2 2" min="0 0 0" max="0.3 0.1 0.1"/>
    <MechanicalObject name="dofs" src="@grid"/>
    <UniformMass totalMass="0.5"/>
    <HexahedronFEMForceField youngModulus="2e4" poissonRatio="0.3"/>
    <BoxROI name="face" box="-0.01 -0.01 -0.01 0.01 0.11 0.11"/>
    <LinearSolverConstraintCorrection linearSolver="@ldl"/>
  </Node>
  <BilateralLagrangianConstraint object1="@beam/dofs" first_point="@beam/face.indices"
    object2="@frame/attach/mo" second_point="0 1 2 3"/>
</Node>
XML
}
FACE="0 0 0  0 0.1 0  0 0 0.1  0 0.1 0.1"
scene "0 1" "0 0 0 0 0 0  0 0.5 0 0 0 0" "0 0 0 0 0 0 1" "$FACE" > along.scn
scene "0 0.05" "0 0 0 0 0 0  0 0.025 0 0 0 0" "0 0 0 0 0 0 1" "$FACE" > ended.scn
# Turned 90 degrees about z at c = (1, 0, 0): l = R^-1 (p - c) = (p_y, 1, p_z).
scene "0 1" "0 0 0 0 0 0  0 0.5 0 0 0 0" "1 0 0 0 0 0.7071067811865476 0.7071067811865476" \
  "0 1 0  0.1 1 0  0 1 0.1  0.1 1 0.1" > turned.scn
scene "0 1" "0 0 0 0 0 0  0 0.5 0 0 0 0.1" "0 0 0 0 0 0 1" "$FACE" > turning.scn

# run NAME RANKS SCENE: 10 steps, the final state in NAME.csv.
run() {
  mpi_command "$2" "$EXE"
  local status=0
  timeout 120 "${MPI_COMMAND[@]}" --scene "$3" --solver.steps=10 --output.final-state="$1.csv" \
    --quiet > "$1.out" 2> "$1.err" || status=$?
  [ "$status" -eq 0 ] || sed 's/^/     | /' "$1.err"
  return "$status"
}
# moved CSV DY: the face's nodes (x = 0: ids 0, 4, 8, 12 of the 4 x 2 x 2 grid) DY up in y from
# their rest positions, to 1e-10.
moved() {
  awk -F, -v dy="$2" 'FNR > 1 && $1 % 4 == 0 {
      j = int($1 / 4) % 2; k = int($1 / 8)
      e = $2; if (e < 0) e = -e; if (e > w) w = e
      e = $3 - 0.1 * j - dy; if (e < 0) e = -e; if (e > w) w = e
      e = $4 - 0.1 * k; if (e < 0) e = -e; if (e > w) w = e; n++ }
    END { if (n != 4 || w > 1e-10) { print "  " n " nodes, off by " w; exit 1 } }' "$1"
}
for ranks in 1 2 3; do
  check "the beam held to moving points runs on $ranks rank(s)" run "along$ranks" "$ranks" along.scn
done
check "  its face ends moved by m(t_8) = 0.04 (1e-10)" moved along2.csv 0.04
check "  2 ranks = 1 rank (1e-12)" same_state along1.csv along2.csv 1e-12
check "  3 ranks = 1 rank (1e-12)" same_state along1.csv along3.csv 1e-12
check "the points' motion ending at t = 0.05 runs" run ended 2 ended.scn
check "  its face ends moved by m(t_4) = 0.02 (1e-10)" moved ended.csv 0.02
check "the turned frame runs" run turned 2 turned.scn
check "  it ends as the unturned one (1e-12)" same_state along2.csv turned.csv 1e-12

check "a turning movement is refused with one line" \
  refused "a frame turned by its movements is not supported" 2 "$EXE" --scene turning.scn \
  --solver.steps=1
echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
