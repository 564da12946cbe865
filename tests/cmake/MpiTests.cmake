# How the tests start MPI programs, and one CTest test per GoogleTest suite and launch.
#
# Every MPI launch is CMake's (FindMPI's variables, so that any MPI works):
#   MPIEXEC_EXECUTABLE MPIEXEC_NUMPROC_FLAG <ranks> <preflags> <program> MPIEXEC_POSTFLAGS <args>
# where <preflags> is MPIEXEC_PREFLAGS plus what OpenMPI alone needs, and only where it needs it:
# - as root (containers, CI) it refuses to start without OMPI_ALLOW_RUN_AS_ROOT(_CONFIRM): those
#   go into EIS_MPI_TEST_ENVIRONMENT when CMake configures as root;
# - it refuses more ranks than cores: --oversubscribe for a job with more ranks than this machine
#   has logical cores (3-rank tests on a 2-core machine);
# - it binds the ranks of a small job to cores counted from core 0 in every job, so two jobs that
#   ctest -j runs side by side would share core 0 and leave the others idle: --bind-to none for a
#   job with fewer ranks than cores (one with as many runs alone, PROCESSORS seeing to it, and
#   keeps its binding), unless MPIEXEC_PREFLAGS already says how to bind;
# - when a rank exits with a non-zero status it signals the others and waits a second before it
#   kills them (odls_base_sigkill_timeout): a failed 2-rank run took 2.1 s instead of 1.2, and
#   the bad-input tests end a hundred runs that way. The tests set the wait to 0 in
#   EIS_MPI_TEST_ENVIRONMENT; nothing they check depends on it (a run's own SIGTERM handling is
#   tested by signalling its ranks directly).

cmake_host_system_information(RESULT EIS_TEST_CORES QUERY NUMBER_OF_LOGICAL_CORES)
execute_process(COMMAND "${MPIEXEC_EXECUTABLE}" --version
                OUTPUT_VARIABLE _eis_mpiexec_version ERROR_QUIET)
set(EIS_OPENMPI FALSE)
if(_eis_mpiexec_version MATCHES "Open MPI|OpenRTE")
  set(EIS_OPENMPI TRUE)
