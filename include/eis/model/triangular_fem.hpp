#pragma once
// SOFA's TriangularFEMForceField: constant-strain triangles in plane stress (a membrane, thickness
// 1), method large (corotational) or small, as SOFA master computes them.
//
// Material: D = E / (1 - nu^2) [1 nu 0; nu 1 0; 0 0 (1 - nu) / 2], times the rest area A0.
// Strain-displacement J (6 x 3, J^T the usual CST B) of a triangle a, b, c from b - a and c - a.
//
// large: the frame R (rows: unit b - a, the in-plane normal to it, the unit normal) of the
// current triangle; with b', c' the current edges in that frame and b0, c0 the rest ones (SOFA's
// rotatedInitialElements), D = (0, 0, b0x - b'x, 0, c0x - c'x, c0y - c'y), J from b', c',
// stress s = D J^T D, and the local force J s, turned back to the world by R^T.
// small: the frame is the world's: J from the xy parts of the current edges (its 1/det the norm
// of their cross product), D from the xy parts of the rest and current edges; forces act in x
// and y alone (a small-method triangle must lie in the xy plane, as in SOFA).
//
// The tangent is SOFA's, kept from the last addForce: K = R^T J D J^T R on each triangle's in-plane
// components (addDForce, the matrix-free product, and the element matrices alike). It leaves out
// the change of R and J with x, so it is the exact derivative of the force only where the stress
// is zero (the rest shape, moved rigidly); SOFA's EulerImplicitSolver uses the same.
//   For method small, SOFA's assembled matrix (buildStiffnessMatrix) uses a rotation small never
// sets; we assemble the operator of its addDForce instead, so both paths agree.
#include <array>
#include <memory>
#include <optional>
#include <vector>

#include "eis/mesh/boundary_faces.hpp"
#include "eis/model/force_field.hpp"
#include "eis/model/force_field_component.hpp"
#include "eis/model/mat3.hpp"

namespace eis {

using Triangle = std::array<PetscInt, 3>;

enum class TriangleFemMethod { Large, Small };

// Which triangles a field of triangles acts on (membrane.faces, bending.faces): the body's cells,
// or the boundary of a body of tetrahedra as SOFA's Tetra2TriangleTopologicalMapping gives it
// to a child node (of hexahedra: Hexa2QuadTopologicalMapping, then
// Quad2TriangleTopologicalMapping; mesh/boundary_faces), with or without its flipNormals.
// A membrane also acts on a body of quadrangles, each cut into the triangles (q0 q1 q2) and
// (q0 q2 q3), as SOFA's GridTopology::updateTriangles cuts a flat grid's quads, or split into
// (q1 q2 q0) and (q3 q0 q2), as SOFA's Quad2TriangleTopologicalMapping splits each quadrangle of
// its input when that input holds the body's quadrangles.
enum class BodyFaces { Cells, Boundary, BoundaryFlipped, CutQuadrangles, SplitQuadrangles };
inline constexpr Named<BodyFaces> kBodyFaces[] = {{"cells", BodyFaces::Cells},
                                                  {"boundary", BodyFaces::Boundary},
                                                  {"boundary-flipped", BodyFaces::BoundaryFlipped}};
inline constexpr Named<BodyFaces> kMembraneFaces[] = {
    {"cells", BodyFaces::Cells},
    {"boundary", BodyFaces::Boundary},
    {"boundary-flipped", BodyFaces::BoundaryFlipped},
    {"cut-quadrangles", BodyFaces::CutQuadrangles},
    {"split-quadrangles", BodyFaces::SplitQuadrangles}};
// The triangles `faces` names on this rank, as local vertices in SOFA's order, and (for the
// boundary) the cells and slots they lie at. Collective for the boundary; an eis::Error, naming
// `key`, on a body whose cells cannot give them.
struct BodyTriangles {
  std::vector<Triangle> triangles;
  std::vector<BoundaryFace> onCells;  // empty for BodyFaces::Cells
};
BodyTriangles bodyTriangles(const DistributedMesh& mesh, BodyFaces faces, const std::string& key,
                            const std::string& field);
inline constexpr Named<bool> kTriangleFemElements[] = {{"triangular", false}, {"triangle", true}};
inline constexpr Named<TriangleFemMethod> kTriangleFemMethods[] = {
    {"large", TriangleFemMethod::Large}, {"small", TriangleFemMethod::Small}};

// SOFA's TriangleFEMForceField is the same element with three differences, which these select:
// D times a thickness, plane strain as an option (D = E / ((1 + nu)(1 - 2 nu)) [1 - nu, nu, 0;
// nu, 1 - nu, 0; 0, 0, 1/2 - nu]), and in its method small a J from the formula of the large
// frame (b = (bx, 0)) applied to the world edges' x and y (b's y left out).
struct TriangleFemOptions {
  bool triangleFem = false;  // SOFA's TriangleFEMForceField rather than TriangularFEMForceField
  double thickness = 1;
  bool planeStrain = false;
};

class TriangularFemForceField : public ForceField {
public:
  // triangles: local vertex indices, in the file's order (SOFA's frame depends on it); rest:
  // rest position of each local vertex. Throws eis::Error for a triangle of zero area.
  TriangularFemForceField(std::vector<Triangle> triangles, const std::vector<Vec3>& rest,
                          double youngModulus, double poissonRatio, TriangleFemMethod method,
                          const TriangleFemOptions& options = {});

