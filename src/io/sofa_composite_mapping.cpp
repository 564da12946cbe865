// SOFA's HexahedronCompositeFEMMapping (HexahedronCompositeFEMMapping.inl): its init locates each
// child point in a finest cell and lists each fine node's weights in the coarse cells around it;
// its applyJT carries child forces through them (io/sofa_composite_mapping.hpp).
#include "sofa_composite_mapping.hpp"

#include <array>
#include <string>

#include "eis/core/error.hpp"
#include "eis/core/parameters.hpp"
#include "eis/model/composite_hexahedron.hpp"
#include "eis/model/isotropic_elasticity.hpp"
#include "sofa_grid_mapper.hpp"

namespace eis::sofa {

namespace {

// SOFA's hexahedron corner order: the corner offsets along x, y, z.
constexpr int kCorner[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0},
                               {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};

// The first HexahedronCompositeFEMForceFieldAndMass at or above `node` (SOFA's context search).
const SofaObject* compositeField(const SofaNode* node) {
  for (; node; node = node->parent)
    for (const SofaObject& o : node->objects)
      if (o.type == "HexahedronCompositeFEMForceFieldAndMass") return &o;
  return nullptr;
}

// The level `grid`'s finest cells live on, numbered as SOFA numbers it: the finest of the virtual
// levels by voxelisation (boundary cells first), the others cube by cube (buildFromFiner).
SparseGrid levelGrid(const std::vector<GridLevel>& finer, std::size_t j) {
  if (j != 0) return numberedByCubes(finer[j]);
  std::vector<long long> kept;
  for (VoxelType wanted : {VoxelType::Boundary, VoxelType::Inside})
    for (std::size_t c = 0; c < finer[0].types.size(); ++c)
      if (finer[0].types[c] == wanted) kept.push_back((long long)c);
  return numberedCells(finer[0], kept);
}

}  // namespace

std::string compositeMappingLoads(const Reader& r, const SofaObject& mapping,
                                  const SparseGrid& grid, const std::vector<GridLevel>& finer,
                                  const std::vector<double>& points,
                                  const std::map<long long, Vec3>& forces) {
  const auto refuse = [&](const std::string& why) {
    throw Error(mapping.where + ": HexahedronCompositeFEMMapping: " + why);
  };
  const SofaObject* field = compositeField(mapping.node->parent);
  if (!field || r.gaveValue("material.finer-homogenisation") != "static")
    refuse(
        "its input's node has no HexahedronCompositeFEMForceFieldAndMass with virtual finer "
        "levels, whose finest weights it reads");
  if (r.boolean(*field, "completeInterpolation", false))
    refuse(field->label() +
           ": completeInterpolation true (weights before the mask) is not "
           "supported for a mapped child's forces");
  if (grid.finest || !grid.ramified.empty())
    refuse(
        "on a ramified grid (SparseGridRamificationTopology, SparseGridMultipleTopology), "
        "carrying a mapped child's forces is not supported");
  if (r.gave("material.cell-young-modulus") || r.gave("material.cell-poisson-ratio"))
    refuse("a material given cell by cell is not supported");
  const int levels = std::stoi(r.gaveValue("material.virtual-finer-levels"));
  const std::vector<double> factors =
      parse::reals("material.cell-finer-stiffness-factor",
                   r.gaveValue("material.cell-finer-stiffness-factor"), 0);
  const LameParameters lame = lameParameters(std::stod(r.gaveValue("material.young-modulus")),
                                             std::stod(r.gaveValue("material.poisson-ratio")));
  const SparseGrid fine = levelGrid(finer, finer.size() - std::size_t(levels));
  std::map<long long, long long> fineHexahedron, coarseHexahedron;
  for (std::size_t h = 0; h < fine.regular.size(); ++h)
    fineHexahedron[fine.regular[h]] = (long long)h;
  for (std::size_t h = 0; h < grid.regular.size(); ++h)
    coarseHexahedron[grid.regular[h]] = (long long)h;
  const std::array<long long, 3> fineCells{fine.n[0] - 1, fine.n[1] - 1, fine.n[2] - 1},
      coarseCells{grid.n[0] - 1, grid.n[1] - 1, grid.n[2] - 1};
  // Each coarse cell's finest weights, computed when a load first reaches it.
  std::map<long long, std::vector<ElementMatrix>> weights;
  const auto weightsOf = [&](long long e) -> const std::vector<ElementMatrix>& {
    auto it = weights.find(e);
    if (it != weights.end()) return it->second;
    std::array<Vec3, 8> shape;
    for (int a = 0; a < 8; ++a)
      shape[std::size_t(a)] =
          grid.points[std::size_t(grid.hexahedra[std::size_t(e)][std::size_t(a)])];
    const CompositeHexahedron cell = compositeHexahedron(
        shape, lame, 0, levels, factors.data() + (std::size_t(e) << (3 * levels)),
        CompositeWeights::Masked);
    return weights.emplace(e, cell.finestWeights).first->second;
  };
  const Texts cubes = parse::tokens(sparseGridCubes(fine, points));
  std::map<long long, std::array<double, 24 * 9>> loads;
  for (const auto& [point, force] : forces) {
    if (point < 0 || std::size_t(point) >= points.size() / 3)
      refuse("a force on child point " + std::to_string(point) + " of " +
             std::to_string(points.size() / 3));
    const std::size_t at = 4 * std::size_t(point);
    const long long cell = fine.regular[std::size_t(std::stoll(cubes[at]))];
    const double f[3] = {std::stod(cubes[at + 1]), std::stod(cubes[at + 2]),
                         std::stod(cubes[at + 3])};
    const long long origin[3] = {cell % fineCells[0], cell / fineCells[0] % fineCells[1],
                                 cell / fineCells[0] / fineCells[1]};
    for (int w = 0; w < 8; ++w) {
      // init's baryCoefs of corner w.
      double bary = 1;
      for (int a = 0; a < 3; ++a) bary *= kCorner[w][a] ? f[a] : 1 - f[a];
      const long long node[3] = {origin[0] + kCorner[w][0], origin[1] + kCorner[w][1],
                                 origin[2] + kCorner[w][2]};
      // The node's kept finest cells: per coarse cell, the last in the level's order (its weights
      // overwrite the others' in init), its child number there and the node's corner in it.
      std::map<long long, std::array<long long, 3>> around;
      for (int c = 0; c < 8; ++c) {
        long long at3[3];
        bool inside = true;
        for (int a = 0; a < 3; ++a) {
          at3[a] = node[a] - kCorner[c][a];
          inside = inside && at3[a] >= 0 && at3[a] < fineCells[std::size_t(a)];
        }
        if (!inside) continue;
        const auto kept =
            fineHexahedron.find(at3[0] + fineCells[0] * (at3[1] + fineCells[1] * at3[2]));
        if (kept == fineHexahedron.end()) continue;
        long long child = 0, up[3];
        for (int a = 0; a < 3; ++a) up[a] = at3[a] >> levels;
        for (int l = levels - 1; l >= 0; --l)
          child = 8 * child + (at3[0] >> l & 1) + 2 * (at3[1] >> l & 1) + 4 * (at3[2] >> l & 1);
        const auto coarse =
            coarseHexahedron.find(up[0] + coarseCells[0] * (up[1] + coarseCells[1] * up[2]));
        if (coarse == coarseHexahedron.end()) continue;
        auto& entry =
            around.try_emplace(coarse->second, std::array<long long, 3>{-1, 0, 0}).first->second;
        if (kept->second > entry[0]) entry = {kept->second, child, c};
      }
      const double share = bary / double(around.size());
      for (const auto& [e, entry] : around) {
        const ElementMatrix& W = weightsOf(e)[std::size_t(entry[1])];
        auto& a = loads.try_emplace(e, std::array<double, 24 * 9>{}).first->second;
        for (int q = 0; q < 24; ++q)
          for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j)
              a[std::size_t(9 * q + 3 * i + j)] +=
                  W[std::size_t((3 * entry[2] + i) * 24 + q)] * force[std::size_t(j)] * share;
      }
    }
  }
  std::string text;
  for (const auto& [e, a] : loads) {
    text += (text.empty() ? "" : " ") + std::to_string(e);
    for (double v : a) text += " " + parse::text(v);
  }
  return text;
}

}  // namespace eis::sofa
