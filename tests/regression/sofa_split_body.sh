#!/usr/bin/env bash
# SOFA's MeshSplittingEngine with a SubsetMultiMapping that joins points fixed frames hold
# (RigidMapping) and free points into the whole mesh, a FEM force field on it, as SOFA's
# MeshSplittingEngine.scn builds it (io/sofa_split_body, io/sofa_mesh_splitting). With every frame
# fixed, SOFA's step is the FEM on the whole mesh with the held points fixed and the free points'
# mass. Checked: the split beam ends, on 1, 2 and 3 ranks, where the same beam written as one body
# ends, its fixed points the corners of the tetrahedra BoxROI's strict test puts in the box and
# its vertex mass totalMass / free points, both worked out here in Python from the mesh file; held
# points given in the frame's coordinates (globalToLocalCoords false) start where the frame puts
# them; what is not read so is refused, and an engine's part read elsewhere.
# Usage: sofa_split_body.sh <euler-implicit> <meshes dir>; the MPI launch line:
# tests/common/mpi_launch.sh.
set -uo pipefail
RANKS=3  # MPI ranks at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
MESH=$(realpath "${2:?usage: sofa_split_body.sh <euler-implicit> <meshes dir>}")/beam_v22_ascii.msh
# shellcheck source=SCRIPTDIR/../common/regression_test.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/regression_test.sh"
BOX="-0.1 -0.1 -0.1 2.05 1.1 1.1"

# split NAME FRAME_CONSTRAINT GLOBAL CHILD FREE: the beam split by BoxROI's tetrahedra in BOX.
split() {
  cat > "$1" <<XML
<Node name="root" dt="0.05" gravity="0 -9.81 0">
  <DefaultAnimationLoop/>
  <MeshGmshLoader name="loader" filename="$MESH"/>
  <MeshTopology name="mesh" src="@loader"/>
  <BoxROI name="roi" src="@mesh" box="$BOX"/>
  <MeshSplittingEngine name="split" src="@loader" nbInputs="1"
                       tetrahedronIndices1="@roi.tetrahedronIndices"/>
  <Node name="rigid">
    <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>
    <SparseLDLSolver/>
    <MechanicalObject name="frame" template="Rigid3" position="1 0 1 0 0 0.6 0.8"/>
    <UniformMass totalMass="1"/>
    $2
    <Node name="held">
      <MechanicalObject position="@/split.position1"/>
      <RigidMapping globalToLocalCoords="$3"/>
      <Node name="free">
        <MechanicalObject position="@/split.position2"/>
        <UniformMass totalMass="2"/>
        $5
        <Node name="whole">
          <MeshTopology name="mesh" src="@/mesh"/>
          <MechanicalObject src="@mesh"/>
          <SubsetMultiMapping template="Vec3,Vec3" input="@../../ @../" output="@./"
                              indexPairs="@/split.indexPairs"/>
          <TetrahedronFEMForceField youngModulus="2000" poissonRatio="0.3"/>
          $4
        </Node>
      </Node>
    </Node>
  </Node>
</Node>
XML
}
fixed='<FixedProjectiveConstraint indices="0"/>'
split split.scn "$fixed" 1 "" ""

# BaseROI's strict test: a tetrahedron is in when its four corners are in the box (faces
# included); MeshSplittingEngine holds their corners. Read from the Gmsh file here.
read -r held vertex_mass < <(python3 - "$MESH" "$BOX" <<'PY'
import sys
lines = open(sys.argv[1]).read().split("\n")
box = [float(v) for v in sys.argv[2].split()]
i = lines.index("$Nodes")
ids, points = {}, []
for line in lines[i + 2:i + 2 + int(lines[i + 1])]:
    t = line.split()
    ids[int(t[0])] = len(points)
    points.append([float(v) for v in t[1:4]])
i = lines.index("$Elements")
held = set()
for line in lines[i + 2:i + 2 + int(lines[i + 1])]:
    t = [int(v) for v in line.split()]
    if t[1] != 4:
        continue
    corners = [ids[v] for v in t[3 + t[2]:]]
    if all(box[d] <= points[c][d] <= box[d + 3] for c in corners for d in range(3)):
        held.update(corners)
print(",".join(str(c) for c in sorted(held)), repr(2 / (len(points) - len(held))))
PY
)
cat > whole.scn <<XML
<Node name="root" dt="0.05" gravity="0 -9.81 0">
  <DefaultAnimationLoop/>
  <Node name="whole">
    <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>
    <SparseLDLSolver/>
    <MeshGmshLoader name="loader" filename="$MESH"/>
    <MeshTopology name="mesh" src="@loader"/>
    <MechanicalObject src="@mesh"/>
    <UniformMass vertexMass="$vertex_mass"/>
    <FixedProjectiveConstraint indices="${held//,/ }"/>
    <TetrahedronFEMForceField youngModulus="2000" poissonRatio="0.3"/>
  </Node>
