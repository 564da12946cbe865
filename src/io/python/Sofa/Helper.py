"""Sofa.Helper as euler-implicit reads a scene: SOFA's messages (msg_info, msg_warning,
msg_error, msg_deprecated, msg_fatal, msg_advice) and the MessageHandler a scene installs with
`with`. A message is printed as SOFA's console prints it, "[WARNING] [sender] text", on the
output euler-implicit passes through after the scene is read, and handed to every handler
installed at the time, as SofaPython3's dispatcher does; only the messages a scene emits itself
go there (the run's own report is euler-implicit's)."""
from . import Core

_HANDLERS = []
_EMITTER = "PythonScript"  # SofaPython3's sender of a message given without one


class MessageHandler:
    """A handler of messages: its process(msg) gets each message as a dict with SofaPython3's
    keys (type, isEmpty, sender, message, component) while it is installed (`with handler:`)."""

    def process(self, msg):
        pass

    def __enter__(self):
        _HANDLERS.append(self)
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        if self in _HANDLERS:
            _HANDLERS.remove(self)
        return False


def _emit(kind, args):
    """SofaPython3's forms: (text), (sender, text), (text, file, line), (sender, text, file,
    line); a sender is a name or a component of the graph."""
    if len(args) in (1, 3):
        sender, text = _EMITTER, args[0]
    elif len(args) in (2, 4):
        sender, text = args[0], args[1]
    else:
        raise TypeError("Invalid arguments type to function.")
    component = sender if isinstance(sender, (Core.Object, Core.Node)) else None
    if component is not None:
        sender = component.getName()
    elif not isinstance(sender, str):
        raise TypeError("The first parameter must be a string or a Sofa.Core.Base object")
    text = str(text)
    print("[%s] [%s] %s" % (kind.upper(), sender, text))
    message = {"type": kind, "isEmpty": not text, "sender": sender, "message": text,
               "component": component}
    for handler in list(_HANDLERS):
        handler.process(message)


def msg_info(*args):
    _emit("Info", args)


def msg_warning(*args):
    _emit("Warning", args)


def msg_error(*args):
    _emit("Error", args)


def msg_deprecated(*args):
    _emit("Deprecated", args)


def msg_fatal(*args):
    _emit("Fatal", args)


def msg_advice(*args):
    _emit("Advice", args)
