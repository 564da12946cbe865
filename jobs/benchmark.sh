#!/usr/bin/env bash
# Performance benchmark of euler-implicit on the built-in cantilever beam.
#
# What it measures:
#   1. The machine's memory bandwidth limit: jobs/bench/stream_triad.c (a STREAM-style triad,
#      24 bytes per element, built with gcc -O3 -march=native -fopenmp) on 1 and 2 threads;
#      best and median GB/s.
#   2. euler-implicit on the box --mesh.box-size="10 1 1" with box-cells in the default beam's
#      aspect (20 4 4, so nx = 5 ny = 5 nz), nz chosen so that the unknowns 3 (nx+1)(ny+1)(nz+1)
#      come closest to each target (default 1e4 1e5 1e6: 40x8x8, 90x18x18, 200x40x40), on 1 and 2
#      MPI ranks, a fixed number of steps, each case repeated; ONE row per (size, ranks) with the
#      MEDIAN over the repeats of: set-up; per-step seconds for forces + matrix assembly,
#      constraints, preconditioner set-up, KSP solve and the rest; KSP iterations per step;
#      MatMult bandwidth; peak resident memory per rank (MiB, and KB per unknown per rank).
#      MatMult bandwidth is estimated from PETSc's -log_view: the operator's block copy
#      (solver.block-products, the default) streams 8 bytes per nonzero and one 32-bit column
#      index per 3 x 3 block, and does 2 flops per nonzero, so bytes ~= 4.22 x flops (an AIJ
#      matrix, with --solver.block-products=false: 12 bytes per nonzero, 6 x flops); on 1 rank
#      the step matrix's copy is the upper triangle of the symmetric matrix
#      (solver.symmetric-blocks, the default), whose products -log_view shows as MatMultUpper
#      inside MatMult: (B + n) / 2 blocks of 76 bytes for the flops of B blocks, n of them on the
#      diagonal, 38 (B + n) / (18 B - 3 n) ~= 2.28 bytes per flop with the box's 14.6 blocks per
#      block row;
#      GB/s ~= that factor x (MatMult total flops over all ranks) / (MatMult max time), summed
#      over every log stage (all MatMults: the operator and GAMG's coarser levels, which are AIJ
#      and so move more than counted). Vector and row-pointer traffic is not counted either, so
#      this UNDER-estimates bytes.
#      Derived lines: MatMult GB/s / STREAM(1 thread, best) for 1-rank rows, and the 2-rank
#      speed-up of a step against STREAM's 2-thread / 1-thread ratio for each size.
#      A roofline table per KSP iteration: the bytes one iteration moves (from -log_view's flops
#      of every sparse and vector kernel in the KSP solve stage), the time STREAM allows for
#      them, and the measured time.
#   3. If Debian's python3-dolfinx is importable by /usr/bin/python3 (jobs/install-deps.sh
#      installs it): the repository's FEniCSx peer jobs/bench/peer_dolfinx.py (same beam, same
#      box, consistent mass, CG + GAMG, the same -ksp_rtol) on 1 rank at the same sizes against
#      our run with --mass.type=consistent, and the ratio of its time per step to ours.
#      Otherwise: "peer skipped: ...".
#   4. Issue 33's hexahedra (--hexahedra yes, the default; jobs/bench/hexahedra.sh): the
#      corotational beam (rotation large) on each size and rank count of the sweep, cut into
#      tetrahedra and kept as hexahedra (the same nodes): forces + assembly per step, elements
#      per second per rank, unknowns per second, step time; then its goals (hexahedral assembly
#      unknowns/s >= tetrahedral; hexahedral step within 1.5x tetrahedral per unknown).
#   5. Issue 38's targets (--targets yes, the default; jobs/bench/targets.sh): the cases the
#      runs above do not measure (the corotational beam of SOFA's large scene and the default
#      scene, 1 rank, today's code and commit e216be2's alternated run by run, e216be2 built
#      from the history into LOGS/before-e216be2 once, about 4 minutes on 2 cores; the peer
#      comparison on 2 ranks at the 1e5 and 1e6 cases), then the table "Issue 38 targets":
#      each target's figure (the corotational step times the 1-thread triad; steps and peak
#      memory against the peer's; hexahedral against tetrahedral steps; today's steps against
#      e216be2's), its goal and met / short / not measured (with the reason, e.g. 1e6 not in
#      --sizes, peer absent); then diagnostics without a goal (the fine-level MatMult alone
#      under CG + Jacobi, 1 rank, each size, against STREAM; the roofline's KSP / bound; the
#      soft swinging beam on 2 ranks).
#
# How to run (from anywhere; builds the project first with jobs/build.sh):
#   bash jobs/benchmark.sh                      # defaults: 1e4 1e5 1e6 unknowns, 1 and 2 ranks,
#                                               # 20 steps, 3 repeats (~65 min on 2 cores,
#                                               # 46 min with --repeats 2; 2.1 GB peak memory
#                                               # for 1e6 unknowns on 1 rank; the targets
#                                               # add about 25 min, 19 of them the 2-rank
#                                               # peer comparison at 1e6: an estimate from
#                                               # docs/performance.md's step times)
#   bash jobs/benchmark.sh --sizes "1e4 1e5" --steps 10 --repeats 5 -- --material.model=corotational
#   SIZES="1e4" RANKS="1 2 4" bash jobs/benchmark.sh -- -pc_type jacobi
# Options (environment variable in brackets):
#   --sizes "T1 T2 ..."   target unknowns [SIZES, default "1e4 1e5 1e6"]
#   --cells "a b c,d e f" explicit box-cells per case, overrides --sizes [CELLS]
#   --ranks "1 2"         MPI rank counts [RANKS, default "1 2"]; the speed-up table needs 1 and 2
#   --steps N             steps per run [STEPS, default 20]
#   --repeats N           runs per case, medians reported [REPEATS, default 3]
#   --rtol X              -ksp_rtol of the peer comparison, both programs [RTOL, default 1e-8]
#   --peer auto|no        run the FEniCSx peer when present [PEER, default auto; the peer script
#                         is PEER_SCRIPT, default jobs/bench/peer_dolfinx.py]
#   --targets yes|no      run issue 38's targets and print their table [TARGETS, default yes]
#   --hexahedra yes|no    run issue 33's hexahedral beam against the tetrahedral one
#                         [HEXAHEDRA, default yes]
#   --logs DIR            where every run's output and -log_view file is kept, relative to the
#                         repository root [LOGS, default build/benchmark]
#   -- ARGS...            passed to every euler-implicit run (--section.key=value and PETSc
#                         options); PETSc options (single dash) also go to the peer.
# shellcheck disable=SC2059,SC2086  # table formats live in variables; SIZES and RANKS are word lists
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