  // Also keeps each triangle's R and J: the linearization point.
  void addForce(const double* x, const double* v, double* f) override;
  void addDForce(const double* dx, double* df, double kFactor) const override;
  // 9 x 9 blocks, one per triangle, in its vertex order.
  void addKToElementMatrices(double* elementMatrices, double kFactor,
                             CellRange range) const override;
  // sum of strain . stress / 2 at x (SOFA reports none).
  double potentialEnergy(const double* x) const override;
  std::vector<double> vonMisesStress(const double*) const override { return {}; }
  bool isLinear() const override { return false; }

  std::size_t numTriangles() const { return triangles_.size(); }
  // The rest area of triangle t.
  double restArea(std::size_t t) const { return elements_[t].area; }

private:
  using Strain = std::array<double, 3>;
  using StrainDisplacement = std::array<double, 18>;  // 6 x 3, row-major
  struct Element {
    Vec3 restB, restC;        // rest edges b - a, c - a (in the rest frame for large)
    std::array<double, 9> d;  // material matrix times the rest area, 3 x 3
    double area;
    mat3::Mat3 rotation;   // R: world to the triangle's frame, at the last addForce
    StrainDisplacement j;  // at the last addForce
  };
  // A triangle at a state x: its frame, J, strain J^T D and stress D J^T D.
  struct State {
    mat3::Mat3 rotation;
    StrainDisplacement j;
    Strain strain, stress;
  };
  State stateAt(std::size_t triangle, const double* x) const;

  // The 9 x 9 of K = R^T J D J^T R (in-plane rows and columns only), row-major.
  std::array<double, 81> stiffness(const Element& e) const;

  std::vector<Triangle> triangles_;
  std::vector<Element> elements_;
  TriangleFemMethod method_;
  bool triangleFem_;
};

// The triangular-fem component's parameters, read once by readTriangularFemParameters: a
// membrane when membrane.young-modulus is given.
struct TriangularFemParameters {
  std::optional<double> youngModulus;  // membrane.young-modulus
  double poissonRatio;                 // membrane.poisson-ratio
  TriangleFemMethod method;            // membrane.method
  TriangleFemOptions options;  // membrane.element, membrane.thickness, membrane.plane-strain
  BodyFaces faces;             // membrane.faces
};
TriangularFemParameters readTriangularFemParameters(const Parameters& scene);
// nullptr without membrane.young-modulus; an eis::Error on a mesh whose cells are no triangles
// (membrane.faces = cells) or no tetrahedra (boundary).
std::unique_ptr<ForceField> makeTriangularFem(const ModelContext& context,
                                              const TriangularFemParameters& parameters);

ForceFieldComponent triangularFemComponent();

}  // namespace eis
