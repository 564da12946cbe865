"""Checks of edges held at their lengths (tests/regression/sofa_distance_constraint.sh).

  distance_step.py first MODE STATE LAMBDA TOL [W]
      SOFA's first FreeMotionAnimationLoop step of the two-edge pendulum of the script (nodes
      (0,0,0) fixed, (0.6,0.8,0), (1.6,0.8,0); DiagonalMass 3 on the edges; gravity -9.81 y;
      h 0.01; no stiffness, so the step's matrix A is the mass), computed here: the free motion
      v_free = h M^-1 M g (node 0 projected), J's rows -u on a and u on b at x_0, then for MODE
      vel (solveVelocityConstraintFirst) W = J A^-1 J^T, f from W f = -J v_free, v = v_free +
      A^-1 J^T f, x = x_0 + h v; for MODE pos W = h J A^-1 J^T, f from W f = -J (x_free - x_0),
      c = A^-1 J^T f, x = x_free + h c, v = v_free + c. The run's final state and multipliers
      must agree to TOL. With a file W after TOL: the compliance W (m x m, numpy.savetxt) too.
  distance_step.py chain BEFORE AFTER L0 TOL
      A step of a string of edges (i, i + 1) of rest length L0, from the state BEFORE to AFTER:
      the rows hold the length linearized at the step's start, so with dx = x_after - x_before
      and u the edge's direction before, L_before + u.dx = L0 and hence
      L_after^2 = L0^2 + |dx - (u.dx) u|^2, to TOL for every edge.
  distance_step.py steps RK N TOL MODE STATE LAMBDA [MODE STATE LAMBDA ..]
      N FreeMotionAnimationLoop steps of SOFA's, computed here, of the three chains of the
      script, bodies /stabilized, /exact and /none (each: nodes (0,0,0) fixed, (0.6,-0.8,0),
      (1.6,-0.8,0), (1.6,0.2,0.5); DiagonalMass 1; gravity -9.81 y; h 0.01; EulerImplicitSolver
      rayleighMass 0, rayleighStiffness RK), each with the DistanceMapping's geometric stiffness
      its name says under the last step's multipliers f over h: per edge c = f / h and, at x_n,
      K = (c / L)(I - u u^T) on (a, a) and (b, b), -K on (a, b) and (b, a) (stabilized: only
      where c < 0); the free motion A = M - h (h + RK) K, b = h (M g + (h + RK) K v_n), then the
      step of MODE as in `first` (A^-1 the projected inverse). Each body's final state and last
      step's multipliers must agree to TOL, and /none must differ from the stabilized steps by
      more than 1e-6; the signs of c met are printed. Each run (MODE, its files) is checked.
Exits 0 when the run agrees, 3 when it does not (a run's files that cannot be read: Python's 1).
"""
import csv
import sys

import numpy as np


def state(path):
    d = np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2)
    d = d[np.argsort(d[:, 0])]
    return d[:, 1:4], d[:, 4:7]


def first(mode, state_path, lambda_path, tol, w_path=None):
    x0 = np.array([[0, 0, 0], [0.6, 0.8, 0], [1.6, 0.8, 0]], float)
    edges = [(0, 1), (1, 2)]
    h, g, total = 0.01, np.array([0, -9.81, 0]), 3.0
    lengths = np.array([np.linalg.norm(x0[b] - x0[a]) for a, b in edges])
    m = np.zeros(3)
    for (a, b), l in zip(edges, lengths):
        m[a] += total * l / lengths.sum() / 2
        m[b] += total * l / lengths.sum() / 2
    n = 9
    M = np.diag(np.repeat(m, 3))
    P = np.eye(n)
    P[0:3, 0:3] = 0
    Ai = P @ np.linalg.inv(M) @ P
    vfree = Ai @ (h * M @ np.tile(g, 3))
    J = np.zeros((2, n))
    for k, (a, b) in enumerate(edges):
        u = (x0[b] - x0[a]) / lengths[k]
        J[k, 3 * a:3 * a + 3] = -u
        J[k, 3 * b:3 * b + 3] = u
    W = J @ Ai @ J.T if mode == "vel" else h * J @ Ai @ J.T
    if mode == "vel":
        f = np.linalg.solve(J @ Ai @ J.T, -(J @ vfree))
        v = vfree + Ai @ J.T @ f
        x = x0.ravel() + h * v
    else:
        xfree = x0.ravel() + h * vfree
        f = np.linalg.solve(h * J @ Ai @ J.T, -(J @ (xfree - x0.ravel())))
        c = Ai @ J.T @ f
        x = xfree + h * c
        v = vfree + c
    xs, vs = state(state_path)
    with open(lambda_path) as handle:
        csv = handle.readline().startswith("step,")
    # output.multipliers' CSV, or one force a line (numpy.savetxt)
    lam = np.loadtxt(lambda_path, delimiter="," if csv else None, skiprows=int(csv),
                     usecols=4 if csv else 0, ndmin=1)
    gaps = [np.abs(xs.ravel() - x).max(), np.abs(vs.ravel() - v).max(), np.abs(lam - f).max()]
    if w_path:
        gaps.append(np.abs(np.loadtxt(w_path, ndmin=2) - W).max() / np.abs(W).max())
    print("x, v, lambda (, W relative) differ by", gaps, "; lambda", f)
    return max(gaps) <= tol


