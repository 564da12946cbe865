#include "eis/io/config_file.hpp"

#include <filesystem>
#include <fstream>

#include "eis/core/error.hpp"
#include "eis/core/input_file.hpp"

namespace eis {
namespace {

const char* const kBlanks = " \t\r";
const char* const kByteOrderMark = "\xEF\xBB\xBF";  // UTF-8's, that some editors write first

std::string trimmed(const std::string& text) {
  const std::size_t first = text.find_first_not_of(kBlanks);
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(kBlanks) - first + 1);
}

// The line without its comment: from a '#' or ';' that starts the line or follows a blank.
std::string withoutComment(const std::string& line) {
  for (std::size_t i = 0; i < line.size(); ++i)
    if ((line[i] == '#' || line[i] == ';') && (i == 0 || line[i - 1] == ' ' || line[i - 1] == '\t'))
      return line.substr(0, i);
  return line;
}

}  // namespace

std::vector<ConfigEntry> readConfigFile(const std::string& file) {
  if (const std::string problem = inputFileProblem(file); !problem.empty())
    throw Error("config file " + file + ": " + problem);
  std::ifstream in(file);
  if (!in) throw Error("config file " + file + ": cannot be opened");
  std::vector<ConfigEntry> entries;
  std::string section, raw;
  bool first = true;
  for (int number = 1; std::getline(in, raw); ++number) {
    if (number == 1 && raw.rfind(kByteOrderMark, 0) == 0) raw.erase(0, 3);
    const std::string line = trimmed(withoutComment(raw));
    if (first && !trimmed(raw).empty()) {
      first = false;
      if (trimmed(raw)[0] == '<')
        throw Error("config file " + file +
                    ": is a SOFA XML scene; --config takes INI files of section.key = value "
                    "lines (README.md, Running)");
    }
    if (line.empty()) continue;
    const std::string where = "config file " + file + ", line " + std::to_string(number) + ": ";
    if (line.front() == '[') {
      if (line.back() != ']' || trimmed(line.substr(1, line.size() - 2)).empty())
        throw Error(where + "invalid section '" + printable(line, 80) + "' (expected [name])");
      section = trimmed(line.substr(1, line.size() - 2));
      continue;
    }
    const std::size_t equals = line.find('=');
    const std::string name = equals == std::string::npos ? "" : trimmed(line.substr(0, equals));
    if (name.empty())
      throw Error(where + "invalid line '" + printable(line, 80) + "' (expected key = value)");
    entries.push_back(
        {section.empty() ? name : section + "." + name, trimmed(line.substr(equals + 1)), number});
  }
  return entries;
}

std::string configFolder(const std::string& file) {
  return std::filesystem::path(file).parent_path().string();
}

}  // namespace eis
