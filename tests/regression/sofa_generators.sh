#!/usr/bin/env bash
# SOFA's GenerateGrid and GenerateCylinder as a body's mesh (io/sofa_generate_mesh.cpp), run on
# 1, 2 and 3 ranks: a 0.4 x 0.1 x 0.1 beam of 4 x 1 x 1 cubes cut into tetrahedra (5 x 2 x 2 =
# 20 points), the same beam as hexahedra, and a cylinder of radius 0.2 and height 1 (5 levels of
# 1 + 7 x 3 = 22 points), each held where x = 0 (the beams: 4 points) or z = 0 (the cylinder: its
# first 22 points), bent by gravity; and a MeshTetraStuffing of the box |x| <= 1.25,
# |y| <= 1.15, |z| <= 1.35 with cells of 1, snapped and split (the unit tests check its points and
# tetrahedra; here it runs on every rank count), held where z < -1.3 (the cut points on the bottom
# face). The final states have as many rows as the generator makes points, exactly the held ones
# at rest, and agree across the rank counts.
# Usage: sofa_generators.sh <euler-implicit> <meshes dir>.
set -uo pipefail
RANKS=3  # MPI ranks per run at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
here=$(dirname "$(realpath "${BASH_SOURCE[0]}")")
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$here/../common/mpi_launch.sh"
# shellcheck source=SCRIPTDIR/../common/checks.sh
source "$here/../common/checks.sh"
EXE=$(realpath "$1")
launch_in_scratch "$RANKS" "$EXE"

# scene GENERATOR CONTAINER CELLS FORCE-FIELD BOX > FILE
scene() {
  cat <<XML
<Node name="root" gravity="0 -9.81 3" dt="0.02">
  <DefaultAnimationLoop/>
  $1
  <Node name="body">
    <EulerImplicitSolver rayleighMass="0.05" rayleighStiffness="0.02"/>
    <CGLinearSolver iterations="1000" tolerance="1e-24" threshold="1e-30"/>
    <$2 position="@../g.output_position" $3="@../g.$3"/>
    <MechanicalObject name="dofs"/>
    <UniformMass totalMass="0.5"/>
    $4
    <BoxROI name="held" box="$5"/>
    <FixedProjectiveConstraint indices="@held.indices"/>
  </Node>
</Node>
XML
}
grid='<GenerateGrid name="g" max="0.4 0.1 0.1" resolution="4 1 1"/>'
scene "$grid" TetrahedronSetTopologyContainer tetrahedra \
  '<TetrahedronFEMForceField youngModulus="2e4" poissonRatio="0.3"/>' \
  '-0.01 -0.01 -0.01 0.01 0.11 0.11' > tetra.scn
scene "$grid" HexahedronSetTopologyContainer hexahedra \
  '<HexahedronFEMForceField youngModulus="2e4" poissonRatio="0.3"/>' \
  '-0.01 -0.01 -0.01 0.01 0.11 0.11' > hexa.scn
scene '<GenerateCylinder name="g" radius="0.2" height="1" resHeight="5" resCircumferential="7"
    resRadial="3"/>' TetrahedronSetTopologyContainer tetrahedra \
  '<TetrahedronFEMForceField youngModulus="2e4" poissonRatio="0.3"/>' \
  '-0.3 -0.3 -0.01 0.3 0.3 0.01' > cylinder.scn
# The box as 12 outward triangles.
cat > box.obj <<'OBJ'
v -1.25 -1.15 -1.35
v 1.25 -1.15 -1.35
v -1.25 1.15 -1.35
v 1.25 1.15 -1.35
v -1.25 -1.15 1.35
v 1.25 -1.15 1.35
v -1.25 1.15 1.35
v 1.25 1.15 1.35
f 1 3 4
f 1 4 2
f 5 6 8
f 5 8 7
f 1 2 6
f 1 6 5
f 3 7 8
f 3 8 4
f 1 5 7
f 1 7 3
f 2 4 8
f 2 8 6
OBJ
scene '<MeshTopology name="s" filename="box.obj"/><MeshTetraStuffing name="g" size="1"
    snapPoints="1" splitTetras="1" inputPoints="@s.points" inputTriangles="@s.triangles"/>' \
  TetrahedronSetTopologyContainer tetrahedra \
  '<TetrahedronFEMForceField youngModulus="2e4" poissonRatio="0.3"/>' \
  '-2 -2 -2 2 2 -1.3' | sed 's/@..\/g.output_position/@..\/g.outputPoints/;
    s/@..\/g.tetrahedra/@..\/g.outputTetrahedra/' > stuffing.scn

# run NAME RANKS SCENE: 10 steps, the final state in NAME.csv.
run() {
  mpi_command "$2" "$EXE"
  local status=0
  timeout 120 "${MPI_COMMAND[@]}" --scene "$3" --solver.steps=10 --output.final-state="$1.csv" \
    --quiet > "$1.out" 2> "$1.err" || status=$?
  [ "$status" -eq 0 ] || sed 's/^/     | /' "$1.err"
  return "$status"
}
# rows FILE COUNT HELD: COUNT rows, exactly HELD of them with v = 0 (columns 5-7), and those
# the first ids when FIRST is 1 (the cylinder's bottom level is its first 22 points).
rows() {
  awk -F, -v count="$2" -v held="$3" -v first="$4" 'FNR > 1 {
      n++; still = ($5 == 0 && $6 == 0 && $7 == 0); h += still
      if (first && still != ($1 < held)) bad++ }
    END { if (n != count || h != held || bad) {
            print "  " n " rows, " h " at rest, " bad + 0 " out of place"; exit 1 } }' "$1"
}
for name in tetra hexa cylinder stuffing; do
  for ranks in 1 2 3; do
    check "$name runs on $ranks rank(s)" run "$name$ranks" "$ranks" "$name.scn"
  done
done
for ranks in 1 2 3; do
  check "tetra$ranks: 20 points, the 4 at x = 0 held" rows "tetra$ranks.csv" 20 4 0
  check "hexa$ranks: 20 points, the 4 at x = 0 held" rows "hexa$ranks.csv" 20 4 0
  check "cylinder$ranks: 110 points, the first 22 held" rows "cylinder$ranks.csv" 110 22 1
  check "stuffing$ranks: 111 points, the 15 on the bottom face held" \
    rows "stuffing$ranks.csv" 111 15 0
done
for name in tetra hexa cylinder stuffing; do
  check "$name: 2 ranks = 1 rank (1e-12)" same_state "${name}1.csv" "${name}2.csv" 1e-12
  check "$name: 3 ranks = 1 rank (1e-12)" same_state "${name}1.csv" "${name}3.csv" 1e-12
done

echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
