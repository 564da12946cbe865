#!/usr/bin/env bash
# Bodies of points without cells (a MechanicalObject's positions alone: each point its own cell,
# mesh/distributed_mesh.cpp), run unchanged (--scene FILE.scn) on 1, 2 and 3 ranks:
#  - seven points under gravity with UniformMass, each thrown with its own velocity, point 0
#    fixed (FixedProjectiveConstraint): after 4 steps each free point is where the closed form of
#    the implicit Euler step puts it, v_k = v_0 + k h g, x_N = x_0 + N h v_0 + h^2 g N (N + 1) / 2,
#    to 1e-12 of the displacement, and point 0 has not moved;
#  - two points joined by a SpringForceField (ks, no damping, rest length L0), no gravity,
#    stretched by u_0 along x: the stretch u = l - L0 follows the one-degree-of-freedom
#    oscillator of omega^2 = 2 ks / m under implicit Euler, v' = (v - h omega^2 u) / (1 + h^2
#    omega^2), u' = u + h v', whose amplification factor has modulus (1 + h^2 omega^2)^(-1/2):
#    after 25 steps u agrees to 1e-10 of u_0, and the centre of mass has not moved;
#  - the same scenes give the same final state, bit for bit, on 1, 2 and 3 ranks;
#  - a point thrown away from a fixed point of another body, held by a PolynomialSpringsForceField
#    (rest length the first distance, no force when shorter): after 30 steps, through stretch
#    and compression, it is where SOFA's step with SOFA's tangent, computed here, puts it, to
#    1e-10 of the rest length, on 1, 2 and 3 ranks;
#  - on 2 ranks the ParaView pieces hold one VTK_VERTEX cell per point and the XDMF file a
#    Polyvertex topology, both with the final state's positions;
#  - a DiagonalMass on points, and mesh.convert of them, are each one clear error (no cells to
#    measure a mass on, none to write).
# Usage: sofa_points_only.sh <euler-implicit> <meshes dir>; the MPI launch line:
# tests/common/mpi_launch.sh.
set -euo pipefail
RANKS=3  # MPI ranks per run at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
# shellcheck source=SCRIPTDIR/../common/regression_test.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/regression_test.sh"

POINTS="0 0 4  1 0 4  2 0 4  3 0.5 4  4 0 4  5 -1 4  6 0 3"
VELOCITIES="0 0 0  1 2 3  -1 0 0.5  0 0 0  2 2 -2  0.25 -3 1  0 7 0"
cat > fall.scn <<EOF
<Node name="root" dt="0.02" gravity="0.3 -9.81 1.5">
  <DefaultAnimationLoop/>
  <Node name="particles">
    <EulerImplicitSolver/>
    <CGLinearSolver iterations="25" tolerance="1e-20" threshold="1e-20"/>
    <MechanicalObject name="DOF" position="$POINTS" velocity="$VELOCITIES"/>
    <UniformMass totalMass="3.5"/>
    <FixedProjectiveConstraint indices="0"/>
  </Node>
</Node>
EOF
# fall FINAL: max |x - x_closed| over the points, over the largest displacement.
fall() {
  [ -f "$1" ] || { echo nan; return; }
  awk -F, -v points="$POINTS" -v velocities="$VELOCITIES" '
    BEGIN { n = split(points, p, " "); split(velocities, w, " "); h = 0.02; N = 4
            g[1] = 0.3; g[2] = -9.81; g[3] = 1.5 }
    FNR == 1 { next }
    { for (c = 1; c <= 3; ++c) {
        x0 = p[3 * $1 + c]
        x = $1 == 0 ? x0 : x0 + N * h * w[3 * $1 + c] + h * h * g[c] * N * (N + 1) / 2
        d = $(c + 1) - x; if (d < 0) d = -d; if (d > dmax) dmax = d
        u = x - x0; if (u < 0) u = -u; if (u > umax) umax = u }
      rows++ }
    END { if (rows != n / 3 || umax == 0) print "nan"; else printf "%.3e\n", dmax / umax }
  ' "$1"
}

