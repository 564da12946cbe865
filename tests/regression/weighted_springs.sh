#!/usr/bin/env bash
# Interaction springs whose end is a weighted sum of a body's nodes (interaction.springs'
# "i:w/j:w/.." ends; SOFA's spring to a BarycentricMapping child's point, its force J^T f, its
# stiffness J^T K J). Checked: an end of weights 1, 0, 0, 0 on a tetrahedron's corners ends where
# the same spring to that corner ends; an end inside a tetrahedron, one corner fixed, takes the
# first step computed by hand (tests/common/weighted_spring_step.py: J^T f and J^T K J assembled
# with numpy, J^T K J checked against central differences of J^T f), with direct and iterative
# solves; beams joined by springs to weighted points of the other beam end the same on 1, 2 and
# 3 ranks; SOFA's SpringForceField to a BarycentricMapping child of a RegularGridTopology body,
# and of a SparseGridTopology body (the weights of SOFA's sparse-grid mapper computed with numpy),
# takes the first step by hand on 1, 2 and 3 ranks; a sparse grid and its child whose points are
# a SubsetTopology's take the step they take with those points written; a child of a mesh of
# tetrahedra is refused; malformed ends are refused.
# Usage: weighted_springs.sh <euler-implicit> <meshes dir>; the MPI launch line: tests/common/mpi_launch.sh.
set -uo pipefail
RANKS=3  # MPI ranks at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
MESH=$(realpath "$2/beam_v22_ascii.msh")
# shellcheck source=SCRIPTDIR/../common/regression_test.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/regression_test.sh"
python=${PYTHON:-/usr/bin/python3}

# Two tetrahedra of point masses; /a's nodes 1 2 3 and /b's node 3 fixed.
cat > pair.ini <<'INI'
[solver]
dt = 0.01
steps = 1
linear = direct
group = pair
[output]
progress-every = 0
[load]
gravity = 0 0 0
[material]
model = none
[mass]
type = uniform
[a/constraint]
fixed = indices 1 2 3
[b/constraint]
fixed = indices 3
[a/mesh]
nodes = 0 0 0  -1 0 0  -1 0 1  -1 1 0
tetrahedra = 0 1 2 3
[a/mass]
vertex-mass = 2
[a/initial]
velocities = 0.1 -0.2 0.3  0 0 0  0 0 0  0 0 0
[b/mesh]
nodes = 1.5 0.2 0.1  2.5 0.2 0.1  2.5 1.2 0.1  2.5 0.2 1.1
tetrahedra = 0 1 2 3
[b/mass]
vertex-mass = 3
[b/initial]
velocities = -0.3 0.1 0.2  0.2 0 -0.1  0 0.4 0  0 0 0
INI
check "a spring from /a's node 0 to /b's node 0" \
  run_on 1 node --config pair.ini "--a/interaction.springs=/b 0 0 50 2 1.2" \
  --output.final-state=node.csv
check "... to /b's point of weights 1 0 0 0 on its corners" \
  run_on 1 corner --config pair.ini "--a/interaction.springs=/b 0 0:1/1:0/2:0/3:0 50 2 1.2" \
  --output.final-state=corner.csv
check "... the same state" same_state node.csv corner.csv 1e-14

weights="0:0.2/1:0.3/2:0.1/3:0.4"
cat > inside.json <<'JSON'
{"h": 0.01,
 "bodies": {
  "/a": {"x": [[0, 0, 0], [-1, 0, 0], [-1, 0, 1], [-1, 1, 0]],
         "v": [[0.1, -0.2, 0.3], [0, 0, 0], [0, 0, 0], [0, 0, 0]], "m": 2, "fixed": [1, 2, 3]},
  "/b": {"x": [[1.5, 0.2, 0.1], [2.5, 0.2, 0.1], [2.5, 1.2, 0.1], [2.5, 0.2, 1.1]],
         "v": [[-0.3, 0.1, 0.2], [0.2, 0, -0.1], [0, 0.4, 0], [0, 0, 0]], "m": 3, "fixed": [3]}},
 "springs": [{"ks": 50, "kd": 2, "L": 1.2, "end1": [["/a", 0, 1]],
              "end2": [["/b", 0, 0.2], ["/b", 1, 0.3], ["/b", 2, 0.1], ["/b", 3, 0.4]]}]}
