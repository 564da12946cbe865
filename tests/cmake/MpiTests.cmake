# How the tests start MPI programs, and one CTest test per launch of a GoogleTest program.
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
#   tested by signalling its ranks directly);
# - at start-up every process tries the UCX and the cm (libfabric, PSM) messaging layers before it
#   settles on ob1, the one a single machine without such hardware ends up with: 0.2 s of a 0.46 s
#   MPI_Init measured here, in every rank of the tests' several hundred launches. The tests name
#   ob1 (OMPI_MCA_pml=ob1 in EIS_MPI_TEST_ENVIRONMENT: the same layer, no probe) unless the
#   environment CMake configures in chooses a layer itself.
# - not MPI's but ours: a rank that fails alone waits 20 s for the others before it aborts the job
#   (src/app/run_outcome.cpp); the tests' refused runs that fail on one rank (a Python field
#   served on rank 0) spent 20 s each idle in that wait (python.matrix_free_default took 22 s, 7
#   with 5 s; python.force_fields 18, 11). The tests give it 5 s (EULER_IMPLICIT_LONE_ERROR_WAIT
#   in EIS_MPI_TEST_ENVIRONMENT): ample for ranks that all fail to meet, and every check of the
#   message, the status and the files written is the same. tests/unit/test_error.cpp checks
#   the 20 s default, tests/python/in_process.sh sets its own.

cmake_host_system_information(RESULT EIS_TEST_CORES QUERY NUMBER_OF_LOGICAL_CORES)
execute_process(COMMAND "${MPIEXEC_EXECUTABLE}" --version
                OUTPUT_VARIABLE _eis_mpiexec_version ERROR_QUIET)
set(EIS_OPENMPI FALSE)
if(_eis_mpiexec_version MATCHES "Open MPI|OpenRTE")
  set(EIS_OPENMPI TRUE)
endif()
set(EIS_MPI_TEST_ENVIRONMENT EULER_IMPLICIT_LONE_ERROR_WAIT=5)
if(EIS_OPENMPI)
  list(APPEND EIS_MPI_TEST_ENVIRONMENT OMPI_MCA_odls_base_sigkill_timeout=0)
  if(NOT DEFINED ENV{OMPI_MCA_pml})
    list(APPEND EIS_MPI_TEST_ENVIRONMENT OMPI_MCA_pml=ob1)
  endif()
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

# eis_note_skipped_test(<name> <ranks>): says at configure time that the test <name> is not
# generated, since it needs more ranks than EIS_TEST_MAX_RANKS allows.
function(eis_note_skipped_test name ranks)
  message(STATUS "Test ${name} not generated: it starts ${ranks} MPI ranks, "
                 "EIS_TEST_MAX_RANKS is ${EIS_TEST_MAX_RANKS}")
endfunction()

# eis_add_gtest_launches(<target> NAME <name> [RANKS <n>...] [TIMEOUT <s>] [LABELS <label>...])
# Adds one CTest test per launch of the GoogleTest executable <target>, running all its cases:
# <name>, the executable as one plain process, or with RANKS, <name>.np<n> for every <n>: the MPI
# launch of <target> on <n> ranks, PROCESSORS <n>. Every test gets EIS_MPI_TEST_ENVIRONMENT (a
# plain process is an MPI singleton) and --gtest_brief=1, so that a failure's output is the
# failing cases alone, each named.
#
# A test per launch, not per suite or case: a launch (mpiexec, MPI and PETSc start-up and
# tear-down) costs 0.3 to 1 s, more than most cases take. Measured on 2 cores, idle: the MPI
# program's 41 suites on 1, 2 and 3 ranks took 110 s as 123 tests (ctest --parallel 2) and 38 s
# as three launches; the unit program's 35 suites took 15 s as tests and 3.4 s as one. To run
# part of a program, GoogleTest reads its filter from the environment, which mpiexec passes to
# the ranks it starts here: GTEST_FILTER='Cantilever.*' ctest -R mpi.np2
function(eis_add_gtest_launches target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "NAME;TIMEOUT" "RANKS;LABELS")
  if(NOT arg_TIMEOUT)
    set(arg_TIMEOUT 1500)  # CTest's default
  endif()
  set(launches "")
  if(arg_RANKS)
    foreach(ranks IN LISTS arg_RANKS)
      if(ranks GREATER EIS_TEST_MAX_RANKS)
        eis_note_skipped_test(${arg_NAME}.np${ranks} ${ranks})
        continue()
      endif()
      eis_mpiexec_preflags(preflags ${ranks})
      add_test(NAME ${arg_NAME}.np${ranks}
               COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${ranks} ${preflags}
                       $<TARGET_FILE:${target}> ${MPIEXEC_POSTFLAGS} --gtest_brief=1)
      list(APPEND launches ${arg_NAME}.np${ranks})
      set_tests_properties(${arg_NAME}.np${ranks} PROPERTIES PROCESSORS ${ranks})
    endforeach()
  else()
    add_test(NAME ${arg_NAME} COMMAND $<TARGET_FILE:${target}> --gtest_brief=1)
    list(APPEND launches ${arg_NAME})
  endif()
  # A filter that selects nothing runs nothing: a failure, not a pass.
  set_tests_properties(${launches} PROPERTIES TIMEOUT ${arg_TIMEOUT} LABELS "${arg_LABELS}"
    ENVIRONMENT "${EIS_MPI_TEST_ENVIRONMENT}"
    FAIL_REGULAR_EXPRESSION "(^|[^0-9])0 tests from 0 test suites ran")
endfunction()

# eis_add_script_test(<name> RANKS <n> LABEL <label> TIMEOUT <s> COMMAND <script> <args>...)
# Adds the test <name>, `bash <script> <args>`, that starts <n> MPI ranks itself: PROCESSORS <n>
# and the launch line for them in its environment (MPIEXEC, MPIEXEC_NUMPROC_FLAG,
# MPIEXEC_PREFLAGS, MPIEXEC_POSTFLAGS, each flag list space-separated;
# tests/common/mpi_launch.sh puts them together). With more ranks than EIS_TEST_MAX_RANKS it
# only notes the test it leaves out.
function(eis_add_script_test name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "RANKS;LABEL;TIMEOUT" "COMMAND")
  if(arg_RANKS GREATER EIS_TEST_MAX_RANKS)
    eis_note_skipped_test(${name} ${arg_RANKS})
    return()
  endif()
  eis_mpiexec_preflags(preflags ${arg_RANKS})
  string(REPLACE ";" " " preflags "${preflags}")
  string(REPLACE ";" " " postflags "${MPIEXEC_POSTFLAGS}")
  add_test(NAME ${name} COMMAND bash ${arg_COMMAND})
  set(environment ${EIS_MPI_TEST_ENVIRONMENT} "MPIEXEC=${MPIEXEC_EXECUTABLE}"
      "MPIEXEC_NUMPROC_FLAG=${MPIEXEC_NUMPROC_FLAG}" "MPIEXEC_PREFLAGS=${preflags}"
      "MPIEXEC_POSTFLAGS=${postflags}")
  set_tests_properties(${name} PROPERTIES LABELS ${arg_LABEL} PROCESSORS ${arg_RANKS}
    TIMEOUT ${arg_TIMEOUT} ENVIRONMENT "${environment}")
endfunction()