SIZES=${SIZES:-"1e4 1e5 1e6"}
CELLS=${CELLS:-}
RANKS=${RANKS:-"1 2"}
STEPS=${STEPS:-20}
REPEATS=${REPEATS:-3}
RTOL=${RTOL:-1e-8}
PEER=${PEER:-auto}
TARGETS=${TARGETS:-yes}
HEXAHEDRA=${HEXAHEDRA:-yes}
LOGS=${LOGS:-build/benchmark}
PEER_SCRIPT=${PEER_SCRIPT:-jobs/bench/peer_dolfinx.py}

usage() { sed -n '2,/^set -euo/p' "$0" | grep -v -e '^set -euo' -e '^# shellcheck' | sed 's/^# \{0,1\}//'; }
extra=()
while (($#)); do
  case $1 in
    --sizes) SIZES=$2; shift 2 ;;
    --cells) CELLS=$2; shift 2 ;;
    --ranks) RANKS=$2; shift 2 ;;
    --steps) STEPS=$2; shift 2 ;;
    --repeats) REPEATS=$2; shift 2 ;;
    --rtol) RTOL=$2; shift 2 ;;
    --peer) PEER=$2; shift 2 ;;
    --targets) TARGETS=$2; shift 2 ;;
    --hexahedra) HEXAHEDRA=$2; shift 2 ;;
    --logs) LOGS=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    --) shift; extra=("$@"); break ;;
    *) echo "benchmark: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[[ $STEPS =~ ^[1-9][0-9]*$ && $REPEATS =~ ^[1-9][0-9]*$ ]] || {
  echo "benchmark: --steps and --repeats must be positive integers" >&2; exit 2; }
[[ $TARGETS == yes || $TARGETS == no ]] || { echo "benchmark: --targets must be yes or no" >&2; exit 2; }
[[ $HEXAHEDRA == yes || $HEXAHEDRA == no ]] || {
  echo "benchmark: --hexahedra must be yes or no" >&2; exit 2; }

# PETSc options among the extra arguments (a single-dash option and the values after it) are
# forwarded to the peer as well; --section.key options are ours alone.
petsc_extra=()
in_petsc=0
for a in ${extra[@]+"${extra[@]}"}; do
  if [[ $a == --* ]]; then in_petsc=0
  elif [[ $a == -* ]]; then in_petsc=1; petsc_extra+=("$a")
  elif ((in_petsc)); then petsc_extra+=("$a")
  fi
