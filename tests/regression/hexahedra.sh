#!/usr/bin/env bash
# Hexahedral meshes (mesh.cell-type = hexahedron, SOFA's HexahedronFEMForceField): the built-in
# box of hexahedra runs with each method (linear = small, corotational large and polar) and ends
# where it ends on 1 rank, on 2 and 3 ranks; a uniform initial velocity with no load and no
# constraint moves every node by t v (the elements feel no strain); a Gmsh file of hexahedra with
# each hexahedral mass and springs ends in one state on 1, 2 and 3 ranks, and where the box ends;
# SOFA's HexahedronFEMForceFieldAndMass is mass.type = hexahedron-fem; what is written for
# tetrahedra only is refused with one line naming it.
# Usage: hexahedra.sh <euler-implicit>; the MPI launch line: tests/common/mpi_launch.sh.
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
box=(--mesh.cell-type=hexahedron --mesh.box-size="2 0.5 0.4" --mesh.box-cells="6 2 2"
  --solver.dt=0.02 --solver.rtol=1e-13 --output.progress-every=0)
uniform=(--mass.type=uniform --mass.total-mass=3)

for model in "linear" "corotational --material.rotation=large" "corotational --material.rotation=polar"; do
  # shellcheck disable=SC2206  # the model's words are options
  options=(--material.model=$model)
  for ranks in 1 2 3; do
    run "$ranks" "${box[@]}" "${uniform[@]}" --solver.steps=4 "${options[@]}" \
      --output.final-state="end$ranks.csv"
    check "$model on $ranks ranks runs" test -s "end$ranks.csv"
  done
  check "$model: 2 ranks end where 1 rank does" same_state end1.csv end2.csv 1e-11
  check "$model: 3 ranks end where 1 rank does" same_state end1.csv end3.csv 1e-11
done

# No constraint (a fixed box that holds no node), no gravity, every node at velocity v: after
# 4 steps of 0.02 each node is X + 0.08 v, the velocity still v.
run 2 "${box[@]}" "${uniform[@]}" --solver.steps=4 --material.model=corotational \
  --constraint.fixed-box="9 9 9 10 10 10" --load.gravity="0 0 0" --initial.velocities="1 -2 0.5" \
  --output.final-state=drift.csv
check "a rigid drift runs" test -s drift.csv
run 1 "${box[@]}" "${uniform[@]}" --solver.steps=0 --material.model=corotational \
  --constraint.fixed-box="9 9 9 10 10 10" --load.gravity="0 0 0" --output.final-state=rest.csv
check "the rest state is written" test -s rest.csv
drifted() {
  awk -F, 'NR == FNR { if (FNR > 1) { x[$1] = $2; y[$1] = $3; z[$1] = $4 }; next }
    FNR > 1 { e = ($2 - x[$1] - 0.08) ^ 2 + ($3 - y[$1] + 0.16) ^ 2 + ($4 - z[$1] - 0.04) ^ 2
              e += ($5 - 1) ^ 2 + ($6 + 2) ^ 2 + ($7 - 0.5) ^ 2; if (e > m) m = e; n++ }
    END { if (n == 0 || m > 1e-20) { printf "  off by %g\n", sqrt(m); exit 1 } }' rest.csv drift.csv
}
check "every node drifts by t v, at velocity v" drifted

# SOFA's RegularGridTopology under a HexahedronFEMForceField is the hexahedral box, node for node
# and cell for cell: the scene ends where the INI box of the same cells and keys ends.
cat > grid.scn <<'XML'
<Node name="root" dt="0.02" gravity="0 -9.81 0">
  <Node name="beam">
    <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.2"/>
    <CGLinearSolver iterations="1000" tolerance="1e-13" threshold="1e-30"/>
    <MechanicalObject/>
    <UniformMass totalMass="3"/>
    <RegularGridTopology n="7 3 3" min="0 0 0" max="2 0.5 0.4"/>
    <FixedProjectiveConstraint indices="0 7 14 21 28 35 42 49 56"/>
    <HexahedronFEMForceField youngModulus="4000" poissonRatio="0.3" method="polar"/>
  </Node>
