#include "eis/model/hyperelastic_fem.hpp"

#include <cmath>
#include <limits>
#include <sstream>

#include "eis/core/error.hpp"
#include "eis/model/mat3.hpp"

namespace eis {

namespace {

using namespace mat3;

// E = (H + H^T + H^T H) / 2 from the displacement gradient H = F - I: the same as (F^T F - I)/2
// without its cancellation, which would cost small strains their leading digits.
Mat3 greenLagrange(const Mat3& H) {
  const Mat3 HtH = transposeMultiply(H, H);
  Mat3 e;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) e[3 * i + j] = 0.5 * (H[3 * i + j] + H[3 * j + i] + HtH[3 * i + j]);
  return e;
}

// S = lambda tr(E) I + 2 mu E for a symmetric E.
Mat3 stvkSecondPiola(const Mat3& E, double lambda, double mu) {
  Mat3 s = scaled(2 * mu, E);
  const double t = lambda * trace(E);
  s[0] += t;
  s[4] += t;
  s[8] += t;
  return s;
}

double stvkEnergy(const Mat3& E, double lambda, double mu) {
  const double t = trace(E);
  return 0.5 * lambda * t * t + mu * contract(E, E);
}

// dP = dF S + F dS with dS = lambda tr(dE) I + 2 mu dE and dE = sym(F^T dF).
Mat3 stvkPiolaIncrement(const Mat3& F, const Mat3& S, const Mat3& dF, double lambda, double mu) {
  const Mat3 FtdF = transposeMultiply(F, dF);
  Mat3 dE;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) dE[3 * i + j] = 0.5 * (FtdF[3 * i + j] + FtdF[3 * j + i]);
  const Mat3 dS = stvkSecondPiola(dE, lambda, mu);
  return addScaled(multiply(dF, S), 1.0, multiply(F, dS));
}

// The Neo-Hookean family: P = mu F + v F^-T, v a function of J only. Its increment, from
// d(F^-T) = -F^-T dF^T F^-T and d(ln J) = tr(F^-1 dF), with s = dv/d(ln J):
// dP = mu dF - v F^-T dF^T F^-T + s tr(F^-1 dF) F^-T.
Mat3 volumetricFirstPiola(const Mat3& F, const Mat3& FinvT, double v, double mu) {
  return addScaled(scaled(mu, F), v, FinvT);
}

Mat3 volumetricPiolaIncrement(const Mat3& FinvT, double v, double s, const Mat3& dF, double mu) {
  const Mat3 inner = multiply(FinvT, transposeMultiply(dF, FinvT));
  const Mat3 dP = addScaled(scaled(mu, dF), -v, inner);
  return addScaled(dP, s * contract(FinvT, dF), FinvT);
}

double vonMises(const Mat3& s) {
  const double dxy = s[0] - s[4], dyz = s[4] - s[8], dzx = s[8] - s[0];
  // Average the off-diagonal pairs: the products that form s are symmetric only to rounding.
  const double xy = 0.5 * (s[1] + s[3]), yz = 0.5 * (s[5] + s[7]), zx = 0.5 * (s[2] + s[6]);
  return std::sqrt(0.5 * (dxy * dxy + dyz * dyz + dzx * dzx) + 3 * (xy * xy + yz * yz + zx * zx));
}

}  // namespace

