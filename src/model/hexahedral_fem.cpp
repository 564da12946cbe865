#include "eis/model/hexahedral_fem.hpp"

#include <cmath>
#include <sstream>

#include "eis/model/mat3.hpp"
#include "eis/model/sofa_polar.hpp"

namespace eis {

namespace {

using mat3::cross;
using mat3::normalized;
using mat3::rowsOf;
using mat3::times;
using mat3::transposeTimes;
constexpr int kN = HexahedralFEM::kVertices;
constexpr int kD = HexahedralFEM::kDofs;

// s_a: vertex a's reference signs, SOFA's vertex order.
constexpr int kSign[kN][3] = {{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1},
                              {-1, -1, 1},  {1, -1, 1},  {1, 1, 1},  {-1, 1, 1}};

using mat3::minus;
using mat3::norm;

// (e0 + e1 + e2 + e3) * 0.25 for the four edges b_i -> a_i.
Vec3 meanEdge(const std::array<Vec3, kN>& p, const int (&a)[4], const int (&b)[4]) {
  Vec3 e{0, 0, 0};
  for (int i = 0; i < 4; ++i) {
    const Vec3 d = minus(p[a[i]], p[b[i]]);
    for (int m = 0; m < 3; ++m) e[m] += d[m];
  }
  return {e[0] * .25, e[1] * .25, e[2] * .25};
}
Vec3 edgeX(const std::array<Vec3, kN>& p) {
  return meanEdge(p, {1, 2, 5, 6}, {0, 3, 4, 7});
}
Vec3 edgeY(const std::array<Vec3, kN>& p) {
  return meanEdge(p, {3, 2, 7, 6}, {0, 1, 4, 5});
}
Vec3 edgeZ(const std::array<Vec3, kN>& p) {
  return meanEdge(p, {4, 5, 7, 6}, {0, 1, 3, 2});
}

// The integral over [-1, 1]^3 of dN_a/dxi_m dN_b/dxi_l, s and t the signs of a and b.
double integral(const int (&s)[3], const int (&t)[3], int m, int l) {
  double value = s[m] * t[l] / 8.0;
  for (int k = 0; k < 3; ++k)
    if (k != m && k != l) value *= 1 + s[k] * t[k] / 3.0;
  return value;
}

// The 3x3 block (a, b) of K0 before the volume factor, each entry rounded to single precision.
std::array<double, 9> block(int a, int b, const Vec3& j, const LameParameters& lame) {
  const double u = lame.lambda + 2 * lame.mu, v = lame.lambda, w = lame.mu;
  const int(&s)[3] = kSign[a];
  const int(&t)[3] = kSign[b];
  std::array<double, 9> k;
  for (int m = 0; m < 3; ++m)
    for (int l = 0; l < 3; ++l) {
      double value;
      if (m == l) {
        double shear = 0;
        for (int p = 0; p < 3; ++p)
          if (p != m) shear += integral(s, t, p, p);
        value = j[m] * j[m] * (u * integral(s, t, m, m) + w * shear);
      } else {
        value = j[m] * j[l] * (v * integral(s, t, m, l) + w * integral(s, t, l, m));
      }
      k[3 * m + l] = static_cast<float>(value);
    }
  return k;
}

Vec3 point(const double* x, PetscInt vertex) {
  return {x[3 * vertex], x[3 * vertex + 1], x[3 * vertex + 2]};
}

}  // namespace

HexahedralFEM::Stiffness HexahedralFEM::stiffness(const std::array<Vec3, kN>& rest,
                                                  const LameParameters& lame) {
  const Vec3 diagonal = minus(rest[6], rest[0]);
  const Vec3 j{2.0 / diagonal[0], 2.0 / diagonal[1], 2.0 / diagonal[2]};
  const double volume = norm(minus(rest[1], rest[0])) * norm(minus(rest[3], rest[0])) *
                        norm(minus(rest[4], rest[0])) / 8.0;
  Stiffness k{};
  for (int a = 0; a < kN; ++a)
    for (int b = a; b < kN; ++b) {
      const std::array<double, 9> e = block(a, b, j, lame);
      for (int m = 0; m < 3; ++m)
        for (int l = 0; l < 3; ++l) k[(3 * a + m) * kD + 3 * b + l] += volume * e[3 * m + l];
    }
  for (int i = 0; i < kD; ++i)
    for (int m = i + 1; m < kD; ++m) k[m * kD + i] = k[i * kD + m];
  return k;
}

HexahedralFEM::HexahedralFEM(const Cells& cells, std::vector<double> rest,
                             std::vector<LameParameters> lame, HexahedronMethod method)
    : cells_(cells), method_(method) {
  if (cells.type() != CellType::Hexahedron)
    throw Error("internal: HexahedralFEM made on " + pluralNameOf(cells.type()));
  if (method == HexahedronMethod::Small)
    throw Error("SOFA's HexahedralFEMForceField has no small method: its method is large or polar");
  k_.resize(cells.size());
  rotatedRest_.resize(cells.size());
  frames_.resize(cells.size());
  for (std::size_t c = 0; c < cells.size(); ++c) {
    const std::array<Vec3, kN> p = corners(c, rest.data());
    const Vec3 diagonal = minus(p[6], p[0]);
    if (diagonal[0] == 0 || diagonal[1] == 0 || diagonal[2] == 0) {
      std::ostringstream message;
      message << "SOFA's HexahedralFEMForceField: the hexahedron from (" << p[0][0] << ", "
              << p[0][1] << ", " << p[0][2] << ") to (" << p[6][0] << ", " << p[6][1] << ", "
              << p[6][2]
              << "): its rest diagonal from vertex 0 to vertex 6 has a zero component, which "
                 "SOFA's stiffness divides by (it is written for boxes along the axes)";
      throw Error(message.str());
    }
    frames_[c] = frame(p);
    for (int a = 0; a < kN; ++a) rotatedRest_[c][a] = times(frames_[c], p[a]);
    k_[c] = stiffness(p, lame[c]);
  }
}

HexahedralFEM::Mat3 HexahedralFEM::frame(const std::array<Vec3, kN>& p) const {
  if (method_ == HexahedronMethod::Polar)
    return sofaPolarRotation(rowsOf(edgeX(p), edgeY(p), edgeZ(p)));
  const Vec3 x = normalized(edgeX(p));
  const Vec3 z = normalized(cross(x, edgeY(p)));
  return rowsOf(x, cross(z, x), z);
}

std::array<Vec3, HexahedralFEM::kVertices> HexahedralFEM::corners(std::size_t cell,
                                                                  const double* x) const {
  std::array<Vec3, kN> p;
  for (int a = 0; a < kN; ++a) p[a] = point(x, cells_[cell][a]);
  return p;
}

std::array<double, HexahedralFEM::kDofs> HexahedralFEM::displacement(std::size_t cell,
                                                                     const Mat3& r,
                                                                     const double* x) const {
  std::array<double, kD> d;
  for (int a = 0; a < kN; ++a) {
    const Vec3 turned = times(r, point(x, cells_[cell][a]));
    for (int i = 0; i < 3; ++i) d[3 * a + i] = rotatedRest_[cell][a][i] - turned[i];
  }
  return d;
}

namespace {

// f_a += scale R^T (K d)_a.
void scatter(const HexahedralFEM::Stiffness& k, const std::array<double, 9>& r,
             const std::array<double, kD>& d, double scale, const PetscInt* vertices, double* f) {
  for (int a = 0; a < kN; ++a) {
    Vec3 local{0, 0, 0};
    for (int i = 0; i < 3; ++i)
      for (int m = 0; m < kD; ++m) local[i] += k[(3 * a + i) * kD + m] * d[m];
    const Vec3 world = transposeTimes(r, local);
    for (int i = 0; i < 3; ++i) f[3 * vertices[a] + i] += scale * world[i];
  }
}

}  // namespace

void HexahedralFEM::addForce(const double* x, const double*, double* f) {
  for (std::size_t c = 0; c < cells_.size(); ++c) {
    frames_[c] = frame(corners(c, x));
    scatter(k_[c], frames_[c], displacement(c, frames_[c], x), 1.0, cells_[c].begin(), f);
  }
}

void HexahedralFEM::addDForce(const double* dx, double* df, double kFactor) const {
  for (std::size_t c = 0; c < cells_.size(); ++c) {
    std::array<double, kD> local;
    for (int a = 0; a < kN; ++a) {
      const Vec3 turned = times(frames_[c], point(dx, cells_[c][a]));
      for (int i = 0; i < 3; ++i) local[3 * a + i] = turned[i];
    }
    scatter(k_[c], frames_[c], local, -kFactor, cells_[c].begin(), df);
  }
}

void HexahedralFEM::addKToElementMatrices(double* elementMatrices, double kFactor,
                                          CellRange range) const {
  for (std::size_t c = range.begin; c < range.end; ++c) {
    double* out = elementMatrices + (c - range.begin) * kD * kD;
    const Mat3& r = frames_[c];
    const Stiffness& k = k_[c];
    for (int a = 0; a < kN; ++a)
      for (int b = 0; b < kN; ++b)
        for (int i = 0; i < 3; ++i)
          for (int n = 0; n < 3; ++n) {
            double sum = 0;  // (R^T K_ab R)_in
            for (int m = 0; m < 3; ++m)
              for (int l = 0; l < 3; ++l)
                sum += r[3 * m + i] * k[(3 * a + m) * kD + 3 * b + l] * r[3 * l + n];
            out[(3 * a + i) * kD + 3 * b + n] -= kFactor * sum;
          }
  }
}

double HexahedralFEM::potentialEnergy(const double* x) const {
  double energy = 0;
  for (std::size_t c = 0; c < cells_.size(); ++c) {
    const auto d = displacement(c, frame(corners(c, x)), x);
    for (int i = 0; i < kD; ++i)
      for (int m = 0; m < kD; ++m) energy += 0.5 * d[i] * k_[c][i * kD + m] * d[m];
  }
  return energy;
}

}  // namespace eis
