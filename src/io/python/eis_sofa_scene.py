"""euler-implicit's Python front end: runs a SofaPython3 scene's createScene(rootNode) against
the stand-in Sofa package beside this file and prints the graph it built as SOFA's XML, each
element with eis-source="FILE:LINE". On failure: one line "FILE:LINE: what" on stderr, exit 1.
Usage: python3 eis_sofa_scene.py SCENE.py MAX_DEPTH (the deepest nesting of nodes the XML
reader takes)"""
import importlib.util
import os
import sys
import traceback
from xml.sax.saxutils import quoteattr

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import Sofa.Core  # noqa: E402


def opening(item):
    """The start tag of a node or the whole element of an object."""
    tag = "Node" if isinstance(item, Sofa.Core.Node) else item._type
    attributes = [("name", item.getName())] if item._named else []
    attributes += [(n, Sofa.Core.value_text(d._value)) for n, d in item._attributes()]
    attributes.append(("eis-source", item._source))
    text = " ".join("%s=%s" % (n, quoteattr(str(v))) for n, v in attributes)
    return "<%s %s%s>" % (tag, text, "" if isinstance(item, Sofa.Core.Node) else "/")


def graph_xml(root, max_depth, out):
    """The graph as XML lines. A loop, not recursion: a graph deeper than Python's recursion
    limit is still written, or refused by its depth. SOFA's XML parser (tinyxml2) reads nodes
    nested at most max_depth deep (the root is 1); deeper is refused here, at the scene line
    that made the node, rather than by the parser at a line of this generated text."""
    stack = [(root, 0, False)]
    while stack:
        item, depth, closing = stack.pop()
        pad = "  " * depth
        if closing:
            out.append("%s</Node>" % pad)
            continue
        if isinstance(item, Sofa.Core.Node) and depth >= max_depth:
            raise Sofa.Core.SceneError(
                "%s: node %s is nested deeper than %d nodes, the limit of SOFA's XML "
                "parser (tinyxml2)" % (item._source, item.getName(), max_depth))
        out.append(pad + opening(item))
        if isinstance(item, Sofa.Core.Node):
            stack.append((item, depth, True))
            stack.extend((child, depth + 1, False) for child in reversed(item._placed_items()))


class SceneExit(BaseException):
    """os._exit called by the scene: raised instead, so that the run can say where."""

    def __init__(self, status):
        BaseException.__init__(self, status)
        self.code = status


def scene_exit(status):
    raise SceneExit(status)


def scene_place(tb, scene):
    """FILE:LINE of the innermost traceback frame in the scene's folder, else the scene."""
    place = scene + ":0"
    for frame, line in traceback.walk_tb(tb):
        path = os.path.abspath(frame.f_code.co_filename)
        if path.startswith(Sofa.Core.SCENE_FOLDER + os.sep) and \
                not path.startswith(os.path.dirname(os.path.abspath(__file__)) + os.sep):
            place = "%s:%d" % (Sofa.Core.shown_path(frame.f_code.co_filename), line)
    return place


def exit_status(code):
    """The status sys.exit(code) gives: None 0, an int itself, anything else (a message) 1."""
    return 0 if code is None else code if isinstance(code, int) else 1


# Set by a script's main loop (eis_main_loop.py) for the run it starts: the graph it built, as
# XML, which stands for the scene's createScene (the script is not run again).
GRAPH = "EIS_MAIN_LOOP_GRAPH"


def main(scene, max_depth):
    Sofa.Core.DRIVER = True
    if os.environ.get(GRAPH):
        with open(os.environ[GRAPH]) as graph:
            sys.stdout.write(graph.read())
        return 0
    Sofa.Core.SCENE_FOLDER = os.path.dirname(os.path.abspath(scene))
    Sofa.Core.SCENE_FILE = scene
    sys.path.insert(1, Sofa.Core.SCENE_FOLDER)
    sys.argv = [scene]
    xml_out, sys.stdout = sys.stdout, sys.stderr  # what the scene prints is not the XML
    os._exit = scene_exit  # it would end the driver before it can say where
    try:
        spec = importlib.util.spec_from_file_location("eis_scene", scene)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        if not callable(getattr(module, "createScene", None)):
            sys.stderr.write("%s: the scene defines no createScene(rootNode)\n" % scene)
            return 1
        root = Sofa.Core.Node("root")
        root._source = "%s:%d" % (scene, module.createScene.__code__.co_firstlineno)
        module.createScene(root)
    except SyntaxError as e:
        sys.stderr.write("%s:%s: SyntaxError: %s\n" % (Sofa.Core.shown_path(e.filename or scene),
                                                     e.lineno or 0, e.msg))
        return 1
    except (SystemExit, SceneExit) as e:
        sys.stderr.write("%s: the scene exited (status %s) before createScene returned\n"
                         % (scene_place(e.__traceback__, scene), exit_status(e.code)))
        return 1
    except KeyboardInterrupt as e:
        sys.stderr.write("%s: the scene was interrupted (KeyboardInterrupt) before createScene "
                         "returned\n" % scene_place(e.__traceback__, scene))
        return 1
    except Exception as e:  # the scene's own error, named at its line in the scene
        what = "%s: %s" % (type(e).__name__, e) if not isinstance(e, Sofa.Core.SceneError) \
            else str(e)
        sys.stderr.write("%s: %s\n" % (scene_place(e.__traceback__, scene),
                                       " ".join(what.splitlines())))
        return 1
    out = ['<?xml version="1.0"?>']
    try:
        graph_xml(root, max_depth, out)
    except Sofa.Core.SceneError as e:
        sys.stderr.write("%s\n" % e)
        return 1
    xml_out.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3 or not sys.argv[2].isdigit():
        sys.stderr.write("usage: eis_sofa_scene.py SCENE.py MAX_DEPTH\n")
        sys.exit(2)
    sys.exit(main(sys.argv[1], int(sys.argv[2])))
