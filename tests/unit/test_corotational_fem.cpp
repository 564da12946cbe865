// The corotational element (SOFA's TetrahedronFEMForceField, method "large" and "polar"): no
// force under rigid motions (where the linear element fails), SOFA's tangent R^T K0 R rebuilt
// here from scratch, agreement with the linear element at small strain, the "large" frame's
// dependence on the vertex order, and the linearization point that addForce sets.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>
#include <vector>

#include "eis/mesh/box_mesh.hpp"
#include "eis/model/corotational_fem.hpp"
#include "eis/model/linear_elastic_fem.hpp"
#include "max_norms.hpp"

using testing_norms::largestDifference;
using testing_norms::largestMagnitude;

namespace {

using eis::RotationMethod;
using eis::Vec3;
using Cells = eis::Cells;
using Mat3 = std::array<Vec3, 3>;  // rows

constexpr double E = 1234.0, nu = 0.31;

// The same material, E and nu, on each of `cells` cells.
std::vector<eis::LameParameters> uniformLame(std::size_t cells) {
  return std::vector<eis::LameParameters>(cells, eis::lameParameters(E, nu));
}
const RotationMethod kMethods[] = {RotationMethod::Large, RotationMethod::Polar};

const char* name(RotationMethod m) {
  return m == RotationMethod::Large ? "large" : "polar";
}

// --- small dense helpers --------------------------------------------------------------------

Vec3 operator-(const Vec3& a, const Vec3& b) {
  return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}
double dot(const Vec3& a, const Vec3& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
Vec3 cross(const Vec3& a, const Vec3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
Vec3 scaled(const Vec3& a, double s) {
  return {s * a[0], s * a[1], s * a[2]};
}
Vec3 times(const Mat3& m, const Vec3& v) {
  return {dot(m[0], v), dot(m[1], v), dot(m[2], v)};
}
Mat3 transpose(const Mat3& m) {
  return {{{m[0][0], m[1][0], m[2][0]}, {m[0][1], m[1][1], m[2][1]}, {m[0][2], m[1][2], m[2][2]}}};
}

// Rotation by `angle` about `axis` (Rodrigues: c I + (1 - c) n n^T + s [n]x).
Mat3 rotation(Vec3 axis, double angle) {
  const Vec3 n = scaled(axis, 1 / std::sqrt(dot(axis, axis)));
  const double c = std::cos(angle), s = std::sin(angle);
  const Mat3 skew{{{0, -n[2], n[1]}, {n[2], 0, -n[0]}, {-n[1], n[0], 0}}};
  Mat3 r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      r[i][j] = (i == j ? c : 0.0) + (1 - c) * n[i] * n[j] + s * skew[i][j];
  return r;
}

// --- meshes and states ----------------------------------------------------------------------

// Points, cells and the rest shapes a field holds by reference: build in place, never copy.
struct Mesh {
  Mesh(std::vector<Vec3> p, const std::vector<std::array<PetscInt, 4>>& tets)
      : Mesh(std::move(p), cellsOf(tets)) {}
  Mesh(std::vector<Vec3> p, Cells c) : points(std::move(p)), cells(std::move(c)) {
    for (const auto t : cells)
      shapes.emplace_back(points[t[0]], points[t[1]], points[t[2]], points[t[3]]);
  }
  static Cells cellsOf(const std::vector<std::array<PetscInt, 4>>& tets) {
    Cells c;
    for (const auto& t : tets) c.push_back(t);
    return c;
  }
  std::vector<Vec3> points;
  Cells cells;
  std::vector<eis::TetraShape> shapes;
  // The view the fields take, over the same points and cells (they must outlive the field).
  eis::CellShapes cellShapes() const { return {cells, points}; }
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
};

// A deliberately irregular, negatively oriented tetrahedron (the one of
// common/one_tetrahedron.hpp).
const std::vector<Vec3> kTet{{0.1, 0.0, 0.2}, {1.3, 0.2, -0.1}, {0.2, 0.9, 0.3}, {0.4, 0.3, -1.1}};

std::vector<double> rigidlyMoved(const Mesh& m, const Mat3& q, const Vec3& t) {
  return m.moved([&](const Vec3& p) {
    const Vec3 r = times(q, p);
    return Vec3{r[0] + t[0], r[1] + t[1], r[2] + t[2]};
  });
}

// p -> q (p + g p) + t: a homogeneous deformation g, then a rigid motion.
std::vector<double> deformedAndMoved(const Mesh& m, const Mat3& g, const Mat3& q, const Vec3& t) {
  return m.moved([&](const Vec3& p) {
    const Vec3 gp = times(g, p);
    const Vec3 r = times(q, Vec3{p[0] + gp[0], p[1] + gp[1], p[2] + gp[2]});
    return Vec3{r[0] + t[0], r[1] + t[1], r[2] + t[2]};
  });
}

const Mat3 kShear{{{0.05, 0.3, -0.1}, {0.0, -0.08, 0.2}, {0.15, 0.0, 0.12}}};

std::vector<double> force(eis::ForceField& field, const std::vector<double>& x) {
  std::vector<double> f(x.size(), 0.0);
  field.addForce(x.data(), nullptr, f.data());
  return f;
}

// K = -df/dx of the last addForce, one 12x12 block per cell.
std::vector<double> stiffness(const eis::ForceField& field, std::size_t cells) {
  std::vector<double> k(144 * cells, 0.0);
  field.addKToElementMatrices(k.data(), -1.0, {0, cells});
  return k;
}

// --- SOFA's frames, rebuilt independently ---------------------------------------------------

Vec3 vertex(const std::vector<double>& x, int a) {
  return {x[3 * a], x[3 * a + 1], x[3 * a + 2]};
}

// "large": Gram-Schmidt on edges 0->1 and 0->2; rows are the axes (world -> element).
Mat3 largeFrame(const std::vector<double>& x) {
  const Vec3 e1 = vertex(x, 1) - vertex(x, 0), e2 = vertex(x, 2) - vertex(x, 0);
  const Vec3 ex = scaled(e1, 1 / std::sqrt(dot(e1, e1)));
  const Vec3 y = e2 - scaled(ex, dot(e2, ex));
  const Vec3 ey = scaled(y, 1 / std::sqrt(dot(y, y)));
  return {ex, ey, cross(ex, ey)};
}

// "polar": the orthogonal factor Q of A = Q S, A's rows being the edges from vertex 0. The
// plain (unscaled) Newton iteration X <- (X + X^-T) / 2 converges to it from X = A.
Mat3 polarFrame(const std::vector<double>& x) {
  Mat3 a{vertex(x, 1) - vertex(x, 0), vertex(x, 2) - vertex(x, 0), vertex(x, 3) - vertex(x, 0)};
  for (int step = 0; step < 60; ++step) {
    const Mat3 cof{cross(a[1], a[2]), cross(a[2], a[0]), cross(a[0], a[1])};  // det(A) A^-T
    const double det = dot(a[0], cof[0]);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) a[i][j] = 0.5 * (a[i][j] + cof[i][j] / det);
  }
  return a;
}

Mat3 sofaFrame(RotationMethod method, const std::vector<double>& x) {
  return method == RotationMethod::Large ? largeFrame(x) : polarFrame(x);
}

// K0: the linear element's stiffness on the rest element turned into its own frame r0.
std::vector<double> restFrameStiffness(const Mesh& tet, const Mat3& r0) {
  std::vector<Vec3> turned;
  for (const auto& p : tet.points) turned.push_back(times(r0, p));
  const Mesh local(turned, tet.cells);
  const eis::LinearElasticFEM linear(local.cells, local.cellShapes(), local.rest(),
                                     uniformLame(local.cells.size()));
  return stiffness(linear, 1);
}

// Blockwise R^T K0 R of a 12x12 matrix.
std::vector<double> rotated(const std::vector<double>& k0, const Mat3& r) {
  std::vector<double> k(144, 0.0);
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b)
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
          for (int p = 0; p < 3; ++p)
            for (int q = 0; q < 3; ++q)
              k[(3 * a + i) * 12 + 3 * b + j] +=
                  r[p][i] * k0[(3 * a + p) * 12 + 3 * b + q] * r[q][j];
  return k;
}

// --- (1) rigid motions ----------------------------------------------------------------------

struct RigidMotion {
  Mat3 q;
  Vec3 t;
};
const RigidMotion kMotions[] = {
    {rotation({1, 0, 0}, 0.0), {0, 0, 0}},         // the rest state itself
    {rotation({1, 0, 0}, 0.0), {3.0, -2.0, 7.5}},  // a translation
    {rotation({0, 0, 1}, 0.4), {0, 0, 0}},
    {rotation({1, 2, 3}, 2.0), {-1.0, 0.5, 4.0}},
    {rotation({-2, 1, 0.5}, 3.1), {10.0, 10.0, -10.0}},  // nearly a half turn
};

TEST(Corotational, RigidMotionsOfATetrahedronGiveNoForceEnergyOrStress) {
  // Both orientations: SOFA's polar frame is a reflection for the negative one.
  const Mesh negative(kTet, {{0, 1, 2, 3}});
  const Mesh positive(kTet, {{0, 2, 1, 3}});
  ASSERT_LT(negative.shapes[0].signedVolume, 0);
  ASSERT_GT(positive.shapes[0].signedVolume, 0);
  for (const Mesh* tet : {&negative, &positive})
    for (auto method : kMethods) {
      SCOPED_TRACE(name(method));
      eis::CorotationalFEM fem(tet->cells, tet->cellShapes(), tet->rest(),
                               uniformLame(tet->cells.size()), method);
      for (const auto& motion : kMotions) {
        const auto x = rigidlyMoved(*tet, motion.q, motion.t);
        for (double fi : force(fem, x)) EXPECT_NEAR(fi, 0.0, 1e-10 * E);  // size ~ 1
        EXPECT_NEAR(fem.potentialEnergy(x.data()), 0.0, 1e-20 * E);
        EXPECT_NEAR(fem.vonMisesStress(x.data())[0], 0.0, 1e-10 * E);
      }
    }
}

TEST(Corotational, RigidMotionOfABoxMeshGivesNoForce) {
  const auto box = eis::makeBoxMesh({2, 1, 1}, {2, 2, 2});
  Cells cells;
  for (const auto& t : box.cells)
    cells.push_back({PetscInt(t[0]), PetscInt(t[1]), PetscInt(t[2]), PetscInt(t[3])});
  const Mesh mesh(box.nodes, cells);
  const double size = 1.0;  // the cells' edge length
  for (auto method : kMethods) {
    SCOPED_TRACE(name(method));
    eis::CorotationalFEM fem(mesh.cells, mesh.cellShapes(), mesh.rest(),
                             uniformLame(mesh.cells.size()), method);
    EXPECT_LT(largestMagnitude(force(fem, mesh.rest())), 1e-10 * E * size * size);
    const auto x = rigidlyMoved(mesh, rotation({1, -2, 0.7}, 1.3), {5.0, -3.0, 2.0});
    EXPECT_LT(largestMagnitude(force(fem, x)), 1e-10 * E * size * size);
    for (double s : fem.vonMisesStress(x.data())) EXPECT_LT(s, 1e-10 * E);
  }
}

// Why the corotational element exists: the linear one sees a finite rotation as a strain.
TEST(Corotational, LinearElementIsNotInvariantUnderAFiniteRotation) {
  const Mesh tet(kTet, {{0, 1, 2, 3}});
  eis::LinearElasticFEM linear(tet.cells, tet.cellShapes(), tet.rest(),
                               uniformLame(tet.cells.size()));
  eis::CorotationalFEM corotational(tet.cells, tet.cellShapes(), tet.rest(),
                                    uniformLame(tet.cells.size()), RotationMethod::Large);
  const auto x = rigidlyMoved(tet, rotation({0, 0, 1}, 0.5), {0, 0, 0});
  EXPECT_GT(largestMagnitude(force(linear, x)), 1e-2 * E);
  EXPECT_LT(largestMagnitude(force(corotational, x)), 1e-10 * E);
}

// Objectivity: turning a deformed element turns its forces and keeps its energy and stress.
TEST(Corotational, ForcesTurnWithTheElement) {
  const Mesh tet(kTet, {{0, 1, 2, 3}});
  const Mat3 q = rotation({0.3, -1, 2}, 2.2), none = rotation({1, 0, 0}, 0.0);
  for (auto method : kMethods) {
    SCOPED_TRACE(name(method));
    eis::CorotationalFEM fem(tet.cells, tet.cellShapes(), tet.rest(), uniformLame(tet.cells.size()),
                             method);
    const auto x = deformedAndMoved(tet, kShear, none, {0, 0, 0});
    const auto y = deformedAndMoved(tet, kShear, q, {1.0, 2.0, -3.0});
    const auto fx = force(fem, x), fy = force(fem, y);
    ASSERT_GT(largestMagnitude(fx), 1e-2 * E);
    for (int a = 0; a < 4; ++a) {
      const Vec3 turned = times(q, vertex(fx, a));
      for (int i = 0; i < 3; ++i) EXPECT_NEAR(fy[3 * a + i], turned[i], 1e-10 * E);
    }
    EXPECT_NEAR(fem.potentialEnergy(y.data()), fem.potentialEnergy(x.data()), 1e-10 * E);
    EXPECT_NEAR(fem.vonMisesStress(y.data())[0], fem.vonMisesStress(x.data())[0], 1e-10 * E);
  }
}

// --- (2) SOFA's tangent and force, rebuilt ----------------------------------------------------

TEST(Corotational, ForceAndMatrixAreTheRestFrameLinearElementTurnedWithTheElement) {
  const Mesh tet(kTet, {{0, 1, 2, 3}});
  for (auto method : kMethods) {
    SCOPED_TRACE(name(method));
    eis::CorotationalFEM fem(tet.cells, tet.cellShapes(), tet.rest(), uniformLame(tet.cells.size()),
                             method);
    const auto rest = tet.rest();
    const auto x = deformedAndMoved(tet, kShear, rotation({1, 1, -0.5}, 0.9), {0.5, -1.0, 2.0});
    const Mat3 r0 = sofaFrame(method, rest), r = sofaFrame(method, x);
    const auto k0 = restFrameStiffness(tet, r0);
    const auto expectedK = rotated(k0, r);

    // f = R^T K0 d, d_a = R0 (X_a - X_0) - R (x_a - x_0).
    std::vector<double> d(12, 0.0), expectedF(12, 0.0);
    for (int a = 1; a < 4; ++a) {
      const Vec3 da =
          times(r0, vertex(rest, a) - vertex(rest, 0)) - times(r, vertex(x, a) - vertex(x, 0));
      for (int i = 0; i < 3; ++i) d[3 * a + i] = da[i];
    }
    for (int a = 0; a < 4; ++a) {
      Vec3 local{};
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 12; ++j) local[i] += k0[(3 * a + i) * 12 + j] * d[j];
      const Vec3 world = times(transpose(r), local);
      for (int i = 0; i < 3; ++i) expectedF[3 * a + i] = world[i];
    }
    const auto f = force(fem, x);  // also sets the linearization point at x
    ASSERT_GT(largestMagnitude(expectedF), 1e-2 * E);
    EXPECT_LT(largestDifference(f, expectedF), 1e-10 * E);

    const auto k = stiffness(fem, 1);
    const double scale = largestMagnitude(expectedK);
    EXPECT_LT(largestDifference(k, expectedK), 1e-12 * scale);
    for (int i = 0; i < 12; ++i)
      for (int j = 0; j < 12; ++j) EXPECT_NEAR(k[i * 12 + j], k[j * 12 + i], 1e-12 * scale);

    // addDForce is the same matrix, applied: df = -kFactor K dx.
    std::vector<double> dx(12), df(12, 0.0), expectedDf(12, 0.0);
    for (int i = 0; i < 12; ++i) dx[i] = std::cos(1.7 * i + 0.3);
    fem.addDForce(dx.data(), df.data(), 2.5);
    for (int i = 0; i < 12; ++i)
      for (int j = 0; j < 12; ++j) expectedDf[i] -= 2.5 * expectedK[i * 12 + j] * dx[j];
    EXPECT_LT(largestDifference(df, expectedDf), 1e-12 * scale);
  }
}

