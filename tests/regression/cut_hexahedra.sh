#!/usr/bin/env bash
# A tetrahedral element on hexahedra cut into tetrahedra (material.hexahedron-cut: SOFA's
# TetrahedronFEMForceField on a grid whose hexahedra a mass reads): with UniformMass, whose node
# masses do not depend on the cells, the hexahedra cut by the key end where the same tetrahedra
# written out as the mesh end, for each elastic law and for one cut for all or one a hexahedron;
# with a mass on the hexahedra (SOFA's MeshMatrixMass) 1, 2 and 3 ranks end in one state; a cut
# of what is no hexahedral mesh, and a cut without material.cells = tetrahedron, are refused.
# Usage: cut_hexahedra.sh <euler-implicit>; the MPI launch line: tests/common/mpi_launch.sh.
set -uo pipefail
RANKS=3  # MPI ranks at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
here=$(dirname "$(realpath "${BASH_SOURCE[0]}")")
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$here/../common/mpi_launch.sh"
# shellcheck source=SCRIPTDIR/../common/checks.sh
source "$here/../common/checks.sh"
program=$(realpath "$1")
launch_in_scratch 1 "$program"

run() {  # run RANKS ARGS...: euler-implicit on RANKS ranks, its output in run.log
  mpi_command "$1" "$program"
  "${MPI_COMMAND[@]}" "${@:2}" >run.log 2>&1
}

# A 4 x 2 x 2 grid of hexahedra (SOFA's vertex order: 0..3 counter-clockwise at z, 4..7 above),
# points 0.5 x 0.4 x 0.3 apart, node i + 5 j + 15 k at (0.5 i, 0.4 j, 0.3 k).
nodes=$(awk 'BEGIN { for (k = 0; k < 3; k++) for (j = 0; j < 3; j++) for (i = 0; i < 5; i++)
  printf "%s%g %g %g", (i + j + k ? " " : ""), 0.5 * i, 0.4 * j, 0.3 * k }')
corners() {  # the hexahedra's corners, one hexahedron a line
  awk 'BEGIN { for (k = 0; k < 2; k++) for (j = 0; j < 2; j++) for (i = 0; i < 4; i++) {
    a = i + 5 * j + 15 * k
    print a, a + 1, a + 6, a + 5, a + 15, a + 16, a + 21, a + 20 } }'
}
hexahedra=$(corners | tr '\n' ' ')
# Hexa2TetraTopologicalMapping's two patterns; the second each tetrahedron turned over.
straight="0 5 1 6 0 1 3 6 1 3 6 2 6 3 0 7 6 7 0 5 7 5 4 0"
turned="0 5 6 1 0 1 6 3 1 3 2 6 6 3 7 0 6 7 5 0 7 5 0 4"
per_cell=$(for c in $(seq 0 15); do
  if ((c % 3 == 1)); then echo -n "$turned "; else echo -n "$straight "; fi
done)
tetrahedra() {  # tetrahedra SLOTS: the hexahedra cut as SLOTS (24 for all, or 24 a hexahedron)
  corners | awk -v s="$1" 'BEGIN { n = split(s, slot, " ") }
    { for (t = 0; t < 6; t++) for (a = 0; a < 4; a++) {
        o = (n == 24 ? 0 : 24 * (NR - 1)) + 4 * t + a + 1
        printf "%s%d", (NR + t + a > 1 ? " " : ""), $(slot[o] + 1) } }'
}
common=(--mesh.nodes="$nodes" --solver.dt=0.02 --solver.rtol=1e-13 --output.progress-every=0
  --material.young-modulus=3000 --material.poisson-ratio=0.35 --load.gravity="0 -9.81 0"
  --constraint.fixed-box="-0.01 -1 -1 0.01 1 1" --solver.steps=4)
uniform=(--mass.type=uniform --mass.total-mass=2 --material.cells=tetrahedron)

for model in "linear" "corotational --material.rotation=large" "corotational --material.rotation=polar" "stvk"; do
  for cut in straight per_cell; do
    # shellcheck disable=SC2206  # the model's words are options
    options=(--material.model=$model)
    run 1 "${common[@]}" "${uniform[@]}" "${options[@]}" --mesh.hexahedra="$hexahedra" \
      --material.hexahedron-cut="${!cut}" --output.final-state=cut.csv
    check "$model, $cut cut: the hexahedra cut run" test -s cut.csv
    run 1 "${common[@]}" "${uniform[@]}" "${options[@]}" \
      --mesh.tetrahedra="$(tetrahedra "${!cut}")" --output.final-state=tets.csv
    check "$model, $cut cut: the tetrahedra run" test -s tets.csv
    check "$model, $cut cut: the cut hexahedra end where the tetrahedra end" \
      same_state cut.csv tets.csv 1e-11
  done
done

for mass in consistent lumped; do
  for ranks in 1 2 3; do
    run "$ranks" "${common[@]}" --mass.type=$mass --material.density=3 \
      --material.cells=tetrahedron --material.model=corotational --mesh.hexahedra="$hexahedra" \
      --material.hexahedron-cut="$per_cell" --output.final-state="end$ranks.csv"
    check "$mass mass on the hexahedra, FEM on the cut, $ranks ranks: runs" test -s "end$ranks.csv"
  done
  check "$mass: 2 ranks end where 1 rank does" same_state end1.csv end2.csv 1e-11
  check "$mass: 3 ranks end where 1 rank does" same_state end1.csv end3.csv 1e-11
done

run 2 "${common[@]}" "${uniform[@]}" --mesh.tetrahedra="$(tetrahedra "$straight")" \
  --material.hexahedron-cut="$straight"
check "a cut of tetrahedra is refused by name" grep -q \
  "material.hexahedron-cut: cuts hexahedra, and this mesh has tetrahedra" run.log
run 2 "${common[@]}" --mass.type=uniform --mesh.hexahedra="$hexahedra" --material.cells=any \
  --material.hexahedron-cut="$straight"
check "a cut without material.cells = tetrahedron is refused" grep -q \
  "give material.cells = tetrahedron" run.log
run 2 "${common[@]}" "${uniform[@]}" --mesh.hexahedra="$hexahedra" \
  --material.hexahedron-cut="$straight $straight"
check "a cut of the wrong length is refused" grep -q "48 slots for 16 hexahedra" run.log
echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
