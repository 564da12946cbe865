"""FEniCSx peer of euler-implicit: the same problem, computed independently with dolfinx.

Linear elasticity (small strain, Lame parameters from Young's modulus and Poisson's ratio) on
P1 tetrahedra of euler-implicit's built-in box (same node ids, same six-tetrahedra split, see
docs/architecture.md "Built-in box"), consistent or lumped mass, gravity f = M g applied as
rho g |V|/4 on each node of a tetrahedron, nodes at x = 0 fixed (the default scene), and SOFA's
linearized implicit Euler step (docs/architecture.md "The step") with Rayleigh damping:

  P ((1 + h rM) M + h (h + rK) K) P dv = P h (f_g - K u_n - (h + rK) K v_n - rM M v_n)
  v_{n+1} = v_n + dv,  u_{n+1} = u_n + h v_{n+1}

K is the stiffness (f = -K u), P zeroes the fixed nodes. Each step is one PETSc KSP solve,
CG + GAMG with the rigid-body near-nullspace by default; PETSc options after "--" override
(e.g. -- -ksp_type preonly -pc_type lu for a direct solve).

Writes the final state as euler-implicit's final-state CSV (id,x,y,z,vx,vy,vz, input node order,
17 significant digits) and one line
  RESULT nodes=.. dofs=.. setup_s=.. steps=.. mean_step_s=.. median_step_s=.. total_its=..
  mean_its=.. ranks=.. peak_mib=..
(peak_mib: the largest rank's peak resident set in MiB, the figure euler-implicit's summary
gives, to compare memory in the same run).
Run by Debian's /usr/bin/python3 with python3-dolfinx, on any number of MPI ranks.
"""

import argparse
import resource
import statistics
import sys
import time

import numpy as np

try:
    import dolfinx
    import dolfinx.fem.petsc
    import ufl
    from mpi4py import MPI
    from petsc4py import PETSc

    IMPORT_ERROR = None
except ImportError as error:  # --help still works; main says what to install
    IMPORT_ERROR = error


class PeerError(Exception):
    """Bad input or a failed solve: one line on rank 0, exit status 1."""


def parse_arguments(argv):
    if "--" in argv:
        cut = argv.index("--")
        argv, petsc_options = argv[:cut], argv[cut + 1 :]
    else:
        petsc_options = []
    parser = argparse.ArgumentParser(
        prog="peer_dolfinx.py",
        description="FEniCSx peer of euler-implicit: the built-in box scene solved with dolfinx "
        "(linear elasticity, SOFA's implicit Euler step). PETSc options go after '--'.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    parser.add_argument("--box-size", nargs=3, type=float, default=[10.0, 1.0, 1.0],
                        metavar=("LX", "LY", "LZ"), help="box size, origin at 0 (mesh.box-size)")
    parser.add_argument("--box-cells", nargs=3, type=int, default=[20, 4, 4],
                        metavar=("NX", "NY", "NZ"), help="cells per axis (mesh.box-cells)")
    parser.add_argument("--steps", metavar="N", type=int, default=100,
                        help="time steps (solver.steps)")
    parser.add_argument("--dt", metavar="H", type=float, default=0.01,
                        help="time step h (solver.dt)")
    parser.add_argument("--young-modulus", metavar="E", type=float, default=1e5,
                        help="Young's modulus (material.young-modulus)")
    parser.add_argument("--poisson-ratio", metavar="NU", type=float, default=0.3,
                        help="Poisson's ratio (material.poisson-ratio)")
    parser.add_argument("--density", metavar="RHO", type=float, default=1.0,
                        help="density (material.density)")
    parser.add_argument("--gravity", nargs=3, type=float, default=[0.0, -9.81, 0.0],
                        metavar=("GX", "GY", "GZ"), help="gravity (load.gravity)")
    parser.add_argument("--mass", choices=["consistent", "lumped"], default="consistent",
                        help="mass matrix (mass.type)")
    parser.add_argument("--rayleigh-mass", metavar="RM", type=float, default=0.0,
                        help="Rayleigh factor rM on M (solver.rayleigh-mass)")
    parser.add_argument("--rayleigh-stiffness", metavar="RK", type=float, default=0.0,
                        help="Rayleigh factor rK on K (solver.rayleigh-stiffness)")
    parser.add_argument("--rtol", metavar="X", type=float, default=1e-8,
                        help="KSP relative tolerance")
    parser.add_argument("--output", metavar="CSV",
                        help="final-state CSV to write (none if absent)")
    parser.add_argument("--quiet", action="store_true", help="no line per step")
    args = parser.parse_args(argv)
    problems = []
    if min(args.box_size) <= 0:
        problems.append("--box-size: each must be > 0")
    if min(args.box_cells) < 1:
        problems.append("--box-cells: each must be >= 1")
    if args.steps < 0:
        problems.append("--steps must be >= 0")
    for name in ("dt", "young_modulus", "density", "rtol"):
        if getattr(args, name) <= 0:
            problems.append(f"--{name.replace('_', '-')} must be > 0")
    if not -1 < args.poisson_ratio < 0.5:
        problems.append("--poisson-ratio must be in (-1, 0.5)")
    if args.rayleigh_mass < 0 or args.rayleigh_stiffness < 0:
        problems.append("--rayleigh-mass and --rayleigh-stiffness must be >= 0")
    if len(petsc_options) and not petsc_options[0].startswith("-"):
        problems.append(f"PETSc options after '--' start with '-', not '{petsc_options[0]}'")
    if problems:
        parser.error("; ".join(problems))
    return args, petsc_options