// Before any addForce the frames are the rest ones, so K is the linear element's; afterwards
// only addForce moves the linearization point (energy and stress evaluations do not).
TEST(Corotational, OnlyAddForceMovesTheLinearizationPoint) {
  const Mesh tet(kTet, {{0, 1, 2, 3}});
  const eis::LinearElasticFEM linear(tet.cells, tet.cellShapes(), tet.rest(),
                                     uniformLame(tet.cells.size()));
  const auto kLinear = stiffness(linear, 1);
  for (auto method : kMethods) {
    SCOPED_TRACE(name(method));
    eis::CorotationalFEM fem(tet.cells, tet.cellShapes(), tet.rest(), uniformLame(tet.cells.size()),
                             method);
    EXPECT_LT(largestDifference(stiffness(fem, 1), kLinear), 1e-12 * largestMagnitude(kLinear));
    const auto x = deformedAndMoved(tet, kShear, rotation({0, 1, 0}, 1.2), {0, 0, 0});
    const auto y = deformedAndMoved(tet, kShear, rotation({1, 0, 0}, -0.7), {0, 0, 0});
    force(fem, x);
    const auto kx = stiffness(fem, 1);
    EXPECT_GT(largestDifference(kx, kLinear), 1e-2 * largestMagnitude(kLinear));
    fem.potentialEnergy(y.data());
    fem.vonMisesStress(y.data());
    EXPECT_EQ(stiffness(fem, 1), kx);
    force(fem, y);
    EXPECT_GT(largestDifference(stiffness(fem, 1), kx), 1e-2 * largestMagnitude(kLinear));
  }
}

