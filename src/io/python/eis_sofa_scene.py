"""euler-implicit's Python front end: runs a SofaPython3 scene's createScene(rootNode) against
the stand-in Sofa package beside this file and prints the graph it built as SOFA's XML, each
element with eis-source="FILE:LINE". On failure: one line "FILE:LINE: what" on stderr, exit 1.
Usage: python3 eis_sofa_scene.py SCENE.py"""
import importlib.util
import os
import sys
import traceback
from xml.sax.saxutils import quoteattr

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import Sofa.Core  # noqa: E402


def element(item, depth, out):
    pad = "  " * depth
    tag = "Node" if isinstance(item, Sofa.Core.Node) else item._type
    attributes = [("name", item.getName())] if item._named else []
    attributes += [(n, Sofa.Core.value_text(d._value)) for n, d in item._attributes()]
    attributes.append(("eis-source", item._source))
    text = " ".join("%s=%s" % (n, quoteattr(str(v))) for n, v in attributes)
    if isinstance(item, Sofa.Core.Node):
        out.append("%s<Node %s>" % (pad, text))
        for child in item._items:
            element(child, depth + 1, out)
        out.append("%s</Node>" % pad)
    else:
        out.append("%s<%s %s/>" % (pad, tag, text))


def scene_place(tb, scene):
    """FILE:LINE of the innermost traceback frame in the scene's folder, else the scene."""
    place = scene + ":0"
    for frame, line in traceback.walk_tb(tb):
        path = os.path.abspath(frame.f_code.co_filename)
        if path.startswith(Sofa.Core.SCENE_FOLDER + os.sep) and \
                not path.startswith(os.path.dirname(os.path.abspath(__file__)) + os.sep):
            place = "%s:%d" % (Sofa.Core.shown_path(frame.f_code.co_filename), line)
    return place


def main(scene):
    Sofa.Core.SCENE_FOLDER = os.path.dirname(os.path.abspath(scene))
    Sofa.Core.SCENE_FILE = scene
    sys.path.insert(1, Sofa.Core.SCENE_FOLDER)
    sys.argv = [scene]
    xml_out, sys.stdout = sys.stdout, sys.stderr  # what the scene prints is not the XML
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
    except Exception as e:  # the scene's own error, named at its line in the scene
        what = "%s: %s" % (type(e).__name__, e) if not isinstance(e, Sofa.Core.SceneError) \
            else str(e)
        sys.stderr.write("%s: %s\n" % (scene_place(e.__traceback__, scene),
                                       " ".join(what.splitlines())))
        return 1
    out = ['<?xml version="1.0"?>']
    element(root, 0, out)
    xml_out.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.stderr.write("usage: eis_sofa_scene.py SCENE.py\n")
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
