#pragma once
// SOFA's SphereForceField (master, SphereForceField.inl): a penalty that keeps nodes out of a
// sphere of centre c and radius r. A node with |x - c| < r (any node when bilateral), with
// p = x - c, l = |p| and its depth s = l - r < 0, gets
//   f = -k s p / l + c_d s v
// (the stiffness along the outward normal, the damping against the whole velocity in proportion
// to the depth). The tangent is SOFA's, at the last addForce, with u = p / l and q = r / l:
//   df/dx = -k (q u u^T + (1 - q) I),
// the exact derivative of the stiffness part; the damping is explicit (penalty_contacts.hpp).
// A node exactly at the centre (l = 0) gets SOFA's 0/0: the step's state check then refuses the
// step as not finite.
#include <string>
#include <vector>

#include "eis/model/force_field_component.hpp"
#include "eis/model/penalty_contacts.hpp"

namespace eis {

struct Sphere {
  Vec3 centre{0, 0, 0};
  double radius = 1;  // SOFA's defaults
  double stiffness = 500;
  double damping = 5;
  bool bilateral = false;
};

// "CX CY CZ R [K [C]] [bilateral]" (obstacle.sphere).
Sphere parseSphere(const std::string& key, const std::string& text);

// One or more spheres (each a SOFA SphereForceField of the body), summed.
class SphereForceField : public PenaltyContacts {
public:
  SphereForceField(const DistributedMesh& mesh, std::vector<Sphere> spheres);

  void addForce(const double* x, const double* v, double* f) override;
  // k s^2 / 2 over the owned nodes in contact (SOFA's getPotentialEnergy returns 0).
  double potentialEnergy(const double* x) const override;

private:
  std::vector<Sphere> spheres_;
};

// obstacle.sphere: every sphere given, read once (the only reader of the key, beside its
// declaration).
struct SphereForceFieldParameters {
  std::vector<Sphere> spheres;
};
SphereForceFieldParameters readSphereForceFieldParameters(const Parameters& scene);
// The field of the spheres, or nullptr for none.
std::unique_ptr<ForceField> makeSphereForceField(const ModelContext& context,
                                                 const SphereForceFieldParameters& parameters);

}  // namespace eis
