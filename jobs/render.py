#!/usr/bin/python3
"""Renders one step of an euler-implicit series to a PNG, off-screen: the deformed shape (rest
points warped by "displacement") coloured by one of its arrays, over the rest shape in grey. The
series is a ParaView one (output.vtk: PREFIX.pvd) or an XDMF one (output.xdmf: PREFIX.xdmf with
PREFIX.h5). Prints the step drawn and the colour range on one line. Needs Debian's python3-vtk9
(and python3-h5py for XDMF); without a display it runs itself under xvfb-run (Debian's xvfb)."""
import argparse
import os
import shutil
import sys
import xml.etree.ElementTree as ElementTree


def fail(message):
    print(f"render: error: {message}", file=sys.stderr)
    sys.exit(1)


def parse_xml(path, what):
    try:
        return ElementTree.parse(path).getroot()
    except OSError as error:
        fail(f"cannot read '{path}': {error.strerror}")
    except ElementTree.ParseError as error:
        fail(f"'{path}' is not {what}: {error}")


def pvd_steps(pvd):
    """[(time, pvtu path)] of a ParaView series, in its order."""
    steps = parse_xml(pvd, "a ParaView series").findall("./Collection/DataSet")
    folder = os.path.dirname(pvd)
    return [(float(s.get("timestep", "0")), os.path.join(folder, s.get("file", ""))) for s in steps]


def xdmf_steps(xdmf):
    """[(time, grid element)] of an XDMF temporal collection, in its order."""
    root = parse_xml(xdmf, "an XDMF file")
    steps = []
    for grid in root.findall("Domain/Grid/Grid"):
        time = grid.find("Time")
        steps.append((float(time.get("Value", "0")) if time is not None else 0.0, grid))
    return steps


def read_pvtu(vtk, path):
    if not os.path.isfile(path):
        fail(f"the series names '{path}', which does not exist")
    reader = vtk.vtkXMLPUnstructuredGridReader()
    reader.SetFileName(path)
    reader.Update()
    return reader.GetOutput()


def read_xdmf_grid(vtk, xdmf, grid):
    """The grid of one XDMF step as a vtkUnstructuredGrid, its attributes as arrays."""
    try:
        import h5py
    except ImportError:
        fail("cannot import h5py (Debian package python3-h5py), which reads XDMF's HDF5 data")
    from vtk.util import numpy_support
    import numpy

    folder = os.path.dirname(xdmf)
    files = {}

    def data(item):
        name, path = item.text.strip().split(":", 1)
        name = os.path.join(folder, name)
        try:
            if name not in files:
                files[name] = h5py.File(name, "r")
            return numpy.asarray(files[name][path][()])
        except (OSError, KeyError) as error:
            fail(f"'{xdmf}' names {item.text.strip()}, which cannot be read: {error}")

    topology = grid.find("Topology")
    cell_types = {"Tetrahedron": vtk.VTK_TETRA, "Hexahedron": vtk.VTK_HEXAHEDRON}
    if topology is None or topology.get("TopologyType") not in cell_types:
        fail(f"'{xdmf}': a step without tetrahedra or hexahedra")
    cells = data(topology.find("DataItem")).astype(numpy.int64)
    corners = cells.shape[1]
    connectivity = numpy.hstack([numpy.full((len(cells), 1), corners, numpy.int64), cells])
    cell_array = vtk.vtkCellArray()
    cell_array.SetCells(len(cells), numpy_support.numpy_to_vtkIdTypeArray(connectivity.ravel(),
                                                                         deep=True))
    points = vtk.vtkPoints()
    points.SetData(numpy_support.numpy_to_vtk(data(grid.find("Geometry/DataItem")), deep=True))
    mesh = vtk.vtkUnstructuredGrid()
    mesh.SetPoints(points)
    mesh.SetCells(cell_types[topology.get("TopologyType")], cell_array)
    for attribute in grid.findall("Attribute"):
        values = data(attribute.find("DataItem"))
        if values.ndim == 2 and values.shape[1] == 1:
            values = values[:, 0]
        array = numpy_support.numpy_to_vtk(numpy.ascontiguousarray(values), deep=True)
        array.SetName(attribute.get("Name"))
        (mesh.GetCellData() if attribute.get("Center") == "Cell" else mesh.GetPointData()
         ).AddArray(array)
    for handle in files.values():
        handle.close()
    return mesh


def choose(steps, series, step, time):
    """The index in `steps` of --step (counted from 0, negative from the end) or of the step
    nearest --time; the last step by default."""
    if not steps:
        fail(f"'{series}' lists no step")
    if time is not None:
        return min(range(len(steps)), key=lambda i: abs(steps[i][0] - time))
    if not -len(steps) <= step < len(steps):
        fail(f"--step {step}: '{series}' lists {len(steps)} steps (0 to {len(steps) - 1}, or "
             f"-1 for the last)")
    return step % len(steps)


def colour_values(vtk, grid, name):
    """The array `name` of the grid (cell or point data; a vector by its length), where it lives
    ("cells" or "points") and its values."""
    from vtk.util import numpy_support
    import numpy

    for where, data in (("cells", grid.GetCellData()), ("points", grid.GetPointData())):
        array = data.GetArray(name)
        if array is not None:
            values = numpy_support.vtk_to_numpy(array).astype(float)
            if values.ndim == 2:
                values = numpy.linalg.norm(values, axis=1)
            ghosts = data.GetArray("vtkGhostType")
            if ghosts is not None:
                values = values[numpy_support.vtk_to_numpy(ghosts) == 0]
            return where, values
    names = [grid.GetCellData().GetArrayName(i) for i in range(grid.GetCellData().GetNumberOfArrays())]
    names += [grid.GetPointData().GetArrayName(i)
              for i in range(grid.GetPointData().GetNumberOfArrays())]
    names = sorted(set(names) - {"vtkGhostType"})
    fail(f"--colour {name}: the step has no such array (it has {', '.join(names)})")


