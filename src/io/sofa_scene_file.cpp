// The SOFA scene as a run's scene: reading it on rank 0 (a .py scene through the Python front
// end), sharing its text, and the scene.* keys.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "eis/core/error.hpp"
#include "eis/core/input_file.hpp"
#include "eis/core/mpi_chunks.hpp"
#include "eis/io/python_controllers.hpp"
#include "eis/io/scene_checks.hpp"
#include "eis/io/sofa_import.hpp"
#include "eis/io/sofa_python_scene.hpp"

namespace eis {

namespace {

// Rank 0's text, on every rank.
void broadcastText(std::string& text, MPI_Comm comm) {
  unsigned long long size = text.size();
  EIS_CHECK_MPI(MPI_Bcast(&size, 1, MPI_UNSIGNED_LONG_LONG, 0, comm));
  text.resize(size);
  broadcastInPieces(text.data(), std::int64_t(size), MPI_CHAR, 0, comm);
}

}  // namespace

std::vector<ObjectScene> scenesFromSofa(const Scene& given, MPI_Comm comm, std::FILE* log,
                                        const std::function<int()>& stopSignal,
                                        SofaControl* control) {
  const std::string file = given.text("scene.file");
  const bool python = file.size() > 3 && file.compare(file.size() - 3, 3, ".py") == 0;
  std::string text, error;
  // The files the scene includes, as rank 0 found and read them: the other ranks build the graph
  // from these texts, never from their own file system, so that every rank builds the same one.
  std::vector<std::pair<std::string, std::string>> included;
  SofaSceneFiles files;
  files.dataPaths = given.texts("scene.data-path");
  if (commRank(comm) == 0) {
    try {
      if (python) {
        text = sofaPythonSceneToXml(file, given.real("scene.python-timeout"), stopSignal);
      } else {
        if (const std::string problem = inputFileProblem(file); !problem.empty())
          throw Error("scene.file = " + file + ": " + problem);
        std::ifstream in(file, std::ios::binary);
        std::ostringstream read;
        read << in.rdbuf();
        if (in.bad()) throw Error("scene.file = " + file + ": cannot read");
        text = read.str();
      }
      SofaSceneFiles recording = files;
      recording.read = [&included](const std::string& path) {
        std::optional<std::string> found = sofaSceneFileText(path);
        const bool known = std::any_of(included.begin(), included.end(),
                                       [&path](const auto& f) { return f.first == path; });
        if (found && !known) included.emplace_back(path, *found);
        return found;
      };
      const SofaScene checked(text, file, recording);  // its verdict and its reads are kept
    } catch (const Error& e) {
      error = e.what();
    }
  }
  throwIfAnyRankFailed(error, comm);
  broadcastText(text, comm);
  unsigned long long count = included.size();
  EIS_CHECK_MPI(MPI_Bcast(&count, 1, MPI_UNSIGNED_LONG_LONG, 0, comm));
  included.resize(count);
  for (auto& [path, content] : included) {
    broadcastText(path, comm);
    broadcastText(content, comm);
  }
  files.read = [&included](const std::string& path) -> std::optional<std::string> {
    for (const auto& [name, content] : included)
      if (name == path) return content;
    return std::nullopt;
  };
  // Every rank parses the same text: the same verdict everywhere.
  const SofaScene sofa(text, file, files);
  // A force field written in Python is computed by the .py scene's own Python
  // (io/python_remote_force_field); an XML scene that names one has none to run it.
  if (!python)
    for (const SofaObject* o : sofa.objects())
      if (o->type == "PythonForceField") {
        const std::string* pythonClass = o->field("class");
        throw Error(o->label() + ": a force field written in Python (class " +
                    (pythonClass ? *pythonClass : std::string("?")) +
                    ", on Sofa.Core.ForceFieldVec3d): its addForce, addDForce and addKToMatrix "
                    "run only with the .py scene that made it (--scene FILE.py, or python3 "
                    "FILE.py); an XML scene has no Python code to run");
      }
  SofaImportOptions options;
  options.sceneFolder = std::filesystem::path(file).parent_path().string();
  if (options.sceneFolder.empty()) options.sceneFolder = ".";
  options.dataPaths = files.dataPaths;
  options.skipUnsupported = given.boolean("scene.skip-unsupported");
  options.sceneLinearLimits = given.text("scene.linear-solver-limits") == "scene";
  // Each rank reads the surfaces a SparseGridTopology names from its own file system: a file
  // one rank cannot read fails the import there, and then on every rank rather than hanging.
  SofaImport imported;
  try {
    imported = importSofaScene(sofa, options);
  } catch (const Error& e) {
    error = e.what();
  }
  throwIfAnyRankFailed(error, comm);
  // A controller is run from the .py scene that made it (io/python_controllers); an XML scene
  // that names one has no Python to run.
  const std::string noPython =
      ": a Python controller runs only with the .py scene that made it (--scene FILE.py); an "
      "XML scene has no Python code to run";
  if (!python && !imported.controllers.empty()) {
    if (!options.skipUnsupported) throw Error(imported.controllers.front() + noPython);
    for (const std::string& controller : imported.controllers)
      imported.warnings.push_back("skipped " + controller + noPython);
    imported.controllers.clear();
  }

  std::vector<ObjectScene> scenes;
  for (const SofaObjectKeys& object : imported.objects) {
    Scene scene(given.components());
    for (const SofaKey& k : object.keys) {
      if (given.given(k.key)) continue;
      try {
        scene.set(k.key, k.value);
      } catch (const Error& e) {
        throw Error(k.where + ": " + e.what());
      }
    }
    for (const ParameterDeclaration& d : given.spec().declarations())
      if (given.given(d.key))
        for (const std::string& value : given.shown(d.key)) scene.set(d.key, value);
    try {
      checkScene(scene);
    } catch (const Error& e) {
      throw Error(imported.objects.size() > 1 ? "object " + object.path + ": " + e.what()
                                              : std::string(e.what()));
    }
    scenes.push_back({imported.objects.size() > 1 ? object.path : "", std::move(scene)});
  }
  if (control) {
    *control = {file,
                given.real("scene.python-timeout"),
                imported.controllers,
                {},
                {},
                given.optionalText("scene.python-main"),
                {},
                {},
                {},
                imported.readerSystems};
    for (const SofaObjectKeys& object : imported.objects) {
      control->statePaths.push_back(object.path);
      control->forces.push_back(object.forces);
      control->matrices.push_back(object.matrices);
      control->stiffnessFactors.push_back(object.stiffnessFactors);
      for (const SofaKey& k : object.keys)
        if (python && k.key == "python.force-field") control->forceFields.push_back(k.value);
    }
  }
  if (commRank(comm) == 0) {
    if (log)
      for (const std::string& line : imported.notes)
        std::fprintf(log, "SOFA scene %s: %s\n", file.c_str(), line.c_str());
    for (const std::string& line : imported.warnings)
      std::fprintf(stderr, "euler-implicit: warning: %s\n", line.c_str());
  }
  return scenes;
}

const ComponentDeclaration& sofaSceneComponent() {
  static const ComponentDeclaration component{
      "sofa-scene", "scene file",
      "a SOFA scene (.scn XML, or a SofaPython3 .py) run unchanged: its components become\n"
      "these keys; the command line and the INI file win key by key",
      ParameterSpec()
          .add({"scene.file", "PATH",
                "SOFA scene (.scn, or .py: SofaPython3's createScene, run by python3 from PATH);\n"
                "--scene PATH is the same. Its components set the keys of the run; a key also\n"
                "given on the command line or in the INI file takes that value.",
                std::nullopt, "", false, check::nonEmpty()})
          .add({"scene.data-path", "PATH",
                "a folder where the scene's relative file names are also looked for, after the\n"
                "scene's own folder (SOFA's share/ convention). Repeatable.",
                std::nullopt, "", true, check::nonEmpty()})
          .add({"scene.python-timeout", "S",
                "a .py scene's createScene must return within S seconds of wall time, else the\n"
                "run ends with an error and python3 (and what it started) is killed; > 0. Its\n"
                "controllers' methods for one event (a step's begin or end) likewise.",
                "120", "s", false, check::positive()})
          .add({"scene.python-main", "SOCKET",
                "set by Sofa.Simulation.init of a Python script run as `python3 scene.py`\n"
                "(README, Coming from SOFA): the Unix socket of the script, which drives the\n"
                "steps with Sofa.Simulation.animate instead of solver.steps",
                std::nullopt, "", false, check::nonEmpty()})
          .add({"scene.skip-unsupported", "BOOL",
                "a component that would change the mechanics and is not supported is skipped\n"
                "with a warning instead of ending the run",
                "false", "", false, check::boolean()})
          .add({"scene.linear-solver-limits", "converged|scene",
                "converged: a CGLinearSolver's tolerance and iterations tightened to a converged\n"
                "solve (rtol <= 1e-8, >= 1000 iterations, failing if not converged); scene: kept\n"
                "as the scene gives them, the iteration limit accepted as SOFA does",
                "converged", "", false,
                [](const std::string& key, const std::string& text) {
                  if (text != "converged" && text != "scene")
                    parse::reject(key, text, "expected converged | scene");
                }}),
      nullptr};
  return component;
}

const RegisterComponent registered(1200, sofaSceneComponent);

}  // namespace eis
