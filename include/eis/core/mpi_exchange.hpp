#pragma once
// An all-to-all of fixed-width rows of PetscInt: each rank sends any number of rows to any ranks
// and gets back the rows every rank sent it (in rank order of the senders). Used where a rank
// learns what others hold: the matrix rows a ghost vertex adds (linalg/element_matrix_assembler)
// and the faces and edges of the parallel dual graph (mesh/parallel_partition).
#include <mpi.h>
#include <petscsystypes.h>

#include <array>
#include <cstddef>
#include <vector>

#include "eis/core/error.hpp"

namespace eis {

template <std::size_t N>
using IndexRow = std::array<PetscInt, N>;

// Collective. The rows that `produce(emit)` emits, emit(rank, row), each sent to its rank.
// `produce` runs twice, to count and then to fill, so that only one copy of the outgoing rows is
// ever held (at 1e6 unknowns the dual graph's faces are the set-up's peak).
template <std::size_t N, class Produce>
std::vector<IndexRow<N>> exchangeRows(MPI_Comm comm, Produce produce) {
  const int size = commSize(comm);
  std::vector<int> sendCounts(size, 0), recvCounts(size), sendOffsets(size + 1, 0),
      recvOffsets(size + 1, 0);
  produce([&](int rank, const IndexRow<N>&) { ++sendCounts[rank]; });
  EIS_CHECK_MPI(MPI_Alltoall(sendCounts.data(), 1, MPI_INT, recvCounts.data(), 1, MPI_INT, comm));
  for (int r = 0; r < size; ++r) {
    sendOffsets[r + 1] = sendOffsets[r] + sendCounts[r];
    recvOffsets[r + 1] = recvOffsets[r] + recvCounts[r];
  }
  std::vector<IndexRow<N>> sent(static_cast<std::size_t>(sendOffsets[size]));
  std::vector<int> fill(sendOffsets.begin(), sendOffsets.end() - 1);
  produce([&](int rank, const IndexRow<N>& row) { sent[std::size_t(fill[rank]++)] = row; });
  std::vector<IndexRow<N>> received(static_cast<std::size_t>(recvOffsets[size]));
  MPI_Datatype type;
  EIS_CHECK_MPI(MPI_Type_contiguous(int(N), MPIU_INT, &type));
  EIS_CHECK_MPI(MPI_Type_commit(&type));
  EIS_CHECK_MPI(MPI_Alltoallv(sent.data(), sendCounts.data(), sendOffsets.data(), type,
                              received.data(), recvCounts.data(), recvOffsets.data(), type, comm));
  EIS_CHECK_MPI(MPI_Type_free(&type));
  return received;
}

}  // namespace eis