HyperelasticFEM::HyperelasticFEM(const Cells& cells, const CellShapes& shapes,
                                 std::vector<double> rest, std::vector<LameParameters> lame,
                                 Law law, std::array<double, 3> parameters)
    : cells_(cells),
      shapes_(shapes),
      rest_(std::move(rest)),
      lame_(std::move(lame)),
      law_(law),
      mooneyRivlin_{parameters[0], parameters[1], parameters[2]},
      ogden_{parameters[0], parameters[1], parameters[2]} {
  requireTetrahedra(cells,
                    "the hyperelastic laws (SOFA's TetrahedronHyperelasticityFEMForceField)");
  // The rest state: F = F^-T = I, S = 0, J = 1 (v = -mu: no stress).
  if (law_ == Law::StVenantKirchhoff) {
    stvk_.assign(cells_.size(), StVKPoint{kIdentity, Mat3{}});
    return;
  }
  if (law_ == Law::ArrudaBoyce) {
    arruda_.resize(cells_.size());
    for (std::size_t c = 0; c < cells_.size(); ++c)
      arruda_[c] = arruda_boyce::linearize(kIdentity, 1.0, arruda_boyce::fromLame(lame_[c]));
    return;
  }
  if (law_ == Law::MooneyRivlin) {
    mooneyPoints_.assign(cells_.size(), mooney_rivlin::linearize(kIdentity, 1.0, mooneyRivlin_));
    return;
  }
  if (law_ == Law::Ogden) {
    ogdenPoints_.assign(cells_.size(), ogden::linearize(Mat3{}, 1.0, ogden_));
    return;
  }
  volumetric_.resize(cells_.size());
  for (std::size_t c = 0; c < cells_.size(); ++c)
    volumetric_[c] = {kIdentity, volumetricTerms(c, 1.0)};
}

// v(J) and s = J dv/dJ of the cell's law: Neo-Hookean v = lambda ln J - mu, s = lambda; SOFA's
// stable Neo-Hookean (psi = mu/2 (tr C - 3) + k/2 (J - alpha)^2, k = lambda + mu,
// alpha = 1 + mu / k) v = k J (J - alpha), s = k J (2 J - alpha).
std::array<double, 2> HyperelasticFEM::volumetricTerms(std::size_t cell, double J) const {
  const LameParameters& m = lame_[cell];
  if (law_ == Law::NeoHookean) return {m.lambda * std::log(J) - m.mu, m.lambda};
  const double k = m.lambda + m.mu, alpha = 1 + m.mu / k;
  return {k * J * (J - alpha), k * J * (2 * J - alpha)};
}

// Whether the law is defined at J: ln J needs J > 0, the stable law only J != 0 (F^-T).
bool HyperelasticFEM::admissible(double J) const {
  if (law_ != Law::StVenantKirchhoff && law_ != Law::StableNeoHookean) return J > 0;
  return std::isfinite(J) && J != 0;
}

// sum_a (u_a - origin_a) (x) grad N_a: the displacement gradient H = F - I of positions u with
// origin the rest positions, or the increment dF of a displacement increment u (origin null).
HyperelasticFEM::Mat3 HyperelasticFEM::gradient(std::size_t cell, const TetraShape& shape,
                                                const double* u, const double* origin) const {
  Mat3 h{};
  const auto& g = shape.gradients;
  for (int a = 0; a < 4; ++a) {
    const PetscInt base = 3 * cells_[cell][a];
    for (int i = 0; i < 3; ++i) {
      const double d = u[base + i] - (origin ? origin[base + i] : 0.0);
      for (int j = 0; j < 3; ++j) h[3 * i + j] += d * g[a][j];
    }
  }
  return h;
}

// Stores the cell's linearization point at H and returns P there.
HyperelasticFEM::Mat3 HyperelasticFEM::linearizeStVK(std::size_t cell, const Mat3& H) {
  StVKPoint& point = stvk_[cell];
  point.F = plusIdentity(H);
  point.S = stvkSecondPiola(greenLagrange(H), lame_[cell].lambda, lame_[cell].mu);
  return multiply(point.F, point.S);
}

void HyperelasticFEM::requireAdmissible(std::size_t cell, double J) const {
  if (admissible(J)) return;
  std::ostringstream message;
  message << "inverted tetrahedron (J = " << J << ") in cell " << cell;
  throw InvertedElement(cell, J, message.str());
}

HyperelasticFEM::Mat3 HyperelasticFEM::linearizeVolumetric(std::size_t cell, const Mat3& H) {
  const Mat3 F = plusIdentity(H);
  const double J = determinant(F);
  requireAdmissible(cell, J);
  VolumetricPoint& point = volumetric_[cell];
  point.inverseTransposeF = inverseTranspose(F, J);
  point.terms = volumetricTerms(cell, J);
  return volumetricFirstPiola(F, point.inverseTransposeF, point.terms[0], lame_[cell].mu);
}

