"""The forces SOFA's HexahedronCompositeFEMMapping carries from a mapped child to its body's
nodes (HexahedronCompositeFEMMapping.inl applyJT), computed here from the formulas alone, for
tests/regression/composite_hexahedron.sh's body: the unit cube on a SparseGridTopology n = 3 3 3
(box [-0.01, 1.01]^3, 2 cells an axis) with one virtual finer level, its 4^3 finest cells at
coefficient 0.5 on the surface and 1 inside, E = 4000, nu = 0.3.

Each coarse cell's finest weights: its 8 children's trilinear stiffnesses (2 x 2 x 2 Gauss points)
times their coefficients, assembled on the 27 vertices, the 19 that are not corners solved in
equilibrium with the corners held; each vertex keeps, per axis, the weights of the corners it lies
between, scaled to sum to 1. A child force goes to its finest cell's corners by trilinear
weights; a corner's part, over the n coarse cells around it, goes to each as R^T W^T R g, R the
cell's large frame (rows: its mean x edge, the in-plane y, their normal) at STATE's positions
("rest": the identity).

Usage: composite_mapping_forces.py STATE|rest "X Y Z FX FY FZ ..." -> two lines, the body's node
ids and their forces (a ConstantForceField's indices and forces).
"""
import sys

import numpy as np

E, NU, LO, HI, LEVEL_CELLS = 4000.0, 0.3, -0.01, 1.01, 4
CORNER = np.array([(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0),
                   (0, 0, 1), (1, 0, 1), (1, 1, 1), (0, 1, 1)])


def cube_stiffness(h, factor):
    lam = E * NU / ((1 + NU) * (1 - 2 * NU))
    mu = E / (2 * (1 + NU))
    D = np.zeros((6, 6))
    D[:3, :3] = lam
    D[:3, :3] += 2 * mu * np.eye(3)
    D[3:, 3:] = mu * np.eye(3)
    s = 2 * CORNER - 1
    K = np.zeros((24, 24))
    g = 1 / np.sqrt(3)
    for xi in np.array(np.meshgrid([-g, g], [-g, g], [-g, g])).reshape(3, -1).T:
        dN = np.empty((8, 3))
        for a in range(8):
            for k in range(3):
                dN[a, k] = s[a, k] / 8 * np.prod([1 + s[a, m] * xi[m] for m in range(3) if m != k])
        dN *= 2 / h
        B = np.zeros((6, 24))
        for a in range(8):
            x, y, z = dN[a]
            B[0, 3 * a], B[1, 3 * a + 1], B[2, 3 * a + 2] = x, y, z
            B[3, 3 * a], B[3, 3 * a + 1] = y, x
            B[4, 3 * a + 1], B[4, 3 * a + 2] = z, y
            B[5, 3 * a], B[5, 3 * a + 2] = z, x
        K += B.T @ D @ B * (h / 2) ** 3
    return factor * K


def slot(p):
    return p[0] + 3 * p[1] + 9 * p[2]


def coarse_weights(factors, h):
    """The 81 x 24 masked weights of a coarse cell's 27 vertices; factors by child (bit 0: x)."""
    K = np.zeros((81, 81))
    for w in range(8):
        offset = np.array([w & 1, w >> 1 & 1, w >> 2 & 1])
        dofs = [3 * slot(offset + CORNER[a]) + i for a in range(8) for i in range(3)]
        K[np.ix_(dofs, dofs)] += cube_stiffness(h, factors[w])
    held = [3 * slot(2 * CORNER[c]) + i for c in range(8) for i in range(3)]
    free = [d for d in range(81) if d not in held]
    U = np.zeros((81, 24))
    U[held, :] = np.eye(24)
    U[free, :] = -np.linalg.solve(K[np.ix_(free, free)], K[np.ix_(free, held)])
    W = np.zeros((81, 24))
    for v in range(27):
        p = (v % 3, v // 3 % 3, v // 9)
        between = [c for c in range(8)
                   if all(p[d] == 1 or p[d] == 2 * CORNER[c][d] for d in range(3))]
        for a in range(3):
            row = np.array([U[3 * v + a, 3 * c + a] for c in between])
            for c, value in zip(between, row / row.sum()):
                W[3 * v + a, 3 * c + a] = value
    return W


def frame(x):
    """SOFA's computeRotationLarge of 8 corner positions."""
    u = (x[1] - x[0] + x[2] - x[3] + x[5] - x[4] + x[6] - x[7]) * .25
    v = (x[3] - x[0] + x[2] - x[1] + x[7] - x[4] + x[6] - x[5]) * .25
    ex = u / np.linalg.norm(u)
    ez = np.cross(ex, v)
    ez /= np.linalg.norm(ez)
    return np.array([ex, np.cross(ez, ex), ez])


def main():
    fine = (HI - LO) / LEVEL_CELLS
    coarse_cells = LEVEL_CELLS // 2
    factor = lambda c: 1.0 if all(1 <= i <= LEVEL_CELLS - 2 for i in c) else 0.5
    weights = {}
    for e in np.ndindex(coarse_cells, coarse_cells, coarse_cells):
        factors = [factor(2 * np.array(e) + [w & 1, w >> 1 & 1, w >> 2 & 1]) for w in range(8)]
        weights[e] = coarse_weights(factors, fine)
    points = 3  # coarse lattice points an axis, numbered by position: x slowest
    node_id = lambda p: int(p[0] * points * points + p[1] * points + p[2])
    positions = {}
    if sys.argv[1] != "rest":
        for line in open(sys.argv[1]).read().split("\n")[1:]:
            if line:
                row = line.split(",")
                positions[int(row[0])] = np.array([float(t) for t in row[1:4]])
    rotation = {}
    for e in weights:
        if positions:
            corners = [positions[node_id(np.array(e) + CORNER[c])] for c in range(8)]
            rotation[e] = frame(corners)
        else:
            rotation[e] = np.eye(3)
    values = [float(t) for t in sys.argv[2].split()]
    forces = {}
    for k in range(0, len(values), 6):
        p, f = np.array(values[k:k + 3]), np.array(values[k + 3:k + 6])
        t = (p - LO) / fine
        cell = np.floor(t).astype(int)
        t -= cell
        for w in range(8):
            bary = np.prod([t[a] if CORNER[w][a] else 1 - t[a] for a in range(3)])
            node = cell + CORNER[w]
            around = {}
            for c in range(8):
                at = node - CORNER[c]
                if all(0 <= i < LEVEL_CELLS for i in at):
                    around[tuple(at // 2)] = slot(at % 2 + CORNER[c])
            g = f * bary / len(around)
            for e, v in around.items():
                R = rotation[e]
                local = weights[e][3 * v:3 * v + 3].T @ (R @ g)
                for c in range(8):
                    n = node_id(np.array(e) + CORNER[c])
                    forces[n] = forces.get(n, 0) + R.T @ local[3 * c:3 * c + 3]
    ids = sorted(forces)
    print(" ".join(str(n) for n in ids))
    print("  ".join(" ".join(repr(float(x)) for x in forces[n]) for n in ids))


main()
