// SOFA's SparseGridMultipleTopology (io/sofa_sparse_grid_ramification.hpp), after SOFA master's
// SparseGridMultipleTopology.cpp: buildAsFinest, assembleRegularGrids, buildVirtualFinerLevels.
#include <algorithm>

#include "eis/core/error.hpp"
#include "sofa_sparse_grid_ramification.hpp"

namespace eis::sofa {

GridLevel assembledLevel(const std::vector<Surface>& surfaces, const std::vector<float>& stiffness,
                         const std::vector<float>& mass, const SparseGridSettings& settings,
                         bool erasePrevious) {
  SparseGridSettings each;
  each.n = settings.n;
  each.min = settings.min;
  each.max = settings.max;
  if (each.min == std::array<double, 3>{0, 0, 0} && each.max == std::array<double, 3>{0, 0, 0}) {
    each.min = each.max = surfaces.front().vertices.front();
    for (const Surface& s : surfaces)
      for (const auto& v : s.vertices)
        for (int a = 0; a < 3; ++a)
          each.min[a] = std::min(each.min[a], v[a]), each.max[a] = std::max(each.max[a], v[a]);
    for (int a = 0; a < 3; ++a) {
      const double widen = (each.max[a] - each.min[a]) / 100.0;
      each.min[a] -= widen;
      each.max[a] += widen;
    }
  }
  GridLevel out;
  std::vector<float> coefficient, massCoefficient;
  for (std::size_t i = 0; i < surfaces.size(); ++i) {
    GridLevel level;
    try {
      level = finestLevel(surfaces[i], each);
    } catch (const Error& e) {
      throw Error("surface " + std::to_string(i + 1) + ": " + e.what());
    }
    if (i == 0) {
      out = level;
      out.types.assign(level.types.size(), VoxelType::Outside);
      coefficient.assign(level.types.size(), 0.0f);
      massCoefficient.assign(level.types.size(), 0.0f);
    }
    for (std::size_t c = 0; c < level.types.size(); ++c) {
      const VoxelType t = level.types[c];
      if (t == VoxelType::Inside || (t == VoxelType::Boundary && !settings.fillWeighted)) {
        out.types[c] = VoxelType::Inside;
        coefficient[c] = stiffness[i];
        massCoefficient[c] = mass[i];
      } else if (t == VoxelType::Boundary) {
        if (out.types[c] != VoxelType::Inside) out.types[c] = VoxelType::Boundary;
        coefficient[c] = erasePrevious ? stiffness[i] : (coefficient[c] + stiffness[i]) * .5f;
        massCoefficient[c] = erasePrevious ? mass[i] : (massCoefficient[c] + mass[i]) * .5f;
      }
    }
  }
  for (std::size_t c = 0; c < coefficient.size(); ++c) {
    const bool kept = out.types[c] != VoxelType::Outside;
    out.stiffness[c] = kept ? double(coefficient[c]) : 0.0;
    out.mass[c] = kept ? double(massCoefficient[c]) : 0.0;
  }
  return out;
}

SparseGrid multipleGrid(const Reader& reader, const SofaObject& grid, const Surface* surface,
                        const std::vector<std::string>& paths, const SparseGridSettings& settings,
                        int levels) {
  if (paths.empty()) reader.reject(grid, "fileTopologies", "no surface listed");
  if (settings.cellWidth != 0)
    reader.reject(grid, "cellWidth", "SparseGridMultipleTopology sizes its grid by n only");
  if (settings.onlyInsideCells)
    reader.reject(grid, "onlyInsideCells", "not supported on SparseGridMultipleTopology");
  // buildAsFinest pads the coefficients missing with 1 (and warns); those beyond the surfaces
  // are never read.
  std::vector<float> stiffness, mass;
  for (double c : reader.reals(grid, "stiffnessCoefs")) stiffness.push_back(float(c));
  for (double c : reader.reals(grid, "massCoefs")) mass.push_back(float(c));
  stiffness.resize(std::max(stiffness.size(), paths.size()), 1.0f);
  mass.resize(std::max(mass.size(), paths.size()), 1.0f);
  const bool ramifications = reader.boolean(grid, "computeRamifications", true);
  const bool erase = reader.boolean(grid, "erasePreviousCoef", false);
  const bool connectivity = reader.boolean(grid, "finestConnectivity", true);
  if (!ramifications && levels > 0)
    reader.reject(grid, "computeRamifications",
                  "false with nbVirtualFinerLevels: SOFA coarsens ramified virtual levels as "
                  "unramified ones, which is not supported");
  // findConnexionsAtFinestLevel tests the edges of fileTopology's surface; without one SOFA joins
  // no cell to any other.
  if (ramifications && connectivity && !surface)
    reader.reject(grid, "finestConnectivity",
                  "true without fileTopology (the surface whose edges it tests) is not supported");
  std::vector<Surface> surfaces;
  for (const std::string& path : paths) {
    const std::size_t dot = path.rfind('.');
    if (dot == std::string::npos || (path.substr(dot) != ".obj" && path.substr(dot) != ".OBJ"))
      reader.reject(grid, "fileTopologies", path + ": only .obj surfaces are read");
    try {
      surfaces.push_back(readObj(path));
      if (surfaces.back().vertices.empty()) throw Error("the surface has no vertices");
    } catch (const Error& e) {
      reader.reject(grid, "fileTopologies", e.what());
    }
  }
  try {
    const Voxelise voxelise = [&](const SparseGridSettings& s) {
      return assembledLevel(surfaces, stiffness, mass, s, erase);
    };
    return ramifiedGrid(voxelise, surface ? *surface : Surface{}, settings, levels,
                        ramifications && connectivity);
  } catch (const Error& e) {
    reader.reject(grid, "fileTopologies", e.what());
  }
}

}  // namespace eis::sofa
