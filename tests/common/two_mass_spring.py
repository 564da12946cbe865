"""The first step of two masses joined by one spring, by hand: SOFA's linearized implicit Euler
(A dv = b, A = M - h^2 K, b = h (f + h K v0)) on the six free unknowns, the spring's force and
stiffness written out (SpringForceField: f = ks (d - L) + kd (v2 - v1).u/d along u = x2 - x1;
K = [[-D, D], [D, -D]], D = (ks - f/d) U U^T + (f/d) I, damping explicit). Compares with the
rows of the free nodes in a final-state CSV.
Usage: two_mass_spring.py CSV M1 M2 KS KD L H X1 X2 V1 V2 (each X, V: "x,y,z"), node 0 of
each body free."""
import csv
import math
import sys


def solve(a, b):
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c])]
    return [m[i][n] / m[i][i] for i in range(n)]


def main():
    path = sys.argv[1]
    m1, m2, ks, kd, length, h = map(float, sys.argv[2:8])
    x1, x2, v1, v2 = ([float(t) for t in s.split(",")] for s in sys.argv[8:12])
    u = [b - a for a, b in zip(x1, x2)]
    d = math.sqrt(sum(c * c for c in u))
    unit = [c / d for c in u]
    f = ks * (d - length) + kd * sum(e * (b - a) for e, a, b in zip(unit, v1, v2))
    D = [[(ks - f / d) * unit[j] * unit[k] + (f / d if j == k else 0.0) for k in range(3)]
         for j in range(3)]
    K = [[0.0] * 6 for _ in range(6)]
    for j in range(3):
        for k in range(3):
            K[j][k], K[j][3 + k] = -D[j][k], D[j][k]
            K[3 + j][k], K[3 + j][3 + k] = D[j][k], -D[j][k]
    mass = [m1] * 3 + [m2] * 3
    force = [f * c for c in unit] + [-f * c for c in unit]
    v0 = v1 + v2
    A = [[(mass[i] if i == j else 0.0) - h * h * K[i][j] for j in range(6)] for i in range(6)]
    b = [h * (force[i] + h * sum(K[i][j] * v0[j] for j in range(6))) for i in range(6)]
    dv = solve(A, b)
    v = [a + b for a, b in zip(v0, dv)]
    x = [a + h * b for a, b in zip(x1 + x2, v)]
    rows = [r for r in csv.DictReader(open(path)) if r["id"] == "0"]
    got = []
    for r in rows:
        got += [float(r[k]) for k in ("x", "y", "z")]
    got_v = []
    for r in rows:
        got_v += [float(r[k]) for k in ("vx", "vy", "vz")]
    gap = max(max(abs(a - b) for a, b in zip(got, x)), max(abs(a - b) for a, b in zip(got_v, v)))
    scale = max(abs(c) for c in dv)
    if len(rows) != 2 or gap > 1e-12 * max(scale, 1.0):
        print(f"  hand-computed first step differs by {gap:g} (dv up to {scale:g})")
        print(f"  expected x {x} v {v}")
        sys.exit(1)


main()
