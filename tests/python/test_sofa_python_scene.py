"""The Python front end's XML for sample scenes, element by element, and its one-line errors.
Usage: python3 test_sofa_python_scene.py <folder of eis_sofa_scene.py> (run by ctest)."""
import importlib.util
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest
import xml.etree.ElementTree as ET

DRIVER = None


def run_scene(files):
    """Writes the files in a temporary folder and runs scene.py there through the driver (with
    tinyxml2's depth limit as the executable passes it)."""
    with tempfile.TemporaryDirectory() as folder:
        for name, text in files.items():
            with open(os.path.join(folder, name), "w") as f:
                f.write(textwrap.dedent(text))
        done = subprocess.run([sys.executable, "-B", DRIVER, "scene.py", "98"], cwd=folder,
                              capture_output=True, text=True)
    return done.returncode, done.stdout, done.stderr


def xml_of(test, text, **more):
    code, out, err = run_scene(dict({"scene.py": text}, **more))
    test.assertEqual(code, 0, err)
    return ET.fromstring(out)


def attributes(element):
    return {k: v for k, v in element.attrib.items() if k != "eis-source"}


class GraphTest(unittest.TestCase):
    def test_nodes_objects_and_root_data(self):
        root = xml_of(self, """\
            import Sofa.Core
            def createScene(root):
                root.gravity = [0, -9.81, 0]
                root.dt.value = 0.01
                root.addObject('DefaultAnimationLoop')
                a = root.addChild('a')
                b = a.addChild('b')
                b.addObject('MechanicalObject', name='dofs', template='Vec3d')
                root.createChild('c').createObject('UniformMass', totalMass=2)
            """)
        self.assertEqual(root.tag, "Node")
        self.assertEqual(attributes(root), {"name": "root", "gravity": "0 -9.81 0", "dt": "0.01"})
        self.assertEqual([e.tag for e in root], ["DefaultAnimationLoop", "Node", "Node"])
        self.assertEqual(attributes(root[0]), {})
        b = root[1][0]
        self.assertEqual(attributes(b), {"name": "b"})
        self.assertEqual(attributes(b[0]), {"name": "dofs", "template": "Vec3d"})
        self.assertEqual(attributes(root[2][0]), {"totalMass": "2"})

    def test_values(self):
        root = xml_of(self, """\
            class Array:  # what numpy arrays offer: tolist()
                def tolist(self):
                    return [[1.5, 2], [3, 4]]
            def createScene(root):
                root.addObject('X', name='x', f=0.1 + 0.2, big=1e8, t=True, n=False,
                               nested=[[0, 1], (2, [3.25])], array=Array(), s='a b', amp='<&">')
            """)
        self.assertEqual(attributes(root[0]), {
            "name": "x", "f": "0.30000000000000004", "big": "100000000.0", "t": "true",
            "n": "false", "nested": "0 1 2 3.25", "array": "1.5 2 3 4", "s": "a b",
            "amp": '<&">'})

    def test_numpy_arrays(self):
        try:
            import numpy  # noqa: F401
        except ImportError:
            self.skipTest("numpy is not installed")
        root = xml_of(self, """\
            import numpy as np
            def createScene(root):
                root.addObject('X', name='x', a=np.array([[0.1, 2.0], [3.0, 4.0]]), s=np.float64(0.5))
            """)
        self.assertEqual(attributes(root[0]), {"name": "x", "a": "0.1 2.0 3.0 4.0", "s": "0.5"})

    def test_links(self):
        root = xml_of(self, """\
            def createScene(root):
                beam = root.addChild('beam')
                loader = beam.addObject('MeshGmshLoader', name='loader', filename='m.msh')
                beam.addObject('A', name='a', src=loader.linkpath, p=loader.position.linkpath,
                               q=loader.findData('triangles').getLinkPath(), r=loader.getLinkPath(),
                               obj=loader, data=loader.edges, kept='@loader.position')
                assert loader.filename.value == 'm.msh'
                assert beam.loader is loader and beam.getObject('loader') is loader
                assert root.getChild('beam') is beam and root.beam is beam
                assert [c.name.value for c in root.children] == ['beam']
                assert loader.name.value == 'loader' and str(beam.name) == 'beam'
                assert root['beam.loader.filename'].value == 'm.msh'
                assert root['beam']['loader']['filename'].toList() == 'm.msh'
            """)
        self.assertEqual(attributes(root[0][1]), {
            "name": "a", "src": "@/beam/loader", "p": "@/beam/loader.position",
            "q": "@/beam/loader.triangles", "r": "@/beam/loader", "obj": "@/beam/loader",
            "data": "@/beam/loader.edges", "kept": "@loader.position"})

    def test_controller(self):
        root = xml_of(self, """\
            import Sofa.Core
            class Pusher(Sofa.Core.Controller):
                def __init__(self, *args, **kwargs):
                    Sofa.Core.Controller.__init__(self, *args, **kwargs)
                    self.count = 0
                def onAnimateBeginEvent(self, event):
                    self.count += 1
            class Bare(Sofa.Core.Controller):  # its __init__ does not call the base's
                def __init__(self, k):
                    self.k = k
            def createScene(root):
                root.addObject(Pusher(name='push'))
                root.addObject(Bare(3))
            """)
        self.assertEqual([e.tag for e in root], ["PythonController"] * 2)
        self.assertEqual(attributes(root[0]), {"name": "push", "class": "Pusher"})
        self.assertEqual(attributes(root[1]), {"name": "Bare", "class": "Bare"})

    def test_python_force_fields_and_mappings(self):
        root = xml_of(self, """\
            import Sofa.Core
            class Pull(Sofa.Core.ForceFieldVec3d):
                def __init__(self, *args, **kwargs):
                    Sofa.Core.ForceFieldVec3d.__init__(self, *args, **kwargs)
                    self.addData("ks", value=3.0)
                def addForce(self, m, forces, pos, vel):
                    pass
            class Stiff(Pull):
                def addDForce(self, m, df, dx):
                    pass
            class Shift(Sofa.Core.Mapping_Vec3d_Vec1d):
                def __init__(self, *args, **kwargs):
                    Sofa.Core.Mapping_Vec3d_Vec1d.__init__(self, *args, **kwargs)
            def createScene(root):
                root.addObject(Pull(name='pull'))
                root.addObject(Stiff(name='stiff'))
                root.addObject(Shift())
            """)
        self.assertEqual([e.tag for e in root],
                         ["PythonForceField", "PythonForceField", "PythonMapping"])
        # methods: those of SofaPython3's callbacks the class or its own bases define.
        self.assertEqual(attributes(root[0]), {"name": "pull", "class": "Pull",
                                               "base": "ForceFieldVec3d", "methods": "addForce"})
        self.assertEqual(attributes(root[1]),
                         {"name": "stiff", "class": "Stiff", "base": "ForceFieldVec3d",
                          "methods": "addForce addDForce"})
        self.assertEqual(attributes(root[2]),
                         {"name": "Shift", "class": "Shift", "base": "Mapping_Vec3d_Vec1d"})

    def test_link_paths_and_shared_nodes(self):
        """SofaPython3's linkpath is a LinkPath whose target() is the object or data it names
        (example-mapping.py reads it so); a node added to a second parent is written once,
        under the last, and a LinkPath taken before that names its new place."""
        root = xml_of(self, """\
            import Sofa.Core
            class Shift(Sofa.Core.Mapping_Vec3d_Vec3d):
                def __init__(self, *args, **kwargs):
                    for key in ("input", "output"):
                        kwargs[key] = kwargs[key].linkpath
                    Sofa.Core.Mapping_Vec3d_Vec3d.__init__(self, *args, **kwargs)
                    self.source = kwargs["input"].target().getName()
                    self.text = str(kwargs["output"])
            def createScene(root):
                model = root.addChild('Modelling')
                body = model.addChild('body')
                dofs = body.addObject('MechanicalObject', name='dofs', position=[0, 0, 0])
                child = body.addChild('child')
                out = child.addObject('MechanicalObject', name='out', position=[1, 1, 1])
                shift = child.addObject(Shift(name='shift', input=dofs, output=out))
                link = dofs.position.linkpath
                sim = root.addChild('Simulation')
                sim.addObject('EulerImplicitSolver')
                sim.addChild(model)
                child.addObject('UniformMass', name=shift.source + " " + shift.text,
                                indices=link, filename=link.target().getName())
            """)
        self.assertEqual([e.get("name") for e in root], ["Simulation"])
        sim = root[0]
        self.assertEqual([e.tag for e in sim], ["EulerImplicitSolver", "Node"])
        child = sim[1][0][1]
        self.assertEqual([e.tag for e in child], ["MechanicalObject", "PythonMapping",
                                                  "UniformMass"])
        self.assertEqual(attributes(child[2]),
                         {"name": "dofs @/Modelling/body/child/out",
                          "indices": "@/Simulation/Modelling/body/dofs.position",
                          "filename": "position"})

    @unittest.skipUnless(importlib.util.find_spec("numpy"), "SofaPython3's arrays need numpy")
    def test_given_state_vectors_are_arrays(self):
        """A MechanicalObject's given position or velocity reads as SofaPython3's: a numpy
        array of one row per node, as wide as the template (Vec3d when none is named)."""
        root = xml_of(self, """\
            import Sofa.Core
            def createScene(root):
                a = root.addObject('MechanicalObject', position=[0, 0, 0, 1, 2, 3])
                b = root.addObject('MechanicalObject', template='Vec1d', position="4 5")
                c = root.addObject('MechanicalObject', velocity=[[1, 1, 1], [2, 2, 2]])
                d = root.addObject('MechanicalObject', template='Vec3d', position="@loader")
                shapes = [a.position.value.shape, b.position.value.shape]
                moved = (c.velocity.value + a.position.value)[1].tolist()
                root.addObject('UniformMass', name=str(shapes + [moved, d.position.value]))
            """)
        self.assertEqual(root[4].get("name"), "[(2, 3), (2, 1), [3.0, 4.0, 5.0], '@loader']")

    def test_task_scheduler_and_linear_spring(self):
        """SofaPython3's Sofa.Core.TaskScheduler (threads asked, no effect here) and
        Sofa.SofaDeformable.LinearSpring (its fields and defaults), as a scene imports them."""
        root = xml_of(self, """\
            import os
            import Sofa.Core
            from Sofa.Core import TaskScheduler
            from Sofa import SofaDeformable
            def createScene(root):
                TaskScheduler.init(3)
                s = SofaDeformable.LinearSpring(1, 2, restLength=0.5)
                root.addObject("MechanicalObject", name=",".join(map(str, [
                    TaskScheduler.getThreadCount(),
                    TaskScheduler.GetHardwareThreadsCount() == os.cpu_count(),
                    s.index1, s.index2, s.springStiffness, s.dampingFactor, s.restLength,
                    s.elongationOnly, s.enabled])))
                TaskScheduler.stop()
            """)
        self.assertEqual(root[0].get("name"), "3,True,1,2,100,5,0.5,False,True")

    def test_messages(self):
        code, out, err = run_scene({"scene.py": """\
            import Sofa
            import Sofa.Helper
            from Sofa.Helper import msg_info
            class Seen(Sofa.Helper.MessageHandler):
                def __init__(self):
                    super().__init__()
                    self.seen = []
                def process(self, msg):
                    self.seen.append((msg["type"], msg["sender"], msg["message"],
                                      msg["component"] is not None))
            def createScene(root):
                with Seen() as seen:
                    msg_info("one")
                    Sofa.Helper.msg_warning("tool", "two")
                    solver = root.addObject('EulerImplicitSolver', name='ode')
                    Sofa.msg_error(solver, "three")
                    Sofa.Helper.msg_deprecated("four", "scene.py", 12)
                Sofa.Helper.msg_info("five")
                print(seen.seen)
            """})
        self.assertEqual(code, 0, err)
        self.assertEqual(err.splitlines(), [
            "[INFO] [PythonScript] one", "[WARNING] [tool] two", "[ERROR] [ode] three",
            "[DEPRECATED] [PythonScript] four", "[INFO] [PythonScript] five",
            "[('Info', 'PythonScript', 'one', False), ('Warning', 'tool', 'two', False), "
            "('Error', 'ode', 'three', True), ('Deprecated', 'PythonScript', 'four', False)]"])

    def test_source_lines_and_sibling_modules(self):
        root = xml_of(self, """\
            import SofaRuntime
            import parts
            SofaRuntime.importPlugin('Sofa.Component')

            def createScene(root):
                root.addObject('A')
                parts.add(root)

            if __name__ == '__main__':
                raise SystemExit('the main block must not run')
            """, **{"parts.py": """\
            def add(node):
                print('printed by the scene, not XML')
                return node.addChild('child')
            """})
        self.assertEqual(root.get("eis-source"), "scene.py:5")
        self.assertEqual(root[0].get("eis-source"), "scene.py:6")
        self.assertTrue(root[1].get("eis-source").endswith("parts.py:3"), root[1].attrib)


