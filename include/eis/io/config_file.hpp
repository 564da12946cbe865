#pragma once
// The INI config file that --config names, read line by line so that every error can name the
// file and the line: "[section]" starts a section, "key = value" sets "section.key" (a key
// before any section is taken whole, "mesh.file = beam.msh"). A comment starts with '#' or ';'
// at the start of a line (after blanks) or after a blank; blank lines are skipped; the value is
// what stays between '=' and the comment, blanks trimmed.
#include <string>
#include <vector>

namespace eis {

struct ConfigEntry {
  std::string key;    // "section.key"
  std::string value;  // as written, comment and surrounding blanks removed
  int line = 0;       // 1-based line of the file
};

// Reads every "key = value" of the file, in order. Throws eis::Error "config file FILE, line N:
// ..." for a line that is neither a section, a key = value, a comment nor blank, and a plain
// "config file FILE: ..." for a file that cannot be opened or is a SOFA XML scene (its first
// non-blank character is '<').
std::vector<ConfigEntry> readConfigFile(const std::string& file);

// Where the config file's relative paths start: its folder ("" for a file in the current one).
std::string configFolder(const std::string& file);

}  // namespace eis
