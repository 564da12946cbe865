#pragma once
// From a scene to the objects of a run. Every component the build knows, as each registered itself
// (knownComponents: --help, the config keys and their checks come from their declarations),
// and the builders below turn the scene's parameters into the mesh, the mechanical system with
// its mass, force fields and constraint, and the outputs. The time integrator comes from
// makeTimeIntegrator (ode/).
#include <memory>
#include <string>
#include <vector>

#include "eis/core/scene.hpp"
#include "eis/io/command_line.hpp"
#include "eis/io/output.hpp"
#include "eis/mesh/distributed_mesh.hpp"
#include "eis/model/mechanical_system.hpp"

namespace eis {

// Every component of this build, in the order --help lists them: the declarations, force fields
// and outputs registered, by rank (eis/core/component_registry.hpp).
const std::vector<const ComponentDeclaration*>& knownComponents();

// A scene of the known components with every parameter at its default (not yet resolved).
Scene defaultScene();

// parseCommandLine over knownComponents().
CommandLine parseArguments(int argc, const char* const argv[]);

// The command line's short forms as parseArguments reads them: --quiet is
// output.progress-every = 0 (app/progress.hpp); --scene is --scene.file; --restart is
// --initial.restart, --restart-force --initial.restart-force=true (io/checkpoint_output.hpp).
std::vector<std::string> expandShortOptions(std::vector<std::string> arguments);

// Collective. Each scene's mesh, partitioned and distributed (and refined) over `comm`, its
// set-up warnings in warnings[i]. The meshes read or built on rank 0 are partitioned together
// (partitionTogether, mesh/metis_partition.hpp): the ranks share the union of the bodies' cells,
// and a small body lies on the few ranks METIS gives it. A converted mesh (mesh.file = *.h5,
// read in slices by every rank) is partitioned alone, by PTScotch.
std::vector<std::unique_ptr<DistributedMesh>> buildMeshes(
    const std::vector<const Scene*>& scenes, MPI_Comm comm,
    std::vector<std::vector<std::string>>& warnings);

// Collective. The mass, every force field the scene asks for (for its physics, in the order of
// forceFieldComponents()), the fixed constraint, and the system matrix.
std::unique_ptr<MechanicalSystem> buildSystem(const Scene& scene, const DistributedMesh& mesh,
                                              std::vector<std::string>& warnings);

// Collective. Every output the scene asks for; unusable paths fail here, before any step.
std::vector<std::unique_ptr<Output>> buildOutputs(const Scene& scene, MPI_Comm comm);

}  // namespace eis