// A controller's localStiffnessFactor (SOFA's updateStiffness): setCellMaterials gives the
// element the new modulus from the next addForce on, force and tangent alike, as a field built
// with it; a count that is not one per cell is refused.
TEST(Corotational, NewCellMaterialsActAsIfBuiltWithThem) {
  const Mesh tet(kTet, {{0, 1, 2, 3}});
  const auto x = deformedAndMoved(tet, kShear, rotation({0, 1, 0}, 1.2), {0, 0, 0});
  const std::vector<eis::LameParameters> softer(1, eis::lameParameters(0.3 * E, nu));
  for (auto method : kMethods) {
    SCOPED_TRACE(name(method));
    eis::CorotationalFEM fem(tet.cells, tet.cellShapes(), tet.rest(), uniformLame(1), method);
    eis::CorotationalFEM built(tet.cells, tet.cellShapes(), tet.rest(), softer, method);
    const auto before = force(fem, x);
    fem.setCellMaterials(softer);
    const auto after = force(fem, x), expected = force(built, x);
    EXPECT_GT(largestDifference(after, before), 0.5 * largestMagnitude(before));
    EXPECT_LT(largestDifference(after, expected), 1e-12 * largestMagnitude(expected));
    const auto k = stiffness(fem, 1), kBuilt = stiffness(built, 1);
    EXPECT_LT(largestDifference(k, kBuilt), 1e-12 * largestMagnitude(kBuilt));
    EXPECT_THROW(fem.setCellMaterials(uniformLame(2)), eis::Error);
  }
}

