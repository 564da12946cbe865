#include "eis/mesh/mesh_file.hpp"

#include <cstdio>
#include <filesystem>

#include "eis/core/error.hpp"
#include "eis/core/input_file.hpp"
#include "eis/mesh/gmsh_reader.hpp"
#include "eis/mesh/vtk_reader.hpp"

namespace eis {
namespace {

enum class MeshFormat { kGmsh, kVtkLegacy, kVtu, kUnknown };

// The first bytes of the file, to tell the formats apart when the extension does not.
std::string fileStart(const std::string& path) {
  std::string start(256, '\0');
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (!file) return {};
  start.resize(std::fread(start.data(), 1, start.size(), file));
  std::fclose(file);
  return start;
}

MeshFormat formatOf(const std::string& path) {
  const std::string extension = std::filesystem::path(path).extension().string();
  if (extension == ".msh") return MeshFormat::kGmsh;
  if (extension == ".vtk") return MeshFormat::kVtkLegacy;
  if (extension == ".vtu") return MeshFormat::kVtu;
  const std::string start = fileStart(path);
  const std::size_t first = start.find_first_not_of(" \t\r\n");
  const std::string head = first == std::string::npos ? "" : start.substr(first);
  if (head.rfind("$MeshFormat", 0) == 0 || head.rfind("$NOD", 0) == 0) return MeshFormat::kGmsh;
  if (head.rfind("# vtk DataFile", 0) == 0) return MeshFormat::kVtkLegacy;
  if (head.rfind("<?xml", 0) == 0 || head.rfind("<VTKFile", 0) == 0) return MeshFormat::kVtu;
  return MeshFormat::kUnknown;
}

}  // namespace

SerialMesh readMeshFile(const std::string& path) {
  if (const std::string problem = inputFileProblem(path); !problem.empty())
    throw Error("cannot read mesh file '" + path + "': " + problem);
  switch (formatOf(path)) {
    case MeshFormat::kGmsh: return readGmsh(path);
    case MeshFormat::kVtkLegacy: return readVtkLegacy(path);
    case MeshFormat::kVtu: return readVtu(path);
    case MeshFormat::kUnknown: break;
  }
  throw Error("mesh file '" + path +
              "': unknown mesh format: the extension is none of .msh (Gmsh 1.0, 2.2, 4.1), .vtk "
              "(legacy VTK), .vtu (XML VTK), and neither are its first bytes");
}

}  // namespace eis
