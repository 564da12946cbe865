#include "sofa_gid_mesh.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

#include "eis/core/error.hpp"
#include "eis/core/parameters.hpp"

namespace eis::sofa {

namespace {

struct GidType {
  const char* name;
  CellType type;
  std::vector<int> nodes;  // the Nnode values SOFA accepts
};

const GidType kTypes[] = {{"Linear", CellType::Edge, {2, 3}},
                          {"Triangle", CellType::Triangle, {3, 6}},
                          {"Quadrilateral", CellType::Quadrangle, {4, 8, 9}},
                          {"Tetrahedra", CellType::Tetrahedron, {4, 10}},
                          {"Hexahedra", CellType::Hexahedron, {8, 20, 27}}};

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

}  // namespace

SerialMesh readGidMesh(const std::string& path) {
  std::ifstream file(path);
  if (!file) throw Error(path + ": cannot open the GiD mesh");
  long long number = 0;
  std::string line;
  const auto fail = [&](const std::string& why) -> void {
    throw Error(path + ":" + std::to_string(number) + ": GiD mesh: " + why);
  };
  const auto next = [&] {
    ++number;
    return bool(std::getline(file, line));
  };
  if (!next()) fail("empty file");
  std::istringstream header(line);
  std::string word;
  header >> word;
  if (word != "MESH") fail("expected a header line starting with MESH");
  while (header >> word && word != "dimension") {
  }
  int dimension = 0;
  if (word != "dimension" || !(header >> dimension) || dimension < 1 || dimension > 3)
    fail("expected 'dimension' and 1, 2 or 3 in the header");
  std::string element;
  int nodes = 0;
  if (!(header >> word) || word != "ElemType" || !(header >> element))
    fail("expected 'ElemType' and an element type after the dimension");
  const GidType* type = nullptr;
  for (const GidType& t : kTypes)
    if (element == t.name) type = &t;
  if (!type)
    fail("element type '" + element +
         "': SOFA reads Linear, Triangle, Quadrilateral, Tetrahedra and Hexahedra");
  if (!(header >> word) || word != "Nnode" || !(header >> nodes) ||
      std::find(type->nodes.begin(), type->nodes.end(), nodes) == type->nodes.end())
    fail("expected 'Nnode' and a node count SOFA allows for " + element);
  const auto skipTo = [&](const char* keyword) {
    while (next())
      if (lower(line) == keyword) return;
    fail(std::string("no line '") + keyword + "'");
  };
  SerialMesh mesh;
  mesh.cells = SerialCells(type->type);
  skipTo("coordinates");
  while (true) {
    if (!next()) fail("no line 'end coordinates'");
    if (lower(line) == "end coordinates") break;
    std::istringstream in(line);
    long long id = 0;
    std::array<double, 3> x = {0, 0, 0};
    if (!(in >> id)) fail("expected a point id and " + std::to_string(dimension) + " coordinates");
    for (int d = 0; d < dimension; ++d)
      if (!(in >> x[d])) fail("expected " + std::to_string(dimension) + " coordinates");
    mesh.nodes.push_back(x);
  }
  skipTo("elements");
  const int corners = cornersOf(type->type);
  while (true) {
    if (!next()) fail("no line 'end elements'");
    if (lower(line) == "end elements") break;
    std::istringstream in(line);
    long long id = 0;
    std::vector<std::int64_t> cell(corners);
    in >> id;
    for (std::int64_t& v : cell) {
      long long point = 0;
      if (!(in >> point)) fail("expected " + std::to_string(corners) + " point numbers");
      if (point < 1 || point > static_cast<long long>(mesh.nodes.size()))
        fail("point " + std::to_string(point) + " of " + std::to_string(mesh.nodes.size()));
      v = point - 1;
    }
    mesh.cells.push_back(cell);
  }
  if (mesh.cells.empty()) fail("no elements");
  return mesh;
}

void mapGidMesh(Reader& reader, const std::string& path) {
  const SerialMesh mesh = readGidMesh(path);
  std::string nodes, cells;
  for (const auto& p : mesh.nodes)
    for (double x : p) nodes += (nodes.empty() ? "" : " ") + parse::text(x);
  for (std::int64_t id : mesh.cells.flat())
    cells += (cells.empty() ? "" : " ") + std::to_string(id);
  reader.key("mesh.nodes", nodes);
  const CellType type = mesh.cells.type();
  reader.key(type == CellType::Tetrahedron  ? "mesh.tetrahedra"
             : type == CellType::Hexahedron ? "mesh.hexahedra"
             : type == CellType::Triangle   ? "mesh.triangles"
             : type == CellType::Quadrangle ? "mesh.quadrangles"
                                            : "mesh.edges",
             cells);
}

}  // namespace eis::sofa
