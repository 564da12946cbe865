# Issue 33's speed goals, sourced by jobs/benchmark.sh (--hexahedra yes) after its sweep: the
# corotational beam (material.model = corotational, rotation large) on the sweep's boxes cut
# into tetrahedra (6 a cell) and kept as hexahedra (SOFA's HexahedronFEMForceField, method
# large), the same nodes and so the same unknowns, on each rank count of the sweep; medians of
# REPEATS runs. Per case: forces + assembly per step in wall-clock and in CPU time (the most
# over the ranks of each), elements assembled per second per rank and unknowns per second (from the
# CPU time), the step time, and the assembly's parts from -log_view (element matrices, their sums
# into the matrix, the ghost rows' MatSetValuesBlocked, MatAssemblyBegin and End; the slowest
# rank's wall-clock seconds); then the goals: hexahedral assembly at least as many unknowns per
# second as tetrahedral (in CPU time, which the machine's other jobs disturb less), and the
# hexahedral step within 1.5x the tetrahedral one per unknown.
# Leaves hx_ratio_of[nx,ranks] (hexahedral step / tetrahedral) for jobs/bench/targets.sh.
# Uses benchmark.sh's run_ours, field_median, calc, cases, RANKS, REPEATS, STEPS, LOGS, extra.
# shellcheck shell=bash
# shellcheck disable=SC2059,SC2153,SC2154  # a table format in a variable; the variables above
# are benchmark.sh's

echo
echo "== hexahedra against tetrahedra: corotational beam (rotation large), box 10x1x1, $STEPS" \
     "steps; medians of $REPEATS runs"
hx_fmt='%9s %5s %-11s %9s | %9s %9s %11s %11s | %9s %9s\n'
printf "$hx_fmt" "" "" "" "" "frc+asm" "frc+asm" "elements/s" "unknowns/s" "step" "step/unkn"
printf "$hx_fmt" unknowns ranks cells count "wall [s]" "cpu [s]" "per rank" "assembled" "[s]" "[us]"
ph_fmt='%9s %5s %-11s | %9s %9s %9s %9s %9s %11s\n'
ph_rows=("$(printf "$ph_fmt" unknowns ranks cells elements scatter ghosts begin end \
  "end max/min")")
hx_goals=()
declare -A hx_ratio_of
for cells in "${cases[@]}"; do
  read -r nx ny nz <<<"$cells"
  for ranks in $RANKS; do
    declare -A hx_asm=() hx_wall=() hx_step=()
    for type in tetrahedron hexahedron; do
      rec=$LOGS/corot_${type}_${nx}x${ny}x${nz}_np${ranks}.rec
      : >"$rec"
      for ((r = 1; r <= REPEATS; r++)); do
        run_ours "$ranks" "$cells" "$LOGS/corot_${type}_${nx}x${ny}x${nz}_np${ranks}_r$r" \
          --mesh.cell-type="$type" --material.model=corotational --material.rotation=large \
          ${extra[@]+"${extra[@]}"} >>"$rec"
      done
      if grep -q PARSE_ERROR "$rec"; then
        echo "benchmark: could not parse a run's summary line (see $LOGS)" >&2; exit 1
      fi
      unknowns=$(field_median "$rec" unknowns)
      count=$((nx * ny * nz))
      [[ $type == tetrahedron ]] && count=$((6 * count))
      hx_asm[$type]=$(field_median "$rec" cpufrcasm)
      hx_wall[$type]=$(field_median "$rec" frcasm)
      hx_step[$type]=$(field_median "$rec" step)
      printf "$hx_fmt" "$unknowns" "$ranks" "$type" "$count" \
        "$(printf '%.4f' "${hx_wall[$type]}")" \
        "$(printf '%.4f' "${hx_asm[$type]}")" \
        "$(printf '%.3g' "$(calc "$count / $ranks / ${hx_asm[$type]}")")" \
        "$(printf '%.3g' "$(calc "$unknowns / ${hx_asm[$type]}")")" \
        "$(printf '%.4f' "${hx_step[$type]}")" \
        "$(printf '%.3f' "$(calc "1e6 * ${hx_step[$type]} / $unknowns")")"
      ph=()
      for k in evelem evscat evghost evbegin evend; do
        ph+=("$(printf '%.4f' "$(field_median "$rec" "$k")")")
      done
      ph_rows+=("$(printf "$ph_fmt" "$unknowns" "$ranks" "$type" "${ph[@]}" \
        "$(printf '%.2f' "$(field_median "$rec" evendratio)")")")
    done
    # Both meshes have the same nodes: unknowns per second and step per unknown compare as the
    # times themselves do.
    asm_ratio=$(calc "${hx_asm[tetrahedron]} / ${hx_asm[hexahedron]}")
    step_ratio=$(calc "${hx_step[hexahedron]} / ${hx_step[tetrahedron]}")
    # shellcheck disable=SC2034  # read by jobs/bench/targets.sh (issue 38's target 4)
    hx_ratio_of[$nx,$ranks]=$step_ratio
    hx_goals+=("$(printf '%9d %5d   %-42s %6.2f  %-8s %s' "$unknowns" "$ranks" \
      "assembly unknowns/s (cpu), hexa / tetra" "$asm_ratio" ">= 1" \
      "$(awk -v x="$asm_ratio" 'BEGIN { print (x >= 1) ? "met" : "short" }')")")
    hx_goals+=("$(printf '%9d %5d   %-42s %6.2f  %-8s %s' "$unknowns" "$ranks" \
      "step per unknown, hexahedra / tetrahedra" "$step_ratio" "<= 1.5" \
      "$(awk -v x="$step_ratio" 'BEGIN { print (x <= 1.5) ? "met" : "short" }')")")
  done
done
cat <<EOF
   Legend: count = cells (tetrahedra: 6 per box cell); frc+asm = forces + matrix assembly per
   step, wall-clock (rank 0) and CPU time (user + system: the most over the ranks of each);
   elements/s per rank = count / ranks / cpu frc+asm; unknowns/s = unknowns / cpu frc+asm;
   step = wall time per step (mean); step/unkn = step / unknowns in microseconds.
EOF
echo
echo "== the matrix assembly's parts, seconds per step (wall-clock, the slowest rank; -log_view)"
printf '%s\n' "${ph_rows[@]}"
cat <<EOF
   Legend: elements = the element matrices (AsmElementMats); scatter = their sums into this
   rank's rows (AsmScatter); ghosts = the rows other ranks own, into PETSc's stash
   (AsmGhostRows); begin, end = MatAssemblyBegin, MatAssemblyEnd (the ghost rows' exchange; a
   rank that waits for the other waits here); end max/min = MatAssemblyEnd's slowest rank over
   its fastest.
EOF
echo
echo "== Issue 33 speed goals"
printf '%9s %5s   %-42s %6s  %-8s %s\n' unknowns ranks goal figure target verdict
printf '%s\n' "${hx_goals[@]}"
