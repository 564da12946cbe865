#!/usr/bin/env bash
# The plasticity of SOFA's TetrahedronFEMForceField (plasticMaxThreshold, plasticYieldThreshold,
# plasticCreep; model/fem_plasticity.hpp), run unchanged (--scene FILE.scn): a bar of 4 x 1 x 1
# cubes of 6 tetrahedra each, held at one end, sagging under gravity:
#  - its state is the same on 1, 2 and 3 ranks (each element's plastic strain is its own);
#  - it differs from that of the elastic bar (the plastic strain acts) and the run whose keys
#    are written out natively (material.plastic-*) ends in the same state as the scene;
#  - plasticity with method="small" is refused with one error line.
# The update itself is checked against values worked out by hand in
# tests/unit/test_fem_plasticity.cpp.
# Usage: sofa_fem_plasticity.sh <euler-implicit> <meshes dir>; the MPI launch line:
# tests/common/mpi_launch.sh.
set -euo pipefail
RANKS=3  # MPI ranks per run at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
# shellcheck source=SCRIPTDIR/../common/regression_test.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/regression_test.sh"

# Vertex (i, j, k) of the 5 x 2 x 2 grid is i + 5 j + 10 k; each cube is cut into the six
# tetrahedra around its diagonal from corner 0 to corner 7 (corner c at i + c % 2, j + c / 2 % 2,
# k + c / 4).
points="" tetras=""
for k in 0 1; do for j in 0 1; do for i in 0 1 2 3 4; do points+="$i $j $k  "; done; done; done
for i in 0 1 2 3; do
  c=()
  for corner in 0 1 2 3 4 5 6 7; do
    c+=($((i + corner % 2 + 5 * (corner / 2 % 2) + 10 * (corner / 4))))
  done
  for t in "1 3" "1 5" "2 3" "2 6" "4 5" "4 6"; do
    read -r a b <<< "$t"
    tetras+="${c[0]} ${c[a]} ${c[b]} ${c[7]}  "
  done
done
scene() {  # scene FILE FEM-ATTRIBUTES
  cat > "$1" <<SCN
<Node name="root" dt="0.02" gravity="0 -9.81 0">
  <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>
  <CGLinearSolver iterations="200" tolerance="1e-20" threshold="1e-20"/>
  <MechanicalObject position="$points"/>
  <MeshTopology tetrahedra="$tetras"/>
  <UniformMass totalMass="2"/>
  <TetrahedronFEMForceField youngModulus="2000" poissonRatio="0.3" $2/>
  <FixedProjectiveConstraint indices="0 5 10 15"/>
</Node>
SCN
}
PLASTIC='plasticMaxThreshold="0.05" plasticYieldThreshold="0.002" plasticCreep="0.5"'
scene plastic.scn "method=\"large\" $PLASTIC"
scene elastic.scn 'method="large"'
scene small.scn "method=\"small\" $PLASTIC"

for ranks in 1 2 3; do
  status=0
  run "$ranks" --scene plastic.scn --solver.steps=10 --output.final-state="plastic$ranks.csv" ||
    status=$?
  check "the plastic bar runs on $ranks rank(s)" test "$status" -eq 0
  [ "$status" -eq 0 ] || sed 's/^/     | /' run.err
done
check "the plastic bar ends on 2 ranks where on 1" same_state plastic1.csv plastic2.csv 1e-10
check "the plastic bar ends on 3 ranks where on 1" same_state plastic1.csv plastic3.csv 1e-10

run 2 --scene elastic.scn --solver.steps=10 --output.final-state=elastic.csv
differ() { ! same_state "$@" > /dev/null; }
check "the elastic bar ends elsewhere than the plastic one" differ elastic.csv plastic1.csv 1e-3
run 2 --scene elastic.scn --solver.steps=10 --output.final-state=native.csv \
  --material.plastic-max-threshold=0.05 --material.plastic-yield-threshold=0.002 \
  --material.plastic-creep=0.5
check "the native keys give the scene's state" same_state native.csv plastic1.csv 1e-10

status=0
run 2 --scene small.scn --solver.steps=1 || status=$?
check "plasticity with method small is refused" test "$status" -ne 0
check "with one line naming the field" grep -q "plasticMaxThreshold.*method small" run.err

echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
