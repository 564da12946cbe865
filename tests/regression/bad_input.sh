#!/usr/bin/env bash
# Bad input: every case must end with a non-zero status (not a hang) and exactly one line
# "euler-implicit: error: ..." on standard error, naming what is wrong (key, file, line or
# index); nothing else may reach standard error but "euler-implicit: warning: ..." lines.
# Two harmless inputs must only warn: a fixed box that selects no node, a negatively oriented
# tetrahedron.
#
#   bash bad_input.sh <path-to-euler-implicit> <path-to-meshes-dir>
#   env: the MPI launch line (tests/common/mpi_launch.sh; by hand, source jobs/mpi-env.sh as root);
#        BAD_INPUT_JOBS (cases at once, default 4); BAD_INPUT_VERBOSE=1 shows each error line
set -u

EXE=${1:?usage: bad_input.sh <euler-implicit> <meshes-dir>}
MESHES=${2:?usage: bad_input.sh <euler-implicit> <meshes-dir>}
RANKS=2  # MPI ranks per run; tests/CMakeLists.txt reads this line too (PROCESSORS)
# The runs happen in a temporary directory: make the paths absolute first.
EXE=$(cd "$(dirname "$EXE")" && pwd)/$(basename "$EXE")
MESHES=$(cd "$MESHES" && pwd) || exit 1
if [ ! -x "$EXE" ]; then echo "FAIL setup: $EXE is not an executable"; exit 1; fi
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/mpi_launch.sh"
mpi_command "$RANKS" "$EXE"
# Seconds per run; status 124 from timeout means the run hung. Only a hang waits this long: the
# 50 x 10 x 10 box cases need about 5 s alone and over 20 s beside three other cases and a
# parallel ctest on two busy cores, so the limit leaves room for a slow CI machine.
LIMIT=${BAD_INPUT_LIMIT:-60}

