#pragma once
// One error type for the whole project, and the macro that turns a PETSc error code into it.
#include <petscsys.h>
#include <stdexcept>
#include <string>

namespace eis {

// Raised for bad input and for failed library calls. main() prints what() once on rank 0 as
// "euler-implicit: error: <what>" and exits non-zero on every rank.
class Error : public std::runtime_error {
public:
  explicit Error(const std::string& what) : std::runtime_error(what) {}
};

// PETSc failed inside a solver (a KSP or SNES): the solver may be half built, so it is not used
// again, and a step that raised this is not retried (it would meet that state, not the cause).
class SolverUnusable : public Error {
public:
  using Error::Error;
};

// Runs `call`, a call into a PETSc solver; an Error there sets `unusable` and comes out as
// SolverUnusable with the same message.
template <typename Call>
void intoSolver(bool& unusable, Call&& call) {
  try {
    call();
  } catch (const Error& e) {
    unusable = true;
    throw SolverUnusable(e.what());
  }
}

// Text from the input as an error line may show it: control bytes (a NUL, an escape sequence, a
// newline) written as \n, \t or \xNN so they neither cut the line nor reach the terminal raw,
// and anything past `limit` bytes replaced by a note of the full length.
std::string printable(const std::string& text, std::size_t limit = std::string::npos);

// Builds the message for a failed PETSc call (PETSc's own text, and where we called it).
[[noreturn]] void throwPetscError(PetscErrorCode code, const char* call, const char* file,
                                  int line);

// While it is in place (between PetscInitialize and PetscFinalize), PETSc errors come back as
// codes, not tracebacks, and the message PETSc gave where the error arose (say, "Running KSP of
// preonly doesn't make sense with nonzero initial guess") is kept for throwPetscError to quote.
class PetscErrorCapture {
public:
  PetscErrorCapture();
  ~PetscErrorCapture();
  PetscErrorCapture(const PetscErrorCapture&) = delete;
  PetscErrorCapture& operator=(const PetscErrorCapture&) = delete;
};

// The same for a failed MPI call (MPI's error string for the code).
[[noreturn]] void throwMpiError(int code, const char* call, const char* file, int line);

// Collective verdict: true on every rank when any rank passes true. Use it so that all ranks
// fail together instead of leaving some waiting in a collective call.
bool anyRank(bool localFailure, MPI_Comm comm);

// Rethrows, on every rank, the first error message that any rank raised (the lowest rank's).
// `message` is empty on ranks that succeeded.
void throwIfAnyRankFailed(const std::string& message, MPI_Comm comm);

// This process's rank in `comm`, and the number of ranks (checked MPI calls).
int commRank(MPI_Comm comm);
int commSize(MPI_Comm comm);

}  // namespace eis

#define EIS_CHECK(call)                                                          \
  do {                                                                           \
    PetscErrorCode eis_ierr_ = (call);                                           \
    if (eis_ierr_) ::eis::throwPetscError(eis_ierr_, #call, __FILE__, __LINE__); \
  } while (0)

#define EIS_CHECK_MPI(call)                                           \
  do {                                                                \
    int eis_mpi_ierr_ = (call);                                       \
    if (eis_mpi_ierr_ != MPI_SUCCESS)                                 \
      ::eis::throwMpiError(eis_mpi_ierr_, #call, __FILE__, __LINE__); \
  } while (0)
