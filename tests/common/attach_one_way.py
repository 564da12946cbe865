"""Checks one step of a one-way attach (attach_constraint.sh) against the bodies run apart.

Usage: attach_one_way.py GROUP.csv APART.csv NX NY NZ TOL
GROUP.csv: /a and /b, boxes of NX x NY x NZ cells, the nodes i = 0 of b attached one-way to the
nodes i = NX of a (the same j, k), after one step from rest. APART.csv: the same /a and /b solved one by
one, those nodes of b fixed. SOFA's AttachProjectiveConstraint (Vec3d) makes the solve the two bodies apart,
b's attached rows fixed, then projects once: x_b -= (x_b - x_a) / 2, and v_a, v_b both become
(v_a + v_b) / 2. Every value must be that to TOL of the largest.
"""
import csv
import sys

FIELDS = ("x", "y", "z", "vx", "vy", "vz")


def table(path, body=None):
    with open(path, newline="") as f:
        return {int(r["id"]): [float(r[c]) for c in FIELDS]
                for r in csv.DictReader(f) if body is None or r["object"] == body}


def main():
    group_a, group_b = table(sys.argv[1], "/a"), table(sys.argv[1], "/b")
    a, b = table(sys.argv[2], "/a"), table(sys.argv[2], "/b")
    nx, ny, nz = (int(v) for v in sys.argv[3:6])
    tol = float(sys.argv[6])
    want_a = {n: list(r) for n, r in a.items()}
    want_b = {n: list(r) for n, r in b.items()}
    for k in range(nz + 1):
        for j in range(ny + 1):
            i_a, i_b = nx + (nx + 1) * (j + (ny + 1) * k), (nx + 1) * (j + (ny + 1) * k)
            xa, xb = a[i_a], b[i_b]
            for d in range(3):
                want_b[i_b][d] = xb[d] - (xb[d] - xa[d]) * 0.5
                corr = (xb[3 + d] - xa[3 + d]) * 0.5
                want_a[i_a][3 + d] = xa[3 + d] + corr
                want_b[i_b][3 + d] = xb[3 + d] - corr
    scale = max(abs(v) for r in list(a.values()) + list(b.values()) for v in r)
    worst = 0.0
    for got, want in ((group_a, want_a), (group_b, want_b)):
        if got.keys() != want.keys():
            print("  the node ids differ")
            return 1
        worst = max([worst] + [abs(g - w) for n in got for g, w in zip(got[n], want[n])])
    moved = max(abs(a[nx][3 + d]) for d in range(3))
    if worst > tol * scale or moved == 0:
        print(f"  differ by {worst:g} of {scale:g} (a's attached node speed {moved:g})")
        return 1
    print(f"  largest difference {worst:.3g} of {scale:.3g}")
    return 0


sys.exit(main())