T=$(mktemp -d "${TMPDIR:-/tmp}/eis_bad_input.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1

TINY=(--mesh.box-cells="2 1 1" --solver.steps=1)
# Cases run a few at a time: most of a failing run is OpenMPI waiting to tear the job down, not
# computing, so overlapping them keeps the script short even on two busy cores.
JOBS=${BAD_INPUT_JOBS:-4}
mkdir "$T/results"
cases=0

# ---------------------------------------------------------------------------------------------
# Fixtures: tiny Gmsh 2.2 ASCII files. Nodes 1..4 span the unit corner tetrahedron; node 5 is
# (1,1,1), on the other side of the face (2,3,4).

mesh_header() {
  printf '%s\n' '$MeshFormat' '2.2 0 8' '$EndMeshFormat'
}

# Two tetrahedra, both positive; the base of the variants below.
cat > good.msh <<'EOF'
$MeshFormat
2.2 0 8
$EndMeshFormat
$Nodes
5
1 0 0 0
2 1 0 0
3 0 1 0
4 0 0 1
5 1 1 1
$EndNodes
$Elements
2
1 4 2 1 1 1 2 3 4
2 4 2 1 1 2 3 4 5
$EndElements
EOF

# Cut in the middle of $Nodes; and without its last line, $EndElements.
head -n 7 good.msh > cut.msh
head -n 15 good.msh > cutend.msh

# Letters in $Nodes, on line 8 (node 3).
sed '8s/.*/3 0 abc 0/' good.msh > garbled.msh

# Only triangles: a body of triangles, which the default tetrahedral element refuses.
cat > notets.msh <<'EOF'
$MeshFormat
2.2 0 8
$EndMeshFormat
$Nodes
4
1 0 0 0
2 1 0 0
3 0 1 0
4 0 0 1
$EndNodes
$Elements
2
1 2 2 1 1 1 2 3
2 2 2 1 1 1 2 4
$EndElements
EOF

# Element 2 names node tag 99; there are 5 nodes.
sed 's/^2 4 2 1 1 2 3 4 5$/2 4 2 1 1 2 3 4 99/' good.msh > oob.msh

# Non-finite coordinates on line 7 (node 2).
sed '7s/.*/2 nan 0 0/' good.msh > nan.msh
sed '7s/.*/2 inf 0 0/' good.msh > inf.msh
sed '7s/.*/2 1e400 0 0/' good.msh > overflow.msh

# Tetrahedron 1 (0-based; element tag 2) has four coplanar nodes (z = 0).
cat > flat.msh <<'EOF'
$MeshFormat
2.2 0 8
$EndMeshFormat
$Nodes
6
1 0 0 0
2 1 0 0
3 0 1 0
4 0 0 1
5 1 1 1
6 1 1 0
$EndNodes
$Elements
2
1 4 2 1 1 1 2 3 4
2 4 2 1 1 1 2 6 3
$EndElements
EOF

# Tetrahedron 1 (0-based; element tag 2) repeats node tag 3.
sed 's/^2 4 2 1 1 2 3 4 5$/2 4 2 1 1 2 3 3 5/' good.msh > repeated.msh

# Tetrahedron 0 listed with negative orientation (2nd and 3rd vertex swapped), tetrahedron 1
# positive: accepted, with a warning that counts 1.
sed 's/^1 4 2 1 1 1 2 3 4$/1 4 2 1 1 1 3 2 4/' good.msh > inverted.msh
# The other formats: a Gmsh 1.0 file naming a node no $NOD line has, a legacy VTK file with a
# garbled coordinate, a .vtu file whose XML is broken, and a file no reader knows.
printf '%s\n' '$NOD' 4 '1 0 0 0' '2 1 0 0' '3 0 1 0' '4 0 0 1' '$ENDNOD' '$ELM' 1 \
  '1 4 1 1 4 1 2 3 7' '$ENDELM' > badlabel_v1.msh
printf '%s\n' '# vtk DataFile Version 3.0' t ASCII 'DATASET UNSTRUCTURED_GRID' 'POINTS 4 double' \
  '0 0 0 1 0 0' '0 1 0 0 0 x' 'CELLS 1 5' '4 0 1 2 3' 'CELL_TYPES 1' 10 > garbled.vtk
printf '%s\n' '<?xml version="1.0"?>' '<VTKFile type="UnstructuredGrid">' '<UnstructuredGrid>' \
  '<Piece NumberOfPoints="4" NumberOfCells="1">' '</UnstructuredGrid>' '</VTKFile>' > broken.vtu
printf 'v 0 0 0\n' > mesh.obj

mkdir adir

cat > unknown.ini <<'EOF'
[solver]
dt = 0.01
no-such-key = 1
EOF

printf 'id,x,y,z,vx,vy,vz,extra\n0,0,0,0,0,0,0,0\n' > badheader.csv

# SOFA scenes (--scene) on good.msh; the lines: Node root 2, Node body 3, EulerImplicitSolver 4,
# CGLinearSolver 5, MeshGmshLoader 6, topology 7, MechanicalObject 8, DiagonalMass 9,
# TetrahedronFEMForceField 10, FixedProjectiveConstraint 11. Each variant changes one line.
cat > good.scn <<'EOF'
<?xml version="1.0"?>
<Node name="root" dt="0.01">
  <Node name="body">
    <EulerImplicitSolver/>
    <CGLinearSolver iterations="100" tolerance="1e-10" threshold="1e-20"/>
    <MeshGmshLoader name="loader" filename="good.msh"/>
    <TetrahedronSetTopologyContainer name="topo" src="@loader"/>
    <MechanicalObject name="dofs"/>
    <DiagonalMass massDensity="1"/>
    <TetrahedronFEMForceField name="fem" youngModulus="1e3" poissonRatio="0.3"/>
    <FixedProjectiveConstraint name="fixed" indices="0 1 2"/>
  </Node>
</Node>
EOF
sed '11s|indices="0 1 2"|indices="@box.indices"|' good.scn > scn_broken_link.scn
sed '11s|indices="0 1 2"|indices="@"|' good.scn > scn_empty_link.scn
sed '10s|/>| method="smal"/>|' good.scn > scn_bad_value.scn
sed '10s|youngModulus="1e3"|youngModulsu="1e3"|' good.scn > scn_misspelt_field.scn
sed '6s|good.msh|none.msh|' good.scn > scn_missing_mesh.scn
sed '4s|<EulerImplicitSolver/>|<EulerImplicitSolver>|' good.scn > scn_syntax.scn
sed '4s|.*|    <PrecomputedConstraintCorrection/>\n    <EulerImplicitSolver/>|' good.scn > scn_unsupported.scn
sed '9s|.*|    <PythonController name="ctl" class="Pulse" eis-source="liver.py:42"/>\n&|' good.scn \
  > scn_python_controller.scn
sed '9s|.*|    <PythonForceField name="pull" class="Pull" base="ForceFieldVec3d" eis-source="s.py:7"/>|' \
  good.scn > scn_python_force_field.scn
sed '4s|.*|    <StaticSolver/>|' good.scn > scn_static.scn
printf 'def createScene(root):\n    root.addChild("beam")\n    raise ValueError("no mesh")\n' > py_error.py
printf 'import sys\ndef createScene(root):\n    sys.exit(3)\n' > py_exit.py
printf 'def createScene(root):\n    while True:\n        pass\n' > py_endless.py
sed '12s|.*|    <MechanicalObject name="second"/>\n  </Node>|' good.scn > scn_two_objects.scn
sed '12s|.*|    <Node name="second"><MechanicalObject/><Node name="c"><MechanicalObject/><IdentityMapping/><UniformMass/></Node></Node>\n  </Node>|' \
  good.scn > scn_body_no_mesh.scn
sed '12s|.*|    <Node name="m"><MechanicalObject/><IdentityMapping/><SphereForceField/></Node>\n  </Node>|' \
  good.scn > scn_mapped_mass.scn
sed '12s|.*|    <Node name="visual"><OglModel/><BarycentricMapping/></Node>\n    <Node name="collision"><MechanicalObject/><TriangleCollisionModel/><BarycentricMapping/></Node>\n  </Node>|' \
  good.scn > scn_skipped.scn
sed '9s|.*|    <UnknownForceField/>\n&|' good.scn > scn_unknown.scn
# An included group whose force field has a bad value: read by rank 0, given to the other ranks.
mkdir -p parts
printf '<Node name="Group">\n  <TetrahedronFEMForceField youngModulus="1e3" method="smal"/>\n</Node>\n' \
  > parts/fem.xml
sed '10s|.*|    <include href="parts/fem.xml"/>|' good.scn > scn_include.scn
sed '10s|.*|    <include href="parts/none.xml"/>|' good.scn > scn_include_missing.scn

# ---------------------------------------------------------------------------------------------

# Drops OpenMPI's own notices about a process that exited with a non-zero status (blocks
# between lines of dashes) and the libevent warning mpiexec sometimes prints as the job ends
# ("[warn] Epoll MOD(1) on fd 25 failed ...", seen once in CI); anything else, MPI_Abort's
# notice included, is kept.
strip_launcher_notices() {
  awk '
    /^-+$/ && length($0) >= 20 {
      if (inblock) {
        block = block $0 "\n"
        if (block !~ /non-zero exit code|non-zero status/) printf "%s", block
        inblock = 0; block = ""
      } else { inblock = 1; block = $0 "\n" }
      next
    }
    inblock { block = block $0 "\n"; next }
    /^\[warn\] Epoll [A-Z]+\([0-9]+\) on fd [0-9]+ failed/ { next }
    { print }
    END { if (inblock) printf "%s", block }
  '
}

# run NAME ARGS...: runs the program, leaves status in $rc, stderr (cleaned) in $err, stdout
# in $out.
run() {
  local name=$1
  shift
  timeout -k 5 "$LIMIT" "${MPI_COMMAND[@]}" "$@" \
    > "$T/$name.out" 2> "$T/$name.raw"
  rc=$?
  strip_launcher_notices < "$T/$name.raw" > "$T/$name.err"
  err=$(cat "$T/$name.err")
  out=$(cat "$T/$name.out")
}

report_fail() {
  local name=$1 reason=$2
  echo "FAIL $name: $reason"
  echo "     command:$(printf ' %q' "${MPI_COMMAND[@]}" "${CMD[@]}")"
  echo "     exit status: $rc"
  echo "     stderr:"
  sed 's/^/       | /' "$T/$name.raw"
}

# launch FUNCTION NAME ...: runs one case in the background, its report going to a file
# numbered in launch order; at most JOBS at once.
launch() {
  cases=$((cases + 1))
  local file
  file=$(printf '%s/results/%03d' "$T" "$cases")
  "$@" > "$file" 2>&1 &
  while [ "$(jobs -pr | wc -l)" -ge "$JOBS" ]; do wait -n 2>/dev/null || sleep 0.2; done
}

# bad NAME FRAGMENT... -- ARGS...: the run must fail with one error line holding every FRAGMENT.
bad() {
  local name=$1
  shift
  local fragments=()
  while [ "$1" != "--" ]; do fragments+=("$1"); shift; done
  shift
  CMD=("$@")
  run "$name" "$@"
  if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
    report_fail "$name" "timed out after ${LIMIT} s (hang)"; return
  fi
  if [ "$rc" -eq 0 ]; then
    report_fail "$name" "exit status 0, expected non-zero"; return
  fi
  local errors others line
  errors=$(grep -c '^euler-implicit: error: ' "$T/$name.err")
  others=$(grep -v -e '^euler-implicit: error: ' -e '^euler-implicit: warning: ' -e '^[[:space:]]*$' \
    "$T/$name.err" | head -n 3)
  if [ "$errors" -ne 1 ]; then
    report_fail "$name" "$errors lines 'euler-implicit: error: ' on stderr, expected exactly 1"; return
  fi
  if [ -n "$others" ]; then
    report_fail "$name" "stderr holds more than the error line (and warnings)"; return
  fi
  line=$(grep '^euler-implicit: error: ' "$T/$name.err")
  local f
  for f in "${fragments[@]}"; do
    if [[ "$line" != *"$f"* ]]; then
      report_fail "$name" "the error line does not contain '$f'"; return
    fi
  done
  echo "ok   $name"
  if [ -n "${BAD_INPUT_VERBOSE:-}" ]; then echo "     $line"; fi
}

# warns NAME PATTERN -- ARGS...: the run must succeed, print a warning line matching the
# extended regular expression PATTERN (stdout or stderr), and no error.
warns() {
  local name=$1 pattern=$2
  shift 3
  CMD=("$@")
  run "$name" "$@"
  if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
    report_fail "$name" "timed out after ${LIMIT} s (hang)"; return
  fi
  if [ "$rc" -ne 0 ]; then
    report_fail "$name" "exit status $rc, expected 0 (a warning only)"; return
  fi
  if grep -q 'euler-implicit: error' "$T/$name.err" "$T/$name.out"; then
    report_fail "$name" "an error was printed"; return
  fi
  if grep -v -e '^euler-implicit: warning: ' -e '^[[:space:]]*$' "$T/$name.err" | grep -q .; then
    report_fail "$name" "stderr holds more than warnings"; return
  fi
  if ! cat "$T/$name.out" "$T/$name.err" | grep -E -q "^euler-implicit: warning:.*$pattern"; then
    report_fail "$name" "no 'euler-implicit: warning: ' line matching /$pattern/"; return
  fi
  echo "ok   $name"
}

# --- mesh files ------------------------------------------------------------------------------
launch bad missing_mesh_file      "nosuch.msh" -- --mesh.file="$T/nosuch.msh" --solver.steps=1
launch bad unreadable_mesh_file   "adir" -- --mesh.file="$T/adir" --solver.steps=1
launch bad truncated_mesh         "cut.msh" "truncated" -- --mesh.file="$T/cut.msh" --solver.steps=1
launch bad truncated_mesh_end     "cutend.msh" "truncated" -- --mesh.file="$T/cutend.msh" --solver.steps=1
launch bad garbled_mesh           "garbled.msh:8" -- --mesh.file="$T/garbled.msh" --solver.steps=1
launch bad gmsh_v1_bad_label      "badlabel_v1.msh:10" "node tag 7" -- --mesh.file="$T/badlabel_v1.msh" --solver.steps=1
launch bad vtk_garbled            "garbled.vtk:7" "POINTS" "'x'" -- --mesh.file="$T/garbled.vtk" --solver.steps=1
launch bad vtu_broken_xml         "broken.vtu:4" "<Piece> is not closed" -- --mesh.file="$T/broken.vtu" \
  --solver.steps=1
launch bad unknown_mesh_format    "mesh.obj" "unknown mesh format" -- --mesh.file="$T/mesh.obj" --solver.steps=1
launch bad no_tetrahedra          "this mesh has triangles" "tetrahedra only" -- --mesh.file="$T/notets.msh" --solver.steps=1
launch bad node_out_of_range      "oob.msh" "99" -- --mesh.file="$T/oob.msh" --solver.steps=1
launch bad nan_coordinate         "nan.msh:7" "node 1" -- --mesh.file="$T/nan.msh" --solver.steps=1
launch bad inf_coordinate         "inf.msh:7" "node 1" -- --mesh.file="$T/inf.msh" --solver.steps=1
launch bad overflow_coordinate    "overflow.msh:7" -- --mesh.file="$T/overflow.msh" --solver.steps=1
# Converted meshes (mesh.convert): a missing one, one that is no HDF5, a truncated one, a foreign
# HDF5 file (a checkpoint); a truncated checkpoint; and a conversion of a converted mesh and into
# a missing folder. (HDF5's own error stack must not reach standard error.)
"${MPI_COMMAND[@]}" --mesh.box-cells="2 1 1" --mesh.convert="$T/tiny.h5" > /dev/null 2>&1
"${MPI_COMMAND[@]}" "${TINY[@]}" --quiet --output.checkpoint="$T/ck" --output.checkpoint-every=1 \
  > /dev/null 2>&1
echo "not HDF5" > "$T/text.h5"
head -c 2000 "$T/tiny.h5" > "$T/cut.h5"
head -c 2000 "$T/ck_000001.h5" > "$T/cutck.h5"
launch bad truncated_h5_mesh      "cut.h5" "cannot be read as HDF5" -- --mesh.file="$T/cut.h5" \
  --solver.steps=1
launch bad truncated_checkpoint   "cutck.h5" "cannot be read as HDF5" -- "${TINY[@]}" \
  --restart="$T/cutck.h5"
launch bad missing_h5_mesh        "nosuch.h5" "no such file" -- --mesh.file="$T/nosuch.h5" --solver.steps=1
launch bad text_h5_mesh           "text.h5" "not an HDF5 file" -- --mesh.file="$T/text.h5" --solver.steps=1
launch bad foreign_h5_mesh        "ck_000001.h5" "not a mesh written by mesh.convert" -- \
  --mesh.file="$T/ck_000001.h5" --solver.steps=1
launch bad convert_converted      "mesh.convert" "converted already" -- --mesh.file="$T/tiny.h5" \
  --mesh.convert="$T/again.h5"
launch bad convert_no_folder      "mesh.convert" "no folder" -- --mesh.box-cells="2 1 1" \
  --mesh.convert="$T/nodir/x.h5"
launch bad coplanar_tetrahedron   "flat.msh" "tetrahedron 1 " -- --mesh.file="$T/flat.msh" --solver.steps=1
launch bad repeated_node_tetrahedron "repeated.msh" "tetrahedron 1 " -- \
  --mesh.file="$T/repeated.msh" --solver.steps=1

# --- keys and values -------------------------------------------------------------------------
launch bad unknown_key_ini        "unknown.ini" "no-such-key" -- --config="$T/unknown.ini" "${TINY[@]}"
launch bad unknown_key_cli        "--solver.no-such-key" -- --solver.no-such-key=1 "${TINY[@]}"
launch bad malformed_number       "solver.dt" "1e-2x" -- --solver.dt=1e-2x "${TINY[@]}"
launch bad dt_zero                "solver.dt" -- --solver.dt=0 "${TINY[@]}"
launch bad dt_negative            "solver.dt" -- --solver.dt=-0.01 "${TINY[@]}"
launch bad steps_negative         "solver.steps" -- --solver.steps=-1 --mesh.box-cells="2 1 1"
launch bad young_modulus_zero     "material.young-modulus" -- --material.young-modulus=0 "${TINY[@]}"
launch bad young_modulus_negative "material.young-modulus" -- --material.young-modulus=-1e5 "${TINY[@]}"
launch bad poisson_ratio_half     "material.poisson-ratio" -- --material.poisson-ratio=0.5 "${TINY[@]}"
launch bad poisson_ratio_minus_one "material.poisson-ratio" -- --material.poisson-ratio=-1 "${TINY[@]}"
launch bad density_zero           "material.density" -- --material.density=0 "${TINY[@]}"
launch bad refine_negative        "mesh.refine" -- --mesh.refine=-1 "${TINY[@]}"
launch bad box_cells_zero         "mesh.box-cells" -- --mesh.box-cells="0 1 1" --solver.steps=1
launch bad unknown_fixed_group    "nosuch" -- --mesh.file="$MESHES/beam_v22_ascii.msh" \
  --constraint.fixed-group=nosuch --solver.steps=1
launch bad unknown_selection_group "constraint.fixed" "nosuch" -- --mesh.file="$MESHES/beam_v22_ascii.msh" \
  --constraint.fixed="group nosuch" --solver.steps=1
launch bad selection_index_missing "constraint.partial-fixed" "indices" -- \
  --constraint.partial-fixed="0 0 1 indices 0 99999" "${TINY[@]}"
launch bad pressure_with_refine "load.pressure" "mesh.refine" -- \
  --mesh.file="$MESHES/beam_v22_ascii.msh" --mesh.refine=1 --load.pressure="1 group tip" --solver.steps=1
launch bad pressure_no_surface "load.pressure" "'oops' is not a surface" -- \
  --mesh.file="$MESHES/beam_v22_ascii.msh" --load.pressure="1 oops" --solver.steps=1
launch bad pressure_triangle_past "load.pressure" "triangle 28 is past the mesh file's 28 triangles" -- \
  --mesh.file="$MESHES/beam_v22_ascii.msh" --load.pressure="1 triangles 3 28" --solver.steps=1
launch bad traction_unknown_group "load.surface-traction" "nosuch" -- \
  --mesh.file="$MESHES/beam_v22_ascii.msh" --load.surface-traction="0 0 1 group nosuch" --solver.steps=1
launch bad partial_fixed_flag     "constraint.partial-fixed" "0 or 1" -- \
  --constraint.partial-fixed="2 0 1 all" "${TINY[@]}"
launch bad movement_no_colon      "constraint.linear-movement" "SELECTION" -- \
  --constraint.linear-movement="0 0 0 0 1 1 0 0 all" "${TINY[@]}"
launch bad movement_short_frame   "constraint.linear-movement" "four numbers" -- \
  --constraint.linear-movement="0 0 0 0 1 1 0 : all" "${TINY[@]}"
launch bad movement_times_order   "constraint.linear-movement" "increase" -- \
  --constraint.linear-movement="1 0 0 0 1 1 0 0 : all" "${TINY[@]}"
launch bad movement_bad_selection "constraint.linear-movement" "indices" -- \
  --constraint.linear-movement="0 0 0 0 : indices 0 99999" "${TINY[@]}"
launch bad movement_newton        "constraint.linear-movement" "solver.newton" -- \
  --constraint.linear-movement="0 0 0 0 1 1 0 0 : all" --solver.newton=full "${TINY[@]}"
launch bad movement_diffusion     "constraint.prescribed-velocity" "elasticity" -- \
  --physics.type=diffusion --solver.first-order=1 --constraint.prescribed-velocity="1 0 0 all" \
  "${TINY[@]}"
launch bad velocity_short         "constraint.prescribed-velocity" -- \
  --constraint.prescribed-velocity="1 0 all" "${TINY[@]}"
launch bad selection_sphere_short "load.total-force" "sphere" -- \
  --load.total-force="1 2 3 sphere 0 0 0" "${TINY[@]}"
launch bad uniform_mass_twice     "mass.total-mass" "mass.vertex-mass" -- --mass.type=uniform \
  --mass.total-mass=2 --mass.vertex-mass=1 "${TINY[@]}"
launch bad total_mass_and_density "mass.total-mass" "material.density" -- --mass.total-mass=2 \
  --material.density=3 "${TINY[@]}"
launch bad region_without_group  "material.region" "nosuch" -- --material.region="nosuch 1 0.3" \
  "${TINY[@]}"
launch bad lame_and_young        "material.lame" "material.young-modulus" -- --material.lame="1 2" \
  --material.young-modulus=3 "${TINY[@]}"
launch bad rest_springs_negative  "springs.rest-shape" -- --springs.rest-shape="-1 all" "${TINY[@]}"
launch bad missing_config         "nosuch.ini" -- --config="$T/nosuch.ini" "${TINY[@]}"
launch bad missing_initial_state  "initial.state" "nosuch.csv" -- --initial.state="$T/nosuch.csv" "${TINY[@]}"
launch bad initial_state_header   "initial.state" "badheader.csv" -- \
  --initial.state="$T/badheader.csv" "${TINY[@]}"
launch bad diffusion_second_order "first-order" -- --physics.type=diffusion "${TINY[@]}"
launch bad pc_lag_negative        "solver.pc-lag" -- --solver.pc-lag=-1 "${TINY[@]}"
launch bad pc_lag_fraction        "solver.pc-lag" "2.5" -- --solver.pc-lag=2.5 "${TINY[@]}"
launch bad pc_rebuild_growth_one  "solver.pc-rebuild-growth" -- --solver.pc-rebuild-growth=1 "${TINY[@]}"
launch bad initial_guess_unknown  "solver.initial-guess" "last" -- --solver.initial-guess=last "${TINY[@]}"
launch bad preconditioner_unknown "solver.preconditioner" "ilu" -- --solver.preconditioner=ilu "${TINY[@]}"
launch bad preconditioner_matrix_free "solver.preconditioner = gamg" "matrix-free" -- \
  --solver.preconditioner=gamg --solver.operator=matrix-free "${TINY[@]}"
# A Newton iterate that turns a Neo-Hookean element inside out stops the run, naming it.
launch bad inverted_element "of the mesh (J = -" -- "${TINY[@]}" \
  --material.model=neohookean --material.young-modulus=100 --load.gravity="0 -5000 0" \
  --solver.dt=0.5 --solver.newton=full
# What the input holds is echoed escaped and short: no raw control byte, no NUL cutting the line,
# no megabyte-long line.
printf '[solver]\ndt = 0.0\0001\n' > nul.ini
launch bad control_bytes_escaped "material.model" '\x1b[2J' -- --material.model=$'\e[2J' "${TINY[@]}"
launch bad ini_nul_byte "nul.ini, line 2" '0.0\x001' -- --config nul.ini "${TINY[@]}"
launch bad long_value_shortened "solver.dt" "100000 bytes in all" -- \
  --solver.dt="$(head -c 100000 /dev/zero | tr '\0' 'x')" "${TINY[@]}"
# Input files that are not regular files are refused by name, not read as empty or forever.
launch bad config_dev_zero "config file /dev/zero" "not a regular file" -- --config=/dev/zero "${TINY[@]}"
launch bad state_dev_zero "initial.state = /dev/zero" "not a regular file" -- \
  --initial.state=/dev/zero "${TINY[@]}"
printf 'id,x,y,z,vx,vy,vz\n0,0,0,0,0,0,0\n-3,1,0,0,0,0,0\n' > negative_id.csv
launch bad state_negative_id "negative_id.csv: line 3" "node id -3 is negative" -- \
  --initial.state=negative_id.csv "${TINY[@]}"
launch bad state_directory "initial.state" "a directory" -- --initial.state="$T" "${TINY[@]}"
# Meshes too large for 32-bit indices or for memory are refused, with figures, before they exist.
launch bad box_too_many_cells "mesh.box-cells" "METIS" -- \
  --mesh.box-cells="100000 100000 100000" --solver.steps=1
launch bad box_cells_int_max "mesh.box-cells" "tetrahedra" -- \
  --mesh.box-cells="2147483647 1 1" --solver.steps=1
launch bad refine_too_deep "mesh.refine = 12" "unknowns" "indices" -- --mesh.refine=12 \
  --solver.steps=1
launch bad box_beyond_memory "GiB per rank" -- --mesh.box-cells="400 400 400" --solver.steps=1
# Slurm's --mem (40 MiB a node, 20 a rank) and --mem-per-cpu (20 MiB) bound what a rank may
# use below the machine's memory: a box that fits the machine is refused by them.
SLURM_MEM_PER_NODE=40 launch bad box_beyond_slurm_mem "Slurm's --mem" "0.01953 GiB per rank" -- \
  --mesh.box-cells="60 12 12" --solver.steps=1
SLURM_MEM_PER_CPU=20 launch bad box_beyond_slurm_mem_per_cpu "0.01953 GiB per rank" -- \
  --mesh.box-cells="60 12 12" --solver.steps=1
# PETSc's own failures, in its start and in a solve, reach the one error line with its message.
launch bad petsc_options_file_missing "PETSc could not start" "Unable to open options file" "/nonexistent/opts" -- \
  "${TINY[@]}" -options_file /nonexistent/opts
launch bad log_view_unwritable "PETSc option -log_view" "no folder /nonexistent/dir" -- \
  "${TINY[@]}" -log_view :/nonexistent/dir/log.txt
launch bad log_view_device "PETSc option -log_view :/dev/full" "not a regular file" -- \
  "${TINY[@]}" -log_view :/dev/full
launch bad preonly_without_a_solver "step 1" "misses the tolerance asked for" -- \
  "${TINY[@]}" -ksp_type preonly -pc_type none --solver.initial-guess=zero
launch bad richardson_without_a_norm "step 1" "reported CONVERGED_ITS" -- \
  "${TINY[@]}" -ksp_type richardson -ksp_norm_type none -ksp_max_it 2
launch bad petsc_solve_not_converged "not converged" "DIVERGED_ITS" -- "${TINY[@]}" \
  -ksp_error_if_not_converged -ksp_max_it 1
# A preconditioner that fails part way through a solve: SOR smoothers meet a zero pivot on a
# GAMG level and -ksp_error_if_not_converged makes that an error inside the solve; destroying
# that half-built GAMG crashed (SEGV) after the error.
launch bad petsc_smoother_fails "step 1" "ZEROPIVOT" "KSPSolve" -- --mesh.box-cells="50 10 10" \
  --solver.steps=1 -mg_levels_ksp_type richardson -mg_levels_pc_type sor -ksp_error_if_not_converged
# Not retried in sub-steps: the retry met the half-built solver and ended on PETSc's complaint
# about that state ("Cannot embed PCPreSolve() more than twice"), not on the cause.
launch bad petsc_smoother_fails_retry "step 1" "ZEROPIVOT" "KSPSolve" -- \
  --mesh.box-cells="50 10 10" --solver.steps=1 --solver.on-failure=retry \
  -mg_levels_ksp_type richardson -mg_levels_pc_type sor -ksp_error_if_not_converged
launch bad petsc_newton_smoother_fails "step 1" "ZEROPIVOT" "SNESSolve" -- \
  --mesh.box-cells="50 10 10" --solver.steps=1 --solver.newton=full \
  -mg_levels_ksp_type richardson -mg_levels_pc_type sor -ksp_error_if_not_converged

# SOFA scenes: one error line naming the scene's file and line (or the eis-source line).
launch bad scn_broken_link "scn_broken_link.scn:11" "broken link '@box.indices'" -- \
  --scene="$T/scn_broken_link.scn" --solver.steps=1
launch bad scn_empty_link "scn_empty_link.scn:11" "broken link '@'" "names no node" -- \
  --scene="$T/scn_empty_link.scn" --solver.steps=1
launch bad scn_bad_value "scn_bad_value.scn:10" "method = 'smal'" "small, large, polar or svd" -- \
  --scene="$T/scn_bad_value.scn" --solver.steps=1
launch bad scn_misspelt_field "scn_misspelt_field.scn:10" \
  "TetrahedronFEMForceField 'fem': unknown data field 'youngModulsu' (did you mean youngModulus?)" -- \
  --scene="$T/scn_misspelt_field.scn" --solver.steps=1
launch bad scn_missing_mesh "scn_missing_mesh.scn:6" "none.msh" "no such file" -- \
  --scene="$T/scn_missing_mesh.scn" --solver.steps=1
# tinyxml2 (SOFA's parser) names the element left open, at the line that opens it.
launch bad scn_xml_syntax "scn_syntax.scn:4" "<EulerImplicitSolver> is not closed" -- \
  --scene="$T/scn_syntax.scn" --solver.steps=1
launch bad scn_include_bad_value "parts/fem.xml:2" "method = 'smal'" -- \
  --scene="$T/scn_include.scn" --solver.steps=1
launch bad scn_include_missing "scn_include_missing.scn:10" "parts/none.xml" "no such file" -- \
  --scene="$T/scn_include_missing.scn" --solver.steps=1
launch bad scn_unsupported "scn_unsupported.scn:4" "PrecomputedConstraintCorrection" "scene.skip-unsupported" -- \
  --scene="$T/scn_unsupported.scn" --solver.steps=1
launch bad scn_python_controller "liver.py:42" "PythonController 'ctl'" "Pulse" "only with the .py scene" -- \
  --scene="$T/scn_python_controller.scn" --solver.steps=1
launch bad scn_python_force_field "s.py:7" "PythonForceField 'pull'" "class Pull" \
  "Sofa.Core.ForceFieldVec3d" "addForce" -- --scene="$T/scn_python_force_field.scn" --solver.steps=1
launch bad scn_static_solver "scn_static.scn:4" "StaticSolver" -- --scene="$T/scn_static.scn" \
  --solver.steps=1
launch bad scn_two_objects "scn_two_objects.scn:12" "a second MechanicalObject in node /body" \
  "scn_two_objects.scn:8" -- --scene="$T/scn_two_objects.scn" --solver.steps=1
launch bad scn_body_no_mesh "scn_body_no_mesh.scn:12" "MechanicalObject: no mass component" "mapped child" -- \
  --scene="$T/scn_body_no_mesh.scn" --solver.steps=1
launch bad scn_mapped_mass "scn_mapped_mass.scn:12" "SphereForceField" "mapped child" -- \
  --scene="$T/scn_mapped_mass.scn" --solver.steps=1
launch bad scn_unknown_component "scn_unknown.scn:9" "UnknownForceField" "not supported" -- \
  --scene="$T/scn_unknown.scn" --solver.steps=1
launch bad scn_missing_file "scene.file" "no such file" -- --scene="$T/none.scn" --solver.steps=1
launch bad py_missing_scene "scene.file" "liver.py" "no such file" -- --scene="$T/liver.py" \
  --solver.steps=1
launch bad py_scene_error "py_error.py:3" "ValueError: no mesh" -- --scene="$T/py_error.py" \
  --solver.steps=1
launch bad py_scene_exit "py_exit.py:3" "the scene exited (status 3) before createScene returned" \
  -- --scene="$T/py_exit.py" --solver.steps=1
launch bad py_scene_endless "py_endless.py" "did not return within 1 s" "python3 killed" -- \
  --scene="$T/py_endless.py" --scene.python-timeout=1 --solver.steps=1

# Two keys that name one file (through a link, or ./ and ../): refused before anything is
# written, the input left as it was (checked after the wait below).
cp good.msh same.msh
ln -s same.msh same_link.msh
launch bad output_is_the_mesh "output.final-state" "is the same file as mesh.file" -- \
  --mesh.file="$T/same_link.msh" --solver.steps=1 --output.final-state="$T/same.msh"
launch bad convert_over_the_mesh "mesh.convert" "is the same file as mesh.file" -- \
  --mesh.file="$T/same.msh" --mesh.convert="$T/sub/../same.msh"
launch bad history_is_the_state "output.history" "is the same file as output.final-state" -- \
  "${TINY[@]}" --output.final-state="$T/st.csv" --output.history="$T/./st.csv"
printf '[solver]\nsteps = 1\n' > same.ini
launch bad output_is_the_config "output.final-state" "is the same file as config" -- \
  --config="$T/same.ini" --mesh.box-cells="2 1 1" --output.final-state="$T/same.ini"

# A FIFO as an input is refused by name, not opened (opening waits for a writer for ever); as
# mesh.convert's target it is refused, not replaced.
mkfifo pipe
launch bad fifo_mesh_file "mesh file" "pipe" "not a regular file" -- --mesh.file="$T/pipe" \
  --solver.steps=1
launch bad fifo_initial_state "initial.state" "not a regular file" -- "${TINY[@]}" \
  --initial.state="$T/pipe"
launch bad fifo_convert_target "mesh.convert" "is not a regular file" -- "${TINY[@]}" \
  --mesh.convert="$T/pipe"
launch bad convert_to_dev_full "mesh.convert = /dev/full" "not a regular file" -- "${TINY[@]}" \
  --mesh.convert=/dev/full

# --- bodies solved as one system, interaction springs ----------------------------------------
cat > "$T/pair.ini" <<'EOF'
[material]
model = none
[mass]
type = uniform
[constraint]
fixed = indices 1 2 3
[a/mesh]
nodes = 0 0 0  -1 0 0  -1 0 1  -1 1 0
tetrahedra = 0 1 2 3
[a/interaction]
springs = /b 0 0 50 2 1.2
[b/mesh]
nodes = 1.5 0.2 0.1  2.5 0.2 0.1  2.5 1.2 0.1  2.5 0.2 1.1
tetrahedra = 0 1 2 3
EOF
PAIR=(--config="$T/pair.ini" --solver.steps=1)
launch bad springs_across_systems "interaction.springs of /a" "/b is no body of its solver.group" \
  -- "${PAIR[@]}"
launch bad springs_matrix_free "solver.group = g" "solver.operator = matrix-free is not supported" \
  -- "${PAIR[@]}" --solver.group=g --solver.operator=matrix-free
launch bad springs_newton "solver.newton = full is not supported" \
  -- "${PAIR[@]}" --solver.group=g --solver.newton=full
launch bad springs_motion "constraint.prescribed-velocity of /b" "prescribed motion" \
  -- "${PAIR[@]}" --solver.group=g --b/constraint.prescribed-velocity="1 0 0 indices 0"
launch bad springs_no_such_node "node 9 of /b is no node" \
  -- "${PAIR[@]}" --solver.group=g --a/interaction.springs="/b 0 9 50 2 1"
launch bad springs_syntax "interaction.springs" "five values per spring" \
  -- "${PAIR[@]}" --solver.group=g --a/interaction.springs="/b 0 0 50 2"
launch bad group_solver_differs "solver.rayleigh-mass differs between the bodies /a and /b" \
  -- "${PAIR[@]}" --solver.group=g --b/solver.rayleigh-mass=0.1
cat > "$T/scn_springs_two_solvers.scn" <<'EOF'
<Node name="root" dt="0.01">
    <Node name="a">
        <EulerImplicitSolver/>
        <SparseLDLSolver/>
        <RegularGridTopology n="2 2 2" min="0 0 0" max="1 1 1"/>
        <MechanicalObject name="dofs"/>
        <UniformMass vertexMass="1"/>
    </Node>
    <Node name="b">
        <EulerImplicitSolver/>
        <SparseLDLSolver/>
        <RegularGridTopology n="2 2 2" min="2 0 0" max="3 1 1"/>
        <MechanicalObject name="dofs"/>
        <UniformMass vertexMass="1"/>
    </Node>
    <SpringForceField object1="@a/dofs" object2="@b/dofs" spring="1 0 10 0 1"/>
</Node>
EOF
launch bad scn_springs_two_solvers "scn_springs_two_solvers.scn:16: SpringForceField" "different ODE solvers" \
  -- --scene="$T/scn_springs_two_solvers.scn" --solver.steps=1
sed 's|object2="@b/dofs"|object2="@b/dofs.position"|' "$T/scn_springs_two_solvers.scn" \
  > "$T/scn_springs_field_link.scn"
launch bad scn_springs_field_link "object2 = @b/dofs.position links to no MechanicalObject" \
  -- --scene="$T/scn_springs_field_link.scn" --solver.steps=1

# --- harmless input: warnings only -----------------------------------------------------------
launch warns scn_collision_skipped "contact is not simulated.*TriangleCollisionModel" -- \
  --scene="$T/scn_skipped.scn" --solver.steps=1
launch warns scn_unsupported_skipped "skipped UnknownForceField" -- \
  --scene="$T/scn_unknown.scn" --scene.skip-unsupported=true --solver.steps=1
# Every node fixed: a motionless run with a warning, not a preconditioner failure.
launch warns every_node_fixed "every unknown is fixed" -- "${TINY[@]}" \
  --constraint.fixed-box="-1 -1 -1 100 100 100"
# The penalty obstacles (SOFA PlaneForceField, SphereForceField) and SOFA's HexahedralFEMForceField.
launch bad plane_too_short "obstacle.plane" "expected NX NY NZ D" -- "${TINY[@]}" \
  --obstacle.plane="0 1 0"
launch bad plane_zero_normal "obstacle.plane" "the normal is zero" -- "${TINY[@]}" \
  --obstacle.plane="0 0 0 1"
launch bad plane_negative_stiffness "obstacle.plane" "must be >= 0" -- "${TINY[@]}" \
  --obstacle.plane="0 1 0 0 -5"
launch bad sphere_negative_radius "obstacle.sphere" "must be >= 0" -- "${TINY[@]}" \
  --obstacle.sphere="0 0 0 -1"
launch bad hexahedral_fem_on_tetrahedra "hexahedral-fem" "this mesh has tetrahedra" -- \
  "${TINY[@]}" --material.model=corotational --material.hexahedron-element=hexahedral-fem
launch bad hexahedral_fem_small "hexahedral-fem" "corotational only" -- "${TINY[@]}" \
  --mesh.cell-type=hexahedron --material.hexahedron-element=hexahedral-fem
launch warns fixed_box_selects_nothing "fixed-box.*selects no node" -- "${TINY[@]}" \
  --constraint.fixed-box="0 0 0 0 1 1" --constraint.fixed-box="100 100 100 101 101 101"
launch warns negatively_oriented_tet "[^0-9]1 tetrahedr.*negatively oriented" -- \
  --mesh.file="$T/inverted.msh" --constraint.fixed-box="0 0 0 0 1 1" --solver.steps=1

wait
cases=$((cases + 1))
if cmp -s same.msh good.msh; then echo "ok   an output naming the mesh left it intact"
else echo "FAIL an output naming the mesh changed it"; fi > "$T/results/same_file_intact"
cat "$T"/results/*
passed=$(cat "$T"/results/* | grep -c '^ok   ')
failed=$(cat "$T"/results/* | grep -c '^FAIL ')
# A case that reported nothing at all (the shell itself failed) counts as failed.
missing=$((cases - passed - failed))
if [ "$missing" -gt 0 ]; then
  echo "FAIL $missing case(s) produced no report"
  failed=$((failed + missing))
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
