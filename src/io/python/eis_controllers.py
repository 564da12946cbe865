"""euler-implicit's Python controllers: builds a SofaPython3 scene again (createScene against the
stand-in Sofa package, its printing silenced: the scene driver showed it), keeps its
Sofa.Core.Controller objects, calls init() of each in graph order and bwdInit() after its node's
children (SOFA's InitVisitor), and then serves the run's events (io/python_controllers.cpp).
Usage: python3 eis_controllers.py SCENE.py, with the run's end of a socket pair as fd 3.

The protocol, one line per message, numbers as native doubles right after their line (a
script's own main loop adds two messages: eis_main_loop.py):
  run -> here:  "begin STEP TIME DT" | "end STEP TIME DT" | "quit"
                | "end STEP TIME DT again": a restart's AnimateEndEvent of its checkpoint's
                  step, which the run that wrote it sent after writing it (no constraint events)
                | "save": answered "state N" and N bytes, the controllers' own state
                  (eis_controller_state.capture)
                | "restore N FORCE" and N bytes, such a state (a restart's, before its first
                  event; FORCE 1: --restart-force): answered "done" or "fail ..."
  here -> run:  "ready COUNT" (built and initialised) | "done" (the event's methods returned)
                | "fail FILE:LINE: what" (the run ends with it on every rank)
                | "get position|velocity NODEPATH": the run answers "ok N" and N doubles
                | "get stiffness|mass|system OBJECTPATH": "ok N" and N doubles, the matrix's
                  size and (row, column, value) of each nonzero (or "error WHY")
                | "get rhs|solution OBJECTPATH": "ok N" and N doubles, a linear system's vector
                | "get compliance|lambda|dfree OBJECTPATH": "ok N" and N doubles, the last
                  constraint problem's m and W row by row, its m forces or free violations
                | "get constraint NODEPATH": "ok N" and N doubles, the rows and columns of
                  the body's constraint matrix and (row, column, value) of each stored entry
                | "set FIELD COUNT OBJECTPATH" and COUNT doubles ("set dt 1 /" for the root's
                  dt; "set position|velocity COUNT NODEPATH", 3 per node in node order;
                  "set localStiffnessFactor COUNT OBJECTPATH" a TetrahedronFEMForceField's): the
                  run answers "ok" or "error WHY".
Force fields written in Python (eis_force_fields.py), the arrays of every node in node order:
  run -> here:  "field PATH" | "force NODES DOFS PATH" and x, v | "dforce NODES DOFS KFACTOR PATH"
                and dx | "stiffness NODES DOFS PATH"
  here -> run:  "values COUNT" and COUNT doubles (field: [1 or 0, whether it has addKToMatrix],
                or none: no such field; force: f; dforce: df; stiffness: rows i, j, value)
                | "fail FILE:LINE: in Class.method: what"
"""
import importlib.util
import io
import os
import socket
import sys
import types
from array import array

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import Sofa.Core  # noqa: E402
from eis_sofa_scene import SceneExit, exit_status, scene_exit, scene_place  # noqa: E402

_EXIT = os._exit  # the scene's os._exit raises instead (scene_exit); the driver's own ends
EVENTS = {"begin": ("onAnimateBeginEvent", "AnimateBeginEvent"),
          "end": ("onAnimateEndEvent", "AnimateEndEvent")}
# SOFA's constraint solver sends these within the step; here they follow it, before
# AnimateEndEvent, when the scene solves Lagrangian constraints, with the step's W and forces.
CONSTRAINT_EVENTS = (("onBuildConstraintSystemEndEvent", "BuildConstraintSystemEndEvent"),
                     ("onSolveConstraintSystemEndEvent", "SolveConstraintSystemEndEvent"))
WRITABLE = {"ConstantForceField": ("forces", "totalForce", "force"),
            "TetrahedronFEMForceField": ("localStiffnessFactor",)}
STATES = ("position", "velocity")  # a MechanicalObject's, written by node path
# Data SOFA holds as a vector of reals (VecReal): a 1-D array of numbers, however the scene gave
# it (np.full((1, N), 1.0) is N numbers).
# A restart's --restart-force, given with the controllers' state ("restore").
RESTART = {"force": False}
REAL_VECTORS = {"TetrahedronFEMForceField": ("localStiffnessFactor",)}


def real_vector(data):
    """A VecReal data's value as SofaPython3 gives it: a read-only 1-D float array (a list
    without numpy); empty when the scene did not set it (SOFA's default)."""
    numbers = [float(x) for x in numbers_of(data._value)] if data._given else []
    try:
        import numpy
    except ImportError:
        return numbers
    out = numpy.array(numbers, dtype=float)
    out.flags.writeable = False
    return out


