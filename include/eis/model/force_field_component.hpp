#pragma once
// How a force field joins a scene: its declaration (type, parameters) and how it is made from
// its parameters on one rank's part of the mesh. A force field registers itself at the end of its
// own file (RegisterForceField): adding one edits no list elsewhere.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "eis/core/component.hpp"
#include "eis/core/component_registry.hpp"
#include "eis/core/scene.hpp"
#include "eis/mesh/distributed_mesh.hpp"
#include "eis/model/cell_shapes.hpp"
#include "eis/model/force_field.hpp"
#include "eis/model/mass.hpp"
#include "eis/model/physics.hpp"

namespace eis {

// What a force field is made from: this rank's part of the mesh, the rest geometry of its cells
// and the mass (both owned by the mechanical system, outliving the field), and where set-up
// warnings go (one line each, said once by rank 0).
struct ModelContext {
  const DistributedMesh& mesh;
  const CellShapes& shapes;
  const Mass& mass;
  std::vector<std::string>& warnings;
};

struct ForceFieldComponent {
  ComponentDeclaration declaration;
  Physics physics;  // the field is made for scenes of this physics only
  // Collective. The field the parameters ask for, or nullptr when they ask for none (a zero
  // stiffness, no box).
  std::function<std::unique_ptr<ForceField>(const ModelContext&, const Parameters&)> make;
};

// The maker of a force field that reads its parameters once into its own struct (`read`, beside
// its declaration) and is made from that struct alone (`make`).
template <class Options>
std::function<std::unique_ptr<ForceField>(const ModelContext&, const Parameters&)> forceFieldMaker(
    Options (*read)(const Parameters&),
    std::unique_ptr<ForceField> (*make)(const ModelContext&, const Options&)) {
  return [read, make](const ModelContext& context, const Parameters& scene) {
    return make(context, read(scene));
  };
}

// Every force field this build knows, in the order a system sums their forces: their ranks
// (400-499, eis/core/component_registry.hpp).
const std::vector<ForceFieldComponent>& forceFieldComponents();
ComponentRegistry<ForceFieldComponent>& forceFieldRegistry();

// A static object of this type at the end of a force field's file registers it.
struct RegisterForceField {
  RegisterForceField(int rank, ForceFieldComponent (*component)());
};

// The rest positions of the local vertices as a local array, 3 per vertex (elastic fields
// measure x - x0 with it).
std::vector<double> restArray(const DistributedMesh& mesh);

}  // namespace eis
