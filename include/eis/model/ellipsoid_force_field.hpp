#pragma once
// SOFA's EllipsoidForceField (master, EllipsoidForceField.inl): a penalty ellipsoid of centre c
// and radii r. For a node at x, with p = x - c, g_j = p_j / r_j^2 (the gradient of the level
// function, halved), N = sqrt(sum_j p_j^2 / r_j^2) and v = N - 1 (< 0 inside, > 0 outside): a
// node inside when the stiffness k > 0 (pushed out), outside when k < 0 (held in; SOFA's
// (N^2 - 1) k < 0), gets
//   f = -|k| v g / |g| - c_d |v| u,
// u its velocity (the damping explicit, penalty_contacts.hpp). The tangent is SOFA's contact
// matrix, at the last addForce:
//   df_i/dx_j = g_i g_j (-|k| / (N |g|) - |k| v / (|g|^2 r_j^2)) - delta_ij |k| v / (|g| r_i^2),
// which is not the derivative of f (its last product term has the other sign and |g|^2 for
// |g|^3) and not symmetric when the radii differ; SOFA integrates with it, and so does this
// field (symmetricK() is false then). The potential energy is 0, as SOFA's getPotentialEnergy
// returns. A node at the centre gets SOFA's 0/0: the step's state check refuses the step.
#include <string>
#include <vector>

#include "eis/model/force_field_component.hpp"
#include "eis/model/penalty_contacts.hpp"

namespace eis {

struct Ellipsoid {
  Vec3 centre{0, 0, 0};
  Vec3 radii{1, 1, 1};
  double stiffness = 500;  // SOFA's defaults
  double damping = 5;
};

// "CX CY CZ RX RY RZ [K [C]]" (obstacle.ellipsoid): radii > 0, damping >= 0, K of either sign.
Ellipsoid parseEllipsoid(const std::string& key, const std::string& text);

// One or more ellipsoids (each a SOFA EllipsoidForceField of the body), summed.
class EllipsoidForceField : public PenaltyContacts {
public:
  EllipsoidForceField(const DistributedMesh& mesh, std::vector<Ellipsoid> ellipsoids);

  void addForce(const double* x, const double* v, double* f) override;
  double potentialEnergy(const double*) const override { return 0; }
  bool symmetricK() const override { return symmetric_; }

private:
  std::vector<Ellipsoid> ellipsoids_;
  bool symmetric_ = true;  // every ellipsoid a sphere
};

// obstacle.ellipsoid: every ellipsoid given, read once.
struct EllipsoidForceFieldParameters {
  std::vector<Ellipsoid> ellipsoids;
};
EllipsoidForceFieldParameters readEllipsoidForceFieldParameters(const Parameters& scene);
// The field of the ellipsoids, or nullptr for none.
std::unique_ptr<ForceField> makeEllipsoidForceField(
    const ModelContext& context, const EllipsoidForceFieldParameters& parameters);

}  // namespace eis
