// euler-implicit: SOFA's EulerImplicitSolver on PETSc and MPI.
//   mpiexec -n N euler-implicit [--config scene.ini] [--quiet] [--restart=auto|FILE]
//                               [--section.key=value ...] [PETSc options]
// Exit status: 0 done, 1 error, 75 stopped by a signal (app/stop_signals.hpp).
#include <hdf5.h>
#include <petscsys.h>

#include <cstdarg>
#include <cstddef>
#include <cstdio>
#include <string>
#include <vector>

#include "eis/app/run_outcome.hpp"
#include "eis/app/scene_builder.hpp"
#include "eis/app/simulation.hpp"
#include "eis/app/stop_signals.hpp"
#include "eis/core/error.hpp"
#include "eis/core/memory.hpp"
#include "eis/io/help.hpp"
#include "eis/io/output_file.hpp"
#include "eis/io/petsc_output_paths.hpp"
#include "eis/io/sofa_import.hpp"
#include "eis/mesh/mesh_source.hpp"

namespace {

void printVersion() {
  char petsc[256], mpi[MPI_MAX_LIBRARY_VERSION_STRING];
  int length = 0;
  PetscGetVersion(petsc, sizeof petsc);
  MPI_Get_library_version(mpi, &length);
  std::string mpiText(mpi, length);
  if (auto end = mpiText.find_first_of("\n,"); end != std::string::npos) mpiText.resize(end);
  std::printf("euler-implicit %s\n%s\n%s\n", EIS_VERSION, petsc, mpiText.c_str());
}

// Options PETSc never read were probably misspelt: say so, as -options_left would.
void reportUnusedPetscOptions(int rank) {
  // With -options_left PETSc lists them itself, at PetscFinalize (which also reads the option).
  PetscBool petscReports = PETSC_FALSE;
  if (PetscOptionsHasName(nullptr, nullptr, "-options_left", &petscReports) || petscReports) return;
  PetscInt count = 0;
  char** names = nullptr;
  char** values = nullptr;
  if (PetscOptionsLeftGet(nullptr, &count, &names, &values)) return;
  for (PetscInt i = 0; i < count && rank == 0; ++i)
    std::fprintf(stderr, "euler-implicit: warning: PETSc option -%s was never used (misspelt?)\n",
                 names[i]);
  PetscOptionsLeftRestore(nullptr, &count, &names, &values);
}

// What PETSc printed of an error outside our handler (in PetscInitialize or PetscFinalize): the
// lines between its "Error Message" header and its pointer to the FAQ, joined.
std::string printedError;
int printedState = 0;  // 0: before the header, 1: in the message, 2: after it

PetscErrorCode catchPrintedError(const char* format, ...) {
  int& state = printedState;
  char line[1024];
  va_list args;
  va_start(args, format);
  std::vsnprintf(line, sizeof line, format, args);
  va_end(args);
  std::string text(line);
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  if (state == 0 && text.find("Error Message") != std::string::npos) {
    state = 1;
  } else if (state == 1 && (text.rfind("See ", 0) == 0 || text.empty())) {
    state = 2;
  } else if (state == 1) {
    printedError += (printedError.empty() ? "" : ": ") + text;
  }
  return 0;
}

// PetscInitialize failed (say, on a missing -options_file, which only the first rank reads): the
// rank that failed says why and exits; the others may wait in a collective call, so MPI is not
// finalized and mpiexec ends them.
int initializationFailed() {
  int mpiUp = 0, rank = 0;
  MPI_Initialized(&mpiUp);
  if (mpiUp) MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::fprintf(stderr, "euler-implicit: error: rank %d: PETSc could not start: %s\n", rank,
               printedError.empty() ? "(no message)" : printedError.c_str());
  return 1;
}

// PETSc 3.18's KSP package registers a log stage "PCMPI" (for its MPI linear-solver server,
// which we do not use) when the first solver is made; -log_view names a stage nobody entered
// "Unknown" and hiding it does not stop that, so after the run it is entered once, empty, and
// listed under its own name.
void namePetscServerStage() {
  PetscLogStage stage = -1;
  if (PetscLogStageGetId("PCMPI", &stage) != 0 || stage < 0) return;
  EIS_CHECK(PetscLogStagePush(stage));
  EIS_CHECK(PetscLogStagePop());
}

// One run, between PetscInitialize and PetscFinalize; the exit status.
// The files a run reads and writes, by key: the config file, every body's inputs, the run's
// outputs once (the same in every body's scene), and the files an output prefix names that could
// be another's.
std::vector<eis::NamedFile> namedFiles(const std::vector<eis::ObjectScene>& objects,
                                       const std::string& configFile) {
  std::vector<eis::NamedFile> files{{"config", configFile, false}};
  for (const eis::ObjectScene& object : objects)
    for (const char* key : {"scene.file", "mesh.file", "initial.state", "initial.restart"})
      if (const std::string path = object.scene.optionalText(key); path != "auto")
        files.push_back({key, path, false});
  const eis::Scene& scene = objects.front().scene;
  for (const char* key :
       {"output.final-state", "output.history", "output.multipliers", "mesh.convert"})
    files.push_back({key, scene.optionalText(key), true});
  if (const std::string xdmf = scene.optionalText("output.xdmf"); !xdmf.empty()) {
    files.push_back({"output.xdmf", xdmf + ".h5", true});
    files.push_back({"output.xdmf", xdmf + ".xdmf", true});
  }
  if (const std::string vtk = scene.optionalText("output.vtk"); !vtk.empty())
    files.push_back({"output.vtk", vtk + ".pvd", true});
  return files;
}

// -eis_mmap_threshold: the size in bytes from which an allocation is mapped by itself
// (eis::mapLargeAllocations), 32 MiB unless given; 0 leaves the allocator as the libraries set it.
std::size_t mapThreshold() {
  PetscInt bytes = PetscInt(eis::kLargestMapThreshold);
  EIS_CHECK(PetscOptionsGetInt(nullptr, nullptr, "-eis_mmap_threshold", &bytes, nullptr));
  if (bytes < 0)
    throw eis::Error("-eis_mmap_threshold " + std::to_string(bytes) +
                     ": a size in bytes, 0 (the libraries' setting) to " +
                     std::to_string(eis::kLargestMapThreshold));
  return std::size_t(bytes);
}

int run(const eis::CommandLine& commandLine, const std::string& parseError) {
  // Errors come back as codes that EIS_CHECK turns into one message with PETSc's own text, not
  // as PETSc tracebacks; the capture ends before PetscFinalize, which checks that it did.
  const eis::PetscErrorCapture capture;
  const int rank = eis::commRank(PETSC_COMM_WORLD);
  int status = 0;
  if (!parseError.empty()) {
    if (rank == 0)
      std::fprintf(stderr, "euler-implicit: error: %s\n", eis::printable(parseError).c_str());
    status = 1;
  } else if (commandLine.help) {
    if (rank == 0) std::fputs(eis::helpText(eis::knownComponents()).c_str(), stdout);
  } else if (commandLine.version) {
    if (rank == 0) printVersion();
  } else {
    // The ranks' last meeting has a communicator of its own, made while they are all in step:
    // MPI_Comm_dup is collective, and made after one rank failed alone it waited for the
    // others, still in a collective call of the run, and the job hung instead of ending.
    const eis::OwnCommunicator exitComm(PETSC_COMM_WORLD);
    eis::RunOutcome outcome;
    bool stopped = false;
    try {
      // After PetscInitialize, whose own handlers these replace.
      eis::installStopSignals();
      // After the libraries were loaded, one of which turns mapped allocations off: the large
      // arrays (matrices, GAMG's levels) go back to the system when freed, and the resident set
      // follows what the run holds (1e6 unknowns on 1 rank: 1,677 -> 1,610 MiB at its peak). An
      // allocator other than glibc's (a sanitizer's) refuses, and the run goes on as it is.
      eis::mapLargeAllocations(mapThreshold());
      // HDF5 prints its own error stack for a file it cannot read (a truncated checkpoint or
      // mesh), some thirty lines per rank before our one error line, which already names the
      // file and PETSc's cause. The program owns standard error, so it turns that printing off
      // here, not in the library.
      if (H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr) < 0)
        throw eis::Error("cannot turn off HDF5's error printing");
      eis::SofaControl control;  // the scene's Python controllers, if any
      const std::vector<eis::ObjectScene> objects =
          commandLine.scene.given("scene.file")
              ? eis::scenesFromSofa(commandLine.scene, PETSC_COMM_WORLD, stdout, eis::stopSignal,
                                    &control)
          : !commandLine.objects.empty() ? commandLine.objects
                                         : std::vector<eis::ObjectScene>{{"", commandLine.scene}};
      const eis::Scene& scene = objects.front().scene;
      // Before anything is written: an output that is an input, or another output, would lose it.
      eis::refuseSameFiles(namedFiles(objects, commandLine.configFile), PETSC_COMM_WORLD);
      eis::checkPetscOutputPaths(PETSC_COMM_WORLD);
      const eis::MeshSourceParameters source = eis::readMeshSourceParameters(scene);
      if (source.convert) {
        if (objects.size() > 1)
          throw eis::Error("mesh.convert: the scene has " + std::to_string(objects.size()) +
                           " bodies; convert one mesh at a time (a scene of one body)");
        std::vector<std::string> warnings;
        const std::string done = eis::convertMesh(source, PETSC_COMM_WORLD, warnings);
        for (const std::string& warning : warnings)
          if (rank == 0) std::printf("euler-implicit: warning: %s\n", warning.c_str());
        if (rank == 0) std::printf("%s\n", done.c_str());
      } else {
        // Force fields written in Python are computed by the controllers' python3, started
        // before the model that calls it (io/python_remote_force_field.cpp).
        std::unique_ptr<eis::PythonControllers> python;
        if (!control.forceFields.empty()) {
          if (!control.mainLoop.empty())
            throw eis::Error(control.forceFields.front() +
                             ": a force field written in Python runs in the script's own "
                             "process: its main loop needs the euler_implicit module");
          python = std::make_unique<eis::PythonControllers>(control, PETSC_COMM_WORLD);
          eis::setGatheredForceFieldMaker([started = python.get()](const std::string& path) {
            return started->forceField(path);
          });
        }
        eis::Simulation simulation(objects, PETSC_COMM_WORLD, stdout);
        eis::setGatheredForceFieldMaker(nullptr);
        simulation.attachControllers(control, std::move(python));
        simulation.run();
        stopped = simulation.summary().stoppedBy;
      }
      namePetscServerStage();
      reportUnusedPetscOptions(rank);
    } catch (const eis::LoneFailure& e) {
      outcome = {true, e.what(), true};
    } catch (const std::exception& e) {
      outcome = {true, e.what()};
    }
    // The ranks meet once more (app/run_outcome.hpp): an error every rank saw is printed once,
    // by rank 0; one that a single rank saw while the others wait for it in a collective call
    // is printed by that rank, which then aborts the job.
    status = eis::finishRun(exitComm.get(), outcome, eis::loneErrorWaitSeconds(), stderr);
    if (status == 0 && stopped) status = eis::kStoppedBySignal;
  }
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  eis::holdStopSignals();
  eis::CommandLine commandLine(eis::knownComponents());
  const std::vector<std::string> rewritten =
      eis::expandShortOptions(std::vector<std::string>(argv, argv + argc));
  std::vector<const char*> arguments;
  for (const std::string& argument : rewritten) arguments.push_back(argument.c_str());
  std::string parseError;
  try {
    commandLine = eis::parseArguments(argc, arguments.data());
  } catch (const eis::Error& e) {
    parseError = e.what();
  }

