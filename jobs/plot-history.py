#!/usr/bin/python3
"""Draws a history CSV of euler-implicit (output.history) as a PNG: the energies, the iterations
per step, the wall time per step and, when the run computed it, the residual, against time."""
import argparse
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the file-only backend)

REQUIRED = ["step", "time", "wall_seconds", "linear_iterations", "nonlinear_iterations"]


def fail(message):
    print(f"plot-history: error: {message}", file=sys.stderr)
    sys.exit(1)


def read_history(path):
    """The columns of the CSV by name, as floats; None where a cell is empty."""
    try:
        with open(path, newline="") as handle:
            rows = list(csv.DictReader(handle))
    except OSError as error:
        fail(f"cannot read '{path}': {error.strerror}")
    if not rows:
        fail(f"'{path}' holds no step")
    missing = [name for name in REQUIRED if name not in rows[0]]
    if missing:
        fail(f"'{path}' is not a history CSV: no column {', '.join(missing)}")
    columns = {}
    for name in rows[0]:
        try:
            columns[name] = [float(row[name]) if row[name] else None for row in rows]
        except (TypeError, ValueError):
            fail(f"'{path}': column '{name}' holds a value that is not a number")
    return columns


def present(columns, name):
    return name in columns and any(value is not None for value in columns[name])


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("history", help="history CSV written by --output.history")
    parser.add_argument("png", help="PNG file to write")
    parser.add_argument("--title", default=None, help="title above the plots (default: the CSV)")
    args = parser.parse_args()

    columns = read_history(args.history)
    time = columns["time"]
    panels = ["energy", "iterations", "wall"] + (["residual"] if present(columns, "residual") else [])
    figure, axes = plt.subplots(len(panels), 1, sharex=True, figsize=(7, 2.2 * len(panels)))
    for panel, axis in zip(panels, axes):
        if panel == "energy":
            for name in ("kinetic_energy", "elastic_energy"):
                if present(columns, name):
                    axis.plot(time, columns[name], label=name.replace("_", " "))
            axis.set_ylabel("energy (J)")
            axis.legend(loc="best")
        elif panel == "iterations":
            axis.plot(time, columns["linear_iterations"], label="linear")
            axis.plot(time, columns["nonlinear_iterations"], label="nonlinear")
            axis.set_ylabel("iterations / step")
            axis.legend(loc="best")
        elif panel == "wall":
            axis.plot(time, columns["wall_seconds"])
            axis.set_ylabel("wall time / step (s)")
        else:
            axis.semilogy(time, columns["residual"])
            axis.set_ylabel("residual")
        axis.grid(True, alpha=0.3)
    axes[-1].set_xlabel("time (s)")
    figure.suptitle(args.title or args.history)
    figure.tight_layout()
    try:
        figure.savefig(args.png, dpi=100)
    except OSError as error:
        fail(f"cannot write '{args.png}': {error.strerror}")


if __name__ == "__main__":
    main()
