#include "eis/core/error.hpp"

#include <cstdio>
#include <vector>

namespace eis {

namespace {

// What PETSc said where the last error arose; PETSc's handlers run on one thread.
std::string lastPetscMessage;

PetscErrorCode keepPetscMessage(MPI_Comm, int, const char*, const char*, PetscErrorCode code,
                                PetscErrorType type, const char* message, void*) {
  if (type == PETSC_ERROR_INITIAL) lastPetscMessage = message ? message : "";
  return code;
}

}  // namespace

PetscErrorCapture::PetscErrorCapture() {
  PetscPushErrorHandler(keepPetscMessage, nullptr);
}

PetscErrorCapture::~PetscErrorCapture() {
  PetscPopErrorHandler();
}

void throwPetscError(PetscErrorCode code, const char* call, const char* file, int line) {
  const char* text = nullptr;
  PetscErrorMessage(code, &text, nullptr);
  // PETSc's text for the code (none for some codes), then the message of where it arose.
  std::string what = text ? text : "";
  if (!lastPetscMessage.empty()) what += (what.empty() ? "" : ": ") + lastPetscMessage;
  if (what.empty()) what = "error " + std::to_string(code);
  lastPetscMessage.clear();
  what = "PETSc: " + what;
  throw Error(what + " in " + call + " (" + file + ":" + std::to_string(line) + ")");
}

void throwMpiError(int code, const char* call, const char* file, int line) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS) length = 0;
  throw Error("MPI: " + (length ? std::string(text, length) : "error " + std::to_string(code)) +
              " in " + call + " (" + file + ":" + std::to_string(line) + ")");
}

std::string printable(const std::string& text, std::size_t limit) {
  std::string shown;
  for (std::size_t i = 0; i < text.size() && i < limit; ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '\n') {
      shown += "\\n";
    } else if (c == '\t') {
      shown += "\\t";
    } else if (c < 0x20 || c == 0x7f) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", c);
      shown += escaped;
    } else {
      shown += char(c);
    }
  }
  if (text.size() > limit) shown += "... (" + std::to_string(text.size()) + " bytes in all)";
  return shown;
}

int commRank(MPI_Comm comm) {
  int rank = 0;
  EIS_CHECK_MPI(MPI_Comm_rank(comm, &rank));
  return rank;
}

int commSize(MPI_Comm comm) {
  int size = 1;
  EIS_CHECK_MPI(MPI_Comm_size(comm, &size));
  return size;
}

bool anyRank(bool localFailure, MPI_Comm comm) {
  int local = localFailure ? 1 : 0, global = 0;
  EIS_CHECK_MPI(MPI_Allreduce(&local, &global, 1, MPI_INT, MPI_MAX, comm));
  return global != 0;
}

void throwIfAnyRankFailed(const std::string& message, MPI_Comm comm) {
  int rank = 0, size = 1;
  EIS_CHECK_MPI(MPI_Comm_rank(comm, &rank));
  EIS_CHECK_MPI(MPI_Comm_size(comm, &size));
  // The lowest failing rank owns the message; everyone learns its length, then its text.
  int mine = message.empty() ? size : rank, first = size;
  EIS_CHECK_MPI(MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm));
  if (first == size) return;
  int length = rank == first ? static_cast<int>(message.size()) : 0;
  EIS_CHECK_MPI(MPI_Bcast(&length, 1, MPI_INT, first, comm));
  std::vector<char> text(message.begin(), message.end());
  text.resize(length);
  EIS_CHECK_MPI(MPI_Bcast(text.data(), length, MPI_CHAR, first, comm));
  throw Error(std::string(text.begin(), text.end()));
}

}  // namespace eis