// --- (3) and (5) small strain ---------------------------------------------------------------

// At x = X + eps u the two elements differ by O(eps^2) in force (O(eps^3) in energy): the
// corotational element is the linear one plus geometric terms.
TEST(Corotational, SmallDeformationsMatchTheLinearElement) {
  const Mesh tet(kTet, {{0, 1, 2, 3}});
  eis::LinearElasticFEM linear(tet.cells, tet.cellShapes(), tet.rest(),
                               uniformLame(tet.cells.size()));
  for (auto method : kMethods) {
    SCOPED_TRACE(name(method));
    eis::CorotationalFEM fem(tet.cells, tet.cellShapes(), tet.rest(), uniformLame(tet.cells.size()),
                             method);
    double previous = 0;
    for (double eps : {1e-3, 1e-4}) {
      auto x = tet.rest();
      for (std::size_t i = 0; i < x.size(); ++i) x[i] += eps * std::sin(2.3 * double(i) + 0.4);
      const auto fLinear = force(linear, x), f = force(fem, x);
      const double difference = largestDifference(f, fLinear);
      EXPECT_GT(largestMagnitude(fLinear), 0.1 * E * eps);  // the force itself is O(eps)
      EXPECT_LT(difference, 10 * E * eps * eps);            // the difference O(eps^2)
      if (previous > 0) {
        EXPECT_NEAR(difference / previous, 0.01, 0.003);  // eps / 10: / 100
      }
      previous = difference;

      const double energy = linear.potentialEnergy(x.data());
      EXPECT_NEAR(fem.potentialEnergy(x.data()), energy, 10 * eps * energy);
      const double stress = linear.vonMisesStress(x.data())[0];
      EXPECT_GT(stress, 0.1 * E * eps);
      EXPECT_NEAR(fem.vonMisesStress(x.data())[0], stress, 10 * eps * stress);
    }
  }
}

