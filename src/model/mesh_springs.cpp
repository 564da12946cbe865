#include "eis/model/mesh_springs.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "eis/model/mat3.hpp"

namespace eis {

namespace {

// Below this length a spring has no direction: SOFA gives it no force and no tangent.
constexpr double kShortest = 1.0e-9;

// w_b - w_a for a local array of 3 values per vertex.
Vec3 difference(const double* w, PetscInt a, PetscInt b) {
  return {w[3 * b] - w[3 * a], w[3 * b + 1] - w[3 * a + 1], w[3 * b + 2] - w[3 * a + 2]};
}

using mat3::dot;

}  // namespace

MeshSpringForceField::MeshSpringForceField(const Cells& cells, const std::vector<CellEdge>& edges,
                                           const std::vector<Vec3>& rest,
                                           const std::array<double, 3>& stiffness,
                                           const std::array<double, 3>& damping)
    : damping_(std::max({damping[0], damping[1], damping[2]})),
      rows_(3 * std::size_t(cells.corners())) {
  std::vector<CellEdge> byCell(edges);
  std::stable_sort(byCell.begin(), byCell.end(),
                   [](const CellEdge& p, const CellEdge& q) { return p.cell < q.cell; });
  springs_.reserve(edges.size());
  states_.reserve(edges.size());
  for (const auto& edge : byCell) {
    const auto& cell = cells[edge.cell];
    const PetscInt a = cell[edge.a], b = cell[edge.b];
    const Vec3 d{rest[b][0] - rest[a][0], rest[b][1] - rest[a][1], rest[b][2] - rest[a][2]};
    const double length = std::sqrt(dot(d, d));
    // MeshSpringForceField::addSpring: stiffness and damping per unit of rest length.
    const double per = length > std::numeric_limits<double>::epsilon() ? length : 1.0;
    const auto kind = std::size_t(edge.kind);
    springs_.push_back(
        {a, b, edge.cell, edge.a, edge.b, length, stiffness[kind] / per, damping[kind] / per});
    // Until the first addForce the linearization point is the rest state (F = 0, so tgt = 0).
    const double inverse = length > kShortest ? 1.0 / length : 0.0;
    states_.push_back({{d[0] * inverse, d[1] * inverse, d[2] * inverse}, 0.0});
  }
}

void MeshSpringForceField::addForce(const double* x, const double* v, double* f) {
  for (std::size_t i = 0; i < springs_.size(); ++i) {
    const Spring& s = springs_[i];
    const Vec3 d = difference(x, s.a, s.b);
    const double length = std::sqrt(dot(d, d));
    if (length <= kShortest) {
      states_[i] = {{0.0, 0.0, 0.0}, 0.0};
      continue;
    }
    const double inverse = 1.0 / length;
    const Vec3 u{d[0] * inverse, d[1] * inverse, d[2] * inverse};
    double intensity = s.ks * (length - s.restLength);
    if (s.kd != 0) intensity += s.kd * dot(u, difference(v, s.a, s.b));
    for (int k = 0; k < 3; ++k) {
      f[3 * s.a + k] += intensity * u[k];
      f[3 * s.b + k] -= intensity * u[k];
    }
    states_[i] = {u, intensity * inverse};
  }
}

double MeshSpringForceField::potentialEnergy(const double* x) const {
  double energy = 0;
  for (const Spring& s : springs_) {
    const Vec3 d = difference(x, s.a, s.b);
    const double elongation = std::sqrt(dot(d, d)) - s.restLength;
    energy += elongation * elongation * s.ks / 2;
  }
  return energy;
}

Vec3 MeshSpringForceField::apply(const Vec3& u, double alpha, double beta, const Vec3& w) {
  const double along = alpha * dot(u, w);
  return {along * u[0] + beta * w[0], along * u[1] + beta * w[1], along * u[2] + beta * w[2]};
}

void MeshSpringForceField::addPairProduct(const Spring& s, const Vec3& u, double alpha, double beta,
                                          const double* w, double* df) const {
  const Vec3 m = apply(u, alpha, beta, difference(w, s.a, s.b));
  for (int k = 0; k < 3; ++k) {
    df[3 * s.a + k] += m[k];
    df[3 * s.b + k] -= m[k];
  }
}

void MeshSpringForceField::addPairBlock(const Spring& s, const Vec3& u, double alpha, double beta,
                                        double* elementMatrices, std::size_t firstCell) const {
  double* block = elementMatrices + (std::size_t(s.cell) - firstCell) * rows_ * rows_;
  const std::size_t ra = 3 * std::size_t(s.slotA), rb = 3 * std::size_t(s.slotB);
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 3; ++j) {
      const double m = alpha * (u[i] * u[j]) + (i == j ? beta : 0.0);  // exactly symmetric
      block[(ra + i) * rows_ + ra + j] -= m;
      block[(ra + i) * rows_ + rb + j] += m;
      block[(rb + i) * rows_ + ra + j] += m;
      block[(rb + i) * rows_ + rb + j] -= m;
    }
}

