#pragma once
// SOFA's RigidMapping (Sofa/Component/Mapping/NonLinear RigidMapping.inl) from Rigid3d frames to
// points: point i sits at local coordinates r_i in frame f(i), at x_i = c + R(q) r_i, and moves
// with it: v_i = v + w x (R r_i) (J), its force f_i reaching the frame as the force f_i and the
// torque (R r_i) x f_i (J^T). R r_i is the rotated point of the last apply, as SOFA's
// m_rotatedPoints. Its geometric stiffness, the change of J^T f with the frame's turn at a force f
// held, is SOFA's geometricStiffness: None (0, RigidMapping's default), Exact (1) or Stabilized
// (2).
#include <array>
#include <vector>

namespace eis {

enum class RigidGeometricStiffness { None, Exact, Stabilized };

using Vec3d = std::array<double, 3>;

// SOFA's Quat::rotate and inverseRotate (type/Quat.h) of v by the unit quaternion q (qx qy qz qw).
Vec3d rotateByQuaternion(const std::array<double, 4>& q, const Vec3d& v);
Vec3d inverseRotateByQuaternion(const std::array<double, 4>& q, const Vec3d& v);

class RigidMapping {
public:
  // Point i in frame frameOf[i] at local coordinates local[i].
  RigidMapping(std::vector<int> frameOf, std::vector<Vec3d> local);
  // RigidMapping::reinit with globalToLocalCoords: the local coordinates of world points in the
  // frames (7 numbers each), inverseRotate(p - c).
  static std::vector<Vec3d> localCoordinates(const std::vector<double>& frames,
                                             const std::vector<int>& frameOf,
                                             const std::vector<Vec3d>& world);

  std::size_t size() const { return frameOf_.size(); }
  int frameOf(std::size_t i) const { return frameOf_[i]; }
  // The points' positions for these frames (7 numbers each); keeps the rotated points for J.
  std::vector<Vec3d> apply(const double* frames);
  // v_i from the frames' velocities (6 numbers each).
  Vec3d applyJ(std::size_t i, const double* velocities) const;
  // out (6 numbers a frame) += J_i^T f.
  void applyJT(std::size_t i, const Vec3d& f, double* out) const;
  // The 6 x 6 block (row-major) of frame frameOf(i) += J_i^T (m I) J_i.
  void addMass(std::size_t i, double m, double* block) const;
  // The 6 x 6 block (row-major) of frame frameOf(i) += factor J_i^T k J_i, k 3 x 3 row-major.
  void addStiffness(std::size_t i, const std::array<double, 9>& k, double factor,
                    double* block) const;
  // J_i = [I, -[R r_i]x], 3 x 6 row-major, at the rotated point of the last apply.
  std::array<double, 18> jacobian(std::size_t i) const;
  // Per frame (of `frames`), the angular 3 x 3 block (row-major) that the geometric stiffness adds
  // to the frames' df/dx, the points' forces f_i held (RigidMapping::updateK): the sum over the
  // frame's points of [f_i]x [R r_i]x, the derivative of the torque (R r_i) x f_i with respect to
  // the frame's turn. Exact: that block, not symmetric. Stabilized: symmetrized, then projected
  // onto the negative semi-definite matrices (its eigenvalues above 0 set to 0; left as it is
  // when none is). None: zero blocks.
  std::vector<std::array<double, 9>> geometricStiffness(const std::vector<Vec3d>& forces,
                                                        std::size_t frames,
                                                        RigidGeometricStiffness mode) const;

private:
  std::vector<int> frameOf_;
  std::vector<Vec3d> local_, rotated_;
};

}  // namespace eis