JSON
check "a spring from /a's node 0 to a point inside /b's tetrahedron (direct)" \
  run_on 1 inside --config pair.ini "--a/interaction.springs=/b 0 $weights 50 2 1.2" \
  --output.final-state=inside.csv
check "... is the first step computed by hand (J^T f, J^T K J)" \
  "$python" "$COMMON/weighted_spring_step.py" inside.csv inside.json 1e-12
check "... with an iterative solve" \
  run_on 1 insideit --config pair.ini "--a/interaction.springs=/b 0 $weights 50 2 1.2" \
  --solver.linear=iterative --solver.rtol=1e-15 --output.final-state=insideit.csv
check "... the same step" "$python" "$COMMON/weighted_spring_step.py" insideit.csv inside.json 1e-10
check "... on 2 ranks" \
  run_on 2 inside2 --config pair.ini "--a/interaction.springs=/b 0 $weights 50 2 1.2" \
  --output.final-state=inside2.csv
check "... the same state" same_state inside.csv inside2.csv 1e-14

# Two clamped beams; each node of /a's x = 1 face pulled towards a point of /b's x = 1.2 face
# and its neighbours (weights 0.5, 0.25, 0.25 on a node, the next along x and the next along y).
cat > beams.ini <<'INI'
[solver]
dt = 0.01
steps = 4
group = g
rtol = 1e-12
[output]
progress-every = 0
[a/mesh]
box-size = 1 0.2 0.2
box-cells = 5 2 2
[a/constraint]
fixed = indices 0 6 12 18 24 30 36 42 48
[b/mesh]
box-size = 1 0.2 0.2
box-cells = 5 2 2
transform = translate 1.2 0 0
[b/constraint]
fixed = indices 5 11 17 23 29 35 41 47 53
[b/material]
young-modulus = 3e5
INI
springs="/b"
for j in 0 1 2; do for k in 0 1 2; do
  n=$((6 * (j + 3 * k)))
  springs+=" $((5 + n)) $n:0.5/$((n + 1)):0.25/$(((n + 6) % 54)):0.25 400 1 0.25"
done; done
for n in 1 2 3; do
  check "beams joined by weighted springs on $n ranks" \
    run_on $n joined$n --config beams.ini "--a/interaction.springs=$springs" \
    --output.final-state=joined$n.csv
done
check "... 1 and 2 ranks agree" same_state joined1.csv joined2.csv 1e-9
check "... 1 and 3 ranks agree" same_state joined1.csv joined3.csv 1e-9

# SOFA's SpringForceField from two nodes of grid /a to the points of a BarycentricMapping child
# of grid /b (SOFA's grid mapper): one at fractions (0.25, 0.5, 0.75) of /b's cube, one on its
# node 0. The first step by hand, the weights written out (trilinear on the cube's corners,
# nodes i + 2 j + 4 k).
cat > bary.scn <<'XML'
<?xml version="1.0"?>
<Node name="root" dt="0.01" gravity="0 0 0">
    <DefaultAnimationLoop/>
    <EulerImplicitSolver rayleighStiffness="0" rayleighMass="0"/>
    <SparseLDLSolver/>
    <Node name="a">
        <RegularGridTopology n="2 2 2" min="0 0 0" max="1 1 1"/>
        <MechanicalObject name="dofs"/>
        <UniformMass vertexMass="2"/>
        <FixedProjectiveConstraint indices="0 2 4 6"/>
    </Node>
    <Node name="b">
        <RegularGridTopology n="2 2 2" min="1.5 0 0" max="2.5 1 1"/>
        <MechanicalObject name="dofs"/>
        <UniformMass vertexMass="3"/>
        <FixedProjectiveConstraint indices="1 3"/>
        <Node name="points">
            <MechanicalObject name="dofs" position="1.75 0.5 0.75  1.5 0 0"/>
            <BarycentricMapping input="@../dofs" output="@dofs"/>
        </Node>
    </Node>
    <SpringForceField object1="@a/dofs" object2="@b/points/dofs"
                      spring="1 0 40 0.5 1.2  7 1 30 0 0.5"/>