done

bash jobs/build.sh
# shellcheck source=jobs/mpi-env.sh
source jobs/mpi-env.sh
exe=$root/build/bin/euler-implicit
mkdir -p "$LOGS"
LOGS=$(cd "$LOGS" && pwd)

# ------------------------------------------------------------------------------ helpers
# Median of the numbers on stdin (one per line); "nan" if none.
median() { sort -g | awk '{v[NR]=$1} END {if (NR==0) print "nan"; else if (NR%2) print v[(NR+1)/2];
                                            else print (v[NR/2]+v[NR/2+1])/2}'; }
# Value of key=value field $2 in the record lines of file $1, median over lines.
field_median() { awk -v k="$2" '{for(i=1;i<=NF;i++){split($i,p,"="); if(p[1]==k) print p[2]}}' "$1" | median; }
# Floating point arithmetic: calc 'expression' (awk syntax).
calc() { awk "BEGIN {x = $1; print x}"; }

# box cells "nx ny nz" in the default beam's 5:1:1 cell aspect closest (in log) to $1 unknowns.
cells_for() {
  awk -v t="$1" 'BEGIN { best = -1
    for (m = 1; m <= 400; m++) { u = 3 * (5*m+1) * (m+1) * (m+1); d = log(u/t); if (d < 0) d = -d
      if (best < 0 || d < best) { best = d; bm = m } }
    printf "%d %d %d\n", 5*bm, bm, bm }'
}
# Nonzeros of the assembled bs=3 operator on the box: 9 (nodes + 2 edges) for the 6-tet split
# (edges along the axes, one diagonal per face, one per hexahedron).
box_nnz() {
  local nx=$1 ny=$2 nz=$3
  local nodes=$(((nx+1)*(ny+1)*(nz+1)))
  local edges=$((nx*(ny+1)*(nz+1) + (nx+1)*ny*(nz+1) + (nx+1)*(ny+1)*nz
                 + nx*ny*(nz+1) + nx*(ny+1)*nz + (nx+1)*ny*nz + nx*ny*nz))
  echo $((9*(nodes + 2*edges)))
}

