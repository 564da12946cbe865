#!/usr/bin/env bash
# SOFA's SubsetMultiMapping with a MeshSpringForceField in its child, and the NearestPointROI that
# pairs the points of two states (io/sofa_subset_multi_mapping). A spring between two child points
# acts, through J^T f and J^T K J of the selection, as the same spring between the parent points
# they pick. Checked: two grids joined by a child's springs (written pairs, edges in either order,
# a repeated edge, one within the first grid, rest lengths from the child's written points) end,
# on 1, 2 and 3 ranks, where the same grids with SpringForceFields between them directly end, their
# springs ks / L, kd / L, L worked out here from SOFA's MeshSpringForceField::addSpring (and a
# child whose two inputs are one grid as that grid's own spring); a
# NearestPointROI's pairs (BoxROI inputs; SOFA's rule, computed here in Python) as a child's
# springs of zero rest length (the child's rest points are SOFA's zeros) and as a SpringForceField's
# indices1 and indices2 end where the springs written out end, and as a bilateral constraint's
# points where the same points from BoxROIs end; what is not carried is refused.
# Usage: sofa_subset_multi_mapping.sh <euler-implicit> <meshes dir>; the MPI launch line:
# tests/common/mpi_launch.sh.
set -uo pipefail
RANKS=3  # MPI ranks at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
# shellcheck source=SCRIPTDIR/../common/regression_test.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/regression_test.sh"

# scene NAME JOIN: two grids under one solver, then JOIN (XML) at the root.
scene() {
  cat > "$1" <<XML
<?xml version="1.0"?>
<Node name="root" dt="0.01" gravity="0 -9.81 0">
    <DefaultAnimationLoop/>
    <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>
    <SparseLDLSolver/>
    <Node name="a">
        <RegularGridTopology n="$3" min="0 0 0" max="$4"/>
        <MechanicalObject name="dofs"/>
        <UniformMass vertexMass="2"/>
        <FixedProjectiveConstraint indices="$5"/>
    </Node>
    <Node name="b">
        <RegularGridTopology n="$6" min="$7" max="$8"/>
        <MechanicalObject name="dofs"/>
        <UniformMass vertexMass="3"/>
        <FixedProjectiveConstraint indices="$9"/>
    </Node>
    $2
</Node>
XML
}

# Child point i picks (input, point): (a 1) (b 0) (a 3) (b 2) (a 7) (b 6) (b 4); edges (0 1)
# (2 3) (4 5) (0 2) (5 4) (6 0): a1-b0, a3-b2, a7-b6, a1-a3, the repeat, then b4-a1.
child_points="1 0 0  1.4 0 0  1 1 0  1.6 1 0.1  1 1 1  1.5 1.2 1  1.5 0 1"
join="<Node name=\"join\">
        <MechanicalObject name=\"dofs\" position=\"$child_points\"/>
        <SubsetMultiMapping input=\"@../a/dofs @../b/dofs\" output=\"@dofs\"
                            indexPairs=\"0 1 1 0 0 3 1 2 0 7 1 6 1 4\"/>
        <EdgeSetTopologyContainer edges=\"0 1 2 3 4 5 0 2 5 4 6 0\"/>
        <MeshSpringForceField linesStiffness=\"60\" linesDamping=\"0.5\"/>
    </Node>"
