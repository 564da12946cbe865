#pragma once
// SOFA's InteractionEllipsoidForceField<Vec3, Rigid3> (Sofa/Component/MechanicalLoad,
// InteractionEllipsoidForceField.inl): penalty ellipsoids fixed in a rigid frame that another
// solver moves, acting on a body's points. The frame F = (c, q) is the linked frame's pose (or
// its inverse, (-q^-1 c, q^-1), with `invert`), read at each addForce. A point x, velocity u, is
// taken to the frame's coordinates, p = R^T (x - c) and u' = R^T u (Quat::inverseRotate); of the
// ellipsoids (centre e, radii r), the one of least N^2 = sum_j (p_j - e_j)^2 / r_j^2 acts (the
// first of equal ones). With d = p - e, g_j = d_j / r_j^2, N and v = N - 1, a point inside
// (k > 0) or outside (k < 0) it gets
//   f = R (-|k| v g / |g| - c_d |v| u'),
// and df/dx = R m R^T, m SOFA's contact matrix of the local point
//   m_ij = g_i g_j (-|k| / (N |g|) - |k| v / (|g|^2 r_j^2)) - delta_ij |k| v / (|g| r_i^2)
// (the EllipsoidForceField's, model/ellipsoid_force_field.hpp: not the derivative of f, and not
// symmetric for unequal radii). The frame's own velocity is not subtracted (SOFA clears it), and
// no force reaches the frame (object2_forces false; true is refused by the importer).
//
// SOFA gives this field no stiffness matrix (no addKToMatrix or buildStiffnessMatrix): its K is
// used matrix-free, by addDForce, as SOFA's CGLinearSolver multiplies; an assembled operator is
// refused (the element matrices throw), and the matrix-free operator's Jacobi diagonal takes the
// contact blocks.
#include <array>
#include <functional>
#include <string>
#include <vector>

#include "eis/model/force_field_component.hpp"
#include "eis/model/penalty_contacts.hpp"

namespace eis {

struct FrameEllipsoid {
  std::array<double, 3> centre{0, 0, 0};
  std::array<double, 3> radii{1, 1, 1};
};

// interaction.ellipsoid-*: the frame (its body's path and index), the ellipsoids, SOFA's
// stiffness (500), damping (5) and object2_invert.
struct InteractionEllipsoidParameters {
  std::string frameBody;  // empty: no field
  int frameIndex = 0;
  std::vector<FrameEllipsoid> ellipsoids;
  double stiffness = 500, damping = 5;
  bool invert = false;
};
InteractionEllipsoidParameters readInteractionEllipsoidParameters(const Parameters& scene);

class InteractionEllipsoidForceField : public PenaltyContacts {
public:
  using FramePose = std::function<std::array<double, 7>()>;  // x y z qx qy qz qw

  InteractionEllipsoidForceField(const DistributedMesh& mesh,
                                 InteractionEllipsoidParameters parameters);

  const InteractionEllipsoidParameters& parameters() const { return parameters_; }
  // Where addForce reads the frame's pose from (the run links the frame's body).
  void linkFrame(FramePose pose) { pose_ = std::move(pose); }

  void addForce(const double* x, const double* v, double* f) override;
  void addKToElementMatrices(double* elementMatrices, double kFactor,
                             CellRange range) const override;
  void addKToElementDiagonals(double* elementMatrices, double kFactor,
                              CellRange range) const override {
    PenaltyContacts::addKToElementMatrices(elementMatrices, kFactor, range);
  }
  double potentialEnergy(const double*) const override { return 0; }
  bool symmetricK() const override { return false; }

private:
  InteractionEllipsoidParameters parameters_;
  FramePose pose_;
};

}  // namespace eis