def box_mesh_arrays(size, cells):
    """Nodes and tetrahedra of euler-implicit's built-in box, in its ids and orders."""
    nx, ny, nz = cells
    i, j, k = np.meshgrid(np.arange(nx + 1), np.arange(ny + 1), np.arange(nz + 1), indexing="ij")
    # Node id = i + (nx+1)(j + (ny+1)k): x fastest, so flatten in (k, j, i) order.
    ijk = np.stack([a.transpose(2, 1, 0).ravel() for a in (i, j, k)], axis=1)
    points = ijk * (np.asarray(size, dtype=float) / np.asarray(cells, dtype=float))
    ci, cj, ck = np.meshgrid(np.arange(nx), np.arange(ny), np.arange(nz), indexing="ij")
    ci, cj, ck = (a.transpose(2, 1, 0).ravel() for a in (ci, cj, ck))  # i fastest, then j, k

    def node(di, dj, dk):
        return ci + di + (nx + 1) * (cj + dj + (ny + 1) * (ck + dk))

    v = [node(0, 0, 0), node(1, 0, 0), node(1, 1, 0), node(0, 1, 0),
         node(0, 0, 1), node(1, 0, 1), node(1, 1, 1), node(0, 1, 1)]
    split = [(0, 1, 2, 6), (0, 2, 3, 6), (0, 3, 7, 6), (0, 7, 4, 6), (0, 4, 5, 6), (0, 5, 1, 6)]
    tets = np.stack([np.stack([v[a] for a in t], axis=1) for t in split], axis=1).reshape(-1, 4)
    e = points[tets[:, 1:]] - points[tets[:, :1]]
    negative = np.einsum("ij,ij->i", e[:, 0], np.cross(e[:, 1], e[:, 2])) < 0
    tets[negative, 1], tets[negative, 2] = tets[negative, 2], tets[negative, 1].copy()
    return points, tets.astype(np.int64)


def set_petsc_options(options, tokens):
    """-name value pairs and -flag alone, as PETSc reads a command line."""
    def is_value(token):
        return not token.startswith("-") or token[1:2].isdigit() or token[1:2] == "."

    for n, token in enumerate(tokens):
        if is_value(token):
            continue
        following = tokens[n + 1] if n + 1 < len(tokens) else None
        options[token[1:]] = following if following is not None and is_value(following) else None


def build_mesh(comm, args):
    """The box on rank 0, distributed by dolfinx; per owned dof block its input node id and rest
    position."""
    if comm.rank == 0:
        points, tets = box_mesh_arrays(args.box_size, args.box_cells)
    else:
        points, tets = np.zeros((0, 3)), np.zeros((0, 4), dtype=np.int64)
    domain = ufl.Mesh(ufl.VectorElement("Lagrange", ufl.tetrahedron, 1))
    mesh = dolfinx.mesh.create_mesh(comm, tets, points, domain)
    V = dolfinx.fem.VectorFunctionSpace(mesh, ("Lagrange", 1))
    # A cell's dofs and geometry nodes follow the same reference vertex order (P1 space on a P1
    # geometry), so they pair up cell by cell.
    owned = V.dofmap.index_map.size_local
    geometry_nodes = mesh.geometry.dofmap.array.reshape(-1, 4)
    cell_dofs = V.dofmap.list.array.reshape(-1, 4)
    keep = cell_dofs < owned
    ids = np.empty(owned, dtype=np.int64)
    ids[cell_dofs[keep]] = np.asarray(mesh.geometry.input_global_indices)[geometry_nodes[keep]]
    rest = np.empty((owned, 3))
    rest[cell_dofs[keep]] = mesh.geometry.x[geometry_nodes[keep], :3]
    return mesh, V, ids, rest


