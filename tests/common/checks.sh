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

# below VALUE LIMIT: VALUE and LIMIT are numbers (not "nan" or text, which would compare as
# strings) and VALUE is at most LIMIT. A figure as the LIMIT ("below 1e-4 "$change"": the change
# is at least 1e-4) fails when the figure is missing as surely as when it is the VALUE.
# (Debian's mawk reads "nan" as a number and finds 1e-5 <= nan true: a number is checked by its
# spelling.)
below() {
  awk -v v="$1" -v l="$2" -v n='^[ \t]*[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?[ \t]*$' \
    'BEGIN { exit !(v ~ n && l ~ n && v + 0 <= l + 0) }'
}

# refused PATTERN RANKS PROGRAM ARGS...: PROGRAM (euler-implicit) with ARGS on RANKS ranks
# (mpi_launch.sh's launch line, 120 s at most) fails with an error (status 1 to 123, not a
# timeout or a signal), and its standard error holds exactly one line "euler-implicit: error:
# ...", which matches PATTERN (grep's basic regular expression). Its output is left in
# refused.out and refused.err; when the check fails, it shows why.
refused() {
  local pattern=$1 status=0 MPI_COMMAND
  mpi_command "$2" "$3"
  timeout 120 "${MPI_COMMAND[@]}" "${@:4}" > refused.out 2> refused.err || status=$?
  if ((status == 0 || status > 123)); then
    echo "     | the run ended with status $status"
    sed 's/^/     | /' refused.err
    return 1
  fi
  if [ "$(grep -c '^euler-implicit: error: ' refused.err)" -ne 1 ] ||
    ! grep '^euler-implicit: error: ' refused.err | grep -q -- "$pattern"; then
    sed 's/^/     | /' refused.err
    return 1
  fi
}
