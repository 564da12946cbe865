"""A MechanicalObject's position or velocity .value in the script's process (eis_in_process.py):
an array-like that reads only what is asked. x[i], x[i, j], x[a:b], x[[i, j]] (rows by node,
any index along the first axis) fetch those rows alone: each rank puts in the rows it owns and
one Allreduce of the rows asked sums them (engine.rows). len(x) and x.shape need nothing.
Anything else (numpy arithmetic, numpy.asarray(x), x.tolist(), iteration, printing) takes the
whole array, gathered once per step and state (engine.state, gathered). Both are collective:
every rank runs the script and reads the same values at the same time. The values are read
when asked: a value kept across a step reads the new state, as SofaPython3's views do."""
import numpy


class LazyState:
    def __init__(self, live, body, velocity):
        self._live, self._key = live, (body, velocity)

    def _full(self):
        return self._live.whole(self._key)

    def __array__(self, dtype=None, copy=None):
        full = self._full()
        return full if dtype is None else full.astype(dtype)

    def __len__(self):
        return self._live.nodes(self._key[0])

    @property
    def shape(self):
        return (len(self), 3)

    ndim = 2
    dtype = numpy.dtype(float)

    def __getitem__(self, index):
        if self._live.has_whole(self._key):
            return self._full()[index]
        first, rest = (index[0], index[1:]) if isinstance(index, tuple) and index else (index, ())
        n = len(self)
        if isinstance(first, (int, numpy.integer)):
            if not -n <= first < n:
                raise IndexError("index %d is out of bounds for axis 0 with size %d" % (first, n))
            rows = self._live.rows(self._key, [first % n])[0]
        elif isinstance(first, slice):
            rows = self._live.rows(self._key, list(range(*first.indices(n))))
        elif isinstance(first, (list, numpy.ndarray)) and numpy.asarray(first).dtype.kind in "iu":
            ids = numpy.asarray(first).ravel()
            if ((ids < -n) | (ids >= n)).any():
                raise IndexError("index out of bounds for axis 0 with size %d" % n)
            rows = self._live.rows(self._key, (ids % n).tolist())
            rows = rows.reshape(numpy.asarray(first).shape + (3,))
        else:
            return self._full()[index]
        return rows[rest] if rest else rows

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self._full(), name)

    def __iter__(self):
        return iter(self._full())

    def __repr__(self):
        return repr(self._full())

    def __str__(self):
        return str(self._full())

    def __bool__(self):
        return bool(self._full())


def _forward(name):
    def method(self, *args):
        return getattr(self._full(), name)(*args)
    method.__name__ = name
    return method


for _name in ("add", "sub", "mul", "truediv", "floordiv", "pow", "matmul", "mod"):
    for _form in ("__%s__", "__r%s__"):
        setattr(LazyState, _form % _name, _forward(_form % _name))
for _name in ("neg", "pos", "abs", "eq", "ne", "lt", "le", "gt", "ge"):
    setattr(LazyState, "__%s__" % _name, _forward("__%s__" % _name))
LazyState.__hash__ = None
del _name, _form
