"""The first step of one tetrahedron whose node 3 alone moves, held by a spring on its volume.

Usage: volume_spring_step.py FINAL.csv M K H X0,Y0,Z0 X1,Y1,Z1 X2,Y2,Z2 X3,Y3,Z3 VX,VY,VZ TOL
SOFA's VolumeMapping and a RestShapeSpringsForceField<Vec1> of stiffness K on its child: at the
rest state the child's force is zero, so the step (EulerImplicitSolver, no Rayleigh damping)
solves (M - H^2 K) dv = H^2 K v with K = -K g g^T, g = dV/dx3 = (x1 - x0) x (x2 - x0) / 6, and
ends at v + dv, x3 + H (v + dv). FINAL.csv's node 3 must be that to TOL of the largest value.
"""
import csv
import sys


def vec(text):
    return [float(t) for t in text.split(",")]


def solve3(a, b):
    """Cramer's rule for a 3 x 3 system."""
    def det(m):
        return (m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
                - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]))
    d = det(a)
    out = []
    for c in range(3):
        m = [row[:] for row in a]
        for r in range(3):
            m[r][c] = b[r]
        out.append(det(m) / d)
    return out


def main():
    path = sys.argv[1]
    mass, k, h = (float(a) for a in sys.argv[2:5])
    x0, x1, x2, x3 = (vec(a) for a in sys.argv[5:9])
    v = vec(sys.argv[9])
    tol = float(sys.argv[10])
    e1 = [x1[d] - x0[d] for d in range(3)]
    e2 = [x2[d] - x0[d] for d in range(3)]
    g = [(e1[1] * e2[2] - e1[2] * e2[1]) / 6, (e1[2] * e2[0] - e1[0] * e2[2]) / 6,
         (e1[0] * e2[1] - e1[1] * e2[0]) / 6]
    stiffness = [[-k * g[i] * g[j] for j in range(3)] for i in range(3)]
    a = [[(mass if i == j else 0.0) - h * h * stiffness[i][j] for j in range(3)] for i in range(3)]
    b = [h * h * sum(stiffness[i][j] * v[j] for j in range(3)) for i in range(3)]
    dv = solve3(a, b)
    v1 = [v[d] + dv[d] for d in range(3)]
    want = [x3[d] + h * v1[d] for d in range(3)] + v1
    with open(path, newline="") as f:
        row = [r for r in csv.DictReader(f) if r["id"] == "3"][0]
    got = [float(row[c]) for c in ("x", "y", "z", "vx", "vy", "vz")]
    worst = max(abs(p - q) for p, q in zip(got, want))
    scale = max(abs(q) for q in want)
    moved = max(abs(dv[d]) for d in range(3))
    if worst > tol * scale or moved == 0:
        print(f"  node 3 {got} differs from {want} by {worst:g}")
        return 1
    print(f"  node 3 differs by {worst:.3g} of {scale:.3g} (dv {moved:.3g})")
    return 0


sys.exit(main())