grids=("2 2 2" "1 1 1" "0 2 4 6" "2 2 2" "1.5 0 0" "2.5 1 1" "1 3 5 7")
scene child.scn "$join" "${grids[@]}"
# addSpring: L = |rest_j - rest_i| of the child's points, ks / L and kd / L.
springs=$(python3 - "$child_points" <<'PY'
import math, sys
p = [float(v) for v in sys.argv[1].split()]
pts = [p[3 * i:3 * i + 3] for i in range(len(p) // 3)]
def spring(i, j, m1, m2):
    L = math.sqrt(sum((pts[j][d] - pts[i][d]) ** 2 for d in range(3)))
    return "%d %d %r %r %r" % (m1, m2, 60 / L, 0.5 / L, L)
across = [spring(0, 1, 1, 0), spring(2, 3, 3, 2), spring(4, 5, 7, 6), spring(6, 0, 1, 4)]
print(" ".join(across) + "|" + spring(0, 2, 1, 3))
PY
)
direct="<SpringForceField object1=\"@a/dofs\" object2=\"@b/dofs\" spring=\"${springs%|*}\"/>
    <SpringForceField object1=\"@a/dofs\" object2=\"@a/dofs\" spring=\"${springs#*|}\"/>"
scene direct.scn "$direct" "${grids[@]}"
check "two grids with SpringForceFields between them" \
  run_on 2 direct --scene direct.scn --solver.steps=5 --output.final-state=direct.csv
check "... is one group with 5 springs" grep -q "solved as one system, 5 interaction springs" direct.log
for ranks in 1 2 3; do
  check "the springs in a SubsetMultiMapping's child, $ranks ranks" \
    run_on "$ranks" "child$ranks" --scene child.scn --solver.steps=5 \
    --output.final-state="child$ranks.csv"
  check "... is one group with 5 springs" \
    grep -q "solved as one system, 5 interaction springs" "child$ranks.log"
  check "... ends where the springs between the grids end" \
    same_state "child$ranks.csv" direct.csv 1e-12
done

# Both inputs one state: the child's spring is that state's own.
same="<Node name=\"join\">
        <MechanicalObject name=\"dofs\" position=\"1 0 0  1 1 0\"/>
        <SubsetMultiMapping input=\"@../a/dofs @../a/dofs\" output=\"@dofs\" indexPairs=\"0 1 1 3\"/>
        <EdgeSetTopologyContainer edges=\"0 1\"/>
        <MeshSpringForceField linesStiffness=\"60\" linesDamping=\"0.5\"/>
    </Node>"
scene same.scn "$same" "${grids[@]}"
scene same_direct.scn \
  "<SpringForceField object1=\"@a/dofs\" object2=\"@a/dofs\" spring=\"1 3 60 0.5 1\"/>" "${grids[@]}"
check "a spring inside one grid" \
  run_on 2 same_direct --scene same_direct.scn --solver.steps=5 --output.final-state=same_direct.csv
check "... and through a child whose two inputs are that grid" \
  run_on 2 same --scene same.scn --solver.steps=5 --output.final-state=same.csv
check "... end in the same state" same_state same.csv same_direct.csv 1e-12

# NearestPointROI: b's bottom points (BoxROI) each paired with the nearest of a's top points.
nearest="<Node name=\"join\">
        <BoxROI name=\"box1\" position=\"@../a/dofs.position\" box=\"-1 -1 0.4 2 2 0.6\"/>
        <BoxROI name=\"box2\" position=\"@../b/dofs.position\" box=\"-1 -1 0.55 2 2 0.65\"/>
        <NearestPointROI name=\"np\" object1=\"@../a/dofs\" object2=\"@../b/dofs\" radius=\"0.5\"
                         inputIndices1=\"@box1.indices\" inputIndices2=\"@box2.indices\"/>
        <MechanicalObject name=\"dofs\"/>
        <SubsetMultiMapping input=\"@../a/dofs @../b/dofs\" output=\"@dofs\"
                            indexPairs=\"@np.indexPairs\"/>
        <EdgeSetTopologyContainer edges=\"@np.edges\"/>
        <MeshSpringForceField stiffness=\"80\" damping=\"0.3\"/>
    </Node>"
pairs=("3 3 2" "1 1 0.5" "0 1 2 3 4 5 6 7 8" "4 4 2" "0.1 0.05 0.6" "1.1 1.05 1.1" "")
scene nearest.scn "$nearest" "${pairs[@]}"
# computeNearestPointMaps: for each of b's inputs in order, the first of a's inputs at the
# smallest squared distance, kept below radius^2; the child's rest points are all at the origin,
# so L = 0 and ks, kd stay as given.
nearest_springs=$(python3 - <<'PY'
def grid(n, lo, hi):
    return [[lo[d] + (hi[d] - lo[d]) * (i, j, k)[d] / (n[d] - 1) for d in range(3)]
            for k in range(n[2]) for j in range(n[1]) for i in range(n[0])]
a = grid((3, 3, 2), (0, 0, 0), (1, 1, 0.5))
b = grid((4, 4, 2), (0.1, 0.05, 0.6), (1.1, 1.05, 1.1))
inside = lambda p, lo, hi: all(lo[d] <= p[d] <= hi[d] for d in range(3))
f1 = [i for i, p in enumerate(a) if inside(p, (-1, -1, 0.4), (2, 2, 0.6))]
f2 = [i for i, p in enumerate(b) if inside(p, (-1, -1, 0.55), (2, 2, 0.65))]
d2 = lambda p, q: sum((q[d] - p[d]) ** 2 for d in range(3))
out = []
for i2 in f2:
    i1 = min(f1, key=lambda i: d2(a[i], b[i2]))
    if d2(a[i1], b[i2]) < 0.25:
        out.append("%d %d 80 0.3 0" % (i1, i2))
print(len(out), " ".join(out))
PY
)
count=${nearest_springs%% *}
scene nearest_direct.scn \
  "<SpringForceField object1=\"@a/dofs\" object2=\"@b/dofs\" spring=\"${nearest_springs#* }\"/>" \
  "${pairs[@]}"
check "two grids with the nearest pairs' springs written out" \
  run_on 2 nearest_direct --scene nearest_direct.scn --solver.steps=5 \
  --output.final-state=nearest_direct.csv
check "... $count springs" grep -q "solved as one system, $count interaction springs" nearest_direct.log
for ranks in 1 3; do
  check "a NearestPointROI's pairs as a child's springs, $ranks ranks" \
    run_on "$ranks" "nearest$ranks" --scene nearest.scn --solver.steps=5 \
    --output.final-state="nearest$ranks.csv"
  check "... ends where the springs written out end" \
    same_state "nearest$ranks.csv" nearest_direct.csv 1e-12
done
indices="<Node name=\"join\">
        <BoxROI name=\"box1\" position=\"@../a/dofs.position\" box=\"-1 -1 0.4 2 2 0.6\"/>
        <BoxROI name=\"box2\" position=\"@../b/dofs.position\" box=\"-1 -1 0.55 2 2 0.65\"/>
        <NearestPointROI name=\"np\" object1=\"@../a/dofs\" object2=\"@../b/dofs\" radius=\"0.5\"
                         inputIndices1=\"@box1.indices\" inputIndices2=\"@box2.indices\"/>
    </Node>
    <SpringForceField object1=\"@a/dofs\" object2=\"@b/dofs\" indices1=\"@join/np.indices1\"
                      indices2=\"@join/np.indices2\" stiffness=\"80\" damping=\"0.3\"/>"
scene indices.scn "$indices" "${pairs[@]}"
check "a SpringForceField on a NearestPointROI's indices1 and indices2" \
  run_on 2 indices --scene indices.scn --solver.steps=5 --output.final-state=indices.csv
check "... ends where the springs written out end" same_state indices.csv nearest_direct.csv 1e-12

# A NearestPointROI's indices1 and indices2 as a BilateralLagrangianConstraint's points: two
# hexahedral beams under one solver glued end face to start face, ending where the same glue on
# BoxROI faces ends (those pairs are the same nodes in the same order).
piece() {  # NAME XMIN XMAX BOXES...
  echo "<Node name=\"$1\"><RegularGridTopology name=\"grid\" n=\"4 2 2\" min=\"$2 0 0\" max=\"$3 0.2 0.2\"/><MechanicalObject name=\"dofs\" src=\"@grid\"/><DiagonalMass massDensity=\"1\"/><HexahedronFEMForceField youngModulus=\"2e4\" poissonRatio=\"0.3\"/>$4<LinearSolverConstraintCorrection linearSolver=\"@../ldl\"/></Node>"
}
glued() {  # glued FILE FIRST SECOND
  cat > "$1" <<XML
<Node name="root" gravity="0 -9.81 0" dt="0.02">
  <FreeMotionAnimationLoop/>
  <BlockGaussSeidelConstraintSolver maxIterations="10000" tolerance="1e-14"/>
  <Node name="both">
    <EulerImplicitSolver rayleighMass="0.05" rayleighStiffness="0.02"/>
    <SparseLDLSolver name="ldl"/>
    $(piece a 0 0.6 '<BoxROI name="start" box="-0.01 -0.01 -0.01 0.01 0.21 0.21"/><BoxROI name="end" box="0.59 -0.01 -0.01 0.61 0.21 0.21"/><FixedLagrangianConstraint indices="@start.indices"/>')
    $(piece b 0.6 1.2 '<BoxROI name="start" box="0.59 -0.01 -0.01 0.61 0.21 0.21"/>')
  </Node>
  <NearestPointROI name="np" object1="@both/a/dofs" object2="@both/b/dofs" radius="0.01"/>
  <BilateralLagrangianConstraint object1="@both/a/dofs" first_point="$2"
    object2="@both/b/dofs" second_point="$3"/>
</Node>
XML
}
glued boxes.scn "@both/a/end.indices" "@both/b/start.indices"
glued nearest_glue.scn "@np.indices1" "@np.indices2"
check "two beams glued on BoxROI faces" \
  run_on 2 boxes --scene boxes.scn --solver.steps=5 --output.final-state=boxes.csv
for ranks in 1 3; do
  check "... and on a NearestPointROI's pairs, $ranks ranks" \
    run_on "$ranks" "nearest_glue$ranks" --scene nearest_glue.scn --solver.steps=5 \
    --output.final-state="nearest_glue$ranks.csv"
  check "... end in the same state" same_state "nearest_glue$ranks.csv" boxes.csv 1e-12
done

# Refused: what else a child holds, springs with no end in the first input, springs written
# before the mapping (SOFA would read rest points not yet sized), a pair naming no
# point, an input a mapping drives (but points fixed frames hold: sofa_split_body.sh), an engine
# output read where it is not computed.
scene mass.scn "${join/<MeshSpringForceField/<UniformMass vertexMass=\"1\"\/><MeshSpringForceField}" \
  "${grids[@]}"
check "a UniformMass in the child is refused" \
  refused "only a MeshSpringForceField on the child's edges is carried" 2 "$EXE" \
  --scene mass.scn --solver.steps=1
scene second.scn "${join/6 0\"/6 1\"}" "${grids[@]}"
check "a spring between two points of the second input is refused" \
  refused "springs with no end in the first input" 2 "$EXE" --scene second.scn \
  --solver.steps=1
scene before.scn "$(sed '/<MeshSpringForceField/d; s|<MechanicalObject name="dofs" position|<MeshSpringForceField linesStiffness="60"/><MechanicalObject name="dofs" position|' <<< "$join")" \
  "${grids[@]}"
check "springs before the mapping in their node are refused" \
  refused "before SubsetMultiMapping .* in its node" 2 "$EXE" --scene before.scn --solver.steps=1
scene rayleigh.scn "${join/linesDamping=\"0.5\"/linesDamping=\"0.5\" rayleighStiffness=\"0.1\"}" "${grids[@]}"
check "the springs' own Rayleigh damping is refused" \
  refused "rayleighStiffness.*own Rayleigh damping is not supported" 2 "$EXE" \
  --scene rayleigh.scn --solver.steps=1
scene badpair.scn "${join/1 6 1 4/1 6 1 8}" "${grids[@]}"
check "a pair naming no point of its input is refused" \
  refused "pair 6 (1 8): input 1 has 8 points" 2 "$EXE" --scene badpair.scn --solver.steps=1
mapped="<Node name=\"m\">
        <MechanicalObject name=\"dofs\" position=\"0 0 0  1 0 0  0 1 0  1 1 0  0 0 1  1 0 1  0 1 1  1 1 1\"/>
        <IdentityMapping input=\"@../a/dofs\" output=\"@dofs\"/>
    </Node>
    ${join/@..\/a\/dofs @/@..\/m\/dofs @}"
scene mapped.scn "$mapped" "${grids[@]}"
check "an input that a mapping drives is refused, naming the mapping" \
  refused "which IdentityMapping .* drives) is not a body" 2 "$EXE" --scene mapped.scn \
  --solver.steps=1
scene distances.scn "${nearest/stiffness=\"80\"/stiffness=\"@np.distances\"}" "${pairs[@]}"
check "a NearestPointROI's output read elsewhere is refused" \
  refused "read only as a SubsetMultiMapping's indexPairs" 2 "$EXE" --scene distances.scn \
  --solver.steps=1

echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
