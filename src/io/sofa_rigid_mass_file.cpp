// SOFA's rigid mass file (UniformMass<Rigid3>::loadFromFileRigidImpl, UniformMass.cpp): its first
// line is skipped; then keywords, each with its numbers: inrt (the 9 entries of the inertia
// matrix, row by row), vertexMass (the mass), volm (the volume), and cntr or center (3), frme
// (4), grav (3), visc, stck, step, prec (1 each), which SOFA reads and drops; a word beginning
// with # comments out the rest of its line. What the file does not give keeps the default
// vertexMass's (mass 1, volume 1, inertia I). A filename "unused" names no file, as in SOFA.
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

#include "eis/core/error.hpp"
#include "sofa_rigid.hpp"

namespace eis::sofa {

std::string rigidMassFromText(const std::string& text, const std::string& where) {
  std::vector<double> mass = {1, 1, 1, 0, 0, 0, 1, 0, 0, 0, 1};  // M, volume, inertia
  const std::map<std::string, int> dropped = {{"cntr", 3}, {"center", 3}, {"frme", 4}, {"grav", 3},
                                              {"visc", 1}, {"stck", 1},   {"step", 1}, {"prec", 1}};
  std::size_t at = text.find('\n');
  at = at == std::string::npos ? text.size() : at + 1;
  const auto skipSpace = [&] {
    while (at < text.size() && std::isspace(static_cast<unsigned char>(text[at]))) ++at;
  };
  const auto word = [&] {
    skipSpace();
    const std::size_t start = at;
    while (at < text.size() && !std::isspace(static_cast<unsigned char>(text[at]))) ++at;
    return text.substr(start, at - start);
  };
  const auto numbers = [&](const std::string& keyword, int count) {
    std::vector<double> values;
    for (int i = 0; i < count; ++i) {
      const std::string w = word();
      char* end = nullptr;
      const double value = w.empty() ? 0 : std::strtod(w.c_str(), &end);
      if (w.empty() || *end != '\0')
        throw Error(where + ": " + keyword + " needs " + std::to_string(count) + " number" +
                    (count > 1 ? "s" : "") + (w.empty() ? ", the file ends" : ", not '" + w + "'"));
      values.push_back(value);
    }
    return values;
  };
  for (std::string keyword = word(); !keyword.empty(); keyword = word()) {
    if (keyword[0] == '#') {
      while (at < text.size() && text[at] != '\n') ++at;
    } else if (keyword == "inrt") {
      const std::vector<double> inertia = numbers(keyword, 9);
      std::copy(inertia.begin(), inertia.end(), mass.begin() + 2);
    } else if (keyword == "vertexMass") {
      mass[0] = numbers(keyword, 1)[0];
    } else if (keyword == "volm") {
      mass[1] = numbers(keyword, 1)[0];
    } else if (dropped.count(keyword)) {
      numbers(keyword, dropped.at(keyword));
    } else {
      throw Error(where + ": unknown keyword '" + keyword +
                  "' (SOFA's rigid mass file has inrt, vertexMass, volm, cntr, center, frme, "
                  "grav, visc, stck, step, prec and # comments)");
    }
  }
  std::string out;
  for (double v : mass) out += (out.empty() ? "" : " ") + parse::text(v);
  return out;
}

std::string rigidMassFromFile(const std::string& path, const std::string& where) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in) throw Error(where + ": cannot read " + path);
  return rigidMassFromText(text.str(), where + ": " + path);
}

}  // namespace eis::sofa