</Node>
XML
run 2 --scene grid.scn --solver.steps=5 --output.final-state=scene.csv
check "the SOFA grid scene runs" test -s scene.csv
run 2 "${box[@]}" "${uniform[@]}" --solver.steps=5 --material.model=corotational \
  --material.rotation=polar --material.young-modulus=4000 --material.poisson-ratio=0.3 \
  --load.gravity="0 -9.81 0" --solver.rayleigh-stiffness=0.1 --solver.rayleigh-mass=0.2 \
  --constraint.fixed-box="-0.01 -1 -1 0.01 1 1" --output.final-state=ini.csv
check "the SOFA grid scene ends where the INI box ends" same_state scene.csv ini.csv 1e-11
# MultiThreading's ParallelHexahedronFEMForceField is HexahedronFEMForceField's mechanics: the
# same final state, byte for byte.
sed 's|<HexahedronFEMForceField |<ParallelHexahedronFEMForceField |' grid.scn >parallel.scn
run 2 --scene parallel.scn --solver.steps=5 --output.final-state=parallel.csv
check "ParallelHexahedronFEMForceField ends where HexahedronFEMForceField does" \
  cmp -s scene.csv parallel.csv
sed -e 's|<RegularGridTopology[^>]*>|<HexahedronSetTopologyContainer position="0 0 0 1 0 0 1 1 0 0 1 0 0 0 1 1 0 1 1 1 1 0 1 1" hexahedra="0 1 2 3 4 5 6 7"/>|' \
  -e 's|indices="[^"]*"|indices="0 3 4 7"|' grid.scn >container.scn
run 2 --scene container.scn --solver.steps=1 --output.final-state=container.csv
check "a HexahedronFEMForceField on a topology container's hexahedra reads them" awk -F, \
  'FNR > 1 { n++; h += ($5 == 0 && $6 == 0 && $7 == 0) } END { exit !(n == 8 && h == 4) }' \
  container.csv
sed 's|<RegularGridTopology[^>]*>|<GridTopology n="3 3 3"/>|' grid.scn >multiple.scn
run 2 --scene multiple.scn --solver.steps=1
check "a grid of a kind not read here is named as the cause" grep -q \
  "GridTopology: not supported yet" run.log
sed 's|method="polar"|method="polar" updateStiffnessMatrix="true"|' grid.scn >update.scn
run 2 --scene update.scn --solver.steps=1
check "updateStiffnessMatrix is refused" grep -q "updateStiffnessMatrix.*recomputed every step" run.log

# The ParaView and XDMF series hold the hexahedra as VTK_HEXAHEDRON and XDMF Hexahedron cells, in
# SOFA's vertex order, every cell once over the ranks, the seams closed.
run 2 "${box[@]}" "${uniform[@]}" --solver.steps=2 --material.model=corotational \
  --output.vtk=out/hex --output.xdmf=out/hex
series_hold_hexahedra() {
  /usr/bin/python3 - <<'PY'
import glob, sys
import h5py, vtk
from vtk.util.numpy_support import vtk_to_numpy
reader = vtk.vtkXMLPUnstructuredGridReader()
reader.SetFileName(sorted(glob.glob("out/hex_*.pvtu"))[-1])
reader.Update()
grid = reader.GetOutput()
own = vtk_to_numpy(grid.GetCellData().GetArray("vtkGhostType")) == 0
types = {grid.GetCellType(c) for c in range(grid.GetNumberOfCells())}
# The seams between the ranks are closed by ghost cells: the drawn surface is the box's outer
# faces alone, 2 (6 2 + 6 2 + 2 2) = 56 quadrangles.
geometry = vtk.vtkGeometryFilter()
geometry.SetInputConnection(reader.GetOutputPort())
geometry.Update()
faces = geometry.GetOutput().GetNumberOfPolys()
topology = h5py.File("out/hex.h5", "r")["/mesh/topology"][:]
xml = open("out/hex.xdmf").read()
ok = (own.sum() == 24 and types == {12} and faces == 56 and topology.shape == (24, 8)
      and list(topology[0]) == [0, 1, 8, 7, 21, 22, 29, 28]
      and 'TopologyType="Hexahedron"' in xml)
if not ok:
    print("  cells", own.sum(), "types", types, "faces", faces, "topology", topology.shape,
          topology[0])
sys.exit(0 if ok else 1)
PY
}
check "the ParaView and XDMF series hold the hexahedra" series_hold_hexahedra

