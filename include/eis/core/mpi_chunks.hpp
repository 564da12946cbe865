#pragma once
// MPI counts are int: an array of more than 2^31 - 1 elements (the final state of 358 million
// nodes, six values each) goes as several messages. These move `count` elements (64-bit) of
// `type` as pieces of at most `piece` elements; every MPI call is checked.
#include <mpi.h>

#include <cstdint>
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

}  // namespace eis