</Node>
XML
count=$(tr ',' '\n' <<< "$held" | wc -l)
check "the beam as one body with its held points fixed" \
  run_on 2 whole --scene whole.scn --solver.steps=10 --output.final-state=whole.csv
for ranks in 1 2 3; do
  check "the split beam, $ranks ranks" \
    run_on "$ranks" "split$ranks" --scene split.scn --solver.steps=10 \
    --output.final-state="split$ranks.csv"
  check "... holds the $count points of the tetrahedra in the box" \
    grep -q "is a body: $count points held by fixed frames" \
    "split$ranks.log"
  check "... ends where the beam as one body ends" same_state "split$ranks.csv" whole.csv 1e-12
done
# points moved MESH CSV HELD MIN: the free points moved by at least MIN from the mesh's points.
# points frame MESH CSV HELD: the held points sit at c + R p, p the mesh's point, for the frame
# c = (1, 0, 1), q = (0, 0, 0.6, 0.8): a turn about z with cos 0.28 and sin 0.96.
points() {
  python3 - "$@" <<'PY'
import csv, sys
mode, mesh, state, held = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
lines = open(mesh).read().split("\n")
i = lines.index("$Nodes")
p = [[float(v) for v in l.split()[1:4]] for l in lines[i + 2:i + 2 + int(lines[i + 1])]]
x = [[float(r[k]) for k in "xyz"] for r in csv.DictReader(open(state))]
held = {int(v) for v in held.split(",")}
if mode == "moved":
    gap = max(max(abs(x[i][d] - p[i][d]) for d in range(3)) for i in range(len(p)) if i not in held)
    sys.exit(0 if gap >= float(sys.argv[5]) else 1)
c, cos, sin = [1, 0, 1], 0.28, 0.96
gap = max(abs(x[i][d] - w[d]) for i in held for w in
          [[c[0] + cos * p[i][0] - sin * p[i][1], c[1] + sin * p[i][0] + cos * p[i][1],
            c[2] + p[i][2]]] for d in range(3))
print("  held points off the frame's by", gap)
sys.exit(0 if gap <= 1e-12 else 1)
PY
}
check "... and has moved" points moved "$MESH" split2.csv "$held" 1e-3

# Held points written in the frame's coordinates: they start at c + R p, away from the mesh.
split local.scn "$fixed" 0 "" ""
check "held points in the frame's coordinates" \
  run_on 1 local --scene local.scn --solver.steps=2 --output.final-state=local.csv
check "... start and stay where the frame puts them" points frame "$MESH" local.csv "$held"

split moving.scn "" 1 "" ""
check "frames that may move are refused" \
  refused "frames that may move" 2 "$EXE" --scene moving.scn --solver.steps=1
split mass.scn "$fixed" 1 '<UniformMass totalMass="1"/>' ""
check "a mass in the child is refused" \
  refused "only force fields are carried there" 2 "$EXE" --scene mass.scn --solver.steps=1
split force.scn "$fixed" 1 "" '<ConstantForceField forces="0 1 0"/>'
check "a force on the free points is refused" \
  refused "only their mass is carried" 2 "$EXE" --scene force.scn --solver.steps=1
cat > part.scn <<XML
<Node name="root">
  <MeshGmshLoader name="loader" filename="$MESH"/>
  <MeshSplittingEngine name="split" src="@loader" nbInputs="1" indices1="0 1 2"/>
  <Node name="free">
    <EulerImplicitSolver/><SparseLDLSolver/>
    <MechanicalObject position="@/split.position2"/>
    <UniformMass totalMass="1"/>
  </Node>
</Node>
XML
check "an engine's part read as a body's points is refused" \
  refused "its points are MeshSplittingEngine 'split'.*'s part, which is read only as" 2 \
  "$EXE" --scene part.scn --solver.steps=1

echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