# The box's nodes and hexahedra written as a Gmsh 2.2 file (node i + 7 (j + 3 k), cells i
# fastest, SOFA's vertex order) are the same mesh: a run of it ends where the box's run ends. The
# masses and the springs on hexahedra end in the same state on 1, 2 and 3 ranks.
/usr/bin/python3 - <<'PY'
n = (7, 3, 3)
h = (2 / 6, 0.5 / 2, 0.4 / 2)
ids = lambda i, j, k: 1 + i + n[0] * (j + n[1] * k)
nodes = [(i * h[0], j * h[1], k * h[2]) for k in range(3) for j in range(3) for i in range(7)]
cells = [(ids(i, j, k), ids(i + 1, j, k), ids(i + 1, j + 1, k), ids(i, j + 1, k),
          ids(i, j, k + 1), ids(i + 1, j, k + 1), ids(i + 1, j + 1, k + 1), ids(i, j + 1, k + 1))
         for k in range(2) for j in range(2) for i in range(6)]
with open("hexbox.msh", "w") as f:
    f.write("$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n%d\n" % len(nodes))
    for i, p in enumerate(nodes):
        f.write("%d %.17g %.17g %.17g\n" % ((i + 1,) + p))
    f.write("$EndNodes\n$Elements\n%d\n" % len(cells))
    for e, c in enumerate(cells):
        f.write("%d 5 2 0 1 %s\n" % (e + 1, " ".join(map(str, c))))
    f.write("$EndElements\n")
PY
# The same hexahedra through SOFA's MeshGmshLoader: the grid scene's state; each FEM force field
# reads only its own cells, so a TetrahedronFEMForceField on them is refused, and a
# HexahedronFEMForceField on a file of tetrahedra.
sed 's|<RegularGridTopology[^>]*>|<MeshGmshLoader name="loader" filename="hexbox.msh"/><MeshTopology src="@loader"/>|' \
  grid.scn >loader.scn
run 2 --scene loader.scn --solver.steps=5 --output.final-state=loader.csv
check "a HexahedronFEMForceField on a MeshGmshLoader's hexahedra runs" test -s loader.csv
check "... and ends where the grid scene ends" same_state scene.csv loader.csv 1e-11
sed 's|HexahedronFEMForceField|TetrahedronFEMForceField|' loader.scn >tetra_on_hexa.scn
run 2 --scene tetra_on_hexa.scn --solver.steps=1
check "a TetrahedronFEMForceField on a file of hexahedra is refused" grep -q \
  "material.cells = tetrahedron: the elastic model is written for tetrahedra, and this mesh has hexahedra" \
  run.log
printf '$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n4\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n$EndNodes\n$Elements\n1\n1 4 2 0 1 1 2 3 4\n$EndElements\n' >tet.msh
sed 's|hexbox.msh|tet.msh|; s|indices="[^"]*"|indices="0"|' loader.scn >hexa_on_tetra.scn
run 1 --scene hexa_on_tetra.scn --solver.steps=1
check "a HexahedronFEMForceField on a file of tetrahedra is refused" grep -q \
  "material.cells = hexahedron: the elastic model is written for hexahedra, and this mesh has tetrahedra" \
  run.log
