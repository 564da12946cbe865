#include "eis/io/vtk_ghost_cells.hpp"

#include "eis/core/error.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <numeric>
#include <unordered_map>
#include <utility>

namespace eis {
namespace {

// A face by the node ids of its corners, sorted (a triangle's fourth is -1): the same key on
// every rank. The "faces" of a surface cell are its edges, of an edge its two ends.
using FaceKey = std::array<std::int64_t, 4>;

struct PieceFace {
  FaceKey key;
  std::int64_t cell;
};

// The faces used by one cell of the piece only: the outer surface and the partition seams.
std::vector<PieceFace> singleFaces(const VtkPiece& piece) {
  const std::size_t n = std::size_t(piece.corners()), cells = piece.tets.size() / n;
  const std::size_t perCell = std::size_t(facesOf(piece.type).count);
  const auto& slots = facesOf(piece.type).slots;
  std::vector<PieceFace> faces;
  faces.reserve(perCell * cells);
  for (std::size_t c = 0; c < cells; ++c)
    for (std::size_t f = 0; f < perCell; ++f) {
      FaceKey key;
      const int count = faceSize(piece.type, int(f));
      for (int k = 0; k < 4; ++k)
        key[k] = k < count ? piece.nodeIds[piece.tets[n * c + slots[f][k]]] : -1;
      std::sort(key.begin(), key.begin() + count);
      faces.push_back({key, std::int64_t(c)});
    }
  std::sort(faces.begin(), faces.end(),
            [](const PieceFace& a, const PieceFace& b) { return a.key < b.key; });
  std::vector<PieceFace> single;
  for (std::size_t i = 0; i < faces.size();) {
    std::size_t j = i + 1;
    while (j < faces.size() && faces[j].key == faces[i].key) ++j;
    if (j == i + 1) single.push_back(faces[i]);
    i = j;
  }
  return single;
}

// The rank that pairs up the pieces sending this face.
int rendezvousRank(const FaceKey& key, int size) {
  std::uint64_t hash = 0;
  for (std::int64_t id : key) {
    hash ^= std::uint64_t(id) + 0x9E3779B97F4A7C15ULL + (hash << 6) + (hash >> 2);
    hash *= 0xBF58476D1CE4E5B9ULL;
  }
  return int(hash % std::uint64_t(size));
}

std::vector<int> displacements(const std::vector<int>& counts) {
  std::vector<int> first(counts.size(), 0);
  std::partial_sum(counts.begin(), counts.end() - 1, first.begin() + 1);
  return first;
}

// Sends `perRank[r]` to rank r (`width` values per item) and returns what every rank sent here,
// ordered by sender, with the number of items from each in `received`.
template <class T>
std::vector<T> exchange(MPI_Comm comm, MPI_Datatype type, int width,
                        const std::vector<std::vector<T>>& perRank, std::vector<int>& received) {
  const int size = int(perRank.size());
  std::vector<int> sendCounts(size), receiveCounts(size);
  std::vector<T> sendBuffer;
  for (int r = 0; r < size; ++r) {
    sendCounts[r] = int(perRank[r].size());
    sendBuffer.insert(sendBuffer.end(), perRank[r].begin(), perRank[r].end());
  }
  EIS_CHECK_MPI(
      MPI_Alltoall(sendCounts.data(), 1, MPI_INT, receiveCounts.data(), 1, MPI_INT, comm));
  std::vector<T> receiveBuffer(std::accumulate(receiveCounts.begin(), receiveCounts.end(), 0));
  EIS_CHECK_MPI(MPI_Alltoallv(
      sendBuffer.data(), sendCounts.data(), displacements(sendCounts).data(), type,
      receiveBuffer.data(), receiveCounts.data(), displacements(receiveCounts).data(), type, comm));
  received.resize(size);
  for (int r = 0; r < size; ++r) received[r] = receiveCounts[r] / width;
  return receiveBuffer;
}

// For each single face of this piece, the rank whose piece holds the cell on its other side, or
// -1 on the outer surface.
std::vector<int> facePartners(MPI_Comm comm, int size, const std::vector<PieceFace>& faces) {
  std::vector<std::vector<std::int64_t>> keys(size);
  std::vector<std::vector<std::size_t>> sent(size);  // which face each key sent is
  for (std::size_t f = 0; f < faces.size(); ++f) {
    const int to = rendezvousRank(faces[f].key, size);
    keys[to].insert(keys[to].end(), faces[f].key.begin(), faces[f].key.end());
    sent[to].push_back(f);
  }
  std::vector<int> fromEach;
  constexpr int width = std::tuple_size<FaceKey>::value;
  const std::vector<std::int64_t> received = exchange(comm, MPI_INT64_T, width, keys, fromEach);

  // At the rendezvous: a face that came from two pieces is a seam; each learns the other.
  std::vector<int> source;
  for (int r = 0; r < size; ++r) source.insert(source.end(), fromEach[r], r);
  std::vector<std::size_t> order(source.size());
  std::iota(order.begin(), order.end(), 0);
  const auto keyOf = [&](std::size_t i) {
    FaceKey key;
    std::copy_n(received.begin() + std::ptrdiff_t(width * i), width, key.begin());
    return key;
  };
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return keyOf(a) < keyOf(b); });
  std::vector<int> partner(source.size(), -1);
  for (std::size_t i = 0; i + 1 < order.size(); ++i)
    if (keyOf(order[i]) == keyOf(order[i + 1])) {
      partner[order[i]] = source[order[i + 1]];
      partner[order[i + 1]] = source[order[i]];
    }
  std::vector<std::vector<int>> replies(size);
  for (std::size_t i = 0, r = 0; r < std::size_t(size); ++r)
    for (int k = 0; k < fromEach[r]; ++k, ++i) replies[r].push_back(partner[i]);
  std::vector<int> repliesFromEach;
  const std::vector<int> answers = exchange(comm, MPI_INT, 1, replies, repliesFromEach);

