#pragma once
// SOFA's TetrahedronFEMForceField localStiffnessFactor changed during a run (a Python
// controller's write): with updateStiffness, SOFA computes each element's material stiffness
// again at every AnimateBeginEvent, element i's Young's modulus its own times
// localStiffnessFactor[i M / N] (M factors, N tetrahedra, integer division). Here the body's
// corotational tetrahedra take the new materials at once, so the next solve's force, its
// assembled K and its matrix-free products all use them.
#include <memory>
#include <string>
#include <vector>

#include "eis/core/parameters.hpp"
#include "eis/mesh/distributed_mesh.hpp"
#include "eis/model/force_field.hpp"

namespace eis {

// Collective. The elastic-fem field among `fields` (the body's, made from `scene` on `mesh`)
// given `factors` in place of material.cell-stiffness-factor (none: factor 1 everywhere, as
// SOFA's empty list), every other material key as the scene gives it. `name` says what wrote
// them in errors. Throws eis::Error, the same on every rank, for a factor that is not a finite
// number (SOFA takes any other, <= 0 included), or for a body whose elastic field is not the
// corotational tetrahedron (method small's matrix is built once; a cut or hexahedral element
// has no input tetrahedra).
void setCellStiffnessFactors(const std::string& name, const Parameters& scene,
                             const DistributedMesh& mesh,
                             const std::vector<std::unique_ptr<ForceField>>& fields,
                             std::vector<double> factors);

}  // namespace eis
