#!/usr/bin/env bash
# SOFA's SurfacePressureForceField on a BarycentricMapping child's own triangles and quadrangles
# (io/sofa_mapped_pressure.cpp, model/mapped_pressure.cpp): a free body of point masses whose
# child holds two triangles and a quadrangle on points in different tetrahedra and a closed
# octahedron, under a pulsed pressure, takes the four steps tests/common/mapped_pressure.py
# computes with numpy from SOFA's formulas (J^T f_c, J^T K_c J, EulerImplicitSolver's step), to
# 1e-12, on 1 and 2 ranks, and on 3 with the child read by a MeshOBJLoader (its points and faces
# from an OBJ file of triangles and a quadrangle); the octahedron alone leaves the body's
# momentum 0 (a closed surface's net force is zero) while its nodes move. Under a solver that
# assembles, and on a box of faces, one error line names what is refused.
# Usage: sofa_mapped_pressure.sh <euler-implicit> <meshes dir>.
set -uo pipefail
RANKS=3  # MPI ranks per run at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
here=$(dirname "$(realpath "${BASH_SOURCE[0]}")")
# shellcheck source=SCRIPTDIR/../common/regression_test.sh
source "$here/../common/regression_test.sh"
python=${PYTHON:-/usr/bin/python3}
steps="$here/../common/mapped_pressure.py"

for kind in written obj closed; do "$python" "$steps" scene $kind > $kind.scn; done
# The third run's child is read by a MeshOBJLoader from child.obj (obj.scn).
for ranks in 1 2 3; do
  kind=$([ "$ranks" = 3 ] && echo obj || echo written)
  check "a pressure on a mapped child's faces ($kind.scn) runs on $ranks rank(s)" \
    run "$ranks" --scene "$kind.scn" --solver.steps=4 --output.final-state="$kind$ranks.csv"
  [ -s "$kind$ranks.csv" ] || sed 's/^/     | /' run.err
  check "... and takes the steps numpy computes from SOFA's formulas ($ranks rank(s))" \
    "$python" "$steps" check "$kind" "$kind$ranks.csv" 1e-12
done
check "a closed surface on a free body, 2 ranks" \
  run 2 --scene closed.scn --solver.steps=4 --output.final-state=closed.csv
check "... keeps its momentum 0 and takes numpy's steps" \
  "$python" "$steps" check closed closed.csv 1e-12

sed 's|<CGLinearSolver [^>]*>|<SparseLDLSolver/>|' written.scn > direct.scn
check "under a solver that assembles (SparseLDLSolver) it is refused, naming it" \
  refused "SurfacePressureForceField.*supported under a CGLinearSolver (matrix-free) only" \
  1 "$EXE" --scene direct.scn --solver.steps=1
sed 's|pulseMode="true"|min="0.5 0 0" max="1 1 1" &|' written.scn > box.scn
check "a box of faces is refused, naming the field" \
  refused "SurfacePressureForceField.*min.*a box on a mapped child's faces" \
  1 "$EXE" --scene box.scn --solver.steps=1
echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
