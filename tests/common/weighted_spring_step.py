"""The first step of bodies of point masses joined by springs whose ends are weighted sums of
nodes (x_end = J x, SOFA's spring to a BarycentricMapping child), by hand with numpy: the spring
law of SOFA's SpringForceField on the ends (f = ks (d - L) + kd (v2 - v1).u/d along
u = x2 - x1, D = (ks - f/d) U U^T + (f/d) I, damping explicit), its force J^T f and stiffness
J^T K J assembled node by node, and SOFA's linearized implicit Euler (A dv = b, A = M - h^2 K,
b = h (f + h K v0)) on the free unknowns. Also checks, with kd = 0, that the assembled J^T K J
is the central difference of J^T f. Compares with a final-state CSV.
Usage: weighted_spring_step.py CSV SPEC.json TOLERANCE
SPEC: {"h": h, "bodies": {"/a": {"x": [[x, y, z], ..], "v": [..], "m": m, "fixed": [i, ..]}},
       "springs": [{"ks": .., "kd": .., "L": .., "end1": [["/a", i, w], ..], "end2": [..]}]}"""
import csv
import json
import sys

import numpy as np


def main():
    path, spec_path, tolerance = sys.argv[1], sys.argv[2], float(sys.argv[3])
    spec = json.load(open(spec_path))
    h = spec["h"]
    names = list(spec["bodies"])
    first, count = {}, 0
    for name in names:
        first[name] = count
        count += len(spec["bodies"][name]["x"])
    x0 = np.concatenate([np.array(spec["bodies"][n]["x"], float).ravel() for n in names])
    v0 = np.concatenate([np.array(spec["bodies"][n]["v"], float).ravel() for n in names])
    mass = np.concatenate([np.full(3 * len(spec["bodies"][n]["x"]), spec["bodies"][n]["m"])
                           for n in names])
    free = np.ones(3 * count, bool)
    for n in names:
        for i in spec["bodies"][n]["fixed"]:
            free[3 * (first[n] + i):3 * (first[n] + i) + 3] = False

    def jacobian(end):
        j = np.zeros((3, 3 * count))
        for body, node, w in end:
            k = 3 * (first[body] + node)
            j[:, k:k + 3] += w * np.eye(3)
        return j

    def force_and_stiffness(x, v, damped=True):
        f, K = np.zeros(3 * count), np.zeros((3 * count, 3 * count))
        for s in spec["springs"]:
            j1, j2 = jacobian(s["end1"]), jacobian(s["end2"])
            u = j2 @ x - j1 @ x
            d = np.linalg.norm(u)
            unit = u / d
            kd = s["kd"] if damped else 0.0
            F = s["ks"] * (d - s["L"]) + kd * unit @ (j2 @ v - j1 @ v)
            D = (s["ks"] - F / d) * np.outer(unit, unit) + (F / d) * np.eye(3)
            j = j2 - j1
            f += -j.T @ (F * unit)
            K += -j.T @ D @ j
        return f, K

    f, K = force_and_stiffness(x0, v0)
    fu, Ku = force_and_stiffness(x0, v0, damped=False)
    eps = 1e-6
    for k in range(3 * count):
        e = np.zeros(3 * count)
        e[k] = eps
        column = (force_and_stiffness(x0 + e, v0, False)[0] -
                  force_and_stiffness(x0 - e, v0, False)[0]) / (2 * eps)
        if np.max(np.abs(column - Ku[:, k])) > 1e-6 * max(1.0, np.max(np.abs(Ku))):
            print(f"  J^T K J column {k} is not the derivative of J^T f")
            sys.exit(1)
    A = np.diag(mass) - h * h * K
    b = h * (f + h * K @ v0)
    dv = np.zeros(3 * count)
    dv[free] = np.linalg.solve(A[np.ix_(free, free)], b[free])
    v = v0 + dv
    x = x0 + h * v
    got_x, got_v = np.zeros(3 * count), np.zeros(3 * count)
    seen = 0
    for r in csv.DictReader(open(path)):
        if r["object"] not in first:
            continue
        k = 3 * (first[r["object"]] + int(r["id"]))
        got_x[k:k + 3] = [float(r[c]) for c in ("x", "y", "z")]
        got_v[k:k + 3] = [float(r[c]) for c in ("vx", "vy", "vz")]
        seen += 1
    gap = max(np.max(np.abs(got_x - x)), np.max(np.abs(got_v - v)))
    scale = max(np.max(np.abs(dv)), 1.0)
    if seen != count or gap > tolerance * scale:
        print(f"  hand-computed first step differs by {gap:g} (dv up to {scale:g})")
        sys.exit(1)


main()