</Node>
XML
cat > bary.json <<'JSON'
{"h": 0.01,
 "bodies": {
  "/a": {"x": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0], [0, 0, 1], [1, 0, 1], [0, 1, 1], [1, 1, 1]],
         "v": [[0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]],
         "m": 2, "fixed": [0, 2, 4, 6]},
  "/b": {"x": [[1.5, 0, 0], [2.5, 0, 0], [1.5, 1, 0], [2.5, 1, 0], [1.5, 0, 1], [2.5, 0, 1],
               [1.5, 1, 1], [2.5, 1, 1]],
         "v": [[0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0], [0, 0, 0]],
         "m": 3, "fixed": [1, 3]}},
 "springs": [
  {"ks": 40, "kd": 0.5, "L": 1.2, "end1": [["/a", 1, 1]],
   "end2": [["/b", 0, 0.09375], ["/b", 1, 0.03125], ["/b", 3, 0.03125], ["/b", 2, 0.09375],
            ["/b", 4, 0.28125], ["/b", 5, 0.09375], ["/b", 7, 0.09375], ["/b", 6, 0.28125]]},
  {"ks": 30, "kd": 0, "L": 0.5, "end1": [["/a", 7, 1]], "end2": [["/b", 0, 1]]}]}
JSON
for n in 1 2 3; do
  check "SpringForceField to a BarycentricMapping child of a grid on $n ranks" \
    run_on $n bary$n --scene bary.scn --solver.steps=1 --output.final-state=bary$n.csv
done
check "... is the first step computed by hand" \
  "$python" "$COMMON/weighted_spring_step.py" bary1.csv bary.json 1e-12
check "... 1 and 2 ranks agree" same_state bary1.csv bary2.csv 1e-14
check "... 1 and 3 ranks agree" same_state bary1.csv bary3.csv 1e-14
# The same springs to a BarycentricMapping child of a SparseGridTopology body (SOFA's sparse-grid
# mapper): an L of four cells kept of a 3 x 2 x 1 grid (the cells holding its position's points),
# one point inside a kept cell, one in a cell it lacks (the nearest boundary cell's centre, its
# coordinates extrapolated). The weights, the grid's point numbering (by position: x, then y,
# then z) and its cells' order computed here with numpy from SOFA's SparseGridTopology and
# BarycentricMapperSparseGridTopology, then the first step by hand as above.
sed -e 's|<RegularGridTopology n="2 2 2" min="1.5 0 0" max="2.5 1 1"/>|<SparseGridTopology n="4 3 2" min="0 0.5 0" max="3 2.5 1" position="0.5 1 0.5  1.5 1 0.5  2.5 1 0.5  0.5 2 0.5"/>|' \
  -e 's|position="1.75 0.5 0.75  1.5 0 0"|position="1.25 0.75 0.75  2.4 1.8 0.2  0 0.5 1"|' \
  -e 's|indices="1 3"|indices="0 1"|' \
  -e 's|spring="1 0 40 0.5 1.2  7 1 30 0 0.5"|spring="1 0 40 0.5 1.2  7 1 30 0 0.5  5 2 20 0.2 0.8"|' \
  bary.scn > sparse.scn