def assemble(mesh, V, args):
    """Stiffness K (f = -K u), mass M and gravity load f_g, without constraints."""
    # Constants, not literals, so that FFCx compiles the forms once for every material.
    def constant(value):
        return dolfinx.fem.Constant(mesh, PETSc.ScalarType(value))

    E, nu = args.young_modulus, args.poisson_ratio
    lam = constant(E * nu / ((1 + nu) * (1 - 2 * nu)))
    mu = constant(E / (2 * (1 + nu)))
    rho = constant(args.density)
    gravity = dolfinx.fem.Constant(mesh, np.asarray(args.gravity, dtype=PETSc.ScalarType))
    u, w = ufl.TrialFunction(V), ufl.TestFunction(V)

    def eps(z):
        return ufl.sym(ufl.grad(z))

    stiffness = (2 * mu * ufl.inner(eps(u), eps(w)) + lam * ufl.div(u) * ufl.div(w)) * ufl.dx
    K = dolfinx.fem.petsc.assemble_matrix(dolfinx.fem.form(stiffness))
    K.assemble()
    M = dolfinx.fem.petsc.assemble_matrix(dolfinx.fem.form(rho * ufl.inner(u, w) * ufl.dx))
    M.assemble()
    if args.mass == "lumped":
        # Row sums of the P1 consistent mass: rho |V|/4 on each node of each tetrahedron.
        diagonal = M.createVecLeft()
        M.getRowSum(diagonal)
        M.zeroEntries()
        M.setDiagonal(diagonal)
    # rho g . w integrated exactly: rho g |V|/4 on each node, the same as M g with lumped M.
    f_g = dolfinx.fem.petsc.assemble_vector(dolfinx.fem.form(rho * ufl.inner(gravity, w) * ufl.dx))
    f_g.ghostUpdate(addv=PETSc.InsertMode.ADD, mode=PETSc.ScatterMode.REVERSE)
    return K, M, f_g


def fixed_dofs(V):
    """Owned dofs of the nodes at x = 0 (the default scene's constraint.fixed-box "0 0 0 0 LY LZ"):
    global rows of the matrix and local indices into a vector's owned values."""
    index_map = V.dofmap.index_map
    blocks = dolfinx.fem.locate_dofs_geometrical(V, lambda x: np.isclose(x[0], 0.0))
    blocks = blocks[blocks < index_map.size_local]
    local = (blocks[:, None] * 3 + np.arange(3)).ravel()
    return (local + 3 * index_map.local_range[0]).astype(np.int32), local


def make_solver(comm, K, M, fixed_rows, rest, args):
    """The step's matrix P ((1 + h rM) M + h (h + rK) K) P + (I - P) and its KSP."""
    h, rM, rK = args.dt, args.rayleigh_mass, args.rayleigh_stiffness
    A = K.copy()
    A.scale(h * (h + rK))
    A.axpy(1 + h * rM, M, structure=PETSc.Mat.Structure.SUBSET_NONZERO_PATTERN)
    A.zeroRowsColumns(fixed_rows, diag=1.0)
    coordinates = A.createVecLeft()
    coordinates.setBlockSize(3)
    coordinates.array[:] = rest.ravel()
    A.setNearNullSpace(PETSc.NullSpace().createRigidBody(coordinates))
    ksp = PETSc.KSP().create(comm)
    ksp.setOperators(A)
    ksp.setType("cg")
    ksp.getPC().setType("gamg")
    ksp.setTolerances(rtol=args.rtol, max_it=1000)
    ksp.setFromOptions()
    ksp.setUp()
    return ksp


