#!/usr/bin/env bash
# SOFA's GIDMeshLoader (io/sofa_gid_mesh.cpp) against the Gmsh reader: meshes/beam_v22_ascii.msh
# (a 10 x 1 x 1 beam of 434 tetrahedra) written out as a GiD file by awk, its points in the
# Gmsh file's order, and the same scene (held at x = 0, bent by gravity, 10 steps) run from
# each file on 1, 2 and 3 ranks: the final states agree to rounding.
# Usage: sofa_gid_mesh.sh <euler-implicit> <meshes dir>.
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

# The GiD file: points numbered 1.. in the Gmsh file's order, its tetrahedra (type 4).
awk '/^\$Nodes/ { part = 1; getline; next } /^\$EndNodes/ { part = 0 }
  /^\$Elements/ { part = 2; getline; next } /^\$EndElements/ { part = 0 }
  part == 1 { place[$1] = ++n; points[n] = n "  " $2 " " $3 " " $4 }
  part == 2 && $2 == 4 { cells[++e] = e "  " place[$(NF - 3)] " " place[$(NF - 2)] " " \
                         place[$(NF - 1)] " " place[$NF] }
  END { print "MESH \"beam\" dimension 3 ElemType Tetrahedra Nnode 4"; print "Coordinates"
        for (i = 1; i <= n; ++i) print points[i]; print "End Coordinates"; print ""
        print "Elements"; for (i = 1; i <= e; ++i) print cells[i]; print "End Elements" }' \
  "$MESH" > beam.gidmsh

# scene LOADER FILE > FILE
scene() {
  cat <<XML
<Node name="root" gravity="0 -9.81 2" dt="0.02">
  <DefaultAnimationLoop/>
  <Node name="beam">
    <EulerImplicitSolver rayleighMass="0.05" rayleighStiffness="0.02"/>
    <CGLinearSolver iterations="1000" tolerance="1e-24" threshold="1e-30"/>
    <$1 name="loader" filename="$2"/>
    <MeshTopology src="@loader"/>
    <MechanicalObject/>
    <UniformMass totalMass="0.5"/>
    <TetrahedronFEMForceField youngModulus="2e4" poissonRatio="0.3"/>
    <BoxROI name="held" box="-0.01 -1 -1 0.01 2 2"/>
    <FixedProjectiveConstraint indices="@held.indices"/>
  </Node>
</Node>
XML
}
scene GIDMeshLoader "$PWD/beam.gidmsh" > gid.scn
scene MeshGmshLoader "$MESH" > gmsh.scn

# run NAME RANKS SCENE: 10 steps, the final state in NAME.csv.
run() {
  mpi_command "$2" "$EXE"
  local status=0
  timeout 120 "${MPI_COMMAND[@]}" --scene "$3" --solver.steps=10 --output.final-state="$1.csv" \
    --quiet > "$1.out" 2> "$1.err" || status=$?
  [ "$status" -eq 0 ] || sed 's/^/     | /' "$1.err"
  return "$status"
}
# moved FILE: 190 rows, some moved (v not 0).
moved() {
  awk -F, 'FNR > 1 { n++; m += ($6 != 0) } END { if (n != 190 || m == 0) {
    print "  " n " rows, " m " moving"; exit 1 } }' "$1"
}
for ranks in 1 2 3; do
  check "the GiD beam runs on $ranks rank(s)" run "gid$ranks" "$ranks" gid.scn
  check "the Gmsh beam runs on $ranks rank(s)" run "gmsh$ranks" "$ranks" gmsh.scn
  check "gid$ranks: the beam's 190 points, bent" moved "gid$ranks.csv"
  check "GiD = Gmsh on $ranks rank(s) (1e-12)" same_state "gmsh$ranks.csv" "gid$ranks.csv" 1e-12
done
check "GiD: 2 ranks = 1 rank (1e-12)" same_state gid1.csv gid2.csv 1e-12
check "GiD: 3 ranks = 1 rank (1e-12)" same_state gid1.csv gid3.csv 1e-12

echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