# One euler-implicit run; prints one record line key=value ... parsed from its output and from
# its -log_view file. Arguments: ranks, box-cells, log-file stem, then extra euler-implicit args.
run_ours() {
  local ranks=$1 cells=$2 stem=$3; shift 3
  if ! mpiexec -n "$ranks" "$exe" --mesh.box-size="10 1 1" --mesh.box-cells="$cells" \
        --solver.steps="$STEPS" --output.history="$stem.history.csv" "$@" \
        -log_view ":$stem.logview" >"$stem.out" 2>&1; then
    echo "benchmark: run failed, see $stem.out:" >&2; tail -5 "$stem.out" >&2; exit 1
  fi
  # The median step: the history's wall_seconds (3rd column) of every step, sorted.
  # Bytes per flop of the operator's products (see the header): the block copy, or the AIJ matrix
  # when the arguments turn solver.block-products off (any spelling the key takes, = or a space).
  # The upper triangle's products (MatMultUpper) are counted apart, at ubpf.
  local stepmed mbpf=4.2222 ubpf=2.28 arg previous=""
  for arg in "$@"; do
    if [[ ${arg,,} =~ ^--solver\.block-products=(false|0|no|off)$ ||
          ( $previous == --solver.block-products && ${arg,,} =~ ^(false|0|no|off)$ ) ]]; then
      mbpf=6
    fi
    previous=$arg
  done
  stepmed=$(tail -n +2 "$stem.history.csv" | cut -d, -f3 | sort -g |
            awk '{ w[NR] = $1 } END { print (NR % 2) ? w[(NR + 1) / 2] : (w[NR / 2] + w[NR / 2 + 1]) / 2 }')
  awk -v lv="$stem.logview" -v stepmed="$stepmed" -v mbpf="$mbpf" -v ubpf="$ubpf" '
    /^mesh: / { for (i = 1; i <= NF; i++) if ($(i+1) ~ /^unknowns/) unknowns = $i }
    /^summary: / {
      s = $0; gsub(/[(),;]/, " ", s); n = split(s, w, " ")
      for (i = 1; i <= n; i++) {
        if (w[i] == "steps" && w[i+1] == "in") { steps = w[i-1] }
        else if (w[i] == "set-up" && setup == "") setup = w[i+1]
        else if (w[i] == "forces") forces = w[i+1]
        else if (w[i] == "assembly") asm_ = w[i+1]
        else if (w[i] == "constraints") cons = w[i+1]
        else if (w[i] == "preconditioner") pcs = w[i+2]
        else if (w[i] == "KSP") ksp = w[i+2]
        else if (w[i] == "other") other = w[i+1]
        else if (w[i] == "linear" && w[i+1] == "iterations") its = w[i-1]
        else if (w[i] == "rank") { split(w[i+1], mm, /\.\./); mem = mm[2] }
        else if (w[i] == "per" && w[i+1] == "step" && perstep == "") perstep = w[i-2]
      }
    }
    # Each rank'"'"'s CPU seconds of a part, least..most: the most, forces + assembly summed.
    /^cpu time per rank: / {
      s = $0; gsub(/[(),;]/, " ", s); n = split(s, w, " ")
      for (i = 1; i <= n; i++) {
        if (w[i] == "forces" || w[i] == "assembly" || w[i] == "loop") split(w[i+1], cr, /\.\./)
        if (w[i] == "forces" || w[i] == "assembly") cpufrcasm += cr[2]
        if (w[i] == "loop") cpuloop = cr[2]
      }
    }
    END {
      # -log_view event table: check the header, then sum MatMult over all stages.
      # Bytes moved in the KSP solve stage (the roofline model), from the total flops of each event:
      # products by the operator (MatMult) mbpf bytes per flop, every one counted as one of the
      # finest level block copy (the 6 x 6 blocks of the coarser GAMG levels move a little less),
      # those of the upper triangle (MatMultUpper, inside MatMult) ubpf instead; interpolation and
      # restriction 12 bytes per nonzero / 2 flops; vector kernels bytes per flop as PETSc counts
      # their flops (TDot 16 B / 2 flops, AXPY 24 B / 2, AXPBYCZ 32 B / 5, ...). VecCopy and VecSet
      # log no flops and are left out, and so is MatResidual: its MatMult and VecAYPX are logged
      # as events of their own inside it, and counted there.
      bpf["MatMult"] = mbpf; bpf["MatMultAdd"] = 6; bpf["MatMultTranspose"] = 6
      bpf["MatMultUpper"] = ubpf - mbpf
      bpf["VecTDot"] = 8; bpf["VecDot"] = 8; bpf["VecMDot"] = 8; bpf["VecNorm"] = 4
      bpf["VecAXPY"] = 12; bpf["VecAYPX"] = 12; bpf["VecMAXPY"] = 8; bpf["VecAXPBYCZ"] = 6.4
      bpf["VecWAXPY"] = 24; bpf["VecPointwiseMult"] = 24; bpf["VecScale"] = 16
      hdr = 0; stage = ""
      while ((getline line < lv) > 0) {
        if (line ~ /^Event +Count +Time \(sec\) +Flop/) hdr = 1
        if (line ~ /^--- Event Stage/) { stage = line; sub(/^--- Event Stage [0-9]+: /, "", stage) }
        nf = split(line, f, " ")
        if (hdr && f[1] == "MatMult" && nf >= 20) {
          # Count Max, Ratio | Time Max, Ratio | Flop Max, Ratio | ... | Total Mflop/s (last).
          mmcount += f[2]; mmtime += f[4]; mmflops += f[nf] * 1e6 * f[4]
          if (stage == "KSP solve") { kspmmcount += f[2]; kspmmtime += f[4] }
        }
        if (hdr && f[1] == "MatMultUpper" && nf >= 20) upflops += f[nf] * 1e6 * f[4]
        # The matrix assembly'"'"'s parts (linalg/element_matrix_assembler.cpp): the slowest rank'"'"'s
        # seconds and the slowest over the fastest.
        if (hdr && stage == "Matrix assembly" && nf >= 20 && f[1] ~ /^(Asm|MatAssembly)/) {
          evt[f[1]] += f[4]; evr[f[1]] = f[5]
        }
        if (hdr && stage == "KSP solve" && nf >= 20 && (f[1] in bpf))
          kspbytes += bpf[f[1]] * f[nf] * 1e6 * f[4]
      }
      if (unknowns == "" || ksp == "" || steps == "") { print "PARSE_ERROR"; exit }
      gbs = (mmtime > 0) ? (mbpf * (mmflops - upflops) + ubpf * upflops) / mmtime / 1e9 : "nan"
      printf "unknowns=%s setup=%s step=%g stepmed=%g frcasm=%g cons=%g pcs=%g ksp=%g other=%g " \
             "its=%s mem=%s mmgbs=%g mmcount=%d kspmmcount=%d kspmmtime=%g kspbytes=%g " \
             "cpufrcasm=%g cpuloop=%g evelem=%g evscat=%g evghost=%g evbegin=%g evend=%g " \
             "evendratio=%g\n",
             unknowns, setup, perstep, stepmed, (forces + asm_) / steps, cons / steps, pcs / steps,
             ksp / steps, other / steps, its, mem, gbs, mmcount, kspmmcount, kspmmtime / steps,
             kspbytes / steps, cpufrcasm / steps, cpuloop / steps, evt["AsmElementMats"] / steps,
             evt["AsmScatter"] / steps, evt["AsmGhostRows"] / steps,
             evt["MatAssemblyBegin"] / steps, evt["MatAssemblyEnd"] / steps,
             evr["MatAssemblyEnd"] + 0
    }' "$stem.out"
}

