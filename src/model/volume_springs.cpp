// Springs on the tetrahedra's volumes (model/volume_springs.hpp): SOFA's VolumeMapping with a
// RestShapeSpringsForceField<Vec1> in its child, as a force field of the body.
#include "eis/model/volume_springs.hpp"

#include <cstring>
#include <utility>

namespace eis {

namespace {

constexpr Named<GeometricStiffness> kGeometric[] = {{"none", GeometricStiffness::None},
                                                    {"exact", GeometricStiffness::Exact},
                                                    {"stabilized", GeometricStiffness::Stabilized}};

// [a]_x / 6 (crossProductMatrix), row major.
std::array<double, 9> crossOver6(const double* p, const double* q) {
  const double a[3] = {(p[0] - q[0]) / 6, (p[1] - q[1]) / 6, (p[2] - q[2]) / 6};
  return {0, -a[2], a[1], a[2], 0, -a[0], -a[1], a[0], 0};
}

}  // namespace

double VolumeSprings::volume(const std::array<const double*, 4>& p, double* gradient) {
  double e[3][3];
  for (int i = 0; i < 3; ++i)
    for (int d = 0; d < 3; ++d) e[i][d] = p[i + 1][d] - p[0][d];
  const auto cross = [](const double* u, const double* v, double* w) {
    w[0] = (u[1] * v[2] - u[2] * v[1]) / 6;
    w[1] = (u[2] * v[0] - u[0] * v[2]) / 6;
    w[2] = (u[0] * v[1] - u[1] * v[0]) / 6;
  };
  double c[3][3];
  cross(e[1], e[2], c[0]);
  cross(e[2], e[0], c[1]);
  cross(e[0], e[1], c[2]);
  for (int d = 0; d < 3; ++d) {
    gradient[d] = -(c[0][d] + c[1][d] + c[2][d]);
    for (int i = 0; i < 3; ++i) gradient[3 * (i + 1) + d] = c[i][d];
  }
  return e[0][0] * c[0][0] + e[0][1] * c[0][1] + e[0][2] * c[0][2];
}

VolumeSprings::VolumeSprings(const Cells& cells, std::vector<double> rest, double stiffness,
                             GeometricStiffness geometric)
    : cells_(cells), stiffness_(stiffness), geometric_(geometric), x_(std::move(rest)) {
  restVolume_.resize(cells.size());
  childForce_.assign(cells.size(), 0.0);
  double gradient[12];
  for (std::size_t c = 0; c < cells.size(); ++c) {
    const auto cell = cells[c];
    restVolume_[c] =
        volume({&x_[3 * cell[0]], &x_[3 * cell[1]], &x_[3 * cell[2]], &x_[3 * cell[3]]}, gradient);
  }
}

void VolumeSprings::addForce(const double* x, const double*, double* f) {
  std::memcpy(x_.data(), x, x_.size() * sizeof(double));
  const Cells& cells = cells_;
  double gradient[12];
  for (std::size_t c = 0; c < cells.size(); ++c) {
    const auto cell = cells[c];
    const double v =
        volume({&x[3 * cell[0]], &x[3 * cell[1]], &x[3 * cell[2]], &x[3 * cell[3]]}, gradient);
    childForce_[c] = -stiffness_ * (v - restVolume_[c]);
    for (int a = 0; a < 4; ++a)
      for (int d = 0; d < 3; ++d) f[3 * cell[a] + d] += childForce_[c] * gradient[3 * a + d];
  }
}

void VolumeSprings::elementMatrix(std::size_t c, double* k) const {
  const auto cell = cells_[c];
  const std::array<const double*, 4> p = {&x_[3 * cell[0]], &x_[3 * cell[1]], &x_[3 * cell[2]],
                                          &x_[3 * cell[3]]};
  double g[12];
  volume(p, g);
  for (int r = 0; r < 12; ++r)
    for (int s = 0; s < 12; ++s) k[12 * r + s] = -stiffness_ * g[r] * g[s];
  const double fc = childForce_[c];
  if (geometric_ == GeometricStiffness::None ||
      (geometric_ == GeometricStiffness::Stabilized && !(fc < 0)))
    return;
  // computeSecondDerivativeVolume's blocks (a, b), a < b, and their transposes at (b, a).
  const int pairs[6][4] = {{0, 1, 2, 3}, {0, 2, 3, 1}, {0, 3, 1, 2},
                           {1, 2, 0, 3}, {1, 3, 2, 0}, {2, 3, 0, 1}};
  for (const auto& q : pairs) {
    const std::array<double, 9> h = crossOver6(p[q[2]], p[q[3]]);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        k[12 * (3 * q[0] + i) + 3 * q[1] + j] += fc * h[3 * i + j];
        k[12 * (3 * q[1] + j) + 3 * q[0] + i] += fc * h[3 * i + j];
      }
  }
}