def colour_range(values, text):
    """MIN,MAX as given, or by default the 2nd to 98th percentile of the values: a few extreme
    cells (a thin stiff layer, a corner) would otherwise take the whole scale and leave the rest
    of the body one colour. Values past the range take its end colours."""
    import numpy

    if text != "auto":
        try:
            low, high = (float(part) for part in text.split(","))
        except ValueError:
            fail(f"--range '{text}' is not MIN,MAX or auto")
        if not low < high:
            fail(f"--range '{text}': MIN must be below MAX")
        return low, high
    if values.size == 0:
        return 0.0, 1.0
    low, high = numpy.percentile(values, [2, 98])
    if not high > low:
        low, high = float(values.min()), float(values.max())
    if not high > low:
        high = low + (abs(low) or 1.0)
    return float(low), float(high)


def colour_scale(value_range, text):
    """linear or log as given; auto: log where the range spans more than two decades of positive
    values (a stiff layer's stress beside a soft body's), else linear."""
    low, high = value_range
    if text == "log" and low <= 0:
        fail(f"--scale log: the colour range starts at {low:g}, not above 0 (give --range)")
    if text == "auto":
        return "log" if low > 0 and high > 100 * low else "linear"
    return text


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
        name, where, value_range, scale = colour_by
        if where == "cells":
            mapper.SetScalarModeToUseCellFieldData()
        else:
            mapper.SetScalarModeToUsePointFieldData()
        mapper.SelectColorArray(name)
        mapper.SetScalarRange(value_range)
        lookup = vtk.vtkLookupTable()
        lookup.SetHueRange(0.667, 0.0)
        lookup.SetVectorModeToMagnitude()
        if scale == "log":
            lookup.SetScaleToLog10()
            mapper.UseLookupTableScalarRangeOff()
        lookup.Build()
        mapper.SetLookupTable(lookup)
    return actor, mapper


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("series", help="PREFIX.pvd (output.vtk) or PREFIX.xdmf (output.xdmf)")
    parser.add_argument("png", help="PNG file to write")
    parser.add_argument("--step", type=int, default=-1,
                        help="which step of the series: its position, from 0 (negative: from "
                             "the end; default -1, the last)")
    parser.add_argument("--time", type=float, help="the step nearest this time instead")
    parser.add_argument("--colour", default="von_mises",
                        help="the array to colour by: von_mises (default), displacement, "
                             "velocity (their lengths), region, object, ...")
    parser.add_argument("--range", default="auto",
                        help="MIN,MAX of the colour scale; auto (default): the 2nd to 98th "
                             "percentile of the array")
    parser.add_argument("--scale", choices=("auto", "linear", "log"), default="auto",
                        help="the colour scale; auto (default): log where the range spans more "
                             "than two decades of positive values, else linear")
    parser.add_argument("--size", default="1200x500", help="image width x height in pixels")
    parser.add_argument("--up", default="0,1,0", help="the direction shown upwards: X,Y,Z")
    parser.add_argument("--from", dest="eye", default="0.4,0.3,1",
                        help="the direction the camera looks from: X,Y,Z")
    parser.add_argument("--zoom", type=float, default=1.3,
                        help="the zoom past the view that fits the body (default 1.3)")
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
    if not os.path.isfile(args.series):
        fail(f"cannot read '{args.series}': no such file")
    xdmf = args.series.endswith(".xdmf")
    steps = xdmf_steps(args.series) if xdmf else pvd_steps(args.series)
    index = choose(steps, args.series, args.step, args.time)
    if not os.environ.get("DISPLAY") and not os.environ.get("EIS_RENDER_XVFB"):
        if shutil.which("xvfb-run") is None:
            fail("no display, and xvfb-run is not installed (Debian package xvfb)")
        os.environ["EIS_RENDER_XVFB"] = "1"
        os.execvp("xvfb-run", ["xvfb-run", "-a", sys.executable] + sys.argv)
    try:
        import vtk
    except ImportError:
        fail("cannot import vtk (Debian package python3-vtk9)")

    time, where = steps[index]
    grid = read_xdmf_grid(vtk, args.series, where) if xdmf else read_pvtu(vtk, where)
    if grid.GetPointData().GetArray("displacement") is None:
        fail(f"step {index} of '{args.series}' has no displacement (not an elasticity run)")
    centre, values = colour_values(vtk, grid, args.colour)
    value_range = colour_range(values, args.range)
    scale = colour_scale(value_range, args.scale)
    source = vtk.vtkTrivialProducer()
    source.SetOutput(grid)
    warp = vtk.vtkWarpVector()
    warp.SetInputConnection(source.GetOutputPort())
    warp.SetInputArrayToProcess(0, 0, 0, vtk.vtkDataObject.FIELD_ASSOCIATION_POINTS, "displacement")

    rest, _ = surface_actor(vtk, source)
    deformed, mapper = surface_actor(vtk, warp, (args.colour, centre, value_range, scale))
    bar = vtk.vtkScalarBarActor()
    bar.SetLookupTable(mapper.GetLookupTable())
    bar.SetTitle("von Mises (Pa)" if args.colour == "von_mises" else args.colour)
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
    camera.Zoom(args.zoom)
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
    print(f"render: step {index} of {len(steps)} (t = {time:g} s), {args.colour} from "
          f"{value_range[0]:.6g} to {value_range[1]:.6g}, {scale} ({values.min():.6g} to "
          f"{values.max():.6g} in all)")


if __name__ == "__main__":
    main()
