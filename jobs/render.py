#!/usr/bin/python3
"""Renders the last step of a ParaView series of euler-implicit (output.vtk: PREFIX.pvd) to a PNG,
off-screen: the deformed shape (rest points warped by "displacement") coloured by von Mises
stress, over the rest shape in grey. Needs Debian's python3-vtk9; without a display it runs
itself under xvfb-run (Debian's xvfb)."""
import argparse
import os
import shutil
import sys
import xml.etree.ElementTree as ElementTree


def fail(message):
    print(f"render: error: {message}", file=sys.stderr)
    sys.exit(1)


def last_step(pvd):
    """The .pvtu of the last step the series lists, and its time."""
    try:
        root = ElementTree.parse(pvd).getroot()
    except OSError as error:
        fail(f"cannot read '{pvd}': {error.strerror}")
    except ElementTree.ParseError as error:
        fail(f"'{pvd}' is not a ParaView series: {error}")
    steps = root.findall("./Collection/DataSet")
    if not steps:
        fail(f"'{pvd}' lists no step")
    step = max(steps, key=lambda dataset: float(dataset.get("timestep", "0")))
    path = os.path.join(os.path.dirname(pvd), step.get("file", ""))
    if not os.path.isfile(path):
        fail(f"'{pvd}' names '{path}', which does not exist")
    return path, float(step.get("timestep", "0"))


def surface_actor(vtk, source, colour_by=None):
    """The outer surface (ghost cells left out) of `source` as an actor."""
    surface = vtk.vtkGeometryFilter()
    surface.SetInputConnection(source.GetOutputPort())
    mapper = vtk.vtkDataSetMapper()
    mapper.SetInputConnection(surface.GetOutputPort())
    actor = vtk.vtkActor()
    actor.SetMapper(mapper)
    if colour_by is None:
        mapper.ScalarVisibilityOff()
        actor.GetProperty().SetColor(0.7, 0.7, 0.7)
        actor.GetProperty().SetOpacity(0.35)
    else:
        name, value_range = colour_by
        mapper.SetScalarModeToUseCellFieldData()
        mapper.SelectColorArray(name)
        mapper.SetScalarRange(value_range)
        lookup = vtk.vtkLookupTable()
        lookup.SetHueRange(0.667, 0.0)
        lookup.Build()
        mapper.SetLookupTable(lookup)
    return actor, mapper


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("pvd", help="ParaView series written by --output.vtk=PREFIX (PREFIX.pvd)")
    parser.add_argument("png", help="PNG file to write")
    parser.add_argument("--size", default="1200x500", help="image width x height in pixels")
    parser.add_argument("--up", default="0,1,0", help="the direction shown upwards: X,Y,Z")
    parser.add_argument("--from", dest="eye", default="0.4,0.3,1",
                        help="the direction the camera looks from: X,Y,Z")
    args = parser.parse_args()
    try:
        width, height = (int(part) for part in args.size.lower().split("x"))
    except ValueError:
        fail(f"--size '{args.size}' is not WIDTHxHEIGHT")
    try:
        up, eye = ([float(part) for part in text.split(",")] for text in (args.up, args.eye))
    except ValueError:
        up, eye = [], []
    if len(up) != 3 or len(eye) != 3:
        fail(f"--up '{args.up}' and --from '{args.eye}' must be X,Y,Z")
    if not os.path.isfile(args.pvd):
        fail(f"cannot read '{args.pvd}': no such file")
    if not os.environ.get("DISPLAY") and not os.environ.get("EIS_RENDER_XVFB"):
        if shutil.which("xvfb-run") is None:
            fail("no display, and xvfb-run is not installed (Debian package xvfb)")
        os.environ["EIS_RENDER_XVFB"] = "1"
        os.execvp("xvfb-run", ["xvfb-run", "-a", sys.executable] + sys.argv)
    try:
        import vtk
    except ImportError:
        fail("cannot import vtk (Debian package python3-vtk9)")

    pvtu, time = last_step(args.pvd)
    reader = vtk.vtkXMLPUnstructuredGridReader()
    reader.SetFileName(pvtu)
    reader.Update()
    grid = reader.GetOutput()
    stress = grid.GetCellData().GetArray("von_mises")
    if stress is None or grid.GetPointData().GetArray("displacement") is None:
        fail(f"'{pvtu}' has no von_mises and displacement (not an elasticity run)")
    warp = vtk.vtkWarpVector()
    warp.SetInputConnection(reader.GetOutputPort())
    warp.SetInputArrayToProcess(0, 0, 0, vtk.vtkDataObject.FIELD_ASSOCIATION_POINTS, "displacement")

    rest, _ = surface_actor(vtk, reader)
    deformed, mapper = surface_actor(vtk, warp, ("von_mises", stress.GetRange()))
    bar = vtk.vtkScalarBarActor()
    bar.SetLookupTable(mapper.GetLookupTable())
    bar.SetTitle("von Mises (Pa)")
    bar.SetNumberOfLabels(5)
    bar.SetOrientationToHorizontal()
    bar.SetPosition(0.25, 0.02)
    bar.SetWidth(0.5)
    bar.SetHeight(0.12)
    label = vtk.vtkTextActor()
    label.SetInput(f"t = {time:g} s")
    label.SetPosition(10, height - 30)
    label.GetTextProperty().SetColor(0, 0, 0)
    label.GetTextProperty().SetFontSize(18)

    renderer = vtk.vtkRenderer()
    renderer.SetBackground(1, 1, 1)
    for actor in (rest, deformed, bar, label):
        renderer.AddActor(actor)
    for text in (bar.GetTitleTextProperty(), bar.GetLabelTextProperty()):
        text.SetColor(0, 0, 0)
    camera = renderer.GetActiveCamera()
    camera.SetViewUp(*up)
    camera.SetPosition(*eye)
    camera.SetFocalPoint(0, 0, 0)
    renderer.ResetCamera()
    camera.Zoom(1.3)
    window = vtk.vtkRenderWindow()
    window.SetOffScreenRendering(1)
    window.AddRenderer(renderer)
    window.SetSize(width, height)
    window.Render()
    capture = vtk.vtkWindowToImageFilter()
    capture.SetInput(window)
    capture.Update()
    writer = vtk.vtkPNGWriter()
    writer.SetFileName(args.png)
    writer.SetInputConnection(capture.GetOutputPort())
    writer.Write()
    if not os.path.isfile(args.png) or os.path.getsize(args.png) == 0:
        fail(f"cannot write '{args.png}'")


if __name__ == "__main__":
    main()
