"""Sofa.Simulation for a script run as `python3 scene.py` (SofaPython3's main loop): init starts
euler-implicit on the graph the script built, and the run then waits for the script between
steps; animate advances it one step, during which the graph's controllers get their events here,
in the script's own process; reads and writes of data are requests to the run, as a controller's
are (eis_controllers.py). The run ends when the script does (atexit), or at unload.

Which euler-implicit: $EULER_IMPLICIT, else bin/euler-implicit of the prefix this package lies in
(PREFIX/share/euler-implicit/python: the build folder or an installed prefix), else the one on
PATH. How: $EULER_IMPLICIT_LAUNCH, the launcher and its arguments (e.g. "mpiexec -n 4"), or
$EULER_IMPLICIT_RANKS=N for "mpiexec -n N"; $EULER_IMPLICIT_ARGS, more of its arguments
(outputs, --quiet, any option). It runs in its own session: Ctrl-C reaches the script, which
ends it.

The protocol is eis_controllers.py's, with these messages more:
  run -> here:  "idle STEP TIME DT": the run holds step STEP at TIME and waits; the script may
                send "get" and "set" requests meanwhile
  here -> run:  "animate DT": one step (DT 0: the root's dt) | "stop": the run ends, its outputs
                written; the graph comes as XML through EIS_MAIN_LOOP_GRAPH (eis_sofa_scene.py)
"""
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

import Sofa.Core
import eis_controllers as driver
from eis_sessions import Sessions
from eis_sofa_scene import GRAPH, graph_xml

HERE = os.path.dirname(os.path.abspath(__file__))
MAX_DEPTH = 1 << 30  # the run's XML reader refuses a graph nested too deep


def engine_command(scene, socket_path):
    """The command line that runs euler-implicit on the scene, driven through `socket_path`."""
    exe = os.environ.get("EULER_IMPLICIT")
    if not exe:
        beside = os.path.normpath(os.path.join(HERE, "..", "..", "..", "bin", "euler-implicit"))
        exe = beside if os.access(beside, os.X_OK) else shutil.which("euler-implicit")
    if not exe:
        raise Sofa.Core.SceneError(
            "Sofa.Simulation.init: euler-implicit not found beside the Sofa package (%s) nor on "
            "PATH; set EULER_IMPLICIT to its path" % HERE)
    launch = shlex.split(os.environ.get("EULER_IMPLICIT_LAUNCH", ""))
    ranks = os.environ.get("EULER_IMPLICIT_RANKS", "")
    if not launch and ranks:
        if not ranks.isdigit() or int(ranks) < 1:
            raise Sofa.Core.SceneError("EULER_IMPLICIT_RANKS=%s: expected a number of ranks >= 1"
                                       % ranks)
        launch = ["mpiexec", "-n", ranks]
    return launch + [exe, "--scene", scene, "--scene.python-main=" + socket_path] + \
        shlex.split(os.environ.get("EULER_IMPLICIT_ARGS", ""))


def launched_ranks():
    """The size of the MPI job this script is a rank of (1 when it was not started by mpiexec)."""
    for name in ("OMPI_COMM_WORLD_SIZE", "PMI_SIZE"):  # Open MPI, MPICH
        if os.environ.get(name, "").isdigit():
            return int(os.environ[name])
    return 1


def scene_script(root):
    """The script's path as its command line gave it; the root placed at its createScene."""
    if launched_ranks() > 1:
        raise Sofa.Core.SceneError(
            "Sofa.Simulation.init: this script is one of %d MPI ranks, and each would start a "
            "run of its own; run python3 scene.py alone, with EULER_IMPLICIT_RANKS=N for a run "
            "on N ranks (or, where the euler_implicit module is built, without "
            "EULER_IMPLICIT_LAUNCH and EULER_IMPLICIT_RANKS: one run in the N ranks)"
            % launched_ranks())
    scene = Sofa.Core.SCENE_FILE
    if not scene or not scene.endswith(".py") or not os.path.isfile(scene):
        raise Sofa.Core.SceneError(
            "Sofa.Simulation.init: euler-implicit runs the graph of a scene script (python3 "
            "scene.py), which this Python has not (%s)" % (scene or "no __main__ file"))
    create = getattr(sys.modules.get("__main__"), "createScene", None)
    line = create.__code__.co_firstlineno if hasattr(create, "__code__") else 1
    if root._source == "?:0":
        root._source = "%s:%d" % (scene, line)
    return scene


