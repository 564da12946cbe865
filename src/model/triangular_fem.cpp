#include "eis/model/triangular_fem.hpp"

#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "eis/model/boundary_force_field.hpp"
#include "eis/model/mat3.hpp"

namespace eis {

namespace {

using mat3::Mat3;

Vec3 vertex(const double* x, PetscInt a) {
  return {x[3 * a], x[3 * a + 1], x[3 * a + 2]};
}
using mat3::minus;

std::string zeroArea(const char* where) {
  return std::string("TriangularFEMForceField: a triangle of zero area (") + where + ")";
}

// SOFA's computeRotationLarge: rows are the unit edge ab, the in-plane normal to it and the unit
// normal of the triangle (which a flat triangle has not: SOFA's frame would be NaN there).
Mat3 frameOf(const Vec3& ab, const Vec3& ac) {
  const Vec3 n = mat3::cross(ab, ac);
  if (std::sqrt(mat3::dot(n, n)) < std::numeric_limits<double>::epsilon())
    throw Error(zeroArea("large"));
  const Vec3 ex = mat3::normalized(ab);
  const Vec3 ez = mat3::normalized(mat3::cross(ex, ac));
  return mat3::rowsOf(ex, mat3::cross(ez, ex), ez);
}

// J for edges b, c in the triangle's own frame (b = (bx, 0), c = (cx, cy)).
std::array<double, 18> strainDisplacementLocal(const Vec3& b, const Vec3& c) {
  const double det = b[0] * c[1];
  if (std::fabs(det) < std::numeric_limits<double>::epsilon())
    throw Error(zeroArea("bx cy = 0 in the frame of its first edge"));
  const double inv = 1 / det;
  std::array<double, 18> j{};
  j[0] = j[5] = -c[1] * inv;          // J(0,0), J(1,2)
  j[2] = j[4] = (c[0] - b[0]) * inv;  // J(0,2), J(1,1)
  j[6] = j[11] = c[1] * inv;          // J(2,0), J(3,2)
  j[8] = j[10] = -c[0] * inv;         // J(2,2), J(3,1)
  j[14] = j[16] = b[0] * inv;         // J(4,2), J(5,1)
  return j;
}

// J for edges b, c in the world, from their x and y (a at the origin); 1/det is the norm of b x c.
std::array<double, 18> strainDisplacementGlobal(const Vec3& b, const Vec3& c) {
  const double det = std::sqrt(mat3::dot(mat3::cross(b, c), mat3::cross(b, c)));
  if (std::fabs(det) < std::numeric_limits<double>::epsilon()) throw Error(zeroArea("small"));
  const double inv = 1 / det;
  const double x13 = -c[0] * inv, x21 = b[0] * inv, x32 = (c[0] - b[0]) * inv;
  const double y12 = -b[1] * inv, y23 = (b[1] - c[1]) * inv, y31 = c[1] * inv;
  return {y23, 0, x32, 0, x32, y23, y31, 0, x13, 0, x13, y31, y12, 0, x21, 0, x21, y12};
}

// J^T u for u of 6 values.
std::array<double, 3> transposeTimes(const std::array<double, 18>& j,
                                     const std::array<double, 6>& u) {
  std::array<double, 3> s{};
  for (int r = 0; r < 6; ++r)
    for (int k = 0; k < 3; ++k) s[k] += j[3 * r + k] * u[r];
  return s;
}

std::array<double, 3> times(const std::array<double, 9>& d, const std::array<double, 3>& s) {
  return {d[0] * s[0] + d[1] * s[1] + d[2] * s[2], d[3] * s[0] + d[4] * s[1] + d[5] * s[2],
          d[6] * s[0] + d[7] * s[1] + d[8] * s[2]};
}

}  // namespace

TriangularFemForceField::TriangularFemForceField(std::vector<Triangle> triangles,
                                                 const std::vector<Vec3>& rest, double youngModulus,
                                                 double poissonRatio, TriangleFemMethod method,
                                                 const TriangleFemOptions& options)
    : triangles_(std::move(triangles)), method_(method), triangleFem_(options.triangleFem) {
  elements_.reserve(triangles_.size());
  const double nu = poissonRatio;
  for (const auto& t : triangles_) {
    Element e{};
    const Vec3 ab = minus(rest[t[1]], rest[t[0]]), ac = minus(rest[t[2]], rest[t[0]]);
    const Vec3 n = mat3::cross(ab, ac);
    if (method_ == TriangleFemMethod::Large) {
      e.rotation = frameOf(ab, ac);
      e.restB = mat3::times(e.rotation, ab);
      e.restC = mat3::times(e.rotation, ac);
      e.j = strainDisplacementLocal(e.restB, e.restC);
    } else {
      e.rotation = mat3::kIdentity;
      e.restB = ab;
      e.restC = ac;
      e.j = triangleFem_ ? strainDisplacementLocal(ab, ac) : strainDisplacementGlobal(ab, ac);
    }
    // TriangularFEMForceField's large area is bx cy / 2 in the frame; the others |ab x ac| / 2.
    e.area = method_ == TriangleFemMethod::Large && !triangleFem_
                 ? e.restB[0] * e.restC[1] * 0.5
                 : std::sqrt(mat3::dot(n, n)) * 0.5;
    // SOFA writes (1 - p) * 0.5f and 0.5f - p with p as Real: double here.
    const double volume = e.area * options.thickness;
    if (options.planeStrain) {
      const double scale = youngModulus / ((1 + nu) * (1 - 2 * nu)) * volume;
      e.d = {scale * (1 - nu),  scale * nu, 0, scale * nu, scale * (1 - nu), 0, 0, 0,
             scale * (0.5 - nu)};
    } else {
      const double scale = youngModulus / (1 - nu * nu) * volume;
      e.d = {scale, scale * nu, 0, scale * nu, scale, 0, 0, 0, scale * (1 - nu) * 0.5};
    }
    elements_.push_back(e);
  }
}

TriangularFemForceField::State TriangularFemForceField::stateAt(std::size_t i,
                                                                const double* x) const {
  const auto& t = triangles_[i];
  const Element& e = elements_[i];
  const Vec3 pa = vertex(x, t[0]);
  const Vec3 ab = minus(vertex(x, t[1]), pa), ac = minus(vertex(x, t[2]), pa);
  State s;
  std::array<double, 6> displacement;
  if (method_ == TriangleFemMethod::Large) {
    s.rotation = frameOf(ab, ac);
    const Vec3 b = mat3::times(s.rotation, ab), c = mat3::times(s.rotation, ac);
    displacement = {0, 0, e.restB[0] - b[0], 0, e.restC[0] - c[0], e.restC[1] - c[1]};
    s.j = strainDisplacementLocal(b, c);
  } else {
    s.rotation = mat3::kIdentity;
    displacement = {
        0, 0, e.restB[0] - ab[0], e.restB[1] - ab[1], e.restC[0] - ac[0], e.restC[1] - ac[1]};
    s.j = triangleFem_ ? strainDisplacementLocal(ab, ac) : strainDisplacementGlobal(ab, ac);
  }
  s.strain = transposeTimes(s.j, displacement);
  s.stress = times(e.d, s.strain);
  return s;
}

void TriangularFemForceField::addForce(const double* x, const double*, double* f) {
  for (std::size_t i = 0; i < triangles_.size(); ++i) {
    const auto& t = triangles_[i];
    const State s = stateAt(i, x);
    elements_[i].rotation = s.rotation;
    elements_[i].j = s.j;
    for (int k = 0; k < 3; ++k) {
      Vec3 local{0, 0, 0};
      for (int c = 0; c < 2; ++c)
        for (int q = 0; q < 3; ++q) local[c] += s.j[3 * (2 * k + c) + q] * s.stress[q];
      const Vec3 world = mat3::transposeTimes(s.rotation, local);
      for (int c = 0; c < 3; ++c) f[3 * t[k] + c] += world[c];
    }
  }
}

std::array<double, 81> TriangularFemForceField::stiffness(const Element& e) const {
  // JDJ^T, 6 x 6, the in-plane stiffness.
  std::array<double, 18> jd{};
  for (int r = 0; r < 6; ++r)
    for (int k = 0; k < 3; ++k)
      for (int s = 0; s < 3; ++s) jd[3 * r + k] += e.j[3 * r + s] * e.d[3 * s + k];
  std::array<double, 81> out{};
  const Mat3& r = e.rotation;
  for (int p = 0; p < 3; ++p)
    for (int q = 0; q < 3; ++q) {
      // The 2 x 2 block of nodes p, q, widened to 3 x 3 and turned to the world: R^T B R.
      Mat3 block{};
      for (int k = 0; k < 2; ++k)
        for (int l = 0; l < 2; ++l) {
          double v = 0;
          for (int s = 0; s < 3; ++s) v += jd[3 * (2 * p + k) + s] * e.j[3 * (2 * q + l) + s];
          block[3 * k + l] = v;
        }
      const Mat3 world = mat3::transposeMultiply(r, mat3::multiply(block, r));
      for (int k = 0; k < 3; ++k)
        for (int l = 0; l < 3; ++l) out[9 * (3 * p + k) + 3 * q + l] = world[3 * k + l];
    }
  return out;
}

void TriangularFemForceField::addDForce(const double* dx, double* df, double kFactor) const {
  for (std::size_t i = 0; i < triangles_.size(); ++i) {
    const auto& t = triangles_[i];
    const auto k = stiffness(elements_[i]);
    for (int row = 0; row < 9; ++row) {
      double s = 0;
      for (int col = 0; col < 9; ++col) s += k[9 * row + col] * dx[3 * t[col / 3] + col % 3];
      df[3 * t[row / 3] + row % 3] -= kFactor * s;
    }
  }
}

void TriangularFemForceField::addKToElementMatrices(double* elementMatrices, double kFactor,
                                                    CellRange range) const {
  for (std::size_t i = range.begin; i < range.end; ++i) {
    const auto k = stiffness(elements_[i]);
    double* block = elementMatrices + 81 * (i - range.begin);
    for (int n = 0; n < 81; ++n) block[n] -= kFactor * k[n];
  }
}

double TriangularFemForceField::potentialEnergy(const double* x) const {
  double energy = 0;
  for (std::size_t i = 0; i < triangles_.size(); ++i) {
    const State s = stateAt(i, x);
    energy +=
        0.5 * (s.strain[0] * s.stress[0] + s.strain[1] * s.stress[1] + s.strain[2] * s.stress[2]);
  }
  return energy;
}

ForceFieldComponent triangularFemComponent() {
  return {
      {"triangular-fem", "force field",
       "constant-strain triangles in plane stress (SOFA TriangularFEMForceField)",
       ParameterSpec()
           .add(
               {"membrane.young-modulus", "E",
                "SOFA TriangularFEMForceField youngModulus: a membrane of thickness 1 on a body of\n"
                "triangles (its stiffness E / (1 - nu^2) times each triangle's rest area), > 0; not\n"
                "given: no membrane",
                std::nullopt, "force/area", false, check::positive()})
           .add({"membrane.poisson-ratio", "NU", "the membrane's Poisson ratio, in (-1, 0.5)",
                 "0.45", "", false, check::within(-1, 0.5)})
           .add({"membrane.method", "large|small",
                 "large: corotational, each triangle in the frame of its first edge; small: in\n"
                 "the xy plane, forces in x and y alone (SOFA's methods)",
                 "large", "", false, check::choice(kTriangleFemMethods)})
           .add({"membrane.element", "triangular|triangle",
                 "triangular: SOFA's TriangularFEMForceField; triangle: its TriangleFEMForceField\n"
                 "(a thickness, plane strain as an option, method small's J from the first-edge\n"
                 "formula on the world edges)",
                 "triangular", "", false, check::choice(kTriangleFemElements)})
           .add({"membrane.thickness", "T",
                 "membrane.element = triangle: the thickness the material is multiplied by, > 0",
                 "1", "length", false, check::positive()})
           .add({"membrane.plane-strain", "true|false",
                 "membrane.element = triangle: plane strain instead of plane stress", "false", "",
                 false, check::boolean()})
           .add(
               {"membrane.faces",
                "cells|boundary|boundary-flipped|cut-quadrangles|split-quadrangles",
                "the triangles: the body's cells, or the boundary of a body of tetrahedra in the\n"
                "order and orientation of SOFA's Tetra2TriangleTopologicalMapping (flipped: its\n"
                "flipNormals), or of hexahedra as its Hexa2QuadTopologicalMapping and then\n"
                "Quad2TriangleTopologicalMapping give it, acting on the body's nodes; or a body\n"
                "of quadrangles each cut into (q0 q1 q2) and (q0 q2 q3), as SOFA's GridTopology\n"
                "cuts a flat grid's quads (a mass on the quads beside the membrane), or split into\n"
                "(q1 q2 q0) and (q3 q0 q2), as SOFA's Quad2TriangleTopologicalMapping splits them",
                "cells", "", false, check::choice(kMembraneFaces)}),
       nullptr},
      Physics::Elasticity,
      forceFieldMaker(readTriangularFemParameters, makeTriangularFem)};
}

TriangularFemParameters readTriangularFemParameters(const Parameters& scene) {
  TriangularFemParameters p;
  if (scene.given("membrane.young-modulus")) p.youngModulus = scene.real("membrane.young-modulus");
  p.poissonRatio = scene.real("membrane.poisson-ratio");
  p.method = scene.choice("membrane.method", kTriangleFemMethods);
  p.options.triangleFem = scene.choice("membrane.element", kTriangleFemElements);
  p.options.thickness = scene.real("membrane.thickness");
  p.options.planeStrain = scene.boolean("membrane.plane-strain");
  p.faces = scene.choice("membrane.faces", kMembraneFaces);
  return p;
}

BodyTriangles bodyTriangles(const DistributedMesh& mesh, BodyFaces faces, const std::string& key,
                            const std::string& field) {
  const Cells& cells = mesh.cells();
  BodyTriangles body;
  if (faces == BodyFaces::CutQuadrangles || faces == BodyFaces::SplitQuadrangles) {
    if (cells.type() != CellType::Quadrangle)
      throw Error(key + ": " + field +
                  " on cut quadrangles act on a body of quadrangles; this "
                  "mesh has " +
                  pluralNameOf(cells.type()));
    const bool split = faces == BodyFaces::SplitQuadrangles;
    for (std::size_t c = 0; c < cells.size(); ++c)
      for (const std::array<int, 4>& slots :
           {split ? std::array<int, 4>{1, 2, 0, -1} : std::array<int, 4>{0, 1, 2, -1},
            split ? std::array<int, 4>{3, 0, 2, -1} : std::array<int, 4>{0, 2, 3, -1}}) {
        body.triangles.push_back({cells[c][slots[0]], cells[c][slots[1]], cells[c][slots[2]]});
        body.onCells.push_back({PetscInt(c), slots});
      }
    return body;
  }
  if (faces == BodyFaces::Cells) {
    if (cells.corners() != 3)
      throw Error(key + ": SOFA's " + field + " act on a body of triangles; this mesh has " +
                  pluralNameOf(cells.type()) + " (" + key.substr(0, key.find('.')) +
                  ".faces = boundary: its boundary triangles)");
    body.triangles.resize(cells.size());
    for (std::size_t c = 0; c < cells.size(); ++c)
      for (int k = 0; k < 3; ++k) body.triangles[c][k] = cells[c][k];
    return body;
  }
  BoundaryFaces boundary = boundaryTriangles(mesh, faces == BodyFaces::BoundaryFlipped);
  for (const BoundaryFace& face : boundary.local)
    body.triangles.push_back({cells[std::size_t(face.cell)][face.slots[0]],
                              cells[std::size_t(face.cell)][face.slots[1]],
                              cells[std::size_t(face.cell)][face.slots[2]]});
  body.onCells = std::move(boundary.local);
  return body;
}

std::unique_ptr<ForceField> makeTriangularFem(const ModelContext& context,
                                              const TriangularFemParameters& parameters) {
  if (!parameters.youngModulus) return nullptr;
  BodyTriangles body =
      bodyTriangles(context.mesh, parameters.faces, "membrane.young-modulus", "triangle membranes");
  auto membrane = std::make_unique<TriangularFemForceField>(
      std::move(body.triangles), context.mesh.restCoords(), *parameters.youngModulus,
      parameters.poissonRatio, parameters.method, parameters.options);
  if (parameters.faces == BodyFaces::Cells) return membrane;
  return std::make_unique<BoundaryForceField>(std::move(membrane), std::move(body.onCells), 3,
                                              context.mesh.cells().corners());
}

const RegisterForceField registered(486, triangularFemComponent);

}  // namespace eis