// --- (4) the "large" frame and the vertex order ------------------------------------------------

// The same tetrahedron listed from another vertex: "large" builds another frame from it, so the
// forces of a rotated, sheared state differ, while rigid motions still give none.
TEST(Corotational, LargeFrameDependsOnTheVertexOrder) {
  const Mesh given(kTet, {{0, 1, 2, 3}});
  const Mesh permuted(kTet, {{2, 0, 3, 1}});
  eis::CorotationalFEM a(given.cells, given.cellShapes(), given.rest(),
                         uniformLame(given.cells.size()), RotationMethod::Large);
  eis::CorotationalFEM b(permuted.cells, permuted.cellShapes(), permuted.rest(),
                         uniformLame(permuted.cells.size()), RotationMethod::Large);
  const Mat3 q = rotation({2, -1, 1}, 0.8);
  const auto x = deformedAndMoved(given, kShear, q, {1.0, 0.0, -1.0});
  const auto fa = force(a, x), fb = force(b, x);
  EXPECT_GT(largestDifference(fa, fb), 1e-2 * largestMagnitude(fa));
  const auto rigid = rigidlyMoved(given, q, {1.0, 0.0, -1.0});
  EXPECT_LT(largestMagnitude(force(a, rigid)), 1e-10 * E);
  EXPECT_LT(largestMagnitude(force(b, rigid)), 1e-10 * E);
  // The order does not matter to the linear element: the difference is the frame's.
  eis::LinearElasticFEM la(given.cells, given.cellShapes(), given.rest(),
                           uniformLame(given.cells.size()));
  eis::LinearElasticFEM lb(permuted.cells, permuted.cellShapes(), permuted.rest(),
                           uniformLame(permuted.cells.size()));
  EXPECT_LT(largestDifference(force(la, x), force(lb, x)), 1e-10 * E);
}