class Session:
    """One run of euler-implicit driven by this script: started by init (or reset), ended by
    close."""

    def __init__(self, root, first):
        self.root, self.scene = root, scene_script(root)
        self.idle = self.closed = False
        self.folder = tempfile.mkdtemp(prefix="eis-main-")
        path = os.path.join(self.folder, "run.sock")
        graph = os.path.join(self.folder, "graph.xml")
        out = ['<?xml version="1.0"?>']
        graph_xml(root, MAX_DEPTH, out)
        with open(graph, "w") as f:
            f.write("\n".join(out) + "\n")
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(path)
        listener.listen(1)
        listener.settimeout(0.1)
        env = dict(os.environ)
        env[GRAPH] = graph
        sys.stdout.flush()
        self.engine = subprocess.Popen(engine_command(self.scene, path), env=env,
                                       stdin=subprocess.DEVNULL, start_new_session=True)
        try:
            connection = self.accept(listener)
            self.channel = driver.Channel(connection, self.ended)
            self.run = driver.Run(self.channel)
            self.controllers, backward = driver.controllers_of(root)
            if first:
                driver.unsent(self.controllers)
                for c in self.controllers:
                    c.init()
                for c in backward:
                    if callable(getattr(c, "bwdInit", None)):
                        c.bwdInit()
            else:
                for c in self.controllers:
                    if callable(getattr(c, "reset", None)):
                        c.reset()
            sys.stdout.flush()
            self.channel.send("ready %d" % len(self.controllers))
            listener.close()
            self.until_idle()
        except BaseException:
            listener.close()
            self.close()
            raise
        Sofa.Core.LIVE = self.run

    def accept(self, listener):
        while True:
            try:
                return listener.accept()[0]
            except socket.timeout:
                pass
            if self.engine.poll() is not None:
                self.ended()

    def ended(self):
        """The run is gone: its error is on standard error already."""
        self.closed = True
        Sofa.Core.LIVE = None
        status = self.engine.wait()
        self.cleanup()
        raise Sofa.Core.SceneError("euler-implicit ended (exit status %d): the run is over (its "
                                   "error, if any, is above)" % status)

    def until_idle(self):
        """Serves the events of a step until the run waits again."""
        while True:
            words = self.channel.line().split()
            if words[0] == "idle":
                self.step = int(words[1])
                self.run.time, self.run.dt = float(words[2]), float(words[3])
                self.idle = True
                return
            what, e = driver.call_event(self.run, self.controllers, words)
            sys.stdout.flush()
            if e is not None:
                self.channel.send("fail " + driver.failure(e, self.scene, what))
                raise e
            self.channel.send("done")

    def animate(self, dt):
        if self.closed:
            raise Sofa.Core.SceneError("Sofa.Simulation.animate: the run has ended")
        if not self.idle:
            raise Sofa.Core.SceneError("Sofa.Simulation.animate: called during a step (from a "
                                       "controller?); the main loop animates")
        dt = float(dt)
        if not dt >= 0 or dt == float("inf"):
            raise Sofa.Core.SceneError("Sofa.Simulation.animate: dt = %r; expected a number >= 0 "
                                       "(0: the root's dt)" % dt)
        self.idle = False
        self.channel.send("animate %r" % dt)
        self.until_idle()

    def close(self):
        """Ends the run: between steps with its outputs written; else (an exception or Ctrl-C
        in a step) by closing its socket, which ends it with an error; killed if it lingers."""
        if self.closed:
            return
        self.closed = True
        if Sofa.Core.LIVE is getattr(self, "run", None):
            Sofa.Core.LIVE = None
        clean = self.idle
        channel = getattr(self, "channel", None)
        try:
            try:
                if clean:
                    channel.send("stop")
                elif channel is not None:
                    channel.socket.shutdown(socket.SHUT_RDWR)
            except OSError:
                clean = False
            self.wait(600 if clean else 10)
        finally:
            self.kill()
            self.cleanup()

    def wait(self, seconds):
        try:
            self.engine.wait(seconds)
        except subprocess.TimeoutExpired:
            pass

    def kill(self):
        """The run's process group, if any of it is left: SIGTERM, then SIGKILL."""
        for sig, grace in ((signal.SIGTERM, 5), (signal.SIGKILL, 0)):
            try:
                os.killpg(self.engine.pid, sig)
            except ProcessLookupError:
                break
            deadline = time.monotonic() + grace
            while time.monotonic() < deadline and self.group_alive():
                time.sleep(0.05)
        self.engine.poll()

    def group_alive(self):
        try:
            os.killpg(self.engine.pid, 0)
            self.engine.poll()  # a zombie leader keeps the group: reap it
            return True
        except ProcessLookupError:
            return False

    def cleanup(self):
        if getattr(self, "channel", None):
            self.channel.socket.close()
        shutil.rmtree(self.folder, ignore_errors=True)


_sessions = Sessions(Session)
init = _sessions.init
animate = _sessions.animate
reset = _sessions.reset
unload = _sessions.unload
