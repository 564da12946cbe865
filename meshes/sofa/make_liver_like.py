#!/usr/bin/env python3
"""Writes liver-like.msh (Gmsh 2.2 ASCII): a liver-shaped lobe of tetrahedra with its boundary
triangles, for the SOFA demo scene liver-like.scn. A structured grid of the unit box, each hex
split into six tetrahedra around its diagonal v0-v6 (the built-in box's split), is bent into a
wedge that is thick on the left lobe and thin on the right, about 8 x 5 x 3 units.

    python3 make_liver_like.py        (writes liver-like.msh beside this script)
"""
import math
import os

NX, NY, NZ = 14, 8, 5


def shape(u, v, w):
    x = 8.0 * u - 4.0
    half_width = 1.4 + 1.1 * math.sin(math.pi * u) - 0.4 * u
    thickness = 0.5 + 1.3 * (1.0 - u) ** 1.5 + 0.3 * math.sin(math.pi * v)
    y = (2.0 * v - 1.0) * half_width + 0.8 * (u - 0.5) ** 2
    z = (w - 0.5) * 2.0 * thickness * (0.6 + 0.4 * math.sin(math.pi * v))
    return x, y, z


def node(i, j, k):
    return i + (NX + 1) * (j + (NY + 1) * k)


def volume(p, a, b, c, d):
    ax, ay, az = (p[b][t] - p[a][t] for t in range(3))
    bx, by, bz = (p[c][t] - p[a][t] for t in range(3))
    cx, cy, cz = (p[d][t] - p[a][t] for t in range(3))
    return ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx) + az * (bx * cy - by * cx)


def main():
    points = [None] * ((NX + 1) * (NY + 1) * (NZ + 1))
    for k in range(NZ + 1):
        for j in range(NY + 1):
            for i in range(NX + 1):
                points[node(i, j, k)] = shape(i / NX, j / NY, k / NZ)
    tets = []
    for k in range(NZ):
        for j in range(NY):
            for i in range(NX):
                v = [node(i, j, k), node(i + 1, j, k), node(i + 1, j + 1, k), node(i, j + 1, k),
                     node(i, j, k + 1), node(i + 1, j, k + 1), node(i + 1, j + 1, k + 1),
                     node(i, j + 1, k + 1)]
                for a, b, c in ((1, 2, 6), (2, 3, 6), (3, 7, 6), (7, 4, 6), (4, 5, 6), (5, 1, 6)):
                    t = [v[0], v[a], v[b], v[6]]
                    if volume(points, *t) < 0:
                        t[1], t[2] = t[2], t[1]
                    tets.append(t)
    faces = {}
    for t in tets:
        for skip in range(4):
            face = [t[n] for n in range(4) if n != skip]
            key = tuple(sorted(face))
            faces.setdefault(key, []).append((face, t[skip]))
    triangles = []
    for key in sorted(faces):
        if len(faces[key]) != 1:
            continue
        (a, b, c), opposite = faces[key][0]
        if volume(points, a, b, c, opposite) > 0:  # the opposite vertex on the normal's side
            b, c = c, b
        triangles.append((a, b, c))
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "liver-like.msh")
    with open(path, "w") as out:
        out.write("$MeshFormat\n2.2 0 8\n$EndMeshFormat\n")
        out.write("$PhysicalNames\n2\n2 1 \"surface\"\n3 2 \"liver\"\n$EndPhysicalNames\n")
        out.write("$Nodes\n%d\n" % len(points))
        for n, p in enumerate(points):
            out.write("%d %.10g %.10g %.10g\n" % (n + 1, p[0], p[1], p[2]))
        out.write("$EndNodes\n$Elements\n%d\n" % (len(triangles) + len(tets)))
        tag = 0
        for tri in triangles:
            tag += 1
            out.write("%d 2 2 1 1 %d %d %d\n" % (tag, tri[0] + 1, tri[1] + 1, tri[2] + 1))
        for t in tets:
            tag += 1
            out.write("%d 4 2 2 2 %d %d %d %d\n" % (tag, t[0] + 1, t[1] + 1, t[2] + 1, t[3] + 1))
        out.write("$EndElements\n")
    print("%s: %d nodes, %d tetrahedra, %d triangles" % (path, len(points), len(tets), len(triangles)))
    print("fixed nodes (x = -4, middle of the left end):",
          [node(0, NY // 2, k) for k in range(NZ + 1)])


main()
