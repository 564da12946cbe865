#include "eis/model/nonuniform_hexahedron.hpp"

#include <algorithm>
#include <cstdint>

#include "eis/core/error.hpp"

namespace eis {

namespace {

constexpr int kN = HexahedronFEM::kVertices;
constexpr int kD = HexahedronFEM::kDofs;
using Nodal = std::array<Vec3, kN>;

// Vertex a's corner of the unit cube, in SOFA's vertex order.
constexpr int kCorner[kN][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0},
                                {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};

// The parent's trilinear weight of vertex `vertex` at point p of the unit cube.
double weight(int vertex, const double p[3]) {
  double w = 1;
  for (int i = 0; i < 3; ++i) w *= kCorner[vertex][i] ? p[i] : 1 - p[i];
  return w;
}

Nodal childShape(const Nodal& parent, const std::array<double, 64>& p) {
  Nodal out{};
  for (int k = 0; k < kN; ++k)
    for (int j = 0; j < kN; ++j)
      for (int i = 0; i < 3; ++i) out[k][i] += p[k * kN + j] * parent[j][i];
  return out;
}

bool anyKept(const double* factors, std::size_t count) {
  return std::any_of(factors, factors + count, [](double f) { return f != 0; });
}

std::size_t finerCells(int levels) {
  return std::size_t(1) << (3 * levels);
}

void condenseStiffness(HexahedronFEM::Stiffness& coarse, const HexahedronFEM::Stiffness& fine,
                       const std::array<double, 64>& p) {
  HexahedronFEM::Stiffness a;
  for (int i = 0; i < kD; ++i)
    for (int j = 0; j < kD; ++j) {
      double sum = j % 3 == 0 ? fine[i * kD] * p[j / 3] : 0.0;
      for (int k = 1; k < kD; ++k)
        if (j % 3 == k % 3) sum += fine[i * kD + k] * p[(k / 3) * kN + j / 3];
      a[i * kD + j] = sum;
    }
  for (int i = 0; i < kD; ++i)
    for (int j = 0; j < kD; ++j)
      for (int k = 0; k < kD; ++k)
        if (i % 3 == k % 3) coarse[i * kD + j] += p[(k / 3) * kN + i / 3] * a[k * kD + j];
}

void condenseMass(std::array<double, 64>& coarse, const std::array<double, 64>& fine,
                  const std::array<double, 64>& p) {
  std::array<double, 64> a;
  for (int i = 0; i < kN; ++i)
    for (int j = 0; j < kN; ++j) {
      double sum = 0;
      for (int k = 0; k < kN; ++k) sum += fine[i * kN + k] * p[k * kN + j];
      a[i * kN + j] = sum;
    }
  for (int i = 0; i < kN; ++i)
    for (int j = 0; j < kN; ++j)
      for (int k = 0; k < kN; ++k) coarse[i * kN + j] += p[k * kN + i] * a[k * kN + j];
}

}  // namespace

HexahedronRefinement localRefinement(const DistributedMesh& mesh, int levels,
                                     const std::vector<double>& factors, const std::string& key) {
  HexahedronRefinement out;
  if (levels == 0) return out;
  if (levels > 8) throw Error(key + ": at most 8 finer levels (SOFA's sparse grid's)");
  if (mesh.cellType() != CellType::Hexahedron)
    throw Error(key + ": finer cells split hexahedra, and this mesh has " +
                pluralNameOf(mesh.cellType()));
  std::int64_t local = 0, cells = 0;
  for (std::int64_t id : mesh.inputCellIds()) local = std::max(local, id + 1);
  EIS_CHECK_MPI(MPI_Allreduce(&local, &cells, 1, MPI_INT64_T, MPI_MAX, mesh.comm()));
  const std::size_t each = finerCells(levels);
  if (factors.size() != std::size_t(cells) * each)
    throw Error(key + " has " + std::to_string(factors.size()) + " values for " +
                std::to_string(cells) + " cells of " + std::to_string(each) +
                " finer cells each: give " + std::to_string(std::size_t(cells) * each));
  out.levels = levels;
  out.factors.reserve(mesh.inputCellIds().size() * each);
  for (std::int64_t id : mesh.inputCellIds())
    out.factors.insert(out.factors.end(), factors.begin() + std::size_t(id) * each,
                       factors.begin() + std::size_t(id + 1) * each);
  return out;
}

std::array<double, 64> fineToCoarse(int child) {
  const int offset[3] = {child & 1, child >> 1 & 1, child >> 2 & 1};
  std::array<double, 64> p;
  for (int k = 0; k < kN; ++k) {
    const double at[3] = {(offset[0] + kCorner[k][0]) / 2.0, (offset[1] + kCorner[k][1]) / 2.0,
                          (offset[2] + kCorner[k][2]) / 2.0};
    for (int j = 0; j < kN; ++j) p[k * kN + j] = weight(j, at);
  }
  return p;
}

HexahedronFEM::Stiffness condensedHexahedronStiffness(std::size_t cell, const Nodal& shape,
                                                      const LameParameters& lame, int levels,
                                                      const double* factors) {
  if (levels == 0) {
    HexahedronFEM::Stiffness k = hexahedronStiffness(cell, shape, lame);
    for (double& v : k) v *= factors[0];
    return k;
  }
  HexahedronFEM::Stiffness k{};
  const std::size_t stride = finerCells(levels - 1);
  for (int w = 0; w < 8; ++w) {
    const double* childFactors = factors + w * stride;
    if (!anyKept(childFactors, stride)) continue;
    const std::array<double, 64> p = fineToCoarse(w);
    condenseStiffness(
        k, condensedHexahedronStiffness(cell, childShape(shape, p), lame, levels - 1, childFactors),
        p);
  }
  return k;
}

std::array<double, 64> condensedHexahedronMass(const Nodal& rest, double density, int levels,
                                               const double* factors) {
  if (levels == 0) {
    std::array<double, 64> m = sofaHexahedronMass(rest, density).consistent;
    for (double& v : m) v *= factors[0];
    return m;
  }
  std::array<double, 64> m{};
  const std::size_t stride = finerCells(levels - 1);
  for (int w = 0; w < 8; ++w) {
    const double* childFactors = factors + w * stride;
    if (!anyKept(childFactors, stride)) continue;
    const std::array<double, 64> p = fineToCoarse(w);
    condenseMass(m, condensedHexahedronMass(childShape(rest, p), density, levels - 1, childFactors),
                 p);
  }
  return m;
}

}  // namespace eis
