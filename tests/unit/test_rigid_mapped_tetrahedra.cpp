// A TetrahedronFEMForceField on rigidly mapped points (model/rigid_mapped_cells.hpp): a unit
// cube cut into six tetrahedra, its faces z = 0 and z = 1 on two frames. Under a rigid motion of
// the frames the corotational force and J^T K_c J's rigid modes are zero; on a deformed child the
// carried force J^T f_c and J^T K_c J are those of SOFA's accumulateForceLarge worked out here
// (its frame from edges 0->1 and 0->2, f = R^T K0 (R0 (X - X_0) - R (x - x_0)), the tangent
// -R^T K0 R), and for method small J^T K_c J is the finite difference of J^T f_c.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "eis/model/rigid_body.hpp"
#include "eis/model/rigid_mapped_cells.hpp"

namespace {

using eis::Vec3d;
using Mat3 = std::array<double, 9>;  // row-major

constexpr double kYoung = 1000, kPoisson = 0.3;
const std::vector<long long> kTetrahedra = {0, 1, 2, 6, 0, 2, 3, 6, 0, 3, 7, 6,
                                            0, 7, 4, 6, 0, 4, 5, 6, 0, 5, 1, 6};

std::array<double, 4> unit(std::array<double, 4> q) {
  const double n = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  for (double& x : q) x /= n;
  return q;
}

// The cube's corners (x fastest in each face, faces z = 0 then z = 1) on frames 0 and 1 at
// (frames[0..2]) and (frames[7..9]); `deformed`: local coordinates of a sheared, stretched cube.
struct Child {
  std::vector<double> frames;
  std::vector<int> frameOf;
  std::vector<Vec3d> rest, local;
  eis::RigidMappedCells cells;
};

Child child(eis::MappedFemMethod method, bool deformed) {
  Child s;
  const std::array<std::array<double, 4>, 2> q{unit({0.05, 0.1, -0.2, 0.97}),
                                               unit({-0.1, 0.2, 0.1, 0.95})};
  const std::array<Vec3d, 2> c{Vec3d{0.3, -0.2, 0.1}, Vec3d{0.1, 0.4, 1.1}};
  for (int k = 0; k < 2; ++k)
    s.frames.insert(s.frames.end(),
                    {c[k][0], c[k][1], c[k][2], q[k][0], q[k][1], q[k][2], q[k][3]});
  const double corners[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  for (int k = 0; k < 2; ++k)
    for (const auto& p : corners) {
      s.frameOf.push_back(k);
      s.rest.push_back({p[0], p[1], double(k)});
      s.local.push_back(deformed ? Vec3d{1.1 * p[0] + 0.08 * p[1], 0.93 * p[1] - 0.05 * p[0],
                                         0.07 * p[0] * p[1] - 0.04 * k}
                                 : Vec3d{p[0], p[1], 0});
    }
  s.cells.type = eis::CellType::Tetrahedron;
  s.cells.corners = kTetrahedra;
  s.cells.youngModulus = kYoung;
  s.cells.poissonRatio = kPoisson;
  s.cells.method = method;
  return s;
}

Vec3d sub(const Vec3d& a, const Vec3d& b) {
  return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}
Vec3d cross(const Vec3d& a, const Vec3d& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
Vec3d normalized(const Vec3d& a) {
  const double n = std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
  return {a[0] / n, a[1] / n, a[2] / n};
}
Vec3d times(const Mat3& m, const Vec3d& v) {
  return {m[0] * v[0] + m[1] * v[1] + m[2] * v[2], m[3] * v[0] + m[4] * v[1] + m[5] * v[2],
          m[6] * v[0] + m[7] * v[1] + m[8] * v[2]};
}

// SOFA's computeRotationLarge: rows x along 0->1, z along x cross (0->2), y = z cross x.
Mat3 largeFrame(const std::array<Vec3d, 4>& p) {
  const Vec3d x = normalized(sub(p[1], p[0]));
  const Vec3d z = normalized(cross(x, sub(p[2], p[0])));
  const Vec3d y = normalized(cross(z, x));
  return {x[0], x[1], x[2], y[0], y[1], y[2], z[0], z[1], z[2]};
}

// K0 = V B^T C B (12 x 12, row-major) of the tetrahedron p, engineering shears.
std::array<double, 144> elementStiffness(const std::array<Vec3d, 4>& p) {
  const Vec3d e1 = sub(p[1], p[0]), e2 = sub(p[2], p[0]), e3 = sub(p[3], p[0]);
  const double det = e1[0] * (e2[1] * e3[2] - e2[2] * e3[1]) -
                     e1[1] * (e2[0] * e3[2] - e2[2] * e3[0]) +
                     e1[2] * (e2[0] * e3[1] - e2[1] * e3[0]);
  // grad N_a for a = 1..3: the rows of the inverse transpose of the edge columns.
  const Vec3d c23 = cross(e2, e3), c31 = cross(e3, e1), c12 = cross(e1, e2);
  std::array<Vec3d, 4> g;
  g[1] = {c23[0] / det, c23[1] / det, c23[2] / det};
  g[2] = {c31[0] / det, c31[1] / det, c31[2] / det};
  g[3] = {c12[0] / det, c12[1] / det, c12[2] / det};
  for (int i = 0; i < 3; ++i) g[0][i] = -(g[1][i] + g[2][i] + g[3][i]);
  double b[6][12] = {};
  for (int a = 0; a < 4; ++a) {
    for (int i = 0; i < 3; ++i) b[i][3 * a + i] = g[a][i];
    b[3][3 * a] = g[a][1], b[3][3 * a + 1] = g[a][0];
    b[4][3 * a + 1] = g[a][2], b[4][3 * a + 2] = g[a][1];
    b[5][3 * a] = g[a][2], b[5][3 * a + 2] = g[a][0];
  }
  const double lambda = kYoung * kPoisson / ((1 + kPoisson) * (1 - 2 * kPoisson));
  const double mu = kYoung / (2 * (1 + kPoisson));
  double c[6][6] = {};
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) c[i][j] = lambda + (i == j ? 2 * mu : 0);
    c[3 + i][3 + i] = mu;
  }
  std::array<double, 144> k{};
  const double volume = std::abs(det) / 6;
  for (int r = 0; r < 12; ++r)
    for (int s = 0; s < 12; ++s)
      for (int i = 0; i < 6; ++i)
        for (int j = 0; j < 6; ++j)
          k[std::size_t(12 * r + s)] += volume * b[i][r] * c[i][j] * b[j][s];
  return k;
}

// The carried force (6 a frame) and J^T K_c J (12 x 12) of SOFA's method large, or small
// (R = R0 = I), at the points x, worked out element by element.
void sofaCarried(const Child& s, const eis::RigidMapping& at, const std::vector<Vec3d>& x,
                 bool large, std::vector<double>& force, std::vector<double>& matrix) {
  std::vector<double> fc(3 * x.size(), 0.0), kc(x.size() * x.size() * 9, 0.0);
  const std::size_t n3 = 3 * x.size();
  for (std::size_t t = 0; t < kTetrahedra.size(); t += 4) {
    std::array<Vec3d, 4> rest, now;
    for (int a = 0; a < 4; ++a) {
      rest[a] = s.rest[std::size_t(kTetrahedra[t + a])];
      now[a] = x[std::size_t(kTetrahedra[t + a])];
    }
    const Mat3 identity{1, 0, 0, 0, 1, 0, 0, 0, 1};
    const Mat3 r0 = large ? largeFrame(rest) : identity, r = large ? largeFrame(now) : identity;
    std::array<Vec3d, 4> turned;
    for (int a = 0; a < 4; ++a) turned[a] = times(r0, sub(rest[a], rest[0]));
    const std::array<double, 144> k0 = elementStiffness(turned);
    std::array<double, 12> d;
    for (int a = 0; a < 4; ++a) {
      const Vec3d moved = times(r, sub(now[a], now[0]));
      for (int i = 0; i < 3; ++i) d[std::size_t(3 * a + i)] = turned[a][i] - moved[i];
    }
    for (int a = 0; a < 4; ++a) {
      Vec3d local{0, 0, 0};
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 12; ++j) local[i] += k0[std::size_t(12 * (3 * a + i) + j)] * d[j];
      const std::size_t pa = std::size_t(kTetrahedra[t + a]);
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) fc[3 * pa + i] += r[std::size_t(3 * j + i)] * local[j];
      for (int b = 0; b < 4; ++b) {
        const std::size_t pb = std::size_t(kTetrahedra[t + b]);
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j) {
            double sum = 0;  // (R^T K0_ab R)_ij
            for (int p = 0; p < 3; ++p)
              for (int q = 0; q < 3; ++q)
                sum += r[std::size_t(3 * p + i)] * k0[std::size_t(12 * (3 * a + p) + 3 * b + q)] *
                       r[std::size_t(3 * q + j)];
            kc[(3 * pa + i) * n3 + 3 * pb + j] -= sum;
          }
      }
    }
  }
  force.assign(12, 0.0);
  matrix.assign(144, 0.0);
  for (std::size_t a = 0; a < x.size(); ++a) {
    at.applyJT(a, {fc[3 * a], fc[3 * a + 1], fc[3 * a + 2]}, force.data());
    const std::array<double, 18> ja = at.jacobian(a);
    const std::size_t fa = std::size_t(at.frameOf(a));
    for (std::size_t b = 0; b < x.size(); ++b) {
      const std::array<double, 18> jb = at.jacobian(b);
      const std::size_t fb = std::size_t(at.frameOf(b));
      for (int row = 0; row < 6; ++row)
        for (int col = 0; col < 6; ++col)
          for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j)
              matrix[(6 * fa + std::size_t(row)) * 12 + 6 * fb + std::size_t(col)] +=
                  ja[std::size_t(6 * i + row)] * kc[(3 * a + i) * n3 + 3 * b + j] *
                  jb[std::size_t(6 * j + col)];
    }
  }
}

