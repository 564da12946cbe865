#include "eis/app/scene_builder.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "eis/core/component_registry.hpp"
#include "eis/linalg/linear_solver.hpp"
#include "eis/mesh/mesh_source.hpp"
#include "eis/mesh/metis_partition.hpp"
#include "eis/model/bilateral_lagrangian_constraint.hpp"
#include "eis/model/fixed_constraint.hpp"
#include "eis/model/force_field_component.hpp"
#include "eis/model/mass.hpp"
#include "eis/model/node_projectors.hpp"
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

std::vector<std::string> expandShortOptions(std::vector<std::string> arguments) {
  for (std::string& argument : arguments) {
    if (argument == "--quiet") argument = "--output.progress-every=0";
    if (argument == "--scene" || argument.rfind("--scene=", 0) == 0) argument.insert(7, ".file");
    if (argument == "--restart-force") argument = "--initial.restart-force=true";
    if (argument == "--restart" || argument.rfind("--restart=", 0) == 0)
      argument.replace(0, 9, "--initial.restart");
  }
  return arguments;
}

namespace {

// Rank 0's partition of the serial meshes `together` (indices into `serial`) as one, in
// cellParts[i]; the same verdict on every rank when it fails.
void partitionBodiesTogether(const std::vector<SerialMesh>& serial,
                             const std::vector<std::size_t>& together, MPI_Comm comm,
                             std::vector<std::vector<int>>& cellParts) {
  int rank, size;
  EIS_CHECK_MPI(MPI_Comm_rank(comm, &rank));
  EIS_CHECK_MPI(MPI_Comm_size(comm, &size));
  std::string failure;
  if (rank == 0) {
    try {
      std::vector<CompactMesh> compact;
      for (std::size_t b : together) compact.push_back(compactMesh(serial[b]));
      std::int64_t edgeCut = 0;
      const std::vector<std::vector<int>> parts = partitionTogether(compact, size, edgeCut);
      for (std::size_t i = 0; i < together.size(); ++i) cellParts[together[i]] = parts[i];
    } catch (const Error& e) {
      failure = e.what();
    }
  }
  throwIfAnyRankFailed(failure, comm);
}

}  // namespace

std::vector<std::unique_ptr<DistributedMesh>> buildMeshes(
    const std::vector<const Scene*>& scenes, MPI_Comm comm,
    std::vector<std::vector<std::string>>& warnings) {
  std::vector<SerialMesh> serial(scenes.size());
  std::vector<std::size_t> together;
  std::vector<bool> converted(scenes.size());
  std::vector<MeshSourceParameters> sources;
  for (const Scene* scene : scenes) sources.push_back(readMeshSourceParameters(*scene));
  for (std::size_t b = 0; b < scenes.size(); ++b) {
    converted[b] = meshFileIsHdf5(sources[b], comm);
    if (!converted[b]) {
      const int dofsPerNode = unknownsPerNode(physicsOf(*scenes[b]));
      serial[b] = loadSerialMesh(sources[b], dofsPerNode, comm, warnings[b]);
      together.push_back(b);
    }
  }
  std::vector<std::vector<int>> cellParts(scenes.size());
  if (together.size() > 1) partitionBodiesTogether(serial, together, comm, cellParts);
  std::vector<std::unique_ptr<DistributedMesh>> meshes;
  for (std::size_t b = 0; b < scenes.size(); ++b) {
    const int dofsPerNode = unknownsPerNode(physicsOf(*scenes[b]));
    const int refine = sources[b].refine;
    if (converted[b])
      meshes.push_back(std::make_unique<DistributedMesh>(
          comm, hdf5MeshInput(sources[b], dofsPerNode, comm), dofsPerNode, refine));
    else
      meshes.push_back(std::make_unique<DistributedMesh>(
          comm, serial[b], dofsPerNode, refine, together.size() > 1 ? &cellParts[b] : nullptr));
    serial[b] = SerialMesh();
    // Rank 0 keeps the unused nodes, on both paths.
    if (!meshes.back()->unusedNodeIds().empty())
      warnings[b].push_back(std::to_string(meshes.back()->unusedNodeIds().size()) +
                            " nodes belong to no " + nameOf(meshes.back()->cellType()) +
                            "; they are written unchanged");
  }
  return meshes;
}

std::unique_ptr<MechanicalSystem> buildSystem(const Scene& scene, const DistributedMesh& mesh,
                                              std::vector<std::string>& warnings) {
  const Physics physics = physicsOf(scene);
  const MassParameters mass = readMassParameters(scene);
  HexahedronRefinement refinement =
      localRefinement(mesh, mass.finerLevels, mass.finerFactors, "mass.cell-finer-factor");
  refinement.homogenisation = mass.finerHomogenisation;
  refinement.lame = mass.finerLame;
  auto system =
      std::make_unique<MechanicalSystem>(mesh, mass.type, massCoefficientOf(mass, physics, mesh),
                                         localCellFactors(mesh, mass.cellFactors), refinement);
  for (const ForceFieldComponent& component : forceFieldComponents()) {
    if (component.physics != physics) continue;
    if (auto field = component.make(system->context(warnings), scene))
      system->addForceField(std::move(field));
  }
  auto motion =
      std::make_unique<PrescribedMotion>(mesh, readPrescribedMotionParameters(scene), warnings);
  auto fixed = fixedNodeSets(mesh, readFixedConstraintParameters(scene), warnings);
  fixed.insert(fixed.end(), motion->nodeSets().begin(), motion->nodeSets().end());
  system->setConstraint(
      std::move(fixed), std::move(motion),
      std::make_unique<NodeProjectors>(mesh, readNodeProjectorParameters(scene), warnings));
  std::vector<std::unique_ptr<ForceField>> mapped;
  system->setLagrangianConstraints(makeLagrangianConstraints(mesh, scene, warnings, mapped));
  for (auto& field : mapped) system->addForceField(std::move(field));
  system->createMatrix(readLinearSolverParameters(scene).op);
  // The set-up above borrowed work vectors from the mesh's DM, which keeps them for the next
  // borrower; the run has none, and each is a vector of every unknown (8 MB at 1e6).
  EIS_CHECK(DMClearGlobalVectors(mesh.dm()));
  EIS_CHECK(DMClearLocalVectors(mesh.dm()));
  return system;
}

std::vector<std::unique_ptr<Output>> buildOutputs(const Scene& scene, MPI_Comm comm) {
  std::vector<std::unique_ptr<Output>> outputs;
  for (const OutputComponent& component : outputComponents())
    if (auto output = component.make(scene, comm)) outputs.push_back(std::move(output));
  return outputs;
}

}  // namespace eis
