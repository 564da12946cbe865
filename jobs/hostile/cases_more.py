"""The hostile corpus, continued: scenes (.scn, .py), initial states and checkpoints, outputs,
PETSc options and signals. The same table as cases.py (see there for the outcomes)."""
import os
import shutil

import numpy as np

import files as F
from cases import FIX, ONE, TINY, case, msh

SCN = ["--scene=s.scn", "--solver.steps=1", "--quiet"]
YOUNG = 'youngModulus="1e5"'
BOX = 'indices="@box.indices"'


def scn(old="", new=""):
    return lambda: F.scene(old, new)


def scene_text(text, name="s.scn"):
    return lambda: (F.write("good.msh", F.gmsh22()), F.write(name, text))


def deep_scene(depth):
    inner = F.SCENE.split("\n", 2)[2].rsplit("</Node>", 1)[0]
    return ('<Node name="root" dt="0.01">\n' + '<Node name="n">' * depth + inner
            + "</Node>" * depth + "</Node>\n")


# --- scn: the XML reader, links, data fields and includes of a SOFA scene. Each case breaks one
# thing of the good scene; SOFA itself warns or refuses all of them.
for name, expect, old, new in [
        ("good", "ok", "", ""),
        ("misspelt data field", "error", YOUNG, 'youngModulsu="1e6"'),
        ("link to a missing object", "error", BOX, 'indices="@nosuch.indices"'),
        ("link to a missing field", "error", BOX, 'indices="@box.nosuch"'),
        ("empty link", "error", BOX, 'indices="@"'),
        ("link cycle", "error", 'box="-0.1 -0.1 -0.1 0.1 1.1 1.1"', 'box="@fixed.indices"'),
        ("link to itself", "error", BOX, 'indices="@fixed.indices"'),
        ("young 1e400", "error", YOUNG, 'youngModulus="1e400"'),
        ("young nan", "error", YOUNG, 'youngModulus="nan"'),
        ("young negative", "error", YOUNG, 'youngModulus="-5"'),
        ("poisson 0.5", "error", 'poissonRatio="0.3"', 'poissonRatio="0.5"'),
        ("dt negative", "error", 'dt="0.01"', 'dt="-1"'),
        ("dt zero", "error", 'dt="0.01"', 'dt="0"'),
        ("gravity two numbers", "error", 'gravity="0 -9.81 0"', 'gravity="1 2"'),
        ("unknown component", "error", "<DiagonalMass", "<FooBarMass"),
        ("duplicate attribute", "error", YOUNG, YOUNG + " " + YOUNG),
        ("loader file missing", "error", 'filename="good.msh"', 'filename="nosuch.msh"'),
        ("loader file a folder", "error", 'filename="good.msh"', 'filename="."'),
        ("loader file empty name", "error", 'filename="good.msh"', 'filename=""'),
        ("fixed index out of range", "error", BOX, 'indices="99"'),
        ("fixed index negative", "error", BOX, 'indices="-1"'),
        ("box of five numbers", "error", 'box="-0.1 -0.1 -0.1 0.1 1.1 1.1"', 'box="0 0 0 1 1"'),
        ("position with nan", "error", 'name="dofs"', 'name="dofs" position="nan 0 0"'),
        ("include missing", "error", "<DiagonalMass", '<include href="nosuch.xml"/><DiagonalMass'),
        ("include itself", "error", "<DiagonalMass", '<include href="s.scn"/><DiagonalMass'),
        ("include a folder", "error", "<DiagonalMass", '<include href="."/><DiagonalMass'),
        ("huge attribute", "error", YOUNG, 'youngModulus="' + "1" * 1000000 + '"'),
        # SOFA's TinyXML takes any bytes in a name, as a name: either answer is right.
        ("invalid utf-8 name", "any", 'name="fem"', 'name="\udcff\udcfe"'),
        ("control byte in a name", "any", 'name="fem"', 'name="f\x01m"'),
        ("two solvers", "any", '<EulerImplicitSolver name="ode"/>',
         '<EulerImplicitSolver name="ode"/><EulerImplicitSolver name="ode2"/>')]:
    case("scn", name, expect, SCN, scn(old, new))
