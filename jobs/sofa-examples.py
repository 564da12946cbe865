#!/usr/bin/env python3
"""Runs SOFA's own example scenes and tallies what runs and why the rest is refused.

The scenes: every examples/**/*.scn of a SOFA source tree (sofa-framework/sofa) that has an
EulerImplicitSolver and a volume force field (a tetrahedral or hexahedral FEM, or springs on a
volume mesh: the VOLUME_FORCE_FIELDS below). Each runs as
    mpiexec -n RANKS euler-implicit --scene FILE --scene.data-path=SOFA/share
        --scene.data-path=SOFA/examples --solver.steps=STEPS
(SOFA's own data repository: share/ and examples/)
in a scratch folder of its own, and ends as one of:
    runs      exit 0
    refused   exit non-zero with our one line "euler-implicit: error: ..."
    failed    anything else: a crash, a signal, a time-out, or an exit without that line
The cause of a refusal is its error line with the place (file:line), names in quotes and numbers
taken out, so that scenes refused for one reason count together.

With --python SOFAPYTHON3_DIR the scenes are instead every examples/**/*.py of a SofaPython3
source tree (sofa-framework/SofaPython3) that has an EulerImplicitSolver, run the same way with
SOFAPYTHON3_DIR/examples as a further data path.

Usage: python3 jobs/sofa-examples.py SOFA_DIR [--python SOFAPYTHON3_DIR]
           [--exe build/bin/euler-implicit] [--ranks 2] [--steps 2] [--timeout 120]
           [--table FILE.tsv] [--top 25]
The table has one row per scene: path, outcome, seconds, the error line (or the warnings of a
run). SOFA_DIR needs examples/ and share/ (the fetch tool's mirror, exported with git archive or
git cat-file, or a SOFA checkout). OpenMPI as root and more ranks than cores: the script sets
the variables jobs/mpi-env.sh sets.
"""
import argparse
import collections
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import time

VOLUME_FORCE_FIELDS = (
    "TetrahedronFEMForceField", "TetrahedralCorotationalFEMForceField",
    "FastTetrahedralCorotationalForceField", "TetrahedronHyperelasticityFEMForceField",
    "StandardTetrahedralFEMForceField", "TetrahedralTensorMassForceField",
    "TetrahedronDiffusionFEMForceField", "HexahedronFEMForceField", "HexahedralFEMForceField",
    "HexahedronFEMForceFieldAndMass", "HexahedralFEMForceFieldAndMass",
    "NonUniformHexahedronFEMForceFieldAndMass", "HexahedronCompositeFEMForceFieldAndMass",
    "MeshSpringForceField", "RegularGridSpringForceField",
)
VOLUME = re.compile(r"<(%s)[\s/>]" % "|".join(VOLUME_FORCE_FIELDS))
EULER = re.compile(r"<EulerImplicitSolver[\s/>]")


def scenes(sofa):
    """The example scenes this tally covers, in path order."""
    found = []
    for path in sorted((sofa / "examples").rglob("*.scn")):
        text = path.read_text(errors="replace")
        if EULER.search(text) and VOLUME.search(text):
            found.append(path)
    return found


def python_scenes(tree):
    """SofaPython3's example scenes with an EulerImplicitSolver, in path order."""
    return [path for path in sorted((tree / "examples").rglob("*.py"))
            if "EulerImplicitSolver" in path.read_text(errors="replace")]


def cause(line):
    """An error line without its place, quoted names and numbers: the reason it gives."""
    text = line.split("error: ", 1)[-1]
    text = re.sub(r"^(\S+?:\d+: )+", "", text)
    text = re.sub(r" \(--scene\.skip-unsupported=true skips it with a warning\)", "", text)
    text = re.sub(r"\(the first: [^)]*\)", "", text)
    text = re.sub(r"; in node \S.*$", "; in node ..", text)
    text = re.sub(r"node /\S*", "node ..", text)
    text = re.sub(r"^(\w+) '[^']*'", r"\1", text)  # a component's name
    text = re.sub(r"'[^']*'", "'..'", text)
    text = re.sub(r"\b\d+(\.\d+)?(e[-+]?\d+)?\b", "N", text)
    return text.strip()