// The field's carried force and J^T K_c J at the child's frames.
void carried(eis::RigidMappedCellsField& field, const Child& s, std::vector<double>& force,
             std::vector<double>& matrix) {
  eis::RigidMapping at(s.frameOf, s.local);
  const std::vector<Vec3d> x = at.apply(s.frames.data());
  std::vector<double> fc(3 * x.size(), 0.0);
  field.addForce(x, {0, 0, 0}, fc.data());
  force.assign(12, 0.0);
  for (std::size_t i = 0; i < x.size(); ++i)
    at.applyJT(i, {fc[3 * i], fc[3 * i + 1], fc[3 * i + 2]}, force.data());
  matrix.assign(144, 0.0);
  field.addToMatrix(at, 0, 1, matrix.data(), 2);
}

TEST(RigidMappedTetrahedra, RigidMotionOfTheFramesGivesNoForceAndNoStiffness) {
  // The child at rest on both frames (its rest shape: the frames' first pose), then both frames
  // turned and moved together: the corotational force is zero, and J^T K_c J takes every rigid
  // motion of the two (w, and v + w x c_k on frame k) to zero.
  for (const auto method :
       {eis::MappedFemMethod::Large, eis::MappedFemMethod::Polar, eis::MappedFemMethod::Svd}) {
    Child s = child(method, false);
    eis::RigidMapping first(s.frameOf, s.local);
    const std::vector<Vec3d> rest = first.apply(s.frames.data());
    eis::RigidMappedCellsField field(s.cells, rest);
    const std::array<double, 4> turn = unit({0.3, -0.5, 0.2, 0.8});
    const Vec3d shift{2, -1, 0.5};
    for (int k = 0; k < 2; ++k) {
      double* f = &s.frames[std::size_t(7 * k)];
      const Vec3d c = eis::rotateByQuaternion(turn, {f[0], f[1], f[2]});
      const std::array<double, 4> q{f[3], f[4], f[5], f[6]};
      // turn * q (Hamilton product, x y z w).
      const std::array<double, 4> tq{
          turn[3] * q[0] + turn[0] * q[3] + turn[1] * q[2] - turn[2] * q[1],
          turn[3] * q[1] - turn[0] * q[2] + turn[1] * q[3] + turn[2] * q[0],
          turn[3] * q[2] + turn[0] * q[1] - turn[1] * q[0] + turn[2] * q[3],
          turn[3] * q[3] - turn[0] * q[0] - turn[1] * q[1] - turn[2] * q[2]};
      for (int i = 0; i < 3; ++i) f[i] = c[std::size_t(i)] + shift[std::size_t(i)];
      for (int i = 0; i < 4; ++i) f[3 + i] = tq[std::size_t(i)];
    }
    std::vector<double> force, matrix;
    carried(field, s, force, matrix);
    double largest = 0;
    for (double v : matrix) largest = std::max(largest, std::abs(v));
    EXPECT_GT(largest, 100.0);  // the stiffness is there: the check can fail
    for (double v : force) EXPECT_NEAR(v, 0.0, 1e-12 * kYoung);
    for (int mode = 0; mode < 6; ++mode) {
      Vec3d v{0, 0, 0}, w{0, 0, 0};
      (mode < 3 ? v : w)[std::size_t(mode % 3)] = 1;
      std::vector<double> velocity;
      for (int k = 0; k < 2; ++k) {
        const Vec3d turning =
            cross(w, {s.frames[std::size_t(7 * k)], s.frames[std::size_t(7 * k + 1)],
                      s.frames[std::size_t(7 * k + 2)]});
        for (int i = 0; i < 3; ++i) velocity.push_back(v[std::size_t(i)] + turning[std::size_t(i)]);
        velocity.insert(velocity.end(), w.begin(), w.end());
      }
      for (std::size_t row = 0; row < 12; ++row) {
        double product = 0;
        for (std::size_t col = 0; col < 12; ++col)
          product += matrix[row * 12 + col] * velocity[col];
        EXPECT_NEAR(product, 0.0, 1e-12 * largest) << int(method) << " " << mode << " " << row;
      }
    }
  }
}

