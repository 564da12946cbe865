#!/usr/bin/env bash
# SOFA's playback components (Component/Playback), which leave the mechanics as they are:
#  - CompareState in a simulated body reads a state file WriteState recorded and logs its
#    distance to the state: the body's final state is the same, bit for bit, as without it;
#  - ReadState in a node no ODE solver integrates replays a recorded motion into a state only
#    what draws it sees: it is not replayed, with one warning line naming it, and the simulated
#    body is again the same bit for bit;
#  - a spring from the simulated body to that replayed state is refused (it would read the
#    motion).
# Bit for bit on 1 rank; on 2 ranks to 1e-12 of the largest value, as a 2-rank MUMPS
# factorization (SparseLDLSolver) is not bit-repeatable from run to run. Usage: sofa_playback.sh <euler-implicit> <meshes dir>; the MPI launch line:
# tests/common/mpi_launch.sh.
set -euo pipefail
RANKS=2  # MPI ranks per run at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
# shellcheck source=SCRIPTDIR/../common/regression_test.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/regression_test.sh"

run() {  # run NAME SCENE RANKS: 3 steps, the final state in NAME.csv
  mpi_command "$3" "$EXE"
  timeout 60 "${MPI_COMMAND[@]}" --scene "$2" --solver.steps=3 --quiet \
    --output.final-state="$1.csv" > "$1.out" 2> "$1.err"
}

GRID='nx="3" ny="3" nz="5" xmin="0" xmax="2" ymin="0" ymax="2" zmin="0" zmax="4"'
# The recorded motion: the grid's 45 points at t = 0, moved by 1 in x at t = 0.01.
awk 'BEGIN {
  for (t = 0; t < 2; t++) {
    printf "T= %g\n  X=", t * 0.01
    for (k = 0; k < 5; k++) for (j = 0; j < 3; j++) for (i = 0; i < 3; i++)
      printf " %g %g %g", i + t, j, k
    printf "\n"
  }
}' > recorded.txt
scene() {  # scene BODY_EXTRA ROOT_EXTRA: the beam with BODY_EXTRA in its node, ROOT_EXTRA after it
  cat <<EOF
<Node name="root" dt="0.01" gravity="0 -9.81 0">
  <Node name="Beam">
    <EulerImplicitSolver/>
    <SparseLDLSolver/>
    <MechanicalObject name="beamMO"/>
    <RegularGridTopology $GRID/>
    <UniformMass totalMass="5"/>
    <FixedProjectiveConstraint indices="0-8"/>
    <TetrahedronFEMForceField youngModulus="100" poissonRatio="0.3" method="large"/>
    $1
  </Node>
  $2
</Node>
EOF
}
REPLAY="<Node name=\"Replay\"><MechanicalObject name=\"replayMO\"/><RegularGridTopology $GRID/>
  <ReadState name=\"reader\" filename=\"recorded.txt\"/></Node>"
scene "" "" > plain.scn
scene '<CompareState name="comparator" filename="recorded.txt"/>' "$REPLAY" > playback.scn
scene "" "$REPLAY
  <SpringForceField object1=\"@Beam/beamMO\" object2=\"@Replay/replayMO\" spring=\"40 40 10 1 0\"/>" \
  > spring.scn

check "the beam alone runs" run plain plain.scn 1
check "with CompareState and a replayed node it runs" run playback playback.scn 1
check "its final state is the beam's alone, bit for bit" cmp -s plain.csv playback.csv
check "on 2 ranks too" run playback2 playback.scn 2
check "its final state is the beam's alone on 2 ranks (1e-12)" \
  same_state plain.csv playback2.csv 1e-12
check "one warning says the replay is not replayed (on each rank count)" \
  test "$(cat playback.err playback2.err | grep -c "warning: ReadState 'reader'.*is not replayed")" = 2
check "a spring to the replayed state is refused" \
  refused "SpringForceField: object1 (/Beam) and object2 (/Replay) are integrated by different" \
  "$RANKS" "$EXE" --scene spring.scn --solver.steps=1 --quiet
echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