case("scn", "misspelt field, skip-unsupported", "warn", SCN + ["--scene.skip-unsupported=true"],
     scn(YOUNG, 'youngModulsu="1e6"'))
case("scn", "unknown component, skip-unsupported", "warn",
     SCN + ["--scene.skip-unsupported=true"], scn("<DiagonalMass", "<FooBar/><DiagonalMass"))
case("scn", "loader file a fifo", "error", SCN,
     lambda: (F.scene('filename="good.msh"', 'filename="p.msh"'), F.fifo("p.msh")))
case("scn", "recursive includes", "error", SCN,
     lambda: (F.scene("<DiagonalMass", '<include href="a.xml"/><DiagonalMass'),
              F.write("a.xml", '<Node name="a"><include href="b.xml"/></Node>'),
              F.write("b.xml", '<Node name="b"><include href="a.xml"/></Node>')))
text = F.SCENE
for cut in [10, 60, len(text) // 3, len(text) // 2, len(text) - 20, len(text) - 9]:
    case("scn", "cut at %d" % cut, "error", SCN, scene_text(text[:cut]))
laughs = '<?xml version="1.0"?>\n<!DOCTYPE n [<!ENTITY a "aaaaaaaaaa">' + "".join(
    '<!ENTITY %s "%s">' % (chr(98 + i), ("&%s;" % chr(97 + i)) * 10) for i in range(8))
for name, expect, body in [
        ("empty file", "error", ""), ("not xml", "error", "hello world\n"),
        ("unclosed node", "error", text.replace("</Node>\n</Node>", "</Node>")),
        ("mismatched tags", "error", text.replace("</Node>\n</Node>", "</Nod>\n</Node>")),
        # SOFA reads the first root element and ignores what follows: either answer is right.
        ("two roots", "any", text + text.split("\n", 1)[1]),
        ("billion laughs", "error", laughs + ']>\n<Node name="&i;"/>\n'),
        ("python in a .scn", "error", "def createScene(root):\n    pass\n"),
        ("random bytes", "error", bytes(np.random.default_rng(3).integers(0, 256, 3000, np.uint8))),
        ("deep nesting 200", "any", deep_scene(200)),
        ("deep nesting 20000", "any", deep_scene(20000))]:
    case("scn", name, expect, SCN, scene_text(body))

# --- py: a Python scene is code: every way it can end badly must be one error line and no
# python3 left behind, within scene.python-timeout.
PY = ["--scene=s.py", "--solver.steps=1", "--quiet"]
for name, expect, extra, head in [
        ("good", "ok", "", ""),
        ("raises", "error", "    raise RuntimeError('boom')\n", ""),
        ("sys.exit(0)", "error", "    import sys; sys.exit(0)\n", ""),
        ("sys.exit(3)", "error", "    import sys; sys.exit(3)\n", ""),
        ("os._exit(0)", "error", "    import os; os._exit(0)\n", ""),
        ("KeyboardInterrupt", "error", "    raise KeyboardInterrupt\n", ""),
        ("RecursionError", "error", "    f = lambda: f()\n    f()\n", ""),
        ("MemoryError", "error", "    raise MemoryError\n", ""),
        ("syntax error", "error", "    x = (\n", ""),
        ("import missing module", "error", "", "import nosuchmodule_hostile\n"),
        ("unknown component", "error", "    b.addObject('FooBar')\n", ""),
        ("misspelt keyword", "error", "    b.addObject('UniformMass', totalMas=1)\n", ""),
        ("deep graph 5000", "any",
         "    n = root\n    for i in range(5000):\n        n = n.addChild('n%d' % i)\n", ""),
        ("10 MB on stdout", "any", "    print('x' * 10000000)\n", ""),
        ("closes stdout", "any", "    import os; os.close(1)\n", "")]:
    case("py", name, expect, PY, lambda e=extra, h=head: F.py_scene(e, h))
case("py", "no createScene", "error", PY, lambda: F.write("s.py", "x = 1\n"))
case("py", "infinite loop, timeout 3 s", "error", PY + ["--scene.python-timeout=3"],
     lambda: F.py_scene("    while True: pass\n"))
case("py", "sleeps, timeout 2 s", "error", PY + ["--scene.python-timeout=2"],
     lambda: F.py_scene("    import time; time.sleep(100)\n"))
case("py", "forks a sleeper", "any", PY,
     lambda: F.py_scene("    import os, time\n    if os.fork() == 0: time.sleep(30); os._exit(0)\n"))

# --- state: initial.state (CSV or checkpoint) and --restart: broken, foreign, non-finite, of
# another size or of another scene.
CK = os.path.join(FIX, "ck_000002.h5")
CSV = os.path.join(FIX, "state.csv")


def csv(change):
    def make():
        lines = open(CSV).read().splitlines()
        F.write("st.csv", "\n".join(change(lines)) + "\n")
    return make


ST = TINY + ["--initial.state=st.csv"]
case("state", "good csv", "ok", ST, csv(lambda ls: ls))
for name, change in [
        ("csv cut in half", lambda ls: ls[: len(ls) // 2]),
        ("csv header only", lambda ls: ls[:1]), ("csv empty", lambda ls: []),
        ("csv nan", lambda ls: ls[:2] + [ls[2].replace(ls[2].split(",")[1], "nan", 1)] + ls[3:]),
        ("csv extra row", lambda ls: ls + [ls[-1]]),
        ("csv missing column", lambda ls: [",".join(x.split(",")[:-1]) for x in ls]),
        ("csv extra column", lambda ls: [x + ",0" for x in ls]),
        ("csv word", lambda ls: ls[:3] + [ls[3].replace(",", ",abc", 1)] + ls[4:]),
        ("csv duplicate id", lambda ls: ls[:2] + [ls[1]] + ls[3:]),
        ("csv id out of range", lambda ls: ls[:-1] + ["999" + ls[-1][ls[-1].index(","):]]),
        ("csv cut mid-line", lambda ls: ls[:-1] + [ls[-1][:7]])]:
    case("state", name, "error", ST, csv(change))
case("state", "csv random bytes", "error", ST,
     lambda: F.write("st.csv", bytes(np.random.default_rng(5).integers(0, 256, 900, np.uint8))))
case("state", "state is a fifo", "error", ST, lambda: F.fifo("st.csv"))
case("state", "state is a folder", "error", TINY + ["--initial.state=."])
case("state", "state of another mesh", "error", ["--mesh.box-cells=3 1 1"] + ST[1:],
     csv(lambda ls: ls))
CKA = TINY + ["--initial.state=ck.h5"]
case("state", "good checkpoint", "ok", CKA, lambda: shutil.copy(CK, "ck.h5"))
case("state", "restart from a checkpoint", "ok", ["--mesh.box-cells=2 1 1", "--solver.steps=4",
                                                  "--quiet", "--restart=ck.h5"],
     lambda: shutil.copy(CK, "ck.h5"))
case("state", "restart past the end", "any", TINY + ["--restart=ck.h5"],
     lambda: shutil.copy(CK, "ck.h5"))
for frac in [0.05, 0.3, 0.7, 0.98]:
    case("state", "checkpoint cut at %d%%" % (frac * 100), "error", CKA,
         lambda f=frac: F.write("ck.h5", open(CK, "rb").read()[:int(os.path.getsize(CK) * f)]))


def ck_edit(change):
    return lambda: F.edit_h5(CK, "ck.h5", change)


def nan_positions(f):
    f["positions"][0, 0] = np.nan


def reshape_positions(f):
    del f["positions"]
    f["positions"] = np.zeros((5, 3))


for name, change in [
        ("checkpoint nan position", nan_positions),
        ("checkpoint step -1", lambda f: f.attrs.__setitem__("step", -1)),
        ("checkpoint time nan", lambda f: f.attrs.__setitem__("time", np.nan)),
        ("checkpoint nodes 99", lambda f: f.attrs.__setitem__("nodes", 99)),
        ("checkpoint positions 5x3", reshape_positions),
        ("checkpoint without velocities", lambda f: f.__delitem__("velocities")),
        ("checkpoint scene text garbled", lambda f: f.attrs.__setitem__("scene", b"\xff\xfe junk"))]:
    case("state", name, "error", CKA, ck_edit(change))
# A restart continues the run that wrote the checkpoint, so it must be the same scene; an
# initial.state is only a start: README, "initial.state takes a checkpoint of any scene".
for name, expect, args in [("restart", "error", ["--restart=ck.h5"]),
                           ("initial.state", "ok", ["--initial.state=ck.h5"])]:
    case("state", "another scene's checkpoint, " + name, expect,
         ["--mesh.box-cells=2 1 1", "--solver.steps=4", "--quiet",
          "--material.young-modulus=2e5"] + args, lambda: shutil.copy(CK, "ck.h5"))
case("state", "another scene's checkpoint, forced", "ok",
     ["--mesh.box-cells=2 1 1", "--solver.steps=4", "--quiet", "--material.young-modulus=2e5",
      "--restart=ck.h5", "--restart-force"], lambda: shutil.copy(CK, "ck.h5"))
case("state", "foreign hdf5", "error", CKA,
     lambda: F.h5("ck.h5", lambda f: f.create_dataset("positions", data=np.zeros((12, 3)))))
case("state", "converted mesh as state", "error", TINY + ["--initial.state=" + os.path.join(FIX, "box.h5")])

# --- outputs: every output kind into a full disk, a folder, an impossible path, or onto
# another path of the same run.
# final-state and history are files; vtk, xdmf and checkpoint are prefixes, whose files are
# PREFIX.pvd and PREFIX_NNNNNN.pvtu, PREFIX.xdmf and PREFIX.h5, PREFIX_NNNNNN.h5.
for kind, kind_path in [("final-state", "f.csv"), ("history", "h.csv"), ("vtk", "v"),
                        ("xdmf", "x"), ("checkpoint", "c")]:
    places = [("under /dev/full", "/dev/full/x"), ("under a file", "file/x"),
              ("in /proc", "/proc/hostile/x")]
    if kind in ("final-state", "history"):
        places += [("/dev/full", "/dev/full"), ("a folder", ".")]
    for name, path in places:
        case("out", "%s %s" % (kind, name), "error",
             TINY + ["--output.%s=%s" % (kind, path)], lambda: F.write("file", ""))
# A checkpoint and the ParaView index replace their file by renaming a new one onto it: a link
# there is replaced, not followed, and nothing is lost; the others refuse a path that is no file.
for kind, prefix, link, expect in [
        ("final-state", "ln", "ln", "error"), ("history", "ln", "ln", "error"),
        ("vtk", "v", "v.pvd", "ok"), ("xdmf", "x", "x.h5", "error"),
        ("xdmf", "x", "x.xdmf", "error"), ("checkpoint", "c", "c_000001.h5", "ok")]:
    case("out", "%s: %s a link to /dev/full" % (kind, link), expect,
         TINY + ["--output.%s=%s" % (kind, prefix)], lambda l=link: os.symlink("/dev/full", l))
MESH = ["--mesh.file=m.msh"]
for name, expect, args, setup in [
        ("final-state = history", "error",
         TINY + ["--output.final-state=a.csv", "--output.history=a.csv"], None),
        ("final-state = mesh.file", "error", ONE + MESH + ["--output.final-state=m.msh"],
         msh(F.gmsh22())),
        ("history = mesh.file through a link", "error", ONE + MESH + ["--output.history=ln"],
         lambda: (F.write("m.msh", F.gmsh22()), os.symlink("m.msh", "ln"))),
        ("final-state = config", "error", TINY + ["--config=c.ini", "--output.final-state=c.ini"],
         lambda: F.write("c.ini", "")),
        ("final-state = initial.state", "error",
         TINY + ["--initial.state=st.csv", "--output.final-state=st.csv"],
         lambda: shutil.copy(CSV, "st.csv")),
        ("history = a checkpoint's name", "any",
         TINY + ["--output.checkpoint=c", "--output.history=c_000001.h5"], None),
        ("output.every 0", "error", TINY + ["--output.vtk=v", "--output.every=0"], None),
        ("checkpoint-minutes -1", "error",
         TINY + ["--output.checkpoint=c", "--output.checkpoint-minutes=-1"], None)]:
    case("out", name, expect, args, setup)

# --- petsc: options that break the solve, make its check meaningless or name bad paths.
for name, expect, opts in [
        ("ksp_rtol -1", "warn", ["-ksp_rtol", "-1"]), ("ksp_atol 1e30", "warn", ["-ksp_atol", "1e30"]),
        ("richardson without norm", "warn",
         ["-ksp_type", "richardson", "-ksp_norm_type", "none"]),
        ("ksp_type nonsense", "error", ["-ksp_type", "nonsense"]),
        ("pc_type nonsense", "error", ["-pc_type", "nonsense"]),
        ("ksp_rtol word", "error", ["-ksp_rtol", "abc"]),
        ("ksp_max_it -5", "error", ["-ksp_max_it", "-5"]),
        ("log_view missing folder", "error", ["-log_view", ":/nonexistent/log.txt"]),
        ("log_view /dev/full", "error", ["-log_view", ":/dev/full"]),
        ("ksp_view missing folder", "error", ["-ksp_view", ":/nonexistent/k.txt"]),
        ("options_file missing", "error", ["-options_file", "/nonexistent/o"]),
        ("unused option", "any", ["-hostile_nonsense", "1"]),
        ("pc_type none", "any", ["-pc_type", "none"]),
        ("ksp_max_it 1", "any", ["-ksp_max_it", "1"])]:
    case("petsc", name, expect, TINY + opts)

# --- signals: what a scheduler or a user sends, at moments drawn from a fixed seed; run.py sends
# them (to both ranks, one rank or mpiexec) once the ranks exist and reports the moment.
LONG = ["--mesh.box-cells=4 2 2", "--solver.steps=1000000", "--quiet", "--output.checkpoint=c",
        "--output.history=h.csv"]
rng = np.random.default_rng(37)
for sig in ["TERM", "USR1", "INT"]:
    for k in range(4):
        case("signal", "SIG%s once #%d" % (sig, k), "stopped", LONG,
             signal=dict(sigs=[sig], delay=float(rng.uniform(0.2, 3.0)), target="ranks"))
    case("signal", "SIG%s to mpiexec" % sig, "stopped", LONG,
         signal=dict(sigs=[sig], delay=float(rng.uniform(0.5, 3.0)), target="mpiexec"))
for k, pair in enumerate([["USR1", "TERM"], ["TERM", "INT"], ["INT", "USR1"]] * 2):
    case("signal", "SIG%s then SIG%s #%d" % (pair[0], pair[1], k), "killed", LONG,
         signal=dict(sigs=pair, delay=float(rng.uniform(0.2, 3.0)), target="ranks"))
for k in range(4):
    case("signal", "SIGKILL of one rank #%d" % k, "killed", LONG,
         signal=dict(sigs=["KILL"], delay=float(rng.uniform(0.2, 3.0)), target="one"))
for sig in ["TERM", "INT"]:
    case("signal", "SIG%s during a looping .py scene" % sig, "error", PY[:1],
         lambda: F.py_scene("    while True: pass\n"),
         signal=dict(sigs=[sig], delay=1.0, target="ranks"))
