#!/usr/bin/env bash
# The README's commands, as written, in a temporary copy of what they need (meshes/, and
# build/bin/ linked to the tested executables): each must exit 0 without an error line. The
# commands are read from README.md, so an edited README is tested as it stands:
#   - the scene file of "Running" (its ```ini block), run with --config from the copy's root, and
#     again from a subfolder (its paths start at the scene file's folder): the outputs it names
#     must appear next to it;
#   - --help and --version;
#   - every PETSc option list in backquotes that gives a value or is -log_view ("-ksp_type cg
#     -pc_type hypre ...", the direct solver "-ksp_type preonly -pc_type lu ..."), each on the
#     scene with a few steps (SNES options with solver.newton = full, as the README says);
#   - the partition-surface command of "Performance";
#   - what the docs must say or not do: jobs/mpi-env.sh and --oversubscribe named, no command
#     writing under docs/images/, docs/scaling-model.md's commands with build/bin/.
# Not run here: jobs/run-default.sh and jobs/run-tests.sh (they install and build; CI runs the
# second), the picture scripts (regression.pictures), cmake --install and the outside project
# (ctest -L install).
#
#   bash readme_commands.sh <path-to-euler-implicit> <path-to-meshes-dir>
#   env: the MPI launch line (tests/common/mpi_launch.sh)
set -u
RANKS=2  # MPI ranks per run; tests/CMakeLists.txt reads this line too (PROCESSORS)
EXE=$(realpath "${1:?usage: readme_commands.sh <euler-implicit> <meshes-dir>}")
MESHES=$(realpath "${2:?usage: readme_commands.sh <euler-implicit> <meshes-dir>}")
README=$(realpath "$(dirname "${BASH_SOURCE[0]}")/../../README.md")
# shellcheck source=SCRIPTDIR/../common/mpi_launch.sh
source "$(dirname "${BASH_SOURCE[0]}")/../common/mpi_launch.sh"
LIMIT=${README_COMMANDS_LIMIT:-120}  # seconds per command

T=$(mktemp -d "${TMPDIR:-/tmp}/eis_readme.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
cp -r "$MESHES" "$T/meshes"
mkdir -p "$T/build" "$T/sub"
ln -s "$(dirname "$EXE")" "$T/build/bin"
cd "$T" || exit 1
mpi_command "$RANKS" build/bin/euler-implicit

failures=0
count=0
# run NAME COMMAND...: the command, run in $here (default: the copy's root), exits 0 and prints no
# error line.
here=$T
run() {
  local name=$1
  shift
  count=$((count + 1))
  (cd "$here" && timeout "$LIMIT" "$@") >"$T/log.$count" 2>&1
  local rc=$?
  if ((rc != 0)) || grep -q -e 'euler-implicit: error' -e 'PETSC ERROR' "$T/log.$count"; then
    echo "FAIL $name (exit $rc): $*"
    tail -n 5 "$T/log.$count"
    failures=$((failures + 1))
  else
    echo "ok   $name"
  fi
}

# The scene file: the README's ```ini block.
awk '/^```ini$/ {on = 1; next} on && /^```$/ {exit} on' "$README" >scene.ini
if [ ! -s scene.ini ]; then
  echo "FAIL setup: no \`\`\`ini block in $README"
  exit 1
fi
run "scene file" "${MPI_COMMAND[@]}" --config scene.ini
for key in vtk history final-state; do
  out=$(awk -F' *= *' -v key="$key" '/^\[/ {s = $0} s == "[output]" && $1 == key {print $2}' scene.ini)
  [ "$key" = vtk ] && out=$out.pvd
  if [ -n "$out" ] && [ ! -s "$out" ]; then
    echo "FAIL scene file: output.$key = $out was not written next to scene.ini"
    failures=$((failures + 1))
  fi
done
rm -rf out
here=$T/sub
mpi_command "$RANKS" ../build/bin/euler-implicit
run "scene file from a subfolder" "${MPI_COMMAND[@]}" --config ../scene.ini --solver.steps=3
here=$T
mpi_command "$RANKS" build/bin/euler-implicit
out=$(awk -F' *= *' '/^\[/ {s = $0} s == "[output]" && $1 == "final-state" {print $2}' scene.ini)
if [ -n "$out" ] && [ ! -s "$out" ]; then
  echo "FAIL scene file from a subfolder: $out was not written next to scene.ini"
  failures=$((failures + 1))
fi

run "--help" "${MPI_COMMAND[@]}" --help
run "--version" "${MPI_COMMAND[@]}" --version

# PETSc option lists: backquoted spans of single-dash options with a value, or -log_view.
# shellcheck disable=SC2016  # the backquotes are Markdown's, matched literally
mapfile -t option_lists < <(tr '\n' ' ' <"$README" | grep -o '`-[a-z][^`<]*`' | tr -d '`' |
  grep -e ' ' -e '^-log_view$' | sort -u)
if ((${#option_lists[@]} < 3)); then
  echo "FAIL setup: found ${#option_lists[@]} PETSc option lists in $README"
  failures=$((failures + 1))
fi
for options in "${option_lists[@]}"; do
  read -r -a words <<<"$options"
  extra=(--solver.steps=3)
  [[ $options == *-snes_* ]] && extra+=(--solver.newton=full --solver.newton-guess=zero)
  run "PETSc options: $options" "${MPI_COMMAND[@]}" --config scene.ini "${extra[@]}" "${words[@]}"
done

# partition-surface, as the README writes it (quotes included).
# shellcheck disable=SC2016  # the backquotes are Markdown's, matched literally
command=$(tr '\n' ' ' <"$README" | grep -o '`build/bin/partition-surface[^`]*`' | head -n 1 |
  tr -d '`')
if [ -z "$command" ]; then
  echo "FAIL setup: no partition-surface command in $README"
  failures=$((failures + 1))
else
  eval "words=($command)"
  run "partition-surface" "${words[@]}"
fi

# What the commands must not need or do (issue 37, items 29 and 30): the README says how to run
# more ranks than cores (OpenMPI's "not enough slots"), no command in its code blocks writes
# over the tracked pictures under docs/images/, and docs/scaling-model.md calls the tools by
# the path a build gives them.
count=$((count + 1))
if ! grep -q 'source jobs/mpi-env.sh' "$README" || ! grep -q -- '--oversubscribe' "$README"; then
  echo "FAIL docs: $README names neither jobs/mpi-env.sh nor --oversubscribe"
  failures=$((failures + 1))
fi
count=$((count + 1))
writes=$(awk '/^```/ {on = !on; next} on && /docs\/images\//' "$README")
if [ -n "$writes" ]; then
  echo "FAIL docs: README commands write under docs/images/: $writes"
  failures=$((failures + 1))
fi
count=$((count + 1))
SCALING=$(dirname "$README")/docs/scaling-model.md
# shellcheck disable=SC2016  # the $ prompt and the backquotes are Markdown's, matched literally
bare=$(grep -n -E '(^\$ |`)([^`]*[ (`])?(partition-surface|euler-implicit) --' "$SCALING" |
  grep -v -E 'build/bin/(partition-surface|euler-implicit) --')
if [ -n "$bare" ]; then
  echo "FAIL docs: $SCALING runs a tool without build/bin/: $bare"
  failures=$((failures + 1))
fi

echo "$count README commands run, $failures failed"
exit $((failures > 0))