"$python" - > sparse.json <<'PY'
import json
import numpy as np
lo, step, cells = np.array([0, 0.5, 0]), np.array([1.0, 1, 1]), (3, 2, 1)
kept = [(0, 0, 0), (1, 0, 0), (2, 0, 0), (0, 1, 0)]  # the cells of the position's points
corner = [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0), (0, 0, 1), (1, 0, 1), (1, 1, 1), (0, 1, 1)]
points = sorted({tuple(lo + step * (np.array(c) + o)) for c in kept for o in corner})
hexa = [[points.index(tuple(lo + step * (np.array(c) + o))) for o in corner] for c in kept]
def weights(p):
    x = (np.array(p) - lo) / step
    i = tuple(int(v) for v in np.floor(x))
    if i in kept:
        h, f = kept.index(i), x - np.floor(x)
    else:
        centre = [np.linalg.norm(p - (np.array(points[c[0]]) + points[c[6]]) / 2) for c in hexa]
        h = int(np.argmin(centre))
        f = (p - np.array(points[hexa[h][0]])) / (np.array(points[hexa[h][6]]) - points[hexa[h][0]])
    w = [(1 - f[0] if o[0] == 0 else f[0]) * (1 - f[1] if o[1] == 0 else f[1]) *
         (1 - f[2] if o[2] == 0 else f[2]) for o in corner]
    return [["/b", hexa[h][k], w[k]] for k in range(8)]
child = [(1.25, 0.75, 0.75), (2.4, 1.8, 0.2), (0, 0.5, 1)]
a = [[x, y, z] for z in (0, 1) for y in (0, 1) for x in (0, 1)]
print(json.dumps({"h": 0.01, "bodies": {
    "/a": {"x": a, "v": [[0, 0, 0]] * 8, "m": 2, "fixed": [0, 2, 4, 6]},
    "/b": {"x": [list(p) for p in points], "v": [[0, 0, 0]] * len(points), "m": 3,
           "fixed": [0, 1]}},
    "springs": [{"ks": 40, "kd": 0.5, "L": 1.2, "end1": [["/a", 1, 1]], "end2": weights(child[0])},
                {"ks": 30, "kd": 0, "L": 0.5, "end1": [["/a", 7, 1]], "end2": weights(child[1])},
                {"ks": 20, "kd": 0.2, "L": 0.8, "end1": [["/a", 5, 1]],
                 "end2": weights(child[2])}]}))
PY
for n in 1 2 3; do
  check "SpringForceField to a BarycentricMapping child of a sparse grid on $n ranks" \
    run_on $n sparse$n --scene sparse.scn --solver.steps=1 --output.final-state=sparse$n.csv
done
check "... is the first step computed by hand (SOFA's sparse-grid mapper)" \
  "$python" "$COMMON/weighted_spring_step.py" sparse1.csv sparse.json 1e-12
check "... 1 and 2 ranks agree" same_state sparse1.csv sparse2.csv 1e-14
check "... 1 and 3 ranks agree" same_state sparse1.csv sparse3.csv 1e-14
sed 's|<MechanicalObject name="dofs" position=|<MechanicalObject name="dofs" translation="1 0 0" position=|' \
  sparse.scn > moved.scn
check "a child's points moved by its MechanicalObject's translation are refused" \
  refused "translation.*read as written, not moved" 2 "$EXE" --scene moved.scn --solver.steps=1