class Run:
    """The simulation as a controller sees it (Sofa.Core.LIVE): reads and writes of data."""

    def __init__(self, channel):
        self.channel = channel
        self.time = 0.0
        self.dt = 0.0

    def request(self, line, numbers=()):
        self.channel.send(line, numbers)
        reply = self.channel.line()
        if reply.startswith("error "):
            raise Sofa.Core.SceneError(reply[6:])
        return reply

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
            reply = self.request("get %s %s" % (name, owner._parent.pathname()))
            count, width = (int(word) for word in reply.split()[1:3])
            values = array("d", self.channel.read(8 * count))
            try:
                import numpy
            except ImportError:  # SofaPython3 needs numpy; without it, lists of [x, y, z]
                return [list(values[i:i + width]) for i in range(0, len(values), width)]
            out = numpy.array(values, dtype=float).reshape(-1, width)
            out.flags.writeable = False
            return out
        if getattr(owner, "_type", "") == "MechanicalObject" and name == "constraint":
            values = self.numbers("get constraint %s" % owner._parent.pathname())
            return Sofa.Core.sparse_matrix(values[2:], "%s.constraint" % owner.pathname(),
                                           (int(values[0]), int(values[1])))
        if name in REAL_VECTORS.get(getattr(owner, "_type", ""), ()):
            return real_vector(data)
        if data._given:
            return data._value
        raise Sofa.Core.SceneError(
            "%s.%s is not available to a controller: it reads a MechanicalObject's position, "
            "velocity and constraint, the root's dt and time, and what the scene set"
            % (owner.pathname(), name))

    def write(self, data, value):
        owner, name = data._owner, data._name
        if isinstance(owner, Sofa.Core._PythonComponent):
            data._value, data._given = value, True
            return
        if isinstance(owner, Sofa.Core.Node) and owner._parent is None and name == "dt":
            numbers = numbers_of(value)
            self.request("set dt %d /" % len(numbers), numbers)
            self.dt = data._value = numbers[0]
            data._given = True
            return
        if isinstance(owner, Sofa.Core.Object) and name in WRITABLE.get(owner._type, ()):
            numbers = numbers_of(value)
            self.request("set %s %d %s" % (name, len(numbers), owner.pathname()), numbers)
            data._value = numbers if name in REAL_VECTORS.get(owner._type, ()) else value
            data._given = True
            return
        if getattr(owner, "_type", "") == "MechanicalObject" and name in STATES:
            numbers = numbers_of(value)
            try:
                self.request("set %s %d %s" % (name, len(numbers), owner._parent.pathname()),
                             numbers)
            except Sofa.Core.SceneError as e:
                raise Sofa.Core.SceneError("%s.%s: %s" % (owner.pathname(), name, e)) from None
            return
        raise Sofa.Core.SceneError(
            "%s.%s cannot be written by a controller: euler-implicit takes from one a "
            "MechanicalObject's position and velocity, a ConstantForceField's forces, "
            "totalForce or force, a TetrahedronFEMForceField's localStiffnessFactor and the "
            "root's dt" % (owner.pathname(), name))

    def writeable(self, data):
        return Writeable(self, data)

    def numbers(self, line):
        reply = self.request(line)
        return array("d", self.channel.read(8 * int(reply.split()[1])))

    def vector(self, component, kind):
        """The right-hand side or solution of a linear system's last solve: a numpy array."""
        import numpy
        return numpy.array(self.numbers("get %s %s" % (kind, component.pathname())))

    def matrix(self, component, kind):
        """A body's stiffness or mass matrix (io/python_controllers.cpp), as SofaPython3 returns
        it: a scipy.sparse CSR matrix."""
        values = self.numbers("get %s %s" % (kind, component.pathname()))
        size = int(values[0])
        return Sofa.Core.sparse_matrix(values[1:], component.pathname(), (size, size))


class Writeable:
    """with data.writeableArray() as x: a copy of the value to change (a numpy array, or lists
    without numpy), written back at the end of the block."""

    def __init__(self, live, data):
        self.live, self.data = live, data

    def __enter__(self):
        value = self.live.read(self.data)
        try:
            import numpy
        except ImportError:
            self.array = [list(row) for row in value]
        else:
            self.array = numpy.array(value, dtype=float)
        return self.array

    def __exit__(self, kind, e, tb):
        if kind is None:
            self.live.write(self.data, self.array)
        return False


def numbers_of(value):
    """The numbers of a value (a number, a list of lists, a numpy array), flattened."""
    if hasattr(value, "tolist"):
        value = value.tolist()
    if isinstance(value, (list, tuple)):
        return [x for item in value for x in numbers_of(item)]
    try:
        return [float(value)]
    except (TypeError, ValueError):
        raise Sofa.Core.SceneError("%r is not a number" % (value,))


