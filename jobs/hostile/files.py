"""File generators of the hostile corpus (jobs/hostile-corpus.sh): small meshes, scenes and
states written from scratch, and the ways of breaking them. Each generator writes into the
current folder (the case's own) and returns nothing; cases.py pairs them with arguments."""
import os
import struct

import numpy as np

# Five nodes: 1..4 the unit corner tetrahedron, 5 = (1,1,1) beyond its face (2,3,4); two
# positive tetrahedra. Nodes 1, 3 and 4 lie at x = 0, in the default fixed box.
NODES = [(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1), (1, 1, 1)]
TETS = [(1, 2, 3, 4), (2, 3, 4, 5)]


def write(name, data):
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogateescape")
    with open(name, "wb") as f:
        f.write(data)


def gmsh22(nodes=NODES, tets=TETS, node_count=None, elem_count=None, extra=""):
    lines = ["$MeshFormat", "2.2 0 8", "$EndMeshFormat", "$Nodes",
             str(len(nodes) if node_count is None else node_count)]
    lines += ["%d %s %s %s" % ((i + 1,) + tuple(p)) for i, p in enumerate(nodes)]
    lines += ["$EndNodes", "$Elements", str(len(tets) if elem_count is None else elem_count)]
    for i, t in enumerate(tets):
        kind = {4: 4, 8: 5}.get(len(t), 4 if len(t) < 8 else 5)
        lines.append("%d %d 2 1 1 %s" % (i + 1, kind, " ".join(map(str, t))))
    return "\n".join(lines) + "\n$EndElements\n" + extra


def gmsh41(nodes=NODES, tets=TETS):
    n = len(nodes)
    lines = ["$MeshFormat", "4.1 0 8", "$EndMeshFormat", "$Nodes", "1 %d 1 %d" % (n, n),
             "3 1 0 %d" % n]
    lines += [str(i + 1) for i in range(n)]
    lines += ["%s %s %s" % tuple(p) for p in nodes]
    lines += ["$EndNodes", "$Elements", "1 %d 1 %d" % (len(tets), len(tets)),
              "3 1 4 %d" % len(tets)]
    lines += ["%d %s" % (i + 1, " ".join(map(str, t))) for i, t in enumerate(tets)]
    return "\n".join(lines + ["$EndElements"]) + "\n"


def gmsh22_binary(nodes=NODES, tets=TETS):
    out = b"$MeshFormat\n2.2 1 8\n" + struct.pack("<i", 1) + b"\n$EndMeshFormat\n"
    out += b"$Nodes\n%d\n" % len(nodes)
    for i, p in enumerate(nodes):
        out += struct.pack("<i3d", i + 1, *map(float, p))
    out += b"\n$EndNodes\n$Elements\n%d\n" % len(tets)
    out += struct.pack("<3i", 4, len(tets), 2)
    for i, t in enumerate(tets):
        out += struct.pack("<7i", i + 1, 1, 1, *t)
    return out + b"\n$EndElements\n"


def vtk_legacy(nodes=NODES, tets=TETS, binary=False, point_count=None):
    n = len(nodes) if point_count is None else point_count
    head = "# vtk DataFile Version 3.0\nhostile\n%s\nDATASET UNSTRUCTURED_GRID\n" % (
        "BINARY" if binary else "ASCII")
    cells0 = [[len(t)] + [v - 1 for v in t] for t in tets]
    if not binary:
        body = "POINTS %d double\n" % n + "".join("%s %s %s\n" % tuple(p) for p in nodes)
        body += "CELLS %d %d\n" % (len(tets), 5 * len(tets))
        body += "".join(" ".join(map(str, c)) + "\n" for c in cells0)
        body += "CELL_TYPES %d\n" % len(tets) + "10\n" * len(tets)
        return head + body
    body = ("POINTS %d double\n" % n).encode() + np.array(nodes, ">f8").tobytes() + b"\n"
    body += ("CELLS %d %d\n" % (len(tets), 5 * len(tets))).encode()
    body += np.array(cells0, ">i4").tobytes() + b"\n"
    body += ("CELL_TYPES %d\n" % len(tets)).encode() + np.full(len(tets), 10, ">i4").tobytes()
    return head.encode() + body + b"\n"


