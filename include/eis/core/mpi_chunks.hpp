#pragma once
// MPI counts are int: an array of more than 2^31 - 1 elements (the final state of 358 million
// nodes, six values each) goes as several messages. These move `count` elements (64-bit) of
// `type` as pieces of at most `piece` elements; every MPI call is checked. The all-gather of
// every rank's chunk of any length (allGatherChunks) goes as one message and refuses a total
// past what an int counts.
#include <mpi.h>

#include <cstdint>
#include <utility>
#include <vector>

namespace eis {

constexpr std::int64_t kMpiPiece = std::int64_t(1) << 30;

// Collective: `data` (count elements of `type`) from `root` to every rank.
void broadcastInPieces(void* data, std::int64_t count, MPI_Datatype type, int root, MPI_Comm comm,
                       std::int64_t piece = kMpiPiece);

// Collective: every rank's `mine` (any length), concatenated in rank order on `root` (empty
// elsewhere).
std::vector<double> gatherDoubles(const std::vector<double>& mine, int root, MPI_Comm comm,
                                  std::int64_t piece = kMpiPiece);
std::vector<std::int64_t> gatherInt64s(const std::vector<std::int64_t>& mine, int root,
                                       MPI_Comm comm, std::int64_t piece = kMpiPiece);

// Collective: where each rank's chunk of `count` elements starts once all are laid end to end in
// rank order: size + 1 offsets, rank r's chunk [offsets[r], offsets[r + 1]). Throws eis::Error on
// every rank when the total passes what an MPI count (int) holds.
std::vector<int> chunkOffsets(std::int64_t count, MPI_Comm comm);

// Collective: every rank's chunk (`mine`, offsets[rank + 1] - offsets[rank] elements of `type`)
// into `all` (offsets.back() elements) on every rank, at the places of `offsets`.
void allGatherChunksInto(const void* mine, MPI_Datatype type, void* all,
                         const std::vector<int>& offsets, MPI_Comm comm);

// Collective: every rank's `mine` (any length), concatenated in rank order on every rank;
// `offsets`, when given, gets chunkOffsets' answer.
template <class T>
std::vector<T> allGatherChunks(const std::vector<T>& mine, MPI_Datatype type, MPI_Comm comm,
                               std::vector<int>* offsets = nullptr) {
  std::vector<int> starts = chunkOffsets(std::int64_t(mine.size()), comm);
  std::vector<T> all(static_cast<std::size_t>(starts.back()));
  allGatherChunksInto(mine.data(), type, all.data(), starts, comm);
  if (offsets) *offsets = std::move(starts);
  return all;
}

}  // namespace eis