# One FEniCSx peer run ($PEER_SCRIPT with peer_args and the PETSc options after --); prints one
# record line unknowns= setup= step= stepmed= its= mem= (peak MiB of the largest rank).
# Arguments: ranks, box-cells, output file.
run_peer() {
  local ranks=$1 out=$3 nx ny nz
  read -r nx ny nz <<<"$2"
  if ! mpiexec -n "$ranks" /usr/bin/python3 "$PEER_SCRIPT" --box-cells "$nx" "$ny" "$nz" \
        --steps "$STEPS" --quiet "${peer_args[@]}" -- ${petsc_extra[@]+"${petsc_extra[@]}"} \
        >"$out" 2>&1; then
    echo "benchmark: peer run failed, see $out" >&2; tail -5 "$out" >&2; exit 1
  fi
  sed -n 's/^RESULT .*dofs=\([0-9]*\) setup_s=\([0-9.e+-]*\) .*mean_step_s=\([0-9.e+-]*\) median_step_s=\([0-9.e+-]*\) .*mean_its=\([0-9.e+-]*\) .*peak_mib=\([0-9.e+-]*\).*/unknowns=\1 setup=\2 step=\3 stepmed=\4 its=\5 mem=\6/p' \
    "$out"
}

# ------------------------------------------------------------------------------ cases
cases=()
if [[ -n $CELLS ]]; then
  IFS=',' read -r -a cases <<<"$CELLS"
else
  for t in $SIZES; do cases+=("$(cells_for "$t")"); done
fi

echo
echo "== euler-implicit benchmark  $(date '+%Y-%m-%d %H:%M:%S %Z')"
echo "   machine: $(nproc) cores ($(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1))," \
     "memory $(free -h | awk '/^Mem:/ {print $2}'); $(mpiexec --version 2>/dev/null | head -1)"
echo "   steps $STEPS, repeats $REPEATS (medians), ranks: $RANKS; extra args: ${extra[*]:-(none)}"
echo "   logs: $LOGS"

# ------------------------------------------------------------------------------ STREAM
triad=$root/build/bench/stream_triad
mkdir -p "$(dirname "$triad")"
gcc -O3 -march=native -fopenmp jobs/bench/stream_triad.c -o "$triad" -lm
echo
echo "== STREAM-style triad (jobs/bench/stream_triad.c, 24 bytes per element, 20 passes)"
printf '   %-8s %12s %14s\n' threads "best GB/s" "median GB/s"
declare -A sbest smed
for th in $(printf '%s\n' 1 2 $RANKS | sort -nu); do
  line=$(OMP_NUM_THREADS=$th OMP_PROC_BIND=spread OMP_PLACES=cores "$triad")
  echo "$line" >"$LOGS/stream_$th.out"
  [[ $line == *check=ok* ]] || { echo "benchmark: triad check failed: $line" >&2; exit 1; }
  sbest[$th]=$(sed -n 's/.*best_GBs=\([0-9.]*\).*/\1/p' <<<"$line")
  smed[$th]=$(sed -n 's/.*median_GBs=\([0-9.]*\).*/\1/p' <<<"$line")
  printf '   %-8s %12.2f %14.2f\n' "$th" "${sbest[$th]}" "${smed[$th]}"
done
stream_ratio=$(calc "${sbest[2]} / ${sbest[1]}")
printf '   2-thread / 1-thread (best): %.2f\n' "$stream_ratio"

# ------------------------------------------------------------------------------ our runs
echo
echo "== euler-implicit, box 10x1x1, default scene (linear, lumped mass, CG + GAMG rtol 1e-8 unless" \
     "overridden), $STEPS steps; medians of $REPEATS runs"