class Channel:
    """The socket to the run; `ended()` is called when the run is gone (it does not return)."""

    def __init__(self, sock, ended=lambda: _EXIT(0)):
        self.socket = sock
        self.input = self.socket.makefile("rb")
        self.ended = ended

    def send(self, line, numbers=()):
        self.socket.sendall((line + "\n").encode() + array("d", numbers).tobytes())

    def line(self):
        text = self.input.readline()
        if not text:
            self.ended()
        return text.decode().rstrip("\n")

    def read(self, size):
        data = self.input.read(size)
        if len(data) < size:
            self.ended()
        return data


def controllers_of(root):
    """The controllers in graph order, and (init order) the bwdInit order: each node's own after
    its children's."""
    found, backward = [], []

    def visit(node):
        own = [o for o in node.objects if isinstance(o, Sofa.Core.Controller)]
        found.extend(own)
        for child in node._placed_items():
            if isinstance(child, Sofa.Core.Node):
                visit(child)
        backward.extend(own)
    visit(root)
    return found, backward


def where(controller):
    return type(controller).__name__


def solves_constraints(controllers):
    """Whether the graph of the controllers has a FreeMotionAnimationLoop (SOFA's loop that
    solves Lagrangian constraints, and sends the constraint events)."""
    if not controllers:
        return False
    found = []

    def visit(node):
        found.extend(o for o in node.objects if getattr(o, "_type", "") ==
                     "FreeMotionAnimationLoop")
        for child in node._placed_items():
            if isinstance(child, Sofa.Core.Node):
                visit(child)
    visit(controllers[0]._parent.getRoot())
    return bool(found)


def unsent(controllers):
    """The notice for event methods that are never called."""
    sent = ["onAnimateBeginEvent", "onAnimateEndEvent"]
    if solves_constraints(controllers):
        sent += [method for method, _ in CONSTRAINT_EVENTS]
    names = []
    for c in controllers:
        for name in dir(type(c)):
            if name.startswith("on") and name[2:3].isupper() and callable(getattr(c, name)) \
                    and name not in sent:
                names.append("%s.%s" % (type(c).__name__, name))
    if names:
        print("note: Python controller methods never called (euler-implicit sends only "
              "AnimateBeginEvent and AnimateEndEvent, and under FreeMotionAnimationLoop "
              "BuildConstraintSystemEndEvent and SolveConstraintSystemEndEvent): %s"
              % ", ".join(sorted(set(names))))


def failure(e, scene, what):
    """The one line that ends the run for an exception raised in `what`."""
    place = scene_place(e.__traceback__, scene)
    if isinstance(e, (SystemExit, SceneExit)):
        return "%s: %s exited (status %s)" % (place, what, exit_status(e.code))
    if isinstance(e, KeyboardInterrupt):
        return "%s: %s was interrupted (KeyboardInterrupt)" % (place, what)
    text = str(e) if isinstance(e, Sofa.Core.SceneError) else "%s: %s" % (type(e).__name__, e)
    return "%s: in %s: %s" % (place, what, " ".join(text.splitlines()))


def build(scene):
    """The scene's root, built by createScene with its output silenced."""
    Sofa.Core.SCENE_FOLDER = os.path.dirname(os.path.abspath(scene))
    Sofa.Core.SCENE_FILE = scene
    sys.path.insert(1, Sofa.Core.SCENE_FOLDER)
    sys.argv = [scene]
    shown = sys.stdout, sys.stderr
    sys.stdout = sys.stderr = io.StringIO()
    try:
        spec = importlib.util.spec_from_file_location("eis_scene", scene)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        root = Sofa.Core.Node("root")
        module.createScene(root)
    finally:
        sys.stdout, sys.stderr = shown
    return root


def call_init(objects):
    """Each object's init; returns the name of the one that raised, with the exception, or
    (None, None)."""
    what = None
    try:
        for o in objects:
            if callable(getattr(o, "init", None)):
                what = "%s.init" % where(o)
                o.init()
    except BaseException as e:  # noqa: B902 (every way out is one line)
        return what, e
    return None, None


def call_event(run, controllers, words):
    """The event a line "begin|end STEP TIME DT" names, sent to each controller; returns the
    name of the method that raised, with the exception, or (None, None)."""
    run.time, run.dt = float(words[2]), float(words[3])
    events = [EVENTS[words[0]]]
    again = words[4:] == ["again"]
    if words[0] == "end" and solves_constraints(controllers) and not again:
        events = list(CONSTRAINT_EVENTS) + events
    what = None
    try:
        if again and solves_constraints(controllers):
            refuse_constraint_events(controllers)
        for method, kind in events:
            event = {"type": kind, "isHandled": False, "dt": run.dt}
            for c in controllers:
                if callable(getattr(c, method, None)):
                    what = "%s.%s" % (where(c), method)
                    getattr(c, method)(event)
    except BaseException as e:  # noqa: B902 (every way out is one line)
        return what, e
    return None, None


