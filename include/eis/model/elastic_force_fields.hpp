#pragma once
// The elastic force field a scene asks for (material.model, material.rotation).
#include <array>
#include <memory>
#include <vector>

#include "eis/core/tetra_geometry.hpp"
#include "eis/io/scene.hpp"
#include "eis/model/force_field.hpp"

namespace eis {

// cells: four local vertex indices each (input vertex order); shapes: their rest geometry,
// which must outlive the field; rest: rest positions as a local array, 3 per local vertex.
std::unique_ptr<ForceField> makeElasticForceField(const Scene& scene,
                                                  const std::vector<std::array<PetscInt, 4>>& cells,
                                                  const std::vector<TetraShape>& shapes,
                                                  std::vector<double> rest);

}  // namespace eis