hdr_fmt='%9s %5s %8s | %8s %8s %9s %8s %8s %8s %8s | %7s | %8s %7s | %8s %9s\n'
row_fmt='%9d %5d %8.3f | %8.4f %8.4f %9.4f %8.4f %8.4f %8.4f %8.4f | %7.1f | %8.2f %7s | %8.1f %9.2f\n'
printf "$hdr_fmt" "" "" "set-up" "step" "median" "frc+asm" "constr" "PC set" "KSP" "other" "KSP it" \
  "MatMult" "MM /" "peak mem" "KB/unkn"
printf "$hdr_fmt" unknowns ranks "[s]" "[s]" "step [s]" "[s/step]" "[s/step]" "[s/step]" "[s/step]" \
  "[s/step]" "/step" "[GB/s]" STREAM1 "[MiB/rk]" "per rank"
declare -A step_of kb_of bound_of
iter_rows=()
for cells in "${cases[@]}"; do
  read -r nx ny nz <<<"$cells"
  nnz=$(box_nnz "$nx" "$ny" "$nz")
  for ranks in $RANKS; do
    rec=$LOGS/ours_${nx}x${ny}x${nz}_np${ranks}.rec
    : >"$rec"
    for ((r = 1; r <= REPEATS; r++)); do
      run_ours "$ranks" "$cells" "$LOGS/ours_${nx}x${ny}x${nz}_np${ranks}_r$r" \
        ${extra[@]+"${extra[@]}"} >>"$rec"
    done
    if grep -q PARSE_ERROR "$rec"; then
      echo "benchmark: could not parse a run's summary line (see $LOGS)" >&2; exit 1
    fi
    declare -A m=()
    for k in unknowns setup step stepmed frcasm cons pcs ksp other its mem mmgbs kspmmcount \
             kspmmtime kspbytes; do
      m[$k]=$(field_median "$rec" "$k")
    done
    ratio=-
    if [[ $ranks == 1 ]]; then ratio=$(printf '%.2f' "$(calc "${m[mmgbs]} / ${sbest[1]}")"); fi
    kb=$(calc "${m[mem]} * 1024 / (${m[unknowns]} / $ranks)")
    printf "$row_fmt" "${m[unknowns]}" "$ranks" "${m[setup]}" "${m[step]}" "${m[stepmed]}" "${m[frcasm]}" \
      "${m[cons]}" "${m[pcs]}" "${m[ksp]}" "${m[other]}" "${m[its]}" "${m[mmgbs]}" "$ratio" \
      "${m[mem]}" "$kb"
    step_of[$nx,$ranks]=${m[step]}
    # shellcheck disable=SC2034  # read by jobs/bench/targets.sh
    kb_of[$nx,$ranks]=$kb
    bytes_it=$(calc "${m[kspbytes]} / ${m[its]}")
    bound_ms=$(calc "1000 * $bytes_it / (${sbest[$ranks]} * 1e9)")
    # shellcheck disable=SC2034  # read by jobs/bench/targets.sh
    bound_of[$nx,$ranks]=$(calc "1000 * ${m[ksp]} / ${m[its]} / $bound_ms")
    iter_rows+=("$(printf '%9d %5d %8.1f %10.1f %9.0f%% %10.3f | %9.0f %10.3f %10.3f %7.2f' \
      "${m[unknowns]}" "$ranks" "$(calc "$nnz / ${m[unknowns]}")" \
      "$(calc "${m[kspmmcount]} / ($STEPS * ${m[its]})")" \
      "$(calc "100 * ${m[kspmmtime]} / ${m[ksp]}")" "$(calc "1000 * ${m[kspmmtime]} / ${m[its]}")" \
      "$(calc "$bytes_it / ${m[unknowns]}")" "$bound_ms" "$(calc "1000 * ${m[ksp]} / ${m[its]}")" \
      "$(calc "1000 * ${m[ksp]} / ${m[its]} / $bound_ms")")")
  done