L0=1.5
U0=0.4
cat > spring.scn <<EOF
<Node name="root" dt="0.05" gravity="0 0 0">
  <DefaultAnimationLoop/>
  <Node name="pair">
    <EulerImplicitSolver/>
    <SparseLDLSolver/>
    <MechanicalObject name="DOF" position="0 0 0  $(awk -v l="$L0" -v u="$U0" 'BEGIN { print l + u }') 0 0"/>
    <UniformMass totalMass="0.8"/>
    <SpringForceField spring="0 1 30 0 $L0"/>
  </Node>
</Node>
EOF
# spring FINAL: |u - u_closed| / u_0 after 25 steps, plus the centre of mass's drift and any
# motion off the x axis.
spring() {
  [ -f "$1" ] || { echo nan; return; }
  awk -F, -v L="$L0" -v u0="$U0" '
    BEGIN { h = 0.05; m = 0.4; w2 = 2 * 30 / m; u = u0; v = 0
            for (k = 0; k < 25; ++k) { v = (v - h * w2 * u) / (1 + h * h * w2); u = u + h * v } }
    FNR == 1 { next }
    { x[$1] = $2; for (k = 3; k <= 4; ++k) side += $k < 0 ? -$k : $k; rows++ }
    END { if (rows != 2) { print "nan"; exit }
          drift = (x[0] + x[1]) / 2 - (L + u0) / 2; if (drift < 0) drift = -drift
          d = (x[1] - x[0] - L) - u; if (d < 0) d = -d
          printf "%.3e\n", (d + drift + side) / u0 }
  ' "$1"
}

for ranks in 1 2 3; do
  status=0
  run "$ranks" --scene fall.scn --solver.steps=4 --output.final-state="fall$ranks.csv" ||
    status=$?
  check "seven points alone fall on $ranks rank(s)" test "$status" -eq 0
  [ "$status" -eq 0 ] || sed 's/^/     | /' run.err
  value=$(fall "fall$ranks.csv")
  check "on $ranks rank(s) they follow the implicit Euler closed form: $value <= 1e-12" \
    below "$value" 1e-12
  status=0
  run "$ranks" --scene spring.scn --solver.steps=25 --output.final-state="spring$ranks.csv" ||
    status=$?
  check "two points and a spring run on $ranks rank(s)" test "$status" -eq 0
  [ "$status" -eq 0 ] || sed 's/^/     | /' run.err
  value=$(spring "spring$ranks.csv")
  check "on $ranks rank(s) the stretch is the implicit Euler oscillator's: $value <= 1e-10" \
    below "$value" 1e-10
done
for ranks in 2 3; do
  check "the falling points are the same bit for bit on 1 and $ranks ranks" \
    cmp -s fall1.csv "fall$ranks.csv"
  check "the spring's points are the same bit for bit on 1 and $ranks ranks" \
    cmp -s spring1.csv "spring$ranks.csv"
done

# A point of one body held by a PolynomialSpringsForceField to the fixed point of another (the
# body above), thrown along the spring: its rest length the first distance, 1.5, its force
# P(s) = 20 s + 10 s^2 + 50 s^3 of s = |d - L| / L, none when shorter. SOFA's step with SOFA's
# tangent computed here: K = -P'(s) / L along x (stretched or not), f = -P(s) when d >= L, else
# 0; (m - h^2 K) dv = h (f + h K v).
cat > polynomial.scn <<EOF
<Node name="root" dt="0.05" gravity="0 0 0">
  <DefaultAnimationLoop/>
  <Node name="anchor">
    <EulerImplicitSolver/>
    <SparseLDLSolver/>
    <MechanicalObject name="dofs" position="0 0 0"/>
    <UniformMass totalMass="1"/>
    <FixedProjectiveConstraint indices="0"/>
    <Node name="weight">
      <MechanicalObject name="point" position="1.5 0 0" velocity="0.8 0 0"/>
      <UniformMass totalMass="0.3"/>
      <PolynomialSpringsForceField polynomialDegree="3" polynomialStiffness="20 10 50"
        object1="@." firstObjectPoints="0" object2="@../dofs" secondObjectPoints="0"/>
    </Node>
  </Node>
