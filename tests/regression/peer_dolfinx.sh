#!/usr/bin/env bash
# euler-implicit against the FEniCSx peer jobs/bench/peer_dolfinx.py, an independent dolfinx
# implementation of the same scene (built-in box, linear elasticity, gravity, x = 0 fixed, SOFA's
# implicit Euler step): node by node, the agreement metric (largest position difference over all
# nodes and components / largest displacement, and the same for velocities / largest speed) is
# below 1e-8 on a 256-node box after 5 steps, for
#   1. consistent mass, default material and step, CG + GAMG at -ksp_rtol 1e-12 in both;
#   2. consistent mass, another material, dt, density and gravity, Rayleigh damping rM and rK,
#      direct solves (LU) in both;
#   3. lumped mass, direct solves.
# Needs Debian's python3-dolfinx (jobs/install-deps.sh installs it): fails, saying so, without it.
# Usage: peer_dolfinx.sh <euler-implicit> <meshes dir>; the MPI launch line: tests/common/mpi_launch.sh.
set -euo pipefail
RANKS=1  # MPI ranks per run; tests/CMakeLists.txt reads this line too (PROCESSORS)
exe=$(realpath "$1")
peer=$(realpath "$(dirname "${BASH_SOURCE[0]}")/../../jobs/bench/peer_dolfinx.py")
python=/usr/bin/python3
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/mpi_launch.sh"
if ! "$python" -c 'import dolfinx' 2>/dev/null; then
  echo "FAIL $python cannot import dolfinx: install Debian's python3-dolfinx" \
    "(bash jobs/install-deps.sh)"
  exit 1
fi
mpi_command "$RANKS" "$exe"
ours=("${MPI_COMMAND[@]}")
mpi_command "$RANKS" "$python"
theirs=("${MPI_COMMAND[@]}" "$peer")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

box=(--mesh.box-size="10 1 1" --mesh.box-cells="15 3 3")
timeout 60 "${ours[@]}" "${box[@]}" --solver.steps=0 --output.final-state=rest.csv >rest.out 2>&1

# agreement A.csv B.csv: prints "positions <metric> velocities <metric>" (rows in the same order).
agreement() {
  paste -d, rest.csv "$1" "$2" | awk -F, 'NR > 1 {
      if ($1 != $8 || $1 != $15) { print "row order differs at line " NR; bad = 1; exit }
      for (c = 2; c <= 4; c++) {
        d = $(c + 7) - $(c + 14); if (d < 0) d = -d; if (d > dx) dx = d
        u = $(c + 7) - $c; if (u < 0) u = -u; if (u > umax) umax = u
        d = $(c + 10) - $(c + 17); if (d < 0) d = -d; if (d > dv) dv = d
        s = $(c + 10); if (s < 0) s = -s; if (s > vmax) vmax = s
      }
    }
    END { if (!bad) printf "positions %.3g velocities %.3g\n", dx / umax, dv / vmax }'
}

failures=0
checks=0
# compare NAME "OUR ARGS" "PEER ARGS": both runs on the box, 5 steps, then the metric.
compare() {
  local name=$1 status=0
  read -r -d '' -a our_args <<<"$2" || true
  read -r -d '' -a peer_args <<<"$3" || true
  checks=$((checks + 1))
  timeout 60 "${ours[@]}" "${box[@]}" --solver.steps=5 --output.final-state="$name.ours.csv" \
    "${our_args[@]}" >"$name.ours.out" 2>&1 || status=$?
  timeout 60 "${theirs[@]}" --box-size 10 1 1 --box-cells 15 3 3 --steps 5 --quiet \
    --output "$name.peer.csv" "${peer_args[@]}" >"$name.peer.out" 2>&1 || status=$?
  local result=""
  if ((status == 0)); then result=$(agreement "$name.ours.csv" "$name.peer.csv"); fi
  if [[ $result =~ ^positions\ ([^ ]+)\ velocities\ ([^ ]+)$ ]] &&
     awk -v p="${BASH_REMATCH[1]}" -v v="${BASH_REMATCH[2]}" \
       'BEGIN { exit !(p < 1e-8 && v < 1e-8) }'; then
    echo "ok   $name: agreement $result"
  else
    echo "FAIL $name: ${result:-a run failed (status $status)}"
    tail -n 5 "$name.ours.out" "$name.peer.out"
    failures=$((failures + 1))
  fi
}

compare consistent-cg "--mass.type=consistent -ksp_rtol 1e-12" "--mass consistent --rtol 1e-12"
lu="-ksp_type preonly -pc_type lu"
compare consistent-rayleigh \
  "--mass.type=consistent --material.young-modulus=3e4 --material.poisson-ratio=0.4
   --material.density=2.5 --load.gravity=1,-5,2 --solver.dt=0.02 --solver.rayleigh-mass=0.8
   --solver.rayleigh-stiffness=0.05 $lu" \
  "--mass consistent --young-modulus 3e4 --poisson-ratio 0.4 --density 2.5 --gravity 1 -5 2
   --dt 0.02 --rayleigh-mass 0.8 --rayleigh-stiffness 0.05 -- $lu"
compare lumped "--mass.type=lumped $lu" "--mass lumped -- $lu"
echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
