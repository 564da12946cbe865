#!/usr/bin/env bash
# Benchmark of the Lagrangian constraint step (issue 35): the built-in beam
# (--mesh.box-size="10 1 1", box-cells in the 5:1:1 aspect closest to SIZE unknowns, as
# jobs/benchmark.sh picks them) with m constraint rows, a FixedLagrangianConstraint on the first
# m / 3 nodes (lagrange.fixed = indices 0 .. m/3 - 1), FreeMotionAnimationLoop's step with a
# BlockGaussSeidelConstraintSolver at 1e-8 and a LinearSolverConstraintCorrection through the
# direct solver (MUMPS), on each rank count.
#
# It reports, per (rows, ranks), the mean over the steps after the first (the first also
# factors the matrix) of the seconds the progress line gives: the free motion, the compliance
# W = h J A^-1 J^T (the m columns solved with the step's factorization), the Gauss-Seidel and the
# correction (one more solve), and W / (m x correction): the compliance's cost in solves of the
# step's own factorization, which the issue asks to be at most 1.
#
# How to run (from anywhere, after jobs/build.sh):
#   bash jobs/bench/constraints.sh                       # SIZE=1e5 ROWS="12 99 999" RANKS="1 2"
#   SIZE=1e4 STEPS=3 bash jobs/bench/constraints.sh      # smaller: seconds, not minutes
# At 1e5 unknowns on this project's 2-core machine the factorization takes about a minute and
# W about 0.3 s a row: m = 999 costs about 5 minutes a step.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
exe=$repo/build/bin/euler-implicit
SIZE=${SIZE:-1e5}
ROWS=${ROWS:-"12 99 999"}
RANKS=${RANKS:-"1 2"}
STEPS=${STEPS:-3}
[ -x "$exe" ] || { echo "no $exe: build first (jobs/build.sh)" >&2; exit 1; }
# shellcheck source=jobs/mpi-env.sh
source "$repo/jobs/mpi-env.sh"
cells=$(awk -v t="$SIZE" 'BEGIN { best = -1
  for (m = 1; m <= 400; m++) { u = 3 * (5*m+1) * (m+1) * (m+1); d = log(u/t); if (d < 0) d = -d
    if (best < 0 || d < best) { best = d; bm = m } }
  printf "%d %d %d\n", 5*bm, bm, bm }')
read -r nx ny nz <<< "$cells"
echo "beam $cells cells, $((3 * (nx + 1) * (ny + 1) * (nz + 1))) unknowns, $STEPS steps"
printf '%6s %5s %12s %10s %10s %12s %10s %14s\n' rows ranks "free motion" W "W / solve" \
  Gauss-Seidel correction "W/(m corr.)"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for rows in $ROWS; do
  nodes=$((rows / 3))
  for ranks in $RANKS; do
    mpiexec -n "$ranks" "$exe" --mesh.box-size="10 1 1" --mesh.box-cells="$cells" \
      --solver.steps="$STEPS" --solver.linear=direct --lagrange.solver=block-gauss-seidel \
      --lagrange.correction=linear-solver --lagrange.tolerance=1e-8 \
      "--lagrange.fixed=indices $(seq -s ' ' 0 $((nodes - 1)))" > "$log" 2>&1 ||
      { echo "run failed (rows $rows, ranks $ranks):" >&2; tail -5 "$log" >&2; exit 1; }
    awk -v rows="$((3 * nodes))" -v ranks="$ranks" '
      /^step / && !/^step 1\// {
        for (i = 1; i < NF; i++) {
          if ($i == "motion") fm += $(i + 1)
          if ($i == "W") w += $(i + 1)
          if ($i == "Gauss-Seidel" && $(i + 1) + 0 == $(i + 1)) gs += $(i + 1)
          if ($i == "correction") c += $(i + 1)
        }
        n++ }
      END { if (!n) { print "no step after the first" > "/dev/stderr"; exit 1 }
        printf "%6d %5d %12.4g %10.4g %10.4g %12.4g %10.4g %14.3f\n", rows, ranks, fm / n, w / n,
          w / n / rows, gs / n, c / n, (w / n) / (rows * c / n) }' "$log"
  done
done
