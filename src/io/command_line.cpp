// Boost.Program_options describes the keys of the command line; config_file.cpp reads the INI
// file, whose keys the command line overrides one by one. routeArguments() splits argv: PETSc's
// single-dash options with their values go aside, ours become Boost options.
#include "eis/io/command_line.hpp"

#include <boost/program_options.hpp>

#include <cctype>
#include <filesystem>

#include "eis/core/error.hpp"
#include "eis/io/config_file.hpp"

namespace eis {
namespace {

namespace po = boost::program_options;

// Every scene key, each occurrence one string.
po::options_description sceneOptions(const Scene& scene) {
  po::options_description options;
  for (const ParameterDeclaration& d : scene.spec().declarations())
    options.add_options()(d.key.c_str(), po::value<Texts>());
  return options;
}

// The scene keys plus those only the command line has.
po::options_description commandLineOptions(const po::options_description& scene) {
  po::options_description options;
  options.add_options()("config", po::value<std::string>())("help", "")("version", "");
  options.add(scene);
  return options;
}

bool startsWith(const std::string& s, const char* prefix) {
  return s.rfind(prefix, 0) == 0;
}

// "-1", "-1e-3", "-.5": a value, not a PETSc option.
bool isNegativeNumber(const std::string& token) {
  if (token.size() < 2 || token[0] != '-') return false;
  if (!std::isdigit(static_cast<unsigned char>(token[1])) && token[1] != '.') return false;
  double value = 0;
  return parse::number(token, value);
}

// Our option at argv[i], "--name=value", "--name value" or "--flag", as Boost's parsed option;
// returns the index of the last argument it used. A separate value may start with '-' ("-1 0 0")
// but not with "--". Boost's own command-line parser is not used: it can neither take a value
// that starts with '-' nor an empty one ("--output.vtk=" clears a path the config file set).
int takeOurOption(int i, int argc, const char* const argv[], po::parsed_options& ours) {
  const std::string token = argv[i];
  const std::size_t equals = token.find('=');
  po::option option;
  option.string_key = token.substr(2, equals == std::string::npos ? equals : equals - 2);
  const std::string shown = "--" + option.string_key;
  // Boost matches an empty name with every option (their short names are empty too).
  const po::option_description* description =
      option.string_key.empty() ? nullptr
                                : ours.description->find_nothrow(option.string_key, false);
  if (!description) throw Error("unknown option " + printable(shown, 80));
  if (description->semantic()->max_tokens() == 0) {
    if (equals != std::string::npos) throw Error(shown + ": takes no value");
  } else if (equals != std::string::npos) {
    option.value = {token.substr(equals + 1)};
  } else if (i + 1 < argc && !startsWith(argv[i + 1], "--")) {
    option.value = {argv[++i]};
  } else {
    throw Error(shown + ": missing value");
  }
  ours.options.push_back(option);
  return i;
}

// Splits argv[1..] into our options and PETSc's. A PETSc option keeps the one value that follows
// it (a token that does not start with '-', or a negative number), as PetscInitialize reads it.
void routeArguments(int argc, const char* const argv[], po::parsed_options& ours, Texts& petsc) {
  for (int i = 1; i < argc; ++i) {
    const std::string token = argv[i];
    if (startsWith(token, "--")) {
      i = takeOurOption(i, argc, argv, ours);
    } else if (startsWith(token, "-") && !isNegativeNumber(token)) {
      petsc.push_back(token);
      if (i + 1 < argc && (argv[i + 1][0] != '-' || isNegativeNumber(argv[i + 1])))
        petsc.push_back(argv[++i]);
    } else {
      throw Error("unexpected argument '" + token + "' (ours start with --, PETSc's with -)");
    }
  }
}

// The config file's values of the keys the command line did not give (the command line wins,
// key by key). A relative path starts at the config file's folder; errors name file and line.
void applyConfigFile(const std::string& file, const po::variables_map& vm, Scene& scene) {
  const std::filesystem::path folder = configFolder(file);
  for (const ConfigEntry& entry : readConfigFile(file)) {
    const std::string where = "config file " + file + ", line " + std::to_string(entry.line) + ": ";
    const ParameterDeclaration* declaration = scene.spec().find(entry.key);
    if (!declaration) throw Error(where + "unknown key " + printable(entry.key, 80));
    if (vm.count(entry.key)) continue;
    std::string value = entry.value;
    if (declaration->isPath() && !value.empty() && std::filesystem::path(value).is_relative())
      value = (folder / value).string();
    try {
      scene.set(entry.key, value);
    } catch (const Error& e) {
      throw Error(where + e.what());
    }
  }
}

}  // namespace

CommandLine parseCommandLine(int argc, const char* const argv[],
                             const std::vector<const ComponentDeclaration*>& components) {
  CommandLine result(components);
  const po::options_description keys = sceneOptions(result.scene);
  const po::options_description options = commandLineOptions(keys);
  po::parsed_options ours(&options);
  routeArguments(argc, argv, ours, result.petscArgs);

  po::variables_map vm;
  try {
    po::store(ours, vm);  // scene keys take any number of occurrences; the others, one
  } catch (const po::multiple_occurrences& e) {
    throw Error("--" + e.get_option_name() + ": given more than once");
  }
  result.help = vm.count("help") > 0;
  result.version = vm.count("version") > 0;
  if (result.help || result.version) return result;
  if (vm.count("config")) applyConfigFile(vm["config"].as<std::string>(), vm, result.scene);
  for (const ParameterDeclaration& d : result.scene.spec().declarations())
    if (vm.count(d.key))
      for (const std::string& value : vm[d.key].as<Texts>()) result.scene.set(d.key, value);
  // A SOFA scene's keys come later (sceneFromSofa, once MPI runs): it resolves the scene then.
  if (!result.scene.given("scene.file")) result.scene.resolve();
  return result;
}

}  // namespace eis
