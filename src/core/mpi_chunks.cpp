#include "eis/core/mpi_chunks.hpp"

#include <algorithm>
#include <limits>
#include <string>

#include "eis/core/error.hpp"

namespace eis {

namespace {

int typeSize(MPI_Datatype type) {
  int bytes = 0;
  EIS_CHECK_MPI(MPI_Type_size(type, &bytes));
  return bytes;
}

template <class T>
std::vector<T> gatherInPieces(const std::vector<T>& mine, MPI_Datatype type, int root,
                              MPI_Comm comm, std::int64_t piece) {
  const int rank = commRank(comm), size = commSize(comm);
  const std::int64_t count = std::int64_t(mine.size());
  std::vector<std::int64_t> counts(rank == root ? size : 0);
  EIS_CHECK_MPI(MPI_Gather(&count, 1, MPI_INT64_T, counts.data(), 1, MPI_INT64_T, root, comm));
  // Pieces go one rank after another, so the root's receives match its senders in order.
  if (rank != root) {
    for (std::int64_t sent = 0; sent < count; sent += piece)
      EIS_CHECK_MPI(
          MPI_Send(mine.data() + sent, int(std::min(piece, count - sent)), type, root, 0, comm));
    return {};
  }
  std::int64_t total = 0;
  for (std::int64_t c : counts) total += c;
  std::vector<T> all(total);
  std::int64_t at = 0;
  for (int r = 0; r < size; ++r) {
    if (r == root) {
      std::copy(mine.begin(), mine.end(), all.begin() + at);
    } else {
      for (std::int64_t got = 0; got < counts[r]; got += piece)
        EIS_CHECK_MPI(MPI_Recv(all.data() + at + got, int(std::min(piece, counts[r] - got)), type,
                               r, 0, comm, MPI_STATUS_IGNORE));
    }
    at += counts[r];
  }
  return all;
}

}  // namespace

void broadcastInPieces(void* data, std::int64_t count, MPI_Datatype type, int root, MPI_Comm comm,
                       std::int64_t piece) {
  const std::int64_t bytes = typeSize(type);
  for (std::int64_t sent = 0; sent < count; sent += piece)
    EIS_CHECK_MPI(MPI_Bcast(static_cast<char*>(data) + sent * bytes,
                            int(std::min(piece, count - sent)), type, root, comm));
}

std::vector<double> gatherDoubles(const std::vector<double>& mine, int root, MPI_Comm comm,
                                  std::int64_t piece) {
  return gatherInPieces(mine, MPI_DOUBLE, root, comm, piece);
}

std::vector<std::int64_t> gatherInt64s(const std::vector<std::int64_t>& mine, int root,
                                       MPI_Comm comm, std::int64_t piece) {
  return gatherInPieces(mine, MPI_INT64_T, root, comm, piece);
}

std::vector<int> chunkOffsets(std::int64_t count, MPI_Comm comm) {
  const int size = commSize(comm);
  std::vector<std::int64_t> counts(static_cast<std::size_t>(size));
  EIS_CHECK_MPI(MPI_Allgather(&count, 1, MPI_INT64_T, counts.data(), 1, MPI_INT64_T, comm));
  std::vector<int> offsets(static_cast<std::size_t>(size) + 1, 0);
  std::int64_t total = 0;
  for (int r = 0; r < size; ++r) {
    total += counts[std::size_t(r)];
    if (total > std::numeric_limits<int>::max())
      throw Error("an all-gather of " + std::to_string(total) +
                  " elements or more: past the 2^31 - 1 one MPI message counts");
    offsets[std::size_t(r) + 1] = int(total);
  }
  return offsets;
}

void allGatherChunksInto(const void* mine, MPI_Datatype type, void* all,
                         const std::vector<int>& offsets, MPI_Comm comm) {
  const int size = commSize(comm), rank = commRank(comm);
  std::vector<int> counts(static_cast<std::size_t>(size));
  for (int r = 0; r < size; ++r)
    counts[std::size_t(r)] = offsets[std::size_t(r) + 1] - offsets[std::size_t(r)];
  EIS_CHECK_MPI(MPI_Allgatherv(mine, counts[std::size_t(rank)], type, all, counts.data(),
                               offsets.data(), type, comm));
}

}  // namespace eis