done
cat <<EOF
   Legend: step = wall time per step (all parts, mean over the steps); median step = the median
   of the steps' own wall times (history CSV), which leaves out one-off costs of step 1 such as
   the first preconditioner set-up; frc+asm = forces + matrix assembly; PC set =
   preconditioner set-up; other = the rest of the step (the block copy's making at step 1, the
   summary's "block copy set-up", counts in step alone); KSP it = linear iterations per step.
   MatMult GB/s = 4.22 x MatMult total flops / MatMult max time from -log_view, all stages (the
   operator's 3 x 3 block copy: 8 bytes per nonzero, a 4-byte index per block, 2 flops per
   nonzero; 2.28 x the flops of the upper triangle's products, MatMultUpper, on 1 rank; 6 x
   with --solver.block-products=false, AIJ's 12 bytes; vectors not counted).
   MM / STREAM1 = MatMult GB/s / best 1-thread triad (${sbest[1]} GB/s), 1-rank rows only.
   peak mem = peak resident set of the largest rank; KB/unkn per rank = peak / (unknowns / ranks).
EOF

echo
echo "== per KSP iteration (medians) and the bandwidth roofline"
printf '%9s %5s %8s %10s %10s %10s | %9s %10s %10s %7s\n' "" "" "operator" "MatMult" "MatMult" \
  "MatMult" "bytes" "bound" "measured" "KSP /"
printf '%9s %5s %8s %10s %10s %10s | %9s %10s %10s %7s\n' unknowns ranks "nnz/row" "calls/it" \
  "% of KSP" "[ms/it]" "/unkn/it" "[ms/it]" "KSP ms/it" bound
printf '%s\n' "${iter_rows[@]}"
cat <<EOF
   Legend: operator nnz/row = nonzeros of the assembled box operator / unknowns; MatMult calls/it,
   % of KSP and ms/it: MatMult (all GAMG levels) inside the KSP solve stage. bytes/unkn/it =
   memory traffic of one KSP iteration from -log_view's KSP solve stage flops (products by the
   operator 4.22 bytes per flop at every GAMG level, the upper triangle's 2.28, 6 with
   --solver.block-products=false; MatResidual not counted apart: its MatMult is;
   interpolation and restriction 6; vector kernels by kernel; VecCopy/VecSet not counted) per
   unknown; bound = those bytes at the best STREAM triad with as many threads as ranks (the
   fastest the memory allows); KSP / bound = measured time per iteration / bound (1 = at the
   roofline).
EOF

# Speed-up of a step on 2 ranks against STREAM's 2/1 ratio.
if [[ " $RANKS " == *" 1 "* && " $RANKS " == *" 2 "* ]]; then
  echo
  echo "== 2-rank speed-up of a step against STREAM 2-thread/1-thread (best) = $(printf '%.2f' "$stream_ratio")"
  printf '%9s %12s %12s %9s %13s\n' unknowns "1 rank [s]" "2 ranks [s]" speed-up "/ STREAM 2/1"
  for cells in "${cases[@]}"; do
    read -r nx ny nz <<<"$cells"
    s1=${step_of[$nx,1]} s2=${step_of[$nx,2]}
    sp=$(calc "$s1 / $s2")
    printf '%9d %12.4f %12.4f %9.2f %13.2f\n' "$((3*(nx+1)*(ny+1)*(nz+1)))" "$s1" "$s2" "$sp" \
      "$(calc "$sp / $stream_ratio")"
  done
fi

# ------------------------------------------------------------------------------ FEniCSx peer
echo
peer_skip=""
if [[ $PEER == no ]]; then
  peer_skip="peer skipped: --peer no"
elif ! /usr/bin/python3 -c 'import dolfinx' >/dev/null 2>&1; then
  peer_skip="peer skipped: python3-dolfinx not installed"
elif [[ ! -f $PEER_SCRIPT ]]; then
  peer_skip="peer skipped: $PEER_SCRIPT not found"
fi
# The peer implements the linear elastic box with consistent (or lumped) mass only; map the
# scene keys it shares and skip it for anything else it cannot reproduce.
peer_args=(--box-size 10 1 1 --mass consistent --rtol "$RTOL")
for a in ${extra[@]+"${extra[@]}"}; do
  case $a in
    --solver.rayleigh-mass=*) peer_args+=(--rayleigh-mass "${a#*=}") ;;
    --solver.rayleigh-stiffness=*) peer_args+=(--rayleigh-stiffness "${a#*=}") ;;
    --solver.dt=*) peer_args+=(--dt "${a#*=}") ;;
    --material.young-modulus=*) peer_args+=(--young-modulus "${a#*=}") ;;
    --material.poisson-ratio=*) peer_args+=(--poisson-ratio "${a#*=}") ;;
    --material.density=*) peer_args+=(--density "${a#*=}") ;;
    --load.gravity=*) IFS=', ' read -r -a gravity <<<"${a#*=}"; peer_args+=(--gravity "${gravity[@]}") ;;
    --material.model=linear|--solver.*|--output.*|--mass.type=consistent) ;;
    --material.*|--mass.*|--physics.*|--mesh.*|--constraint.*|--load.*|--springs.*|--damping.*)
      [[ -n $peer_skip ]] || peer_skip="peer skipped: it cannot reproduce $a" ;;
  esac