endif()
set(EIS_MPI_TEST_ENVIRONMENT "")
if(EIS_OPENMPI)
  set(EIS_MPI_TEST_ENVIRONMENT OMPI_MCA_odls_base_sigkill_timeout=0)
  execute_process(COMMAND id -u OUTPUT_VARIABLE _eis_uid OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(_eis_uid STREQUAL "0")
    list(APPEND EIS_MPI_TEST_ENVIRONMENT OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1)
  endif()
endif()

# eis_mpiexec_preflags(<var> <ranks>): the flags between the rank count and the program for a job
# of <ranks> ranks on this machine.
function(eis_mpiexec_preflags var ranks)
  set(flags ${MPIEXEC_PREFLAGS})
  if(EIS_OPENMPI)
    if(ranks LESS EIS_TEST_CORES AND NOT "${MPIEXEC_PREFLAGS}" MATCHES "--bind-to")
      list(APPEND flags --bind-to none)
    elseif(ranks GREATER EIS_TEST_CORES)
      list(APPEND flags --oversubscribe)
    endif()
  endif()
  set(${var} "${flags}" PARENT_SCOPE)
endfunction()

# eis_add_gtest_suites(<target> PREFIX <prefix> [RANKS <n>...] [TIMEOUT <s>] [LABELS <label>...])
# Adds one CTest test per GoogleTest suite of the executable <target>, running that suite's cases
# (--gtest_filter=<Suite>.*): <prefix>.<Suite>, the executable as one plain process, or with
# RANKS, <prefix>.np<n>.<Suite> for every <n>: the MPI launch of <target> on <n> ranks,
# PROCESSORS <n>. Every test gets EIS_MPI_TEST_ENVIRONMENT (a plain process is an MPI singleton).
#
# A test per suite, not per case: a launch (mpiexec, MPI and PETSc start-up and tear-down) costs
# 0.3 to 1 s, more than most cases take, and the suites share their set-up. One test per case and
# rank count made 464 launches and about 10 minutes of a 2-core CI run; whole suites take a
# fraction of that. `ctest -R <Suite>` still picks a suite, and GoogleTest's output, which ctest
# shows for a failure, names each failing case; to run one case alone, give the executable
# --gtest_filter=<Suite>.<Case> by hand.
#
# The suites come from the executable itself, as gtest_discover_tests finds them: after every
# link, tests/cmake/ListGoogleTestCases.cmake runs <target> --gtest_list_tests as one plain process
# (MPI singleton start, which OpenMPI and MPICH both allow, so no launcher and no root or
# oversubscribe settings are needed at build time) and writes them to a file. A configure-time
# parse of TEST( and TEST_F( in the sources would be simpler but wrong: it misses parameterized
# cases, whose names come from INSTANTIATE_TEST_SUITE_P, typed tests and tests made by macros, and
# it goes stale when a source changes without a new configure. The listing is what the binary
# runs. The launch line, on the other hand, is written at configure time into the CTest include
# file that reads those suites (TEST_INCLUDE_FILES): changing MPIEXEC_* needs no rebuild, and a
# rebuild needs no new configure.
function(eis_add_gtest_suites target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "PREFIX;TIMEOUT" "RANKS;LABELS")
  if(NOT arg_TIMEOUT)
    set(arg_TIMEOUT 1500)  # CTest's default
  endif()
  set(cases_file "${CMAKE_CURRENT_BINARY_DIR}/${target}_cases.cmake")
  set(include_file "${CMAKE_CURRENT_BINARY_DIR}/${target}_include.cmake")
  add_custom_command(TARGET ${target} POST_BUILD
    COMMAND "${CMAKE_COMMAND}" -D "EXECUTABLE=$<TARGET_FILE:${target}>" -D "OUTPUT=${cases_file}"
            -P "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/ListGoogleTestCases.cmake"
    BYPRODUCTS "${cases_file}"
    COMMENT "Listing the GoogleTest suites of ${target}"
    VERBATIM)

  # Every argument goes in as a bracket argument, so that no character in it needs escaping.
  set(content "# Written by ${CMAKE_CURRENT_FUNCTION_LIST_FILE}: one test per suite of ${target}
# (listed in ${cases_file} after its last link) and launch.
unset(gtest_suites)
if(EXISTS [==[${cases_file}]==])
  include([==[${cases_file}]==])
endif()
if(NOT DEFINED gtest_suites)
  add_test(${target}_NOT_LISTED ${target}_NOT_LISTED)
else()
")
  set(launches "")
  if(arg_RANKS)
    foreach(ranks IN LISTS arg_RANKS)
      eis_mpiexec_preflags(preflags ${ranks})
      set(launch "[==[${MPIEXEC_EXECUTABLE}]==] [==[${MPIEXEC_NUMPROC_FLAG}]==] ${ranks}")
      foreach(flag IN LISTS preflags)
        string(APPEND launch " [==[${flag}]==]")
      endforeach()
      string(APPEND launch " \"\${gtest_cases_executable}\"")
      foreach(flag IN LISTS MPIEXEC_POSTFLAGS)
        string(APPEND launch " [==[${flag}]==]")
      endforeach()
      list(APPEND launches "np${ranks}.|${ranks}|${launch}")
    endforeach()
  else()
    list(APPEND launches "|1|\"\${gtest_cases_executable}\"")
  endif()
  foreach(entry IN LISTS launches)
    string(REPLACE "|" ";" entry "${entry}")
    list(GET entry 0 infix)
    list(GET entry 1 processors)
    list(GET entry 2 launch)
    set(name "${arg_PREFIX}.${infix}\${suite}")
    string(APPEND content "  foreach(filter IN LISTS gtest_suites)
    string(REGEX REPLACE [==[\\.\\*$]==] \"\" suite \"\${filter}\")
    add_test(\"${name}\" ${launch} \"--gtest_filter=\${filter}\")
    set_tests_properties(\"${name}\" PROPERTIES PROCESSORS ${processors} TIMEOUT ${arg_TIMEOUT}
      LABELS [==[${arg_LABELS}]==] ENVIRONMENT [==[${EIS_MPI_TEST_ENVIRONMENT}]==]
      FAIL_REGULAR_EXPRESSION [==[ 0 tests from 0 test suites ran]==])
  endforeach()
")
  endforeach()
  string(APPEND content "endif()\n")
  file(WRITE "${include_file}" "${content}")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${include_file}")
endfunction()
