"""Checks of an output.xdmf series (PREFIX.xdmf + PREFIX.h5), for tests/regression/xdmf_output.sh.

  check_xdmf.py series PREFIX STATE_CSV STEPS DT LX,LY,LZ
      The index is XDMF 3 with one temporal collection whose grids are STEPS (comma-separated),
      each at time step * DT; every DataItem names a dataset of PREFIX.h5 of its Dimensions and
      type; the tetrahedra fill the LX x LY x LZ box (their volumes sum to it, none is flat); the
      last grid's geometry + displacement, row by node id, is the final-state CSV's positions
      (1e-12 relative) and its velocity the CSV's velocities (exactly).
  check_xdmf.py same PREFIX_A PREFIX_B TOLERANCE
      Both index the same steps and times and the same mesh datasets, bit for bit; each step's
      displacement, velocity and von Mises differ by at most TOLERANCE times the largest
      magnitude of that array in A (0: bit for bit).
Prints one line per failure and exits 1 on any.
"""
import csv
import sys
import xml.etree.ElementTree as ET

import h5py
import numpy as np

failures = []


def expect(condition, what):
    if not condition:
        failures.append(what)
    return condition


def grids(prefix):
    root = ET.parse(prefix + ".xdmf").getroot()
    expect(root.tag == "Xdmf" and root.get("Version") == "3.0", "root is not <Xdmf Version=3.0>")
    collections = root.findall("Domain/Grid")
    expect(len(collections) == 1, f"{len(collections)} grids in the Domain, expected 1")
    series = collections[0]
    expect(series.get("GridType") == "Collection" and series.get("CollectionType") == "Temporal",
           "the Domain's grid is not a temporal collection")
    return series.findall("Grid")


def dataset(prefix, item):
    """The array a DataItem names, after checking it against the item's declaration."""
    folder = prefix[: prefix.rfind("/") + 1]
    name, path = item.text.strip().split(":", 1)
    data = h5py.File(folder + name, "r")[path][()]
    dims = tuple(int(d) for d in item.get("Dimensions").split())
    expect(item.get("Format") == "HDF", f"{path}: Format is not HDF")
    expect(data.shape == dims, f"{path}: shape {data.shape}, the index says {dims}")
    kind = {"Float": "f", "Int": "i"}[item.get("NumberType")]
    expect(data.dtype.kind == kind and data.dtype.itemsize == int(item.get("Precision")),
           f"{path}: {data.dtype}, the index says {item.get('NumberType')} {item.get('Precision')}")
    return data


def grid_arrays(prefix, grid):
    arrays = {
        "topology": dataset(prefix, grid.find("Topology/DataItem")),
        "geometry": dataset(prefix, grid.find("Geometry/DataItem")),
    }
    expect(grid.find("Topology").get("TopologyType") == "Tetrahedron", "topology not Tetrahedron")
    for attribute in grid.findall("Attribute"):
        arrays[attribute.get("Name")] = dataset(prefix, attribute.find("DataItem"))
    return arrays


def series(prefix, state_csv, steps, dt, box):
    steps = [int(s) for s in steps.split(",")]
    found = grids(prefix)
    names = [g.get("Name") for g in found]
    expect(names == [f"step_{s:06d}" for s in steps], f"grids {names}, expected steps {steps}")
    for grid, step in zip(found, steps):
        time = float(grid.find("Time").get("Value"))
        expect(abs(time - step * float(dt)) <= 1e-12, f"step {step}: time {time}")
    last = grid_arrays(prefix, found[-1])
    for grid in found[:-1]:
        grid_arrays(prefix, grid)
    x, cells = last["geometry"], last["topology"]
    expect(cells.min() >= 0 and cells.max() < len(x), "a tetrahedron vertex outside the geometry")
    a, b, c, d = (x[cells[:, k]] for k in range(4))
    volumes = np.abs(np.einsum("ij,ij->i", np.cross(b - a, c - a), d - a)) / 6
    size = np.prod([float(v) for v in box.split(",")])
    expect(volumes.min() > 0, "a flat tetrahedron")
    expect(abs(volumes.sum() - size) <= 1e-12 * size, f"volumes sum to {volumes.sum()}, not {size}")
    rows = list(csv.reader(open(state_csv)))[1:]
    ids = np.array([int(r[0]) for r in rows])
    state = np.array([[float(v) for v in r[1:7]] for r in rows])
    node_id = last["node_id"].ravel()
    expect(np.array_equal(np.sort(node_id), np.sort(ids)), "node ids differ from the CSV's")
    order = np.argsort(node_id)
    positions = (x + last["displacement"])[order]
    wanted = state[np.argsort(ids)]
    error = np.abs(positions - wanted[:, :3]).max() / np.abs(wanted[:, :3]).max()
    print(f"{prefix}: last step positions vs final state, relative {error:.3g}")
    expect(error <= 1e-12, f"positions differ from the final state by {error:g} (relative)")
    expect(np.array_equal(last["velocity"][order], wanted[:, 3:]), "velocities differ")


def same(prefix_a, prefix_b, tolerance):
    tolerance = float(tolerance)
    a_grids, b_grids = grids(prefix_a), grids(prefix_b)
    key = lambda g: (g.get("Name"), g.find("Time").get("Value"))
    expect([key(g) for g in a_grids] == [key(g) for g in b_grids], "steps or times differ")
    worst = {}
    for ga, gb in zip(a_grids, b_grids):
        a, b = grid_arrays(prefix_a, ga), grid_arrays(prefix_b, gb)
        for name in ("topology", "geometry", "node_id", "region"):
            expect(np.array_equal(a[name], b[name]), f"{ga.get('Name')}: {name} differs")
        for name in ("displacement", "velocity", "von_mises"):
            scale = np.abs(a[name]).max()
            difference = np.abs(a[name] - b[name]).max() / scale if scale > 0 else 0.0
            worst[name] = max(worst.get(name, 0.0), difference)
    print(f"{prefix_a} vs {prefix_b}: " + ", ".join(f"{k} {v:.3g}" for k, v in worst.items()))
    for name, difference in worst.items():
        expect(difference <= tolerance, f"{name} differs by {difference:g} > {tolerance:g}")


{"series": series, "same": same}[sys.argv[1]](*sys.argv[2:])
for failure in failures:
    print("FAIL", failure)
sys.exit(1 if failures else 0)
