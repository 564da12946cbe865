#!/usr/bin/env bash
# `cmake --install` is usable by another project: installs the build into a temporary prefix,
# checks what lands there, runs the installed executables, then builds tests/install/outside-
# project against the prefix with find_package(euler-implicit) (shared and static library, and
# the static one linked whole) and with pkg-config, and runs what it built (the program checks
# the box mesh it gets from the library against the box's definition and fails otherwise).
# Usage: install.sh <cmake> <build dir> <libdir> <C++ compiler> <pkg-config>
# (tests/CMakeLists.txt passes them; PKG_CONFIG_PATH must reach PETSc's and MPI's .pc files).
set -euo pipefail
cmake=$1 build=$2 libdir=$3 cxx=$4 pkgconfig=$5
project=$(dirname "$(realpath "${BASH_SOURCE[0]}")")/outside-project
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix

failures=0
checks=0
check() {  # check DESCRIPTION COMMAND...
  checks=$((checks + 1))
  if "${@:2}"; then echo "ok   $1"; else echo "FAIL $1"; failures=$((failures + 1)); fi
}
quietly() {  # quietly COMMAND...: its output only when it fails
  "$@" > "$work/log.txt" 2>&1 || { cat "$work/log.txt"; return 1; }
}

check "cmake --install into a new prefix" quietly "$cmake" --install "$build" --prefix "$prefix"
for file in bin/euler-implicit bin/partition-surface "$libdir/libeis.so" "$libdir/libeis.a" \
  include/eis/mesh/box_mesh.hpp include/eis/app/simulation.hpp \
  "$libdir/cmake/euler-implicit/euler-implicit-config.cmake" \
  "$libdir/cmake/euler-implicit/euler-implicit-config-version.cmake" \
  "$libdir/cmake/euler-implicit/euler-implicit-targets.cmake" \
  "$libdir/pkgconfig/euler-implicit.pc"; do
  check "installed $file" test -f "$prefix/$file"
done
check "installed euler-implicit --help" quietly "$prefix/bin/euler-implicit" --help
check "installed partition-surface --help" quietly "$prefix/bin/partition-surface" --help

check "find_package(euler-implicit): configure" quietly "$cmake" -S "$project" -B "$work/build" \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=Release
check "find_package(euler-implicit): build" quietly "$cmake" --build "$work/build"
check "eis::eis: the program runs" "$work/build/box-shared"
check "eis::eis: links the installed libeis.so" \
  bash -c "ldd '$work/build/box-shared' | grep -q '$prefix/$libdir/libeis.so'"
check "eis::eis_static: the program runs" "$work/build/box-static"
check "eis::eis_static: links no libeis.so" \
  bash -c "! ldd '$work/build/box-static' | grep -q libeis"
check "eis::eis_static_whole: the program runs" "$work/build/box-whole"

export PKG_CONFIG_PATH=$prefix/$libdir/pkgconfig:${PKG_CONFIG_PATH:-}
flags=$("$pkgconfig" --cflags --libs euler-implicit) || flags=
check "pkg-config --cflags --libs euler-implicit" test -n "$flags"
# pkg-config drops -I/usr/include itself, so the file is read: other tools take it as written.
check "euler-implicit.pc: no -I of a system folder" \
  bash -c "! grep -q -- '-I/usr/include\\b' '$prefix/$libdir/pkgconfig/euler-implicit.pc'"
# shellcheck disable=SC2086  # the flags are words
check "pkg-config: build with its flags alone" quietly "$cxx" -std=c++17 "$project/main.cpp" \
  $flags -o "$work/box-pc"
check "pkg-config: the program runs and finds libeis.so" env -u LD_LIBRARY_PATH "$work/box-pc"
check "pkg-config: requires the PETSc version the build asks for" \
  grep -qx "Requires: .* >= 3.18, mpi" "$prefix/$libdir/pkgconfig/euler-implicit.pc"

echo "$((checks - failures)) passed, $failures failed"
exit $((failures > 0))
