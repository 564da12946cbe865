"""Sofa.Core as euler-implicit reads a scene: Node, Object, Controller and Data record the graph
that createScene builds, with the scene line of each call; nothing is simulated here. While a
run's controllers run (eis_controllers.py), LIVE turns data reads and writes into requests to
the run."""
import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
DRIVER = False  # True in euler-implicit's drivers; False in a script run as python3 scene.py


def _main_script():
    """The script run as `python3 scene.py`, as its command line names it (None without one)."""
    path = getattr(sys.modules.get("__main__"), "__file__", None)
    if path and sys.argv and sys.argv[0] and os.path.abspath(sys.argv[0]) == os.path.abspath(path):
        return sys.argv[0]
    return path


# The drivers set both; a script's own main loop (Sofa.Simulation.init) places calls in it.
SCENE_FOLDER = os.path.dirname(os.path.abspath(_main_script())) if _main_script() else None


class SceneError(Exception):
    """A scene that cannot become euler-implicit's XML; the driver names the scene line."""


LIVE = None  # the running simulation while controllers run (eis_controllers.py), else None


def caller_source():
    """FILE:LINE of the innermost frame in a file of the scene's folder (the scene or a module
    it imported from there), outside this package."""
    frame = sys._getframe(1)
    while frame is not None:
        path = os.path.abspath(frame.f_code.co_filename)
        if SCENE_FOLDER and path.startswith(SCENE_FOLDER + os.sep) \
                and not path.startswith(os.path.dirname(_HERE) + os.sep):
            return "%s:%d" % (shown_path(frame.f_code.co_filename), frame.f_lineno)
        frame = frame.f_back
    return "?:0"


SCENE_FILE = _main_script()  # the scene's path as the user gave it, which messages name


def shown_path(path):
    """The scene as the user named it; another file of its folder by its full path."""
    if SCENE_FILE and os.path.abspath(path) == os.path.abspath(SCENE_FILE):
        return SCENE_FILE
    return path


def _flatten(value, out):
    if hasattr(value, "tolist"):
        value = value.tolist()
    if isinstance(value, (list, tuple)):
        for item in value:
            _flatten(item, out)
    else:
        out.append(value_text(value))


class LinkPath(str):
    """SofaPython3's LinkPath (what .linkpath gives): the link's text, "@/node/object" or
    "@/node/object.data", whose target() is the object, node or data it names."""

    def __new__(cls, owner):
        self = str.__new__(cls, owner._link_text())
        self._target = owner
        return self

    def target(self):
        return self._target


# SofaPython3 reads a MechanicalObject's vectors as arrays of one row per node, as wide as its
# template's coordinates (Vec3d when none is named).
_STATE_VECTORS = ("position", "velocity", "rest_position", "force", "externalForce")
_TEMPLATE_WIDTHS = {"Vec1d": 1, "Vec2d": 2, "Vec3d": 3, "Vec6d": 6, "Rigid2d": 3, "Rigid3d": 7}


def _state_rows(owner, name, value):
    """A MechanicalObject's given position (velocity, ...) as SofaPython3 returns it: a numpy
    array of one row per node; any other value, or without numpy, the value as given."""
    if not (isinstance(owner, Object) and owner._type == "MechanicalObject"
            and name in _STATE_VECTORS):
        return value
    template = owner._data.get("template")
    width = _TEMPLATE_WIDTHS.get(value_text(template._value) if template else "Vec3d")
    try:
        import numpy
        numbers = value.split() if isinstance(value, str) else value
        rows = numpy.array(numbers, dtype=float)
    except (ImportError, ValueError, TypeError):
        return value
    if width is None or rows.size % width:
        return value
    return rows.reshape(-1, width)


def value_text(value):
    """The text of a data value as a .scn attribute holds it."""
    if isinstance(value, LinkPath):
        return value.target().linkpath
    if isinstance(value, Data):
        return value.linkpath
    if isinstance(value, (Object, Node)):
        return value.linkpath
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, int):
        return str(value)
    if hasattr(value, "tolist") or isinstance(value, (list, tuple)):
        out = []
        _flatten(value, out)
        return " ".join(out)
    if hasattr(value, "item"):
        return value_text(value.item())
    raise SceneError("a data value of type %s cannot be written into a scene"
                     % type(value).__name__)


