#!/usr/bin/env bash
# SOFA components of one job each, run unchanged (--scene FILE.scn), on 1, 2 and 3 ranks:
#  - Gravity: a cube of springs falls from rest under the Gravity component of its node (body a)
#    or of the root (body b), each overriding the root's gravity field; springs that a uniform
#    motion does not stretch leave SOFA's implicit step an exact free fall, v_n = n h g and
#    x_n = x_0 + n (n + 1) / 2 h^2 g, which the final state must match to 1e-12.
# Usage: sofa_small_components.sh <euler-implicit> <meshes dir>; the MPI launch line:
# tests/common/mpi_launch.sh.
set -euo pipefail
RANKS=3  # MPI ranks per run at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
# shellcheck source=SCRIPTDIR/../common/regression_test.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/regression_test.sh"

POINTS="0 0 1  1 0 1  0 1 1  1 1 1  0 0 2  1 0 2  0 1 2  1 1 2"
cube() {  # cube NAME INSIDE: a cube of springs integrated by its own solver, INSIDE in its node
  cat <<EOF
  <Node name="$1">
    $2
    <EulerImplicitSolver/>
    <SparseLDLSolver/>
    <MechanicalObject position="$POINTS"/>
    <MeshTopology hexas="0 4 6 2 1 5 7 3"/>
    <UniformMass totalMass="2"/>
    <MeshSpringForceField linesStiffness="300" quadsStiffness="70"/>
  </Node>
EOF
}
{
  echo '<Node name="root" dt="0.05" gravity="0 -9.81 0">'
  echo '  <Gravity gravity="0 0 -2"/>'
  cube a '<Gravity gravity="1 2 -3"/>'
  cube b ''
  echo '</Node>'
} > gravity.scn

# free_fall FINAL BODY GX GY GZ: the largest gap of BODY's rows from the exact free fall after
# 3 steps of h = 0.05 (x = x0 + 6 h^2 g, v = 3 h g), over the largest displacement.
free_fall() {
  awk -F, -v body="$2" -v g="$3 $4 $5" -v points="$POINTS" '
    BEGIN { split(points, p, " "); split(g, a, " "); h = 0.05 }
    FNR == 1 || $8 != body { next }
    { for (k = 1; k <= 3; ++k) {
        x = p[3 * $1 + k] + 6 * h * h * a[k]; v = 3 * h * a[k]
        d = $(k + 1) - x; if (d < 0) d = -d; if (d > m) m = d
        d = $(k + 4) - v; if (d < 0) d = -d; if (d > m) m = d
        u = 6 * h * h * a[k]; if (u < 0) u = -u; if (u > s) s = u }
      rows++ }
    END { if (rows != 8) print "nan"; else printf "%.3e\n", m / s }' "$1"
}

for ranks in 1 2 3; do
  status=0
  run "$ranks" --scene gravity.scn --solver.steps=3 --output.final-state=final.csv || status=$?
  check "the scene of Gravity components runs on $ranks rank(s)" test "$status" -eq 0
  [ "$status" -eq 0 ] || { sed 's/^/     | /' run.err; continue; }
  value=$(free_fall final.csv /a 1 2 -3)
  check "on $ranks rank(s) its node's Gravity gives a free fall under g = (1, 2, -3): $value" \
    below "$value" 1e-12
  value=$(free_fall final.csv /b 0 0 -2)
  check "on $ranks rank(s) the root's Gravity gives a free fall under g = (0, 0, -2): $value" \
    below "$value" 1e-12
done
echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