// K: m = ks u u^T + tgt (I - u u^T) = (ks - tgt) u u^T + tgt I.
void MeshSpringForceField::addDForce(const double* dx, double* df, double kFactor) const {
  for (std::size_t i = 0; i < springs_.size(); ++i) {
    const auto& [u, tgt] = states_[i];
    addPairProduct(springs_[i], u, kFactor * (springs_[i].ks - tgt), kFactor * tgt, dx, df);
  }
}

std::pair<std::size_t, std::size_t> MeshSpringForceField::springsIn(CellRange range) const {
  const auto cellBefore = [](const Spring& s, std::size_t cell) {
    return std::size_t(s.cell) < cell;
  };
  const auto first = std::lower_bound(springs_.begin(), springs_.end(), range.begin, cellBefore);
  const auto last = std::lower_bound(first, springs_.end(), range.end, cellBefore);
  return {std::size_t(first - springs_.begin()), std::size_t(last - springs_.begin())};
}

void MeshSpringForceField::addKToElementMatrices(double* elementMatrices, double kFactor,
                                                 CellRange range) const {
  const auto [first, last] = springsIn(range);
  for (std::size_t i = first; i < last; ++i) {
    const auto& [u, tgt] = states_[i];
    addPairBlock(springs_[i], u, kFactor * (springs_[i].ks - tgt), kFactor * tgt, elementMatrices,
                 range.begin);
  }
}

namespace {

// SOFA's RegularGridSpringForceField gives edges, face diagonals and body diagonals each their
// own constants: `byKind` (LINES QUADS CUBES) when given, else `all` for the three.
std::array<double, 3> constants(const Parameters& scene, const char* all, const char* byKind) {
  if (!scene.given(byKind)) return {scene.real(all), scene.real(all), scene.real(all)};
  const std::vector<double> v = scene.reals(byKind);
  return {v[0], v[1], v[2]};
}

// springs.face-diagonals: whether only each face's first diagonal is kept.
const Named<bool> kFaceDiagonals[] = {{"both", false}, {"first", true}};

// Whether a face diagonal of a hexahedron has the face's vertex of smallest input id as an end.
bool joinsSmallestOfFace(const DistributedMesh& mesh, const CellEdge& pair) {
  const auto cell = mesh.cells()[std::size_t(pair.cell)];
  const auto id = [&](int slot) { return mesh.nodeIds()[cell[slot]]; };
  for (const auto& face : facesOf(CellType::Hexahedron).slots)
    for (int k = 0; k < 2; ++k)
      if ((face[k] == pair.a && face[k + 2] == pair.b) ||
          (face[k] == pair.b && face[k + 2] == pair.a))
        return std::min(id(pair.a), id(pair.b)) < std::min(id(face[k + 1]), id(face[(k + 3) % 4]));
  return false;
}

}  // namespace

