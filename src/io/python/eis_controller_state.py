"""A checkpoint's record of the Python controllers' own state (io/python_controllers.cpp): each
controller's attributes, and the values of the data fields it gave itself (addData), that are
plain Python data, pickled; what refers to the scene (a Data, a node, a component, a link path,
or containers of them only) is left as createScene makes it again; anything else is named as
not held, and a restart from the record refuses it unless forced (the restarted run would
differ from the one that wrote it).

capture(controllers) -> bytes; restore(controllers, bytes, force) -> the warning, or "".
"""
import io
import pickle

import Sofa.Core

# What Sofa.Core's components keep for themselves: not the controller's state.
OWN = ("_data", "_parent", "_source", "_named", "_type", "_links")
PLAIN = (type(None), bool, int, float, complex, str, bytes)
CONTAINERS = (list, tuple, set, frozenset)
DEPTH = 64  # a deeper (or cyclic) structure is not held

# What the unpickler may make besides the built-in containers: numpy's arrays and scalars.
NUMPY = {"_reconstruct", "scalar", "ndarray", "dtype", "_frombuffer"}
NUMPY_MODULES = ("numpy", "numpy.core.multiarray", "numpy._core.multiarray",
                 "numpy.core.numeric", "numpy._core.numeric")
BUILTINS = {"complex", "set", "frozenset", "bytearray"}


def kind(value, depth=0):
    """"scene" (refers to the scene only), "plain" (held faithfully) or None (neither)."""
    if isinstance(value, (Sofa.Core._Base, Sofa.Core.Data, Sofa.Core.LinkPath)):
        return "scene"
    if isinstance(value, PLAIN):
        return "plain"
    if depth > DEPTH:
        return None
    try:
        import numpy
    except ImportError:
        numpy = None
    if numpy is not None and isinstance(value, numpy.generic):
        return "plain" if not isinstance(value, numpy.object_) else None
    if numpy is not None and type(value) is numpy.ndarray:
        return None if value.dtype.hasobject else "plain"
    if type(value) in CONTAINERS or type(value) is dict:
        items = list(value) if type(value) is not dict else \
            [x for pair in value.items() for x in pair]
        kinds = {kind(x, depth + 1) for x in items}
        if not kinds:
            return "plain"
        return kinds.pop() if len(kinds) == 1 else None
    return None


def keys(controllers):
    """Each controller's key in the record: its path, then #2, #3... for a path met again."""
    seen, out = {}, []
    for c in controllers:
        path = c.pathname()
        seen[path] = seen.get(path, 0) + 1
        out.append(path if seen[path] == 1 else "%s#%d" % (path, seen[path]))
    return out


def state_of(c):
    """The controller's own state: (name, value) of its attributes and ("data NAME", value) of
    the data fields it gave itself."""
    items = [(n, v) for n, v in vars(c).items() if n not in OWN]
    items += [("data " + n, d._value) for n, d in c._data.items() if d._given and n != "name"]
    return items


def capture(controllers):
    saved, unsaved = {}, []
    for key, c in zip(keys(controllers), controllers):
        own = {}
        for name, value in state_of(c):
            found = kind(value)
            if found == "plain":
                own[name] = value
            elif found is None:
                unsaved.append((key, type(c).__name__, name, type(value).__name__))
        saved[key] = own
    return pickle.dumps({"saved": saved, "unsaved": unsaved}, protocol=4)


class _Unpickler(pickle.Unpickler):
    """Makes only what capture() writes: built-in data and numpy's arrays and scalars."""

    def find_class(self, module, name):
        if (module in NUMPY_MODULES and name in NUMPY) or \
                (module == "builtins" and name in BUILTINS):
            return super().find_class(module, name)
        raise pickle.UnpicklingError("%s.%s is not plain data" % (module, name))


def restore(controllers, record, force):
    """Sets each controller's held state; raises SceneError for a record that does not fit the
    controllers, or one naming an attribute it could not hold (unless `force`: then that
    attribute stays as createScene made it, and the warning is returned)."""
    try:
        held = _Unpickler(io.BytesIO(record)).load()
        saved, unsaved = held["saved"], held["unsaved"]
    except Exception as e:  # noqa: B902 (a damaged record is one line)
        raise Sofa.Core.SceneError("the controllers' state in the checkpoint cannot be read: "
                                   "%s: %s" % (type(e).__name__, e))
    own = dict(zip(keys(controllers), controllers))
    missing = [key for key in saved if key not in own]
    if missing or len(saved) != len(own):
        raise Sofa.Core.SceneError(
            "the checkpoint holds the state of the controllers %s, the scene has %s"
            % (", ".join(sorted(saved)) or "none", ", ".join(sorted(own)) or "none"))
    warning = ""
    if unsaved:
        key, cls, name, typename = unsaved[0]
        what = "controller %s (%s): attribute '%s' (a %s) could not be held by the checkpoint" \
            % (key, cls, name.replace("data ", "data field ", 1) if name.startswith("data ")
               else name, typename)
        more = " (and %d more)" % (len(unsaved) - 1) if len(unsaved) > 1 else ""
        if not force:
            raise Sofa.Core.SceneError(
                "%s%s: the restarted run would differ from the one that wrote it "
                "(--restart-force restarts with it as createScene makes it)" % (what, more))
        warning = "%s%s; restarted with it as createScene makes it (--restart-force)" \
            % (what, more)
    for key, values in saved.items():
        c = own[key]
        for name, value in values.items():
            if name.startswith("data "):
                data = c._data.get(name[5:])
                if data is None:
                    data = c._data[name[5:]] = Sofa.Core.Data(c, name[5:])
                data._value, data._given = value, True
            else:
                object.__setattr__(c, name, value)
    return warning
