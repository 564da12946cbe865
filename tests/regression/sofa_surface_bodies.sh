#!/usr/bin/env bash
# SOFA scenes whose bodies are triangles, quads or edges: the membrane written inline in a
# TriangleSetTopologyContainer (and in a MeshTopology), with DiagonalMass (a density per area) and
# the corotational TriangularFEMForceField, ends where the keys of the same body end, on 1 and 2
# ranks; a MechanicalObject scaled flat (scale3d="100 100 0", as SOFA's TriangularFEMForceField
# example does) keeps its triangles; a RegularGridTopology of one point along y is SOFA's quads
# under RegularGridSpringForceField (lines and diagonals by kind) and its triangles under
# MeshSpringForceField (whose lines are GridTopology's triangles' edges), ending where the keys
# of those cells end, its DiagonalMass the quads' lumped mass; a grid of one point along two axes
# is a line of edges; a TriangleSetTopologyContainer reading a loader whose file has tetrahedra,
# from which SOFA's container would take the triangles alone, is refused (one error line).
# Usage: sofa_surface_bodies.sh <euler-implicit> <meshes dir>; the MPI launch line: tests/common/mpi_launch.sh.
set -uo pipefail
RANKS=2  # MPI ranks at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
here=$(dirname "$(realpath "${BASH_SOURCE[0]}")")
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$here/../common/mpi_launch.sh"
# shellcheck source=SCRIPTDIR/../common/checks.sh
source "$here/../common/checks.sh"
program=$(realpath "$1")
beam=$(realpath "$2/beam_v22_ascii.msh")
launch_in_scratch 1 "$program"

run() {  # run RANKS ARGS...: euler-implicit on RANKS ranks, its output in run.log
  mpi_command "$1" "$program"
  "${MPI_COMMAND[@]}" "${@:2}" >run.log 2>&1
}
patch=(--mesh.nodes="0 0 0 0.5 0 0 1 0 0 0 0.5 0 0.55 0.45 0 1 0.5 0 0 1 0 0.5 1 0 1 1 0"
  --mesh.triangles="0 1 4 0 4 3 1 2 5 1 5 4 3 4 7 3 7 6 4 5 8 4 8 7")

# SOFA: the membrane written inline, with DiagonalMass (a density per area) and the
# corotational TriangularFEMForceField, ends where the keys of the same body end.
cat >membrane.scn <<'XML'
<Node name="root" dt="0.05" gravity="0 -9.8 10">
  <Node name="sheet">
    <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>
    <CGLinearSolver iterations="1000" tolerance="1e-13" threshold="1e-30"/>
    <MechanicalObject position="0 0 0 0.5 0 0 1 0 0 0 0.5 0 0.55 0.45 0 1 0.5 0 0 1 0 0.5 1 0 1 1 0"/>
    <TriangleSetTopologyContainer triangles="0 1 4 0 4 3 1 2 5 1 5 4 3 4 7 3 7 6 4 5 8 4 8 7"/>
    <DiagonalMass massDensity="0.005"/>
    <FixedProjectiveConstraint indices="0 1 2"/>
    <TriangularFEMForceField youngModulus="600" poissonRatio="0.3" method="large"/>
  </Node>
</Node>
XML
for ranks in 1 2; do
  run "$ranks" --scene membrane.scn --solver.steps=5 --output.final-state="scene$ranks.csv"
  check "the SOFA membrane scene runs on $ranks ranks" test -s "scene$ranks.csv"
done
run 1 "${patch[@]}" --membrane.young-modulus=600 --membrane.poisson-ratio=0.3 \
  --material.model=none --material.density=0.005 --load.gravity="0 -9.8 10" \
  --constraint.fixed="indices 0 1 2" --solver.dt=0.05 --solver.steps=5 --solver.rtol=1e-13 \
  --solver.rayleigh-mass=0.1 --solver.rayleigh-stiffness=0.1 --output.final-state=keys.csv
check "the SOFA membrane ends where its keys end" same_state scene1.csv keys.csv 1e-11
check "the SOFA membrane ends on 2 ranks where on 1" same_state scene1.csv scene2.csv 1e-11

sed 's|<TriangleSetTopologyContainer|<MeshTopology|' membrane.scn >mesh_topology.scn
run 1 --scene mesh_topology.scn --solver.steps=5 --output.final-state=topology.csv
check "a MeshTopology of triangles is the same body" same_state scene1.csv topology.csv 1e-13

# Flattened by scale3d: the sheet in z = 0 scaled by 2 2 0 ends where the keys of the scaled
# nodes end.
sed 's|<MechanicalObject |<MechanicalObject scale3d="2 2 0" |' membrane.scn >scaled.scn
run 1 --scene scaled.scn --solver.steps=5 --output.final-state=scaled.csv
check "a sheet scaled by 0 across its plane runs" test -s scaled.csv
run 1 "${patch[@]}" --mesh.transform="scale 2 2 0" --membrane.young-modulus=600 \
  --membrane.poisson-ratio=0.3 --material.model=none --material.density=0.005 \
  --load.gravity="0 -9.8 10" --constraint.fixed="indices 0 1 2" --solver.dt=0.05 \
  --solver.steps=5 --solver.rtol=1e-13 --solver.rayleigh-mass=0.1 \
  --solver.rayleigh-stiffness=0.1 --output.final-state=scaled_keys.csv
check "the scaled sheet ends where its keys end" same_state scaled.csv scaled_keys.csv 1e-11

