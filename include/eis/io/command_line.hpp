#pragma once
// The command line and the INI config file it names, read into a Scene: our options are
// --section.key[=value] and the config file's keys are the same in INI sections, the command
// line winning key by key; PETSc's single-dash options are set aside, in order, for
// PetscInitialize.
#include <string>
#include <vector>

#include "eis/core/scene.hpp"

namespace eis {

struct CommandLine {
  explicit CommandLine(std::vector<const ComponentDeclaration*> components)
      : scene(std::move(components)) {}
  bool help = false, version = false;
  // The --config file as given (empty without one): an input no output may replace.
  std::string configFile;
  // The keys without an object: the scene of a one-body run, shared by every object otherwise.
  Scene scene;
  // A scene of several objects: keys "NAME/section.key" (--NAME/section.key=V, or a key of an
  // INI section [NAME/section]) belong to object NAME; each object's scene is the shared keys and
  // its own, its own winning key by key, the command line winning over the config file. One
  // entry per object (path "/NAME"), in the order they first appear; empty when none is named.
  std::vector<ObjectScene> objects;
  // Arguments that start with a single dash (PETSc options), in order, for PetscInitialize.
  std::vector<std::string> petscArgs;
};

// Parses main()'s argv (argv[0], the program, is skipped) and the --config file it names into a
// scene of `components` (and one per object it names), then checks them (checkScene,
// io/scene_checks.hpp) unless they name a SOFA scene (scene.file: io/sofa_import.hpp's
// scenesFromSofa checks it once the SOFA keys are in). Throws eis::Error naming the key, file or value for an unknown
// key, a malformed number or a value out of range. Pure: no MPI.
CommandLine parseCommandLine(int argc, const char* const argv[],
                             const std::vector<const ComponentDeclaration*>& components);

}  // namespace eis