TEST(RigidMappedTetrahedra, DeformedChildCarriesSofasForceAndStiffness) {
  for (const bool large : {true, false}) {
    Child s = child(large ? eis::MappedFemMethod::Large : eis::MappedFemMethod::Small, true);
    eis::RigidMappedCellsField field(s.cells, s.rest);
    std::vector<double> force, matrix, expectedForce, expectedMatrix;
    carried(field, s, force, matrix);
    eis::RigidMapping at(s.frameOf, s.local);
    sofaCarried(s, at, at.apply(s.frames.data()), large, expectedForce, expectedMatrix);
    double scale = 0, stiffness = 0;
    for (double v : expectedForce) scale = std::max(scale, std::abs(v));
    for (double v : expectedMatrix) stiffness = std::max(stiffness, std::abs(v));
    EXPECT_GT(scale, 10.0);  // the child is deformed: the check can fail
    for (std::size_t i = 0; i < 12; ++i) EXPECT_NEAR(force[i], expectedForce[i], 1e-12 * scale);
    for (std::size_t i = 0; i < 144; ++i)
      EXPECT_NEAR(matrix[i], expectedMatrix[i], 1e-12 * stiffness) << large << " " << i;
  }
}

TEST(RigidMappedTetrahedra, SmallStiffnessIsTheFiniteDifferenceOfTheCarriedForce) {
  Child s = child(eis::MappedFemMethod::Small, true);
  eis::RigidMappedCellsField field(s.cells, s.rest);
  std::vector<double> force, matrix;
  carried(field, s, force, matrix);
  double largest = 0;
  for (double v : matrix) largest = std::max(largest, std::abs(v));
  const double eps = 1e-5;
  for (std::size_t k = 0; k < 12; ++k) {
    std::array<std::vector<double>, 2> sides;
    for (int side = 0; side < 2; ++side) {
      Child moved = s;
      double* c = &moved.frames[7 * (k / 6)];
      const double step = side == 0 ? eps : -eps;
      if (k % 6 < 3) {
        c[k % 6] += step;
      } else {
        std::array<double, 3> w{0, 0, 0};
        w[k % 6 - 3] = step;
        const std::array<double, 4> t = eis::rotateQuaternion({c[3], c[4], c[5], c[6]}, w);
        std::copy(t.begin(), t.end(), c + 3);
      }
      // J held at the unmoved frames, as SOFA's RigidMapping without geometric stiffness.
      eis::RigidMapping at(s.frameOf, s.local), there(moved.frameOf, moved.local);
      at.apply(s.frames.data());
      const std::vector<Vec3d> y = there.apply(moved.frames.data());
      std::vector<double> fc(3 * y.size(), 0.0);
      field.addForce(y, {0, 0, 0}, fc.data());
      sides[std::size_t(side)].assign(12, 0.0);
      for (std::size_t i = 0; i < y.size(); ++i)
        at.applyJT(i, {fc[3 * i], fc[3 * i + 1], fc[3 * i + 2]}, sides[std::size_t(side)].data());
    }
    for (std::size_t row = 0; row < 12; ++row)
      EXPECT_NEAR(matrix[row * 12 + k], (sides[0][row] - sides[1][row]) / (2 * eps), 1e-6 * largest)
          << row << " " << k;
  }
}

