#!/usr/bin/env bash
# SOFA's TransformPosition between a grid and its MechanicalObject (--scene FILE.scn): the body's
# cells are the grid's, its points the engine's output. A 5 x 3 x 3 RegularGridTopology (points
# at whole coordinates, 16 hexahedra), its x = 0 end held, bent by gravity for 5 steps:
#  - turned by Euler angles 30 0 90 and moved by 1 2 3 (scaleRotationTranslation) ends where the
#    same body written as a MeshTopology at the points turned here ends (SOFA's
#    Quat::createQuaterFromEuler and Quat::rotate computed in Python), to 1e-12, on 1 and 2
#    ranks, and 2 ranks end where 1 rank does;
#  - moved by a .tfm file (method fromFile; x' = (1 - y, x + 2, z + 3), the translation read from
#    the last number back, as SOFA does) ends where the body written at those points does;
#  - a malformed transform file and an unknown method are each one clear error line.
# Usage: sofa_transform_position.sh <euler-implicit> <meshes dir>; the MPI launch line:
# tests/common/mpi_launch.sh.
set -euo pipefail
RANKS=2  # MPI ranks per run at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
EXE=$(realpath "$1")
HERE=$(realpath "$(dirname "${BASH_SOURCE[0]}")")
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$HERE/../common/mpi_launch.sh"
# shellcheck source=SCRIPTDIR/../common/checks.sh
source "$HERE/../common/checks.sh"
launch_in_scratch "$RANKS" "$EXE"

# scene BODY: the body's node holding BODY (its points and topology), under gravity.
scene() {
  cat <<XML
<Node name="root" dt="0.01" gravity="0 0 -9.81">
  <DefaultAnimationLoop/>
  <Node name="body">
    <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>
    <CGLinearSolver iterations="1000" tolerance="1e-20" threshold="1e-30"/>
    $1
    <UniformMass totalMass="2"/>
    <HexahedronFEMForceField youngModulus="500" poissonRatio="0.3"/>
    <FixedProjectiveConstraint indices="0 5 10 15 20 25 30 35 40"/>
  </Node>
</Node>
XML
}
grid='<RegularGridTopology name="grid" n="5 3 3" min="0 0 0" max="4 2 2"/>'
engine() {
  echo "$grid<TransformPosition name=\"move\" input_position=\"@grid.position\" $1/>
    <MechanicalObject position=\"@move.output_position\"/>"
}
scene "$(engine 'method="scaleRotationTranslation" rotation="30 0 90" translation="1 2 3"')" \
  > turned.scn
printf '%s\n' '#Insight Transform File V1.0' 'Transform: AffineTransform_double_3_3' \
  'Parameters: 0 -1 0 1 0 0 0 0 1 3 2 1' 'FixedParameters: 0 0 0' > move.tfm
scene "$(engine 'method="fromFile" filename="move.tfm"')" > filed.scn

# written MODE: the grid's points moved by MODE (turned: SOFA's rotation then the translation;
# filed: the .tfm's matrix), and its hexahedra in RegularGridTopology's vertex order, as a
# MeshTopology and MechanicalObject of their own.
written() {
  python3 - "$1" <<'PY'
import math, sys
def turn(angles, p):
    h = [a * math.pi / 180.0 / 2 for a in angles]
    c1, c2, c3 = (math.cos(x) for x in h)
    s1, s2, s3 = (math.sin(x) for x in h)
    q = (s1 * c2 * c3 - c1 * s2 * s3, c1 * s2 * c3 + s1 * c2 * s3, c1 * c2 * s3 - s1 * s2 * c3)
    w = c1 * c2 * c3 + s1 * s2 * s3
    cross = lambda a, b: (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
                          a[0] * b[1] - a[1] * b[0])
    t = [2 * x for x in cross(q, p)]
    qt = cross(q, t)
    return [p[i] + w * t[i] + qt[i] for i in range(3)]
points = [(float(x), float(y), float(z)) for z in range(3) for y in range(3) for x in range(5)]
if sys.argv[1] == "turned":
    moved = [[a + b for a, b in zip(turn((30, 0, 90), p), (1, 2, 3))] for p in points]
else:
    moved = [[1 - y, x + 2, z + 3] for x, y, z in points]
at = lambda x, y, z: x + 5 * (y + 3 * z)
hexahedra = [(at(x, y, z), at(x + 1, y, z), at(x + 1, y + 1, z), at(x, y + 1, z),
              at(x, y, z + 1), at(x + 1, y, z + 1), at(x + 1, y + 1, z + 1), at(x, y + 1, z + 1))
             for z in range(2) for y in range(2) for x in range(4)]
print('<MeshTopology name="topo" position="%s" hexahedra="%s"/><MechanicalObject/>' % (
    "  ".join(" ".join(repr(c) for c in p) for p in moved),
    "  ".join(" ".join(str(i) for i in h) for h in hexahedra)))
PY
}
scene "$(written turned)" > turned_written.scn
scene "$(written filed)" > filed_written.scn

# run NAME RANKS SCENE: 5 steps, the final state in NAME.csv.
run() {
  mpi_command "$2" "$EXE"
  local status=0
  timeout 120 "${MPI_COMMAND[@]}" --scene "$3" --solver.steps=5 --output.final-state="$1.csv" \
    --quiet > "$1.out" 2> "$1.err" || status=$?
  [ "$status" -eq 0 ] || sed 's/^/     | /' "$1.err"
  return "$status"
}
for ranks in 1 2; do
  for name in turned turned_written filed filed_written; do
    check "$name runs on $ranks rank(s)" run "$name$ranks" "$ranks" "$name.scn"
  done
  check "turned = turned_written on $ranks rank(s) (1e-12)" \
    same_state "turned$ranks.csv" "turned_written$ranks.csv" 1e-12
  check "filed = filed_written on $ranks rank(s) (1e-12)" \
    same_state "filed$ranks.csv" "filed_written$ranks.csv" 1e-12
done
check "turned: 2 ranks = 1 rank (1e-12)" same_state turned1.csv turned2.csv 1e-12
# bent FILE: gravity set the free points moving (not a comparison of two bodies at rest).
bent() { awk -F, 'FNR > 1 { for (i = 5; i <= 7; ++i) if ($i > 0.01 || $i < -0.01) n++ }
                  END { exit !(n > 0) }' "$1"; }
check "turned: the body bends" bent turned1.csv
check "filed: the body bends" bent filed1.csv

printf '%s\n' 'Parameters: 0 -1 0 1 0 0 0 0 1 3 2' > short.tfm
scene "$(engine 'method="fromFile" filename="short.tfm"')" > short.scn
scene "$(engine 'method="twist"')" > twist.scn
for ranks in 1 2; do
  check "a .tfm of 11 numbers is one error on $ranks rank(s)" refused \
    "TransformPosition 'move': filename = 'short.tfm': .*short.tfm:1: 11 numbers; expected 12" \
    "$ranks" "$EXE" --scene short.scn --solver.steps=1
  check "an unknown method is one error on $ranks rank(s)" refused \
    "TransformPosition 'move': method = 'twist': unknown" \
    "$ranks" "$EXE" --scene twist.scn --solver.steps=1
done

echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