def run(exe, scene, sofa, args):
    """(outcome, seconds, detail) of one scene."""
    env = dict(os.environ, OMPI_MCA_rmaps_base_oversubscribe="1")
    if os.getuid() == 0:
        env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    command = ["mpiexec", "-n", str(args.ranks), str(exe), "--scene", str(scene),
               "--scene.data-path=%s" % (sofa / "share"),
               "--scene.data-path=%s" % (sofa / "examples"), "--solver.steps=%d" % args.steps,
               "--quiet"]
    if args.python:
        command.append("--scene.data-path=%s" % (args.python / "examples"))
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="eis_sofa_example.") as scratch:
        try:
            done = subprocess.run(command, cwd=scratch, env=env, capture_output=True, text=True,
                                  errors="replace", timeout=args.timeout)
        except subprocess.TimeoutExpired:
            return "failed", time.monotonic() - start, "time-out after %d s" % args.timeout
    seconds = time.monotonic() - start
    errors = [l for l in done.stderr.splitlines() if l.startswith("euler-implicit: error:")]
    if done.returncode == 0:
        warnings = [l for l in done.stderr.splitlines() if "warning:" in l]
        return "runs", seconds, " | ".join(warnings)
    if errors:
        return "refused", seconds, errors[0]
    tail = (done.stderr.strip().splitlines() or ["(no output)"])[-1]
    return "failed", seconds, "exit %d: %s" % (done.returncode, tail)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("sofa", type=pathlib.Path, help="SOFA source tree (examples/, share/)")
    parser.add_argument("--python", type=pathlib.Path,
                        help="tally this SofaPython3 tree's examples/**/*.py instead")
    parser.add_argument("--exe", type=pathlib.Path, default=pathlib.Path("build/bin/euler-implicit"))
    parser.add_argument("--ranks", type=int, default=2)
    parser.add_argument("--steps", type=int, default=2)
    parser.add_argument("--timeout", type=int, default=120, help="seconds per scene")
    parser.add_argument("--table", type=pathlib.Path, help="write one row per scene (TSV)")
    parser.add_argument("--top", type=int, default=25, help="causes listed")
    args = parser.parse_args()
    sofa, exe = args.sofa.resolve(), args.exe.resolve()
    if not (sofa / "examples").is_dir():
        sys.exit("sofa-examples: %s has no examples/ folder" % sofa)
    if not exe.is_file():
        sys.exit("sofa-examples: no executable at %s (build first: bash jobs/build.sh)" % exe)
    if args.python:
        args.python = args.python.resolve()
        if not (args.python / "examples").is_dir():
            sys.exit("sofa-examples: %s has no examples/ folder" % args.python)
    tree = args.python or sofa
    rows = []
    for i, scene in enumerate(python_scenes(tree) if args.python else scenes(sofa), 1):
        outcome, seconds, detail = run(exe, scene, sofa, args)
        relative = scene.relative_to(tree)
        rows.append((str(relative), outcome, seconds, detail))
        print("%3d %-8s %6.1f s  %s" % (i, outcome, seconds, relative), flush=True)
    if args.table:
        with open(args.table, "w") as table:
            table.write("scene\toutcome\tseconds\tdetail\n")
            for scene, outcome, seconds, detail in rows:
                table.write("%s\t%s\t%.1f\t%s\n" % (scene, outcome, seconds,
                                                    detail.replace("\t", " ")))
    counts = collections.Counter(outcome for _, outcome, _, _ in rows)
    print("\n%d scenes: %d run, %d refused, %d failed" %
          (len(rows), counts["runs"], counts["refused"], counts["failed"]))
    causes = collections.Counter(cause(d) for _, o, _, d in rows if o != "runs")
    print("\ncauses of the rest, most frequent first:")
    for text, n in causes.most_common(args.top):
        print("%4d  %s" % (n, text))
    return 0


if __name__ == "__main__":
    sys.exit(main())
