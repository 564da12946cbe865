"""The hostile corpus as data: (group, name, expected outcome, arguments, file generator).

Expected outcomes: error (exit 1, one "euler-implicit: error:" line), ok (exit 0: the input is
documented as valid), warn (exit 0 with an "euler-implicit: warning:" line), any (error or ok,
either is right; only a crash or hang is wrong), stopped (75 after a signal), killed (a second
signal or SIGKILL: any quick end but 0; never a hang). Arguments run from the case's own
folder; FIX is the folder of shared fixtures (a converted box, a checkpoint, a final state) and
MESHES the repository's meshes/, both made absolute by run.py."""
import os
import random

import numpy as np

import files as F

FIX = os.environ.get("HOSTILE_FIX", "")
MESHES = os.environ.get("HOSTILE_MESHES", "")
TINY = ["--mesh.box-cells=2 1 1", "--solver.steps=1", "--quiet"]
ONE = ["--solver.steps=1", "--quiet"]
CASES = []


def case(group, name, expect, args, setup=None, signal=None):
    CASES.append(dict(group=group, name=name, expect=expect, args=args, setup=setup,
                      signal=signal))


def msh(data, name="m.msh"):
    return lambda: F.write(name, data)


# --- cli: every value check of the command line. Each numeric key gets the values a script
# or a typo produces; -1 is refused only where the key's help says it must be positive.
NUMERIC = {"solver.dt": "error", "solver.steps": "error", "material.young-modulus": "error",
           "material.poisson-ratio": "error", "material.density": "error",
           "mesh.refine": "error", "output.every": "error", "solver.rtol": "error",
           "solver.max-iterations": "error", "springs.stiffness": "any",
           "damping.coefficient": "any", "output.checkpoint-every": "error",
           "solver.max-substeps": "error", "output.progress-every": "error",
           "solver.rayleigh-mass": "any", "scene.python-timeout": "error"}
for key, minus in NUMERIC.items():
    for label, value in [("nan", "nan"), ("inf", "inf"), ("huge", "1e400"), ("empty", ""),
                         ("word", "abc"), ("two", "1 2"), ("ctrl", "1\x01")]:
        case("cli", "%s=%s" % (key, label), "error", TINY + ["--%s=%s" % (key, value)])
    case("cli", "%s=-1" % key, minus, TINY + ["--%s=-1" % key])
for name, expect, args in [
        ("dt=1e300", "error", ["--solver.dt=1e300"]),
        ("box-size=1e308", "error", ["--mesh.box-size=1e308 1e308 1e308"]),
        ("box-size two numbers", "error", ["--mesh.box-size=1 1"]),
        ("box-size four numbers", "error", ["--mesh.box-size=1 1 1 1"]),
        ("box-size zero", "error", ["--mesh.box-size=0 1 1"]),
        ("box-cells zero", "error", ["--mesh.box-cells=0 1 1"]),
        ("box-cells fraction", "error", ["--mesh.box-cells=2.5 1 1"]),
        ("box-cells 1e9 cube", "error", ["--mesh.box-cells=1000000 1000000 1000000"]),
        ("box-cells 2^31", "error", ["--mesh.box-cells=2147483648 1 1"]),
        ("transform singular matrix", "error", ["--mesh.transform=matrix" + " 0" * 12]),
        ("transform scale 0", "error", ["--mesh.transform=scale 0 1 1"]),
        ("transform rotate nan", "error", ["--mesh.transform=rotate nan 0 0"]),
        ("transform unknown op", "error", ["--mesh.transform=bogus 1 2 3"]),
        ("transform empty", "error", ["--mesh.transform="]),
        ("unknown key near", "error", ["--solver.step=3"]),
        ("unknown section", "error", ["--nosuch.key=1"]),
        ("section only", "error", ["--solver=1"]),
        ("empty key", "error", ["--=1"]),
        ("dot key", "error", ["--.=1"]),
        ("positional word", "error", ["foo"]),
        ("file key without value", "error", ["--mesh.file"]),
        ("repeated key", "error", ["--solver.dt=0.01", "--solver.dt=0.02"]),
        ("unknown enum", "error", ["--material.model=bogus"]),
        ("empty enum", "error", ["--solver.scheme="]),
        ("bad boolean", "error", ["--solver.first-order=maybe"]),
        ("newline in value", "error", ["--solver.dt=0.01\n2"]),
        ("control byte in key", "error", ["--solver.d\x07t=0.01"]),
        ("invalid utf-8 value", "error", [b"--material.model=\xff\xfe"]),
        ("100k value", "error", ["--solver.dt=" + "9" * 100000]),
        ("poisson 0.5", "error", ["--material.poisson-ratio=0.5"]),
        ("poisson -1", "error", ["--material.poisson-ratio=-1"]),
        ("lame one number", "error", ["--material.lame=1"]),
        ("fixed-box five numbers", "error", ["--constraint.fixed-box=0 0 0 1 1"]),
        ("nodal force node 1e9", "error", ["--load.nodal-forces=1000000000 1 0 0"]),
        ("nodal force node -1", "error", ["--load.nodal-forces=-1 1 0 0"]),
        ("gravity nan", "error", ["--load.gravity=nan 0 0"]),
        ("inline tet out of range", "error",
         ["--mesh.nodes=0 0 0 1 0 0 0 1 0 0 0 1", "--mesh.tetrahedra=0 1 2 9"]),
        ("inline nodes not triples", "error",
         ["--mesh.nodes=0 0 0 1 0", "--mesh.tetrahedra=0 1 2 3"]),
        ("initial.positions wrong size", "error", ["--initial.positions=1 2 3"]),
        ("restart missing file", "error", ["--restart=nosuch.h5"]),
        ("scene missing file", "error", ["--scene=nosuch.scn"]),
        ("config missing file", "error", ["--config=nosuch.ini"]),
        ("config without value", "error", ["--config"]),
        ("help", "ok", ["--help"]),
        ("version", "ok", ["--version"]),
        ("quiet twice", "any", ["--quiet"]),
]:
    case("cli", name, expect, TINY + args)

