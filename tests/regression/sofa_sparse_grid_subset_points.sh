#!/usr/bin/env bash
# A SparseGridTopology whose position links a SubsetTopology's pointsOutROI (SOFA computes them;
# with no facets, SparseGridTopology::voxelizeTriangleMesh marks the cell of each point as crossed,
# then fills what they enclose): the points of meshes/beam_v22_ascii.msh (a 10 x 1 x 1 beam) out
# of the box x <= 4, and those in it that share a tetrahedron with one out of it (SOFA lists them
# in both with localIndices), a grid body held at its far end, bent by gravity for 10 steps:
#  - its final state is, bit for bit, that of the same scene with those points (awk reads them
#    from the file) written in the grid's position, on 1 and 3 ranks; 1 and 3 ranks agree;
#  - a grid's position or triangles linked to values SOFA computes otherwise are refused in one
#    error line naming the scene's file and line.
# Usage: sofa_sparse_grid_subset_points.sh <euler-implicit> <meshes dir>.
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

# The file's nodes out of the box and the border nodes in it, X Y Z each.
POINTS=$(awk '
  /^\$Nodes/ { part = 1; getline; next } /^\$EndNodes/ { part = 0 }
  /^\$Elements/ { part = 2; getline; next } /^\$EndElements/ { part = 0 }
  part == 1 { x[$1] = $2; p[$1] = $2 " " $3 " " $4; if ($2 > 4) keep[$1] = 1 }
  part == 2 && $2 == 4 {
    n = 0; for (i = NF - 3; i <= NF; ++i) n += (x[$i] <= 4)
    if (n > 0 && n < 4) for (i = NF - 3; i <= NF; ++i) keep[$i] = 1 }
  END { for (k in keep) printf "%s  ", p[k] }' "$MESH")

scene() {  # scene GRID-ATTRIBUTES > FILE
  cat <<XML
<Node name="root" gravity="0 -9.81 2" dt="0.02">
  <DefaultAnimationLoop/>
  <MeshGmshLoader name="loader" filename="$MESH"/>
  <SubsetTopology name="subset" src="@loader" rest_position="@loader.position"
                  box="-1 -1 -1 4 2 2" localIndices="1"/>
  <Node name="body">
    <EulerImplicitSolver rayleighMass="0.05" rayleighStiffness="0.02"/>
    <CGLinearSolver iterations="1000" tolerance="1e-24" threshold="1e-30"/>
    <SparseGridTopology name="grid" n="7 3 3" $1/>
    <MechanicalObject name="dofs"/>
    <UniformMass totalMass="0.5"/>
    <HexahedronFEMForceField youngModulus="2e4" poissonRatio="0.3"/>
    <BoxROI name="held" box="9.9 -2 -2 10.2 3 3"/>
    <FixedProjectiveConstraint indices="@held.indices"/>
  </Node>
</Node>
XML
}
scene 'position="@../subset.pointsOutROI"' > linked.scn
scene "position=\"$POINTS\"" > written.scn
scene 'position="@../subset.indices"' > indices.scn
scene 'position="@../subset.pointsOutROI" triangles="@../subset.trianglesOutROI"' > facets.scn

run() {  # run NAME RANKS SCENE: 10 steps, the final state in NAME.csv
  mpi_command "$2" "$EXE"
  local status=0
  timeout 120 "${MPI_COMMAND[@]}" --scene "$3" --solver.steps=10 --output.final-state="$1.csv" \
    --quiet > "$1.out" 2> "$1.err" || status=$?
  [ "$status" -eq 0 ] || sed 's/^/     | /' "$1.err"
  return "$status"
}
check "the file has points out of the box" test -n "$POINTS"
# Bit for bit on 1 and 2 ranks; on 3, two runs of one scene may differ in the last bits
# (GAMG's coarse product sums three ranks' parts in arrival order), so to 1e-12 there.
for ranks in 1 2 3; do
  check "the linked subset points run on $ranks rank(s)" run "linked$ranks" "$ranks" linked.scn
  check "the written points run on $ranks rank(s)" run "written$ranks" "$ranks" written.scn
  if [ "$ranks" -lt 3 ]; then
    check "on $ranks rank(s) both end in the same state, bit for bit" \
      cmp -s "linked$ranks.csv" "written$ranks.csv"
  else
    check "on $ranks rank(s) both end in the same state (1e-12)" \
      same_state "linked$ranks.csv" "written$ranks.csv" 1e-12
  fi
done
check "1 and 3 ranks agree to 1e-10" same_state linked1.csv linked3.csv 1e-10
check "the body moved (the test compares motion, not rest)" \
  awk -F, 'FNR > 1 && ($5 != 0 || $6 != 0 || $7 != 0) { moved = 1 } END { exit !moved }' \
  linked1.csv

# One step on 2 ranks: one error line naming the scene's line 9 and the field.
check "indices.scn is refused, naming indices.scn:9 and position" \
  refused "indices.scn:9: SparseGridTopology 'grid': position.*a link to points SOFA computes is \
not supported here" 2 "$EXE" --scene indices.scn --solver.steps=1
check "facets.scn is refused, naming facets.scn:9 and triangles" \
  refused "facets.scn:9: SparseGridTopology 'grid': triangles.*a link to facets SOFA computes is \
not supported" 2 "$EXE" --scene facets.scn --solver.steps=1
echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
