#pragma once
// SOFA's EdgePressureForceField (Component/MechanicalLoad) on chosen edges (pairs of input
// node ids, oriented as SOFA's topology holds them). Each edge carries a force F; each of its
// two ends gets F / 2. K = 0: SOFA's addDForce adds nothing, also for the follower force.
//   constant P: F = P L.
//   follower I B: F = I L (b x t) / |b x t|, b = B / |B| and t the unit vector from the edge's
//     first end to its second. SOFA computes the direction at the end of each addForce, from the
//     positions it was given, and applies it at the next one: the force of step n >= 1 follows
//     the positions at the start of step n - 1 (step 0 uses its own). Here the first addForce
//     after each setTime is the step's SOFA addForce.
// L is given with each edge: SOFA scales by the rest length of the edge, and with p_intensity
// by the rest length of the topology's i-th edge, i the place of the edge in the selection
// (EdgePressureForceField::initEdgeInformation): the SOFA mapping passes that length.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "eis/model/force_field_component.hpp"

namespace eis {

class EdgePressure : public LoadField {
public:
  struct Edge {
    std::int64_t a, b;  // input node ids, from a to b
    double length;
  };
  struct Load {
    bool follower = false;
    std::array<double, 3> vector{};  // P, or the binormal B for a follower load
    double intensity = 0;            // I
    std::vector<Edge> edges;
    std::string text;
  };
  // Collective. Throws eis::Error on every rank when an edge names a node the mesh lacks.
  EdgePressure(const DistributedMesh& mesh, std::vector<Load> loads);

  void setTime(double, double) override { newStep_ = true; }
  // Collective.
  void addForce(const double* x, const double* v, double* f) override;

  // The force F of one edge whose ends are at xa and xb.
  static std::array<double, 3> edgeForce(const Load& load, const Edge& edge,
                                         const std::array<double, 3>& xa,
                                         const std::array<double, 3>& xb);

private:
  std::vector<std::array<double, 3>> forces(const double* x) const;

  MPI_Comm comm_;
  std::vector<Load> loads_;
  std::vector<std::int64_t> nodes_;    // the ids the edges name, sorted
  std::vector<PetscInt> ownedVertex_;  // each node's local vertex where this rank owns it, else -1
  std::vector<std::array<double, 3>> applied_, pending_;  // per edge, loads one after another
  bool newStep_ = true;
};

struct EdgePressureParameters {
  std::vector<EdgePressure::Load> loads;
};
EdgePressureParameters readEdgePressureParameters(const Parameters& scene);
// Collective. nullptr when no load is given.
std::unique_ptr<ForceField> makeEdgePressure(const ModelContext& context,
                                             const EdgePressureParameters& parameters);

// load.edge-pressure.
ForceFieldComponent edgePressureComponent();

}  // namespace eis
