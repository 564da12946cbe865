"""Force fields written in Python (Sofa.Core.ForceFieldVec3d subclasses) in the script's process
(eis_in_process.py): the engine calls FieldCalls from inside a step, on every rank, with every
node's values in node order (model/gathered_force_field: one Allgatherv per call), and each rank
keeps the rows of the nodes it owns.

As SofaPython3 calls them: addForce(mparams, f, x, v) adds the force into f; addDForce(mparams,
df, dx) adds kFactor (df/dx) dx into df, mparams["kFactor"] given; addKToMatrix(mparams, nNodes,
nDofs) returns kFactor K as a (nNodes nDofs) x (nNodes nDofs) x 1 array or as rows (i, j, value)
over scalar unknowns. f, x, v, df and dx are data: .value (a numpy array of nNodes rows of 3),
.array(), item access, and for f and df writeableArray() or writeable() (`with ... as a:`).
addKToMatrix is called once per addForce, after it, with kFactor 1 (mFactor and bFactor 0), and
the engine scales it by each step's kFactor."""
import numpy

import Sofa.Core


class FieldFailure(Exception):
    """A failure already said in one line: FILE:LINE: in Class.method: what."""


class VecData:
    """One vector argument of addForce or addDForce: the values of every node."""

    def __init__(self, name, array, writeable):
        self._name = name
        self._array = array
        self._writeable = writeable
        if not writeable:
            array.flags.writeable = False

    @property
    def value(self):
        return self._array

    @value.setter
    def value(self, value):
        self._check_writeable()
        self._array[...] = value

    def array(self):
        return self._array

    def _check_writeable(self):
        if not self._writeable:
            raise Sofa.Core.SceneError("%s is read only here" % self._name)

    def writeableArray(self):
        self._check_writeable()
        return _Block(self._array)

    writeable = writeableArray

    def getName(self):
        return self._name

    def __getitem__(self, index):
        return self._array[index]

    def __setitem__(self, index, value):
        self._check_writeable()
        self._array[index] = value

    def __len__(self):
        return len(self._array)

    def __iter__(self):
        return iter(self._array)


class _Block:
    """with data.writeableArray() as a: the array itself (no copy)."""

    def __init__(self, array):
        self.array = array

    def __enter__(self):
        return self.array

    def __exit__(self, kind, e, tb):
        return False


def _has_own(field, method):
    return any(method in vars(k) for k in type(field).__mro__
               if k.__module__ != Sofa.Core.__name__ and k is not object)


def stiffness_entries(K, nodes, dofs):
    """SofaPython3's two forms of addKToMatrix's answer as rows (i, j, value)."""
    if not isinstance(K, numpy.ndarray):
        raise TypeError("Can't read return value of AddKToMatrix. A numpy array is expected")
    if K.ndim == 3 and K.shape[2] == 1:
        n = nodes * dofs
        if K.shape[0] > n or K.shape[1] > n:
            raise TypeError("addKToMatrix gave a %d x %d matrix for %d unknowns"
                            % (K.shape[0], K.shape[1], n))
        i, j = numpy.nonzero(K[:, :, 0])
        return numpy.column_stack((i, j, K[i, j, 0])).astype(float)
    if K.ndim == 2 and K.shape[1] == 3:
        return numpy.asarray(K, dtype=float)
    raise TypeError("Can't read return value of AddKToMatrix. The method should return either a "
                    "plain 2D matrix or a vector of tuples (i, j, val)")


class FieldCalls:
    """What the engine calls for one force field: add_force, add_dforce and stiffness."""

    def __init__(self, field, session):
        self.field, self.session = field, session
        self.has_stiffness = _has_own(field, "addKToMatrix")

    def _mparams(self, **factors):
        mparams = {"time": self.session.live.time, "mFactor": 0.0, "bFactor": 0.0,
                   "kFactor": 0.0, "isImplicit": True}
        mparams.update(factors)
        return mparams

    def _call(self, method, *args):
        from eis_controllers import failure, where
        name = "%s.%s" % (where(self.field), method)
        try:
            if not callable(getattr(self.field, method, None)):
                raise Sofa.Core.SceneError(
                    "the force field has no %s, which the step calls" % method)
            return getattr(self.field, method)(*args)
        except BaseException as e:  # noqa: B902 (every way out is one line; the step's
            # failure says which step)
            raise FieldFailure(failure(e, self.session.scene, name)) from None

    def add_force(self, x, v):
        f = numpy.zeros_like(x)
        self._call("addForce", self._mparams(energy=False), VecData("f", f, True),
                   VecData("x", x, False), VecData("v", v, False))
        return f

    def add_dforce(self, dx, k_factor):
        df = numpy.zeros_like(dx)
        mparams = self._mparams(kFactor=k_factor)
        mparams["nFactor"] = 0.0  # SofaPython3's name of mFactor in addDForce
        self._call("addDForce", mparams, VecData("df", df, True), VecData("dx", dx, False))
        return df

    def stiffness(self, nodes, dofs):
        K = self._call("addKToMatrix", self._mparams(kFactor=1.0), nodes, dofs)
        try:
            return stiffness_entries(K, nodes, dofs)
        except TypeError as e:
            raise FieldFailure("%s: in %s.addKToMatrix: %s"
                               % (self.field._source, type(self.field).__name__, e)) from None


def force_fields_of(root):
    """The force fields written in Python in graph order."""
    found, nodes = [], [root]
    while nodes:
        node = nodes.pop(0)
        found.extend(o for o in node.objects if isinstance(o, Sofa.Core._PythonComponent)
                     and o._kind == "PythonForceField")
        nodes[0:0] = [c for c in node._placed_items() if isinstance(c, Sofa.Core.Node)]
    return found


def lookup(fields, session):
    """The engine's lookup: a field's FieldCalls by its object path."""
    by_path = {f.pathname(): FieldCalls(f, session) for f in fields}
    return by_path.get
