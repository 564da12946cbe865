"""Runs the hostile corpus (cases.py, cases_more.py) on 2 ranks and classifies each case; see
jobs/hostile-corpus.sh. Usage: run.py EXE MESHES [NAME-FILTER]"""
import concurrent.futures
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

EXE, MESHES = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
FILTER = sys.argv[3] if len(sys.argv) > 3 else ""
LIMIT = int(os.environ.get("HOSTILE_LIMIT", "60"))
JOBS = int(os.environ.get("HOSTILE_JOBS", "3"))
TOP = tempfile.mkdtemp(prefix="eis_hostile.")
FIX = os.path.join(TOP, "fixtures")
os.environ["HOSTILE_FIX"], os.environ["HOSTILE_MESHES"] = FIX, MESHES
MPI = ["mpiexec", "-n", "2"]
SETUP = threading.Lock()
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cases  # noqa: E402  (reads HOSTILE_FIX and HOSTILE_MESHES)
import cases_more  # noqa: E402,F401  (adds its cases to cases.CASES)

# What only a crash prints: tracebacks, PETSc's error banner, an abort, a fatal signal.
NOISE = re.compile(r"Traceback|[Bb]acktrace|PETSc ERROR|MPI_ABORT|Segmentation|core dumped|"
                   r"terminate called|Aborted|exited on signal|AddressSanitizer")
# OpenMPI's own banner when a rank ends with status 1 (or 75): the launcher's, not ours.
BANNER = re.compile(r"(?ms)^-{20,}\n(?:(?!^-{20,}).)*?(?:returned\na non-zero exit code|"
                    r"exited with non-zero status|mpiexec was unable|"
                    r"received signal|killed by signal).*?^-{20,}\n")


def fixtures():
    """A converted box, and a checkpoint and final state of two steps of the tiny box."""
    os.makedirs(FIX)
    tiny = ["--mesh.box-cells=2 1 1", "--quiet"]
    for args in [tiny + ["--mesh.convert=box.h5"],
                 tiny + ["--solver.steps=2", "--output.checkpoint=ck", "--output.final-state=state.csv"]]:
        subprocess.run(MPI + [EXE] + args, cwd=FIX, check=True, stdout=subprocess.DEVNULL,
                       timeout=LIMIT)


def ranks_of(pid):
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    return [int(p) for p in out.split()]


def send(proc, spec):
    """Waits until both ranks exist (below timeout, below mpiexec), then the case's delay; sends
    its signals. Returns a note of what was sent to whom."""
    launcher = None
    end = time.time() + 20
    while time.time() < end:
        kids = ranks_of(proc.pid)
        if kids:
            launcher = kids[0]
            if len(ranks_of(launcher)) == 2:
                break
        time.sleep(0.05)
    if launcher is None:
        return "no mpiexec"
    time.sleep(spec["delay"])
    ranks = ranks_of(launcher)
    targets = {"ranks": ranks, "one": ranks[-1:], "mpiexec": [launcher]}[spec["target"]]
    for k, sig in enumerate(spec["sigs"]):
        if k:
            time.sleep(0.05)
        for pid in targets:
            try:
                os.kill(pid, getattr(signal, "SIG" + sig))
            except ProcessLookupError:
                pass
    return "after %.2f s to %s" % (spec["delay"], spec["target"])


def classify(c, rc, out, err, elapsed):
    """One of ok, warn, error, stopped, killed, unclean (status 1 without exactly one error line,
    or with other lines) or crash (a signal's status or a crash's text), hang (timeout)."""
    if rc == 124 or (rc in (137, -9) and elapsed >= LIMIT):
        return "hang"
    text = BANNER.sub("", out + "\n" + err)
    if NOISE.search(text):
        return "crash" if c["expect"] != "killed" else "killed"
    errors = [ln for ln in err.splitlines() if ln.startswith("euler-implicit: error: ")]
    others = [ln for ln in BANNER.sub("", err).splitlines()
              if ln.strip() and not ln.startswith(("euler-implicit: error: ",
                                                   "euler-implicit: warning: "))]
    stopped = re.search(r"^euler-implicit: stopped by SIG", out + err, re.M)
    if rc == 0:
        return "warn" if "euler-implicit: warning: " in out + err else "ok"
    if rc == 75 or (stopped and c.get("signal", {}) and c["signal"]["target"] == "mpiexec"):
        return "stopped"
    if c["expect"] == "killed":
        return "killed"
    if rc == 1:
        return "error" if len(errors) == 1 and not others else "unclean"
    return "crash"