file_keys=(--solver.dt=0.02 --solver.rtol=1e-13 --output.progress-every=0 --mesh.file=hexbox.msh
  --material.model=corotational --constraint.fixed-box="-0.01 -1 -1 0.01 1 1")
for mass in lumped consistent hexahedron-fem hexahedron-fem-lumped; do
  for ranks in 1 2 3; do
    run "$ranks" "${file_keys[@]}" --solver.steps=4 --mass.type="$mass" --material.density=3 \
      --springs.stiffness=50 --springs.damping=0.5 --output.final-state="gmsh_$mass$ranks.csv"
    check "a Gmsh file of hexahedra, $mass mass and springs, runs on $ranks ranks" \
      test -s "gmsh_$mass$ranks.csv"
  done
  check "$mass mass: 2 ranks end where 1 rank does" same_state "gmsh_${mass}1.csv" \
    "gmsh_${mass}2.csv" 1e-11
  check "$mass mass: 3 ranks end where 1 rank does" same_state "gmsh_${mass}1.csv" \
    "gmsh_${mass}3.csv" 1e-11
done
run 2 "${box[@]}" --material.model=corotational --constraint.fixed-box="-0.01 -1 -1 0.01 1 1" \
  --solver.steps=4 --mass.type=consistent --material.density=3 --springs.stiffness=50 \
  --springs.damping=0.5 --output.final-state=box_consistent.csv
check "the Gmsh file of the box's hexahedra ends where the box ends" same_state \
  gmsh_consistent1.csv box_consistent.csv 1e-11

# HexahedronFEMForceFieldAndMass on the grid is the hexahedral box with mass.type =
# hexahedron-fem (its lumpedMass: hexahedron-fem-lumped) and the same density.
for lumped in false true; do
  sed -e 's|<UniformMass totalMass="3"/>||' \
    -e "s|<HexahedronFEMForceField |<HexahedronFEMForceFieldAndMass density=\"2\" lumpedMass=\"$lumped\" |" \
    grid.scn >andmass.scn
  run 2 --scene andmass.scn --solver.steps=5 --output.final-state=andmass.csv
  check "HexahedronFEMForceFieldAndMass (lumpedMass $lumped) runs" test -s andmass.csv
  mass=hexahedron-fem
  [ "$lumped" = true ] && mass=hexahedron-fem-lumped
  run 2 "${box[@]}" --mass.type=$mass --material.density=2 --solver.steps=5 \
    --material.model=corotational --material.rotation=polar --material.young-modulus=4000 \
    --material.poisson-ratio=0.3 --load.gravity="0 -9.81 0" --solver.rayleigh-stiffness=0.1 \
    --solver.rayleigh-mass=0.2 --constraint.fixed-box="-0.01 -1 -1 0.01 1 1" \
    --output.final-state=andmass_ini.csv
  check "HexahedronFEMForceFieldAndMass ends where mass.type = $mass ends" same_state \
    andmass.csv andmass_ini.csv 1e-11
done

run 2 --mesh.box-cells="6 2 2" --solver.steps=1 --mass.type=hexahedron-fem
check "SOFA's HexahedronFEMForceFieldAndMass mass on tetrahedra is refused" grep -q \
  "error: mass.type = hexahedron-fem: .* mass is a hexahedron's" run.log
one_step=(2 "$program" "${box[@]}" "${uniform[@]}" --solver.steps=1)
check "refinement of hexahedra is refused" \
  refused "only tetrahedra are refined" "${one_step[@]}" --mesh.refine=1
check "a hyperelastic law on hexahedra is refused" \
  refused "hyperelastic laws are integrated on tetrahedra" "${one_step[@]}" --material.model=neohookean
check "the svd frame on hexahedra is refused" refused "no svd or polar-gradient method" \
  "${one_step[@]}" --material.model=corotational --material.rotation=svd
check "mesh.cell-type with a mesh file is refused" \
  refused "mesh.cell-type is the built-in box's" "${one_step[@]}" --mesh.file=beam.msh

echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
