// Surface loads on the boundary of a cube of 48 tetrahedra: a follower pressure sums to no net
// force on the closed surface in any configuration, its tangent (element blocks and addDForce)
// equals central differences of the force entry by entry, its assembled K is symmetric on the
// closed surface and not on an open part of it; a box follows the current positions; a traction
// is a constant load of the rest area.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <iostream>
#include <map>
#include <random>
#include <vector>

#include "eis/mesh/box_mesh.hpp"
#include "eis/model/surface_pressure.hpp"
#include "max_norms.hpp"

using testing_norms::largestDifference;
using testing_norms::largestMagnitude;

namespace {

using eis::SurfacePressure;
using eis::Vec3;
using Cells = eis::Cells;
constexpr std::size_t kBlock = 12;

struct Cube {
  std::vector<Vec3> points;
  Cells cells;
  // The faces that belong to one tetrahedron, each with its vertex slots ordered so that the
  // right-hand normal points out of the cube.
  std::vector<SurfacePressure::Triangle> boundary;
  std::vector<double> rest() const {
    std::vector<double> x;
    for (const auto& p : points) x.insert(x.end(), p.begin(), p.end());
    return x;
  }
};

Vec3 minus(const Vec3& a, const Vec3& b) {
  return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}
Vec3 cross(const Vec3& a, const Vec3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
double dot(const Vec3& a, const Vec3& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

Cube cube() {
  const auto box = eis::makeBoxMesh({1, 1, 1}, {2, 2, 2});
  Cube c{box.nodes, {}, {}};
  std::map<std::array<PetscInt, 3>, std::vector<SurfacePressure::Triangle>> faces;
  for (const auto& t : box.cells) {
    c.cells.push_back({PetscInt(t[0]), PetscInt(t[1]), PetscInt(t[2]), PetscInt(t[3])});
    const PetscInt cell = PetscInt(c.cells.size()) - 1;
    for (int skip = 0; skip < 4; ++skip) {
      std::array<int, 3> slots;
      for (int k = 0, i = 0; k < 4; ++k)
        if (k != skip) slots[i++] = k;
      const auto v = c.cells[c.cells.size() - 1];
      const Vec3 n = cross(minus(c.points[v[slots[1]]], c.points[v[slots[0]]]),
                           minus(c.points[v[slots[2]]], c.points[v[slots[0]]]));
      if (dot(n, minus(c.points[v[skip]], c.points[v[slots[0]]])) > 0)
        std::swap(slots[1], slots[2]);
      std::array<PetscInt, 3> key{v[slots[0]], v[slots[1]], v[slots[2]]};
      std::sort(key.begin(), key.end());
      faces[key].push_back({cell, slots});
    }
  }
  for (const auto& [key, list] : faces)
    if (list.size() == 1) c.boundary.push_back(list[0]);
  return c;
}

std::vector<double> randomArray(std::size_t n, double scale, unsigned seed) {
  std::mt19937 generator(seed);
  std::uniform_real_distribution<double> uniform(-scale, scale);
  std::vector<double> values(n);
  for (auto& v : values) v = uniform(generator);
  return values;
}

std::vector<double> force(SurfacePressure& field, const std::vector<double>& x) {
  std::vector<double> f(x.size(), 0.0);
  field.addForce(x.data(), nullptr, f.data());
  return f;
}

// The dense global K that the element blocks make (kFactor 1), at the last addForce.
std::vector<double> assembledK(const SurfacePressure& field, const Cells& cells, std::size_t n) {
  std::vector<double> blocks(cells.size() * kBlock * kBlock, 0.0), K(n * n, 0.0);
  field.addKToElementMatrices(blocks.data(), 1.0, {0, cells.size()});
  for (std::size_t c = 0; c < cells.size(); ++c)
    for (std::size_t i = 0; i < kBlock; ++i)
      for (std::size_t j = 0; j < kBlock; ++j)
        K[std::size_t(3 * cells[c][i / 3] + i % 3) * n +
          std::size_t(3 * cells[c][j / 3] + j % 3)] += blocks[c * kBlock * kBlock + i * kBlock + j];
  return K;
}

double asymmetry(const std::vector<double>& K, std::size_t n) {
  double worst = 0;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      worst = std::max(worst, std::fabs(K[i * n + j] - K[j * n + i]));
  return worst / largestMagnitude(K);
}

constexpr double kPressure = 2.5e3;

class SurfacePressureCube : public ::testing::Test {
protected:
  Cube mesh_ = cube();
  std::vector<double> x_ = [this] {
    std::vector<double> x = mesh_.rest(), u = randomArray(x.size(), 0.15, 7);
    for (std::size_t i = 0; i < x.size(); ++i) x[i] += u[i];
    return x;
  }();
  SurfacePressure closed_{
      mesh_.cells, mesh_.points, {{kPressure, mesh_.boundary, std::nullopt}}, {}};
};

TEST_F(SurfacePressureCube, ClosedSurfaceHasNoNetForceInAnyConfiguration) {
  ASSERT_EQ(mesh_.boundary.size(), 48u);  // 6 faces of 2 x 2 squares, 2 triangles each
  const std::vector<double> f = force(closed_, x_);
  Vec3 total{0, 0, 0};
  for (std::size_t i = 0; i < f.size(); ++i) total[i % 3] += f[i];
  const double scale = largestMagnitude(f);
  EXPECT_GT(scale, 100.0);
  for (int d = 0; d < 3; ++d) EXPECT_LT(std::fabs(total[d]), 1e-13 * scale) << d;
  std::cout << "[ figures ] net force / largest nodal force: "
            << std::max({std::fabs(total[0]), std::fabs(total[1]), std::fabs(total[2])}) / scale
            << "\n";
}

TEST_F(SurfacePressureCube, RestForceIsPressureTimesAreaAlongTheOutwardNormal) {
  // At rest, the node at the centre of the face x = 1 carries a third of the area of the six
  // triangles around it (6 x 1/8 / 3 = 1/4): force p/4 along +x.
  const std::vector<double> f = force(closed_, mesh_.rest());
  const std::size_t centre = 2 + 3 * (1 + 3 * 1);  // (i, j, k) = (2, 1, 1)
  EXPECT_NEAR(f[3 * centre], kPressure / 4, 1e-12 * kPressure);
  EXPECT_NEAR(f[3 * centre + 1], 0.0, 1e-12 * kPressure);
  EXPECT_NEAR(f[3 * centre + 2], 0.0, 1e-12 * kPressure);
}

// The force is quadratic in x, so central differences are exact but for rounding: every entry of
// K, column by column, element blocks and addDForce alike.
TEST_F(SurfacePressureCube, TangentEqualsCentralDifferencesEntryByEntry) {
  const std::size_t n = x_.size();
  force(closed_, x_);
  const std::vector<double> K = assembledK(closed_, mesh_.cells, n);
  const double eps = 1e-3;
  double worstBlocks = 0, worstProduct = 0;
  for (std::size_t j = 0; j < n; ++j) {
    std::vector<double> plus = x_, minusX = x_;
    plus[j] += eps;
    minusX[j] -= eps;
    const std::vector<double> fp = force(closed_, plus), fm = force(closed_, minusX);
    force(closed_, x_);  // the linearization point again
    std::vector<double> fd(n), column(n), product(n, 0.0), unit(n, 0.0);
    for (std::size_t i = 0; i < n; ++i) {
      fd[i] = (fp[i] - fm[i]) / (2 * eps);
      column[i] = K[i * n + j];
    }
    unit[j] = 1;
    closed_.addDForce(unit.data(), product.data(), 1.0);
    worstBlocks = std::max(worstBlocks, largestDifference(fd, column));
    worstProduct = std::max(worstProduct, largestDifference(fd, product));
  }
  const double scale = largestMagnitude(K);
  EXPECT_GT(scale, 100.0);
  EXPECT_LT(worstBlocks, 1e-9 * scale);
  EXPECT_LT(worstProduct, 1e-9 * scale);
  std::cout << "[ figures ] K against central differences, largest entry error / largest entry: "
            << "element blocks " << worstBlocks / scale << ", addDForce " << worstProduct / scale
            << "\n";
  // kFactor scales the product.
  const std::vector<double> dx = randomArray(n, 1.0, 11);
  std::vector<double> once(n, 0.0), scaled(n, 0.0);
  closed_.addDForce(dx.data(), once.data(), 1.0);
  closed_.addDForce(dx.data(), scaled.data(), -2.5);
  for (auto& v : once) v *= -2.5;
  EXPECT_LT(largestDifference(once, scaled), 1e-13 * largestMagnitude(once));
}

TEST_F(SurfacePressureCube, AssembledTangentIsSymmetricOnAClosedSurfaceOnly) {
  const std::size_t n = x_.size();
  force(closed_, x_);
  const double closedAsymmetry = asymmetry(assembledK(closed_, mesh_.cells, n), n);
  EXPECT_LT(closedAsymmetry, 1e-14);
  // One face of the cube (x = 1) alone: K is not symmetric.
  std::vector<SurfacePressure::Triangle> face;
  for (const auto& t : mesh_.boundary) {
    bool onFace = true;
    for (int s : t.slots) onFace = onFace && mesh_.points[mesh_.cells[t.cell][s]][0] == 1.0;
    if (onFace) face.push_back(t);
  }
  ASSERT_EQ(face.size(), 8u);
  SurfacePressure open(mesh_.cells, mesh_.points, {{kPressure, face, std::nullopt}}, {});
  force(open, x_);
  const double openAsymmetry = asymmetry(assembledK(open, mesh_.cells, n), n);
  EXPECT_GT(openAsymmetry, 0.1);
  std::cout << "[ figures ] max |K - K^T| / max |K|: closed surface " << closedAsymmetry
            << ", one face " << openAsymmetry << "\n";
  EXPECT_FALSE(open.symmetricK());
  EXPECT_FALSE(open.isLinear());
}

// A box keeps the triangles whose three current vertices lie in it: moving the cube out of the
// box switches the load and its tangent off.
TEST_F(SurfacePressureCube, BoxTestsTheCurrentPositions) {
  const eis::Box box{{-0.1, -0.1, -0.1}, {1.1, 1.1, 1.1}};
  SurfacePressure boxed(mesh_.cells, mesh_.points, {{kPressure, mesh_.boundary, box}}, {});
  std::vector<double> x = mesh_.rest();
  EXPECT_GT(largestMagnitude(force(boxed, x)), 100.0);
  for (std::size_t i = 0; i < x.size(); i += 3) x[i] += 5;
  EXPECT_EQ(largestMagnitude(force(boxed, x)), 0.0);
  std::vector<double> product(x.size(), 0.0);
  const std::vector<double> dx = randomArray(x.size(), 1.0, 3);
  boxed.addDForce(dx.data(), product.data(), 1.0);
  EXPECT_EQ(largestMagnitude(product), 0.0);
  EXPECT_EQ(largestMagnitude(assembledK(boxed, mesh_.cells, x.size())), 0.0);
}

// A traction t on the closed surface: each node gets t times a third of the rest area of its
// triangles, whatever x; in all 6 t (the cube's area), and K = 0.
TEST_F(SurfacePressureCube, TractionIsAConstantLoadOfTheRestArea) {
  const std::array<double, 3> t{3.0, -1.5, 0.5};
  SurfacePressure traction(mesh_.cells, mesh_.points, {}, {{t, mesh_.boundary}});
  EXPECT_TRUE(traction.isLinear());
  EXPECT_TRUE(traction.symmetricK());
  const std::vector<double> atRest = force(traction, mesh_.rest()), moved = force(traction, x_);
  EXPECT_EQ(largestDifference(atRest, moved), 0.0);
  Vec3 total{0, 0, 0};
  for (std::size_t i = 0; i < moved.size(); ++i) total[i % 3] += moved[i];
  for (int d = 0; d < 3; ++d) EXPECT_NEAR(total[d], 6 * t[d], 1e-13);
  // Node 0, a corner: a third of the rest area of its triangles (1/8 each) times t.
  double cornerArea = 0;
  for (const auto& tri : mesh_.boundary)
    for (int s : tri.slots)
      if (mesh_.cells[tri.cell][s] == 0) cornerArea += 1.0 / 8;
  for (int d = 0; d < 3; ++d) EXPECT_NEAR(moved[d], t[d] * cornerArea / 3, 1e-14);
  EXPECT_EQ(largestMagnitude(assembledK(traction, mesh_.cells, x_.size())), 0.0);
}

}  // namespace
