# Issue 33's speed goals, sourced by jobs/benchmark.sh (--hexahedra yes) after its sweep: the
# corotational beam (material.model = corotational, rotation large) on the sweep's boxes cut
# into tetrahedra (6 a cell) and kept as hexahedra (SOFA's HexahedronFEMForceField, method
# large), the same nodes and so the same unknowns, on each rank count of the sweep; medians of
# REPEATS runs. Per case: forces + assembly per step, elements assembled per second per rank,
# unknowns per second, step time; then the goals: hexahedral assembly at least as many unknowns
# per second as tetrahedral, and the hexahedral step within 1.5x the tetrahedral one per unknown.
# Uses benchmark.sh's run_ours, field_median, calc, cases, RANKS, REPEATS, STEPS, LOGS, extra.
# shellcheck shell=bash
# shellcheck disable=SC2059,SC2153,SC2154  # a table format in a variable; the variables above
# are benchmark.sh's

echo
echo "== hexahedra against tetrahedra: corotational beam (rotation large), box 10x1x1, $STEPS" \
     "steps; medians of $REPEATS runs"
hx_fmt='%9s %5s %-11s %9s | %10s %13s %12s | %9s %11s\n'
printf "$hx_fmt" "" "" "" "" "frc+asm" "elements/s" "unknowns/s" "step" "step/unkn"
printf "$hx_fmt" unknowns ranks cells count "[s/step]" "per rank" "assembled" "[s]" "[us]"
hx_goals=()
for cells in "${cases[@]}"; do
  read -r nx ny nz <<<"$cells"
  for ranks in $RANKS; do
    declare -A hx_asm=() hx_step=()
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
      hx_asm[$type]=$(field_median "$rec" frcasm)
      hx_step[$type]=$(field_median "$rec" step)
      printf "$hx_fmt" "$unknowns" "$ranks" "$type" "$count" \
        "$(printf '%.4f' "${hx_asm[$type]}")" \
        "$(printf '%.3g' "$(calc "$count / $ranks / ${hx_asm[$type]}")")" \
        "$(printf '%.3g' "$(calc "$unknowns / ${hx_asm[$type]}")")" \
        "$(printf '%.4f' "${hx_step[$type]}")" \
        "$(printf '%.3f' "$(calc "1e6 * ${hx_step[$type]} / $unknowns")")"
    done
    # Both meshes have the same nodes: unknowns per second and step per unknown compare as the
    # times themselves do.
    asm_ratio=$(calc "${hx_asm[tetrahedron]} / ${hx_asm[hexahedron]}")
    step_ratio=$(calc "${hx_step[hexahedron]} / ${hx_step[tetrahedron]}")
    hx_goals+=("$(printf '%9d %5d   %-42s %6.2f  %-8s %s' "$unknowns" "$ranks" \
      "assembly unknowns/s, hexahedra / tetrahedra" "$asm_ratio" ">= 1" \
      "$(awk -v x="$asm_ratio" 'BEGIN { print (x >= 1) ? "met" : "short" }')")")
    hx_goals+=("$(printf '%9d %5d   %-42s %6.2f  %-8s %s' "$unknowns" "$ranks" \
      "step per unknown, hexahedra / tetrahedra" "$step_ratio" "<= 1.5" \
      "$(awk -v x="$step_ratio" 'BEGIN { print (x <= 1.5) ? "met" : "short" }')")")
  done
done
cat <<EOF
   Legend: count = cells (tetrahedra: 6 per box cell); frc+asm = forces + matrix assembly per
   step; elements/s per rank = count / ranks / frc+asm; unknowns/s = unknowns / frc+asm;
   step = wall time per step (mean); step/unkn = step / unknowns in microseconds.
EOF
echo
echo "== Issue 33 speed goals"
printf '%9s %5s   %-42s %6s  %-8s %s\n' unknowns ranks goal figure target verdict
printf '%s\n' "${hx_goals[@]}"
