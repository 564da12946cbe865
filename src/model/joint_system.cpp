// Rigid frames and a mesh body in one system, joined by springs from the frames' mapped points
// to the mesh's nodes (model/joint_system.hpp).
#include "eis/model/joint_system.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <string>

#include "eis/core/error.hpp"

namespace eis {

namespace {

PetscInt localSize(Vec v) {
  PetscInt n;
  EIS_CHECK(VecGetLocalSize(v, &n));
  return n;
}

// Which unknowns of a part its projection fixes: P 1 is zero there.
std::vector<bool> fixedOf(MechanicalOperations& part, Vec like) {
  Vec ones;
  EIS_CHECK(VecDuplicate(like, &ones));
  EIS_CHECK(VecSet(ones, 1.0));
  part.projectResponse(ones);
  const PetscScalar* values;
  EIS_CHECK(VecGetArrayRead(ones, &values));
  std::vector<bool> fixed(std::size_t(localSize(ones)));
  for (std::size_t i = 0; i < fixed.size(); ++i) fixed[i] = values[i] == 0.0;
  EIS_CHECK(VecRestoreArrayRead(ones, &values));
  EIS_CHECK(VecDestroy(&ones));
  return fixed;
}

}  // namespace

JointSystem::JointSystem(RigidGroup& frames, MechanicalSystem& mesh,
                         std::vector<PointNodeSpring> springs, std::vector<MeshSpring> meshSprings,
                         JointCarried carried)
    : frames_(frames),
      mesh_(mesh),
      springs_(std::move(springs)),
      meshSprings_(std::move(meshSprings)),
      comm_(mesh.mesh().comm()),
      carried_(std::move(carried)) {
  int rank;
  EIS_CHECK_MPI(MPI_Comm_rank(comm_, &rank));
  root_ = rank == 0;
  if (mesh_.lagrangianConstraints())
    throw Error(
        "springs from rigidly mapped points to a mesh body with Lagrangian constraints: not "
        "supported yet");
  for (const PointNodeSpring& spring : springs_) {
    if (spring.member >= frames_.members())
      throw Error("springs from rigidly mapped points: body " + std::to_string(spring.member) +
                  " of " + std::to_string(frames_.members()) + " bodies of frames");
    const std::size_t points = frames_.member(spring.member).mappedPoints();
    if (spring.point >= points)
      throw Error("springs from rigidly mapped points: point " + std::to_string(spring.point) +
                  " of " + std::to_string(points) + " mapped points");
    if (!spring.law.polynomial.empty())
      throw Error(
          "springs from rigidly mapped points: a polynomial spring is not supported there yet");
  }
  for (const MeshSpring& spring : meshSprings_)
    if (!spring.law.polynomial.empty() || !spring.law.points1.empty() ||
        !spring.law.points2.empty())
      throw Error(
          "interaction.springs of a mesh body joined to rigid frames: a polynomial spring or a "
          "weighted end is not supported there yet");
  if (!carried_.points.empty() && (carried_.member >= frames_.members() ||
                                   int(carried_.frame) >= frames_.framesOf(carried_.member)))
    throw Error("carried.frames: frame " + std::to_string(carried_.frame) + " of a body of " +
                std::to_string(
                    carried_.member < frames_.members() ? frames_.framesOf(carried_.member) : 0) +
                " frames");
  fv_ = frames_.createVelocities();
  fx_ = frames_.createPositions();
  EIS_CHECK(VecDuplicate(fv_, &ff_));
  frameUnknowns_ = localSize(fv_);
  frameCoordinates_ = localSize(fx_);
  mv_ = mesh_.createVector();
  EIS_CHECK(VecDuplicate(mv_, &mx_));
  EIS_CHECK(VecDuplicate(mv_, &mf_));
  PetscInt meshFirst;
  EIS_CHECK(VecGetOwnershipRange(mv_, &meshFirst, nullptr));
  EIS_CHECK(VecGetSize(fv_, &frameTotal_));
  meshStart_ = frameTotal_ + meshFirst;

  // Each slot's node: its first mesh row, found by its owner and shared.
  std::vector<std::int64_t> slotNodes;
  for (const PointNodeSpring& spring : springs_) slotNodes.push_back(spring.node);
  for (const MeshSpring& spring : meshSprings_) {
    slotNodes.push_back(spring.law.node1);
    slotNodes.push_back(spring.law.node2);
  }
  const std::size_t firstCarried = slotNodes.size();
  for (const CarriedPoint& point : carried_.points) {
    carriedSlot_.push_back(slotNodes.size());
    for (const auto& [node, weight] : point.weights) slotNodes.push_back(node);
  }
  const DistributedMesh& m = mesh_.mesh();
  std::map<std::int64_t, PetscInt> ownedVertex;
  for (std::size_t v = 0; v < m.numLocalVertices(); ++v)
    if (m.owned()[v]) ownedVertex[m.nodeIds()[v]] = PetscInt(v);
  nodeRows_.assign(slotNodes.size(), -1);
  for (std::size_t s = 0; s < slotNodes.size(); ++s) {
    const auto found = ownedVertex.find(slotNodes[s]);
    if (found != ownedVertex.end()) nodeRows_[s] = meshFirst + m.ownedOffset(found->second);
  }
  if (!slotNodes.empty())
    EIS_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, nodeRows_.data(), int(nodeRows_.size()), MPIU_INT,
                                MPI_MAX, comm_));
  for (std::size_t s = 0; s < slotNodes.size(); ++s)
    if (nodeRows_[s] < 0)
      throw Error(std::string(s < springs_.size() ? "springs from rigidly mapped points"
                              : s < firstCarried  ? "interaction.springs of the joined mesh body"
                                                  : "carried.points") +
                  ": node " + std::to_string(slotNodes[s]) + " is no node of the mesh body");

  // Rank 0 gathers the slots' nodes, 3 unknowns each.
  const PetscInt gathered = root_ ? PetscInt(3 * slotNodes.size()) : 0;
  std::vector<PetscInt> rows;
  for (std::size_t s = 0; root_ && s < slotNodes.size(); ++s)
    for (PetscInt d = 0; d < 3; ++d) rows.push_back(nodeRows_[s] + d);
  EIS_CHECK(VecCreateSeq(PETSC_COMM_SELF, gathered, &nodes_));
  IS from;
  EIS_CHECK(ISCreateGeneral(comm_, gathered, rows.data(), PETSC_COPY_VALUES, &from));
  EIS_CHECK(VecScatterCreate(mv_, from, nodes_, nullptr, &gather_));
  EIS_CHECK(ISDestroy(&from));

  frameFixed_ = fixedOf(frames_, fv_);
  Vec free;
  EIS_CHECK(VecDuplicate(mv_, &free));
  EIS_CHECK(VecSet(free, 1.0));
  mesh_.projectResponse(free);
  const std::vector<double> nodeFree = gatherNodes(free);
  EIS_CHECK(VecDestroy(&free));
  nodeFixed_.resize(nodeFree.size());
  for (std::size_t i = 0; i < nodeFree.size(); ++i) nodeFixed_[i] = nodeFree[i] == 0.0;
  dfdx_.assign(springs_.size(), {});
  meshDfdx_.assign(meshSprings_.size(), {});
  carriedArm_.assign(carried_.points.size(), {});
  carriedK_.assign(carried_.points.size(), {});
}

