"""Checks of the outputs of a scene of several bodies, for tests/regression/several_bodies.sh.

  check_bodies.py vtk PVTU STATE_CSV
      The step's pieces hold every body of the final-state CSV (its `object` column): point and
      cell data `object` (the body's index), the field data `object_path` naming the bodies in
      the CSV's order, each body's owned points as many as its CSV rows, and each point's
      position (point + displacement) the CSV's for its body and node id (1e-12 relative).
  check_bodies.py xdmf PREFIX STATE_CSV
      The same for the last step of an XDMF series: /mesh/object and /mesh/cell_object, the
      index's Information elements `object <index>` naming the bodies.
Prints one line per failure and exits 1 on any.
"""
import csv
import sys
import xml.etree.ElementTree as ET

import numpy as np

failures = []


def expect(condition, what):
    if not condition:
        failures.append(what)
    return condition


def final_state(path):
    """{object path: {node id: (x, y, z)}} and the objects in file order."""
    state, order = {}, []
    with open(path, newline="") as f:
        rows = csv.reader(f)
        header = next(rows)
        expect(header[-1] == "object", f"{path}: no object column")
        for row in rows:
            if row[-1] not in state:
                order.append(row[-1])
                state[row[-1]] = {}
            state[row[-1]][int(row[0])] = np.array([float(v) for v in row[1:4]])
    return state, order


def compare(state, order, paths, objects, ids, positions, where):
    expect(list(paths) == order, f"{where}: object paths {list(paths)}, the CSV's {order}")
    scale = max(np.abs(p).max() for body in state.values() for p in body.values())
    for index, path in enumerate(order):
        mine = objects == index
        expect(sorted(ids[mine]) == sorted(state[path]),
               f"{where}: body {path}: {mine.sum()} points, the CSV has {len(state[path])}")
        worst = max((np.abs(p - state[path][i]).max() for i, p in zip(ids[mine], positions[mine])
                     if i in state[path]), default=np.inf)
        expect(worst <= 1e-12 * scale, f"{where}: body {path}: positions differ by {worst}")


def check_vtk(pvtu, csv_path):
    from vtk import vtkXMLPUnstructuredGridReader
    from vtk.util.numpy_support import vtk_to_numpy

    reader = vtkXMLPUnstructuredGridReader()
    reader.SetFileName(pvtu)
    reader.Update()
    grid = reader.GetOutput()
    points, cells = grid.GetPointData(), grid.GetCellData()
    for data, kind in ((points, "point"), (cells, "cell")):
        expect(data.GetArray("object") is not None, f"{pvtu}: no {kind} data 'object'")
    if failures:
        return
    names = grid.GetFieldData().GetAbstractArray("object_path")
    expect(names is not None, f"{pvtu}: no field data 'object_path'")
    paths = [names.GetValue(k) for k in range(names.GetNumberOfValues())] if names else []
    owned = vtk_to_numpy(points.GetArray("vtkGhostType")) == 0
    objects = vtk_to_numpy(points.GetArray("object"))[owned]
    ids = vtk_to_numpy(points.GetArray("node_id"))[owned]
    xyz = vtk_to_numpy(grid.GetPoints().GetData()) + vtk_to_numpy(points.GetArray("displacement"))
    cell_objects = set(vtk_to_numpy(cells.GetArray("object")).tolist())
    state, order = final_state(csv_path)
    expect(cell_objects == set(range(len(order))), f"{pvtu}: cells of objects {cell_objects}")
    compare(state, order, paths, objects, ids, xyz[owned], pvtu)


def check_xdmf(prefix, csv_path):
    import h5py

    root = ET.parse(prefix + ".xdmf").getroot()
    series = root.find("Domain/Grid")
    info = {i.get("Name"): i.get("Value") for i in series.findall("Information")}
    paths = [info[f"object {k}"] for k in range(len(info))]
    last = series.findall("Grid")[-1].get("Name")[len("step_"):]
    h5 = h5py.File(prefix + ".h5", "r")
    objects = h5["/mesh/object"][()].ravel()
    expect(h5["/mesh/cell_object"].shape[0] == h5["/mesh/topology"].shape[0],
           "/mesh/cell_object: not one row per cell")
    xyz = h5["/mesh/geometry"][()] + h5[f"/steps/{last}/displacement"][()]
    state, order = final_state(csv_path)
    compare(state, order, paths, objects, h5["/mesh/node_id"][()].ravel(), xyz, prefix + ".h5")


if __name__ == "__main__":
    {"vtk": check_vtk, "xdmf": check_xdmf}[sys.argv[1]](sys.argv[2], sys.argv[3])
    for failure in failures:
        print(failure)
    sys.exit(1 if failures else 0)
