#pragma once
// The geometric stiffness of SOFA's DistanceMapping (master DistanceMapping.inl, doUpdateK and
// buildGeometricStiffnessMatrix; BaseNonLinearMapping::applyDJT) under the forces its child
// receives from FreeMotionAnimationLoop: after each constraint solve the rows' multipliers f
// (h times a force) are kept (GenericConstraintSolver::storeConstraintLambdas), and before the
// next free motion they are divided by that step's h (lambdaMultInvDt) and become the child's
// forces c (addToTotalForces), c = 0 before the first solve. For edge i from a to b, with L its
// length and u its direction at the state of the free motion's force evaluation (x_n, the
// mapping's last apply), the stiffness block is K_i = (c_i / L)(I - u u^T) on (a, a) and (b, b)
// and -K_i on (a, b) and (b, a), a force derivative added to the body's K: its matrix (the
// solver's K factor, -h (h + rayleighStiffness) for EulerImplicitSolver) and its products (the
// right-hand side's K v term). Stabilized keeps an edge's block only where c_i < 0 (an edge in
// extension), Exact every edge; 1 / L is 0 for an edge shorter than the machine epsilon, whose
// u is (1, 1, 1) / sqrt(3), as the mapping's apply sets them. It adds no force.
// Each edge's block lies in one local cell of the body holding both its ends (the first rank
// that has one takes it), so the blocks go into that cell's element matrix; an edge in no cell
// of the body is refused.
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "eis/mesh/distributed_mesh.hpp"
#include "eis/model/force_field.hpp"

namespace eis {

// NonLinearMappingData's geometricStiffness.
enum class MappingStiffness { None, Exact, Stabilized };

class DistanceGeometricStiffness : public ForceField {
public:
  struct Edge {
    std::array<std::int64_t, 2> ends;  // node ids a, b
    MappingStiffness stiffness;
  };
  // Collective. `edges`: one per constraint row, in row order; `childForces`: c, one per row,
  // which the constraint sets (model/distance_lagrangian_constraint.hpp). An edge (not None)
  // whose ends share no cell of the mesh throws eis::Error on every rank.
  DistanceGeometricStiffness(const DistributedMesh& mesh, const std::vector<Edge>& edges,
                             std::shared_ptr<const std::vector<double>> childForces);

  // No force: sets u, L and each edge's factor c / L (0 where the block is dropped) at x.
  void addForce(const double* x, const double* v, double* f) override;
  void addDForce(const double* dx, double* df, double kFactor) const override;
  void addKToElementMatrices(double* elementMatrices, double kFactor,
                             CellRange range) const override;
  double potentialEnergy(const double*) const override { return 0; }
  std::vector<double> vonMisesStress(const double*) const override { return {}; }
  bool isLinear() const override { return false; }

private:
  // An edge this rank's cell holds: its row, the local cell, the slots of a and b in it, and
  // their local vertices.
  struct Held {
    std::size_t row;
    std::size_t cell;
    int slotA, slotB;
    PetscInt a, b;
    MappingStiffness stiffness;
  };
  struct State {
    std::array<double, 3> u;
    double factor;  // c / L, or 0
  };
  std::vector<Held> held_;  // by cell
  std::vector<State> states_;
  std::shared_ptr<const std::vector<double>> childForces_;
  std::size_t rows_;  // of an element matrix: corners x 3
};

}  // namespace eis
