#pragma once
// SOFA's PlaneForceField (master, PlaneForceField.inl): a penalty that keeps nodes on one side of
// the plane x.n = d. For each node, with its signed distance s = x.n - d (n as written, not
// normalised: SOFA normalises only in setPlane, which a scene does not call), a node with s < 0
// (any s when bilateral) gets
//   f = -k s n + c s v,
// the stiffness k pushing along n and the damping c against the whole velocity, in proportion to
// the depth (SOFA's forceIntensity - dampingIntensity v). When maxForce > 0, a force longer than
// it is scaled to that length. The tangent is SOFA's df/dx = -k n n^T on the nodes in contact at
// the last addForce (the scaling and the damping left out, as SOFA leaves them out); the damping
// is explicit (penalty_contacts.hpp).
#include <array>
#include <vector>

#include "eis/model/force_field_component.hpp"
#include "eis/model/penalty_contacts.hpp"

namespace eis {

struct Plane {
  Vec3 normal{0, 1, 0};
  double d = 0;
  double stiffness = 500;  // SOFA's defaults
  double damping = 5;
  double maxForce = 0;  // 0: no limit
  bool bilateral = false;
};

// "NX NY NZ D [K [C [FMAX]]] [bilateral]" (obstacle.plane).
Plane parsePlane(const std::string& key, const std::string& text);

// PlaneForceField::addForce at one point x moving at v: below the plane (or any, bilateral), the
// force -k s n + c s v capped at maxForce added to `force`, and addDForce's -k n n^T to
// `stiffness` (row major). For points that are no nodes of a mesh (mapped from frames).
void addPlaneForce(const Plane& plane, const double* x, const double* v, double* force,
                   std::array<double, 9>& stiffness);

// One or more planes (each a SOFA PlaneForceField of the body), summed.
class PlaneForceField : public PenaltyContacts {
public:
  PlaneForceField(const DistributedMesh& mesh, std::vector<Plane> planes);

  void addForce(const double* x, const double* v, double* f) override;
  // k s^2 / 2 over the owned nodes in contact: the potential of the stiffness part (SOFA has
  // none: its getPotentialEnergy returns 0).
  double potentialEnergy(const double* x) const override;

private:
  std::vector<Plane> planes_;
};

// obstacle.plane: every plane given, read once (the only reader of the key, beside its
// declaration).
struct PlaneForceFieldParameters {
  std::vector<Plane> planes;
};
PlaneForceFieldParameters readPlaneForceFieldParameters(const Parameters& scene);
// The field of the planes, or nullptr for none.
std::unique_ptr<ForceField> makePlaneForceField(const ModelContext& context,
                                                const PlaneForceFieldParameters& parameters);

}  // namespace eis
