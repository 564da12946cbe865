#!/usr/bin/env bash
# SOFA Vec1 and Vec2 states on a RegularGridTopology (--scene FILE.scn), 3D points whose
# coordinates past the first d are held at zero (io/sofa_low_dimension):
#  - a Vec1 chain of 5 points (spacing 1, the first fixed, MeshSpringForceField stiffness k:
#    SOFA's ks = k / l) hangs under gravity "2 5 -3", of which a Vec1 state keeps 2 along x:
#    after 300 steps on 1, 2 and 3 ranks it is at rest at the closed form of the chain, spring i
#    carrying m g (5 - i), x_j = j + sum_{i<=j} m g (5 - i) / ks, to 1e-9, and y = z = 0 exactly;
#  - a Vec1 oscillator (one free point on one spring) follows SOFA's implicit Euler step, computed
#    step by step, for 20 steps, to 1e-12;
#  - a Vec2 grid of 4 x 3 x 1 points at z = 0.7 under gravity "1 -9.81 2", a BoxROI whose z range
#    (5, 6) holds none of them fixing the column x = 0 (BoxROI tests a Vec2 point's x and y
#    alone), is the same grid as Vec3 with z fixed (PartialFixedProjectiveConstraint fixAll,
#    fixedDirections 0 0 1) and a box about z = 0.7: x, y and their velocities to 1e-12 of the
#    largest on 1, 2 and 3 ranks, z = 0 (the grid's z dropped); 1, 2 and 3 ranks agree;
#  - the chain pulled at its tip by a ConstantForceField of one number rests at x_j = j (1 + F/ks);
#    the Vec2 grid's ConstantForceFields (forces of 2 numbers an index, a totalForce of 2) are the
#    Vec3 twin's with z 0;
#  - what a Vec1 or Vec2 state cannot honour is refused by name: a volume or membrane FEM force
#    field, a RestShapeSpringsForceField, forces of 3 numbers on a Vec2 state, a SphereROI, a grid with two layers along a dropped axis,
#    positions written in the scene, points that are not a grid's.
# Usage: sofa_low_dimension.sh <euler-implicit> <meshes dir>; the MPI launch line:
# tests/common/mpi_launch.sh.
set -euo pipefail
RANKS=3  # MPI ranks per run at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
# shellcheck source=SCRIPTDIR/../common/regression_test.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/regression_test.sh"

run() {  # run RANKS ARGS...
  mpi_command "$1" "$EXE"
  timeout 120 "${MPI_COMMAND[@]}" "${@:2}" --quiet > run.out 2> run.err
}

solvers='<EulerImplicitSolver rayleighStiffness="0.1" rayleighMass="0.5"/>
    <CGLinearSolver iterations="1000" tolerance="1e-14" threshold="1e-30"/>'
cat > chain.scn <<EOF
<Node name="root" dt="0.1" gravity="2 5 -3"><DefaultAnimationLoop/>
    $solvers
    <MechanicalObject template="Vec1d"/>
    <UniformMass vertexMass="0.3"/>
    <RegularGridTopology nx="5" ny="1" nz="1" xmin="0" xmax="4" ymin="-1" ymax="1" zmin="2" zmax="2"/>
    <FixedProjectiveConstraint indices="0"/>
    <MeshSpringForceField stiffness="40"/>
</Node>
EOF
# The largest distance from the chain at rest; "flat" when every y and z is 0.
cat > chain.py <<'PY'
import sys
rows = [[float(t) for t in line.split(",")] for line in open(sys.argv[1]).read().split()[1:]]
m, g, ks, n = 0.3, 2.0, 40.0, 5
want, x = [], 0.0
for j in range(n):
    if j > 0:
        x += 1 + m * g * (n - j) / ks
    want.append(x)
worst = max(abs(r[1] - want[int(r[0])]) for r in rows)
flat = all(r[2] == 0 and r[3] == 0 and r[5] == 0 and r[6] == 0 for r in rows)
print("%.3e %s" % (worst, "flat" if flat else "not-flat"))
PY
for ranks in 1 2 3; do
  status=0
  run "$ranks" --scene chain.scn --solver.steps=300 --output.final-state="chain$ranks.csv" ||
    status=$?
  check "a Vec1 chain runs on $ranks rank(s)" test "$status" -eq 0
  [ "$status" -eq 0 ] || { sed 's/^/     | /' run.err; continue; }
  read -r worst flat < <(python3 chain.py "chain$ranks.csv")
  check "on $ranks rank(s) the chain rests at its closed form: $worst <= 1e-9" below "$worst" 1e-9
  check "on $ranks rank(s) its y and z stay 0, held" test "$flat" = flat
