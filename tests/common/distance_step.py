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
Exits 0 when the run agrees, 3 when it does not (a run's files that cannot be read: Python's 1).
"""
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
    else:
        ok = chain(sys.argv[2], sys.argv[3], float(sys.argv[4]), float(sys.argv[5]))
    sys.exit(0 if ok else 3)
