#pragma once
// Each local cell's elastic material, from the elastic-fem keys: material.young-modulus and
// material.poisson-ratio (or material.lame) for every cell, replaced per input tetrahedron by
// material.cell-young-modulus / material.cell-poisson-ratio (SOFA's per-element youngModulus and
// poissonRatio lists) or per physical group by material.region. A refined cell has the material
// of the input cell it comes from.
#include <cstdint>
#include <string>
#include <vector>

#include "eis/core/parameters.hpp"
#include "eis/mesh/distributed_mesh.hpp"
#include "eis/model/isotropic_elasticity.hpp"

namespace eis {

// One material.region value: "GROUP E NU".
struct RegionMaterial {
  std::string group;
  double youngModulus, poissonRatio;
};
RegionMaterial parseRegionMaterial(const std::string& key, const std::string& text);

// SOFA's getVecRealInElement: element i takes list[i] when the list is longer than i, else
// list[0] (the list is not empty).
double valueInElement(const std::vector<double>& list, std::int64_t element);

// Collective. The Lame parameters of every local cell; a list whose length is not the input's
// tetrahedron count adds a warning (SOFA's rule still applies). Throws eis::Error, on every
// rank, for a region whose group has no tetrahedra or a group listed twice.
std::vector<LameParameters> cellMaterials(const DistributedMesh& mesh, const Parameters& scene,
                                          std::vector<std::string>& warnings);

}  // namespace eis
