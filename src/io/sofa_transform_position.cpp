// SOFA's TransformPosition (TransformPosition.inl, doUpdate and the three file readers) as
// mesh.transform operations: each method's arithmetic, in SOFA's order, is one or a few of
// mesh/mesh_transform's operations, which give the same numbers.
#include "sofa_transform_position.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <vector>

#include "eis/core/parameters.hpp"
#include "sofa_data_fields.hpp"

namespace eis::sofa {
namespace {

using Matrix = std::array<double, 16>;  // 4 x 4, row by row
constexpr Matrix kIdentity = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};

// A line's words as SOFA's readers split it: strtok on spaces only (a tab stays in a word).
std::vector<std::string> words(const std::string& line) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < line.size()) {
    const std::size_t space = line.find(' ', start);
    const std::size_t end = space == std::string::npos ? line.size() : space;
    if (end > start) out.push_back(line.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

// A word as hardening::safeStrToScalar reads it: strtold of its start (what follows the number
// is ignored), then rounded to double; false where SOFA reports an error, and for a number that
// is not finite (no mesh is moved by one).
bool number(const std::string& word, double& value) {
  char* end = nullptr;
  errno = 0;
  const long double v = std::strtold(word.c_str(), &end);
  if (errno != 0 || end == word.c_str()) return false;
  value = static_cast<double>(v);
  return std::isfinite(value);
}

class FileReader {
public:
  FileReader(const Reader& reader, const SofaObject& engine, std::string path)
      : reader_(reader), engine_(engine), path_(std::move(path)) {}

  // The .tfm file: the first line holding "Parameters"; its words with a digit, '.' or '-' are
  // 12 numbers, the 3 x 3 matrix row by row, then the translation, which SOFA reads from the last
  // number back (M03 = the 12th, M13 the 11th, M23 the 10th).
  Matrix tfm() {
    std::ifstream in = open();
    Matrix m = kIdentity;
    std::string line;
    for (std::size_t n = 1; std::getline(in, line); ++n) {
      if (line.find("Parameters") == std::string::npos) continue;
      std::vector<double> values;
      for (const std::string& w : words(line)) {
        if (w.find_first_of("1234567890.-") == std::string::npos) continue;
        values.push_back(parsed(n, w));
      }
      if (values.size() != 12)
        fail(n, std::to_string(values.size()) +
                    " numbers; expected 12 (a 3 x 3 matrix row by row, then a translation)");
      for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) m[4 * i + j] = values[3 * i + j];
        m[4 * i + 3] = values[11 - i];
      }
      return m;
    }
    fail(0, "no line holds 'Parameters' (the transform's 12 numbers)");
  }

  // The .trm file: its first non-empty line the translation, the next three the rows of the
  // rotation matrix, 3 numbers each; rows not given stay the identity's (SOFA says nothing).
  Matrix trm() {
    return rows(3, [](Matrix& m, std::size_t row, int i, double v) {
      if (row == 0)
        m[4 * i + 3] = v;
      else
        m[4 * (row - 1) + i] = v;
    });
  }

  // The .xfm and .txt files: up to 4 non-empty lines of 4 numbers, the matrix's rows.
  Matrix xfm() {
    return rows(4, [](Matrix& m, std::size_t row, int i, double v) { m[4 * row + i] = v; });
  }

private:
  std::ifstream open() const {
    std::ifstream in(path_);
    if (!in) fail(0, "cannot be opened");
    return in;
  }

  template <class Set>
  Matrix rows(int perLine, const Set& set) {
    std::ifstream in = open();
    Matrix m = kIdentity;
    std::string line;
    std::size_t row = 0;
    for (std::size_t n = 1; std::getline(in, line); ++n) {
      if (line.empty()) continue;
      if (row == 4) fail(n, "more than 4 lines");
      const std::vector<std::string> w = words(line);
      if (w.size() != static_cast<std::size_t>(perLine))
        fail(n, std::to_string(w.size()) + " words; expected a line of " + std::to_string(perLine) +
                    " numbers");
      for (int i = 0; i < perLine; ++i) set(m, row, i, parsed(n, w[i]));
      ++row;
    }
    return m;
  }

  double parsed(std::size_t n, const std::string& word) const {
    double v = 0;
    if (!number(word, v)) fail(n, "'" + word + "' is not a finite number");
    return v;
  }

  [[noreturn]] void fail(std::size_t n, const std::string& why) const {
    reader_.reject(engine_, "filename",
                   path_ + (n ? ":" + std::to_string(n) : std::string()) + ": " + why);
  }

  const Reader& reader_;
  const SofaObject& engine_;
  std::string path_;
};

}  // namespace

