#pragma once
// Bodies of rigid frames (a RigidGroup: one body, or several that springs between frames join)
// and a mesh body as ONE system, as under SOFA's one ODE solver when
// springs join points a RigidMapping drives from the frames to the mesh's nodes (SOFA's
// MatrixLinearSystem.scn: a SpringForceField from red/FEM to green/DOFs). Its vectors are one
// distributed vector: on rank 0 the frames' unknowns (6 a frame in v, 7 in x, RigidBody's
// layout, the group's, on the same communicator), then on every rank its part of the mesh body's.
// The integrator sees its operations alone; each acts on the two parts by their own rule (a frame
// turned by addToPosition's quaternion rule, the nodes moved by the vector sum) and adds the
// springs' coupling.
//
// A spring's law is the point springs' (model/interaction_springs.hpp, SOFA's SpringForceField:
// the damping in the force, explicit), its end 1 mapped point p of a member of the group, its end 2
// node n of the mesh. With D its derivative, df_p = D (dx_n - dx_p) and df_n = -df_p: the point's
// force and -D reach the frames through the member's mapping (RigidBody::setMappedLoads: J^T f, J^T
// (-D) J and the geometric stiffness at the points' total force), and the system adds J^T D on the
// frames' rows and node n's columns, D J on node n's rows and the frames' columns, and -D on node
// n's own block. The matrix holds those between free unknowns only (a fixed one keeps its diagonal,
// as each part's matrix does). Springs are evaluated on rank 0, which holds the frames; their
// nodes' values gathered there and their forces sent back.
#include <petscmat.h>

#include <cstdint>
#include <vector>

#include "eis/linalg/mechanical_operations.hpp"
#include "eis/model/carried_points.hpp"
#include "eis/model/interaction_springs.hpp"
#include "eis/model/mechanical_system.hpp"
#include "eis/model/rigid_group.hpp"

namespace eis {

// A spring from mapped point `point` of the group's member `member` to the mesh's node `node`
// (its id).
struct PointNodeSpring {
  std::size_t member = 0, point = 0;
  std::int64_t node = 0;
  InteractionSpring law;  // ks, kd, L (node1, node2 unused)
};

// A spring between two nodes of the mesh (their ids), the mesh body's own interaction.springs
// to itself: solved in the joined system, where a CoupledSystem would solve them alone.
struct MeshSpring {
  InteractionSpring law;  // node1, node2: the ends; ks, kd, L
};

// Points of the mesh body that frame `frame` of the group's member `member` carries, under the
// planes (model/carried_points.hpp): computed on rank 0 from the frame and their nodes' values,
// their forces reaching the frame (f, and the torque (R u~) x f) and the nodes (b R^T f), and
// J^T K J with K the planes' -k n n^T where they push: the frame's block, the frame's rows and
// the nodes' columns and back, and the nodes' blocks among themselves.
struct JointCarried {
  std::size_t member = 0, frame = 0;
  std::vector<CarriedPoint> points;
  std::vector<Plane> planes;
};

class JointSystem : public MechanicalOperations {
public:
  // Collective on the mesh's communicator, which must be the frames'. Throws eis::Error on
  // every rank for a point that is no mapped point, a node that is no node of the mesh, a
  // polynomial or weighted spring, or a mesh with Lagrangian constraints.
  JointSystem(RigidGroup& frames, MechanicalSystem& mesh, std::vector<PointNodeSpring> springs,
              std::vector<MeshSpring> meshSprings = {}, JointCarried carried = {});
  ~JointSystem() override;
  JointSystem(const JointSystem&) = delete;
  JointSystem& operator=(const JointSystem&) = delete;

  // New joined vectors (the caller destroys them): the parts' positions (x layout) and a
  // velocity-shaped vector.
  Vec createPositions(Vec framePositions, Vec meshPositions) const;
  Vec createVector() const;
  std::size_t springs() const { return springs_.size(); }
  std::size_t meshSprings() const { return meshSprings_.size(); }
  std::size_t carriedPoints() const { return carried_.points.size(); }
  // The joined vector's parts <-> the parts' own vectors; `positions`: x's layout (7 a frame).
  void split(Vec whole, Vec frames, Vec mesh, bool positions) const;
  void join(Vec frames, Vec mesh, Vec whole, bool positions) const;