case("cli", "steps 0", "ok", ["--mesh.box-cells=2 1 1", "--quiet", "--solver.steps=0"])

# --- ini: the config file's parser, from a broken section line to a file of random bytes.
INI = [("empty file", "ok", ""), ("comments only", "ok", "# a\n; b\n\n"),
       ("unclosed section", "error", "[mesh\nbox-size = 1 1 1\n"),
       ("key before any section", "error", "box-size = 1 1 1\n"),
       ("unknown section", "error", "[nosuch]\nkey = 1\n"),
       ("unknown key", "error", "[solver]\nstep = 3\n"),
       ("line without =", "error", "[solver]\nsteps\n"),
       ("repeated key", "error", "[solver]\ndt = 0.01\ndt = 0.02\n"),
       ("empty section name", "error", "[]\nsteps = 1\n"),
       ("empty key", "error", "[solver]\n= 3\n"),
       ("nan value", "error", "[solver]\ndt = nan\n"),
       ("junk after section", "error", "[mesh] x\nbox-size = 1 1 1\n"),
       ("unbalanced quote", "error", '[mesh]\nbox-size = "1 1 1\n'),
       ("nul byte", "error", "[solver]\ndt = 0.0\x001\n"),
       ("10k key", "error", "[solver]\n" + "k" * 10000 + " = 1\n"),
       ("1M line", "error", "[solver]\ndt = " + "1" * 1000000 + "\n"),
       ("missing mesh file", "error", "[mesh]\nfile = missing.msh\n"),
       ("mesh file is a folder", "error", "[mesh]\nfile = .\n"),
       ("crlf endings", "ok", "[solver]\r\ndt = 0.01\r\n"),
       ("utf-8 bom", "any", "\ufeff[solver]\ndt = 0.01\n"),
       ("body section", "any", "[a/material]\nyoung-modulus = 2e5\n"),
       ("bad body name", "error", "[a b/material]\nyoung-modulus = 2e5\n"),
       ("body unknown key", "error", "[a/material]\nyoung = 2e5\n"),
       ("latin-1 bytes", "error", "[material]\nmodel = n\xe9o\n")]
for name, expect, text in INI:
    case("ini", name, expect, TINY + ["--config=c.ini"],
         lambda t=text: F.write("c.ini", t.encode("latin-1") if "\xe9" in t else t))
for seed in range(4):
    case("ini", "random bytes %d" % seed, "error", TINY + ["--config=c.ini"],
         lambda s=seed: F.write("c.ini", random.Random(s).randbytes(4096)))
case("ini", "config is a folder", "error", TINY + ["--config=."])
case("ini", "config is a fifo", "error", TINY + ["--config=c.ini"], lambda: F.fifo("c.ini"))
case("ini", "config is /dev/null", "any", TINY + ["--config=/dev/null"])
case("ini", "config twice", "error", TINY + ["--config=c.ini", "--config=c.ini"],
     lambda: F.write("c.ini", "[solver]\ndt = 0.01\n"))

