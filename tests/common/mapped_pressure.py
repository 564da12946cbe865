"""A SurfacePressureForceField in a BarycentricMapping child, computed independently with numpy.

`scene KIND`: writes the SOFA scene tests/regression/sofa_mapped_pressure.sh runs: a free body
of point masses (no elastic force field, gravity 0) on 12 nodes and 12 tetrahedra with a mapped
child. KIND "written": the child's points and faces are written in the scene: two triangles and a
quadrangle on five points in different tetrahedra, and an outward octahedron on six more; "obj":
the same read by a MeshOBJLoader from child.obj (which it also writes); "closed": the
octahedron alone.

`check KIND CSV TOL`: the final state (--output.final-state) after STEPS steps against SOFA's
formulas: SurfacePressureForceField.inl (each triangle point gets p/6 (b-a) x (c-a), its tangent
p/6 [c-b]x, [a-c]x, [b-a]x; a quadrangle gives p/6 (b-a)x(c-a) to b, p/6 (c-a)x(d-a) to d, both
to a and c, no tangent; computePulseModePressure once a step), the child's J (the tetrahedron the
point lies in, its barycentric weights) and EulerImplicitSolver's step (rayleigh 0):
(M - h^2 K) dv = h (f + h K v), v += dv, x += h v, with f = J^T f_c, K = J^T K_c J, to TOL of the
largest displacement and velocity. For "closed", also: the closed surface's net force is zero, so
the body's momentum stays 0 (to 1e-12 of the summed node momenta) while its nodes move.
"""
import itertools
import sys

import numpy as np

H, STEPS, MASS = 0.05, 4, 2.0
PRESSURE, SPEED = 3000.0, 25000.0
NODES = np.array([[i, j, k] for k in range(2) for j in range(2) for i in range(3)], float)


def tetrahedra():
    out = []
    for i in range(2):
        corner = lambda a, b, c: (i + a) + 3 * b + 6 * c
        for p in itertools.permutations(range(3)):
            step, path = [0, 0, 0], [corner(0, 0, 0)]
            for axis in p:
                step[axis] = 1
                path.append(corner(*step))
            x = NODES[path]
            if np.linalg.det(np.array([x[1] - x[0], x[2] - x[0], x[3] - x[0]])) < 0:
                path[2], path[3] = path[3], path[2]
            out.append(path)
    return out


TETS = tetrahedra()
OPEN_POINTS = np.array([[0.3, 0.2, 0.7], [0.8, 0.6, 0.3], [1.45, 0.3, 0.4], [1.75, 0.65, 0.85],
                        [1.1, 0.8, 0.6]])
OPEN_TRIANGLES, OPEN_QUADS = [[0, 1, 4], [1, 2, 4]], [[1, 2, 3, 4]]
CENTRE, R = np.array([1.03, 0.47, 0.52]), 0.29
CLOSED_POINTS = np.array([CENTRE + s * R * e for e in np.eye(3) for s in (1, -1)])
CLOSED_TRIANGLES = []
for a, b, c in itertools.product((0, 1), (2, 3), (4, 5)):
    t = [a, b, c]
    n = np.cross(CLOSED_POINTS[b] - CLOSED_POINTS[a], CLOSED_POINTS[c] - CLOSED_POINTS[a])
    CLOSED_TRIANGLES.append(t if n @ (CLOSED_POINTS[a] - CENTRE) > 0 else [a, c, b])
OCTAHEDRON = CLOSED_POINTS, CLOSED_TRIANGLES, []
BOTH = (np.vstack([OPEN_POINTS, CLOSED_POINTS]),
        OPEN_TRIANGLES + [[i + len(OPEN_POINTS) for i in t] for t in CLOSED_TRIANGLES], OPEN_QUADS)
CHILDREN = {"written": BOTH, "obj": BOTH, "closed": OCTAHEDRON}


def words(rows):
    return "  ".join(" ".join(repr(float(v)) if isinstance(v, float) else str(v) for v in r)
                     for r in rows)