HyperelasticFEM::Mat3 HyperelasticFEM::linearizeArrudaBoyce(std::size_t cell, const Mat3& H) {
  const Mat3 F = plusIdentity(H);
  const double J = determinant(F);
  requireAdmissible(cell, J);
  arruda_[cell] = arruda_boyce::linearize(F, J, arruda_boyce::fromLame(lame_[cell]));
  return multiply(F, arruda_[cell].S);
}

HyperelasticFEM::Mat3 HyperelasticFEM::linearizeThreeParameter(std::size_t cell, const Mat3& H) {
  const Mat3 F = plusIdentity(H);
  const double J = determinant(F);
  requireAdmissible(cell, J);
  if (law_ == Law::MooneyRivlin) {
    mooneyPoints_[cell] = mooney_rivlin::linearize(F, J, mooneyRivlin_);
    return multiply(F, mooneyPoints_[cell].S);
  }
  ogdenPoints_[cell] = ogden::linearize(H, J, ogden_);
  return multiply(F, ogdenPoints_[cell].S);
}

HyperelasticFEM::Mat3 HyperelasticFEM::linearize(std::size_t cell, const Mat3& H) {
  if (law_ == Law::StVenantKirchhoff) return linearizeStVK(cell, H);
  if (law_ == Law::ArrudaBoyce) return linearizeArrudaBoyce(cell, H);
  if (law_ == Law::MooneyRivlin || law_ == Law::Ogden) return linearizeThreeParameter(cell, H);
  return linearizeVolumetric(cell, H);
}

// f_a += factor |V| P grad N_a for the cell's four vertices.
void HyperelasticFEM::addCellForce(std::size_t cell, const TetraShape& shape, const Mat3& P,
                                   double factor, double* f) const {
  const auto& g = shape.gradients;
  const double w = factor * shape.volume;
  for (int a = 0; a < 4; ++a) {
    const Vec3 pg = times(P, g[a]);
    const PetscInt base = 3 * cells_[cell][a];
    for (int i = 0; i < 3; ++i) f[base + i] += w * pg[i];
  }
}

void HyperelasticFEM::checkState(const double* x) const {
  if (!limitsState()) return;  // St Venant-Kirchhoff is defined at every F
  for (std::size_t c = 0; c < cells_.size(); ++c)
    requireAdmissible(c, determinant(plusIdentity(gradient(c, shapes_[c], x, rest_.data()))));
}

void HyperelasticFEM::addForce(const double* x, const double*, double* f) {
  for (std::size_t c = 0; c < cells_.size(); ++c) {
    const TetraShape shape = shapes_[c];
    addCellForce(c, shape, linearize(c, gradient(c, shape, x, rest_.data())), -1.0, f);
  }
}

HyperelasticFEM::Mat3 HyperelasticFEM::piolaIncrement(std::size_t cell, const Mat3& dF) const {
  const LameParameters& m = lame_[cell];
  if (law_ == Law::StVenantKirchhoff)
    return stvkPiolaIncrement(stvk_[cell].F, stvk_[cell].S, dF, m.lambda, m.mu);
  if (law_ == Law::ArrudaBoyce)
    return arruda_boyce::piolaIncrement(arruda_[cell], dF, arruda_boyce::fromLame(m));
  if (law_ == Law::MooneyRivlin)
    return mooney_rivlin::piolaIncrement(mooneyPoints_[cell], dF, mooneyRivlin_);
  if (law_ == Law::Ogden) return ogden::piolaIncrement(ogdenPoints_[cell], dF, ogden_);
  const VolumetricPoint& point = volumetric_[cell];
  return volumetricPiolaIncrement(point.inverseTransposeF, point.terms[0], point.terms[1], dF,
                                  m.mu);
}