class ErrorTest(unittest.TestCase):
    def error(self, text):
        code, out, err = run_scene({"scene.py": text})
        self.assertEqual(code, 1)
        self.assertEqual(out, "")
        return err.strip().splitlines()[-1]

    def test_computed_data(self):
        self.assertEqual(self.error("""\
            def createScene(root):
                box = root.addObject('BoxROI', name='box', box=[0, 0, 0, 1, 1, 1])
                n = len(box.indices.value)
            """), "scene.py:3: /box.indices is computed by SOFA when the scene runs, which "
                  "euler-implicit does not do in Python; pass the link '@/box.indices' instead "
                  "of its value")

    def test_syntax_error(self):
        self.assertEqual(self.error("def createScene(root):\n    root.addObject('A'\n"),
                         "scene.py:2: SyntaxError: '(' was never closed")

    def test_missing_create_scene(self):
        self.assertEqual(self.error("x = 1\n"),
                         "scene.py: the scene defines no createScene(rootNode)")

    def test_exception_in_create_scene(self):
        self.assertEqual(self.error("""\
            def createScene(root):
                root.addObject('A')
                raise ValueError('bad\\nvalue')
            """), "scene.py:3: ValueError: bad value")

    def test_animate(self):
        self.assertIn("scene.py:3: Sofa.Simulation.animate", self.error("""\
            import Sofa.Simulation
            def createScene(root):
                Sofa.Simulation.animate(root, 0.01)
            """))


if __name__ == "__main__":
    DRIVER = os.path.join(os.path.abspath(sys.argv.pop(1)), "eis_sofa_scene.py")
    unittest.main()