done

# The chain pulled at its tip by a ConstantForceField (forces="1.5", one number a force), gravity
# along x 0: every spring carries 1.5, x_j = j (1 + 1.5 / ks).
sed 's/gravity="2 5 -3"/gravity="0 5 -3"/
     s|<MeshSpringForceField[^>]*>|&<ConstantForceField indices="4" forces="1.5"/>|' \
  chain.scn > pulled.scn
status=0
run 2 --scene pulled.scn --solver.steps=300 --output.final-state=pulled.csv || status=$?
check "a Vec1 chain pulled at its tip runs" test "$status" -eq 0
pulled=$(python3 -c '
import sys
rows = [[float(t) for t in line.split(",")] for line in open(sys.argv[1]).read().split()[1:]]
print("%.3e" % max(abs(r[1] - r[0] * (1 + 1.5 / 40)) for r in rows))' pulled.csv 2>/dev/null) ||
  pulled=missing
check "it rests at x_j = j (1 + F / ks): $pulled <= 1e-9" below "$pulled" 1e-9

# One degree of freedom: two points 1 apart, the first fixed, a spring ks = 40 / 1, mass 0.3,
# gravity 2 along x; SOFA's step on it (docs/architecture.md, The step: K = -ks, B = 0)
# A dv = h (f(x_n) + (h + rK) K v_n - rM M v_n), A = (1 + h rM) m - h (h + rK) K, computed here
# step by step; the run's x and v after 20 steps (most of a period) against it, to 1e-12 of x.
sed 's/dt="0.1"/dt="0.02"/; s/nx="5"/nx="2"/; s/xmax="4"/xmax="1"/
     s/rayleighStiffness="0.1" rayleighMass="0.5"/rayleighStiffness="0.01" rayleighMass="0.02"/' \
  chain.scn > oscillator.scn
cat > oscillator.py <<'PY'
import sys
rows = [[float(t) for t in line.split(",")] for line in open(sys.argv[1]).read().split()[1:]]
m, g, ks, h, rm, rk = 0.3, 2.0, 40.0, 0.02, 0.02, 0.01
x, v = 1.0, 0.0
for _ in range(20):
    a = (1 + h * rm) * m + h * (h + rk) * ks
    v += h * (-ks * (x - 1) + m * g - (h + rk) * ks * v - rm * m * v) / a
    x += h * v
got = rows[1]
print("%.3e" % max(abs(got[1] - x) / abs(x), abs(got[4] - v) / abs(x)))
PY
for ranks in 1 2 3; do
  status=0
  run "$ranks" --scene oscillator.scn --solver.steps=20 --output.final-state="osc$ranks.csv" ||
    status=$?
  check "a Vec1 oscillator runs on $ranks rank(s)" test "$status" -eq 0
  [ "$status" -eq 0 ] || { sed 's/^/     | /' run.err; continue; }
  worst=$(python3 oscillator.py "osc$ranks.csv")
  check "on $ranks rank(s) it follows SOFA's step in closed form: $worst <= 1e-12" \
    below "$worst" 1e-12
done

plane() {  # plane TEMPLATE BOX EXTRA
  cat <<EOF
<Node name="root" dt="0.02" gravity="1 -9.81 2"><DefaultAnimationLoop/>
    $solvers
    <MechanicalObject template="$1"/>
    <UniformMass totalMass="6"/>
    <RegularGridTopology nx="4" ny="3" nz="1" xmin="0" xmax="3" ymin="0" ymax="1" zmin="0.7" zmax="0.7"/>
    <BoxROI name="box" box="$2"/>
    <FixedProjectiveConstraint indices="@box.indices"/>
    <MeshSpringForceField stiffness="300"/>
    $3
</Node>
EOF
}
plane Vec2 "-0.1 -0.1 5 0.1 1.1 6" '<ConstantForceField indices="3 7" forces="1 2 -3 0.5"/>
    <ConstantForceField totalForce="2 -1"/>' > vec2.scn
plane Vec3 "-0.1 -0.1 0 0.1 1.1 1" '<ConstantForceField indices="3 7" forces="1 2 0 -3 0.5 0"/>
    <ConstantForceField totalForce="2 -1 0"/>
    <PartialFixedProjectiveConstraint fixAll="true" fixedDirections="0 0 1"/>' > vec3.scn
# The largest difference of x, y, vx, vy over the largest of them; "flat" when the first file's
# z and vz are 0.
cat > compare.py <<'PY'
import sys
a, b = ([[float(t) for t in line.split(",")] for line in open(f).read().split()[1:]]
        for f in sys.argv[1:3])
cols = (1, 2, 4, 5)
scale = max(abs(r[c]) for r in b for c in cols)
worst = max(abs(p[c] - q[c]) for p, q in zip(a, b) for c in cols) / scale
flat = len(a) == len(b) == 12 and all(r[3] == 0 and r[6] == 0 for r in a)
print("%.3e %s" % (worst, "flat" if flat else "not-flat"))
PY
for ranks in 1 2 3; do
  status=0
  run "$ranks" --scene vec2.scn --solver.steps=30 --output.final-state="vec2_$ranks.csv" ||
    status=$?
  run "$ranks" --scene vec3.scn --solver.steps=30 --output.final-state="vec3_$ranks.csv" ||
    status=$?
  check "a Vec2 grid and its Vec3 twin run on $ranks rank(s)" test "$status" -eq 0
  [ "$status" -eq 0 ] || { sed 's/^/     | /' run.err; continue; }
  read -r worst flat < <(python3 compare.py "vec2_$ranks.csv" "vec3_$ranks.csv")
  check "on $ranks rank(s) the Vec2 grid is the Vec3 one with z fixed: $worst <= 1e-12" \
    below "$worst" 1e-12
  check "on $ranks rank(s) the Vec2 grid's z and vz are 0" test "$flat" = flat
done
read -r worst _ < <(python3 compare.py vec2_1.csv vec2_3.csv 2>/dev/null) || worst=missing
check "1 and 3 ranks agree on the Vec2 grid: $worst <= 1e-12" below "$worst" 1e-12
read -r worst _ < <(python3 compare.py chain1.csv chain3.csv 2>/dev/null) || worst=missing
check "1 and 3 ranks agree on the Vec1 chain: $worst <= 1e-12" below "$worst" 1e-12

plane Vec2 "-0.1 -0.1 5 0.1 1.1 6" '<TriangularFEMForceField youngModulus="100"/>' > refused.scn
# refused.scn, one step on 2 ranks:
one_step=(2 "$EXE" --scene refused.scn --solver.steps=1)
check "a membrane FEM on a Vec2 state is refused (one error line)" \
  refused "TriangularFEMForceField.*not supported on a Vec2 state" "${one_step[@]}"
plane Vec2 "-0.1 -0.1 5 0.1 1.1 6" '<ConstantForceField indices="3 7" forces="1 0 2"/>' \
  > refused.scn
check "3 numbers of forces for 2 points of a Vec2 state is refused (one error line)" \
  refused "expected 2 numbers .* or 2 per index" "${one_step[@]}"
plane Vec2 "-0.1 -0.1 5 0.1 1.1 6" '<RestShapeSpringsForceField stiffness="1"/>' > refused.scn
check "a RestShapeSpringsForceField on a Vec2 state is refused (one error line)" \
  refused "RestShapeSpringsForceField.*not supported on a Vec2 state" "${one_step[@]}"
sed 's/<BoxROI name="box" box="[^"]*"/<SphereROI name="box" centers="0 0 0" radii="1"/' vec2.scn \
  > refused.scn
check "a SphereROI on a Vec2 state is refused (one error line)" \
  refused "SphereROI on a Vec1 or Vec2 state is not supported" "${one_step[@]}"
sed 's/nz="1"/nz="2"/; s/zmax="0.7"/zmax="1.7"/' vec2.scn > refused.scn
check "a Vec2 state on a grid of two layers along z is refused (one error line)" \
  refused "2 points along z, which .*drops" "${one_step[@]}"
sed 's/template="Vec1d"/template="Vec1d" position="0 1 2 3 4"/' chain.scn > refused.scn
check "positions written on a Vec1 state is refused (one error line)" \
  refused "position = .*not supported on a Vec1d state" "${one_step[@]}"
sed 's/<RegularGridTopology[^>]*>/<MeshTopology position="0 0 0 1 0 0" edges="0 1"\/>/' \
  chain.scn > refused.scn
check "a Vec1 state whose points are not a grid's is refused (one error line)" \
  refused "takes its points from a RegularGridTopology" "${one_step[@]}"
sed 's/<MeshSpringForceField[^>]*>/<HexahedronFEMForceField\/>/; s/nx="5" ny="1" nz="1"/nx="3" ny="2" nz="2"/' \
  chain.scn > refused.scn
check "a volume FEM on a Vec1 state is refused (one error line)" \
  refused "HexahedronFEMForceField.*not supported on a Vec1d state" "${one_step[@]}"
sed 's/nx="5" ny="1"/nx="5" ny="2"/' chain.scn > refused.scn
check "a Vec1 state on a grid of two rows along y is refused (one error line)" \
  refused "2 points along y, which .*drops" "${one_step[@]}"
echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