class Data:
    """One data field of an object or node: its value when the scene set it, its link path."""

    def __init__(self, owner, name, value=None, given=False):
        self._owner = owner
        self._name = name
        self._value = value
        self._given = given

    @property
    def value(self):
        if LIVE is not None:
            return LIVE.read(self)
        if not self._given:
            raise SceneError(
                "%s is computed by SOFA when the scene runs, which euler-implicit does not do "
                "in Python; pass the link '%s' instead of its value"
                % (self._owner.pathname() + "." + self._name, self.linkpath))
        return _state_rows(self._owner, self._name, self._value)

    @value.setter
    def value(self, value):
        if LIVE is not None:
            LIVE.write(self, value)
            return
        self._value = value
        self._given = True

    def __call__(self, *args, **kwargs):
        raise SceneError("%s.%s(): euler-implicit's Sofa package has no such method (it reads "
                         "%s as a data field)" % (self._owner.pathname(), self._name, self._name))

    def writeableArray(self):
        if LIVE is not None and hasattr(LIVE, "writeable"):
            return LIVE.writeable(self)
        raise SceneError("%s.%s: writeableArray() is not supported; a controller sets a "
                         "ConstantForceField's forces or the root's dt by assigning .value"
                         % (self._owner.pathname(), self._name))

    def _link_text(self):
        return self._owner.linkpath + "." + self._name

    @property
    def linkpath(self):
        return LinkPath(self)

    def getLinkPath(self):
        return self.linkpath

    def getName(self):
        return self._name

    def array(self):
        """The value as a numpy array (the value itself when numpy is absent)."""
        value = self.value
        try:
            import numpy
        except ImportError:
            return value
        return numpy.array(value)

    def toList(self):
        value = self.value
        return value.tolist() if hasattr(value, "tolist") else value

    def getValueString(self):
        return value_text(self.value)

    def isSet(self):
        return self._given

    def __str__(self):
        return value_text(self.value)

    def __eq__(self, other):
        return self.value == (other.value if isinstance(other, Data) else other)

    def __hash__(self):
        return id(self)


class _Base:
    """What nodes and objects share: named data fields, set and read as attributes."""

    def __init__(self, name):
        object.__setattr__(self, "_data", {})
        object.__setattr__(self, "_parent", None)
        object.__setattr__(self, "_source", "?:0")
        object.__setattr__(self, "_named", True)
        self._data["name"] = Data(self, "name", name, True)

    def _set(self, name, value):
        if isinstance(value, Data) and value._owner is self:
            return
        if LIVE is not None and not isinstance(self, _PythonComponent):
            getattr(self, name).value = value
            return
        self._data[name] = Data(self, name, value, True)

    def __setattr__(self, name, value):
        if name.startswith("_"):
            object.__setattr__(self, name, value)
        else:
            self._set(name, value)

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        if name not in self._data:
            self._data[name] = Data(self, name)
        return self._data[name]

    def findData(self, name):
        return getattr(self, name)

    def __getitem__(self, path):
        """SofaPython3's item access: node["child.object.data"], object["data"]."""
        item = self
        for part in path.split("."):
            item = getattr(item, part) if isinstance(item, _Base) else None
            if item is None:
                raise SceneError("no '%s' in %s" % (path, self.pathname()))
        return item

    def addData(self, name, value=None, help="", group="", type="", **_):
        self._set(name, value)
        return self._data[name]

    def getName(self):
        return self._data["name"]._value

    def getData(self, name):
        return self.findData(name)

    def getLinkPath(self):
        return self.linkpath

    def _attributes(self):
        return [(n, d) for n, d in self._data.items() if d._given and n != "name"]


