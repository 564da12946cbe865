#!/usr/bin/env bash
# SOFA bodies that are no volume mesh from a loader, run unchanged (--scene FILE.scn):
#  - a cube of 8 points written in the MechanicalObject, its hexahedron in a MeshTopology's
#    `hexas`, one point thrown, with UniformMass, gravity and a MeshSpringForceField of different lines, quads and
#    cubes constants (SOFA's first kind that joins a pair gives its spring: edges the lines',
#    face diagonals the quads', body diagonals the cubes'), beside an obstacle node no ODE solver
#    integrates (skipped, said in the collision warning): after 3 steps on 1, 2 and 3 ranks its
#    final state agrees to 1e-10 relative with SOFA's EulerImplicitSolver step computed here
#    independently (a dense 24 x 24 solve of (M - h^2 K) dv = h (f + h K v) in Python);
#  - the same scene without the obstacle node gives the same state, bit for bit.
# Usage: sofa_free_bodies.sh <euler-implicit> <meshes dir>; the MPI launch line:
# tests/common/mpi_launch.sh.
set -euo pipefail
RANKS=3  # MPI ranks per run at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
# shellcheck source=SCRIPTDIR/../common/regression_test.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/regression_test.sh"

POINTS="0 0 1  1 0 1  0 1 1  1 1 1  0 0 2  1 0 2  0 1 2  1 1 2"
HEXA="0 4 6 2 1 5 7 3"
VELOCITIES="0 0 0  0 0 0  0 0 0  0 0 0  0 0 0  0 0 0  0 0 0  2 -1 3"  # the last point thrown
cube() {  # cube OBSTACLE: the scene, with the obstacle node when OBSTACLE is 1
  cat <<EOF
<Node name="root" dt="0.05" gravity="0.5 -2 -9.81">
  <DefaultAnimationLoop/>
  <CollisionPipeline/>
  <Node name="cube">
    <EulerImplicitSolver/>
    <SparseLDLSolver/>
    <MechanicalObject name="points" position="$POINTS" velocity="$VELOCITIES"/>
    <MeshTopology name="topology" hexas="$HEXA"/>
    <UniformMass totalMass="2"/>
    <MeshSpringForceField linesStiffness="300" quadsStiffness="70" cubesStiffness="20"/>
  </Node>
EOF
  if [ "$1" -eq 1 ]; then
    cat <<EOF
  <Node name="floor">
    <MeshOBJLoader name="surface" filename="no-such-floor.obj"/>
    <MeshTopology src="@surface"/>
    <MechanicalObject src="@surface"/>
    <TriangleCollisionModel simulated="0" moving="0"/>
  </Node>
EOF
  fi
  echo "</Node>"
}
cube 1 > cube.scn
cube 0 > alone.scn

# SOFA's step for this cube, independently: springs on every pair of the hexahedron's vertices,
# ks = K / L0 with K the lines' for its 12 edges, the quads' for its 12 face diagonals, the
# cubes' for its 4 body diagonals; K(x) = sum over springs of ks u u^T + (f/l) (I - u u^T).
cat > reference.py <<'EOF'
import math, sys
P = [float(t) for t in sys.argv[1].split()]
H = [int(t) for t in sys.argv[2].split()]
steps = int(sys.argv[3])
n = len(P) // 3
x = [P[3 * i:3 * i + 3] for i in range(n)]
rest = [p[:] for p in x]
V0 = [float(t) for t in sys.argv[4].split()]
v = [V0[3 * i:3 * i + 3] for i in range(n)]
m, h, g = 2.0 / n, 0.05, [0.5, -2.0, -9.81]
edges = [(0, 1), (1, 2), (2, 3), (3, 0), (4, 5), (5, 6), (6, 7), (7, 4), (0, 4), (1, 5), (2, 6), (3, 7)]
faces = [(0, 1, 2, 3), (4, 5, 6, 7), (0, 1, 5, 4), (1, 2, 6, 5), (2, 3, 7, 6), (3, 0, 4, 7)]
diagonals = [(f[0], f[2]) for f in faces] + [(f[1], f[3]) for f in faces]
body = [(0, 6), (1, 7), (2, 4), (3, 5)]
springs = [(H[a], H[b], K) for pairs, K in ((edges, 300.0), (diagonals, 70.0), (body, 20.0))
           for a, b in pairs]