JointSystem::~JointSystem() {
  for (Vec* v : {&nodes_, &fx_, &fv_, &ff_, &mx_, &mv_, &mf_}) VecDestroy(v);
  VecScatterDestroy(&gather_);
  MatDestroy(&matrix_);
}

std::size_t JointSystem::unknownsOf(const PointNodeSpring& s) const {
  return std::size_t(kRigidDerivSize) * std::size_t(frames_.firstFrame(s.member));
}

Vec JointSystem::createVector() const {
  Vec v;
  EIS_CHECK(VecCreateMPI(comm_, frameUnknowns_ + localSize(mv_), PETSC_DETERMINE, &v));
  return v;
}

Vec JointSystem::createPositions(Vec framePositions, Vec meshPositions) const {
  Vec x;
  EIS_CHECK(VecCreateMPI(comm_, frameCoordinates_ + localSize(mv_), PETSC_DETERMINE, &x));
  join(framePositions, meshPositions, x, true);
  return x;
}

// `part`'s entries <-> whole's from `offset` on: out copies whole into part.
void JointSystem::copyPart(Vec whole, Vec part, PetscInt offset, bool out) const {
  PetscScalar *w, *p;
  EIS_CHECK(VecGetArray(whole, &w));
  EIS_CHECK(VecGetArray(part, &p));
  const std::size_t n = std::size_t(localSize(part)) * sizeof(PetscScalar);
  if (n > 0) std::memcpy(out ? p : w + offset, out ? w + offset : p, n);
  EIS_CHECK(VecRestoreArray(part, &p));
  EIS_CHECK(VecRestoreArray(whole, &w));
}

