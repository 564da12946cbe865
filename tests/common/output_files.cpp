#include "output_files.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "vtu_reader.hpp"

namespace fs = std::filesystem;

namespace eis_test {

namespace {

constexpr double kPi = 3.14159265358979323846;

}  // namespace

std::vector<std::array<std::int64_t, 4>> BoxGeometry::sortedTets() const {
  std::vector<std::array<std::int64_t, 4>> tets;
  static const int split[6][4] = {{0, 1, 2, 6}, {0, 2, 3, 6}, {0, 3, 7, 6},
                                  {0, 7, 4, 6}, {0, 4, 5, 6}, {0, 5, 1, 6}};
  for (int k = 0; k < cells[2]; ++k)
    for (int j = 0; j < cells[1]; ++j)
      for (int i = 0; i < cells[0]; ++i) {
        const std::int64_t v[8] = {
            id(i, j, k),     id(i + 1, j, k),     id(i + 1, j + 1, k),     id(i, j + 1, k),
            id(i, j, k + 1), id(i + 1, j, k + 1), id(i + 1, j + 1, k + 1), id(i, j + 1, k + 1)};
        for (const auto& t : split) {
          std::array<std::int64_t, 4> tet = {v[t[0]], v[t[1]], v[t[2]], v[t[3]]};
          std::sort(tet.begin(), tet.end());
          tets.push_back(tet);
        }
      }
  std::sort(tets.begin(), tets.end());
  return tets;
}

eis_test::SceneFields smallBeam() {
  eis_test::SceneFields scene = eis_test::cantilever({3, 1, 1}, {6, 2, 2}, 1e4);
  scene.dt = 0.01;
  scene.steps = 4;
  scene.outputEvery = 2;
  return scene;
}

eis_test::SceneFields smallBar() {
  eis_test::SceneFields scene;
  scene.physics = eis::Physics::Diffusion;
  scene.firstOrder = true;
  scene.boxSize = {1, 0.2, 0.2};
  scene.boxCells = {6, 2, 2};
  scene.fixedBoxes = {{{0, 0, 0}, {0, 0.2, 0.2}}, {{1, 0, 0}, {1, 0.2, 0.2}}};
  scene.dt = 0.01;
  scene.steps = 4;
  return scene;
}

std::vector<std::string> lines(const fs::path& path) {
  std::vector<std::string> result;
  std::istringstream in(vtu::readText(path));
  for (std::string line; std::getline(in, line);) result.push_back(line);
  return result;
}

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> fields;
  std::size_t begin = 0;
  for (std::size_t comma; (comma = line.find(',', begin)) != std::string::npos; begin = comma + 1)
    fields.push_back(line.substr(begin, comma - begin));
  fields.push_back(line.substr(begin));
  return fields;
}

bool parseNumber(const std::string& text, double& value) {
  if (text.empty()) return false;
  char* end = nullptr;
  const double parsed = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size()) return false;
  value = parsed;
  return true;
}

StateFile readStateFile(const fs::path& path) {
  StateFile file;
  const std::vector<std::string> text = lines(path);
  if (text.empty()) {
    ADD_FAILURE() << path << " is empty";
    return file;
  }
  file.header = split(text[0]);
  file.width = int(file.header.size()) - 1;
  for (std::size_t n = 1; n < text.size(); ++n) {
    const std::vector<std::string> fields = split(text[n]);
    if (int(fields.size()) != file.width + 1) {
      ADD_FAILURE() << path << " line " << n + 1 << ": " << fields.size() << " fields: " << text[n];
      return file;
    }
    double id = -1;
    if (!parseNumber(fields[0], id) || id != std::floor(id)) {
      ADD_FAILURE() << path << " line " << n + 1 << ": bad id " << fields[0];
      return file;
    }
    file.ids.push_back(std::int64_t(id));
    for (int c = 1; c <= file.width; ++c) {
      double value = 0;
      if (!parseNumber(fields[c], value)) {
        ADD_FAILURE() << path << " line " << n + 1 << ": bad number '" << fields[c] << "'";
        return file;
      }
      file.values.push_back(value);
      file.texts.push_back(fields[c]);
    }
  }
  return file;
}

int writeBarInitialState(const std::string& path, const BoxGeometry& box) {
  std::FILE* out = std::fopen(path.c_str(), "w");
  if (!out) return 0;
  std::fprintf(out, "id,u,du\n");
  for (std::int64_t id = 0; id < box.numNodes(); ++id) {
    const auto p = box.rest(id);
    const double u =
        std::sin(kPi * p[0]) + 0.5 * std::sin(3 * kPi * p[0]) + 0.25 + 2 * p[1] - p[2] * p[0];
    std::fprintf(out, "%lld,%.17g,%.17g\n", static_cast<long long>(id), u, 0.1 * p[0] - 0.3);
  }
  return std::fclose(out) == 0;
}

}  // namespace eis_test