springs = [(a, b, K / math.dist(rest[a], rest[b]), math.dist(rest[a], rest[b])) for a, b, K in springs]
def force_and_K(x):
    f = [[m * gk for gk in g] for _ in range(n)]
    K = [[0.0] * (3 * n) for _ in range(3 * n)]
    for a, b, ks, L in springs:
        d = [x[b][k] - x[a][k] for k in range(3)]
        l = math.sqrt(sum(c * c for c in d))
        u = [c / l for c in d]
        F = ks * (l - L)
        for k in range(3):
            f[a][k] += F * u[k]
            f[b][k] -= F * u[k]
        for i in range(3):
            for j in range(3):
                kij = ks * u[i] * u[j] + F / l * ((i == j) - u[i] * u[j])
                for p, q, s in ((a, a, -1), (b, b, -1), (a, b, 1), (b, a, 1)):
                    K[3 * p + i][3 * q + j] += s * kij
    return f, K
def solve(A, b):
    N = len(b)
    M = [row[:] + [b[i]] for i, row in enumerate(A)]
    for c in range(N):
        p = max(range(c, N), key=lambda r: abs(M[r][c]))
        M[c], M[p] = M[p], M[c]
        for r in range(c + 1, N):
            t = M[r][c] / M[c][c]
            for k in range(c, N + 1):
                M[r][k] -= t * M[c][k]
    out = [0.0] * N
    for r in range(N - 1, -1, -1):
        out[r] = (M[r][N] - sum(M[r][k] * out[k] for k in range(r + 1, N))) / M[r][r]
    return out
for _ in range(steps):
    f, K = force_and_K(x)
    V = [c for p in v for c in p]
    A = [[(m if i == j else 0.0) - h * h * K[i][j] for j in range(3 * n)] for i in range(3 * n)]
    b = [h * (f[i // 3][i % 3] + h * sum(K[i][j] * V[j] for j in range(3 * n))) for i in range(3 * n)]
    dv = solve(A, b)
    for i in range(n):
        for k in range(3):
            v[i][k] += dv[3 * i + k]
            x[i][k] += h * v[i][k]
for i in range(n):
    print(i, "%.17g %.17g %.17g" % tuple(x[i]))
EOF
python3 reference.py "$POINTS" "$HEXA" 3 "$VELOCITIES" > reference.txt

# agreement FINAL: max |x - x_ref| over points and components, over the largest displacement.
agreement() {
  awk -F'[, ]+' -v points="$POINTS" '
    BEGIN { split(points, p, " ") }
    FILENAME == ARGV[1] { for (c = 2; c <= 4; ++c) ref[$1, c] = $c; next }
    FNR == 1 { next }
    { for (c = 2; c <= 4; ++c) {
        d = $c - ref[$1, c]; if (d < 0) d = -d; if (d > dmax) dmax = d
        u = $c - p[3 * $1 + c - 1]; if (u < 0) u = -u; if (u > umax) umax = u }
      rows++ }
    END { if (rows != 8 || umax == 0) print "nan"; else printf "%.3e\n", dmax / umax }
  ' reference.txt "$1"
}

for ranks in 1 2 3; do
  status=0
  run "$ranks" --scene cube.scn --solver.steps=3 --output.final-state=final.csv || status=$?
  check "the cube of written hexahedra runs on $ranks rank(s)" test "$status" -eq 0
  [ "$status" -eq 0 ] || { sed 's/^/     | /' run.err; continue; }
  value=$(agreement final.csv)
  check "on $ranks rank(s) it agrees with SOFA's step computed independently: $value <= 1e-10" \
    below "$value" 1e-10
  check "the obstacle node is skipped as collision" grep -q \
    "skipped collision and contact components.*MechanicalObject without an ODE solver" run.err
  run "$ranks" --scene alone.scn --solver.steps=3 --output.final-state=alone.csv
  check "without the obstacle node the state is the same, bit for bit, on $ranks rank(s)" \
    cmp -s final.csv alone.csv
done
echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
