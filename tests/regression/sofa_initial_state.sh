#!/usr/bin/env bash
# A SOFA MechanicalObject's inline position, rest_position and velocity (initial.positions,
# mesh.nodes, initial.velocities), against the implicit Euler step worked out by hand: two
# tetrahedra start translated by T from their rest_position, all at the one velocity V given
# (SOFA gives the last velocity to every point after it), pulled back by rest-shape springs
# (stiffness k) and carrying a uniform mass m per node. A translation strains no element, so
# every node takes the same step: (m + h^2 k) dv = -h k (T + h V), v1 = V + dv, x1 = P + h v1.
# Springs measuring from the position instead (T = 0) would give another answer. On 1 and 2
# ranks, to 1e-12. Then the size checks: one error line naming the file, line and field.
# Usage: sofa_initial_state.sh <euler-implicit> <meshes dir>.
set -euo pipefail
RANKS=2  # MPI ranks per run at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
EXE=$(realpath "$1")
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/mpi_launch.sh"
launch_in_scratch "$RANKS" "$EXE"
# shellcheck source=SCRIPTDIR/../common/checks.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/checks.sh"

REST="0 0 0  1 0 0  0 1 0  0 0 1  1 1 1"
POSITION="0.1 0.2 -0.3  1.1 0.2 -0.3  0.1 1.2 -0.3  0.1 0.2 0.7  1.1 1.2 0.7"
# scene POSITION_FIELD VELOCITY_FIELD > FILE
scene() {
  cat <<XML
<Node name="root" gravity="0 0 0" dt="0.01">
  <DefaultAnimationLoop/>
  <EulerImplicitSolver/>
  <CGLinearSolver iterations="1000" tolerance="1e-12" threshold="1e-30"/>
  <TetrahedronSetTopologyContainer name="topo" tetrahedra="0 1 2 3  1 2 3 4"/>
  <MechanicalObject name="dofs" $1 rest_position="$REST" $2/>
  <UniformMass totalMass="5"/>
  <TetrahedronFEMForceField youngModulus="1000" poissonRatio="0.3" method="large"/>
  <RestShapeSpringsForceField stiffness="100"/>
</Node>
XML
}
scene "position=\"$POSITION\"" 'velocity="0.5 -1 2"' > moved.scn

for ranks in 1 2; do
  mpi_command "$ranks" "$EXE"
  status=0
  timeout 60 "${MPI_COMMAND[@]}" --scene moved.scn --solver.steps=1 --output.final-state=final.csv \
    --quiet > run.out 2> run.err || status=$?
  check "$ranks rank(s): the run succeeds" test "$status" -eq 0
  [ "$status" -eq 0 ] || { sed 's/^/     | /' run.err; continue; }
  error=$(awk -F, -v rest="$REST" '
    BEGIN { n = split(rest, r, " "); h = 0.01; k = 100; m = 1
            T[1] = 0.1; T[2] = 0.2; T[3] = -0.3; V[1] = 0.5; V[2] = -1; V[3] = 2
            for (d = 1; d <= 3; ++d) v1[d] = V[d] - h * k * (T[d] + h * V[d]) / (m + h * h * k) }
    FNR == 1 { next }
    { for (d = 1; d <= 3; ++d) {
        e = $(1 + d) - (r[3 * $1 + d] + T[d] + h * v1[d]); if (e < 0) e = -e; if (e > worst) worst = e
        e = $(4 + d) - v1[d]; if (e < 0) e = -e; if (e > worst) worst = e }
      rows++ }
    END { if (rows != 5) print "rows=" rows; else printf "%.3e\n", worst }' final.csv)
  check "$ranks rank(s): positions and velocities after one step match the hand step ($error <= 1e-12)" \
    awk -v e="$error" 'BEGIN { exit !(e == e + 0 && e <= 1e-12) }'
done

scene 'position="0 0 0  1 0 0"' "" > short.scn
check "a position list that does not match rest_position is refused, naming it" \
  refused "^euler-implicit: error: short.scn:6: .*position = .*2 positions for 5 rest positions" \
    1 "$EXE" --scene short.scn --solver.steps=1
scene "" 'velocity="1 0 0  1 0 0  1 0 0  1 0 0  1 0 0  1 0 0"' > fast.scn
check "more velocities than points are refused, naming the field" \
  refused "^euler-implicit: error: fast.scn:6: .*velocity = .*6 velocities for 5 points" \
    1 "$EXE" --scene fast.scn --solver.steps=1
echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