void VolumeSprings::addDForce(const double* dx, double* df, double kFactor) const {
  const Cells& cells = cells_;
  double k[144];
  for (std::size_t c = 0; c < cells.size(); ++c) {
    const auto cell = cells[c];
    elementMatrix(c, k);
    for (int a = 0; a < 4; ++a)
      for (int i = 0; i < 3; ++i) {
        double sum = 0;
        for (int b = 0; b < 4; ++b)
          for (int j = 0; j < 3; ++j) sum += k[12 * (3 * a + i) + 3 * b + j] * dx[3 * cell[b] + j];
        df[3 * cell[a] + i] += kFactor * sum;
      }
  }
}

void VolumeSprings::addKToElementMatrices(double* elementMatrices, double kFactor,
                                          CellRange range) const {
  double k[144];
  for (std::size_t c = range.begin; c < range.end; ++c) {
    double* block = elementMatrices + (c - range.begin) * 144;
    elementMatrix(c, k);
    for (int e = 0; e < 144; ++e) block[e] += kFactor * k[e];
  }
}

double VolumeSprings::potentialEnergy(const double* x) const {
  const Cells& cells = cells_;
  double energy = 0, gradient[12];
  for (std::size_t c = 0; c < cells.size(); ++c) {
    const auto cell = cells[c];
    const double dv =
        volume({&x[3 * cell[0]], &x[3 * cell[1]], &x[3 * cell[2]], &x[3 * cell[3]]}, gradient) -
        restVolume_[c];
    energy += 0.5 * stiffness_ * dv * dv;
  }
  return energy;
}

namespace {

ForceFieldComponent volumeSpringsComponent() {
  return {
      {"volume-springs", "force field",
       "springs on the tetrahedra's volumes (SOFA VolumeMapping + RestShapeSpringsForceField)",
       ParameterSpec()
           .add({"volume.stiffness", "K",
                 "a spring of stiffness K on the signed volume V of each tetrahedron, its rest\n"
                 "the rest volume V0: f_c = -K (V - V0), carried to the corners by dV/dx (SOFA\n"
                 "VolumeMapping with applyRestPosition and a RestShapeSpringsForceField<Vec1>\n"
                 "in its child)",
                 std::nullopt, "force/length^2", false, check::nonNegative()})
           .add({"volume.geometric-stiffness", "none|exact|stabilized",
                 "the geometric stiffness f_c d2V/dx2 of the nonlinear map: never, always,\n"
                 "or where f_c < 0 (SOFA's geometricStiffness None, Exact, Stabilized)",
                 std::string("stabilized"), "", false, check::choice(kGeometric)}),
       nullptr},
      Physics::Elasticity,
      forceFieldMaker(readVolumeSpringsParameters, makeVolumeSprings)};
}

}  // namespace

VolumeSpringsParameters readVolumeSpringsParameters(const Parameters& scene) {
  VolumeSpringsParameters parameters;
  if (scene.given("volume.stiffness")) parameters.stiffness = scene.real("volume.stiffness");
  parameters.geometric = scene.choice("volume.geometric-stiffness", kGeometric);
  return parameters;
}

std::unique_ptr<ForceField> makeVolumeSprings(const ModelContext& context,
                                              const VolumeSpringsParameters& parameters) {
  if (!parameters.stiffness) return nullptr;
  if (context.mesh.cellType() != CellType::Tetrahedron)
    throw Error(
        "volume.stiffness: the volume springs act on tetrahedra (SOFA's VolumeMapping "
        "refuses hexahedra); this body's cells are not");
  return std::make_unique<VolumeSprings>(context.mesh.cells(), restArray(context.mesh),
                                         *parameters.stiffness, parameters.geometric);
}

const RegisterForceField registered(475, volumeSpringsComponent);

}  // namespace eis