// SOFA's svd method is polar's frame while det F >= 1e-6 (accumulateForceSVD): the same forces
// bit for bit; an element flattened or inverted past that stops the step (SOFA's stable SVD
// branch is not implemented) instead of giving another answer silently.
TEST(Corotational, SvdIsPolarUntilAnElementFlattens) {
  const Mesh mesh(kTet, {{0, 1, 2, 3}});
  eis::CorotationalFEM polar(mesh.cells, mesh.cellShapes(), mesh.rest(),
                             uniformLame(mesh.cells.size()), RotationMethod::Polar);
  eis::CorotationalFEM svd(mesh.cells, mesh.cellShapes(), mesh.rest(),
                           uniformLame(mesh.cells.size()), RotationMethod::Svd);
  const auto x = deformedAndMoved(mesh, kShear, rotation({2, -1, 1}, 0.8), {1.0, 0.0, -1.0});
  EXPECT_EQ(force(polar, x), force(svd, x));
  // Vertex 3 moved onto the plane of 0, 1, 2: det F = 0.
  std::vector<double> flat = mesh.rest();
  for (int d = 0; d < 3; ++d) flat[9 + d] = flat[d] + 0.5 * (flat[3 + d] - flat[d]);
  EXPECT_NO_THROW(force(polar, flat));
  EXPECT_THROW(force(svd, flat), eis::InvertedElement);
}