def run_steps(comm, ksp, K, M, f_g, fixed_local, args):
    """SOFA's linearized implicit Euler steps from rest; returns u, v, the wall time and the
    iterations of each step."""
    h, rM, rK = args.dt, args.rayleigh_mass, args.rayleigh_stiffness
    u, v, dv, rhs, work = (K.createVecLeft() for _ in range(5))
    u.zeroEntries()
    v.zeroEntries()
    times, iterations = [], []
    for n in range(args.steps):
        comm.Barrier()
        start = time.perf_counter()
        # rhs = h (f_g - K (u + (h + rK) v) - rM M v), zero on fixed rows.
        v.copy(work)
        work.aypx(h + rK, u)
        K.mult(work, rhs)
        rhs.aypx(-1.0, f_g)
        if rM != 0:
            M.mult(v, work)
            rhs.axpy(-rM, work)
        rhs.scale(h)
        rhs.array[fixed_local] = 0.0
        ksp.solve(rhs, dv)
        if ksp.getConvergedReason() < 0:
            raise PeerError(f"step {n + 1}: the linear solve failed "
                            f"(KSP reason {ksp.getConvergedReason()})")
        dv.array[fixed_local] = 0.0  # P dv: an iterative solve leaves round-off there
        v.axpy(1.0, dv)
        u.axpy(h, v)
        comm.Barrier()
        times.append(time.perf_counter() - start)
        iterations.append(ksp.getIterationNumber())
        if not args.quiet and comm.rank == 0:
            print(f"step {n + 1} wall_s={times[-1]:.6g} its={iterations[-1]}", flush=True)
    return u, v, times, iterations


def gather_state(comm, ids, rest, u, v):
    """On rank 0: node ids in input order and their rows x y z vx vy vz; None elsewhere."""
    ids = comm.gather(ids, root=0)
    rows = comm.gather(np.hstack([rest + u.array.reshape(-1, 3), v.array.reshape(-1, 3)]), root=0)
    if comm.rank != 0:
        return None, None
    ids = np.concatenate(ids)
    order = np.argsort(ids)
    return ids[order], np.concatenate(rows)[order]


def check_writable(comm, path):
    """The output path is checked before any step, with the same verdict on every rank."""
    failure = None
    if comm.rank == 0 and path:
        try:
            open(path, "w", encoding="ascii").close()
        except OSError as error:
            failure = f"--output {path}: cannot open the file for writing ({error.strerror})"
    failure = comm.bcast(failure, root=0)
    if failure:
        raise PeerError(failure)


def write_state(path, ids, rows):
    with open(path, "w", encoding="ascii") as out:
        out.write("id,x,y,z,vx,vy,vz\n")
        for node, row in zip(ids, rows):
            out.write(f"{node}," + ",".join(f"{value:.17g}" for value in row) + "\n")


def main(argv):
    args, petsc_options = parse_arguments(argv)
    if IMPORT_ERROR is not None:
        print(f"peer_dolfinx.py: error: {IMPORT_ERROR} (install Debian's python3-dolfinx, e.g. "
              "with jobs/install-deps.sh, and run /usr/bin/python3)", file=sys.stderr)
        return 1
    comm = MPI.COMM_WORLD
    set_petsc_options(PETSc.Options(), petsc_options)
    try:
        check_writable(comm, args.output)
        comm.Barrier()
        start = time.perf_counter()
        mesh, V, ids, rest = build_mesh(comm, args)
        K, M, f_g = assemble(mesh, V, args)
        fixed_rows, fixed_local = fixed_dofs(V)
        ksp = make_solver(comm, K, M, fixed_rows, rest, args)
        comm.Barrier()
        setup = time.perf_counter() - start
        u, v, times, iterations = run_steps(comm, ksp, K, M, f_g, fixed_local, args)
    except PeerError as error:
        if comm.rank == 0:
            print(f"peer_dolfinx.py: error: {error}", file=sys.stderr)
        return 1
    ids, rows = gather_state(comm, ids, rest, u, v)
    peak_kib = comm.allreduce(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, op=MPI.MAX)
    if comm.rank != 0:
        return 0
    if args.output:
        write_state(args.output, ids, rows)
    steps = max(len(times), 1)
    print(f"RESULT nodes={len(ids)} dofs={3 * len(ids)} setup_s={setup:.6g} "
          f"steps={len(times)} mean_step_s={sum(times) / steps:.6g} "
          f"median_step_s={statistics.median(times) if times else 0:.6g} "
          f"total_its={sum(iterations)} mean_its={sum(iterations) / steps:.6g} "
          f"ranks={comm.size} peak_mib={peak_kib / 1024:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
