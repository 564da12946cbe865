#pragma once
// A body of rigid frames, SOFA's MechanicalObject<Rigid3d>: each frame a position and an
// orientation quaternion (x y z qx qy qz qw, SOFA's RigidCoord layout) with six velocity unknowns,
// linear then angular, both in the world frame (SOFA's RigidDeriv). On it: SOFA's UniformMass
// (RigidMass: the mass on the linear unknowns, mass times the inertia matrix on the angular ones,
// that matrix applied as given, never turned with the frame, and no gyroscopic term, as SOFA
// does), the gravity that mass feels, and fixed or partially fixed frames (SOFA's
// FixedProjectiveConstraint and PartialFixedProjectiveConstraint). Points a RigidMapping drives
// (model/rigid_mapping.hpp) bring their weight and constant forces as J^T f and their mass as
// J^T m J, 6 x 6 blocks of their frames, J at the positions of the last force computation; the
// planes that push them (PlaneForceField's law) their force J^T f and stiffness J^T K J; a FEM
// and a mass on their cells J^T f_c, J^T K_c J and J^T M_c J, which couple frames; the mapping's
// geometric stiffness, when chosen, the change of J^T f with the frames' turn at the points'
// total force f of the last force computation (RigidMapping::geometricStiffness). Planes on
// the frames themselves (PlaneForceField<Rigid3>) push their centres, the linear unknowns, by
// the same law; rest-shape springs (RestShapeSpringsForceField<Rigid3>) pull them back; beams
// (BeamFEMForceField, model/beam_fem.hpp) join pairs of frames, coupling their blocks. Its
// operations are the MechanicalOperations an integrator sees; adding a velocity to a position turns
// the frame by the exponential of the rotation, as RigidCoord's operator+= does.
//
// A body of frames is small: a run gives every rank the whole body on PETSC_COMM_SELF, and each
// computes the same step (no message; the answer is the same on any number of ranks). On another
// communicator, rank 0 holds every unknown.
#include <mpi.h>
#include <petscmat.h>

#include <array>
#include <memory>
#include <optional>
#include <vector>

#include "eis/core/component.hpp"
#include "eis/core/parameters.hpp"
#include "eis/linalg/mechanical_operations.hpp"
#include "eis/model/beam_fem.hpp"
#include "eis/model/plane_force_field.hpp"
#include "eis/model/rigid_mapped_cells.hpp"
#include "eis/model/rigid_mapping.hpp"

namespace eis {

// SOFA's RigidMass<3, double>: the mass, the volume (read, unused by the mechanics) and the
// inertia matrix per unit mass, row by row.
struct RigidMass {
  double mass = 1, volume = 1;
  std::array<double, 9> inertia{1, 0, 0, 0, 1, 0, 0, 0, 1};
};

inline constexpr int kRigidCoordSize = 7;  // x y z qx qy qz qw
inline constexpr int kRigidDerivSize = 6;  // vx vy vz wx wy wz

// Points a RigidMapping drives from the frames (SOFA: a child node under RigidMapping with its
// UniformMass and ConstantForceField): point i in frame frameOf[i] at local coordinates local[i],
// each of mass `mass` (its weight mass g acts on it) and with the constant force forces[i].
struct RigidMappedPoints {
  std::vector<int> frameOf;
  std::vector<std::array<double, 3>> local, forces;
  double mass = 0;
  std::vector<Plane> planes;  // PlaneForceFields acting on the points
  RigidMappedCells cells;     // a FEM and a mass on the points' cells (model/rigid_mapped_cells)
  // SOFA's RigidMapping geometricStiffness: None (0), Exact (1) or Stabilized (2).
  RigidGeometricStiffness geometric = RigidGeometricStiffness::None;
};

// SOFA's RestShapeSpringsForceField<Rigid3> with one stiffness and one angular stiffness: each
// listed frame (all when empty) pulled back to its initial centre by -k (c - c0) and turned back
// by -ka angle axis of q q0^-1 (Quat::quatToAxis, the shorter way); its stiffness SOFA's, -k on
// the linear unknowns and -ka on the angular ones.
struct RigidRestSprings {
  std::vector<int> frames;  // empty: every frame
  double stiffness = 100, angularStiffness = 100;
};

struct RigidBodyParameters {
  std::vector<double> frames;      // 7 per frame
  std::vector<double> velocities;  // 6 per frame, or empty: at rest
  RigidMass mass;                  // each frame's (UniformMass's vertexMass)
  std::array<double, 3> gravity{0, 0, 0};
  // Per frame, which of its six unknowns are fixed; empty: none.
  std::vector<std::array<bool, kRigidDerivSize>> fixed;
  RigidMappedPoints mapped;
  std::vector<Plane> planes;  // PlaneForceFields on the frames' centres (obstacle.plane)
  std::vector<RigidRestSprings> restSprings;
  // A constant force and torque on each frame, 6 a frame (SOFA ConstantForceField<Rigid3>);
  // empty: none.
  std::vector<double> forces;
  // BeamFEMForceFields joining frames (model/beam_fem.hpp).
  std::vector<BeamParameters> beams;
};

class RigidBody : public MechanicalOperations {
public:
  // Collective. Throws eis::Error for frames not a multiple of 7, velocities not 6 a frame, a
  // mass or inertia matrix that is not positive definite.
  RigidBody(MPI_Comm comm, RigidBodyParameters parameters);
  ~RigidBody() override;
  RigidBody(const RigidBody&) = delete;
  RigidBody& operator=(const RigidBody&) = delete;

