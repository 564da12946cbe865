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