# A RegularGridTopology n = 4 1 3 in the plane y = 0: point(x, z) = x + 4 z; its quads
# (x,z) (x+1,z) (x+1,z+1) (x,z+1) (GridTopology::updateQuads).
quads="" triangles=""
for z in 0 1; do for x in 0 1 2; do
  a=$((x + 4 * z)); quads+="$a $((a + 1)) $((a + 5)) $((a + 4)) "
  triangles+="$a $((a + 1)) $((a + 5)) $a $((a + 5)) $((a + 4)) "
done; done
nodes=""
for z in 0 0.5 1; do for x in 0 1 2 3; do nodes+="$x 0 $z "; done; done
grid() {  # grid FORCEFIELD: the scene of the grid under FORCEFIELD
  cat <<XML
<Node name="root" dt="0.02" gravity="0 -9.81 0">
  <Node name="cloth">
    <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>
    <CGLinearSolver iterations="1000" tolerance="1e-13" threshold="1e-30"/>
    <MechanicalObject/>
    <UniformMass totalMass="2"/>
    <RegularGridTopology n="4 1 3" min="0 0 0" max="3 0 1"/>
    <FixedProjectiveConstraint indices="0 4 8"/>
    $1
  </Node>
</Node>
XML
}
uniform=(--mass.type=uniform --mass.total-mass=2)
common=(--material.model=none --load.gravity="0 -9.81 0" --constraint.fixed="indices 0 4 8" --solver.dt=0.02 --solver.steps=4 --solver.rtol=1e-13
  --solver.rayleigh-mass=0.1 --solver.rayleigh-stiffness=0.1)
grid '<RegularGridSpringForceField linesStiffness="300" quadsStiffness="100" damping="1"/>' >quads.scn
for ranks in 1 2; do
  run "$ranks" --scene quads.scn --solver.steps=4 --output.final-state="quads$ranks.csv"
  check "the grid of quads runs on $ranks ranks" test -s "quads$ranks.csv"
done
run 1 --mesh.nodes="$nodes" --mesh.quadrangles="$quads" "${common[@]}" "${uniform[@]}" \
  --springs.stiffness-by-kind="300 100 100" --springs.damping-by-kind="1 1 1" \
  --output.final-state=quads_keys.csv
check "the grid's quads are SOFA's, numbered as SOFA numbers them" \
  same_state quads1.csv quads_keys.csv 1e-11
check "the grid of quads ends on 2 ranks where on 1" same_state quads1.csv quads2.csv 1e-11
# DiagonalMass on the grid lumps its quads' areas, a quarter a vertex (massDensity a mass per
# area).
sed 's|<UniformMass totalMass="2"/>|<DiagonalMass massDensity="0.7"/>|' quads.scn >lumped.scn
run 1 --scene lumped.scn --solver.steps=4 --output.final-state=lumped.csv
run 1 --mesh.nodes="$nodes" --mesh.quadrangles="$quads" "${common[@]}" --mass.type=lumped \
  --material.density=0.7 \
  --springs.stiffness-by-kind="300 100 100" --springs.damping-by-kind="1 1 1" \
  --output.final-state=lumped_keys.csv
check "DiagonalMass on the grid is its quads' lumped mass" same_state lumped.csv lumped_keys.csv 1e-11
grid '<MeshSpringForceField linesStiffness="300" linesDamping="1"/>' >lines.scn
run 1 --scene lines.scn --solver.steps=4 --output.final-state=lines.csv
run 1 --mesh.nodes="$nodes" --mesh.triangles="$triangles" "${common[@]}" "${uniform[@]}" \
  --springs.stiffness=300 --springs.damping=1 --output.final-state=lines_keys.csv
check "MeshSpringForceField's lines on the grid are its triangles' edges" \
  same_state lines.csv lines_keys.csv 1e-11
sed 's|n="4 1 3" min="0 0 0" max="3 0 1"|n="1 1 4" min="0 0 0" max="0 0 3"|; s|indices="0 4 8"|indices="0"|' \
  quads.scn >line.scn
run 1 --scene line.scn --solver.steps=4 --output.final-state=line.csv
run 1 --mesh.nodes="0 0 0 0 0 1 0 0 2 0 0 3" --mesh.edges="0 1 1 2 2 3" --material.model=none \
  --mass.type=uniform --mass.total-mass=2 --load.gravity="0 -9.81 0" --constraint.fixed="indices 0" \
  --solver.dt=0.02 --solver.steps=4 --solver.rtol=1e-13 --solver.rayleigh-mass=0.1 \
  --solver.rayleigh-stiffness=0.1 --springs.stiffness=300 --springs.damping=1 \
  --output.final-state=line_keys.csv
check "a grid of one point along x and y is a line of edges" same_state line.csv line_keys.csv 1e-11

# A triangle container on a loader of a volume mesh: SOFA's takes the file's triangles alone.
cat >volume_file.scn <<XML
<Node name="root" dt="0.01" gravity="0 0 -9.8">
  <Node name="sheet">
    <EulerImplicitSolver/>
    <CGLinearSolver iterations="100" tolerance="1e-10" threshold="1e-20"/>
    <MeshGmshLoader name="loader" filename="$beam"/>
    <TriangleSetTopologyContainer src="@loader"/>
    <MechanicalObject/>
    <UniformMass totalMass="1"/>
    <MeshSpringForceField stiffness="10"/>
  </Node>
</Node>
XML
check "a triangle container on a file of tetrahedra is refused (one line)" \
  refused 'its cells are tetrahedra, and mesh.file-cells asks for triangles' \
  2 "$program" --scene volume_file.scn --solver.steps=1

echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
