#!/usr/bin/env bash
# SOFA's QuadBendingSprings (model/quad_bending_springs) on a RegularGridTopology of one point
# along y, the grid's quadrangles the body (a cloth held along one edge, sagging out of its plane
# under gravity): the scene ends where the keys of the same body end (the grid's points and
# quadrangles written out here in SOFA's order, GridTopology::updateQuads), on 1, 2 and 3 ranks;
# beside MeshSpringForceField (the body then the grid's triangles) the springs still act; a
# QuadBendingSprings with springs of SpringForceField's own, or on a MeshTopology's quadrangles,
# is refused (one error line), its lengths, elongationOnly and enabled ignored (SOFA overwrites
# them). A body of hexahedra with QuadularBendingSprings and
# TriangularBendingSprings on its Hexa2Quad and Quad2Triangle topological mappings (two bending
# families in one body) ends alike on 1, 2 and 3 ranks, its QuadularBendingSprings where the
# pairing of bending.quads ends; the same on a RegularGridTopology's Hexa2Quad (the grid's order)
# with QuadBendingSprings. Their springs, force and tangent are checked against a list by hand, a
# force by hand and finite differences in tests/mpi/test_quad_bending_springs.cpp.
# Usage: sofa_quad_bending.sh <euler-implicit>; the MPI launch line: tests/common/mpi_launch.sh.
set -uo pipefail
RANKS=3  # MPI ranks at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
here=$(dirname "$(realpath "${BASH_SOURCE[0]}")")
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$here/../common/mpi_launch.sh"
# shellcheck source=SCRIPTDIR/../common/checks.sh
source "$here/../common/checks.sh"
program=$(realpath "$1")
launch_in_scratch 1 "$program"

run() {  # run RANKS ARGS...: euler-implicit on RANKS ranks, its output in run.log
  mpi_command "$1" "$program"
  "${MPI_COMMAND[@]}" "${@:2}" >run.log 2>&1
}

cat >cloth.scn <<'XML'
<Node name="root" dt="0.05" gravity="0 -9.8 2">
  <Node name="cloth">
    <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>
    <CGLinearSolver iterations="1000" tolerance="1e-13" threshold="1e-30"/>
    <RegularGridTopology nx="6" ny="1" nz="5" xmin="0" xmax="5" ymin="0" ymax="0" zmin="0" zmax="4"/>
    <MechanicalObject/>
    <UniformMass totalMass="3"/>
    <FixedProjectiveConstraint indices="0 1 2 3 4 5"/>
    <QuadBendingSprings stiffness="40" damping="0.5"/>
  </Node>
</Node>
XML
for ranks in 1 2 3; do
  run "$ranks" --scene cloth.scn --solver.steps=4 --output.final-state="scene$ranks.csv"
  check "the SOFA cloth with QuadBendingSprings runs on $ranks ranks" test -s "scene$ranks.csv"
done
# Across each inner edge the two straight springs 2 long, shared along each line of points: 4
# along each of the 5 lines along x, 3 along each of the 6 along z.
check "the grid's 20 quadrangles give 38 springs" grep -q "38 springs across 20 quadrangles" run.log
check "the cloth ends on 2 ranks where on 1" same_state scene1.csv scene2.csv 1e-10
check "the cloth ends on 3 ranks where on 1" same_state scene1.csv scene3.csv 1e-10

# The same body as keys: point i + 6 k at (i, 0, k), quadrangles (x,z) (x+1,z) (x+1,z+1) (x,z+1).
nodes="" quads=""
for k in 0 1 2 3 4; do for i in 0 1 2 3 4 5; do nodes+="$i 0 $k "; done; done
for k in 0 1 2 3; do for i in 0 1 2 3 4; do
  a=$((6 * k + i)); quads+="$a $((a + 1)) $((a + 7)) $((a + 6)) "
done; done
keys=(--mesh.nodes="$nodes" --mesh.quadrangles="$quads" --material.model=none
  --mass.type=uniform --mass.total-mass=3 --load.gravity="0 -9.8 2"
  --constraint.fixed="indices 0 1 2 3 4 5" --solver.dt=0.05 --solver.steps=4
  --solver.rtol=1e-13 --solver.rayleigh-mass=0.1 --solver.rayleigh-stiffness=0.1
  --solver.operator=matrix-free)