# --- mesh: every reader (Gmsh 2.2/4.1 ASCII and binary, legacy VTK, .vtu, HDF5) cut at every
# section, with wrong counts, non-finite or degenerate geometry and wrong element sizes.
GOOD = {"22.msh": F.gmsh22(), "41.msh": F.gmsh41(), "22b.msh": F.gmsh22_binary(),
        "a.vtk": F.vtk_legacy(), "b.vtk": F.vtk_legacy(binary=True), "a.vtu": F.vtu()}
MARK = {".msh": ["$Nodes", "$EndNodes", "$Elements", "$EndElements", "$MeshFormat"],
        ".vtk": ["POINTS", "CELLS", "CELL_TYPES", "DATASET"],
        ".vtu": ["<Points", "connectivity", "offsets", "types", "</VTKFile", "<Cells"]}
for fname, data in GOOD.items():
    case("mesh", "good " + fname, "ok", ONE + ["--mesh.file=" + fname], msh(data, fname))
    raw = data if isinstance(data, bytes) else data.encode()
    marks = [m.encode() for m in MARK[os.path.splitext(fname)[1]]]
    for cut in F.truncations(raw, marks):
        if cut < len(raw) - 2:
            case("mesh", "%s cut at %d" % (fname, cut), "error",
                 ONE + ["--mesh.file=" + fname], msh(raw[:cut], fname))
for repo_mesh in ["beam_v22_binary.msh", "beam_v41_binary.msh", "beam_v41_ascii.msh"]:
    path = os.path.join(MESHES, repo_mesh)
    raw = open(path, "rb").read() if os.path.exists(path) else b""
    for cut in F.truncations(raw, [m.encode() for m in MARK[".msh"]]):
        if cut < len(raw) - 2:
            case("mesh", "%s cut at %d" % (repo_mesh, cut), "error",
                 ONE + ["--mesh.file=m.msh"], msh(raw[:cut]))
NAN_NODES = F.NODES[:4] + [("nan", 1, 1)]
BAD = [("node count low", "error", F.gmsh22(node_count=4)),
       ("node count high", "error", F.gmsh22(node_count=6)),
       ("node count negative", "error", F.gmsh22(node_count=-1)),
       ("node count 1e12", "error", F.gmsh22(node_count=10 ** 12)),
       ("element count high", "error", F.gmsh22(elem_count=3)),
       ("element count low", "error", F.gmsh22(elem_count=1)),
       ("element count 2^40", "error", F.gmsh22(elem_count=2 ** 40)),
       ("nan coordinate", "error", F.gmsh22(nodes=NAN_NODES)),
       ("inf coordinate", "error", F.gmsh22(nodes=F.NODES[:4] + [(1, "inf", 1)])),
       ("1e400 coordinate", "error", F.gmsh22(nodes=F.NODES[:4] + [(1, 1, "1e400")])),
       ("degenerate tetrahedron", "error",
        F.gmsh22(nodes=F.NODES[:4] + [(0.5, 0.5, 0)])),
       ("repeated vertex", "error", F.gmsh22(tets=[(1, 2, 3, 4), (2, 2, 3, 4)])),
       ("inverted tetrahedron", "warn", F.gmsh22(tets=[(1, 2, 3, 4), (3, 2, 4, 5)])),
       ("node id out of range", "error", F.gmsh22(tets=[(1, 2, 3, 4), (2, 3, 4, 9)])),
       ("node id 0", "error", F.gmsh22(tets=[(1, 2, 3, 4), (0, 3, 4, 5)])),
       ("hexahedron of 7 nodes", "error", F.gmsh22(tets=[(1, 2, 3, 4, 5, 1, 2)])),
       ("hexahedron of 9 nodes", "error", F.gmsh22(tets=[(1, 2, 3, 4, 5, 1, 2, 3, 4)])),
       ("flat hexahedron", "error", F.gmsh22(tets=[(1, 2, 5, 3, 1, 2, 5, 3)])),
       ("tetrahedron of 3 nodes", "error", F.gmsh22(tets=[(1, 2, 3)])),
       ("no elements", "error", F.gmsh22(tets=[])),
       ("duplicate node ids", "error",
        F.gmsh22().replace("\n2 1 0 0\n", "\n1 1 0 0\n")),
       ("41 nan coordinate", "error", F.gmsh41(nodes=NAN_NODES)),
       ("41 node out of range", "error", F.gmsh41(tets=[(1, 2, 3, 4), (2, 3, 4, 7)])),
       ("41 degenerate", "error", F.gmsh41(nodes=F.NODES[:4] + [(0.5, 0.5, 0)])),
       ("binary nan", "error", F.gmsh22_binary(nodes=[(np.nan, 0, 0)] + F.NODES[1:])),
       ("binary out of range", "error", F.gmsh22_binary(tets=[(1, 2, 3, 4), (2, 3, 4, 77)])),
       ("empty file", "error", ""),
       ("format only", "error", "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n"),
       ("format 9.9", "error", F.gmsh22().replace("2.2 0 8", "9.9 0 8")),
       ("format data size 4", "error", F.gmsh22().replace("2.2 0 8", "2.2 0 4"))]