void JointSystem::split(Vec whole, Vec frames, Vec mesh, bool positions) const {
  copyPart(whole, frames, 0, true);
  copyPart(whole, mesh, positions ? frameCoordinates_ : frameUnknowns_, true);
}

void JointSystem::join(Vec frames, Vec mesh, Vec whole, bool positions) const {
  copyPart(whole, frames, 0, false);
  copyPart(whole, mesh, positions ? frameCoordinates_ : frameUnknowns_, false);
}

std::vector<double> JointSystem::gatherNodes(Vec mesh) const {
  EIS_CHECK(VecScatterBegin(gather_, mesh, nodes_, INSERT_VALUES, SCATTER_FORWARD));
  EIS_CHECK(VecScatterEnd(gather_, mesh, nodes_, INSERT_VALUES, SCATTER_FORWARD));
  std::vector<double> values(root_ ? std::size_t(3 * nodeRows_.size()) : 0);
  const PetscScalar* n;
  EIS_CHECK(VecGetArrayRead(nodes_, &n));
  std::copy(n, n + values.size(), values.begin());
  EIS_CHECK(VecRestoreArrayRead(nodes_, &n));
  return values;
}

void JointSystem::addToNodes(const std::vector<double>& values, Vec mesh) const {
  PetscScalar* n;
  EIS_CHECK(VecGetArray(nodes_, &n));
  std::copy(values.begin(), values.end(), n);
  EIS_CHECK(VecRestoreArray(nodes_, &n));
  EIS_CHECK(VecScatterBegin(gather_, nodes_, mesh, ADD_VALUES, SCATTER_REVERSE));
  EIS_CHECK(VecScatterEnd(gather_, nodes_, mesh, ADD_VALUES, SCATTER_REVERSE));
}

// The springs first (their forces and D on rank 0, the points' share handed to the frames), then
// each part's force, then the nodes' share added to the mesh's.
void JointSystem::computeForce(Vec x, Vec v, Vec f) {
  split(x, fx_, mx_, true);
  split(v, fv_, mv_, false);
  const std::vector<double> nodeX = gatherNodes(mx_), nodeV = gatherNodes(mv_);
  std::vector<double> nodeForce(nodeX.size(), 0.0);
  if (root_) {
    const PetscScalar *frames, *velocities;
    EIS_CHECK(VecGetArrayRead(fx_, &frames));
    EIS_CHECK(VecGetArrayRead(fv_, &velocities));
    // Each member's points, and the loads and stiffness the springs put on them.
    std::vector<std::vector<Vec3d>> points, loads;
    std::vector<std::vector<std::array<double, 9>>> stiffness;
    for (std::size_t m = 0; m < frames_.members(); ++m) {
      RigidBody& member = frames_.member(m);
      const std::size_t first = std::size_t(frames_.firstFrame(m));
      points.push_back(member.mappedPoints() > 0
                           ? member.mappedPositions(frames + kRigidCoordSize * first)
                           : std::vector<Vec3d>{});
      loads.emplace_back(points.back().size(), Vec3d{});
      stiffness.emplace_back(points.back().size(), std::array<double, 9>{});
    }
    for (std::size_t s = 0; s < springs_.size(); ++s) {
      const std::size_t m = springs_[s].member, p = springs_[s].point;
      const Vec3d vp = frames_.member(m).mappedVelocity(p, velocities + unknownsOf(springs_[s]));
      SpringState state;
      springForce(springs_[s].law, points[m][p].data(), &nodeX[3 * s], vp.data(), &nodeV[3 * s],
                  state);
      dfdx_[s] = state.dfdx;
      for (std::size_t d = 0; d < 3; ++d) {
        loads[m][p][d] += state.force[d];
        nodeForce[3 * s + d] = -state.force[d];
      }
      for (std::size_t e = 0; e < 9; ++e) stiffness[m][p][e] -= state.dfdx[e];
    }
    EIS_CHECK(VecRestoreArrayRead(fv_, &velocities));
    EIS_CHECK(VecRestoreArrayRead(fx_, &frames));
    for (std::size_t t = 0; t < meshSprings_.size(); ++t) {
      const std::size_t a = 3 * slotOf(t), b = a + 3;
      SpringState state;
      springForce(meshSprings_[t].law, &nodeX[a], &nodeX[b], &nodeV[a], &nodeV[b], state);
      meshDfdx_[t] = state.dfdx;
      for (std::size_t d = 0; d < 3; ++d) {
        nodeForce[a + d] = state.force[d];
        nodeForce[b + d] = -state.force[d];
      }
    }
    for (std::size_t m = 0; m < frames_.members(); ++m)
      if (frames_.member(m).mappedPoints() > 0)
        frames_.member(m).setMappedLoads(std::move(loads[m]), std::move(stiffness[m]));
  }
  frames_.computeForce(fx_, fv_, ff_);
  if (root_ && !carried_.points.empty()) {
    const PetscScalar *frames, *velocities;
    PetscScalar* force;
    EIS_CHECK(VecGetArrayRead(fx_, &frames));
    EIS_CHECK(VecGetArrayRead(fv_, &velocities));
    EIS_CHECK(VecGetArray(ff_, &force));
    addCarriedForces(frames, velocities, force, nodeX, nodeV, nodeForce);
    EIS_CHECK(VecRestoreArray(ff_, &force));
    EIS_CHECK(VecRestoreArrayRead(fv_, &velocities));
    EIS_CHECK(VecRestoreArrayRead(fx_, &frames));
  }
  mesh_.computeForce(mx_, mv_, mf_);
  addToNodes(nodeForce, mf_);
  join(ff_, mf_, f, false);
}

