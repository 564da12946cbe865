// A FEM and a mass on rigidly mapped points (model/rigid_mapped_cells.hpp): J^T K_c J against
// central differences of the frames' force J^T f_c(x_c(q)) (J held at q), and the assembled
// J^T (m M_c + k K_c) J against the matrix-free product column by column.
#include "eis/model/rigid_mapped_cells.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "eis/model/rigid_body.hpp"

namespace {

using eis::Vec3d;

// Three frames along z, turned and moved; two unit cubes stacked along z: the 4 points of each
// face z = k on frame k, their local coordinates those of a slightly sheared and stretched bar,
// so that the child is deformed.
struct Sections {
  std::vector<double> frames;
  std::vector<int> frameOf;
  std::vector<Vec3d> rest, local;
  eis::RigidMappedCells cells;
};

Sections setup(eis::MappedFemMethod method) {
  Sections s;
  const auto unit = [](std::array<double, 4> q) {
    const double n = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (double& x : q) x /= n;
    return q;
  };
  const std::array<std::array<double, 4>, 3> q{unit({0, 0, 0, 1}), unit({0.1, -0.05, 0.2, 0.95}),
                                               unit({-0.15, 0.1, 0.3, 0.9})};
  for (int k = 0; k < 3; ++k) {
    const double c[3] = {0.1 * k, -0.05 * k, 1.02 * k};
    s.frames.insert(s.frames.end(), {c[0], c[1], c[2], q[k][0], q[k][1], q[k][2], q[k][3]});
  }
  const double corners[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  for (int k = 0; k < 3; ++k)
    for (const auto& c : corners) {
      s.frameOf.push_back(k);
      s.rest.push_back({c[0], c[1], double(k)});
      s.local.push_back({1.03 * c[0] + 0.02 * c[1], 0.98 * c[1], 0.01 * c[0]});
    }
  s.cells.corners = {0, 1, 2, 3, 4, 5, 6, 7, 4, 5, 6, 7, 8, 9, 10, 11};
  s.cells.youngModulus = 1000;
  s.cells.poissonRatio = 0.3;
  s.cells.method = method;
  s.cells.density = 2;
  return s;
}

// The frames moved by eps along unknown k (6 a frame), as RigidCoord's operator+= moves them.
std::vector<double> moved(std::vector<double> frames, std::size_t k, double eps) {
  const std::size_t frame = k / 6, d = k % 6;
  double* c = &frames[7 * frame];
  if (d < 3) {
    c[d] += eps;
  } else {
    std::array<double, 3> w{0, 0, 0};
    w[d - 3] = eps;
    const std::array<double, 4> t = eis::rotateQuaternion({c[3], c[4], c[5], c[6]}, w);
    std::copy(t.begin(), t.end(), c + 3);
  }
  return frames;
}

TEST(RigidMappedCells, StiffnessMatchesFiniteDifferencesOfTheCarriedForce) {
  // method small: f_c is linear in x_c, so J^T K_c J is the exact derivative of J^T f_c(x_c(q))
  // with J held at q (no geometric stiffness, as SOFA's RigidMapping by default).
  Sections s = setup(eis::MappedFemMethod::Small);
  s.cells.density = 0;
  eis::RigidMappedCellsField field(s.cells, s.rest);
  eis::RigidMapping at(s.frameOf, s.local);
  const std::vector<Vec3d> x = at.apply(s.frames.data());
  const std::size_t n = 18;
  std::vector<double> dense(n * n, 0.0);
  std::vector<double> fc(3 * x.size(), 0.0);
  field.addForce(x, {0, 0, 0}, fc.data());
  field.addToMatrix(at, 0, 1, dense.data(), 3);
  const auto carried = [&](const std::vector<double>& frames) {
    eis::RigidMapping m(s.frameOf, s.local);
    const std::vector<Vec3d> y = m.apply(frames.data());
    std::vector<double> f(3 * y.size(), 0.0), out(n, 0.0);
    field.addForce(y, {0, 0, 0}, f.data());
    for (std::size_t i = 0; i < y.size(); ++i)
      at.applyJT(i, {f[3 * i], f[3 * i + 1], f[3 * i + 2]}, out.data());
    return out;
  };
  double largest = 0;
  for (double v : dense) largest = std::max(largest, std::abs(v));
  const double eps = 1e-5;
  int coupled = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const std::vector<double> plus = carried(moved(s.frames, k, eps));
    const std::vector<double> minus = carried(moved(s.frames, k, -eps));
    for (std::size_t row = 0; row < n; ++row) {
      const double fd = (plus[row] - minus[row]) / (2 * eps);
      EXPECT_NEAR(dense[row * n + k], fd, 1e-6 * largest) << row << " " << k;
      if (row / 6 != k / 6 && std::abs(dense[row * n + k]) > 1e-3 * largest) ++coupled;
    }
  }
  EXPECT_GT(coupled, 0);  // the cells couple neighbouring frames
  // Frames 0 and 2 share no cell: their block is zero.
  for (std::size_t a = 0; a < 6; ++a)
    for (std::size_t b = 0; b < 6; ++b) EXPECT_EQ(dense[a * n + 12 + b], 0.0);
}

TEST(RigidMappedCells, AssembledMatrixIsTheMatrixFreeProduct) {
  for (const auto method : {eis::MappedFemMethod::Small, eis::MappedFemMethod::Large}) {
    Sections s = setup(method);
    eis::RigidMappedCellsField field(s.cells, s.rest);
    eis::RigidMapping at(s.frameOf, s.local);
    const std::vector<Vec3d> x = at.apply(s.frames.data());
    std::vector<double> fc(3 * x.size(), 0.0);
    field.addForce(x, {0, -9.81, 0}, fc.data());
    const std::size_t n = 18;
    const double m = 1.3, k = -0.02;
    std::vector<double> dense(n * n, 0.0);
    field.addToMatrix(at, m, k, dense.data(), 3);
    for (std::size_t c = 0; c < n; ++c) {
      std::vector<double> e(n, 0.0), column(n, 0.0), dxc(3 * x.size()), outc(3 * x.size(), 0.0);
      e[c] = 1;
      for (std::size_t i = 0; i < x.size(); ++i) {
        const Vec3d d = at.applyJ(i, e.data());
        std::copy(d.begin(), d.end(), dxc.begin() + std::ptrdiff_t(3 * i));
      }
      field.addMKDx(dxc.data(), outc.data(), m, k);
      for (std::size_t i = 0; i < x.size(); ++i)
        at.applyJT(i, {outc[3 * i], outc[3 * i + 1], outc[3 * i + 2]}, column.data());
      for (std::size_t row = 0; row < n; ++row)
        EXPECT_NEAR(dense[row * n + c], column[row], 1e-12) << row << " " << c;
    }
    // The cells' weight: the mass gravity acts on is density times the volume (2 unit cubes).
    double weight = 0;
    for (std::size_t i = 0; i < x.size(); ++i) weight += fc[3 * i + 1];
    if (method == eis::MappedFemMethod::Small) EXPECT_NEAR(weight, -9.81 * 2 * 2, 1e-12);
  }
}

TEST(RigidMappedCells, RefusesAPointPastTheLast) {
  Sections s = setup(eis::MappedFemMethod::Large);
  s.cells.corners[3] = 12;
  EXPECT_THROW(eis::RigidMappedCellsField(s.cells, s.rest), eis::Error);
}

}  // namespace
