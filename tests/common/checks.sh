# Sourced by the test scripts: `check DESCRIPTION COMMAND...` runs COMMAND and prints "ok" or
# "FAIL" before the description, counting both (checks, failures); a script ends with
#   echo "$((checks - failures)) passed, $failures failed"; exit $((failures > 0))
# or its own summary of those counts.
# shellcheck shell=bash
failures=0
checks=0
check() {
  checks=$((checks + 1))
  if "${@:2}"; then echo "ok   $1"; else echo "FAIL $1"; failures=$((failures + 1)); fi
}

# same_state A B TOL: two final-state CSVs (a header, then id and numbers; a last column `object`
# of several bodies is text and skipped) whose numbers differ by at most TOL of the largest;
# prints the gap otherwise.
same_state() {
  awk -F, -v tol="$3" 'NR == FNR { if (FNR > 1) for (i = 2; i <= 7; ++i) a[FNR, i] = $i; next }
    FNR > 1 { for (i = 2; i <= 7; ++i) { d = a[FNR, i] - $i; if (d < 0) d = -d; if (d > m) m = d
                                        v = $i < 0 ? -$i : $i; if (v > s) s = v }; n++ }
    END { if (n == 0 || m > tol * s) { printf "  differ by %g of %g\n", m, s; exit 1 } }' "$1" "$2"
}
