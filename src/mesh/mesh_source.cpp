#include "eis/mesh/mesh_source.hpp"

#include "eis/core/error.hpp"
#include "eis/core/tetra_geometry.hpp"
#include "eis/mesh/box_mesh.hpp"
#include "eis/mesh/gmsh_reader.hpp"

namespace eis {

const ComponentDeclaration& meshSourceComponent() {
  static const ComponentDeclaration component{
      "mesh", "mesh source", "a Gmsh mesh of tetrahedra, or the built-in box",
      ParameterSpec()
          .add(
              {"mesh.file", "PATH",
               "Gmsh mesh of tetrahedra (.msh 2.2 or 4.1, ASCII or binary); node ids are 0-based positions\n"
               "in its $Nodes section. Absent: the built-in box.",
               std::nullopt, "", false, check::anyText()})
          .add({"mesh.box-size", "\"LX LY LZ\"", "size of the built-in box, origin at 0; each > 0",
                "10 1 1", "length", false, check::positives(3)})
          .add(
              {"mesh.box-cells", "\"NX NY NZ\"",
               "cells per axis of the built-in box, each >= 1; each hexahedron is split into 6 tetrahedra",
               "20 4 4", "", false, check::integersAtLeast(3, 1)})
          .add({"mesh.refine", "N", "uniform refinements of the mesh after distribution, >= 0", "0",
                "", false, check::integerAtLeast(0)}),
      nullptr};
  return component;
}

namespace {

SerialMesh readOrBuild(const Parameters& scene) {
  const std::string file = scene.optionalText("mesh.file");
  if (!file.empty()) return readGmsh(file);
  return makeBoxMesh(scene.real3("mesh.box-size"), scene.integer3("mesh.box-cells"));
}

}  // namespace

SerialMesh loadSerialMesh(const Parameters& scene, MPI_Comm comm,
                          std::vector<std::string>& warnings) {
  int rank;
  EIS_CHECK_MPI(MPI_Comm_rank(comm, &rank));
  SerialMesh mesh;
  std::string failure;
  if (rank == 0) {
    try {
      mesh = readOrBuild(scene);
      std::string skipped;
      for (const auto& [type, count] : mesh.skippedElements)
        skipped += (skipped.empty() ? "" : ", ") + std::to_string(count) + " " + type;
      if (!skipped.empty())
        warnings.push_back("ignored elements that are not tetrahedra: " + skipped);
      std::int64_t inverted = 0;
      for (const auto& t : mesh.tets)
        inverted +=
            TetraShape(mesh.nodes[t[0]], mesh.nodes[t[1]], mesh.nodes[t[2]], mesh.nodes[t[3]])
                .signedVolume < 0;
      if (inverted > 0)
        warnings.push_back(
            std::to_string(inverted) +
            " tetrahedra are negatively oriented; kept as listed (absolute volume, as SOFA)");
    } catch (const Error& e) {
      failure = e.what();
    }
  }
  throwIfAnyRankFailed(failure, comm);
  return mesh;
}

}  // namespace eis