class Object(_Base):
    """A component: its type and the data given to addObject or set later."""

    def __init__(self, type_name, name, **data):
        _Base.__init__(self, name)
        object.__setattr__(self, "_type", type_name)
        for key, value in data.items():
            self._set(key, value)

    def getClassName(self):
        return self._type

    def pathname(self):
        parent = self._parent.pathname() if self._parent is not None else ""
        return parent.rstrip("/") + "/" + self.getName()

    def getPathName(self):
        return self.pathname()

    def _link_text(self):
        return "@" + self.pathname()

    @property
    def linkpath(self):
        return LinkPath(self)

    def getContext(self):
        return self._parent

    def init(self):
        pass

    def assembleKMatrix(self):
        """SofaPython3's ForceField.assembleKMatrix(): df/dx (kFactor 1, no projective
        constraint), a scipy.sparse matrix in node order, read from the run by a controller."""
        return _component_matrix(self, "stiffness", "assembleKMatrix")

    def assembleMMatrix(self):
        """SofaPython3's Mass.assembleMMatrix(): the mass matrix, as assembleKMatrix."""
        return _component_matrix(self, "mass", "assembleMMatrix")


def _component_matrix(component, kind, method, read="matrix"):
    if LIVE is None or not hasattr(LIVE, read):
        raise SceneError("%s.%s(): the matrix is the run's; a controller (or the script, "
                         "between steps) reads it while the simulation runs"
                         % (component.pathname(), method))
    return getattr(LIVE, read)(component, kind)


def sparse_matrix(values, where, shape):
    """A matrix of `shape` read from the run ((row, column, value) of each stored entry, zeros
    kept) as SofaPython3 returns one: a scipy.sparse CSR matrix."""
    try:
        from scipy import sparse
    except ImportError:
        raise SceneError("%s: reading a matrix needs scipy, as SofaPython3's does" % where) \
            from None
    rows = [int(r) for r in values[0::3]]
    columns = [int(c) for c in values[1::3]]
    return sparse.csr_matrix((list(values[2::3]), (rows, columns)), shape=shape)


class LinearSystem(Object):
    """A MatrixLinearSystem (SofaPython3's Sofa.SofaLinearSystem binding): the matrix,
    right-hand side and solution of its body's last linear solve, or the matrix of SOFA's
    mass-only system beside it, read by a controller (the run says which it is)."""

    def get_system_matrix(self):
        return _component_matrix(self, "system", "get_system_matrix")

    def get_rhs_vector(self):
        return _component_matrix(self, "rhs", "get_rhs_vector", "vector")

    def get_solution_vector(self):
        return _component_matrix(self, "solution", "get_solution_vector", "vector")

    A, b, x = get_system_matrix, get_rhs_vector, get_solution_vector


LINEAR_SYSTEMS = ("MatrixLinearSystem", "ConstantSparsityPatternSystem")


class ConstraintSolver(Object):
    """A Lagrangian constraint solver (SofaPython3's Sofa.SofaConstraintSolver binding): the
    last constraint problem's compliance W and multipliers, read by a controller (in its
    onBuildConstraintSystemEndEvent and onSolveConstraintSystemEndEvent, sent after the step)."""

    def W(self):
        """The m x m compliance W = J A^-1 J^T (times h in the position order, the
        regularization included): a numpy array."""
        import numpy
        values = _component_matrix(self, "compliance", "W", "vector")
        m = int(values[0])
        return numpy.array(values[1:]).reshape(m, m)

    def lambda_force(self):
        """The m constraint forces the solver found (an impulse: the force times h)."""
        return _component_matrix(self, "lambda", "lambda_force", "vector")

    def dfree(self):
        """The m free violations the forces were solved against."""
        return _component_matrix(self, "dfree", "dfree", "vector")


CONSTRAINT_SOLVERS = ("BlockGaussSeidelConstraintSolver", "UnbuiltGaussSeidelConstraintSolver",
                      "NNCGConstraintSolver", "PreconditionedConjugateResidual",
                      "LCPConstraintSolver", "GenericConstraintSolver")


BaseObject = Object


def _linked(value):
    """The object a link names: a LinkPath's target, or an object; None for a link's text."""
    if isinstance(value, LinkPath):
        return value.target()
    return value if isinstance(value, _Base) else None


