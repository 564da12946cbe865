// SOFA's HexahedronCompositeFEMMapping (HexahedronCompositeFEMMapping.inl): its init locates each
// child point in a finest cell and lists each fine node's weights in the coarse cells around it;
// its applyJT carries child forces through them (io/sofa_composite_mapping.hpp).
#include "sofa_composite_mapping.hpp"

#include <array>
#include <functional>
#include <map>
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

// The finest level the mapping reads, numbered as SOFA numbers it, and per hexahedron of it its
// coarse hexahedron and its child number there (SOFA's child order, the first level slowest).
struct FineLevel {
  SparseGrid grid;
  std::vector<std::array<long long, 2>> owner;
};

// On a plain grid: the finest of the virtual levels numbered by voxelisation (boundary cells
// first), the others cube by cube (buildFromFiner); the owner from the cell's position.
FineLevel plainLevel(const SparseGrid& grid, const std::vector<GridLevel>& finer, int levels) {
  const std::size_t j = finer.size() - std::size_t(levels);
  FineLevel out;
  if (j != 0) {
    out.grid = numberedByCubes(finer[j]);
  } else {
    std::vector<long long> kept;
    for (VoxelType wanted : {VoxelType::Boundary, VoxelType::Inside})
      for (std::size_t c = 0; c < finer[0].types.size(); ++c)
        if (finer[0].types[c] == wanted) kept.push_back((long long)c);
    out.grid = numberedCells(finer[0], kept);
  }
  std::map<long long, long long> coarse;
  for (std::size_t h = 0; h < grid.regular.size(); ++h) coarse[grid.regular[h]] = (long long)h;
  const long long fx = out.grid.n[0] - 1, fy = out.grid.n[1] - 1;
  for (long long r : out.grid.regular) {
    const long long at[3] = {r % fx, r / fx % fy, r / fx / fy};
    long long child = 0;
    for (int l = levels - 1; l >= 0; --l)
      child = 8 * child + (at[0] >> l & 1) + 2 * (at[1] >> l & 1) + 4 * (at[2] >> l & 1);
    const auto it =
        coarse.find((at[0] >> levels) +
                    (grid.n[0] - 1) * ((at[1] >> levels) + (grid.n[1] - 1) * (at[2] >> levels)));
    out.owner.push_back({it == coarse.end() ? -1 : it->second, child});
  }
  return out;
}

// On a ramified grid (SparseGridMultipleTopology, SparseGridRamificationTopology): the level
// `levels` finer than the grid's own, in its numbering; the owner down the ramified children
// (computeFinalWeightsRamification, then computeFinalWeights through _hierarchicalCubeMap, the
// same children where no place holds two pieces: ramifiedFinerCoefficients has checked that).
// SOFA keys the finest weights by the level's point numbers and finds a child point's cube
// through _indicesOfRegularCubeInSparseGrid: by position here, so a level with a cell split into
// pieces or two points at one position is refused.
FineLevel ramifiedLevel(const SparseGrid& grid, int levels,
                        const std::function<void(const std::string&)>& refuse) {
  const RamifiedLevel& level = grid.ramified[grid.ramified.size() - 1 - std::size_t(levels)];
  GridLevel geometry;
  for (int a = 0; a < 3; ++a)
    geometry.n[std::size_t(a)] = (grid.n[std::size_t(a)] - 1) * (1 << levels) + 1;
  geometry.min = grid.min;
  geometry.max = grid.max;
  const long long fx = geometry.n[0] - 1, fy = geometry.n[1] - 1, fz = geometry.n[2] - 1;
  geometry.types.assign(std::size_t(fx * fy * fz), VoxelType::Outside);
  geometry.stiffness.assign(geometry.types.size(), 0);
  geometry.mass.assign(geometry.types.size(), 0);
  std::map<long long, long long> pointAt;
  for (std::size_t h = 0; h < level.hexahedra.size(); ++h) {
    const long long r = level.regular[h];
    VoxelType& type = geometry.types[std::size_t(r)];
    if (type != VoxelType::Outside)
      refuse("its finest level splits a cell into pieces of matter: not supported");
    type = level.boundary[h] ? VoxelType::Boundary : VoxelType::Inside;
    const long long at[3] = {r % fx, r / fx % fy, r / fx / fy};
    for (int k = 0; k < 8; ++k) {
      const long long node =
          at[0] + kCorner[k][0] +
          (fx + 1) * (at[1] + kCorner[k][1] + (fy + 1) * (at[2] + kCorner[k][2]));
      const auto [it, added] = pointAt.emplace(node, level.hexahedra[h][std::size_t(k)]);
      if (!added && it->second != level.hexahedra[h][std::size_t(k)])
        refuse("its finest level has cells touching at a point they do not share: not supported");
    }
  }
  FineLevel out;
  out.grid = numberedCells(geometry, level.regular);
  out.owner.assign(level.hexahedra.size(), {-1, 0});
  const std::function<void(std::size_t, long long, long long, long long, int)> down =
      [&](std::size_t l, long long h, long long coarse, long long child, int depth) {
        if (depth == 0) {
          out.owner[std::size_t(h)] = {coarse, child};
          return;
        }
        for (int w = 0; w < 8; ++w)
          for (long long c : grid.ramified[l].children[std::size_t(h)][std::size_t(w)])
            down(l - 1, c, coarse, 8 * child + w, depth - 1);
      };
  const std::size_t top = grid.ramified.size() - 1;
  for (std::size_t h = 0; h < grid.ramified[top].hexahedra.size(); ++h)
    down(top, (long long)h, (long long)h, 0, levels);
  return out;
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
  if (r.gave("material.cell-young-modulus") || r.gave("material.cell-poisson-ratio"))
    refuse("a material given cell by cell is not supported");
  const int levels = std::stoi(r.gaveValue("material.virtual-finer-levels"));
  const std::vector<double> factors =
      parse::reals("material.cell-finer-stiffness-factor",
                   r.gaveValue("material.cell-finer-stiffness-factor"), 0);
  const LameParameters lame = lameParameters(std::stod(r.gaveValue("material.young-modulus")),
                                             std::stod(r.gaveValue("material.poisson-ratio")));
  const FineLevel level =
      grid.ramified.empty() ? plainLevel(grid, finer, levels) : ramifiedLevel(grid, levels, refuse);
  const SparseGrid& fine = level.grid;
  std::map<long long, long long> fineHexahedron;
  for (std::size_t h = 0; h < fine.regular.size(); ++h)
    fineHexahedron[fine.regular[h]] = (long long)h;
  const std::array<long long, 3> fineCells{fine.n[0] - 1, fine.n[1] - 1, fine.n[2] - 1};
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
        const auto [coarse, child] = level.owner[std::size_t(kept->second)];
        if (coarse < 0) continue;
        auto& entry = around.try_emplace(coarse, std::array<long long, 3>{-1, 0, 0}).first->second;
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
