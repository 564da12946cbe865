// Boost.Program_options reads the command line, with our syntax (ArgumentSyntax) and the keys of
// the components' declarations; PETSc's single-dash options pass through it unregistered and go
// aside with their values. config_file.cpp reads the INI file, whose keys the command line
// overrides one by one.
#include "eis/io/command_line.hpp"

#include <boost/program_options.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "eis/core/error.hpp"
#include "eis/core/nearest_name.hpp"
#include "eis/io/config_file.hpp"
#include "eis/io/scene_checks.hpp"

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

std::vector<std::string> longNames(const po::options_description& options) {
  std::vector<std::string> names;
  for (const auto& d : options.options()) names.push_back(d->long_name());
  return names;
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

// Our syntax, as Boost's style parser: Boost's own long options cannot take a separate value
// that starts with '-' ("--load.gravity -1,0,0") nor an empty adjacent one ("--output.vtk="
// clears a path the config file set). "--name=value", "--name value" (a value that does not
// start with "--") and "--flag" are ours; a PETSc option is a single-dash token with the one
// value that follows it (a token that does not start with '-', or a negative number), as
// PetscInitialize reads it; any other token is positional. It reads every argument in one call:
// Boost would take whatever follows an option left without its value as the value, even
// "--solver.steps=3", where we say the value is missing.
class ArgumentSyntax {
public:
  explicit ArgumentSyntax(const po::options_description& options) : options_(&options) {}

  std::vector<po::option> operator()(std::vector<std::string>& args) const {
    std::vector<po::option> read;
    for (std::size_t i = 0; i < args.size(); ++i) {
      po::option option;
      const std::string& token = args[i];
      option.original_tokens = {token};
      // The next argument as the option's value, when `fits` says it can be one.
      const auto takeNext = [&](auto fits) {
        if (i + 1 == args.size() || !fits(args[i + 1])) return;
        option.value = {args[++i]};
        option.original_tokens.push_back(args[i]);
      };
      if (startsWith(token, "--")) {
        const std::size_t equals = token.find('=');
        option.string_key = token.substr(2, equals == std::string::npos ? equals : equals - 2);
        if (equals != std::string::npos)
          option.value = {token.substr(equals + 1)};
        else if (takesValue(option.string_key))
          takeNext([](const std::string& next) { return !startsWith(next, "--"); });
      } else if (startsWith(token, "-") && !isNegativeNumber(token)) {
        option.string_key = token;  // registered nowhere: Boost passes it on as unregistered
        takeNext([](const std::string& next) {
          return !startsWith(next, "-") || isNegativeNumber(next);
        });
      } else {
        option.value = {token};
      }
      read.push_back(std::move(option));
    }
    args.clear();
    return read;
  }

private:
  // A flag takes no separate value; an unknown name does, so that its value is not read as the
  // next argument. Boost matches an empty name with every option (their short names are empty).
  bool takesValue(const std::string& name) const {
    const po::option_description* d = name.empty() ? nullptr : options_->find_nothrow(name, false);
    return !d || d->semantic()->max_tokens() > 0;
  }

  const po::options_description* options_;
};

// Boost's errors in today's words; Boost names the option as written ("--solver.dt"). Any other
// error of Boost's (none is expected of our arguments) keeps its own words.
Error ourError(const po::error& e) {
  if (const auto* repeated = dynamic_cast<const po::multiple_occurrences*>(&e))
    return Error(repeated->get_option_name() + ": given more than once");
  if (const auto* syntax = dynamic_cast<const po::invalid_command_line_syntax*>(&e)) {
    if (syntax->kind() == po::invalid_command_line_syntax::missing_parameter)
      return Error(syntax->get_option_name() + ": missing value");
    if (syntax->kind() == po::invalid_command_line_syntax::extra_parameter)
      return Error(syntax->get_option_name() + ": takes no value");
  }
  return Error(e.what());
}

// Boost reads argv[1..] with our syntax: it looks each long name up, refuses a value given to a
// flag or missing for a key, and passes unregistered names (PETSc's options, objects' keys,
// unknown keys) on to sortArguments. It refuses those values while it reads, so of several
// errors on one line such a one is reported before an unknown name or a stray argument.
po::parsed_options readArguments(int argc, const char* const argv[],
                                 const po::options_description& options) {
  // Whole names, case counting: Boost's default style (also that of style 0) guesses a name from
  // its start, so that "--solver.d" would be --solver.dt.
  const int style =
      po::command_line_style::allow_long | po::command_line_style::long_allow_adjacent;
  try {
    return po::command_line_parser(argc, argv)
        .options(options)
        .style(style)
        .extra_style_parser(ArgumentSyntax(options))
        .allow_unregistered()
        .run();
  } catch (const po::error& e) {
    throw ourError(e);
  }
}

// What Boost passed on, in argv's order: PETSc's options go to `petsc`, with their values; an
// object's keys ("--NAME/section.key") to `objectValues`; an unknown name, or a token that is no
// option, is an error.
void sortArguments(const po::parsed_options& parsed, const Scene& scene, Texts& petsc,
                   std::vector<ObjectValue>& objectValues) {
  for (const po::option& option : parsed.options) {
    const std::string& token = option.original_tokens.front();
    const bool ours = startsWith(token, "--");
    if (option.string_key.empty() && !ours)
      throw Error("unexpected argument '" + token + "' (ours start with --, PETSc's with -)");
    if (!ours) {
      petsc.insert(petsc.end(), option.original_tokens.begin(), option.original_tokens.end());
      continue;
    }
    if (!option.unregistered && !option.string_key.empty()) continue;  // stored by Boost
    const std::string shown = "--" + option.string_key;
    std::string object, key = option.string_key;
    const bool ofObject = splitObjectKey(option.string_key, object, key);
    if (!ofObject || !scene.spec().find(key)) {
      const std::vector<std::string> names =
          ofObject ? keysOf(scene) : longNames(*parsed.description);
      throw Error("unknown option " + printable(shown, 80) +
                  suggestion(key, names, "--" + (ofObject ? object + "/" : std::string())));
    }
    if (option.value.empty()) throw Error(shown + ": missing value");
    objectValues.push_back({object, key, option.value.front()});
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
      throw Error(where + "unknown key " + printable(entry.key, 80) +
                  suggestion(key, keysOf(scene), ""));
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
      checkScene(scene);
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
  const po::parsed_options parsed = readArguments(argc, argv, options);
  std::vector<ObjectValue> objectConfig, objectCommandLine;
  sortArguments(parsed, result.scene, result.petscArgs, objectCommandLine);

  po::variables_map vm;
  try {
    po::store(parsed, vm);  // scene keys take any number of occurrences; the others, one
  } catch (const po::error& e) {
    throw ourError(e);
  }
  result.help = vm.count("help") > 0;
  result.version = vm.count("version") > 0;
  if (result.help || result.version) return result;
  if (vm.count("config")) {
    result.configFile = vm["config"].as<std::string>();
    applyConfigFile(result.configFile, vm, result.scene, objectConfig);
  }
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
  checkScene(result.scene);
  return result;
}

}  // namespace eis