class _PythonComponent(Object):
    """A component written in Python (SofaPython3's Controller, ForceField*, Mapping_*): recorded
    as the type _kind with its class and base. Controllers run with the simulation
    (eis_controllers.py), force fields in the script's process (eis_force_fields.py); the
    importer refuses mappings by that type."""
    _kind = "PythonController"

    def __new__(cls, *args, **kwargs):
        self = object.__new__(cls)
        Object.__init__(self, cls._kind, kwargs.get("name", cls.__name__))
        return self

    def __init__(self, *args, **kwargs):
        if "name" in kwargs:
            self._set("name", kwargs["name"])
        # A mapping's input and output links: the states its apply reads and writes.
        links = {key: _linked(kwargs[key]) for key in ("input", "output") if key in kwargs}
        object.__setattr__(self, "_links", links)

    def __setattr__(self, name, value):
        """SofaPython3's rule: a data field of the component is set, anything else is a plain
        Python attribute (a controller's own state)."""
        if name.startswith("_") or name not in self._data:
            object.__setattr__(self, name, value)
        else:
            self._data[name]._value = value
            self._data[name]._given = True

    def __getattr__(self, name):
        if name.startswith("_") or name not in self._data:
            raise AttributeError("'%s' object has no attribute '%s'" % (type(self).__name__, name))
        return self._data[name]

    def _attributes(self):
        base = next((k.__name__ for k in type(self).__mro__ if k.__module__ == __name__), "")
        attributes = [("class", Data(self, "class", type(self).__name__, True)),
                      ("base", Data(self, "base", base, True))]
        if self._kind == "PythonForceField":
            # Which of SofaPython3's callbacks the class defines: the importer picks the
            # operator from them (addDForce without addKToMatrix: matrix-free under a CG).
            own = [m for m in ("addForce", "addDForce", "addKToMatrix")
                   if any(m in vars(k) for k in type(self).__mro__
                          if k.__module__ != __name__ and k is not object)]
            attributes.append(("methods", Data(self, "methods", " ".join(own), True)))
        return attributes


class _Vector:
    """A mapping's argument (SofaPython3's data of a state vector): .value, and
    writeableArray() for the output, which apply fills in place."""

    def __init__(self, value):
        self.value = value

    def writeableArray(self):
        vector = self

        class Block:
            def __enter__(self):
                return vector.value

            def __exit__(self, *exc):
                return False
        return Block()

    def __str__(self):
        return str(self.value)


def mapped_position(state, read):
    """The position of `state` (a MechanicalObject) when a mapping written in Python in its node
    has it as output: the mapping's apply on its input's position, which `read` gives (the run's
    current state), computed when read as SOFA's apply would have left it; else None. Its given
    position is the output's start (its row count and the values apply overwrites)."""
    for mapping in state._parent.objects:
        if getattr(mapping, "_kind", "") != "PythonMapping":
            continue
        links = getattr(mapping, "_links", {})
        output, source = links.get("output"), links.get("input")
        if output is not state or source is None:
            continue
        import numpy
        out = _Vector(numpy.array(_state_rows(state, "position", state._data["position"]._value)
                                  if "position" in state._data else [], dtype=float))
        mapping.apply({"time": 0.0, "mFactor": 0.0, "bFactor": 0.0, "kFactor": 0.0,
                       "isImplicit": False, "energy": False},
                      out, _Vector(numpy.array(read(source.position), dtype=float)))
        out.value.flags.writeable = False
        return out.value
    return None


class Controller(_PythonComponent):
    """A Python controller: recorded by its class; its init, bwdInit, onAnimateBeginEvent and
    onAnimateEndEvent run with the simulation (eis_controllers.py)."""

    def _attributes(self):
        return [("class", Data(self, "class", type(self).__name__, True))]


