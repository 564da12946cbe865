#!/usr/bin/env bash
# SOFA's ConstantForceField on Rigid3d frames (a force and a torque a frame) and a Rigid3d child
# that an IdentityMapping drives from the frames (io/sofa_rigid.cpp, io/sofa_walk.cpp,
# model/rigid_body.cpp). Two free frames with a given inertia, one turned, pushed by a
# totalForce on the frames and by forces and torques written per index in the identity child:
# one implicit-Euler step from rest, dv = h (m I)^-1 T on the angular unknowns and h F / m on the
# linear ones, the centre moved by h v and the orientation turned by exp(h w / 2) q, against that
# closed form to 1e-12. Then a chain of three frames, the first fixed, carrying a hexahedral FEM
# and a mass through a RigidMapping with geometric stiffness: the mapping and a ConstantForceField
# below an IdentityMapping give the same frames as both on the frames themselves, bit for bit, on
# 1 and 3 ranks. A fixed constraint in the identity child is refused by name.
# Usage: sofa_rigid_identity_forces.sh <euler-implicit> <meshes dir>.
set -euo pipefail
RANKS=3  # MPI ranks per run at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
# shellcheck source=SCRIPTDIR/../common/regression_test.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/regression_test.sh"

Q=$(awk 'BEGIN { n = sqrt(0.09 + 0.25 + 0.04 + 0.49); printf "%.17g %.17g %.17g %.17g",
  0.3 / n, -0.5 / n, 0.2 / n, 0.7 / n }')
cat > free.scn <<XML
<Node name="root" dt="0.1" gravity="0 0 0">
  <DefaultAnimationLoop/>
  <Node name="frames">
    <EulerImplicitSolver/>
    <SparseLDLSolver/>
    <MechanicalObject template="Rigid3d" position="1 2 3 $Q  0 0 0 0 0 0 1"/>
    <UniformMass vertexMass="2 1 1 0 0 0 2 0 0 0 3"/>
    <ConstantForceField totalForce="2 0 0 0 0 0"/>
    <Node name="copy">
      <MechanicalObject template="Rigid3d"/>
      <ConstantForceField indices="1 0" forces="0 4 0 6 0 0  0 0 0 0 0 12"/>
      <IdentityMapping/>
    </Node>
  </Node>
</Node>
XML
cat > reference.py <<'PY'
import math, sys
rows = [line.strip().split(",") for line in open(sys.argv[1])][1:]
q0 = [[float(t) for t in sys.argv[2].split()], [0.0, 0.0, 0.0, 1.0]]
c0 = [[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]]
h, m, inertia = 0.1, 2.0, [1.0, 2.0, 3.0]
# totalForce (2 0 0) shared by the 2 frames, then the child's per-index forces and torques.
F = [[1.0, 0.0, 0.0], [1.0, 4.0, 0.0]]
T = [[0.0, 0.0, 12.0], [6.0, 0.0, 0.0]]
worst = 0.0
for f, row in enumerate(rows):
    got = [float(t) for t in row[2:]]
    v = [h * F[f][i] / m for i in range(3)]
    w = [h * T[f][i] / (m * inertia[i]) for i in range(3)]
    x = [c0[f][i] + h * v[i] for i in range(3)]
    o = [h * w[i] / 2 for i in range(3)]
    t = math.sqrt(sum(e * e for e in o))
    e = [math.sin(t) / t * o[i] for i in range(3)] + [math.cos(t)]
    q = q0[f]
    turned = [e[3] * q[0] + e[0] * q[3] + e[1] * q[2] - e[2] * q[1],
              e[3] * q[1] + e[1] * q[3] + e[2] * q[0] - e[0] * q[2],
              e[3] * q[2] + e[2] * q[3] + e[0] * q[1] - e[1] * q[0],
              e[3] * q[3] - (e[0] * q[0] + e[1] * q[1] + e[2] * q[2])]
    expected = x + turned + v + w
    worst = max([worst] + [abs(a - b) for a, b in zip(got, expected)])
print("%.3e %d" % (worst, len(rows)))
PY
status=0
run 1 --scene free.scn --solver.steps=1 --output.frames=free.csv || status=$?
check "forces and torques on frames and on their identity copy run" test "$status" -eq 0
[ "$status" -eq 0 ] || sed 's/^/     | /' run.err
read -r worst frames < <(python3 reference.py free.csv "$Q" || echo "nan 0")
check "one step follows the closed form on $frames frames: $worst <= 1e-12" below "$worst" 1e-12
check "two frames written" test "$frames" -eq 2

chain() {  # chain IDENTITY(0|1) [COPY_EXTRA]: the FEM child and the load below the copy or not
  local open="" close="" load='<ConstantForceField forces="0 0.5 0.25 0.1 0 -0.2"/>'
  if [ "$1" = 1 ]; then
    open="<Node name=\"copy\"><MechanicalObject template=\"Rigid3d\"/>$load ${2:-}<IdentityMapping/>"
    close="</Node>"
    load=""
  fi
  cat <<XML
<Node name="root" dt="0.02" gravity="0 -10 0">
  <DefaultAnimationLoop/>
  <Node name="beam">
    <EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.1"/>
    <SparseLDLSolver/>
    <RegularGridTopology name="axis" nx="1" ny="1" nz="3" xmin="0" xmax="0" ymin="0" ymax="0"
                         zmin="0" zmax="2"/>
    <MechanicalObject template="Rigid3d" position="@axis.position"/>
    <FixedProjectiveConstraint indices="0"/>
    $load
    $open
    <Node name="FEM">
      <RegularGridTopology name="grid" nx="2" ny="2" nz="3" xmin="-0.5" xmax="0.5" ymin="-0.5"
                           ymax="0.5" zmin="0" zmax="2"/>
      <MechanicalObject template="Vec3d" position="@grid.position"/>
      <MeshMatrixMass totalMass="3"/>
      <HexahedronFEMForceField youngModulus="1000" poissonRatio="0.3" method="large"/>
      <RigidMapping geometricStiffness="2" globalToLocalCoords="true"
                    rigidIndexPerPoint="0 0 0 0 1 1 1 1 2 2 2 2"/>
    </Node>
    $close
  </Node>
</Node>
XML
}
chain 0 > direct.scn
chain 1 > identity.scn
for name in direct identity; do
  status=0
  run 1 --scene $name.scn --solver.steps=20 --output.frames=$name.csv || status=$?
  check "$name.scn: 20 steps" test "$status" -eq 0
  [ "$status" -eq 0 ] || sed 's/^/     | /' run.err
done
check "the IdentityMapping's copy is the frames: the same frames, bit for bit" \
  cmp -s direct.csv identity.csv
status=0
run 3 --scene identity.scn --solver.steps=20 --output.frames=identity3.csv || status=$?
check "identity.scn on 3 ranks writes the frames of 1 rank, bit for bit" \
  cmp -s identity.csv identity3.csv
start=$(awk -F, 'NR == 4 { print $5 }' direct.csv)
check "the frames move (the checks can fail): the last centre's z $start != 2" \
  awk -v z="$start" 'BEGIN { exit !(z != 2 && z == z + 0) }'

chain 1 '<FixedProjectiveConstraint indices="1"/>' > fixed.scn
check "a fixed constraint in the identity copy is refused, naming it" \
  refused "FixedProjectiveConstraint.*only a ConstantForceField" 1 "$EXE" --scene fixed.scn \
    --solver.steps=1
echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
