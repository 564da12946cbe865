"""Compares two bodies of built-in boxes in one group (attach_constraint.sh) with one box.

Usage: attach_merged.py GROUP.csv MERGED.csv NX NY NZ TOL
GROUP.csv holds /a and /b, boxes of NX x NY x NZ cells, b beside a along x; MERGED.csv the one box
of 2 NX x NY x NZ cells. Node (i, j, k) of a is node (i, j, k) of the merged box, node (i, j, k)
of b node (i + NX, j, k); every one of them must have the merged node's position and velocity to
TOL of the largest value.
"""
import csv
import sys


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def main():
    group, merged = rows(sys.argv[1]), rows(sys.argv[2])
    nx, ny, nz = (int(a) for a in sys.argv[3:6])
    tol = float(sys.argv[6])
    by_id = {int(r["id"]): r for r in merged}
    fields = ("x", "y", "z", "vx", "vy", "vz")
    scale = max(abs(float(r[c])) for r in merged for c in fields)
    worst, count = 0.0, 0
    for r in group:
        n = int(r["id"])
        i, rest = n % (nx + 1), n // (nx + 1)
        j, k = rest % (ny + 1), rest // (ny + 1)
        if r["object"] == "/b":
            i += nx
        m = by_id[i + (2 * nx + 1) * (j + (ny + 1) * k)]
        worst = max(worst, max(abs(float(r[c]) - float(m[c])) for c in fields))
        count += 1
    if count != 2 * (nx + 1) * (ny + 1) * (nz + 1) or worst > tol * scale:
        print(f"  {count} nodes; differ by {worst:g} of {scale:g}")
        return 1
    print(f"  {count} nodes; largest difference {worst:.3g} of {scale:.3g}")
    return 0


sys.exit(main())
