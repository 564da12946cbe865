# Precompiled headers: nearly every source file parses PETSc's, MPI's and the same standard
# headers, some 88,000 lines, before a line of its own. Parsed once per target instead, a file
# compiles about a quarter faster (12 sources of src/io: 12.4 s of CPU without, 9.1 s with, under
# g++ -O3; 12.8 s and 9.4 s under the checking build's clang), which the two builds of CI's
# 20-minute run feel. Each target compiles its own header (its flags differ: the layers' include
# directories, the sanitizers, the fuzzing instrumentation). A source file still includes what
# it uses: -DEIS_PRECOMPILE_HEADERS=OFF builds without them and shows one that does not.
option(EIS_PRECOMPILE_HEADERS "precompile the PETSc, MPI and standard headers of every target" ON)

set(EIS_PRECOMPILED_HEADERS
    <petscksp.h> <petscdmplex.h> <petscsf.h> <mpi.h>
    <algorithm> <array> <cmath> <cstdint> <cstdio> <functional> <limits> <map> <memory>
    <optional> <set> <sstream> <string> <utility> <vector>)

# eis_precompile_headers(<target> [<header>...]): the shared list, and the target's own extra
# headers (the tests add GoogleTest's).
function(eis_precompile_headers target)
  if(EIS_PRECOMPILE_HEADERS)
    target_precompile_headers(${target} PRIVATE ${EIS_PRECOMPILED_HEADERS} ${ARGN})
  endif()
endfunction()
