#pragma once
// Hexahedra for the HexahedronFEM tests: grids of boxes in SOFA's vertex order, moved and
// deformed copies of their points, and the force and stiffness the field gives.
#include <petscsys.h>

#include <array>
#include <cmath>
#include <vector>

#include "eis/core/tetra_geometry.hpp"
#include "eis/model/hexahedron_fem.hpp"

namespace eis_test {

using HexCells = std::vector<std::array<PetscInt, 8>>;
using eis::Vec3;
using Mat3 = std::array<Vec3, 3>;  // rows

constexpr int kHexDofs = eis::HexahedronFEM::kDofs;

inline Vec3 times(const Mat3& m, const Vec3& v) {
  Vec3 r{};
  for (int i = 0; i < 3; ++i) r[i] = m[i][0] * v[0] + m[i][1] * v[1] + m[i][2] * v[2];
  return r;
}

// Rotation by `angle` about `axis` (Rodrigues: c I + (1 - c) n n^T + s [n]x).
inline Mat3 rotation(Vec3 axis, double angle) {
  const double n = std::sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
  for (double& a : axis) a /= n;
  const double c = std::cos(angle), s = std::sin(angle);
  const Mat3 skew{{{0, -axis[2], axis[1]}, {axis[2], 0, -axis[0]}, {-axis[1], axis[0], 0}}};
  Mat3 r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      r[i][j] = (i == j ? c : 0.0) + (1 - c) * axis[i] * axis[j] + s * skew[i][j];
  return r;
}

// nx x ny x nz boxes of size h, vertex (i, j, k) numbered i + (nx+1) (j + (ny+1) k), each cell
// in SOFA's order (RegularGridTopology's).
struct HexGrid {
  HexGrid(int nx, int ny, int nz, Vec3 h) {
    const auto id = [&](int i, int j, int k) { return i + (nx + 1) * (j + (ny + 1) * k); };
    for (int k = 0; k <= nz; ++k)
      for (int j = 0; j <= ny; ++j)
        for (int i = 0; i <= nx; ++i) points.push_back({i * h[0], j * h[1], k * h[2]});
    for (int k = 0; k < nz; ++k)
      for (int j = 0; j < ny; ++j)
        for (int i = 0; i < nx; ++i)
          cells.push_back({id(i, j, k), id(i + 1, j, k), id(i + 1, j + 1, k), id(i, j + 1, k),
                           id(i, j, k + 1), id(i + 1, j, k + 1), id(i + 1, j + 1, k + 1),
                           id(i, j + 1, k + 1)});
  }
  std::vector<Vec3> points;
  HexCells cells;

  std::vector<double> rest() const {
    return moved([](const Vec3& p) { return p; });
  }
  template <class Map>
  std::vector<double> moved(Map map) const {
    std::vector<double> x;
    for (const auto& p : points) {
      const Vec3 q = map(p);
      x.insert(x.end(), q.begin(), q.end());
    }
    return x;
  }
  // p -> q p + t.
  std::vector<double> rigidlyMoved(const Mat3& q, const Vec3& t) const {
    return moved([&](const Vec3& p) {
      const Vec3 r = times(q, p);
      return Vec3{r[0] + t[0], r[1] + t[1], r[2] + t[2]};
    });
  }
  // The field holds the cell list it is made on: cellList, rebuilt here from `cells`.
  eis::HexahedronFEM field(eis::HexahedronMethod method, double E, double nu) const {
    cellList = eis::Cells(eis::CellType::Hexahedron);
    for (const auto& cell : cells) cellList.push_back(cell);
    return {cellList, rest(),
            std::vector<eis::LameParameters>(cells.size(), eis::lameParameters(E, nu)), method};
  }
  mutable eis::Cells cellList{eis::CellType::Hexahedron};
};

// One irregular hexahedron: the unit cube with every vertex moved, so that no face is planar.
inline HexGrid distortedHexahedron() {
  HexGrid g(1, 1, 1, {1, 1, 1});
  const Vec3 shift[8] = {{0.05, -0.02, 0.01}, {0.1, 0.03, -0.04}, {0.2, 0.1, 0.05},
                         {-0.03, 0.06, 0.02}, {0.02, 0.04, 0.1},  {-0.06, 0.0, 0.15},
                         {0.12, -0.05, 0.2},  {0.0, 0.07, 0.08}};
  for (int a = 0; a < 8; ++a)
    for (int i = 0; i < 3; ++i) g.points[a][i] += shift[a][i];
  return g;
}

inline std::vector<double> force(eis::ForceField& field, const std::vector<double>& x) {
  std::vector<double> f(x.size(), 0.0);
  field.addForce(x.data(), nullptr, f.data());
  return f;
}

// K = -df/dx at the last addForce, one 24x24 block per cell.
inline std::vector<double> stiffness(const eis::ForceField& field, std::size_t cells) {
  std::vector<double> k(kHexDofs * kHexDofs * cells, 0.0);
  field.addKToElementMatrices(k.data(), -1.0, {0, cells});
  return k;
}

// -df/dx of a one-cell field at x by central differences of step h, in the cell's vertex order.
// Leaves the field linearized at x.
inline std::vector<double> differencedStiffness(eis::ForceField& field,
                                                const std::array<PetscInt, 8>& cell,
                                                std::vector<double> x, double h) {
  std::vector<double> k(kHexDofs * kHexDofs);
  for (int b = 0; b < 8; ++b)
    for (int j = 0; j < 3; ++j) {
      double& xj = x[3 * cell[b] + j];
      const double saved = xj;
      xj = saved + h;
      const auto plus = force(field, x);
      xj = saved - h;
      const auto minus = force(field, x);
      xj = saved;
      for (int a = 0; a < 8; ++a)
        for (int i = 0; i < 3; ++i) {
          const PetscInt row = 3 * cell[a] + i;
          k[(3 * a + i) * kHexDofs + 3 * b + j] = -(plus[row] - minus[row]) / (2 * h);
        }
    }
  force(field, x);
  return k;
}

}  // namespace eis_test