// SOFA's FastTetrahedralCorotationalForceField method "polar": the polar factor of the
// deformation gradient. Under x = q (I + S) X + t with S symmetric (I + S positive definite),
// F = q (I + S), whose polar factor is q exactly: the force is the linear element's under the
// stretch S turned by q, and the tangent q K q^T; the edge matrix's polar factor is not q.
TEST(Corotational, PolarGradientTurnsTheLinearElementByFsRotation) {
  const Mesh mesh(kTet, {{0, 1, 2, 3}});
  const auto lame = uniformLame(mesh.cells.size());
  eis::CorotationalFEM gradient(mesh.cells, mesh.cellShapes(), mesh.rest(), lame,
                                RotationMethod::PolarGradient);
  eis::CorotationalFEM polar(mesh.cells, mesh.cellShapes(), mesh.rest(), lame,
                             RotationMethod::Polar);
  eis::LinearElasticFEM linear(mesh.cells, mesh.cellShapes(), mesh.rest(), lame);
  const Mat3 stretch{{{0.12, 0.05, -0.03}, {0.05, -0.07, 0.02}, {-0.03, 0.02, 0.09}}};
  const Mat3 q = rotation({1, -2, 0.5}, 1.1);
  const Vec3 t{0.3, -1.0, 2.0};
  const auto x = deformedAndMoved(mesh, stretch, q, t);
  const auto stretched = deformedAndMoved(mesh, stretch, rotation({1, 0, 0}, 0.0), {0, 0, 0});
  const auto fLinear = force(linear, stretched);
  std::vector<double> want;
  for (int a = 0; a < 4; ++a) {
    const Vec3 turned = times(q, vertex(fLinear, a));
    want.insert(want.end(), turned.begin(), turned.end());
  }
  const auto got = force(gradient, x);
  EXPECT_LT(largestDifference(got, want), 1e-11 * largestMagnitude(want));
  EXPECT_GT(largestDifference(force(polar, x), want), 1e-4 * largestMagnitude(want));
  const auto k = stiffness(gradient, 1);
  const auto kWant = rotated(stiffness(linear, 1), transpose(q));
  EXPECT_LT(largestDifference(k, kWant), 1e-11 * largestMagnitude(kWant));
  // No force at rest, nor under a rigid motion.
  EXPECT_LT(largestMagnitude(force(gradient, rigidlyMoved(mesh, q, t))),
            1e-11 * largestMagnitude(want));
}

}  // namespace
