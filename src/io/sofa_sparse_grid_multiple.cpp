// SOFA's SparseGridMultipleTopology (io/sofa_sparse_grid_ramification.hpp), after SOFA master's
// SparseGridMultipleTopology.cpp: buildAsFinest, assembleRegularGrids, buildVirtualFinerLevels.
#include "eis/core/error.hpp"
#include "sofa_sparse_grid_ramification.hpp"

namespace eis::sofa {

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