TEST(RigidMappedTetrahedra, AssembledMatrixIsTheMatrixFreeProduct) {
  for (const auto method : {eis::MappedFemMethod::Small, eis::MappedFemMethod::Polar}) {
    Child s = child(method, true);
    s.cells.density = 3;
    eis::RigidMappedCellsField field(s.cells, s.rest);
    eis::RigidMapping at(s.frameOf, s.local);
    const std::vector<Vec3d> x = at.apply(s.frames.data());
    std::vector<double> fc(3 * x.size(), 0.0);
    field.addForce(x, {0, -9.81, 0}, fc.data());
    double weight = 0;
    for (std::size_t i = 0; i < x.size(); ++i) weight += fc[3 * i + 1];
    if (method == eis::MappedFemMethod::Small) {
      // At x the small element's force sums to zero; the weight is density times the volume 1.
      EXPECT_NEAR(weight, -9.81 * 3, 1e-10);
    }
    const double m = 1.3, k = -0.02;
    std::vector<double> dense(144, 0.0);
    field.addToMatrix(at, m, k, dense.data(), 2);
    for (std::size_t c = 0; c < 12; ++c) {
      std::vector<double> e(12, 0.0), column(12, 0.0), dxc(3 * x.size()), outc(3 * x.size(), 0.0);
      e[c] = 1;
      for (std::size_t i = 0; i < x.size(); ++i) {
        const Vec3d d = at.applyJ(i, e.data());
        std::copy(d.begin(), d.end(), dxc.begin() + std::ptrdiff_t(3 * i));
      }
      field.addMKDx(dxc.data(), outc.data(), m, k);
      for (std::size_t i = 0; i < x.size(); ++i)
        at.applyJT(i, {outc[3 * i], outc[3 * i + 1], outc[3 * i + 2]}, column.data());
      for (std::size_t row = 0; row < 12; ++row)
        EXPECT_NEAR(dense[row * 12 + c], column[row], 1e-12) << row << " " << c;
    }
  }
}

TEST(RigidMappedTetrahedra, RefusesSvdOnHexahedraAndAPointPastTheLast) {
  Child s = child(eis::MappedFemMethod::Large, true);
  s.cells.corners[5] = 8;
  EXPECT_THROW(eis::RigidMappedCellsField(s.cells, s.rest), eis::Error);
  s = child(eis::MappedFemMethod::Svd, true);
  s.cells.type = eis::CellType::Hexahedron;
  s.cells.corners = {0, 1, 2, 3, 4, 5, 6, 7};
  EXPECT_THROW(eis::RigidMappedCellsField(s.cells, s.rest), eis::Error);
}

}  // namespace