// df = -kFactor |V| dP grad N_a, dP the directional derivative of P along dF.
void HyperelasticFEM::addDForce(const double* dx, double* df, double kFactor) const {
  for (std::size_t c = 0; c < cells_.size(); ++c) {
    const TetraShape shape = shapes_[c];
    addCellForce(c, shape, piolaIncrement(c, gradient(c, shape, dx, nullptr)), -kFactor, df);
  }
}

// The 3x3 block (a, b) of df/dx is -|V| sum_jl dP_ij/dF_kl g_a,j g_b,l (g = grad N); for St
// Venant-Kirchhoff, with q = F g and B = F F^T, that is
//   -|V| [ (g_a . S g_b) I + lambda q_a q_b^T + mu q_b q_a^T + mu (g_a . g_b) B ],
// the first term geometric (the stress), the rest material.
void HyperelasticFEM::addStVKTangent(std::size_t cell, const Nodal& g, double factor,
                                     double* block) const {
  const StVKPoint& point = stvk_[cell];
  const LameParameters& m = lame_[cell];
  const Mat3 B = multiplyTranspose(point.F, point.F);
  Vec3 q[4], Sg[4];
  for (int a = 0; a < 4; ++a) {
    q[a] = times(point.F, g[a]);
    Sg[a] = times(point.S, g[a]);
  }
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b) {
      const double geometric = dot(g[a], Sg[b]), gg = m.mu * dot(g[a], g[b]);
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
          block[(3 * a + i) * 12 + 3 * b + j] +=
              factor * ((i == j ? geometric : 0.0) + m.lambda * q[a][i] * q[b][j] +
                        m.mu * q[b][i] * q[a][j] + gg * B[3 * i + j]);
    }
}

// The same block for the Neo-Hookean family, with h = F^-T g (the spatial gradients):
//   -|V| [ mu (g_a . g_b) I + s h_a h_b^T - v h_b h_a^T ].
void HyperelasticFEM::addVolumetricTangent(std::size_t cell, const Nodal& g, double factor,
                                           double* block) const {
  const VolumetricPoint& point = volumetric_[cell];
  const double mu = lame_[cell].mu, v = point.terms[0], s = point.terms[1];
  Vec3 h[4];
  for (int a = 0; a < 4; ++a) h[a] = times(point.inverseTransposeF, g[a]);
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b) {
      const double gg = mu * dot(g[a], g[b]);
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
          block[(3 * a + i) * 12 + 3 * b + j] +=
              factor * ((i == j ? gg : 0.0) + s * h[a][i] * h[b][j] - v * h[b][i] * h[a][j]);
    }
}

// The same block column by column: column (b, j) is dP grad N_a for dF = e_j (x) grad N_b (also
// Mooney-Rivlin's and Ogden's).
void HyperelasticFEM::addArrudaBoyceTangent(std::size_t cell, const Nodal& g, double factor,
                                            double* block) const {
  for (int b = 0; b < 4; ++b)
    for (int j = 0; j < 3; ++j) {
      Mat3 dF{};
      for (int l = 0; l < 3; ++l) dF[3 * j + l] = g[b][l];
      const Mat3 dP = piolaIncrement(cell, dF);
      for (int a = 0; a < 4; ++a) {
        const Vec3 column = times(dP, g[a]);
        for (int i = 0; i < 3; ++i) block[(3 * a + i) * 12 + 3 * b + j] += factor * column[i];
      }
    }
}

void HyperelasticFEM::addKToElementMatrices(double* elementMatrices, double kFactor,
                                            CellRange range) const {
  for (std::size_t c = range.begin; c < range.end; ++c) {
    double* block = elementMatrices + (c - range.begin) * 144;
    const TetraShape shape = shapes_[c];
    const double factor = -kFactor * shape.volume;
    if (law_ == Law::StVenantKirchhoff)
      addStVKTangent(c, shape.gradients, factor, block);
    else if (law_ == Law::ArrudaBoyce || law_ == Law::MooneyRivlin || law_ == Law::Ogden)
      addArrudaBoyceTangent(c, shape.gradients, factor, block);
    else
      addVolumetricTangent(c, shape.gradients, factor, block);
  }
}

