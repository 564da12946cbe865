"""Sofa.Simulation for a script run as `python3 scene.py`, or `mpiexec -n N python3 scene.py`,
when the euler_implicit module is built: init makes the simulation in this process from the
graph the script built (through euler-implicit's own import of a .py scene, as --scene
scene.py), animate steps it, and the graph's controllers get onAnimateBeginEvent and
onAnimateEndEvent here. Under mpiexec every rank runs the script, its controllers included, and
the simulation is one, distributed over the ranks.

What a data access costs (docs/architecture.md): a MechanicalObject's position or velocity
.value is every node's row in node order, the same on every rank: a gather to rank 0 and a
broadcast, made once per step and state (kept until the state changes). writeableArray() gives
that copy to change; at the end of the with block each rank writes its own (owned) rows from its
copy, with no communication, and the next step starts from them. A ConstantForceField's forces
and the root's dt are written on every rank alike, with no communication. A Python exception in
the script or a controller ends the job with one line "FILE:LINE: ..." (with the step where
there is one), printed once when every rank raised it, else by the rank that did, which ends
the job (euler_implicit.fail).

$EULER_IMPLICIT_ARGS: more of euler-implicit's arguments (outputs, --quiet, any option).
"""
import os
import shlex
import shutil
import signal
import sys
import tempfile

import numpy

import euler_implicit
import eis_controllers as driver
import eis_force_fields
import Sofa.Core
from eis_lazy_state import LazyState
from eis_sessions import Sessions
from eis_sofa_scene import GRAPH, SceneExit, exit_status, graph_xml, scene_place

MAX_DEPTH = 1 << 30  # the run's XML reader refuses a graph nested too deep
WRITABLE = {"ConstantForceField": ("forces", "totalForce", "force"),
            "MechanicalObject": ("position", "velocity"),
            "TetrahedronFEMForceField": ("localStiffnessFactor",)}


class RunFailure(Exception):
    """A failure already said in one line (the step named)."""


class PythonTimeout(Sofa.Core.SceneError):
    """The controllers' methods for one event ran past scene.python-timeout."""


def _timed_out(signum, frame):
    raise PythonTimeout("did not return within %g s (scene.python-timeout; an endless loop?)"
                        % _session_timeout)


_session_timeout = 0.0


def script():
    scene = Sofa.Core.SCENE_FILE
    if not scene or not scene.endswith(".py") or not os.path.isfile(scene):
        raise Sofa.Core.SceneError(
            "Sofa.Simulation.init: euler-implicit runs the graph of a scene script (python3 "
            "scene.py), which this Python has not (%s)" % (scene or "no __main__ file"))
    if not getattr(Sofa.Core, "SCENE_FOLDER", None):
        Sofa.Core.SCENE_FOLDER = os.path.dirname(os.path.abspath(scene))
    return scene


def _failure_line(kind, e, tb):
    if isinstance(e, (RunFailure, euler_implicit.Error)):
        return str(e)
    scene = Sofa.Core.SCENE_FILE or "?"
    place = scene_place(tb, scene)
    if isinstance(e, (SystemExit, SceneExit)):
        return "%s: the script exited (status %s)" % (place, exit_status(e.code))
    text = str(e) if isinstance(e, Sofa.Core.SceneError) else "%s: %s" % (kind.__name__, e)
    return "%s: %s" % (place, " ".join(text.splitlines()))


def _excepthook(kind, e, tb):
    """Every rank that raises comes here; the ranks agree on one line (euler_implicit.fail),
    or the one rank that raised ends the job. Python then exits with status 1, the outputs left
    as the last step wrote them."""
    _sessions.current = None
    sys.stdout.flush()
    euler_implicit.fail(_failure_line(kind, e, tb))
    sys.stderr.flush()