for name, expect, data in BAD:
    case("mesh", name, expect, ONE + ["--mesh.file=m.msh"], msh(data))
for name, expect, fname, data in [
        ("vtk point count high", "error", "m.vtk", F.vtk_legacy(point_count=9)),
        ("vtk nan point", "error", "m.vtk", F.vtk_legacy(nodes=NAN_NODES)),
        ("vtk cell out of range", "error", "m.vtk", F.vtk_legacy(tets=[(1, 2, 3, 4), (2, 3, 4, 8)])),
        ("vtk binary nan", "error", "m.vtk", F.vtk_legacy(nodes=NAN_NODES, binary=True)),
        ("vtk binary short", "error", "m.vtk", F.vtk_legacy(binary=True, point_count=50)),
        ("vtk garbled header", "error", "m.vtk", "# vtk DataFile\nx\nASCII\nDATASET POLY\n"),
        ("vtu hexahedra of 4 nodes", "error", "m.vtu", F.vtu(cell_type=12)),
        ("vtu unknown cell type", "any", "m.vtu", F.vtu(cell_type=99)),
        ("vtu nan", "error", "m.vtu", F.vtu(nodes=NAN_NODES)),
        ("vtu not xml", "error", "m.vtu", "<VTKFile <<< garbage"),
        ("vtu out of range", "error", "m.vtu", F.vtu(tets=[(1, 2, 3, 4), (2, 3, 4, 50)])),
        ("junk .msh", "error", "m.msh", random.Random(7).randbytes(2000)),
        ("junk .vtk", "error", "m.vtk", random.Random(8).randbytes(2000)),
        ("junk unknown extension", "error", "m.dat", random.Random(9).randbytes(2000))]:
    case("mesh", name, expect, ONE + ["--mesh.file=" + fname], msh(data, fname))
case("mesh", "mesh is a fifo", "error", ONE + ["--mesh.file=m.msh"], lambda: F.fifo("m.msh"))
case("mesh", "mesh is a folder", "error", ONE + ["--mesh.file=."])
case("mesh", "mesh is /dev/null", "error", ONE + ["--mesh.file=/dev/null"])
case("mesh", "mesh missing", "error", ONE + ["--mesh.file=nosuch.msh"])
H5 = lambda: os.path.join(FIX, "box.h5")  # noqa: E731
case("mesh", "good converted .h5", "ok", ONE + ["--mesh.file=" + H5()])
for frac in [0.1, 0.5, 0.9, 0.99]:
    case("mesh", "h5 cut at %d%%" % (frac * 100), "error", ONE + ["--mesh.file=m.h5"],
         lambda f=frac: F.write("m.h5", open(H5(), "rb").read()[:int(os.path.getsize(H5()) * f)]))
case("mesh", "foreign hdf5", "error", ONE + ["--mesh.file=m.h5"],
     lambda: F.h5("m.h5", lambda f: f.create_dataset("x", data=np.arange(10.0))))
case("mesh", "hdf5 named .msh", "error", ONE + ["--mesh.file=m.msh"],
     lambda: F.h5("m.msh", lambda f: f.create_dataset("x", data=np.arange(10.0))))
case("mesh", "checkpoint as mesh", "error", ONE + ["--mesh.file=" + os.path.join(FIX, "ck_000002.h5")])
case("mesh", "convert to /dev/full", "error", TINY + ["--mesh.convert=/dev/full"])
case("mesh", "convert to a folder", "error", TINY + ["--mesh.convert=."])
case("mesh", "convert onto its input", "error",
     ONE + ["--mesh.file=m.msh", "--mesh.convert=m.msh"], msh(F.gmsh22()))
case("mesh", "convert under a file", "error", TINY + ["--mesh.convert=c.ini/x.h5"],
     lambda: F.write("c.ini", ""))