  // PETSc sees only the single-dash options; ours were taken out above.
  std::vector<char*> petscArgv{argv[0]};
  for (auto& arg : commandLine.petscArgs) petscArgv.push_back(arg.data());
  petscArgv.push_back(nullptr);
  int petscArgc = int(petscArgv.size()) - 1;
  char** petscArgvPtr = petscArgv.data();
  // PETSc's start runs before a handler of ours can be pushed (PETSc would free it with its own
  // allocator under -malloc_debug), so its errors are caught from the error printer.
  PetscErrorPrintf = catchPrintedError;
  const PetscErrorCode initialized = PetscInitialize(&petscArgc, &petscArgvPtr, nullptr, nullptr);
  PetscErrorPrintf = PetscErrorPrintfDefault;
  if (initialized) return initializationFailed();
  const int status = run(commandLine, parseError);
  // PetscFinalize writes -log_view and friends (an unwritable -log_view file fails there): its
  // failure fails the run too, said in one line.
  printedError.clear();
  printedState = 0;
  const int rank = eis::commRank(PETSC_COMM_WORLD);
  PetscErrorPrintf = catchPrintedError;
  const PetscErrorCode finalized = PetscFinalize();
  if (finalized)
    std::fprintf(stderr, "euler-implicit: error: rank %d: PETSc could not finish: %s\n", rank,
                 printedError.empty() ? "(no message)" : printedError.c_str());
  return status != 0 ? status : (finalized != 0 ? 1 : 0);
}