def transcription(mode, stiffness, rk, count):
    """SOFA's steps of the chain with the geometric stiffness: final x, v, f, the signs of c."""
    x = np.array([[0, 0, 0], [0.6, -0.8, 0], [1.6, -0.8, 0], [1.6, 0.2, 0.5]], float)
    edges = [(0, 1), (1, 2), (2, 3)]
    h, g, total = 0.01, np.array([0, -9.81, 0]), 1.0
    nodes, rows = len(x), len(edges)
    n = 3 * nodes
    rest = np.array([np.linalg.norm(x[b] - x[a]) for a, b in edges])
    m = np.zeros(nodes)
    for (a, b), l in zip(edges, rest):
        m[a] += total * l / rest.sum() / 2
        m[b] += total * l / rest.sum() / 2
    M = np.diag(np.repeat(m, 3))
    P = np.eye(n)
    P[0:3, 0:3] = 0
    x, v, f = x.ravel(), np.zeros(n), np.zeros(rows)
    signs = set()
    for _ in range(count):
        J, K, gap = np.zeros((rows, n)), np.zeros((n, n)), np.zeros(rows)
        for k, (a, b) in enumerate(edges):
            d = x[3 * b:3 * b + 3] - x[3 * a:3 * a + 3]
            length = np.linalg.norm(d)
            u = d / length
            gap[k] = length - rest[k]
            J[k, 3 * a:3 * a + 3] = -u
            J[k, 3 * b:3 * b + 3] = u
            c = f[k] / h
            if c != 0:
                signs.add("c < 0" if c < 0 else "c > 0")
            if stiffness == "exact" or (stiffness == "stabilized" and c < 0):
                block = c / length * (np.eye(3) - np.outer(u, u))
                for p, q, s in ((a, a, 1), (b, b, 1), (a, b, -1), (b, a, -1)):
                    K[3 * p:3 * p + 3, 3 * q:3 * q + 3] += s * block
        A = M - h * (h + rk) * K
        b = h * (M @ np.tile(g, nodes) + (h + rk) * K @ v)
        Ai = P @ np.linalg.inv(P @ A @ P + np.eye(n) - P) @ P
        vfree = v + Ai @ b
        if mode == "vel":
            f = np.linalg.solve(J @ Ai @ J.T, -(gap / h + J @ vfree))
            v = vfree + Ai @ J.T @ f
            x = x + h * v
        else:
            xfree = x + h * vfree
            f = np.linalg.solve(h * J @ Ai @ J.T, -(gap + J @ (xfree - x)))
            c = Ai @ J.T @ f
            x = xfree + h * c
            v = vfree + c
    return x, v, f, signs


def steps(mode, rk, count, state_path, lambda_path, tol):
    with open(state_path) as handle:
        table = list(csv.reader(handle))[1:]
    with open(lambda_path) as handle:
        forces = list(csv.reader(handle))[1:]
    last = max(int(r[0]) for r in forces)
    ok = True
    for stiffness in ("stabilized", "exact", "none"):
        rows = sorted((r for r in table if r[7] == "/" + stiffness), key=lambda r: int(r[0]))
        run = np.array([[float(w) for w in r[1:7]] for r in rows])
        lam = np.array([float(r[4]) for r in forces if int(r[0]) == last and r[2] == "/" + stiffness])
        x, v, f, signs = transcription(mode, stiffness, rk, count)
        gaps = [np.abs(run[:, :3].ravel() - x).max(), np.abs(run[:, 3:].ravel() - v).max(),
                np.abs(lam - f).max()]
        print(state_path, stiffness, "x, v, lambda differ by", gaps, "; child forces met:", sorted(signs))
        ok = ok and max(gaps) <= tol
        if stiffness == "none":
            x, v, f, _ = transcription(mode, "stabilized", rk, count)
            off = np.abs(run[:, :3].ravel() - x).max()
            print("none: x differs from the steps with the stabilized stiffness by", off)
            ok = ok and off > 1e-6
    return ok


def chain(before_path, after_path, rest, tol):
    xb, _ = state(before_path)
    xa, _ = state(after_path)
    rb, ra = np.diff(xb, axis=0), np.diff(xa, axis=0)
    u = rb / np.linalg.norm(rb, axis=1)[:, None]
    dx = ra - rb
    along = np.sum(u * dx, axis=1)
    across = dx - along[:, None] * u
    linear = np.abs(np.linalg.norm(rb, axis=1) + along - rest).max()
    exact = np.abs(np.sum(ra * ra, axis=1) - rest**2 - np.sum(across * across, axis=1)).max()
    stretch = np.abs(np.linalg.norm(ra, axis=1) - rest).max()
    print("linearized length off by", linear, "; squared-length identity off by", exact,
          "; largest stretch", stretch)
    return linear <= tol and exact <= tol and stretch > 100 * tol


if __name__ == "__main__":
    if sys.argv[1] == "first":
        ok = first(sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5]),
                   sys.argv[6] if len(sys.argv) > 6 else None)
    elif sys.argv[1] == "steps":
        runs = sys.argv[5:]
        ok = len(runs) % 3 == 0 and all([
            steps(runs[k], float(sys.argv[2]), int(sys.argv[3]), runs[k + 1], runs[k + 2],
                  float(sys.argv[4])) for k in range(0, len(runs), 3)])
    else:
        ok = chain(sys.argv[2], sys.argv[3], float(sys.argv[4]), float(sys.argv[5]))
    sys.exit(0 if ok else 3)
