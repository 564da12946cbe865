#!/usr/bin/env bash
# One libFuzzer harness as a test: replays every input of REGRESSIONS (each once), then fuzzes for
# SECONDS from a scratch copy of the files of the SEEDS folders (the seeds stay as committed). A crash, a sanitizer report
# or an input that runs over 10 s fails the test; libFuzzer writes the input to the scratch folder
# and prints its path: copy it into REGRESSIONS with the fix.
# Usage: run_harness.sh <harness> <seconds> <regressions> <seeds>...
set -euo pipefail
harness=$1 seconds=$2 regressions=$3
shift 3
work=$(mktemp -d "${TMPDIR:-/tmp}/eis_fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/corpus"
find "$@" -maxdepth 1 -type f -exec cp {} "$work/corpus/" \;
cd "$work"
mapfile -t old < <(find "$regressions" -type f | sort)
if ((${#old[@]})); then
  "$harness" -timeout=10 "${old[@]}"
fi
status=0
"$harness" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
  "$work/corpus" > fuzz.log 2>&1 || status=$?
if ((status != 0)); then
  tail -n 60 fuzz.log
else
  grep -E '^(#[0-9]+ +DONE|stat::number_of_executed_units)' fuzz.log
fi
exit "$status"
