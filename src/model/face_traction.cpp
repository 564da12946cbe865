#include "eis/model/face_traction.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>

#include "eis/core/error.hpp"
#include "eis/core/mpi_chunks.hpp"

namespace eis {

namespace {

const char* const kKey = "load.face-traction";

using Point = std::array<double, 3>;

double triangleArea(const Point& a, const Point& b, const Point& c) {
  const Point u{b[0] - a[0], b[1] - a[1], b[2] - a[2]}, v{c[0] - a[0], c[1] - a[1], c[2] - a[2]};
  const Point n{u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
  return 0.5 * std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
}

using Face = std::array<std::int64_t, 4>;  // input node ids, sorted; -1 first for a triangle

// Collective. The distinct faces of the local cells whose vertices `picked` all holds, as sorted
// input ids with their rest area, gathered from every rank (a face two ranks hold is one entry).
std::map<Face, double> selectedFaces(const DistributedMesh& mesh, const std::vector<char>& picked) {
  const Cells& cells = mesh.cells();
  const CellType type = cells.type();
  const auto& ids = mesh.nodeIds();
  const auto& rest = mesh.restCoords();
  std::map<Face, double> mine;
  for (std::size_t c = 0; c < cells.size(); ++c) {
    const auto cell = cells[c];
    for (int f = 0; f < facesOf(type).count; ++f) {
      const int n = faceSize(type, f);
      std::array<PetscInt, 4> v{};
      bool all = true;
      for (int k = 0; k < n; ++k) {
        v[k] = cell[facesOf(type).slots[f][k]];
        all = all && picked[std::size_t(v[k])];
      }
      if (!all) continue;
      // The cycle from the vertex of smallest id, so both cells of a face cut it alike.
      int first = 0;
      for (int k = 1; k < n; ++k)
        if (ids[v[k]] < ids[v[first]]) first = k;
      std::rotate(v.begin(), v.begin() + first, v.begin() + n);
      Face key{-1, -1, -1, -1};
      for (int k = 0; k < n; ++k) key[k] = ids[v[k]];
      std::sort(key.begin(), key.end());
      double area = triangleArea(rest[v[0]], rest[v[1]], rest[v[2]]);
      if (n == 4) area += triangleArea(rest[v[0]], rest[v[2]], rest[v[3]]);
      mine[key] = area;
    }
  }
  std::vector<double> rows;
  for (const auto& [key, area] : mine) {
    for (auto id : key) rows.push_back(double(id));
    rows.push_back(area);
  }
  const std::vector<double> all = allGatherChunks(rows, MPI_DOUBLE, mesh.comm());
  std::map<Face, double> faces;
  for (std::size_t i = 0; i < all.size(); i += 5)
    faces.emplace(Face{std::int64_t(all[i]), std::int64_t(all[i + 1]), std::int64_t(all[i + 2]),
                       std::int64_t(all[i + 3])},
                  all[i + 4]);
  return faces;
}

}  // namespace

FaceTraction::FaceTraction(const DistributedMesh& mesh, const std::vector<Load>& loads) {
  if (mesh.cellType() != CellType::Hexahedron && mesh.cellType() != CellType::Tetrahedron)
    throw Error(std::string(kKey) + ": faces of tetrahedra or hexahedra only, and this mesh has " +
                pluralNameOf(mesh.cellType()));
  std::unordered_map<std::int64_t, PetscInt> ownedOffsetOf;
  for (std::size_t v = 0; v < mesh.numLocalVertices(); ++v)
    if (mesh.owned()[v]) ownedOffsetOf[mesh.nodeIds()[v]] = mesh.ownedOffset(PetscInt(v));
  std::map<PetscInt, std::array<double, 3>> total;
  for (const Load& load : loads) {
    std::vector<char> picked(mesh.numLocalVertices(), 0);
    for (auto v : selectNodes(mesh, load.selection, load.key).vertices) picked[std::size_t(v)] = 1;
    const std::map<Face, double> faces = selectedFaces(mesh, picked);
    facesPerLoad_.push_back(std::int64_t(faces.size()));
    for (const auto& [key, area] : faces) {
      const double share = area / (key[0] < 0 ? 3 : 4);
      for (auto id : key) {
        const auto found = ownedOffsetOf.find(id);
        if (id < 0 || found == ownedOffsetOf.end()) continue;
        auto& force = total[found->second];
        for (int d = 0; d < 3; ++d) force[d] += load.traction[d] * share;
      }
    }
  }
  for (const auto& [offset, force] : total) forces_.push_back({offset, force});
}

void FaceTraction::addNodalForce(double* fOwned) const {
  for (const NodalForce& node : forces_)
    for (int d = 0; d < 3; ++d) fOwned[node.offset + d] += node.force[d];
}

ForceFieldComponent faceTractionComponent() {
  return {
      {"face-traction", "force field",
       "a constant traction on the faces of a mesh of tetrahedra or hexahedra (SOFA "
       "TrianglePressureForceField, QuadPressureForceField)",
       ParameterSpec().add(
           {kKey, "\"TX TY TZ SELECTION\"",
            "a constant traction (TX TY TZ, force per unit rest area) on every face of the\n"
            "cells, interior ones included, whose vertices the node selection all picks at rest:\n"
            "each vertex of a face gets the traction times the face's rest area over its vertex\n"
            "count (SOFA TrianglePressureForceField on a TetrahedronSetTopologyContainer's\n"
            "triangles, QuadPressureForceField on hexahedra's quads, a quadrangle's two\n"
            "triangles cut from its vertex of smallest id; their `pressure` is this vector, their\n"
            "faces a ROI's triangleIndices or quadIndices). K = 0. SELECTION as for\n"
            "constraint.fixed. Repeatable; a selection that picks no face is a warning.",
            std::nullopt, "pressure", true, selectionValueCheck(3)}),
       nullptr},
      Physics::Elasticity,
      forceFieldMaker(readFaceTractionParameters, makeFaceTraction)};
}

FaceTractionParameters readFaceTractionParameters(const Parameters& scene) {
  FaceTractionParameters parameters;
  for (const std::string& text : scene.texts(kKey)) {
    const SelectionValue value = parseSelectionValue(kKey, text, 3);
    parameters.loads.push_back(
        {{value.numbers[0], value.numbers[1], value.numbers[2]}, value.selection, kKey, text});
  }
  return parameters;
}

std::unique_ptr<ForceField> makeFaceTraction(const ModelContext& context,
                                             const FaceTractionParameters& parameters) {
  if (parameters.loads.empty()) return nullptr;
  auto field = std::make_unique<FaceTraction>(context.mesh, parameters.loads);
  for (std::size_t i = 0; i < parameters.loads.size(); ++i)
    if (field->facesPerLoad()[i] == 0)
      context.warnings.push_back(kKey + std::string(" = ") + parameters.loads[i].text +
                                 " selects no face");
  return field;
}

const RegisterForceField registered(461, faceTractionComponent);

}  // namespace eis