# As SOFA's SubsetTopology_refiningMesh.scn: the grid's points and its child's are a
# SubsetTopology's pointsOutROI (meshes/beam_v22_ascii.msh out of the box x <= 4, SOFA's border
# points first), the child's taken from the topology of its node (MechanicalObject::init); the
# same step as with those points written in the scene (awk reads them: the border points, in the
# box and in a tetrahedron with a point out of it, by id, then those out).
OUT=$(awk '
  /^\$Nodes/ { part = 1; getline; next } /^\$EndNodes/ { part = 0 }
  /^\$Elements/ { part = 2; getline; next } /^\$EndElements/ { part = 0 }
  part == 1 { n = $1; x[$1] = $2; p[$1] = $2 " " $3 " " $4 }
  part == 2 && $2 == 4 {
    k = 0; for (i = NF - 3; i <= NF; ++i) k += (x[$i] <= 4)
    if (k > 0 && k < 4) for (i = NF - 3; i <= NF; ++i) if (x[$i] <= 4) border[$i] = 1 }
  END { for (i = 1; i <= n; ++i) if (i in border) printf "%s  ", p[i]
        for (i = 1; i <= n; ++i) if (x[i] > 4) printf "%s  ", p[i] }' "$MESH")
subset_scene() {  # subset_scene GRID-POINTS CHILD-POINTS > FILE
  cat <<XML
<Node name="root" dt="0.01" gravity="0 0 0">
    <DefaultAnimationLoop/>
    <EulerImplicitSolver rayleighStiffness="0" rayleighMass="0"/>
    <SparseLDLSolver/>
    <MeshGmshLoader name="loader" filename="$MESH"/>
    <SubsetTopology name="subset" src="@loader" rest_position="@loader.position"
                    box="-1 -1 -1 4 2 2" localIndices="1"/>
    <Node name="a">
        <RegularGridTopology n="2 2 2" min="5 -2 0" max="6 -1 1"/>
        <MechanicalObject name="dofs"/>
        <UniformMass vertexMass="2"/>
        <FixedProjectiveConstraint indices="0 2 4 6"/>
    </Node>
    <Node name="b">
        <SparseGridTopology n="7 3 3" position="$1"/>
        <MechanicalObject name="dofs"/>
        <UniformMass vertexMass="3"/>
        <FixedProjectiveConstraint indices="0 1 2 3"/>
        <Node name="points">
            <TetrahedronSetTopologyContainer position="$2"/>
            <MechanicalObject name="dofs"/>
            <BarycentricMapping input="@../dofs" output="@dofs"/>
        </Node>
    </Node>
    <SpringForceField object1="@a/dofs" object2="@b/points/dofs"
                      spring="1 0 40 0.5 0.2  3 1 30 0 0.5  5 2 20 0.2 0  7 40 20 0 1"/>
</Node>
XML
}
subset_scene "@../subset.pointsOutROI" "@../../subset.pointsOutROI" > linked.scn
subset_scene "$OUT" "$OUT" > written.scn
check "points a SubsetTopology computes (its pointsOutROI) for the grid and its child" \
  run_on 1 linked --scene linked.scn --solver.steps=1 --output.final-state=linked.csv
check "... the same points written" \
  run_on 1 written --scene written.scn --solver.steps=1 --output.final-state=written.csv
check "... the same state, bit for bit" cmp -s linked.csv written.csv
check "... which the springs moved" \
  awk -F, '$8 == "/b" && ($5 != 0 || $6 != 0 || $7 != 0) { moved = 1 } END { exit !moved }' \
  linked.csv

sed 's|<RegularGridTopology n="2 2 2" min="1.5 0 0" max="2.5 1 1"/>|<MeshTopology position="1.5 0 0  2.5 0 0  1.5 1 0  1.5 0 1" tetrahedra="0 1 2 3"/>|' \
  bary.scn > tetra.scn
check "a spring to a BarycentricMapping child of a mesh of tetrahedra is refused, naming it" \
  refused "supported from a body on a RegularGridTopology or a sparse grid; its input's topology is MeshTopology" \
  2 "$EXE" --scene tetra.scn --solver.steps=1

check "a weight that is no number is refused" \
  refused "spring 0: each end is a node id >= 0 or weighted node ids" 2 "$EXE" \
  --config pair.ini "--a/interaction.springs=/b 0 0:0.5/1:x 50 2 1.2"
check "a weighted end's node outside the body is refused" \
  refused "node 9 of /b is no node of its mesh's cells" 2 "$EXE" \
  --config pair.ini "--a/interaction.springs=/b 0 0:0.5/9:0.5 50 2 1.2"

echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
