// The points of a SparseGridRamificationTopology level (io/sofa_sparse_grid_pieces.hpp), after
// SOFA master's SparseGridRamificationTopology.cpp: the hexahedra of its pieces and changeIndices
// across their joined faces, as a union-find whose class keeps the number SOFA's last rename
// leaves.
#include "sofa_sparse_grid_pieces.hpp"

#include <numeric>

namespace eis::sofa::ramification {

void numberPieces(Level& level, const std::vector<std::array<Point, 8>>& corners) {
  long long count = 0;
  for (std::size_t c = 0; c < level.piecesOf.size(); ++c)
    for (long long p : level.piecesOf[c]) {
      level.pieces[std::size_t(p)].hexahedron = count++;
      level.pieces[std::size_t(p)].cell = (long long)c;
    }
  // Each (hexahedron, corner) slot in a class of equal points; each class holds one number.
  const std::size_t slots = std::size_t(8 * count);
  std::vector<long long> up(slots), size(slots, 1), number(slots), owner(slots);
  std::iota(up.begin(), up.end(), 0);
  std::iota(number.begin(), number.end(), 0);
  std::iota(owner.begin(), owner.end(), 0);
  const auto root = [&](long long s) {
    while (up[std::size_t(s)] != s) s = up[std::size_t(s)] = up[std::size_t(up[std::size_t(s)])];
    return s;
  };
  const auto numberOf = [&](long long s) { return number[std::size_t(root(s))]; };
  const auto change = [&](long long from, long long to) {
    long long a = owner[std::size_t(from)], b = owner[std::size_t(to)];
    if (a == b) return;
    if (size[std::size_t(a)] > size[std::size_t(b)]) std::swap(a, b);
    up[std::size_t(a)] = b;
    size[std::size_t(b)] += size[std::size_t(a)];
    number[std::size_t(b)] = to;
    owner[std::size_t(from)] = -1;
    owner[std::size_t(to)] = b;
  };
  // The faces joined, from the piece's side: its corners and the neighbour's they meet.
  static const int kBefore[4][2] = {{0, 4}, {1, 5}, {2, 6}, {3, 7}};
  static const int kDown[4][2] = {{0, 3}, {4, 7}, {5, 6}, {1, 2}};
  static const int kLeft[4][2] = {{0, 1}, {4, 5}, {7, 6}, {3, 2}};
  for (const auto& cellPieces : level.piecesOf)
    for (long long p : cellPieces) {
      const Piece& piece = level.pieces[std::size_t(p)];
      const long long self = 8 * piece.hexahedron;
      for (const auto& [direction, pairs] :
           {std::pair{Before, kBefore}, std::pair{Down, kDown}, std::pair{Left, kLeft}})
        for (long long q : piece.neighbours[std::size_t(direction)]) {
          const long long other = 8 * level.pieces[std::size_t(q)].hexahedron;
          for (int k = 0; k < 4; ++k)
            change(numberOf(self + pairs[k][0]), numberOf(other + pairs[k][1]));
        }
    }
  std::vector<long long> final(slots, -1);
  std::vector<Point> at(slots);
  for (const auto& cellPieces : level.piecesOf)
    for (long long p : cellPieces) {
      const Piece& piece = level.pieces[std::size_t(p)];
      for (int w = 0; w < 8; ++w) {
        const std::size_t s = std::size_t(numberOf(8 * piece.hexahedron + w));
        final[s] = 0;
        at[s] = corners[std::size_t(piece.cell)][std::size_t(w)];
      }
    }
  level.points.clear();
  for (std::size_t s = 0; s < slots; ++s)
    if (final[s] == 0) {
      final[s] = (long long)level.points.size();
      level.points.push_back(at[s]);
    }
  level.hexahedra.assign(std::size_t(count), {});
  for (long long h = 0; h < count; ++h)
    for (int w = 0; w < 8; ++w)
      level.hexahedra[std::size_t(h)][std::size_t(w)] = final[std::size_t(numberOf(8 * h + w))];
}

}  // namespace eis::sofa::ramification