done
declare -A peer_of peer_mem_of
if [[ -n $peer_skip ]]; then
  echo "$peer_skip"
else
  rtol_shown="-ksp_rtol $RTOL"
  if [[ " ${petsc_extra[*]-} " == *" -ksp_rtol "* ]]; then rtol_shown="the -ksp_rtol given after --"; fi
  echo "== FEniCSx peer ($(/usr/bin/python3 -c 'import dolfinx; print("dolfinx", dolfinx.__version__)')," \
       "$PEER_SCRIPT), 1 rank, consistent mass, $rtol_shown; medians of $REPEATS runs"
  echo "   ours: --mass.type=consistent, $rtol_shown. step = mean wall time per step; ours includes"
  echo "   its first preconditioner set-up (built in step 1), the peer builds its preconditioner in"
  echo "   its set-up. median = median of the steps' wall times (both programs print it), which"
  echo "   leaves that one-off cost out of ours. peer/ours > 1: ours is faster. peak MiB = the"
  echo "   largest rank's peak resident set (getrusage), the same measure in both programs."
  # Warm FFCx's JIT cache (~/.cache/fenics) so that set-up times do not include compilation.
  mpiexec -n 1 /usr/bin/python3 "$PEER_SCRIPT" --box-cells 5 1 1 --steps 1 --quiet \
    "${peer_args[@]}" >"$LOGS/peer_warmup.out" 2>&1 || true
  printf '%9s | %8s %8s %8s %7s %8s | %8s %8s %8s %7s %8s | %9s %9s %9s\n' "" "ours" "ours" \
    "ours" "ours" "ours" "peer" "peer" "peer" "peer" "peer" "peer/ours" "peer/ours" "ours/peer"
  printf '%9s | %8s %8s %8s %7s %8s | %8s %8s %8s %7s %8s | %9s %9s %9s\n' unknowns "set-up s" \
    "step s" "median s" "KSP it" "peak MiB" "set-up s" "step s" "median s" "KSP it" "peak MiB" \
    "step" "median" "peak mem"
  for cells in "${cases[@]}"; do
    read -r nx ny nz <<<"$cells"
    orec=$LOGS/oursC_${nx}x${ny}x${nz}.rec prec=$LOGS/peer_${nx}x${ny}x${nz}.rec
    : >"$orec"
    : >"$prec"
    for ((r = 1; r <= REPEATS; r++)); do
      run_ours 1 "$cells" "$LOGS/oursC_${nx}x${ny}x${nz}_r$r" --mass.type=consistent \
        -ksp_rtol "$RTOL" ${extra[@]+"${extra[@]}"} >>"$orec"
      run_peer 1 "$cells" "$LOGS/peer_${nx}x${ny}x${nz}_r$r.out" >>"$prec"
    done
    ou=$(field_median "$orec" unknowns) pu=$(field_median "$prec" unknowns)
    [[ $ou == "$pu" ]] || echo "benchmark: warning: peer has $pu unknowns, ours $ou" >&2
    os=$(field_median "$orec" step) ps=$(field_median "$prec" step)
    omed=$(field_median "$orec" stepmed) pmed=$(field_median "$prec" stepmed)
    omem=$(field_median "$orec" mem) pmem=$(field_median "$prec" mem)
    # shellcheck disable=SC2034  # read by jobs/bench/targets.sh
    peer_of[$nx,1]=$(calc "$omed / $pmed")
    # shellcheck disable=SC2034  # read by jobs/bench/targets.sh
    peer_mem_of[$nx]="$(calc "$omem / $pmem") $omem $pmem"
    printf '%9d | %8.3f %8.4f %8.4f %7.1f %8.0f | %8.3f %8.4f %8.4f %7.1f %8.0f | %9.2f %9.2f %9.2f\n' \
      "$ou" "$(field_median "$orec" setup)" "$os" "$omed" "$(field_median "$orec" its)" "$omem" \
      "$(field_median "$prec" setup)" "$ps" "$pmed" "$(field_median "$prec" its)" "$pmem" \
      "$(calc "$ps / $os")" "$(calc "$pmed / $omed")" "$(calc "$omem / $pmem")"
  done
fi
if [[ $HEXAHEDRA == yes ]]; then
  # shellcheck source=jobs/bench/hexahedra.sh
  source jobs/bench/hexahedra.sh
fi
if [[ $TARGETS == yes ]]; then
  # shellcheck source=jobs/bench/targets.sh
  source jobs/bench/targets.sh
fi
echo
echo "benchmark: done; every run's output and -log_view file are in $LOGS"
