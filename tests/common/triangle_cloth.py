#!/usr/bin/python3
"""An independent computation of a cloth square pinned at two corners (numpy).

SOFA's TriangularFEMForceField (method large) and TriangularBendingSprings, DiagonalMass on
triangles, gravity, and SOFA's EulerImplicitSolver step (no Rayleigh damping):
  (M - h^2 K) dv = h f(x, v) + h^2 K v,  v += dv,  x += h v,  dv = 0 on pinned nodes.
Written from the formulas, not from the C++: the strain-displacement matrix comes from inverting
[1 x y] of the triangle in its own frame, the tangent from the same B and frame. Prints the
final positions that tests/unit/test_triangle_cloth.cpp checks.
"""
import numpy as np

N = 3  # nodes per side
SIZE, E, NU, DENSITY, KS, KD = 1.0, 20.0, 0.3, 0.2, 0.5, 0.05
G = np.array([0.0, 0.0, -9.81])
H, STEPS = 0.04, 10

X0 = np.array([[SIZE * i / (N - 1), SIZE * j / (N - 1), 0.0] for j in range(N) for i in range(N)])
TRIS = []
for j in range(N - 1):
    for i in range(N - 1):
        a, b, c, d = j * N + i, j * N + i + 1, (j + 1) * N + i + 1, (j + 1) * N + i
        TRIS += [(a, b, c), (a, c, d)]
PINNED = [N * (N - 1), N * N - 1]  # the two corners at y = SIZE


def frame(p):
    ex = p[1] - p[0]
    ex = ex / np.linalg.norm(ex)
    ez = np.cross(ex, p[2] - p[0])
    ez = ez / np.linalg.norm(ez)
    return np.array([ex, np.cross(ez, ex), ez])


def bmatrix(q):
    # q: 3 x 2 local coordinates; B (3 x 6) of the linear triangle: gradients of the hat functions.
    grads = np.linalg.inv(np.column_stack([np.ones(3), q]))[1:, :]  # 2 x 3: d/dx, d/dy of N_k
    b = np.zeros((3, 6))
    for k in range(3):
        b[0, 2 * k], b[1, 2 * k + 1] = grads[0, k], grads[1, k]
        b[2, 2 * k], b[2, 2 * k + 1] = grads[1, k], grads[0, k]
    return b


DMAT = E / (1 - NU**2) * np.array([[1, NU, 0], [NU, 1, 0], [0, 0, (1 - NU) / 2]])
REST = []
for t in TRIS:
    p = X0[list(t)]
    r = frame(p)
    q = (p - p[0]) @ r.T
    REST.append((q[:, :2], 0.5 * q[1, 0] * q[2, 1]))

MASS = np.zeros(N * N)
for t, (_, area) in zip(TRIS, REST):
    MASS[list(t)] += DENSITY * area / 3

# Bending springs: across each edge of two triangles, between the opposite vertices.
holders = {}
for t in TRIS:
    for k in range(3):
        e = tuple(sorted((t[(k + 1) % 3], t[(k + 2) % 3])))
        holders.setdefault(e, []).append(t[k])
SPRINGS = [(o[1], o[0], np.linalg.norm(X0[o[1]] - X0[o[0]])) for o in holders.values() if len(o) == 2]


def forces_and_tangent(x, v):
    f = np.zeros((N * N, 3))
    k = np.zeros((3 * N * N, 3 * N * N))
    for t, (q0, area0) in zip(TRIS, REST):
        p = x[list(t)]
        r = frame(p)
        q = ((p - p[0]) @ r.T)[:, :2]
        b = bmatrix(q)
        # SOFA's displacement in the frame: rest minus current, with b's local y taken as 0.
        disp = (q0 - q).reshape(6)
        disp[3] = 0.0
        area = 0.5 * q[1, 0] * q[2, 1]
        # SOFA's J is B^T with 1 / (2 area) of the current triangle; D carries the rest area.
        stress = area0 * DMAT @ (b @ disp)
        local = b.T @ stress
        for n in range(3):
            f[t[n]] += r.T @ np.array([local[2 * n], local[2 * n + 1], 0.0])
        ke6 = area0 * b.T @ DMAT @ b
        rot = np.zeros((9, 9))
        ke = np.zeros((9, 9))
        for n in range(3):
            rot[3 * n:3 * n + 3, 3 * n:3 * n + 3] = r
            for m in range(3):
                ke[3 * n:3 * n + 2, 3 * m:3 * m + 2] = ke6[2 * n:2 * n + 2, 2 * m:2 * m + 2]
        kw = rot.T @ ke @ rot
        idx = np.concatenate([np.arange(3 * n, 3 * n + 3) for n in t])
        k[np.ix_(idx, idx)] -= kw
        del area
    for a, bb, l0 in SPRINGS:
        d = x[bb] - x[a]
        l = np.linalg.norm(d)
        u = d / l
        force = KS * (l - l0) + KD * u @ (v[bb] - v[a])
        f[a] += force * u
        f[bb] -= force * u
        m = (KS - force / l) * np.outer(u, u) + force / l * np.eye(3)
        ia, ib = slice(3 * a, 3 * a + 3), slice(3 * bb, 3 * bb + 3)
        k[ia, ia] -= m
        k[ib, ib] -= m
        k[ia, ib] += m
        k[ib, ia] += m
    f += MASS[:, None] * G
    return f, k


def run():
    x, v = X0.copy(), np.zeros_like(X0)
    mm = np.repeat(MASS, 3)
    free = np.ones(3 * N * N, bool)
    for p in PINNED:
        free[3 * p:3 * p + 3] = False
    for _ in range(STEPS):
        f, k = forces_and_tangent(x, v)
        a = np.diag(mm) - H * H * k
        rhs = H * f.reshape(-1) + H * H * k @ v.reshape(-1)
        dv = np.zeros(3 * N * N)
        dv[free] = np.linalg.solve(a[np.ix_(free, free)], rhs[free])
        v = v + dv.reshape(-1, 3)
        x = x + H * v
    return x


if __name__ == "__main__":
    np.set_printoptions(precision=17)
    for row in run():
        print("{%.17g, %.17g, %.17g}," % tuple(row))