  void computeForce(Vec x, Vec v, Vec f) override;
  void addMBKv(Vec out, double mFactor, double bFactor, double kFactor, Vec v) override;
  // Throws eis::Error when the mesh's operator is matrix-free (a shell: its rows cannot be read).
  Mat systemMatrix(double mFactor, double bFactor, double kFactor) override;
  void projectResponse(Vec v) override;
  void addToPosition(Vec x, double h, Vec v) override;
  // The mesh's prescribed motion, the frames' part zero.
  bool prescribedDisplacement(double h, Vec x, Vec dx) override;
  bool prescribesMotion() const override { return mesh_.prescribesMotion(); }
  bool massless() const override { return mesh_.massless(); }

private:
  // The springs' nodes' values of a mesh vector, on rank 0 (3 per slot: each point spring's
  // node, then each mesh spring's two ends); the reverse adds rank 0's values into the mesh
  // vector.
  std::vector<double> gatherNodes(Vec mesh) const;
  void addToNodes(const std::vector<double>& values, Vec mesh) const;
  void copyPart(Vec whole, Vec part, PetscInt offset, bool out) const;
  // The joined matrix's structure from the parts' (model/joint_matrix.cpp).
  void createMatrix(Mat frames, Mat mesh);
  // A part's rows into the joined matrix, its columns moved by `shift`.
  void copyRows(Mat part, PetscInt rowShift, PetscInt shift);
  // The springs' cross and node blocks, kFactor times, between free unknowns; the mesh
  // springs' blocks.
  void addSpringBlocks(double kFactor);
  void addMeshSpringBlocks(double kFactor);
  // Mesh spring t's first end's slot (its second end is the next).
  std::size_t slotOf(std::size_t t) const { return springs_.size() + 2 * t; }
  // The carried points (model/joint_carried_points.cpp), on rank 0: their forces at the frames'
  // positions and velocities and their nodes' gathered values, the frame's share added to
  // `frameForce` and the nodes' to `nodeForce`; kFactor J^T K J of the frames' part `dv` and
  // the nodes' `dn`, into `out` and `nodeOut`; its blocks in the matrix; the carrying frame's
  // first unknown.
  void addCarriedForces(const double* frames, const double* velocities, double* frameForce,
                        const std::vector<double>& nodeX, const std::vector<double>& nodeV,
                        std::vector<double>& nodeForce);
  void addCarriedProducts(double kFactor, const double* dv, double* out,
                          const std::vector<double>& dn, std::vector<double>& nodeOut) const;
  void addCarriedBlocks(double kFactor);
  PetscInt carriedFrame() const;

  RigidGroup& frames_;
  MechanicalSystem& mesh_;
  std::vector<PointNodeSpring> springs_;
  std::vector<MeshSpring> meshSprings_;
  MPI_Comm comm_;
  bool root_ = false;
  PetscInt frameUnknowns_ = 0, frameCoordinates_ = 0;  // on rank 0: 6 and 7 a frame
  PetscInt meshStart_ = 0;                             // the mesh part's first global row
  PetscInt frameTotal_ = 0;                            // 6 a frame: the mesh's rows' shift
  std::vector<PetscInt> nodeRows_;                     // each slot's node, its mesh row
  std::vector<bool> frameFixed_, nodeFixed_;           // rank 0: per frame unknown, per slot's
  VecScatter gather_ = nullptr;
  Vec nodes_ = nullptr;                             // rank 0: 3 per slot
  Vec fx_ = nullptr, fv_ = nullptr, ff_ = nullptr;  // frame parts: x, and two of v's layout
  Vec mx_ = nullptr, mv_ = nullptr, mf_ = nullptr;  // mesh parts
  std::vector<std::array<double, 9>> dfdx_;         // each spring's D, rank 0
  std::vector<std::array<double, 9>> meshDfdx_;     // each mesh spring's D, rank 0
  JointCarried carried_;
  std::vector<std::size_t> carriedSlot_;  // per carried point, its first slot
  // Rank 0, at the last computeForce: the frame's orientation, and per carried point R u~ and
  // the planes' df/dw.
  std::array<double, 4> carriedOrientation_{0, 0, 0, 1};
  std::vector<Vec3d> carriedArm_;
  std::vector<std::array<double, 9>> carriedK_;
  // The first unknown of a spring's member in the frames' part (6 a frame).
  std::size_t unknownsOf(const PointNodeSpring& s) const;
  Mat matrix_ = nullptr;
};

}  // namespace eis