class Live:
    """The simulation as the script and its controllers see it (Sofa.Core.LIVE)."""

    def __init__(self, engine):
        self.engine = engine
        self.in_event = False
        self.time, self.dt = engine.time, engine.dt
        self.copies = {}  # (body, velocity) -> the gathered copy of the current state
        self.row_copies = {}  # (body, velocity) -> {node: its row}, rows read alone

    def changed(self):
        self.copies.clear()
        self.row_copies.clear()
        self.time, self.dt = self.engine.time, self.engine.dt

    def body(self, owner):
        body = self.engine.body_of(owner._parent.pathname())
        if body < 0:
            raise Sofa.Core.SceneError(
                "the MechanicalObject of node %s is not a body of the run (a mapped state is "
                "not simulated)" % owner._parent.pathname())
        return body

    def state(self, owner, name):
        return LazyState(self, self.body(owner), name == "velocity")

    def numbers(self, component, kind):
        """What a controller reads of a component's matrices (io/python_controllers), on every
        rank: gathered to rank 0 and broadcast."""
        try:
            return self.engine.matrix(component.pathname(), kind, self.in_event)
        except euler_implicit.Error as e:
            raise Sofa.Core.SceneError(str(e)) from None

    def matrix(self, component, kind):
        values = self.numbers(component, kind)
        size = int(values[0])
        return Sofa.Core.sparse_matrix(values[1:], component.pathname(), (size, size))

    def vector(self, component, kind):
        return numpy.array(self.numbers(component, kind))

    def has_whole(self, key):
        return key in self.copies

    def whole(self, key):
        """Every row, gathered once per state (kept until the state changes)."""
        if key not in self.copies:
            copy = self.engine.state(key[0], key[1], True)
            copy.flags.writeable = False
            self.copies[key] = copy
        return self.copies[key]

    def rows(self, key, ids):
        """The rows of nodes `ids` alone (one Allreduce of them), kept as the whole copy is."""
        known = self.row_copies.setdefault(key, {})
        missing = sorted(set(i for i in ids if i not in known))
        if missing:
            for i, row in zip(missing, self.engine.rows(key[0], key[1], missing)):
                row.flags.writeable = False
                known[i] = row
        return numpy.array([known[i] for i in ids]).reshape(len(ids), 3)

    def nodes(self, body):
        return self.engine.nodes(body)

    def read(self, data):
        owner, name = data._owner, data._name
        if isinstance(owner, Sofa.Core._PythonComponent) or name == "name":
            return data._value
        if isinstance(owner, Sofa.Core.Node) and name in ("dt", "time"):
            return self.dt if name == "dt" else self.time
        if getattr(owner, "_type", "") == "MechanicalObject" and name == "position":
            mapped = Sofa.Core.mapped_position(owner, self.read)
            if mapped is not None:
                return mapped
        if getattr(owner, "_type", "") == "MechanicalObject" and name in ("position", "velocity"):
            return self.state(owner, name)
        if name in driver.REAL_VECTORS.get(getattr(owner, "_type", ""), ()):
            return driver.real_vector(data)
        if data._given:
            return data._value
        raise Sofa.Core.SceneError(
            "%s.%s is not available in the run: it reads a MechanicalObject's position and "
            "velocity, the root's dt and time, and what the scene set" % (owner.pathname(), name))

    def write(self, data, value):
        owner, name = data._owner, data._name
        if isinstance(owner, Sofa.Core._PythonComponent):
            data._value, data._given = value, True
            return
        try:
            if isinstance(owner, Sofa.Core.Node) and owner._parent is None and name == "dt":
                numbers = driver.numbers_of(value)
                if len(numbers) != 1:
                    raise Sofa.Core.SceneError("dt must be one number > 0")
                self.engine.set_dt(numbers[0], self.in_event)
                self.dt = data._value = numbers[0]
                data._given = True
                return
            kind = getattr(owner, "_type", "")
            if isinstance(owner, Sofa.Core.Object) and name in WRITABLE.get(kind, ()):
                if kind == "MechanicalObject":
                    rows = numpy.asarray(value, dtype=float)
                    self.engine.set_state(self.body(owner), name == "velocity",
                                          rows.reshape(-1, rows.shape[-1] if rows.ndim else 1),
                                          False)
                    self.copies.clear()
                    self.row_copies.clear()
                    return
                numbers = driver.numbers_of(value)
                if kind == "TetrahedronFEMForceField":
                    self.engine.set_stiffness_factors(owner.pathname(), numbers)
                    data._value, data._given = numbers, True
                    return
                self.engine.set_force(owner.pathname(), name, numbers, self.in_event)
                data._value, data._given = value, True
                return
        except euler_implicit.Error as e:
            raise Sofa.Core.SceneError("%s.%s: %s" % (owner.pathname(), name, e)) from None
        raise Sofa.Core.SceneError(
            "%s.%s cannot be written in the run: euler-implicit takes a MechanicalObject's "
            "position and velocity, a ConstantForceField's forces, totalForce or force, a "
            "TetrahedronFEMForceField's localStiffnessFactor and the root's dt"
            % (owner.pathname(), name))

    def writeable(self, data):
        return driver.Writeable(self, data)