ForceFieldComponent meshSpringsComponent() {
  return {
      {"mesh-springs", "force field",
       "springs on mesh edges and hexahedra's diagonals (SOFA MeshSpringForceField, "
       "RegularGridSpringForceField)",
       ParameterSpec()
           .add(
               {"springs.stiffness", "KS",
                "SOFA MeshSpringForceField: a spring along every mesh edge (hexahedra: between every\n"
                "two vertices of a cell, SOFA's cubes springs), rest length L0 the rest distance,\n"
                "force ks (l - L0) + kd (v_b - v_a).u along it with, as SOFA, ks = KS / L0 and\n"
                "kd = KD / L0; >= 0 (0: no springs)",
                "0", "force", false, check::nonNegative()})
           .add(
               {"springs.damping", "KD",
                "damping of the edge springs (kd = KD / L0), >= 0: the force kd (v_b - v_a).u, explicit\n"
                "as in SOFA (it is in f(x, v), not in the step's matrix: no B)",
                "0", "force time", false, check::nonNegative()})
           .add(
               {"springs.stiffness-by-kind", "KL KQ KC",
                "hexahedra, instead of springs.stiffness: KS of the springs along the edges, across\n"
                "the faces and through the cells (SOFA RegularGridSpringForceField linesStiffness,\n"
                "quadsStiffness, cubesStiffness), each >= 0",
                std::nullopt, "force", false, check::reals(3)})
           .add(
               {"springs.damping-by-kind", "DL DQ DC",
                "hexahedra, instead of springs.damping: KD of the same three kinds (linesDamping,\n"
                "quadsDamping, cubesDamping), each >= 0",
                std::nullopt, "force time", false, check::reals(3)})
           .add(
               {"springs.face-diagonals", "both|first",
                "hexahedra: `first` keeps, of each face, only the diagonal from its vertex of\n"
                "smallest input id (SOFA's GridTopology lines, which cut each quadrangle from its\n"
                "first vertex, the smallest); `both` keeps the two",
                "both", "", false, check::choice(kFaceDiagonals)}),
       nullptr},
      Physics::Elasticity,
      forceFieldMaker(readMeshSpringsParameters, makeMeshSprings)};
}

MeshSpringsParameters readMeshSpringsParameters(const Parameters& scene) {
  return {constants(scene, "springs.stiffness", "springs.stiffness-by-kind"),
          constants(scene, "springs.damping", "springs.damping-by-kind"),
          scene.given("springs.stiffness-by-kind") || scene.given("springs.damping-by-kind"),
          parse::choice("springs.face-diagonals", scene.text("springs.face-diagonals"),
                        kFaceDiagonals)};
}

std::unique_ptr<ForceField> makeMeshSprings(const ModelContext& context,
                                            const MeshSpringsParameters& parameters) {
  const auto& ks = parameters.stiffness;
  const auto& kd = parameters.damping;
  if (std::max({ks[0], ks[1], ks[2], kd[0], kd[1], kd[2]}) == 0) return nullptr;
  const CellType type = context.mesh.cells().type();
  if (parameters.byKind && type != CellType::Hexahedron && type != CellType::Quadrangle)
    throw Error(
        "springs.stiffness-by-kind, springs.damping-by-kind: a hexahedral mesh's edges, face "
        "and body diagonals, or a quadrangle mesh's edges and diagonals; this mesh has " +
        pluralNameOf(type));
  if (!parameters.firstDiagonals)
    return std::make_unique<MeshSpringForceField>(
        context.mesh.cells(), context.mesh.ownedCellPairs(), context.mesh.restCoords(), ks, kd);
  if (type != CellType::Hexahedron)
    throw Error("springs.face-diagonals = first: a hexahedral mesh's faces; this mesh has " +
                pluralNameOf(type));
  std::vector<CellEdge> pairs;
  for (const CellEdge& pair : context.mesh.ownedCellPairs())
    if (pair.kind != PairKind::FaceDiagonal || joinsSmallestOfFace(context.mesh, pair))
      pairs.push_back(pair);
  return std::make_unique<MeshSpringForceField>(context.mesh.cells(), pairs,
                                                context.mesh.restCoords(), ks, kd);
}

const RegisterForceField registered(430, meshSpringsComponent);

}  // namespace eis
