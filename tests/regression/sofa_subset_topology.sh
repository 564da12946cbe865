#!/usr/bin/env bash
# SOFA's SubsetTopology as a body's mesh (io/sofa_subset_topology.cpp): the points and tetrahedra
# of meshes/beam_v22_ascii.msh (a 10 x 1 x 1 beam) in the box x <= 4, and those out of it, each
# a body held where x = 0 (in) or x = 10 (out), bent by gravity, on 1, 2 and 3 ranks. The bodies
# have as many points as awk counts in the file (in: the nodes in the box; out: the others and
# the nodes in the box that share a tetrahedron with one out of it, which SOFA lists in both),
# exactly the held ones at rest, and the rank counts agree.
# Usage: sofa_subset_topology.sh <euler-implicit> <meshes dir>.
set -uo pipefail
RANKS=3  # MPI ranks per run at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
here=$(dirname "$(realpath "${BASH_SOURCE[0]}")")
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$here/../common/mpi_launch.sh"
# shellcheck source=SCRIPTDIR/../common/checks.sh
source "$here/../common/checks.sh"
EXE=$(realpath "$1")
MESH=$(realpath "$2/beam_v22_ascii.msh")
launch_in_scratch "$RANKS" "$EXE"

# scene SIDE HELD-BOX > FILE (SIDE In or Out)
scene() {
  cat <<XML
<Node name="root" gravity="0 -9.81 2" dt="0.02">
  <DefaultAnimationLoop/>
  <MeshGmshLoader name="loader" filename="$MESH"/>
  <SubsetTopology name="subset" src="@loader" rest_position="@loader.position"
                  box="-1 -1 -1 4 2 2" localIndices="1"/>
  <Node name="body">
    <EulerImplicitSolver rayleighMass="0.05" rayleighStiffness="0.02"/>
    <CGLinearSolver iterations="1000" tolerance="1e-24" threshold="1e-30"/>
    <MechanicalObject name="dofs" position="@../subset.points$1ROI"/>
    <TetrahedronSetTopologyContainer position="@dofs.position"
                                     tetrahedra="@../subset.tetrahedra$1ROI"/>
    <UniformMass totalMass="0.5"/>
    <TetrahedronFEMForceField youngModulus="2e4" poissonRatio="0.3"/>
    <BoxROI name="held" box="$2"/>
    <FixedProjectiveConstraint indices="@held.indices"/>
  </Node>
</Node>
XML
}
scene In '-0.01 -1 -1 0.01 2 2' > in.scn
scene Out '9.99 -1 -1 10.01 2 2' > out.scn

# The file's counts: nodes with x <= 4, x = 0, x = 10, and the nodes with x <= 4 of the
# tetrahedra with nodes on both sides.
read -r inside at0 at10 border < <(awk '
  /^\$Nodes/ { part = 1; getline; next } /^\$EndNodes/ { part = 0 }
  /^\$Elements/ { part = 2; getline; next } /^\$EndElements/ { part = 0 }
  part == 1 { x[$1] = $2; inside += ($2 <= 4); at0 += ($2 == 0); at10 += ($2 == 10) }
  part == 2 && $2 == 4 {
    n = 0; for (i = NF - 3; i <= NF; ++i) n += (x[$i] <= 4)
    if (n > 0 && n < 4) for (i = NF - 3; i <= NF; ++i) if (x[$i] <= 4) edge[$i] = 1 }
  END { for (k in edge) b++; print inside, at0, at10, b }' "$MESH")
total=$(awk '/^\$Nodes/ { getline; print; exit }' "$MESH")
outside=$((total - inside + border))

# run NAME RANKS SCENE: 10 steps, the final state in NAME.csv.
run() {
  mpi_command "$2" "$EXE"
  local status=0
  timeout 120 "${MPI_COMMAND[@]}" --scene "$3" --solver.steps=10 --output.final-state="$1.csv" \
    --quiet > "$1.out" 2> "$1.err" || status=$?
  [ "$status" -eq 0 ] || sed 's/^/     | /' "$1.err"
  return "$status"
}
# rows FILE COUNT HELD: COUNT rows, exactly HELD of them with v = 0 (columns 5-7).
rows() {
  awk -F, -v count="$2" -v held="$3" 'FNR > 1 { n++; h += ($5 == 0 && $6 == 0 && $7 == 0) }
    END { if (n != count || h != held) { print "  " n " rows, " h " at rest"; exit 1 } }' "$1"
}
check "the file has nodes on both sides and on the border ($inside in, $border border)" \
  test "$inside" -gt 0 -a "$border" -gt 0 -a "$inside" -lt "$total"
for side in in out; do
  for ranks in 1 2 3; do
    check "$side runs on $ranks rank(s)" run "$side$ranks" "$ranks" "$side.scn"
  done
done
for ranks in 1 2 3; do
  check "in$ranks: $inside points, the $at0 at x = 0 held" rows "in$ranks.csv" "$inside" "$at0"
  check "out$ranks: $outside points, the $at10 at x = 10 held" rows "out$ranks.csv" "$outside" "$at10"
done
for side in in out; do
  check "$side: 2 ranks = 1 rank (1e-12)" same_state "${side}1.csv" "${side}2.csv" 1e-12
  check "$side: 3 ranks = 1 rank (1e-12)" same_state "${side}1.csv" "${side}3.csv" 1e-12
done

echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
