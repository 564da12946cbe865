#!/usr/bin/env bash
# A triangle FEM on the triangles SOFA's Quad2TriangleTopologicalMapping splits from a
# QuadSetTopologyContainer holding the body's own flat grid quadrangles (SOFA's
# QuadForceFieldTopologyChangeHandling.scn): each quadrangle (q0 q1 q2 q3) as (q1 q2 q0) and
# (q3 q0 q2). The membrane on the quadrangles split ends where it ends on those triangles written
# out as the mesh (UniformMass: the same node masses), not where GridTopology's cut
# (q0 q1 q2), (q0 q2 q3) ends; SOFA's scene ends alike on 1, 2 and 3 ranks; bending springs on
# the split triangles, and quadrangles that are not the body's, stay refused.
# Usage: sofa_split_quads.sh <euler-implicit>; the MPI launch line: tests/common/mpi_launch.sh.
set -uo pipefail
RANKS=3  # MPI ranks at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
here=$(dirname "$(realpath "${BASH_SOURCE[0]}")")
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$here/../common/mpi_launch.sh"
# shellcheck source=SCRIPTDIR/../common/checks.sh
source "$here/../common/checks.sh"
program=$(realpath "$1")
launch_in_scratch 1 "$program"

differ() { [[ -s $1 && -s $2 ]] && ! same_state "$@" > /dev/null; }
run() {  # run RANKS ARGS...: euler-implicit on RANKS ranks, its output in run.log
  mpi_command "$1" "$program"
  "${MPI_COMMAND[@]}" "${@:2}" >run.log 2>&1
}

flat_nodes=$(awk 'BEGIN { for (j = 0; j < 4; j++) for (i = 0; i < 5; i++)
  printf "%s%g 0 %g", (i + j ? " " : ""), 0.5 * i, 0.4 * j }')
flat_cells() {  # flat_cells quads|split|cut
  awk -v kind="$1" 'BEGIN { for (j = 0; j < 3; j++) for (i = 0; i < 4; i++) {
    a = i + 5 * j; b = a + 1; c = a + 6; d = a + 5
    if (kind == "quads") printf "%d %d %d %d ", a, b, c, d
    else if (kind == "split") printf "%d %d %d %d %d %d ", b, c, a, d, a, c
    else printf "%d %d %d %d %d %d ", a, b, c, a, c, d } }'
}
flat=(--mesh.nodes="$flat_nodes" --material.model=none --membrane.young-modulus=4000
  --membrane.poisson-ratio=0.3 --mass.type=uniform --mass.total-mass=2 --load.gravity="0 -9.81 1"
  --constraint.fixed="indices 0 1 2 3 4" --solver.dt=0.01 --solver.steps=5 --solver.rtol=1e-13
  --output.progress-every=0)
for ranks in 1 2 3; do
  run "$ranks" "${flat[@]}" --mesh.quadrangles="$(flat_cells quads)" \
    --membrane.faces=split-quadrangles --output.final-state="split$ranks.csv"
  check "a membrane on split quadrangles runs on $ranks ranks" test -s "split$ranks.csv"
done
check "split quadrangles: 2 ranks end where 1 rank does" same_state split1.csv split2.csv 1e-11
check "split quadrangles: 3 ranks end where 1 rank does" same_state split1.csv split3.csv 1e-11
run 1 "${flat[@]}" --mesh.triangles="$(flat_cells split)" --output.final-state=triangles.csv
check "a membrane on the split triangles written out runs" test -s triangles.csv
check "the split quadrangles end where those triangles end" same_state split1.csv triangles.csv 1e-11
run 1 "${flat[@]}" --mesh.triangles="$(flat_cells cut)" --output.final-state=cut.csv
check "a membrane on GridTopology's cut runs" test -s cut.csv
check "the split's vertex order is not the cut's" differ split1.csv cut.csv 1e-11

cat > flat.scn <<'XML'
<Node name="root" dt="0.01" gravity="0 -9.81 1">
  <RegularGridTopology name="grid" nx="5" ny="1" nz="4" xmin="0" xmax="2" ymin="0" ymax="0" zmin="0" zmax="1.2"/>
  <Node name="body">
    <EulerImplicitSolver/>
    <CGLinearSolver iterations="1000" tolerance="1e-13" threshold="1e-30"/>
    <MechanicalObject src="@../grid"/>
    <QuadSetTopologyContainer name="Container" src="@../grid"/>
    <DiagonalMass massDensity="2"/>
    <FixedProjectiveConstraint indices="0 1 2 3 4"/>
    <Node name="Surf">
      <TriangleSetTopologyContainer name="Container"/>
      <Quad2TriangleTopologicalMapping input="@../Container" output="@Container"/>
      <TriangularFEMForceField youngModulus="4000" poissonRatio="0.3" method="large"/>
    </Node>
  </Node>
</Node>
XML
for ranks in 1 2 3; do
  run "$ranks" --scene flat.scn --solver.steps=5 --output.final-state="flat$ranks.csv"
  check "SOFA's split of the grid's quads, $ranks ranks: runs" test -s "flat$ranks.csv"
done
check "the membrane reads the body's quadrangles split" grep -q "^faces = split-quadrangles" run.log
check "the split grid: 2 ranks end where 1 rank does" same_state flat1.csv flat2.csv 1e-11
check "the split grid: 3 ranks end where 1 rank does" same_state flat1.csv flat3.csv 1e-11
sed 's|<TriangularFEMForceField .*/>|<TriangularBendingSprings stiffness="10"/>|' flat.scn >bending.scn
check "bending springs on the split triangles are refused" refused \
  "TriangularBendingSprings: stiffness.*on the triangles split from a body of quadrangles" \
  2 "$program" --scene bending.scn --solver.steps=1
sed 's|<QuadSetTopologyContainer name="Container" src="@../grid"/>|<QuadSetTopologyContainer name="Container" quads="0 1 6 5"/>|' \
  flat.scn >other.scn
check "quadrangles that are not the body's grid stay refused" refused \
  "youngModulus.*a Hexa2QuadTopologicalMapping makes of the body's hexahedra only" \
  2 "$program" --scene other.scn --solver.steps=1
echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