run 2 "${keys[@]}" --quad-bending.stiffness=40 --quad-bending.damping=0.5 \
  --quad-bending.quadrangles="$quads" --output.final-state=keys.csv
check "the SOFA cloth ends where its keys end" same_state scene1.csv keys.csv 1e-10
run 2 "${keys[@]}" --quad-bending.stiffness=40 --quad-bending.damping=0.5 \
  --output.final-state=cells.csv
check "the body's own quadrangles (quad-bending.faces = cells) are the same springs" \
  same_state keys.csv cells.csv 1e-10
run 2 "${keys[@]}" --output.final-state=free.csv
differs() { [ -s "$1" ] && [ -s "$2" ] && ! same_state "$@" >/dev/null; }
check "without the springs the cloth ends elsewhere" differs keys.csv free.csv 1e-3

# Beside MeshSpringForceField the body is the grid's triangles; the springs stay the quads'.
sed 's|<QuadBendingSprings|<MeshSpringForceField stiffness="100" damping="0"/><QuadBendingSprings|' \
  cloth.scn >membrane.scn
sed 's|<QuadBendingSprings[^>]*>||' membrane.scn >no_bending.scn
run 2 --scene membrane.scn --solver.steps=4 --output.final-state=membrane.csv
check "the cloth with MeshSpringForceField and QuadBendingSprings runs" test -s membrane.csv
run 2 --scene no_bending.scn --solver.steps=4 --output.final-state=no_bending.csv
check "there too the bending springs act" differs membrane.csv no_bending.csv 1e-3

sed 's|<QuadBendingSprings |<QuadBendingSprings indices1="0" indices2="29" |' cloth.scn >own.scn
check "springs of SpringForceField's own are refused (one line)" \
  refused "QuadBendingSprings.*indices1.*SpringForceField's own" \
  2 "$program" --scene own.scn --solver.steps=1
# SOFA overwrites lengths, elongationOnly and enabled with each added spring's own values.
sed 's|<QuadBendingSprings |<QuadBendingSprings lengths="7" elongationOnly="1" enabled="0" |' \
  cloth.scn >overwritten.scn
run 2 --scene overwritten.scn --solver.steps=4 --output.final-state=overwritten.csv
check "lengths, elongationOnly and enabled are ignored as SOFA ignores them" \
  same_state scene1.csv overwritten.csv 1e-10
check "each with a warning" grep -q "QuadBendingSprings.*: elongationOnly ignored" run.log
sed 's|<RegularGridTopology[^>]*>|<MeshTopology position="0 0 0 1 0 0 1 1 0 0 1 0" quads="0 1 2 3"/>|' \
  cloth.scn >mesh_quads.scn
check "QuadBendingSprings on other quadrangles are refused (one line)" \
  refused "QuadBendingSprings.*stiffness.*supported on the quadrangles of a grid" \
  2 "$program" --scene mesh_quads.scn --solver.steps=1

# A body of hexahedra with QuadularBendingSprings on the quadrangles of a
# Hexa2QuadTopologicalMapping (given twice onto one container, as SOFA's TopoMap_Hexa2Quad2Triangle
# does: each init fills it anew) and TriangularBendingSprings on their Quad2TriangleTopologicalMapping:
# two bending families in one body, ending in one state on 1, 2 and 3 ranks.
{
  printf '# vtk DataFile Version 2.0\nthree cubes\nASCII\nDATASET UNSTRUCTURED_GRID\nPOINTS 16 double\n'
  for k in 0 1; do for j in 0 1; do for i in 0 1 2 3; do echo "$i $j $k"; done; done; done
  echo "CELLS 3 27"
  for i in 0 1 2; do echo "8 $i $((i + 1)) $((i + 5)) $((i + 4)) $((i + 8)) $((i + 9)) $((i + 13)) $((i + 12))"; done
  printf 'CELL_TYPES 3\n12\n12\n12\n'
} >cubes.vtk
body() {  # body TOPOLOGY FEM: the hexahedra's node; the child nodes follow, then </Node></Node></Node>
  cat <<XML
<Node name="root" dt="0.05" gravity="0 -9.8 1">
  <Node name="H">
    <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>
    <CGLinearSolver iterations="1000" tolerance="1e-13" threshold="1e-30"/>
    $1
    <$2 youngModulus="40" poissonRatio="0.3"/>
    <UniformMass totalMass="2"/>
    <FixedProjectiveConstraint indices="0 4 8 12"/>
    <Node name="Q">
      <QuadSetTopologyContainer name="Container"/>
      <QuadSetTopologyModifier/>
      <Hexa2QuadTopologicalMapping input="@../Container" output="@Container"/>
      <Hexa2QuadTopologicalMapping input="@../Container" output="@Container"/>
      <QuadularBendingSprings stiffness="300" damping="1"/>
XML
}
triangles='      <Node name="T">
        <TriangleSetTopologyContainer name="Container"/>
        <TriangleSetTopologyModifier/>
        <Quad2TriangleTopologicalMapping input="@../Container" output="@Container"/>
        <TriangularBendingSprings stiffness="200" damping="1"/>
      </Node>'
