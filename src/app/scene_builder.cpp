#include "eis/app/scene_builder.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "eis/core/component_registry.hpp"
#include "eis/linalg/linear_solver.hpp"
#include "eis/mesh/mesh_source.hpp"
#include "eis/model/fixed_constraint.hpp"
#include "eis/model/force_field_component.hpp"
#include "eis/model/mass.hpp"
#include "eis/model/physics.hpp"
#include "eis/model/prescribed_motion.hpp"

namespace eis {

namespace {

// The declarations of one registry, each with its rank.
template <class Entry, class Declaration>
void addRanked(std::vector<std::pair<int, const ComponentDeclaration*>>& all,
               ComponentRegistry<Entry>& registry, Declaration declaration) {
  for (std::size_t i = 0; i < registry.entries().size(); ++i)
    all.push_back({registry.ranks()[i], declaration(registry.entries()[i])});
}

}  // namespace

const std::vector<const ComponentDeclaration*>& knownComponents() {
  static const std::vector<const ComponentDeclaration*> all = [] {
    std::vector<std::pair<int, const ComponentDeclaration*>> ranked;
    addRanked(ranked, componentDeclarations(), [](const ComponentDeclaration* d) { return d; });
    addRanked(ranked, forceFieldRegistry(),
              [](const ForceFieldComponent& field) { return &field.declaration; });
    addRanked(ranked, outputRegistry(),
              [](const OutputComponent& output) { return &output.declaration; });
    std::sort(ranked.begin(), ranked.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<const ComponentDeclaration*> list;
    for (std::size_t i = 0; i < ranked.size(); ++i) {
      if (i > 0 && ranked[i].first == ranked[i - 1].first)
        throw std::logic_error("two components registered at rank " +
                               std::to_string(ranked[i].first));
      list.push_back(ranked[i].second);
    }
    return list;
  }();
  return all;
}

Scene defaultScene() {
  return Scene(knownComponents());
}

CommandLine parseArguments(int argc, const char* const argv[]) {
  return parseCommandLine(argc, argv, knownComponents());
}

std::unique_ptr<DistributedMesh> buildMesh(const Scene& scene, MPI_Comm comm,
                                           std::vector<std::string>& warnings) {
  const int dofsPerNode = unknownsPerNode(physicsOf(scene));
  std::unique_ptr<DistributedMesh> mesh;
  if (meshFileIsHdf5(scene, comm)) {
    mesh = std::make_unique<DistributedMesh>(comm, hdf5MeshInput(scene, dofsPerNode, comm),
                                             dofsPerNode, scene.integer("mesh.refine"));
  } else {
    const SerialMesh serial = loadSerialMesh(scene, dofsPerNode, comm, warnings);
    mesh =
        std::make_unique<DistributedMesh>(comm, serial, dofsPerNode, scene.integer("mesh.refine"));
  }
  // Rank 0 keeps the unused nodes, on both paths.
  if (!mesh->unusedNodeIds().empty())
    warnings.push_back(std::to_string(mesh->unusedNodeIds().size()) +
                       " nodes belong to no tetrahedron; they are written unchanged");
  return mesh;
}

std::unique_ptr<MechanicalSystem> buildSystem(const Scene& scene, const DistributedMesh& mesh,
                                              std::vector<std::string>& warnings) {
  const Physics physics = physicsOf(scene);
  auto system =
      std::make_unique<MechanicalSystem>(mesh, massTypeOf(scene), massCoefficientOf(scene, mesh));
  for (const ForceFieldComponent& component : forceFieldComponents()) {
    if (component.physics != physics) continue;
    if (auto field = component.make(system->context(warnings), scene))
      system->addForceField(std::move(field));
  }
  auto motion = std::make_unique<PrescribedMotion>(mesh, scene, warnings);
  auto fixed = fixedNodeSets(mesh, scene, warnings);
  fixed.insert(fixed.end(), motion->nodeSets().begin(), motion->nodeSets().end());
  system->setConstraint(std::move(fixed), std::move(motion));
  system->createMatrix(linearSolverOf(scene, system->constantMatrix()).op);
  return system;
}

std::vector<std::unique_ptr<Output>> buildOutputs(const Scene& scene, MPI_Comm comm) {
  std::vector<std::unique_ptr<Output>> outputs;
  for (const OutputComponent& component : outputComponents())
    if (auto output = component.make(scene, comm)) outputs.push_back(std::move(output));
  return outputs;
}

}  // namespace eis
