// Boost.Program_options describes the keys of the command line; config_file.cpp reads the INI
// file, whose keys the command line overrides one by one. routeArguments() splits argv: PETSc's
// single-dash options with their values go aside, ours become Boost options.
#include "eis/io/command_line.hpp"

#include <boost/program_options.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "eis/core/error.hpp"
#include "eis/core/nearest_name.hpp"
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

// " (did you mean PREFIXname?)" for the name nearest an unknown one, or "".
std::string suggestion(const std::string& unknown, const std::vector<std::string>& names,
                       const std::string& prefix) {
  const std::string nearest = nearestName(unknown, names);
  return nearest.empty() ? "" : " (did you mean " + prefix + nearest + "?)";
}

std::vector<std::string> keysOf(const Scene& scene) {
  std::vector<std::string> keys;
  for (const ParameterDeclaration& d : scene.spec().declarations()) keys.push_back(d.key);
  return keys;
}

// A value of one object's key ("NAME/section.key"), and where it was given.
struct ObjectValue {
  std::string object, key, value;
};

// Splits "NAME/section.key" into NAME and the key; false for a key of no object. NAME is
// letters, digits, '_' and '-', so that it is also a node path's name ("/NAME").
bool splitObjectKey(const std::string& full, std::string& object, std::string& key) {
  const std::size_t slash = full.find('/');
  if (slash == std::string::npos) return false;
  object = full.substr(0, slash);
  key = full.substr(slash + 1);
  const bool named = !object.empty() && std::all_of(object.begin(), object.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
  });
  if (!named)
    throw Error("'" + printable(full, 80) +
                "': an object's name (before '/') is letters, digits, '_' and '-'");
  return true;
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
int takeOurOption(int i, int argc, const char* const argv[], po::parsed_options& ours,
                  std::vector<ObjectValue>& objectValues) {
  const std::string token = argv[i];
  const std::size_t equals = token.find('=');
  po::option option;
  option.string_key = token.substr(2, equals == std::string::npos ? equals : equals - 2);
  const std::string shown = "--" + option.string_key;
  std::string object, key = option.string_key;
  const bool ofObject = splitObjectKey(option.string_key, object, key);
  // Boost matches an empty name with every option (their short names are empty too). An
  // object's key is a scene key after its prefix.
  const po::option_description* description =
      key.empty() || (ofObject && (key == "config" || key == "help" || key == "version"))
          ? nullptr
          : ours.description->find_nothrow(key, false);
  if (!description) {
    std::vector<std::string> names;
    for (const auto& d : ours.description->options())
      if (!ofObject || d->semantic()->max_tokens() > 0) names.push_back(d->long_name());
    throw Error("unknown option " + printable(shown, 80) +
                suggestion(key, names, "--" + (ofObject ? object + "/" : std::string())));
  }
  if (ofObject) {
    std::string value;
    if (equals != std::string::npos)
      value = token.substr(equals + 1);
    else if (i + 1 < argc && !startsWith(argv[i + 1], "--"))
      value = argv[++i];
    else
      throw Error(shown + ": missing value");
    objectValues.push_back({object, key, value});
    return i;
  }
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
void routeArguments(int argc, const char* const argv[], po::parsed_options& ours, Texts& petsc,
                    std::vector<ObjectValue>& objectValues) {
  for (int i = 1; i < argc; ++i) {
    const std::string token = argv[i];
    if (startsWith(token, "--")) {
      i = takeOurOption(i, argc, argv, ours, objectValues);
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
// key by key); an object's keys ([NAME/section]) go to `objectValues`. A relative path starts at
// the config file's folder; errors name file and line.
void applyConfigFile(const std::string& file, const po::variables_map& vm, Scene& scene,
                     std::vector<ObjectValue>& objectValues) {
  const std::filesystem::path folder = configFolder(file);
  for (const ConfigEntry& entry : readConfigFile(file)) {
    const std::string where = "config file " + file + ", line " + std::to_string(entry.line) + ": ";
    std::string object, key = entry.key;
    bool ofObject = false;
    try {
      ofObject = splitObjectKey(entry.key, object, key);
    } catch (const Error& e) {
      throw Error(where + e.what());
    }
    const ParameterDeclaration* declaration = scene.spec().find(key);
    if (!declaration)
      throw Error(where + "unknown key " + printable(entry.key, 80) + suggestion(key, keysOf(scene), ""));
    std::string value = entry.value;
    if (declaration->isPath() && !value.empty() && std::filesystem::path(value).is_relative())
      value = (folder / value).string();
    if (ofObject) {
      objectValues.push_back({object, key, value});
      continue;
    }
    if (vm.count(entry.key)) continue;
    try {
      scene.set(entry.key, value);
    } catch (const Error& e) {
      throw Error(where + e.what());
    }
  }
}

// Each object's scene: for every key, the values of the first source that gives it, in this
// order: the object's own on the command line, the shared ones on the command line, the
// object's own in the config file, the shared ones in the config file.
std::vector<ObjectScene> objectScenes(const Scene& shared, const po::variables_map& vm,
                                      const std::vector<ObjectValue>& fromConfig,
                                      const std::vector<ObjectValue>& fromCommandLine) {
  std::vector<std::string> names;
  for (const auto* values : {&fromConfig, &fromCommandLine})
    for (const ObjectValue& v : *values)
      if (std::find(names.begin(), names.end(), v.object) == names.end()) names.push_back(v.object);
  std::vector<ObjectScene> objects;
  for (const std::string& name : names) {
    Scene scene(shared.components());
    const auto own = [&](const std::vector<ObjectValue>& values, const std::string& key) {
      Texts texts;
      for (const ObjectValue& v : values)
        if (v.object == name && v.key == key) texts.push_back(v.value);
      return texts;
    };
    try {
      for (const ParameterDeclaration& d : shared.spec().declarations()) {
        Texts texts = own(fromCommandLine, d.key);
        if (texts.empty() && vm.count(d.key)) texts = shared.shown(d.key);
        if (texts.empty()) texts = own(fromConfig, d.key);
        if (texts.empty() && shared.given(d.key)) texts = shared.shown(d.key);
        for (const std::string& text : texts) scene.set(d.key, text);
      }
      scene.resolve();
    } catch (const Error& e) {
      throw Error("object " + name + ": " + e.what());
    }
    objects.push_back({"/" + name, std::move(scene)});
  }
  return objects;
}

}  // namespace

CommandLine parseCommandLine(int argc, const char* const argv[],
                             const std::vector<const ComponentDeclaration*>& components) {
  CommandLine result(components);
  const po::options_description keys = sceneOptions(result.scene);
  const po::options_description options = commandLineOptions(keys);
  po::parsed_options ours(&options);
  std::vector<ObjectValue> objectConfig, objectCommandLine;
  routeArguments(argc, argv, ours, result.petscArgs, objectCommandLine);

  po::variables_map vm;
  try {
    po::store(ours, vm);  // scene keys take any number of occurrences; the others, one
  } catch (const po::multiple_occurrences& e) {
    throw Error("--" + e.get_option_name() + ": given more than once");
  }
  result.help = vm.count("help") > 0;
  result.version = vm.count("version") > 0;
  if (result.help || result.version) return result;
  if (vm.count("config"))
    applyConfigFile(vm["config"].as<std::string>(), vm, result.scene, objectConfig);
  for (const ParameterDeclaration& d : result.scene.spec().declarations())
    if (vm.count(d.key))
      for (const std::string& value : vm[d.key].as<Texts>()) result.scene.set(d.key, value);
  const bool objects = !objectConfig.empty() || !objectCommandLine.empty();
  // A SOFA scene's keys come later (scenesFromSofa, once MPI runs): it resolves the scene then.
  if (result.scene.given("scene.file")) {
    if (objects)
      throw Error(
          "keys of named objects (NAME/section.key) make the objects of an INI scene; a SOFA "
          "scene (scene.file) has its own bodies, whose keys are not addressed by name yet");
    return result;
  }
  // The objects are made of the keys as given: resolving adds defaults (a box's clamp) that
  // each object's own resolve decides again.
  if (objects) result.objects = objectScenes(result.scene, vm, objectConfig, objectCommandLine);
  result.scene.resolve();
  return result;
}

}  // namespace eis