container='<MeshVTKLoader name="loader" filename="cubes.vtk"/><MechanicalObject src="@loader"/>
    <HexahedronSetTopologyContainer name="Container" src="@loader"/>'

{ body "$container" HexahedralFEMForceField; echo "$triangles"; echo "</Node></Node></Node>"; } >families.scn
{ body "$container" HexahedralFEMForceField; echo "</Node></Node></Node>"; } >quadular.scn
for ranks in 1 2 3; do
  run "$ranks" --scene families.scn --solver.steps=4 --output.final-state="families$ranks.csv"
  check "two bending families in one body run on $ranks ranks" test -s "families$ranks.csv"
done
check "the two families end on 2 ranks where on 1" same_state families1.csv families2.csv 1e-10
check "the two families end on 3 ranks where on 1" same_state families1.csv families3.csv 1e-10
run 2 --scene quadular.scn --solver.steps=4 --output.final-state=quadular.csv
check "the triangles' springs act beside the quadrangles'" differs families2.csv quadular.csv 1e-3
# QuadularBendingSprings as quad-bending-springs (law quadular) against the pairing of
# bending.quads (model/boundary_bending_springs), the quad-bending springs set to nothing.
run 2 --scene quadular.scn --solver.steps=4 --quad-bending.stiffness=0 --quad-bending.damping=0 \
  --bending.quads=true --bending.faces=boundary --bending.stiffness=300 --bending.damping=1 \
  --output.final-state=bending_quads.csv
check "QuadularBendingSprings end where bending.quads ends" \
  same_state quadular.csv bending_quads.csv 1e-10
sed 's|<QuadularBendingSprings[^>]*>|&<QuadularBendingSprings/>|' quadular.scn >two.scn
check "a second QuadularBendingSprings on one body is refused (one line)" \
  refused "a second QuadBendingSprings or QuadularBendingSprings on one body" \
  2 "$program" --scene two.scn --solver.steps=1

# The same on a RegularGridTopology's hexahedra (SOFA's 6_TopoMapping): the mapping lists the
# grid's quadrangles in GridTopology's order and vertex order, and QuadBendingSprings on them.
grid='<MechanicalObject/><RegularGridTopology name="Container" n="4 2 2" min="0 0 0" max="3 1 1"/>'
{ body "$grid" HexahedronFEMForceField | sed 's|QuadularBendingSprings|QuadBendingSprings|'
  echo "$triangles"; echo "</Node></Node></Node>"; } >grid.scn
for ranks in 1 2 3; do
  run "$ranks" --scene grid.scn --solver.steps=4 --output.final-state="grid$ranks.csv"
  check "bending springs on a grid's Hexa2QuadTopologicalMapping run on $ranks ranks" \
    test -s "grid$ranks.csv"
done
check "the grid's bending ends on 2 ranks where on 1" same_state grid1.csv grid2.csv 1e-10
check "the grid's bending ends on 3 ranks where on 1" same_state grid1.csv grid3.csv 1e-10
sed 's|<TriangularBendingSprings|<TriangularFEMForceField youngModulus="10"/>&|' grid.scn >membrane_grid.scn
check "a membrane on a grid's quadrangles is refused (one line)" \
  refused "Hexa2QuadTopologicalMapping: input: a grid's quadrangles.*bending springs alone" \
  2 "$program" --scene membrane_grid.scn --solver.steps=1

echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
