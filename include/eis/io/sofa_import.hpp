#pragma once
// SOFA scenes as a front end: a .scn file (or the XML the Python front end makes of a .py
// scene) becomes the same keys an INI file gives. The components SOFA scenes use are mapped
// one by one onto our keys (io/sofa_import.cpp, io/sofa_components.cpp; the file and the
// scene.* keys: io/sofa_scene_file.cpp), with SOFA master's data names, defaults and meanings;
// visual components are skipped, collision components skipped with a warning (contact is not
// simulated), and anything else that would change the mechanics is an error naming it (a
// warning under scene.skip-unsupported).
#include <cstddef>
#include <cstdio>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "eis/core/component.hpp"
#include "eis/core/scene.hpp"
#include "eis/io/sofa_scene.hpp"

namespace eis {

// scene.file, scene.data-path, scene.skip-unsupported, scene.linear-solver-limits.
const ComponentDeclaration& sofaSceneComponent();

struct SofaImportOptions {
  std::string sceneFolder;             // where relative file names start
  std::vector<std::string> dataPaths;  // then each of these folders, in order
  bool skipUnsupported = false;
  bool sceneLinearLimits = false;  // keep CGLinearSolver's iterations and tolerance as they are
};

struct SofaKey {
  std::string key, value;
  std::string where;  // "file:line" of the component it comes from
};

// A ConstantForceField of a body, as a Python controller names it: its object path
// ("/beam/pull"; an unnamed object by its type) and the load it became, the `ordinal`-th value
// of `key` (load.constant-force, load.total-force or load.nodal-forces) among the body's keys.
struct SofaForceLoad {
  std::string path, key;
  int ordinal = 0;
};

// The components of a body whose matrices a Python controller may read (assembleKMatrix,
// assembleMMatrix, a linear system's A, b and x), by object path as SofaForceLoad names them:
// its force fields with a stiffness, its masses and its linear systems; `mapped` when a mapped
// child adds its own to the body's, `python` when a force field written in Python does (which
// the controllers' python3 computes).
struct SofaMatrixSources {
  std::vector<std::string> stiffness, masses, systems;
  bool mapped = false, python = false;
};

// A TetrahedronFEMForceField of a body, whose localStiffnessFactor a Python controller may
// write: its object path and its updateStiffness (SOFA computes the elements' material
// stiffness again at each AnimateBeginEvent only when it is true).
struct SofaStiffnessFactors {
  std::string path;
  bool updateStiffness = false;
};

// One independent body of the scene (an unmapped MechanicalObject) and its keys.
struct SofaObjectKeys {
  std::string path;           // the node path of its MechanicalObject: "/liver"
  std::vector<SofaKey> keys;  // in order; repeatable keys repeat
  std::vector<SofaForceLoad> forces;
  SofaMatrixSources matrices;
  std::vector<SofaStiffnessFactors> stiffnessFactors;
};

// A MatrixLinearSystem that a CompositeLinearSystem assembles beside the one it solves, for a
// Python controller to read (SofaPython3's get_system_matrix), with some of its switches false:
// its object path, and the bodies its matrix covers (indices into SofaImport::objects, in the
// order of SOFA's MappingGraph, which numbers the states of the solve context depth first as
// written), or why the run cannot give its matrix (`refused`, a sentence). Only SOFA's
// mass-only system is given (io/sofa_linear_systems.cpp).
struct SofaReaderSystem {
  std::string path;
  std::vector<std::size_t> bodies;
  std::string refused;
};

struct SofaImport {
  std::vector<SofaObjectKeys> objects;  // in SOFA's search-down order: depth first, as written
  std::vector<SofaReaderSystem> readerSystems;
  std::vector<std::string> notes;     // start-up lines: what was skipped, how solvers map
  std::vector<std::string> warnings;  // collision skipped, unsupported skipped
  // Each Python controller: "PythonController 'name' (file:line), class CLASS".
  std::vector<std::string> controllers;
};

// The keys of the scene's components. Throws eis::Error "file:line: ..." naming the component
// for a bad value, a broken link, a missing mesh or an unsupported component.
SofaImport importSofaScene(const SofaScene& scene, const SofaImportOptions& options);

// The SOFA classes whose objects the importer maps to keys (masses, force fields, projective
// constraints), sorted: each registered by the file that maps it (io/sofa_reader.hpp).
std::vector<std::string> sofaMappedTypes();

// Collective. Reads the scene named by scene.file on rank 0 (a .py scene through
// sofaPythonSceneToXml), broadcasts its text, imports it on every rank, and returns the scene
// of each body, in the scene's order: the body's imported keys, then every key `given` holds
// (the command line and the INI file win key by key, for every body), resolved. Start-up
// notes and warnings go to `log` on rank 0. `stopSignal` (app/stop_signals' stopSignal) ends a
// Python scene's construction early. `control`, when given, receives what the scene's Python
// controllers need (io/python_controllers.hpp); its controllers are empty when it has none.
struct SofaControl;
std::vector<ObjectScene> scenesFromSofa(const Scene& given, MPI_Comm comm, std::FILE* log,
                                        const std::function<int()>& stopSignal = nullptr,
                                        SofaControl* control = nullptr);

}  // namespace eis