  std::vector<int> partners(faces.size(), -1);
  for (std::size_t i = 0, r = 0; r < std::size_t(size); ++r)
    for (std::size_t face : sent[r]) partners[face] = answers[i++];
  return partners;
}

int totalComponents(const std::vector<VtkField>& fields) {
  int total = 0;
  for (const VtkField& field : fields) total += field.components;
  return total;
}

// Appends the `components` values of item `index` of every field to `out`.
void appendValues(std::vector<double>& out, const std::vector<VtkField>& fields,
                  std::size_t index) {
  for (const VtkField& field : fields) {
    const auto first = field.values.begin() + std::ptrdiff_t(index * field.components);
    out.insert(out.end(), first, first + field.components);
  }
}

// Reads one item of every field from `in` (advancing it) and appends it to the fields.
void takeValues(const double*& in, std::vector<VtkField>& fields) {
  for (VtkField& field : fields) {
    field.values.insert(field.values.end(), in, in + field.components);
    in += field.components;
  }
}

}  // namespace

std::vector<std::int32_t> appendGhostCells(MPI_Comm comm, VtkPiece& piece,
                                           std::vector<VtkField>& pointData,
                                           std::vector<VtkField>& cellData) {
  int rank = 0, size = 1;
  EIS_CHECK_MPI(MPI_Comm_rank(comm, &rank));
  EIS_CHECK_MPI(MPI_Comm_size(comm, &size));
  const int n = piece.corners();
  std::vector<std::int32_t> cellRanks(piece.tets.size() / std::size_t(n), rank);
  if (size == 1) return cellRanks;

  const std::vector<PieceFace> faces = singleFaces(piece);
  const std::vector<int> partners = facePartners(comm, size, faces);
  std::vector<std::pair<int, std::int64_t>> toSend;  // (rank, cell), each once
  for (std::size_t f = 0; f < faces.size(); ++f)
    if (partners[f] >= 0) toSend.emplace_back(partners[f], faces[f].cell);
  std::sort(toSend.begin(), toSend.end());
  toSend.erase(std::unique(toSend.begin(), toSend.end()), toSend.end());

  // Each ghost cell travels as its n node ids, and n coordinates, n vertices' point values and
  // its cell values.
  const int pointWidth = 3 + totalComponents(pointData);
  const int width = n * pointWidth + totalComponents(cellData);
  std::vector<std::vector<std::int64_t>> ids(size);
  std::vector<std::vector<double>> values(size);
  for (const auto& [to, cell] : toSend)
    for (int k = 0; k < n; ++k) {
      const auto vertex = std::size_t(piece.tets[std::size_t(n) * cell + k]);
      ids[to].push_back(piece.nodeIds[vertex]);
      values[to].insert(values[to].end(), piece.points.begin() + std::ptrdiff_t(3 * vertex),
                        piece.points.begin() + std::ptrdiff_t(3 * vertex + 3));
      appendValues(values[to], pointData, vertex);
      if (k == n - 1) appendValues(values[to], cellData, std::size_t(cell));
    }
  std::vector<int> cellsFrom, sameCounts;
  const std::vector<std::int64_t> ghostIds = exchange(comm, MPI_INT64_T, n, ids, cellsFrom);
  const std::vector<double> ghostValues = exchange(comm, MPI_DOUBLE, width, values, sameCounts);

  std::unordered_map<std::int64_t, std::int64_t> localOf;
  for (std::size_t p = 0; p < piece.nodeIds.size(); ++p) localOf.emplace(piece.nodeIds[p], p);
  const std::int64_t* id = ghostIds.data();
  const double* in = ghostValues.data();
  for (int from = 0; from < size; ++from)
    for (int c = 0; c < cellsFrom[from]; ++c) {
      for (int k = 0; k < n; ++k, ++id) {
        const auto [at, added] = localOf.emplace(*id, std::int64_t(piece.nodeIds.size()));
        piece.tets.push_back(at->second);
        if (added) {
          piece.nodeIds.push_back(*id);
          piece.owned.push_back(0);
          piece.points.insert(piece.points.end(), in, in + 3);
          const double* values = in + 3;
          takeValues(values, pointData);
        }
        in += pointWidth;
      }
      takeValues(in, cellData);
      cellRanks.push_back(from);
    }
  return cellRanks;
}

}  // namespace eis
