#!/usr/bin/env bash
# Springs between points that SOFA's SubsetMapping or IdentityMapping selects from a body
# (io/sofa_subset_points.cpp, io/sofa_springs.cpp), and MatrixProjectionMethod
# (io/sofa_linear_systems.cpp), as in SOFA's MatrixLinearSystem.scn: a hexahedral beam, fixed at
# z = 0, with child a (one point, a BoxROI's on the beam's points), b (indices written) and c
# (an IdentityMapping), a SpringForceField from a to b and one from a to c. The mappings are
# linear, so the springs act on the selected points as springs between the beam's own nodes:
# 20 steps give the final state of the scene with those springs written on the beam, bit for bit,
# on 1, 2 and 3 ranks, and differ from the beam without them. What is refused: one error line
# each.
# Usage: sofa_subset_springs.sh <euler-implicit> <meshes dir>.
set -euo pipefail
RANKS=3  # MPI ranks per run at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
# shellcheck source=SCRIPTDIR/../common/regression_test.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/regression_test.sh"

run() {  # run RANKS ARGS...
  mpi_command "$1" "$EXE"
  timeout 60 "${MPI_COMMAND[@]}" "${@:2}" > run.out 2> run.err
}

beam() {  # beam CHILDREN_AND_SPRINGS
  cat <<XML
<Node name="root" dt="0.01" gravity="0 -9.81 0">
  <DefaultAnimationLoop/>
  <Node name="beam">
    <EulerImplicitSolver/>
    <SparseLDLSolver/>
    <RegularGridTopology name="grid" nx="2" ny="2" nz="4" xmin="0" xmax="1" ymin="0" ymax="1"
                         zmin="0" zmax="3"/>
    <MechanicalObject template="Vec3d" name="DOFs"/>
    <MeshMatrixMass totalMass="2"/>
    <HexahedronFEMForceField youngModulus="1000" poissonRatio="0.3" method="large"/>
    <BoxROI name="fixed" box="-0.1 -0.1 -0.1 1.1 1.1 0.1"/>
    <FixedProjectiveConstraint indices="@fixed.indices"/>
    $1
  </Node>
</Node>
XML
}
# Grid point (i, j, k) is i + 2 (j + 2 k): a's BoxROI picks (1, 1, 3), 15; b's point 1 is 4.
CHILDREN='<Node name="a">
      <BoxROI name="box" position="@../DOFs.position" box="1.1 1.1 3.1 0.9 0.9 2.9"/>
      <MechanicalObject template="Vec3d" name="DOFs"/>
      <SubsetMapping input="@../DOFs" output="@DOFs" indices="@box.indices"/>
    </Node>
    <Node name="b">
      <MechanicalObject template="Vec3d" name="DOFs"/>
      <SubsetMapping input="@../DOFs" output="@DOFs" indices="5 4"/>
    </Node>
    <Node name="c">
      <MechanicalObject template="Vec3d" name="DOFs"/>
      <IdentityMapping/>
    </Node>'
beam "$CHILDREN
    <MatrixProjectionMethod areJacobiansConstant=\"true\" mechanicalStates=\"@a/DOFs @b/DOFs\"/>
    <SpringForceField object1=\"@a/DOFs\" object2=\"@b/DOFs\" spring=\"0 1 200 2 0.5\"/>
    <SpringForceField object1=\"@a/DOFs\" object2=\"@c/DOFs\" indices1=\"0\" indices2=\"9\"
                      stiffness=\"50\" damping=\"1\" lengths=\"1\"/>" > subset.scn
beam '<SpringForceField spring="15 4 200 2 0.5"/>
    <SpringForceField indices1="15" indices2="9" stiffness="50" damping="1" lengths="1"/>' \
  > direct.scn
beam "" > none.scn

for ranks in 1 2 3; do
  for name in subset direct none; do
    status=0
    run "$ranks" --scene $name.scn --solver.steps=20 --output.final-state="$name$ranks.csv" ||
      status=$?
    check "$name.scn: 20 steps on $ranks rank(s)" test "$status" -eq 0
    [ "$status" -eq 0 ] || sed 's/^/     | /' run.err
    [ "$name" = subset ] && cp run.out "subset$ranks.out"
  done
  check "$ranks rank(s): springs to the selected points are the beam's own, bit for bit" \
    cmp -s "subset$ranks.csv" "direct$ranks.csv"
  check "$ranks rank(s): the springs move the beam (the check can fail)" \
    eval "! cmp -s direct$ranks.csv none$ranks.csv"
done
check "the first spring joins beam nodes 15 and 4" grep -qx "springs = self 15 4 200 2 0.5" subset1.out
check "the second spring joins beam nodes 15 and 9" grep -qx "springs = self 15 9 50 1 1" subset1.out
check "MatrixProjectionMethod is said to change nothing" \
  grep -q "MatrixProjectionMethod.*no effect on the result" subset1.out

beam "$CHILDREN
    <SpringForceField object1=\"@a/DOFs\" object2=\"@b/DOFs\" spring=\"0 2 200 2 0.5\"/>" > past.scn
check "a spring to a point past a SubsetMapping's selection is refused" \
  refused "spring 0: point 2 of the 2 a SubsetMapping selects" 2 "$EXE" --scene past.scn \
    --solver.steps=1
beam "$CHILDREN
    <PolynomialSpringsForceField object1=\"@a/DOFs\" object2=\"@b/DOFs\" firstObjectPoints=\"0\"
                                 secondObjectPoints=\"1\" polynomialDegree=\"1\"
                                 polynomialStiffness=\"10\"/>" > polynomial.scn
check "a PolynomialSpringsForceField to a SubsetMapping's child is refused by name" \
  refused "PolynomialSpringsForceField.*SubsetMapping.*springs to a mapped state are not" \
    2 "$EXE" --scene polynomial.scn --solver.steps=1
sed 's/indices="5 4"/first="4" last="5"/' subset.scn > range.scn
check "a SubsetMapping's range (first, last) is refused by name" \
  refused "SubsetMapping.*first.*write .indices." 2 "$EXE" --scene range.scn --solver.steps=1
sed 's/<IdentityMapping\/>/<BarycentricMapping\/>/' subset.scn > barycentric.scn
check "a spring to a BarycentricMapping's child whose points are not written is refused" \
  refused "position: the points of a state a BarycentricMapping drives must be written" \
    2 "$EXE" --scene barycentric.scn --solver.steps=1
beam "<Node name=\"frame\">
      <MechanicalObject template=\"Rigid3d\" position=\"0 0 0 0 0 0 1\"/>
      <Node name=\"points\">
        <MechanicalObject template=\"Vec3d\" name=\"DOFs\" position=\"1 0 0\"/>
        <RigidMapping/>
      </Node>
    </Node>
    <MatrixProjectionMethod areJacobiansConstant=\"true\"
                            mechanicalStates=\"@frame/points/DOFs @frame/points/DOFs\"/>" \
  > rigid.scn
check "MatrixProjectionMethod's constant Jacobians over a RigidMapping are refused by name" \
  refused "areJacobiansConstant.*RigidMapping" 2 "$EXE" --scene rigid.scn --solver.steps=1
echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