// Each part's own product (the points' -D through the mapping in the frames'), then the cross
// terms: J^T D dx_n on the frames, D (J dx_f - dx_n) on the nodes.
void JointSystem::addMBKv(Vec out, double mFactor, double bFactor, double kFactor, Vec v) {
  split(v, fv_, mv_, false);
  split(out, ff_, mf_, false);
  frames_.addMBKv(ff_, mFactor, bFactor, kFactor, fv_);
  mesh_.addMBKv(mf_, mFactor, bFactor, kFactor, mv_);
  if (kFactor != 0 && !nodeRows_.empty()) {
    const std::vector<double> dn = gatherNodes(mv_);
    std::vector<double> nodeOut(dn.size(), 0.0);
    if (root_) {
      const PetscScalar* dv;
      PetscScalar* o;
      EIS_CHECK(VecGetArrayRead(fv_, &dv));
      EIS_CHECK(VecGetArray(ff_, &o));
      for (std::size_t s = 0; s < springs_.size(); ++s) {
        const PointNodeSpring& spring = springs_[s];
        RigidBody& member = frames_.member(spring.member);
        const Vec3d dp = member.mappedVelocity(spring.point, dv + unknownsOf(spring));
        Vec3d toPoint{};
        for (std::size_t a = 0; a < 3; ++a)
          for (std::size_t b = 0; b < 3; ++b) {
            const double d = kFactor * dfdx_[s][3 * a + b];
            toPoint[a] += d * dn[3 * s + b];
            nodeOut[3 * s + a] += d * (dp[b] - dn[3 * s + b]);
          }
        member.addMappedForce(spring.point, toPoint, o + unknownsOf(spring));
      }
      // A mesh spring: D (dx_b - dx_a) on a, its opposite on b.
      for (std::size_t t = 0; t < meshSprings_.size(); ++t) {
        const std::size_t a = 3 * slotOf(t), b = a + 3;
        for (std::size_t i = 0; i < 3; ++i)
          for (std::size_t j = 0; j < 3; ++j) {
            const double d = kFactor * meshDfdx_[t][3 * i + j] * (dn[b + j] - dn[a + j]);
            nodeOut[a + i] += d;
            nodeOut[b + i] -= d;
          }
      }
      addCarriedProducts(kFactor, dv, o, dn, nodeOut);
      EIS_CHECK(VecRestoreArray(ff_, &o));
      EIS_CHECK(VecRestoreArrayRead(fv_, &dv));
    }
    addToNodes(nodeOut, mf_);
  }
  join(ff_, mf_, out, false);
}

void JointSystem::projectResponse(Vec v) {
  split(v, fv_, mv_, false);
  frames_.projectResponse(fv_);
  mesh_.projectResponse(mv_);
  join(fv_, mv_, v, false);
}

bool JointSystem::prescribedDisplacement(double h, Vec x, Vec dx) {
  split(x, fx_, mx_, true);
  EIS_CHECK(VecZeroEntries(mf_));
  if (!mesh_.prescribedDisplacement(h, mx_, mf_)) return false;
  EIS_CHECK(VecZeroEntries(ff_));
  join(ff_, mf_, dx, false);
  return true;
}

void JointSystem::addToPosition(Vec x, double h, Vec v) {
  split(x, fx_, mx_, true);
  split(v, fv_, mv_, false);
  frames_.addToPosition(fx_, h, fv_);
  mesh_.addToPosition(mx_, h, mv_);
  join(fx_, mx_, x, true);
}

}  // namespace eis
