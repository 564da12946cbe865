// Errors: PETSc's own words reach our one error line; how long a failed rank waits for the others.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <utility>

#include "eis/app/run_outcome.hpp"
#include "eis/core/error.hpp"

namespace {

// An error raised the way PETSc raises its own (SETERRQ): the capture keeps the message given
// where it arose, and throwPetscError quotes it after PETSc's text for the code.
TEST(PetscErrorCapture, ThePetscMessageReachesTheError) {
  const eis::PetscErrorCapture capture;
  const PetscErrorCode code =
      PetscError(PETSC_COMM_SELF, __LINE__, "caller", __FILE__, PETSC_ERR_ARG_OUTOFRANGE,
                 PETSC_ERROR_INITIAL, "size %d cannot be negative", -3);
  ASSERT_EQ(code, PETSC_ERR_ARG_OUTOFRANGE);
  try {
    eis::throwPetscError(code, "Caller()", "file.cpp", 7);
    FAIL() << "throwPetscError returned";
  } catch (const eis::Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("Argument out of range"), std::string::npos) << what;
    EXPECT_NE(what.find("size -3 cannot be negative"), std::string::npos) << what;
    EXPECT_NE(what.find("in Caller() (file.cpp:7)"), std::string::npos) << what;
  }
}

// A message is quoted once: the next error without one does not repeat it.
TEST(PetscErrorCapture, AMessageIsQuotedOnce) {
  const eis::PetscErrorCapture capture;
  PetscError(PETSC_COMM_SELF, __LINE__, "caller", __FILE__, PETSC_ERR_ARG_OUTOFRANGE,
             PETSC_ERROR_INITIAL, "first");
  EXPECT_THROW(eis::throwPetscError(PETSC_ERR_ARG_OUTOFRANGE, "A()", "a.cpp", 1), eis::Error);
  try {
    eis::throwPetscError(PETSC_ERR_MEM, "B()", "b.cpp", 2);
  } catch (const eis::Error& e) {
    EXPECT_EQ(std::string(e.what()).find("first"), std::string::npos) << e.what();
  }
}

// Echoed input: control bytes escaped (a NUL no longer cuts the line), long text cut with its
// length said, ordinary text untouched.
TEST(Printable, EscapesControlBytesAndShortensLongText) {
  EXPECT_EQ(eis::printable("plain text, ok"), "plain text, ok");
  EXPECT_EQ(eis::printable(std::string("a\0b\x1b[2J\n\t\x7f", 10)), "a\\x00b\\x1b[2J\\n\\t\\x7f");
  EXPECT_EQ(eis::printable(std::string(1000, 'x'), 4), "xxxx... (1000 bytes in all)");
  EXPECT_EQ(eis::printable("abc", 3), "abc");
}

// A failure inside a solver call marks the solver unusable and comes out as SolverUnusable with
// the failure's message (so a retry in sub-steps leaves it alone); a call that succeeds marks
// nothing.
TEST(IntoSolver, AFailureMarksTheSolverUnusableAndKeepsItsMessage) {
  bool unusable = false;
  eis::intoSolver(unusable, [] {});
  EXPECT_FALSE(unusable);
  try {
    eis::intoSolver(unusable, [] { throw eis::Error("zero pivot"); });
    ADD_FAILURE() << "the error did not come out";
  } catch (const eis::SolverUnusable& e) {
    EXPECT_STREQ(e.what(), "zero pivot");
  }
  EXPECT_TRUE(unusable);
}

// A failed rank waits 20 s for the others, or the positive number of seconds that
// EULER_IMPLICIT_LONE_ERROR_WAIT gives; any other value is the 20 s.
TEST(LoneErrorWait, TheEnvironmentsPositiveSecondsElse20) {
  const char* name = "EULER_IMPLICIT_LONE_ERROR_WAIT";
  unsetenv(name);
  EXPECT_EQ(eis::loneErrorWaitSeconds(), 20.0);
  for (const auto& [given, seconds] : {std::pair<const char*, double>{"2", 2.0}, {"0.5", 0.5},
                                       {"0", 20.0}, {"-1", 20.0}, {"", 20.0}, {"2s", 20.0},
                                       {"inf", 20.0}, {"nan", 20.0}}) {
    setenv(name, given, 1);
    EXPECT_EQ(eis::loneErrorWaitSeconds(), seconds) << "'" << given << "'";
  }
  unsetenv(name);
}

}  // namespace