def scene(kind):
    points, triangles, quads = CHILDREN[kind]
    out = ['<Node name="root" dt="%r" gravity="0 0 0">' % H, "  <DefaultAnimationLoop/>",
           '  <Node name="body">',
           '    <EulerImplicitSolver rayleighStiffness="0" rayleighMass="0"/>',
           '    <CGLinearSolver iterations="1000" tolerance="1e-30" threshold="1e-30"/>',
           '    <TetrahedronSetTopologyContainer tetrahedra="%s"/>' % words(TETS),
           '    <MechanicalObject position="%s"/>' % words(NODES.tolist()),
           '    <UniformMass vertexMass="%r"/>' % MASS,
           '    <Node name="surface">']
    if kind == "obj":
        obj = ["# the child's points and faces", "vt 0 0"]
        obj += ["v %r %r %r" % tuple(p) for p in points]
        obj += ["f " + " ".join("%d/1" % (i + 1) for i in f) for f in triangles + quads]
        with open("child.obj", "w") as f:
            f.write("\n".join(obj) + "\n")
        out += ['      <MeshOBJLoader name="loader" filename="child.obj"/>',
                '      <MeshTopology src="@loader"/>',
                '      <MechanicalObject src="@loader"/>']
    else:
        out += ['      <MeshTopology triangles="%s" quads="%s"/>' % (words(triangles),
                                                                   words(quads)),
                '      <MechanicalObject position="%s"/>' % words(points.tolist())]
    out += ['      <SurfacePressureForceField pressure="%r" pulseMode="true" '
            'pressureSpeed="%r"/>' % (PRESSURE, SPEED),
            '      <BarycentricMapping/>', '    </Node>', '  </Node>', '</Node>']
    return "\n".join(out) + "\n"


def jacobian(points):
    """The child's J (3 per point by 3 per node): the tetrahedron each point lies in."""
    J = np.zeros((3 * len(points), 3 * len(NODES)))
    for i, p in enumerate(points):
        for tet in TETS:
            x = NODES[tet]
            v = np.linalg.solve(np.array([x[1] - x[0], x[2] - x[0], x[3] - x[0]]).T, p - x[0])
            w = [1 - v.sum(), *v]
            if min(w) > 0:
                for node, weight in zip(tet, w):
                    J[3 * i:3 * i + 3, 3 * node:3 * node + 3] += weight * np.eye(3)
                break
        else:
            raise SystemExit("point %d lies in no tetrahedron" % i)
    return J


def skew(w):
    return np.array([[0, -w[2], w[1]], [w[2], 0, -w[0]], [-w[1], w[0], 0]])


def pressure_load(xc, p, triangles, quads):
    """The child's force and tangent (3 per point) at its positions xc."""
    f, K = np.zeros(xc.size), np.zeros((xc.size, xc.size))
    for a, b, c in triangles:
        n = np.cross(xc[b] - xc[a], xc[c] - xc[a]) * p / 6
        for i in (a, b, c):
            f[3 * i:3 * i + 3] += n
            for j, e in zip((a, b, c), (xc[c] - xc[b], xc[a] - xc[c], xc[b] - xc[a])):
                K[3 * i:3 * i + 3, 3 * j:3 * j + 3] += p / 6 * skew(e)
    for a, b, c, d in quads:
        p1 = np.cross(xc[b] - xc[a], xc[c] - xc[a]) * p / 6
        p2 = np.cross(xc[c] - xc[a], xc[d] - xc[a]) * p / 6
        for i, load in ((a, p1 + p2), (b, p1), (c, p1 + p2), (d, p2)):
            f[3 * i:3 * i + 3] += load
    return f, K


def pulses():
    """computePulseModePressure, once a step (pressure > 0: rising first, lower bound 0)."""
    value, rising, out = 0.0, True, []
    for _ in range(STEPS):
        if rising:
            value += SPEED * H
            if value >= PRESSURE:
                value, rising = PRESSURE, False
        else:
            value -= SPEED * H
            if value <= 0:
                value, rising = 0.0, True
        out.append(value)
    return out


def simulate(points, triangles, quads):
    J = jacobian(points)
    x, v = NODES.flatten(), np.zeros(NODES.size)
    M = MASS * np.eye(NODES.size)
    for p in pulses():
        fc, Kc = pressure_load((J @ x).reshape(-1, 3), p, triangles, quads)
        f, K = J.T @ fc, J.T @ Kc @ J
        dv = np.linalg.solve(M - H * H * K, H * (f + H * K @ v))
        v = v + dv
        x = x + H * v
    return x.reshape(-1, 3), v.reshape(-1, 3)


def check(kind, csv, tol):
    rows = open(csv).readlines()[1:]
    got = np.array([[float(w) for w in line.split(",")[1:7]] for line in rows])
    x, v = simulate(*CHILDREN[kind])
    dx = np.abs(got[:, :3] - x).max() / np.abs(x - NODES).max()
    dv = np.abs(got[:, 3:6] - v).max() / np.abs(v).max()
    print("positions off by %.3g of the largest displacement %.3g, velocities by %.3g of %.3g"
          % (dx, np.abs(x - NODES).max(), dv, np.abs(v).max()))
    failed = not (dx <= tol and dv <= tol)
    if kind == "closed":
        momenta = MASS * got[:, 3:6]
        net = np.abs(momenta.sum(axis=0)).max() / np.abs(momenta).sum()
        print("net momentum %.3g of the summed node momenta" % net)
        failed |= not net <= 1e-12
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    if sys.argv[1] == "scene":
        sys.stdout.write(scene(sys.argv[2]))
    else:
        check(sys.argv[2], sys.argv[3], float(sys.argv[4]))