def refuse_constraint_events(controllers):
    """A restart does not send the constraint events of its checkpoint's step again (their W
    and forces are not in the checkpoint): refused when a controller has them, unless
    --restart-force."""
    names = ["%s.%s" % (where(c), method) for c in controllers for method, _ in CONSTRAINT_EVENTS
             if callable(getattr(c, method, None))]
    if names and not RESTART["force"]:
        raise Sofa.Core.SceneError(
            "%s: the checkpoint was written before this step's constraint events, which a "
            "restart cannot send again (its constraint problem is not in the checkpoint), so "
            "the restarted run would differ (--restart-force restarts without them)"
            % ", ".join(names))


def serve_field(channel, scene, run, root, fields, words):
    """A force field's request (words: the line's), answered with "values" or "fail"; `fields`
    keeps each asked field's FieldCalls by path."""
    import numpy
    from eis_force_fields import FieldCalls, FieldFailure, force_fields_of
    if words[0] == "field":
        found = [f for f in force_fields_of(root) if f.pathname() == words[1]]
        if found:
            fields[words[1]] = FieldCalls(found[0], types.SimpleNamespace(live=run, scene=scene))
        channel.send("values %d" % len(found), [float(fields[words[1]].has_stiffness)] if found
                     else [])
        return
    nodes, dofs = int(words[1]), int(words[2])
    size = nodes * dofs
    calls = fields[words[-1]]
    try:
        if words[0] == "force":
            xv = numpy.frombuffer(channel.read(16 * size), dtype=float).reshape(2, nodes, dofs)
            out = calls.add_force(xv[0].copy(), xv[1].copy())
        elif words[0] == "dforce":
            dx = numpy.frombuffer(channel.read(8 * size), dtype=float).reshape(nodes, dofs)
            out = calls.add_dforce(dx.copy(), float(words[3]))
        else:
            out = calls.stiffness(nodes, dofs)
    except FieldFailure as e:
        sys.stdout.flush()
        channel.send("fail " + str(e))
        return
    out = numpy.ascontiguousarray(out, dtype=float).ravel()
    sys.stdout.flush()
    channel.socket.sendall(("values %d\n" % out.size).encode() + out.tobytes())


def serve_state(channel, scene, controllers, words):
    """A checkpoint's "save" or a restart's "restore N FORCE" of the controllers' own state."""
    import eis_controller_state
    if words[0] == "save":
        record = eis_controller_state.capture(controllers)
        channel.socket.sendall(("state %d\n" % len(record)).encode() + record)
        return
    record = channel.read(int(words[1]))
    try:
        RESTART["force"] = words[2] == "1"
        warning = eis_controller_state.restore(controllers, record, RESTART["force"])
    except Sofa.Core.SceneError as e:
        channel.send("fail %s: %s" % (scene, e))
        return
    if warning:
        print("euler-implicit: warning: %s: %s" % (scene, warning))
    sys.stdout.flush()
    channel.send("done")


def main(scene, channel):
    Sofa.Core.DRIVER = True
    os._exit = scene_exit
    what = "createScene"
    try:
        root = build(scene)
        controllers, backward = controllers_of(root)
        unsent(controllers)
        for c in controllers:
            what = "%s.init" % where(c)
            c.init()
        for c in backward:
            if callable(getattr(c, "bwdInit", None)):
                what = "%s.bwdInit" % where(c)
                c.bwdInit()
    except BaseException as e:  # noqa: B902 (every way out is one line)
        sys.stdout.flush()
        channel.send("fail " + failure(e, scene, what))
        return
    sys.stdout.flush()
    channel.send("ready %d" % len(controllers))
    Sofa.Core.LIVE = run = Run(channel)
    fields = {}
    while True:
        words = channel.line().split()
        if words[0] == "quit":
            return
        if words[0] in ("field", "force", "dforce", "stiffness"):
            serve_field(channel, scene, run, root, fields, words)
            continue
        if words[0] in ("save", "restore"):
            serve_state(channel, scene, controllers, words)
            continue
        if fields and words[0] == "begin" and int(words[1]) == 1:
            # The force fields' init, where the run's state can be read (the first step's start),
            # as the script's own process calls it once the engine is made.
            run.time, run.dt = float(words[2]), float(words[3])
            what, e = call_init([calls.field for calls in fields.values()])
        else:
            what, e = None, None
        if e is None:
            what, e = call_event(run, controllers, words)
        if e is not None:
            sys.stdout.flush()
            channel.send("fail " + failure(e, scene, what))
            continue
        sys.stdout.flush()
        channel.send("done")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.stderr.write("usage: eis_controllers.py SCENE.py (with fd 3 the run's socket)\n")
        sys.exit(2)
    main(sys.argv[1], Channel(socket.socket(fileno=3)))
    sys.stdout.flush()