def __getattr__(name):
    """SofaPython3's bases of Python force fields (ForceFieldVec3d, ForceFieldRigid3d, ...) and
    mappings (Mapping_Vec3d_Vec3d, ...), made on first use: each template has its own."""
    kinds = {"ForceField": "PythonForceField", "Mapping_": "PythonMapping"}
    for prefix, kind in kinds.items():
        if name.startswith(prefix) and len(name) > len(prefix):
            base = type(name, (_PythonComponent,), {"_kind": kind, "__module__": __name__})
            globals()[name] = base
            return base
    raise AttributeError("module 'Sofa.Core' has no attribute '%s'" % name)


class Node(_Base):
    """A node of the graph: its data (gravity, dt), its objects and children in call order."""

    def __init__(self, name="root"):
        _Base.__init__(self, name)
        object.__setattr__(self, "_items", [])

    def addObject(self, type_name, *args, **data):
        if LIVE is not None:
            raise SceneError("addObject while the simulation runs is not supported: the graph "
                             "is built by createScene")
        if isinstance(type_name, Object):
            obj = type_name
        elif isinstance(type_name, str):
            named = "name" in data
            kind = LinearSystem if type_name in LINEAR_SYSTEMS else \
                ConstraintSolver if type_name in CONSTRAINT_SOLVERS else Object
            obj = kind(type_name, data.pop("name", type_name), **data)
            obj._named = named
        else:
            raise SceneError("addObject takes a type name or an object, not %s"
                             % type(type_name).__name__)
        obj._parent = self
        obj._source = caller_source()
        self._items.append(obj)
        return obj

    createObject = addObject

    def addChild(self, child, **data):
        if LIVE is not None:
            raise SceneError("addChild while the simulation runs is not supported: the graph "
                             "is built by createScene")
        if isinstance(child, str):
            child = Node(child)
        elif not isinstance(child, Node):
            raise SceneError("addChild takes a name or a Node, not %s" % type(child).__name__)
        for key, value in data.items():
            child._set(key, value)
        child._parent = self
        child._source = caller_source()
        self._items.append(child)
        return child

    createChild = addChild

    @property
    def children(self):
        return [item for item in self._items if isinstance(item, Node)]

    def _placed_items(self):
        """The objects and children placed under this node: SofaPython3's graph is a DAG, the
        XML a tree, so a node added to a second parent is placed under the last, where its
        Modelling and Simulation idiom puts the solver that integrates it; the writer and the
        drivers visit it there, once."""
        return [item for item in self._items if item._parent is self]

    @property
    def objects(self):
        return [item for item in self._items if not isinstance(item, Node)]

    def getChild(self, name):
        return next((c for c in self.children if c.getName() == name), None)

    def getObject(self, name):
        return next((o for o in self.objects if o.getName() == name), None)

    def __getattr__(self, name):
        if not name.startswith("_"):
            for item in self._items:
                if item.getName() == name:
                    return item
        return _Base.__getattr__(self, name)

    def getRoot(self):
        return self if self._parent is None else self._parent.getRoot()

    def getContext(self):
        """SofaPython3's Node.getContext(): the node itself (a node is its own context)."""
        return self

    def getTime(self):
        """The simulated time: the root's time data, read from the run (0 before the first
        step; after step k, k dt)."""
        return self.getRoot().time.value

    def getDt(self):
        return self.getRoot().dt.value

    def pathname(self):
        if self._parent is None:
            return "/"
        return self._parent.pathname().rstrip("/") + "/" + self.getName()

    def getPathName(self):
        return self.pathname()

    def _link_text(self):
        return "@" + self.pathname()

    @property
    def linkpath(self):
        return LinkPath(self)

    def init(self):
        pass


class TaskScheduler:
    """SofaPython3's Sofa.Core.TaskScheduler: the threads of SOFA's main task scheduler. Here the
    work is shared by MPI ranks (mpiexec -n N), not threads: init records the count asked and
    changes nothing."""
    _threads = 0

    @staticmethod
    def init(nbThreads):
        TaskScheduler._threads = int(nbThreads)

    @staticmethod
    def getThreadCount():
        return TaskScheduler._threads

    @staticmethod
    def stop():
        TaskScheduler._threads = 0

    @staticmethod
    def GetHardwareThreadsCount():
        return os.cpu_count() or 1