def verdict(expect, got):
    """PASS, or the kind of defect: SILENT-WRONG (accepted what must be refused), REFUSED (a
    valid input refused), or the outcome itself (CRASH, HANG, UNCLEAN, ...)."""
    if got == expect or (expect == "any" and got in ("ok", "warn", "error")):
        return "PASS"
    if expect == "ok" and got == "warn":
        return "PASS"
    if got in ("ok", "warn") and expect in ("error", "warn", "stopped", "killed"):
        return "SILENT-WRONG" if expect != "warn" else "NO-WARNING"
    if got == "error" and expect in ("ok", "warn"):
        return "REFUSED"
    return got.upper()


def left_behind(d):
    """The processes still running in the case's folder (a rank or a scene's python3)."""
    pids = []
    for p in os.listdir("/proc"):
        try:
            if p.isdigit() and os.readlink("/proc/%s/cwd" % p).startswith(d):
                pids.append(int(p))
        except OSError:
            pass
    return pids


def prepare(i, c):
    """The case's folder, with what its generator writes (one at a time: a generator writes
    into the working folder, which all threads share)."""
    d = os.path.join(TOP, "%03d" % i)
    os.makedirs(d)
    with SETUP:
        cwd = os.getcwd()
        os.chdir(d)
        try:
            if c["setup"]:
                c["setup"]()
        finally:
            os.chdir(cwd)
    return d


def run(i, c):
    d = prepare(i, c)
    args = [a if isinstance(a, bytes) else a.encode("utf-8", "surrogateescape") for a in c["args"]]
    start = time.time()
    proc = subprocess.Popen(["timeout", "-k", "10", str(LIMIT)] + MPI + [EXE] + args, cwd=d,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            stdin=subprocess.DEVNULL)
    note = send(proc, c["signal"]) if c["signal"] else ""
    out, err = proc.communicate()
    elapsed = time.time() - start
    out, err = out.decode(errors="replace"), err.decode(errors="replace")
    got = classify(c, proc.returncode, out, err, elapsed)
    first = next((ln for ln in err.splitlines() if ln.startswith("euler-implicit: ")), "")
    for _ in range(50):  # the launcher may return while a rank is still ending
        if not left_behind(d):
            break
        time.sleep(0.1)
    else:
        got = "leftover" if got != "hang" else got  # a python3 or rank 5 s after the end
    with open(os.path.join(d, "out.txt"), "w") as f:
        f.write("rc=%s %s\n--- stdout\n%s\n--- stderr\n%s" % (proc.returncode, note, out, err))
    return dict(c, got=got, rc=proc.returncode, secs=elapsed, first=first[:150], note=note,
                verdict=verdict(c["expect"], got), dir=d)


def main():
    fixtures()
    todo = [c for c in cases.CASES if FILTER in c["group"] + ": " + c["name"]]
    start = time.time()
    with concurrent.futures.ThreadPoolExecutor(JOBS) as pool:
        futures = [pool.submit(run, i, c) for i, c in enumerate(todo)]
        results = []
        for f in futures:
            r = f.result()
            results.append(r)
            print("%-12s %-9s %-7s %5.1fs rc=%-4s %-6s %-40s %s" % (
                r["verdict"], r["got"], r["expect"], r["secs"], r["rc"], r["group"],
                r["name"][:40], r["first"] or r["note"]), flush=True)
    summary(results, time.time() - start)
    if any(r["verdict"] != "PASS" for r in results):
        print("the cases' files and outputs (out.txt): %s" % TOP)
        return 1
    shutil.rmtree(TOP)
    return 0


def summary(results, wall):
    groups = sorted({r["group"] for r in results}, key=[r["group"] for r in results].index)
    kinds = ["ok", "warn", "error", "stopped", "killed", "unclean", "crash", "hang", "leftover"]
    print("\n%-8s %6s " % ("group", "cases") + " ".join("%8s" % k for k in kinds) + "  defects")
    for g in groups + ["all"]:
        rs = [r for r in results if g in ("all", r["group"])]
        print("%-8s %6d " % (g, len(rs)) + " ".join(
            "%8d" % sum(r["got"] == k for r in rs) for k in kinds)
            + "  %d" % sum(r["verdict"] != "PASS" for r in rs))
    print("\nwall time %.0f s, %d ranks a case, %d cases at once" % (wall, 2, JOBS))
    for r in results:
        if r["verdict"] != "PASS":
            print("DEFECT %s: %s: %s (expected %s) %s" % (r["verdict"], r["group"], r["name"],
                                                        r["expect"], r["dir"]))


if __name__ == "__main__":
    sys.exit(main())
