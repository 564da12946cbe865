#!/usr/bin/env bash
# Installs what is missing, then configures and builds euler-implicit in ./build (Release).
# Used by run-default.sh and run-tests.sh; safe to run again (incremental).
set -euo pipefail
cd "$(dirname "$0")/.."
bash jobs/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)"