def vtu(nodes=NODES, tets=TETS, cell_type=10):
    pts = " ".join("%s %s %s" % tuple(p) for p in nodes)
    conn = " ".join(str(v - 1) for t in tets for v in t)
    offs = " ".join(str(4 * (i + 1)) for i in range(len(tets)))
    types = " ".join([str(cell_type)] * len(tets))
    return ('<?xml version="1.0"?>\n<VTKFile type="UnstructuredGrid" version="0.1">\n'
            '<UnstructuredGrid><Piece NumberOfPoints="%d" NumberOfCells="%d">\n'
            '<Points><DataArray type="Float64" NumberOfComponents="3" format="ascii">%s'
            '</DataArray></Points>\n<Cells>\n'
            '<DataArray type="Int64" Name="connectivity" format="ascii">%s</DataArray>\n'
            '<DataArray type="Int64" Name="offsets" format="ascii">%s</DataArray>\n'
            '<DataArray type="UInt8" Name="types" format="ascii">%s</DataArray>\n'
            '</Cells></Piece></UnstructuredGrid></VTKFile>\n'
            % (len(nodes), len(tets), pts, conn, offs, types))


# A SOFA scene of one body on good.msh, every piece a name the cases below replace.
SCENE = """<?xml version="1.0"?>
<Node name="root" gravity="0 -9.81 0" dt="0.01">
  <Node name="beam">
    <EulerImplicitSolver name="ode"/>
    <CGLinearSolver iterations="200" tolerance="1e-12" threshold="1e-20"/>
    <MeshGmshLoader name="loader" filename="good.msh"/>
    <MeshTopology name="topo" src="@loader"/>
    <MechanicalObject name="dofs"/>
    <DiagonalMass massDensity="1"/>
    <TetrahedronFEMForceField name="fem" youngModulus="1e5" poissonRatio="0.3"/>
    <BoxROI name="box" box="-0.1 -0.1 -0.1 0.1 1.1 1.1"/>
    <FixedProjectiveConstraint name="fixed" indices="@box.indices"/>
  </Node>
</Node>
"""


def scene(old="", new="", name="s.scn"):
    write("good.msh", gmsh22())
    assert old in SCENE
    write(name, SCENE.replace(old, new, 1) if old else SCENE)


PY_SCENE = """def createScene(root):
    root.gravity = [0, -9.81, 0]
    root.dt = 0.01
    b = root.addChild("beam")
    b.addObject("EulerImplicitSolver")
    b.addObject("CGLinearSolver", iterations=200, tolerance=1e-12, threshold=1e-20)
    b.addObject("MeshGmshLoader", name="loader", filename="good.msh")
    b.addObject("MeshTopology", src="@loader")
    b.addObject("MechanicalObject", name="dofs")
    b.addObject("DiagonalMass", massDensity=1)
    b.addObject("TetrahedronFEMForceField", youngModulus=1e5, poissonRatio=0.3)
    b.addObject("FixedProjectiveConstraint", indices=[0, 2, 3])
%s    return root
"""


def py_scene(extra="", head=""):
    write("good.msh", gmsh22())
    write("s.py", head + PY_SCENE % extra)


def truncations(data, markers):
    """Cuts of data: at each marker, just past it, and half-way to the next one."""
    cuts = set()
    starts = sorted(i for m in markers for i in [data.find(m)] if i > 0)
    for k, i in enumerate(starts):
        nxt = starts[k + 1] if k + 1 < len(starts) else len(data)
        cuts.update([i, i + len(markers[0]) // 2, (i + nxt) // 2, nxt - 1])
    return sorted(c for c in cuts if 0 < c < len(data))


def fifo(name):
    os.mkfifo(name)


def h5(name, build):
    import h5py  # only the HDF5 cases need it
    with h5py.File(name, "w") as f:
        build(f)


def edit_h5(src, name, change):
    import shutil

    import h5py
    shutil.copy(src, name)
    with h5py.File(name, "r+") as f:
        change(f)
