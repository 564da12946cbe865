#include "eis/model/quad_traction.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>

#include "eis/core/error.hpp"

namespace eis {

namespace {

const char* const kKey = "load.quad-traction";

using Point = std::array<double, 3>;

double triangleArea(const Point& a, const Point& b, const Point& c) {
  const Point u{b[0] - a[0], b[1] - a[1], b[2] - a[2]}, v{c[0] - a[0], c[1] - a[1], c[2] - a[2]};
  const Point n{u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
  return 0.5 * std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
}

using Quad = std::array<std::int64_t, 4>;  // input node ids, sorted

// Collective. The distinct faces of the local hexahedra whose four vertices `picked` holds, as
// sorted input ids with their rest area, gathered from every rank (a face two ranks hold is
// one entry).
std::map<Quad, double> selectedQuads(const DistributedMesh& mesh, const std::vector<char>& picked) {
  const Cells& cells = mesh.cells();
  const auto& ids = mesh.nodeIds();
  const auto& rest = mesh.restCoords();
  std::map<Quad, double> mine;
  for (std::size_t c = 0; c < cells.size(); ++c) {
    const auto cell = cells[c];
    for (const auto& face : facesOf(CellType::Hexahedron).slots) {
      std::array<PetscInt, 4> v;
      bool all = true;
      for (int k = 0; k < 4; ++k) {
        v[k] = cell[face[k]];
        all = all && picked[std::size_t(v[k])];
      }
      if (!all) continue;
      // The cycle from the vertex of smallest id, so both cells of a face cut it alike.
      int first = 0;
      for (int k = 1; k < 4; ++k)
        if (ids[v[k]] < ids[v[first]]) first = k;
      std::rotate(v.begin(), v.begin() + first, v.end());
      Quad key;
      for (int k = 0; k < 4; ++k) key[k] = ids[v[k]];
      std::sort(key.begin(), key.end());
      mine[key] = triangleArea(rest[v[0]], rest[v[1]], rest[v[2]]) +
                  triangleArea(rest[v[0]], rest[v[2]], rest[v[3]]);
    }
  }
  std::vector<double> rows;
  for (const auto& [key, area] : mine) {
    for (auto id : key) rows.push_back(double(id));
    rows.push_back(area);
  }
  int size;
  EIS_CHECK_MPI(MPI_Comm_size(mesh.comm(), &size));
  std::vector<int> counts(static_cast<std::size_t>(size)), displacements(counts.size(), 0);
  const int count = int(rows.size());
  EIS_CHECK_MPI(MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, mesh.comm()));
  for (std::size_t r = 1; r < counts.size(); ++r)
    displacements[r] = displacements[r - 1] + counts[r - 1];
  std::vector<double> all(std::size_t(displacements.back() + counts.back()));
  EIS_CHECK_MPI(MPI_Allgatherv(rows.data(), count, MPI_DOUBLE, all.data(), counts.data(),
                               displacements.data(), MPI_DOUBLE, mesh.comm()));
  std::map<Quad, double> quads;
  for (std::size_t i = 0; i < all.size(); i += 5)
    quads.emplace(Quad{std::int64_t(all[i]), std::int64_t(all[i + 1]), std::int64_t(all[i + 2]),
                       std::int64_t(all[i + 3])},
                  all[i + 4]);
  return quads;
}

}  // namespace

QuadTraction::QuadTraction(const DistributedMesh& mesh, const std::vector<Load>& loads) {
  if (mesh.cellType() != CellType::Hexahedron)
    throw Error(std::string(kKey) + ": quadrangles of hexahedra only, and this mesh has " +
                pluralNameOf(mesh.cellType()));
  std::unordered_map<std::int64_t, PetscInt> ownedOffsetOf;
  for (std::size_t v = 0; v < mesh.numLocalVertices(); ++v)
    if (mesh.owned()[v]) ownedOffsetOf[mesh.nodeIds()[v]] = mesh.ownedOffset(PetscInt(v));
  std::map<PetscInt, std::array<double, 3>> total;
  for (const Load& load : loads) {
    std::vector<char> picked(mesh.numLocalVertices(), 0);
    for (auto v : selectNodes(mesh, load.selection, load.key).vertices) picked[std::size_t(v)] = 1;
    const std::map<Quad, double> quads = selectedQuads(mesh, picked);
    quadsPerLoad_.push_back(std::int64_t(quads.size()));
    for (const auto& [key, area] : quads)
      for (auto id : key) {
        const auto found = ownedOffsetOf.find(id);
        if (found == ownedOffsetOf.end()) continue;
        auto& force = total[found->second];
        for (int d = 0; d < 3; ++d) force[d] += load.traction[d] * area / 4;
      }
  }
  for (const auto& [offset, force] : total) forces_.push_back({offset, force});
}

void QuadTraction::addNodalForce(double* fOwned) const {
  for (const NodalForce& node : forces_)
    for (int d = 0; d < 3; ++d) fOwned[node.offset + d] += node.force[d];
}

ForceFieldComponent quadTractionComponent() {
  return {
      {"quad-traction", "force field",
       "a constant traction on the quadrangles of a mesh of hexahedra (SOFA "
       "QuadPressureForceField)",
       ParameterSpec().add(
           {kKey, "\"TX TY TZ SELECTION\"",
            "a constant traction (TX TY TZ, force per unit rest area) on every face of the\n"
            "hexahedra, interior ones included, whose four vertices the node selection picks at\n"
            "rest: each vertex gets a quarter of the traction times the face's rest area, its\n"
            "two triangles cut from its vertex of smallest id (SOFA QuadPressureForceField, whose\n"
            "`pressure` is this vector, on a BoxROI's quadIndices). K = 0. SELECTION as for\n"
            "constraint.fixed. Hexahedra only. Repeatable; a selection that picks no face is a\n"
            "warning.",
            std::nullopt, "pressure", true, selectionValueCheck(3)}),
       nullptr},
      Physics::Elasticity,
      forceFieldMaker(readQuadTractionParameters, makeQuadTraction)};
}

QuadTractionParameters readQuadTractionParameters(const Parameters& scene) {
  QuadTractionParameters parameters;
  for (const std::string& text : scene.texts(kKey)) {
    const SelectionValue value = parseSelectionValue(kKey, text, 3);
    parameters.loads.push_back(
        {{value.numbers[0], value.numbers[1], value.numbers[2]}, value.selection, kKey, text});
  }
  return parameters;
}

std::unique_ptr<ForceField> makeQuadTraction(const ModelContext& context,
                                             const QuadTractionParameters& parameters) {
  if (parameters.loads.empty()) return nullptr;
  auto field = std::make_unique<QuadTraction>(context.mesh, parameters.loads);
  for (std::size_t i = 0; i < parameters.loads.size(); ++i)
    if (field->quadsPerLoad()[i] == 0)
      context.warnings.push_back(kKey + std::string(" = ") + parameters.loads[i].text +
                                 " selects no quadrangle");
  return field;
}

const RegisterForceField registered(461, quadTractionComponent);

}  // namespace eis
