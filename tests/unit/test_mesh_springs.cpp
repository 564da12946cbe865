// SOFA's MeshSpringForceField on one tetrahedron and on a cube of six: the force of one spring,
// none under rigid motions, K and B against finite differences of the force, SOFA's tangent at
// a moving state, and the element matrices against the matrix-free products.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "eis/mesh/box_mesh.hpp"
#include "eis/model/mesh_springs.hpp"
#include "max_norms.hpp"

using testing_norms::largestDifference;
using testing_norms::largestMagnitude;

namespace {

using eis::CellEdge;
using eis::Vec3;
using Cells = eis::Cells;

constexpr double stiffness = 350.0, damping = 2.5;

double dot(const Vec3& a, const Vec3& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
double distance(const Vec3& a, const Vec3& b) {
  const Vec3 d{b[0] - a[0], b[1] - a[1], b[2] - a[2]};
  return std::sqrt(dot(d, d));
}

// Every edge of the cells once, in the first cell that has it.
std::vector<CellEdge> uniqueEdges(const Cells& cells) {
  std::set<std::pair<PetscInt, PetscInt>> seen;
  std::vector<CellEdge> edges;
  for (std::size_t c = 0; c < cells.size(); ++c)
    for (int a = 0; a < 4; ++a)
      for (int b = a + 1; b < 4; ++b) {
        const auto key = std::minmax(cells[c][a], cells[c][b]);
        if (seen.insert(key).second) edges.push_back({PetscInt(c), a, b});
      }
  return edges;
}

struct Mesh {
  std::vector<Vec3> points;
  Cells cells;
  std::vector<double> rest() const {
    std::vector<double> x;
    for (const auto& p : points) x.insert(x.end(), p.begin(), p.end());
    return x;
  }
};

Mesh tetrahedron() {
  return {{{0, 0, 0}, {1.5, 0.1, 0}, {0.2, 1.1, 0.1}, {0.3, 0.2, 0.9}},
          Cells(eis::CellType::Tetrahedron, {0, 1, 2, 3})};
}

// Six tetrahedra around the diagonal of a unit cube: 19 edges, each spring placed in one cell.
Mesh cube() {
  const auto box = eis::makeBoxMesh({1, 1, 1}, {1, 1, 1});
  Mesh mesh{box.nodes, {}};
  for (const auto& t : box.cells)
    mesh.cells.push_back({PetscInt(t[0]), PetscInt(t[1]), PetscInt(t[2]), PetscInt(t[3])});
  return mesh;
}

// A spring on every edge of the mesh.
eis::MeshSpringForceField everyEdge(const Mesh& mesh, double kd) {
  return eis::MeshSpringForceField(mesh.cells, uniqueEdges(mesh.cells), mesh.points, stiffness, kd);
}

std::vector<double> randomArray(std::size_t n, double scale, unsigned seed) {
  std::mt19937 generator(seed);
  std::uniform_real_distribution<double> uniform(-scale, scale);
  std::vector<double> values(n);
  for (auto& value : values) value = uniform(generator);
  return values;
}

std::vector<double> plus(std::vector<double> a, const std::vector<double>& b, double s = 1.0) {
  for (std::size_t i = 0; i < a.size(); ++i) a[i] += s * b[i];
  return a;
}

std::vector<double> force(eis::MeshSpringForceField& field, const std::vector<double>& x,
                          const std::vector<double>& v) {
  std::vector<double> f(x.size(), 0.0);
  field.addForce(x.data(), v.data(), f.data());
  return f;
}

// (f(w + eps dw) - f(w - eps dw)) / 2 eps, moving x (inX) or v, then f at (x, v) again: the
// linearization point the tangents use.
std::vector<double> centredDifference(eis::MeshSpringForceField& field,
                                      const std::vector<double>& x, const std::vector<double>& v,
                                      const std::vector<double>& dw, bool inX, double eps) {
  const auto& w = inX ? x : v;
  const auto up = inX ? force(field, plus(w, dw, eps), v) : force(field, x, plus(w, dw, eps));
  const auto down = inX ? force(field, plus(w, dw, -eps), v) : force(field, x, plus(w, dw, -eps));
  force(field, x, v);
  std::vector<double> fd(x.size());
  for (std::size_t i = 0; i < fd.size(); ++i) fd[i] = (up[i] - down[i]) / (2 * eps);
  return fd;
}

std::vector<double> kTimes(const eis::MeshSpringForceField& field, const std::vector<double>& dx) {
  std::vector<double> df(dx.size(), 0.0);
  field.addDForce(dx.data(), df.data(), 1.0);
  return df;
}

std::vector<double> bTimes(const eis::MeshSpringForceField& field, const std::vector<double>& dv) {
  std::vector<double> df(dv.size(), 0.0);
  field.addBDv(dv.data(), df.data(), 1.0);
  return df;
}

// The global dense matrix the element matrices assemble to (K, or B), row-major. The blocks are
// asked for one cell at a time, as chunked assembly does at its chunk borders.
std::vector<double> assembled(const eis::MeshSpringForceField& field, const Mesh& mesh, bool b) {
  std::vector<double> blocks(mesh.cells.size() * 144, 0.0);
  for (std::size_t c = 0; c < mesh.cells.size(); ++c) {
    if (b)
      field.addBToElementMatrices(blocks.data() + 144 * c, 1.0, {c, c + 1});
    else
      field.addKToElementMatrices(blocks.data() + 144 * c, 1.0, {c, c + 1});
  }
  const std::size_t n = 3 * mesh.points.size();
  std::vector<double> dense(n * n, 0.0);
  for (std::size_t c = 0; c < mesh.cells.size(); ++c)
    for (std::size_t i = 0; i < 12; ++i)
      for (std::size_t j = 0; j < 12; ++j)
        dense[(3 * mesh.cells[c][i / 3] + i % 3) * n + 3 * mesh.cells[c][j / 3] + j % 3] +=
            blocks[c * 144 + i * 12 + j];
  return dense;
}

std::vector<double> times(const std::vector<double>& dense, const std::vector<double>& w) {
  std::vector<double> out(w.size(), 0.0);
  for (std::size_t i = 0; i < w.size(); ++i)
    for (std::size_t j = 0; j < w.size(); ++j) out[i] += dense[i * w.size() + j] * w[j];
  return out;
}

TEST(MeshSprings, OneSpringPullsAlongItsEdgeWithStiffnessPerRestLength) {
  const Mesh mesh = tetrahedron();
  eis::MeshSpringForceField field(mesh.cells, {{0, 0, 1}}, mesh.points, stiffness, 0.0);
  EXPECT_EQ(field.numSprings(), 1u);
  EXPECT_FALSE(field.usesVelocity());
  const double restLength = distance(mesh.points[0], mesh.points[1]);
  auto x = mesh.rest();
  const std::vector<double> v(x.size(), 0.0);
  // Vertex 1 moved to (0, 0, 2): length 2, along z.
  x[3] = 0, x[4] = 0, x[5] = 2;
  const auto f = force(field, x, v);
  const double intensity = stiffness / restLength * (2 - restLength);  // SOFA: ks = stiffness / L0
  const std::vector<double> expected{0, 0, intensity, 0, 0, -intensity, 0, 0, 0, 0, 0, 0};
  EXPECT_LT(largestDifference(f, expected), 1e-12 * intensity);
  EXPECT_NEAR(field.potentialEnergy(x.data()),
              stiffness / restLength * std::pow(2 - restLength, 2) / 2, 1e-12);
  // At its rest length, in any direction, the spring is silent.
  x[3] = restLength * 0.6, x[4] = restLength * 0.8, x[5] = 0;
  EXPECT_LT(largestMagnitude(force(field, x, v)), 1e-12);
  // Collapsed onto its other end it has no direction: no force and no tangent (SOFA's guard).
  x[3] = 0, x[4] = 0, x[5] = 0;
  EXPECT_EQ(largestMagnitude(force(field, x, v)), 0.0);
  EXPECT_EQ(largestMagnitude(kTimes(field, randomArray(x.size(), 1.0, 1))), 0.0);
}

TEST(MeshSprings, RigidMotionsGiveNoForce) {
  const Mesh mesh = tetrahedron();
  auto field = everyEdge(mesh, damping);
  EXPECT_EQ(field.numSprings(), 6u);
  EXPECT_TRUE(field.usesVelocity());
  // x = R p + c (rotation about z by 0.7, then a translation), v = w cross x + c'.
  const double c = std::cos(0.7), s = std::sin(0.7);
  const Vec3 w{0.3, -1.2, 0.8};
  std::vector<double> x, v;
  for (const auto& p : mesh.points) {
    const Vec3 q{c * p[0] - s * p[1] + 2, s * p[0] + c * p[1] - 1, p[2] + 0.5};
    x.insert(x.end(), q.begin(), q.end());
    v.insert(v.end(), {w[1] * q[2] - w[2] * q[1] + 0.4, w[2] * q[0] - w[0] * q[2],
                       w[0] * q[1] - w[1] * q[0] - 3});
  }
  EXPECT_LT(largestMagnitude(force(field, x, v)), 1e-11 * stiffness);
  EXPECT_LT(field.potentialEnergy(x.data()), 1e-20);
}

// At v = 0, K is the exact derivative of the force, with or without damping.
TEST(MeshSprings, TangentEqualsFiniteDifferencesOfTheForceAtRest) {
  const Mesh mesh = cube();
  for (double kd : {0.0, damping}) {
    auto field = everyEdge(mesh, kd);
    EXPECT_EQ(field.numSprings(), 19u);  // 12 cube edges, 6 face diagonals, 1 body diagonal
    for (unsigned seed = 1; seed <= 3; ++seed) {
      SCOPED_TRACE(seed);
      const auto x = plus(mesh.rest(), randomArray(3 * mesh.points.size(), 0.3, seed));
      const std::vector<double> v(x.size(), 0.0);
      const auto dx = randomArray(x.size(), 1.0, 10 + seed);
      const auto fd = centredDifference(field, x, v, dx, true, 1e-6);
      const auto k = kTimes(field, dx);
      EXPECT_LT(largestDifference(fd, k), 1e-7 * largestMagnitude(k)) << "kd = " << kd;
    }
  }
}

// The damping is explicit, as in SOFA's SpringForceField: f depends on v through
// kd (v_b - v_a).u u per spring (kd = KD / L0, u along the spring), and B, what the step's matrix
// takes of it, is zero.
TEST(MeshSprings, DampingIsInTheForceAndNotInTheMatrix) {
  const Mesh mesh = cube();
  const auto edges = uniqueEdges(mesh.cells);
  eis::MeshSpringForceField field(mesh.cells, edges, mesh.points, stiffness, damping);
  const auto x = plus(mesh.rest(), randomArray(3 * mesh.points.size(), 0.3, 4));
  const auto v = randomArray(x.size(), 2.0, 5), dv = randomArray(x.size(), 1.0, 6);
  const auto fd = centredDifference(field, x, v, dv, false, 1e-2);
  std::vector<double> expected(x.size(), 0.0);
  for (const auto& e : edges) {
    const PetscInt a = mesh.cells[e.cell][e.a], b = mesh.cells[e.cell][e.b];
    Vec3 u;
    for (int k = 0; k < 3; ++k) u[k] = x[3 * b + k] - x[3 * a + k];
    const double length = std::sqrt(dot(u, u));
    for (double& c : u) c /= length;
    double along = 0;
    for (int k = 0; k < 3; ++k) along += u[k] * (dv[3 * b + k] - dv[3 * a + k]);
    const double kd = damping / distance(mesh.points[a], mesh.points[b]);
    for (int k = 0; k < 3; ++k) {
      expected[3 * a + k] += kd * along * u[k];
      expected[3 * b + k] -= kd * along * u[k];
    }
  }
  EXPECT_GT(largestMagnitude(expected), 1.0);
  EXPECT_LT(largestDifference(fd, expected), 1e-10 * largestMagnitude(expected));
  EXPECT_TRUE(field.usesVelocity());
  EXPECT_EQ(largestMagnitude(bTimes(field, dv)), 0.0);
  EXPECT_EQ(largestMagnitude(assembled(field, mesh, true)), 0.0);
}

// With v_b - v_a != 0, SOFA's tangent (damping inside tgt = F / l) is the exact derivative less
// kd/l u (v_b - v_a)^T (I - u u^T) per spring: rebuilt here spring by spring.
TEST(MeshSprings, TangentAtAMovingStateIsSofas) {
  const Mesh mesh = cube();
  const auto edges = uniqueEdges(mesh.cells);
  eis::MeshSpringForceField field(mesh.cells, edges, mesh.points, stiffness, damping);
  const auto x = plus(mesh.rest(), randomArray(3 * mesh.points.size(), 0.3, 7));
  const auto v = randomArray(x.size(), 2.0, 8), dx = randomArray(x.size(), 1.0, 9);
  auto expected = centredDifference(field, x, v, dx, true, 1e-6);
  for (const auto& e : edges) {
    const PetscInt a = mesh.cells[e.cell][e.a], b = mesh.cells[e.cell][e.b];
    Vec3 u, relative, moved;
    for (int k = 0; k < 3; ++k) {
      u[k] = x[3 * b + k] - x[3 * a + k];
      relative[k] = v[3 * b + k] - v[3 * a + k];
      moved[k] = dx[3 * b + k] - dx[3 * a + k];
    }
    const double l = std::sqrt(dot(u, u));
    for (auto& uk : u) uk /= l;
    const double kd = damping / distance(mesh.points[a], mesh.points[b]);
    const double missing = kd / l * (dot(relative, moved) - dot(relative, u) * dot(u, moved));
    for (int k = 0; k < 3; ++k) {
      expected[3 * a + k] -= missing * u[k];
      expected[3 * b + k] += missing * u[k];
    }
  }
  const auto k = kTimes(field, dx);
  EXPECT_LT(largestDifference(expected, k), 1e-7 * largestMagnitude(k));
}

TEST(MeshSprings, ElementMatricesAreSymmetricAndGiveTheProducts) {
  const Mesh mesh = cube();
  auto field = everyEdge(mesh, damping);
  const auto x = plus(mesh.rest(), randomArray(3 * mesh.points.size(), 0.3, 11));
  force(field, x, randomArray(x.size(), 2.0, 12));
  const auto w = randomArray(x.size(), 1.0, 13);
  const auto dense = assembled(field, mesh, false);
  const auto product = kTimes(field, w);
  EXPECT_LT(largestDifference(times(dense, w), product), 1e-12 * largestMagnitude(product));
  const std::size_t n = w.size();
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < i; ++j) EXPECT_EQ(dense[i * n + j], dense[j * n + i]);
}

}  // namespace