// Zero at rest for every law. tr C - 3 = 2 tr H + |H|^2, for the same reason as greenLagrange.
double HyperelasticFEM::energyDensity(std::size_t cell, const Mat3& H) const {
  const LameParameters& m = lame_[cell];
  if (law_ == Law::StVenantKirchhoff) return stvkEnergy(greenLagrange(H), m.lambda, m.mu);
  if (law_ == Law::ArrudaBoyce) return arruda_boyce::energyDensity(H, arruda_boyce::fromLame(m));
  if (law_ == Law::MooneyRivlin) return mooney_rivlin::energyDensity(H, mooneyRivlin_);
  if (law_ == Law::Ogden) return ogden::energyDensity(H, ogden_);
  const double J = determinant(plusIdentity(H));
  const double deviatoric = 0.5 * m.mu * (2 * trace(H) + contract(H, H));
  if (law_ == Law::StableNeoHookean) {
    // k/2 ((J - alpha)^2 - (1 - alpha)^2): SOFA's energy less its rest value mu^2 / (2 k).
    const double k = m.lambda + m.mu, alpha = 1 + m.mu / k;
    return deviatoric + 0.5 * k * (J - 1) * (J + 1 - 2 * alpha);
  }
  // ln J -> -infinity as J -> 0+: the energy barrier that inversion would have to cross.
  if (!(J > 0)) return std::numeric_limits<double>::infinity();
  const double logJ = std::log(J);
  return deviatoric - m.mu * logJ + 0.5 * m.lambda * logJ * logJ;
}

double HyperelasticFEM::potentialEnergy(const double* x) const {
  double energy = 0;
  for (std::size_t c = 0; c < cells_.size(); ++c) {
    const TetraShape shape = shapes_[c];
    energy += shape.volume * energyDensity(c, gradient(c, shape, x, rest_.data()));
  }
  return energy;
}

// sigma = P F^T / J: F S F^T / J for St Venant-Kirchhoff and the laws given by S, (mu B + v I) / J
// with B = F F^T for the Neo-Hookean family.
HyperelasticFEM::Mat3 HyperelasticFEM::cauchyStress(std::size_t cell, const Mat3& H) const {
  const Mat3 F = plusIdentity(H);
  const double J = determinant(F);
  const LameParameters& m = lame_[cell];
  if (law_ == Law::StVenantKirchhoff) {
    const Mat3 S = stvkSecondPiola(greenLagrange(H), m.lambda, m.mu);
    return scaled(1 / J, multiplyTranspose(multiply(F, S), F));
  }
  if (!admissible(J)) {
    Mat3 undefined;
    undefined.fill(std::numeric_limits<double>::quiet_NaN());
    return undefined;
  }
  if (law_ == Law::ArrudaBoyce || law_ == Law::MooneyRivlin || law_ == Law::Ogden) {
    const Mat3 S = law_ == Law::ArrudaBoyce
                       ? arruda_boyce::linearize(F, J, arruda_boyce::fromLame(m)).S
                   : law_ == Law::MooneyRivlin ? mooney_rivlin::linearize(F, J, mooneyRivlin_).S
                                               : ogden::linearize(H, J, ogden_).S;
    return scaled(1 / J, multiplyTranspose(multiply(F, S), F));
  }
  Mat3 sigma = scaled(m.mu / J, multiplyTranspose(F, F));
  const double diagonal = volumetricTerms(cell, J)[0] / J;
  sigma[0] += diagonal;
  sigma[4] += diagonal;
  sigma[8] += diagonal;
  return sigma;
}

std::vector<double> HyperelasticFEM::vonMisesStress(const double* x) const {
  std::vector<double> result(cells_.size());
  for (std::size_t c = 0; c < cells_.size(); ++c)
    result[c] = vonMises(cauchyStress(c, gradient(c, shapes_[c], x, rest_.data())));
  return result;
}

}  // namespace eis
