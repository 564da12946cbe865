#!/usr/bin/env bash
# TetrahedronHyperelasticityFEMForceField's MooneyRivlin ("C10 C01 K0") and Ogden
# ("MU1 ALPHA1 K0") on tests/data/sofa's small beam under gravity: each runs on 1, 2 and 3 ranks
# (matrix-free), agrees across rank counts to 1e-10 and moves; a ParameterSet of two numbers is
# refused.
# Usage: sofa_hyperelastic_laws.sh <euler-implicit> <meshes dir>.
set -euo pipefail
RANKS=3  # MPI ranks per run at most; tests/CMakeLists.txt reads this line too (PROCESSORS)
MESHES=$(realpath "$2")
DATA=$(realpath "$2/../tests/data/sofa")
EXE=$(realpath "$1")
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/mpi_launch.sh"
launch_in_scratch "$RANKS" "$EXE"
# shellcheck source=SCRIPTDIR/../common/checks.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/checks.sh"
: "$MESHES"

run() {  # run RANKS ARGS...: one run, quiet
  mpi_command "$1" "$EXE"
  timeout 60 "${MPI_COMMAND[@]}" "${@:2}" --quiet > run.out 2> run.err
}

# agreement REFERENCE RESULT: max |x - x_ref| / max |x_ref - x_rest| (rest: the mesh's $Nodes).
agreement() {
  awk -F'[, ]' '
    FILENAME == ARGV[1] {
      if ($0 == "$Nodes") { nodes = 1; count = -1; next }
      if ($0 == "$EndNodes") nodes = 0
      if (nodes && count++ >= 0) { rest[count - 1, 2] = $2; rest[count - 1, 3] = $3; rest[count - 1, 4] = $4 }
      next
    }
    FNR == 1 { next }
    FILENAME == ARGV[2] {
      for (c = 2; c <= 4; ++c) { ref[$1, c] = $c; u = $c - rest[$1, c]; if (u < 0) u = -u; if (u > umax) umax = u }
      next
    }
    { for (c = 2; c <= 4; ++c) { d = $c - ref[$1, c]; if (d < 0) d = -d; if (d > dmax) dmax = d }; rows++ }
    END { if (rows == 0 || umax == 0) print "nan"; else printf "%.3e\n", dmax / umax }
  ' "$DATA/beam-small.msh" "$1" "$2"
}

mkdir -p scenes
for law in "MooneyRivlin mooney-rivlin 1e7 5e6 8e7" "Ogden ogden 1e7 3.5 8e7"; do
  read -r sofa ours p0 p1 p2 <<< "$law"
  sed -e "s|<TetrahedronFEMForceField [^>]*>|<TetrahedronHyperelasticityFEMForceField materialName=\"$sofa\" ParameterSet=\"$p0 $p1 $p2\"/>|" \
    -e "s|filename=\"../beam-small.msh\"|filename=\"$DATA/beam-small.msh\"|" \
    "$DATA/scenes/a_small.scn" > "scenes/$ours.scn"
  for ranks in 1 2 3; do
    status=0
    run "$ranks" --scene "scenes/$ours.scn" --solver.steps=20 --solver.operator=matrix-free \
      --output.final-state="${ours}_$ranks.csv" || status=$?
    check "a $sofa scene runs on $ranks rank(s)" test "$status" -eq 0
  done
  for ranks in 2 3; do
    value=$(agreement "${ours}_1.csv" "${ours}_$ranks.csv")
    check "the $sofa beam on $ranks ranks agrees with 1 rank: $value <= 1e-10" below "$value" 1e-10
  done
  cp "${ours}_1.csv" "${ours}_copy.csv"
  check "the $sofa beam moves" test "$(agreement "${ours}_1.csv" "${ours}_copy.csv")" = 0.000e+00
  sed 's|ParameterSet="\([^ ]*\) \([^ ]*\) [^"]*"|ParameterSet="\1 \2"|' "scenes/$ours.scn" \
    > "scenes/${ours}_two.scn"
  status=0
  run 2 --scene "scenes/${ours}_two.scn" --solver.steps=1 || status=$?
  check "a $sofa ParameterSet of two numbers is refused" grep -q "expected the three parameters" run.err
done

if [ "$failures" -ne 0 ]; then echo "$failures check(s) failed"; exit 1; fi
echo "all checks passed"