  int frames() const { return frames_; }
  MPI_Comm comm() const { return comm_; }
  // Collective. New vectors holding the initial positions (7 a frame) and velocities (6 a frame,
  // projected: a fixed unknown starts still). The caller destroys them.
  Vec createPositions() const;
  Vec createVelocities();

  void computeForce(Vec x, Vec v, Vec f) override;
  void addMBKv(Vec out, double mFactor, double bFactor, double kFactor, Vec v) override;
  Mat systemMatrix(double mFactor, double bFactor, double kFactor) override;
  void projectResponse(Vec v) override;
  void addToPosition(Vec x, double h, Vec v) override;

  // The mapped points, for a system that joins the body to a mesh body (model/joint_system):
  // their positions for the frames `frames` (7 numbers a frame; sets J as computeForce does),
  // point i's velocity J_i v, and out (6 numbers a frame) += J_i^T f.
  std::size_t mappedPoints() const { return mapping_ ? mapping_->size() : 0; }
  int mappedFrame(std::size_t i) const { return mapping_->frameOf(i); }
  std::vector<Vec3d> mappedPositions(const double* frames) { return mapping_->apply(frames); }
  Vec3d mappedVelocity(std::size_t i, const double* velocities) const {
    return mapping_->applyJ(i, velocities);
  }
  void addMappedForce(std::size_t i, const Vec3d& f, double* out) const {
    mapping_->applyJT(i, f, out);
  }
  // Forces and their df/dx (row major) that something outside the body puts on its mapped
  // points, one each: the next computeForce adds them to the points' own, so that J^T f, J^T K J
  // (products and matrix) and the geometric stiffness take them in. Throws eis::Error for a
  // count other than the points'.
  void setMappedLoads(std::vector<Vec3d> forces, std::vector<std::array<double, 9>> stiffness);

private:
  // Whether a stiffness acts on the frames (mapped points, planes, rest-shape springs, beams):
  // then the matrix is refilled at every assembly.
  bool hasStiffness() const {
    return mapping_ || !parameters_.planes.empty() || !parameters_.restSprings.empty() ||
           !beams_.empty();
  }

  MPI_Comm comm_;
  RigidBodyParameters parameters_;
  int frames_ = 0;
  bool owner_ = false;                            // rank 0 holds every unknown
  std::array<double, 9> inertiaMass_{};           // RigidMass::inertiaMassMatrix: inertia * mass
  std::vector<bool> fixed_;                       // per unknown
  std::optional<RigidMapping> mapping_;           // the mapped points, if any
  std::vector<std::array<double, 9>> stiffness_;  // df/dx of each mapped point at the last force
  std::vector<std::array<double, 9>> planeStiffness_;  // of each frame's centre, at the last force
  std::vector<std::array<double, 2>> restStiffness_;   // each frame's k and ka, summed
  std::vector<std::array<double, 9>> geometric_;       // each frame's geometric stiffness block
  std::unique_ptr<RigidMappedCellsField> cells_;       // the mapped points' cells, if any
  std::vector<BeamForceField> beams_;
  std::vector<Vec3d> loads_;  // setMappedLoads's, if any
  std::vector<std::array<double, 9>> loadStiffness_;
  Mat matrix_ = nullptr;
  double matrixFactor_ = 0;  // the mass factor the matrix holds (0: none yet)
};

// The rigid-body component (rigid.*), declared and read in model/rigid_body_component.cpp. A scene
// that gives rigid.frames is a body of frames, not of a mesh; its gravity is load.gravity.
const ComponentDeclaration& rigidBodyComponent();
bool isRigidBody(const Parameters& scene);
// Throws eis::Error for a fixed frame index past the last frame.
RigidBodyParameters readRigidBodyParameters(const Parameters& scene);

// SOFA's Quat::operator*: the Hamilton product a b of quaternions (qx qy qz qw).
std::array<double, 4> quaternionProduct(const std::array<double, 4>& a,
                                        const std::array<double, 4>& b);

// The frame `q` (qx qy qz qw) turned by the rotation vector `rotation` as SOFA's
// RigidCoord<3>::operator+= turns it: exp(rotation / 2) * q, with the unit quaternion of
// (rotation / 2, 1) for a rotation below machine epsilon.
std::array<double, 4> rotateQuaternion(const std::array<double, 4>& q,
                                       const std::array<double, 3>& rotation);

}  // namespace eis
