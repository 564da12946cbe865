#!/usr/bin/env python3
"""Independent numbers for test_nonuniform_hexahedron.cpp: a box cell of edges 2, 1, 1.5 whose
8 children have coefficients 1, 0.5, 0, 1, 0.25, 1, 0.75, 0 (child w at offset (w&1, w>>1&1, w>>2&1)
halves of the edges), E = 1000, nu = 0.3, density 10. Each child's stiffness is the integral of
B^T C B over the child (Gauss 2x2x2, exact on a box), its mass SOFA's constant 8/27 rho V per
entry; both pulled back to the parent by the trilinear weights of the parent's vertices at the
child's. Prints the entries the test checks."""
import itertools
import numpy as np

corner = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0],
                   [0, 0, 1], [1, 0, 1], [1, 1, 1], [0, 1, 1]], float)
edges = np.array([2.0, 1.0, 1.5])
E, nu, rho = 1000.0, 0.3, 10.0
lam, mu = E * nu / ((1 + nu) * (1 - 2 * nu)), E / (2 * (1 + nu))
C = np.zeros((6, 6))
C[:3, :3] = lam
C[:3, :3] += 2 * mu * np.eye(3)
C[3:, 3:] = mu * np.eye(3)


def box_stiffness(h):
    K = np.zeros((24, 24))
    g = 1 / np.sqrt(3)
    for q in itertools.product([-g, g], repeat=3):
        s = 2 * corner - 1
        dN = np.array([[s[a, k] / 8 * np.prod([1 + s[a, m] * q[m] for m in range(3) if m != k])
                        for k in range(3)] for a in range(8)])
        grad = dN / (h / 2)  # d/dx = d/dxi * 2/h on a box
        B = np.zeros((6, 24))
        for a in range(8):
            gx, gy, gz = grad[a]
            B[0, 3 * a], B[1, 3 * a + 1], B[2, 3 * a + 2] = gx, gy, gz
            B[3, 3 * a], B[3, 3 * a + 1] = gy, gx
            B[4, 3 * a + 1], B[4, 3 * a + 2] = gz, gy
            B[5, 3 * a], B[5, 3 * a + 2] = gz, gx
        K += B.T @ C @ B * np.prod(h / 2)
    return K


def weights(w):
    off = np.array([w & 1, w >> 1 & 1, w >> 2 & 1], float)
    P = np.zeros((8, 8))
    for k in range(8):
        p = (off + corner[k]) / 2
        for j in range(8):
            P[k, j] = np.prod(np.where(corner[j] == 1, p, 1 - p))
    return P


coef = [1, 0.5, 0, 1, 0.25, 1, 0.75, 0]
K = np.zeros((24, 24))
M = np.zeros((8, 8))
for w in range(8):
    P = weights(w)
    P3 = np.kron(P, np.eye(3))
    K += coef[w] * P3.T @ box_stiffness(edges / 2) @ P3
    M += coef[w] * P.T @ (np.full((8, 8), 8 / 27 * rho * np.prod(edges / 2))) @ P
full = sum(weights(w).T @ np.full((8, 8), 1.0) @ weights(w) for w in range(8))
print("K(0,0) %.17g  K(0,4) %.17g  K(7,20) %.17g  K(23,23) %.17g" % (K[0, 0], K[0, 4], K[7, 20],
                                                                   K[23, 23]))
print("M(0,0) %.17g  M(2,6) %.17g  M(7,7) %.17g" % (M[0, 0], M[2, 6], M[7, 7]))
print("all children, no coefficient: M(0,0) / entry %.17g" % (full[0, 0] / 8))
print("max |K_condensed(full) - K_coarse| / max|K| %.3g" % (
    np.abs(sum(np.kron(weights(w), np.eye(3)).T @ box_stiffness(edges / 2) @
               np.kron(weights(w), np.eye(3)) for w in range(8)) - box_stiffness(edges)).max() /
    np.abs(box_stiffness(edges)).max()))
