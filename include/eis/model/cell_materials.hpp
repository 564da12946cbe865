#pragma once
// Each local cell's elastic material, from the elastic-fem keys: material.young-modulus and
// material.poisson-ratio (or material.lame) for every cell, replaced per input tetrahedron by
// material.cell-young-modulus / material.cell-poisson-ratio (SOFA's per-element youngModulus and
// poissonRatio lists) or per physical group by material.region. A refined cell has the material
// of the input cell it comes from.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "eis/core/parameters.hpp"
#include "eis/mesh/distributed_mesh.hpp"
#include "eis/model/isotropic_elasticity.hpp"

namespace eis {

// One material.region value: "GROUP E NU", and its text (errors quote it).
struct RegionMaterial {
  std::string group;
  double youngModulus, poissonRatio;
  std::string text;
};
RegionMaterial parseRegionMaterial(const std::string& key, const std::string& text);

// The material keys of the elastic-fem component, read by readElasticFemParameters
// (model/elastic_force_fields.hpp). A list or pair not given is absent.
struct CellMaterialParameters {
  double youngModulus;                                     // material.young-modulus
  double poissonRatio;                                     // material.poisson-ratio
  std::optional<std::array<double, 2>> lame;               // material.lame: mu, lambda
  std::optional<std::vector<double>> cellYoungModulus;     // material.cell-young-modulus
  std::optional<std::vector<double>> cellPoissonRatio;     // material.cell-poisson-ratio
  std::optional<std::vector<double>> cellStiffnessFactor;  // material.cell-stiffness-factor
  std::vector<RegionMaterial> regions;                     // material.region, in order
};

// SOFA's getVecRealInElement: element i takes list[i] when the list is longer than i, else
// list[0] (the list is not empty).
double valueInElement(const std::vector<double>& list, std::int64_t element);

// Collective. The Lame parameters of every local cell; a list whose length is not the input's
// tetrahedron count adds a warning (SOFA's rule still applies). Throws eis::Error, on every
// rank, for a region whose group has no tetrahedra or a group listed twice.
std::vector<LameParameters> cellMaterials(const DistributedMesh& mesh,
                                          const CellMaterialParameters& materials,
                                          std::vector<std::string>& warnings);

}  // namespace eis
