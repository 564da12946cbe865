#pragma once
// SOFA's ConicalForceField (master, ConicalForceField.inl): a penalty that keeps nodes inside the
// cone of apex c, axis h (its length the cone's height H = |h|, n = h / H) and half-angle a
// (degrees), a spherical sector: a node is inside when |x - c| <= H and the angle between
// p = x - c and h is at most a. A node outside, with velocity v, gets
//   |p| > H (beyond the base):   d = |p| - H, f = -k d p / |p| + c_d d v, normal p / |p|;
//   p . n > 0 (beside the side): p' the nearest point of the cone's line in the plane of n and p
//     (p turned towards n by its angle past a, about n x p, then projected on that line),
//     d = |p' - p|, u = (p' - p) / d, f = k d u - c_d (u . v) u, normal u;
//   p . n <= 0 (above the apex): d = |p|, u = -p / |p|, f = k d u - c_d (u . v) u, normal u;
// (the damping of the first branch adds c_d d v, as SOFA writes it). The tangent is SOFA's, at
// the last addForce, -k u u^T for each node in contact (u its normal), which is the derivative
// of the force only along the plane of n and p beside the side; the damping is explicit
// (penalty_contacts.hpp). The potential energy is 0, as SOFA's getPotentialEnergy returns.
#include <string>
#include <vector>

#include "eis/model/force_field_component.hpp"
#include "eis/model/penalty_contacts.hpp"

namespace eis {

struct Cone {
  Vec3 apex{0, 0, 0};    // SOFA's coneCenter
  Vec3 height{0, 0, 0};  // SOFA's coneHeight: no default, required here
  double angle = 10;     // degrees; SOFA's defaults
  double stiffness = 500;
  double damping = 5;
};

// "CX CY CZ HX HY HZ ANGLE [K [C]]" (obstacle.cone): h non-zero, stiffness and damping >= 0.
Cone parseCone(const std::string& key, const std::string& text);

// SOFA's force on one node at p = x - apex with velocity v: whether it is outside the cone, and
// then its force and contact normal.
bool coneContact(const Cone& cone, const Vec3& p, const Vec3& v, Vec3& force, Vec3& normal);

// One or more cones (each a SOFA ConicalForceField of the body), summed.
class ConicalForceField : public PenaltyContacts {
public:
  ConicalForceField(const DistributedMesh& mesh, std::vector<Cone> cones);

  void addForce(const double* x, const double* v, double* f) override;
  double potentialEnergy(const double*) const override { return 0; }

private:
  std::vector<Cone> cones_;
};

// obstacle.cone: every cone given, read once (the only reader of the key, beside its
// declaration).
struct ConicalForceFieldParameters {
  std::vector<Cone> cones;
};
ConicalForceFieldParameters readConicalForceFieldParameters(const Parameters& scene);
// The field of the cones, or nullptr for none.
std::unique_ptr<ForceField> makeConicalForceField(const ModelContext& context,
                                                  const ConicalForceFieldParameters& parameters);

}  // namespace eis
