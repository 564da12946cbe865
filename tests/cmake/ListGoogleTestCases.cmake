# Script mode, run after every link of a GoogleTest executable (see MpiTests.cmake):
#   cmake -D EXECUTABLE=<test executable> -D OUTPUT=<file.cmake> -P ListGoogleTestCases.cmake
# runs `EXECUTABLE --gtest_list_tests` as one plain process and writes OUTPUT, a CMake file that
# sets
#   gtest_cases_executable  EXECUTABLE
#   gtest_suites            every suite with a case GoogleTest runs (not a DISABLED_ suite or
#                           case), as the --gtest_filter that selects its cases (Suite.*;
#                           Prefix/Suite.* for parameterized ones)
# A listing that fails fails the build, with its output: a test executable that cannot even list
# its cases would fail every test anyway.
cmake_policy(SET CMP0057 NEW)  # if(... IN_LIST ...)
if(NOT EXECUTABLE OR NOT OUTPUT)
  message(FATAL_ERROR "usage: cmake -D EXECUTABLE=... -D OUTPUT=... -P ${CMAKE_CURRENT_LIST_FILE}")
endif()

execute_process(COMMAND "${EXECUTABLE}" --gtest_list_tests
                OUTPUT_VARIABLE listing ERROR_VARIABLE errors RESULT_VARIABLE status TIMEOUT 120)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${EXECUTABLE} --gtest_list_tests failed (${status}):\n${listing}${errors}")
endif()

# Suites start in column 0 and end in '.', their cases follow indented by two spaces; either may
# carry a comment (  # GetParam() = ..., which may hold any character): drop those first.
string(REGEX REPLACE "  #[^\n]*" "" listing "${listing}")
string(REGEX REPLACE "\n" ";" lines "${listing}")
set(name "[A-Za-z_][A-Za-z0-9_/]*")
set(suite "")
set(cases "")
set(suites "")
foreach(line IN LISTS lines)
  if(line MATCHES "^(${name}\\.)$")
    set(suite "${CMAKE_MATCH_1}")
  elseif(suite AND line MATCHES "^  (${name})$")
    list(APPEND cases "${suite}${CMAKE_MATCH_1}")
    if(NOT "${suite}${CMAKE_MATCH_1}" MATCHES "(^|[./])DISABLED_" AND
       NOT "${suite}*" IN_LIST suites)
      list(APPEND suites "${suite}*")
    endif()
  endif()
endforeach()
if(NOT cases)
  message(FATAL_ERROR "${EXECUTABLE} --gtest_list_tests listed no case:\n${listing}${errors}")
endif()

file(WRITE "${OUTPUT}" "# Written by ${CMAKE_CURRENT_LIST_FILE} after the last link.
set(gtest_cases_executable [==[${EXECUTABLE}]==])
set(gtest_suites [==[${suites}]==])
")