void mapTransformPosition(Reader& reader, const SofaObject& engine,
                          const std::function<std::string()>& findFile) {
  checkDataFields(reader, engine, false);
  const std::string tmpl = reader.text(engine, "template").value_or("Vec3d");
  if (tmpl != "Vec3d" && tmpl != "Vec3")
    reader.reject(engine, "template", "SOFA has TransformPosition for Vec3d only");
  const std::vector<long long> fixed = reader.integers(engine, "fixedIndices");
  if (!fixed.empty())
    reader.reject(engine, "fixedIndices",
                  "points left in place while the others move: not supported yet");
  const auto three = [&](const char* field, double fallback) {
    std::vector<double> v = reader.reals(engine, field);
    if (v.empty()) v.assign(3, fallback);
    if (v.size() != 3) reader.reject(engine, field, "expected three numbers");
    return v;
  };
  const auto operation = [&](const std::string& name, const std::vector<double>& v) {
    const double neutral = name == "scale" ? 1 : 0;
    if (v[0] == neutral && v[1] == neutral && v[2] == neutral) return;
    reader.key("mesh.transform",
               name + " " + parse::text(v[0]) + " " + parse::text(v[1]) + " " + parse::text(v[2]));
  };
  const std::vector<double> translation = three("translation", 0), rotation = three("rotation", 0),
                            scale = three("scale", 1), origin = three("origin", 0);
  // SOFA's OptionsGroup keeps its first item, projectOnPlane, when the method is not given.
  const std::string method = reader.text(engine, "method").value_or("projectOnPlane");
  Matrix m = kIdentity;
  if (method == "translation") {
    operation("translate", translation);
  } else if (method == "rotation") {
    // q = Quat::createQuaterFromEuler(rotation * pi / 180), then q.rotate(x).
    operation("rotate", rotation);
  } else if (method == "scale") {
    // origin + (x - origin) * scale, component by component.
    operation("translate", {-origin[0], -origin[1], -origin[2]});
    operation("scale", scale);
    operation("translate", origin);
  } else if (method == "scaleTranslation") {
    operation("scale", scale);
    operation("translate", translation);
  } else if (method == "scaleRotationTranslation") {
    operation("scale", scale);
    operation("rotate", rotation);
    operation("translate", translation);
  } else if (method == "affine") {
    const std::vector<double> given = reader.reals(engine, "matrix");
    if (!given.empty() && given.size() != 16)
      reader.reject(engine, "matrix", "expected the 16 numbers of a 4 x 4 matrix, row by row");
    if (!given.empty()) std::copy(given.begin(), given.end(), m.begin());
  } else if (method == "fromFile") {
    const std::optional<std::string> name = reader.text(engine, "filename");
    if (!name) reader.reject(engine, "method", "fromFile without a filename");
    const bool trm = endsWith(*name, ".trm"), tfm = endsWith(*name, ".tfm");
    if (!trm && !tfm && !endsWith(*name, ".xfm") && !endsWith(*name, ".txt"))
      reader.reject(engine, "filename",
                    "SOFA reads only .tfm, .trm, .xfm and .txt transform files");
    FileReader file(reader, engine, findFile());
    m = trm ? file.trm() : tfm ? file.tfm() : file.xfm();
  } else if (method == "projectOnPlane") {
    reader.reject(
        engine, "method",
        "projectOnPlane (SOFA's default) flattens the grid onto a plane: the body's cells "
        "would have no volume");
  } else if (method == "random") {
    reader.reject(engine, "method",
                  "random: SOFA draws a point's three displacements as the three arguments of one "
                  "constructor call, whose order of evaluation C++ leaves to the compiler (GCC "
                  "and Clang differ): not reproduced");
  } else {
    reader.reject(engine, "method",
                  "unknown; SOFA's are projectOnPlane, translation, rotation, random, scale, "
                  "scaleTranslation, scaleRotationTranslation, affine and fromFile");
  }
  if (m == kIdentity) return;
  // The affine method: (M (x, 1)) divided by its fourth entry, which is 1 when the fourth row is
  // 0 0 0 1; the first three entries are each row's products summed left to right, as
  // mesh.transform's matrix computes them.
  const char* field = method == "affine" ? "matrix" : "filename";
  if (m[12] != 0 || m[13] != 0 || m[14] != 0 || m[15] != 1)
    reader.reject(engine, field,
                  "a fourth row other than 0 0 0 1 (SOFA divides by the fourth entry): not "
                  "supported");
  std::string text = "matrix";
  for (int i = 0; i < 12; ++i) text += " " + parse::text(m[i]);
  reader.key("mesh.transform", text);
}

}  // namespace eis::sofa