</Node>
EOF
# polynomial FINAL: |x - x_ref| / L of the weight after 30 steps, plus the anchor's motion and
# any motion off the x axis; nan unless the reference went through a compression.
polynomial() {
  [ -f "$1" ] || { echo nan; return; }
  awk -F, '
    BEGIN { h = 0.05; m = 0.3; L = 1.5; x = L; v = 0.8
            for (k = 0; k < 30; ++k) {
              s = (x > L ? x - L : L - x) / L
              P = 20 * s + 10 * s^2 + 50 * s^3; dP = 20 + 20 * s + 150 * s^2
              f = x >= L ? -P : 0; K = -dP / L
              v += h * (f + h * K * v) / (m - h * h * K); x += h * v
              if (x < L) compressed = 1 } }
    FNR == 1 { next }
    { if ($8 ~ /weight/) { d = $2 - x; if (d < 0) d = -d; gap += d / L
                           for (c = 3; c <= 4; ++c) gap += $c < 0 ? -$c : $c }
      else for (c = 2; c <= 4; ++c) gap += $c < 0 ? -$c : $c
      rows++ }
    END { if (rows != 2 || !compressed) print "nan"; else printf "%.3e\n", gap }
  ' "$1"
}
for ranks in 1 2 3; do
  status=0
  run "$ranks" --scene polynomial.scn --solver.steps=30 \
    --output.final-state="polynomial$ranks.csv" || status=$?
  check "a polynomial spring between two bodies of points runs on $ranks rank(s)" \
    test "$status" -eq 0
  [ "$status" -eq 0 ] || sed 's/^/     | /' run.err
  value=$(polynomial "polynomial$ranks.csv")
  check "on $ranks rank(s) the weight follows SOFA's step computed here: $value <= 1e-10" \
    below "$value" 1e-10
done

# The outputs on 2 ranks: a ParaView piece set of one VTK_VERTEX (1) cell per point and an XDMF
# Polyvertex topology, each holding the final state's positions as rest plus displacement.
run 2 --scene fall.scn --solver.steps=4 --output.vtk=vtk/fall --output.xdmf=xdmf/fall \
  --output.final-state=outputs.csv
check "the outputs of a body of points agree with its final state" /usr/bin/python3 - <<'PY'
import sys

import h5py
import numpy as np
import vtk
from vtk.util.numpy_support import vtk_to_numpy

final = np.loadtxt("outputs.csv", delimiter=",", skiprows=1)
reader = vtk.vtkXMLPUnstructuredGridReader()
reader.SetFileName("vtk/fall_000004.pvtu")
reader.Update()
grid = reader.GetOutput()
types = {grid.GetCellType(c) for c in range(grid.GetNumberOfCells())}
ids = vtk_to_numpy(grid.GetPointData().GetArray("node_id"))
moved = vtk_to_numpy(grid.GetPoints().GetData()) + vtk_to_numpy(
    grid.GetPointData().GetArray("displacement"))
vtk_gap = np.abs(moved - final[ids, 1:4]).max()
xdmf = open("xdmf/fall.xdmf").read()
with h5py.File("xdmf/fall.h5") as f:
    topology = f["/mesh/topology"][...]
    xdmf_moved = f["/mesh/geometry"][...] + f["/steps/000004/displacement"][...]
    xdmf_gap = np.abs(xdmf_moved - final[f["/mesh/node_id"][...].ravel(), 1:4]).max()
ok = (grid.GetNumberOfCells() == 7 and types == {1} and vtk_gap < 1e-12 and
      'TopologyType="Polyvertex"' in xdmf and 'NodesPerElement="1"' in xdmf and
      topology.shape == (7, 1) and sorted(topology.ravel()) == list(range(7)) and xdmf_gap < 1e-12)
print("  cells", grid.GetNumberOfCells(), "types", types, "gaps", vtk_gap, xdmf_gap)
sys.exit(0 if ok else 1)
PY

sed 's/<UniformMass totalMass="3.5"\/>/<DiagonalMass massDensity="2"\/>/' fall.scn > lumped.scn
status=0
run 2 --scene lumped.scn --solver.steps=1 || status=$?
check "a DiagonalMass on points is refused" test "$status" -ne 0
check "the refusal says why" grep -q 'a body of points has no cells to measure a mass on' run.err
status=0
run 2 "--mesh.nodes=0 0 0 1 0 0" --mesh.convert=points.h5 || status=$?
check "mesh.convert of a body of points is refused" test "$status" -ne 0
check "the refusal names it" grep -q 'mesh.nodes alone is a body of points, which has no cells' \
  run.err
echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