class Session:
    """One simulation of the script's graph in this process: made by init (or reset)."""

    def __init__(self, root, first):
        self.root, self.scene = root, script()
        create = getattr(sys.modules.get("__main__"), "createScene", None)
        if root._source == "?:0" and hasattr(create, "__code__"):
            root._source = "%s:%d" % (self.scene, create.__code__.co_firstlineno)
        folder = tempfile.mkdtemp(prefix="eis-graph-")
        graph = os.path.join(folder, "graph.xml")
        out = ['<?xml version="1.0"?>']
        graph_xml(root, MAX_DEPTH, out)
        with open(graph, "w") as f:
            f.write("\n".join(out) + "\n")
        os.environ[GRAPH] = graph  # the import's scene driver reads it (eis_sofa_scene.py)
        sys.stdout.flush()
        fields = eis_force_fields.force_fields_of(root)
        try:
            self.engine = euler_implicit.Simulation(
                ["--scene", self.scene] + shlex.split(os.environ.get("EULER_IMPLICIT_ARGS", "")),
                eis_force_fields.lookup(fields, self) if fields else None)
        finally:
            del os.environ[GRAPH]
            shutil.rmtree(folder, ignore_errors=True)
        self.live = Live(self.engine)
        self.controllers, backward = driver.controllers_of(root)
        self.closed = False
        if first:
            if euler_implicit.rank() == 0:
                driver.unsent(self.controllers)
            Sofa.Core.LIVE = self.live
            self.call("init", fields, "init")
            Sofa.Core.LIVE = None
            self.call("init", self.controllers, "init")
            self.call("bwdInit", backward, "bwdInit")
        else:
            self.call("reset", self.controllers, "reset")
        sys.stdout.flush()
        Sofa.Core.LIVE = self.live

    def call(self, method, controllers, what, step=None, event=None):
        """Each controller's `method`, all of them within scene.python-timeout (a SIGALRM
        raises PythonTimeout where the Python runs: a loop in Python code is cut, one in a C
        extension's call is cut when it returns)."""
        global _session_timeout
        name = None
        _session_timeout = self.engine.python_timeout
        previous = signal.signal(signal.SIGALRM, _timed_out)
        signal.setitimer(signal.ITIMER_REAL, _session_timeout)
        try:
            for c in controllers:
                if callable(getattr(c, method, None)):
                    name = "%s.%s" % (driver.where(c), method)
                    getattr(c, method)(*([] if event is None else [event]))
        except BaseException as e:  # noqa: B902 (every way out is one line)
            line = driver.failure(e, self.scene, name)
            if step is not None:
                line = "step %d: %s" % (step, line)
            raise RunFailure(line) from None
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)

    def event(self, begin, step):
        self.live.changed()
        self.live.in_event = True
        method = "onAnimateBeginEvent" if begin else "onAnimateEndEvent"
        kind = "AnimateBeginEvent" if begin else "AnimateEndEvent"
        try:
            self.call(method, self.controllers, method, step,
                      {"type": kind, "isHandled": False, "dt": self.live.dt})
        finally:
            self.live.in_event = False
            sys.stdout.flush()

    def animate(self, dt):
        if self.closed:
            raise Sofa.Core.SceneError("Sofa.Simulation.animate: the run has ended")
        if self.live.in_event:
            raise Sofa.Core.SceneError("Sofa.Simulation.animate: called during a step (from a "
                                       "controller?); the main loop animates")
        dt = float(dt)
        if not dt >= 0 or dt == float("inf"):
            raise Sofa.Core.SceneError("Sofa.Simulation.animate: dt = %r; expected a number >= 0 "
                                       "(0: the root's dt)" % dt)
        step = self.engine.step_index + 1
        self.engine.begin_step(dt)
        self.event(True, step)
        self.engine.take_step()
        self.event(False, step)
        self.engine.end_step()
        self.live.changed()

    def close(self):
        """The outputs finished; the run ends (collective: every rank closes)."""
        if self.closed:
            return
        self.closed = True
        if Sofa.Core.LIVE is self.live:
            Sofa.Core.LIVE = None
        self.engine.finish()


_sessions = Sessions(Session, lambda: setattr(sys, "excepthook", _excepthook))
init = _sessions.init
animate = _sessions.animate
reset = _sessions.reset
unload = _sessions.unload
