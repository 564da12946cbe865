#pragma once
// Loads on triangles of the mesh's surface, each triangle held by the rank of the one
// tetrahedron it is a face of (so its force is counted once whatever the partition):
//
// - A follower pressure p (SOFA's SurfacePressureForceField): at the current positions a, b, c
//   of a triangle (in the file's vertex order), each of its vertices gets p/6 (b - a) x (c - a):
//   p times a third of its area along the normal its vertex order gives (right-hand rule; p > 0
//   pushes along that normal, so on an outward-oriented closed surface it inflates). Its exact
//   tangent (SOFA's useTangentStiffness, on by default) goes into the element block of the
//   triangle's tetrahedron: df_i/dx_a = p/6 [c - b]x, df_i/dx_b = p/6 [a - c]x,
//   df_i/dx_c = p/6 [b - a]x for each vertex i. It is not symmetric for an open surface (it is
//   once a closed surface's blocks are summed), so symmetricK() is false. A box (optional) keeps
//   the triangles whose three current vertices lie in it, tested at every force evaluation, as
//   SOFA does. With a pulse (SOFA's pulseMode), the pressure of each step is its
//   PulsePressure's for the step that starts at the time setTime gives (model/pulse_pressure).
// - A traction t (SOFA's TrianglePressureForceField with useConstantForce): each vertex of a
//   triangle gets t times a third of its rest area; a constant load (K = 0).
#include <array>
#include <optional>
#include <vector>

#include "eis/core/box.hpp"
#include "eis/core/cells.hpp"
#include "eis/core/tetra_geometry.hpp"
#include "eis/model/force_field_component.hpp"
#include "eis/model/pulse_pressure.hpp"
#include "eis/model/surface_selection.hpp"

namespace eis {

class SurfacePressure : public ForceField {
public:
  // A triangle as a local cell and the cell's slots of its vertices, in the file's order.
  struct Triangle {
    PetscInt cell;
    std::array<int, 3> slots;
  };
  struct Pressure {
    double pressure;
    std::vector<Triangle> triangles;
    std::optional<Box> box;
    std::optional<PulsePressure> pulse;  // then `pressure` is its bound
  };
  struct Traction {
    std::array<double, 3> traction;
    std::vector<Triangle> triangles;
  };
  // cells: four local vertices each; rest: rest positions of the local vertices.
  SurfacePressure(const Cells& cells, const std::vector<Vec3>& rest,
                  const std::vector<Pressure>& pressures, const std::vector<Traction>& tractions);

  void addForce(const double* x, const double* v, double* f) override;
  // The pulses' pressures of the step starting at t (step floor(t / dt) + 1).
  void setTime(double t, double dt) override;
  void addDForce(const double* dx, double* df, double kFactor) const override;
  void addKToElementMatrices(double* elementMatrices, double kFactor,
                             CellRange range) const override;
  // No potential: a follower pressure on an open surface is not conservative (SOFA gives none).
  double potentialEnergy(const double*) const override { return 0; }
  std::vector<double> vonMisesStress(const double*) const override { return {}; }
  // Judged by the loads, not by this rank's triangles, so that every rank agrees.
  bool isLinear() const override { return !pressureLoads_; }
  bool symmetricK() const override { return !pressureLoads_; }

private:
  struct Follower {
    PetscInt cell;
    std::array<int, 3> slots;
    std::array<PetscInt, 3> vertices;
    double pressure;
    int box;    // into boxes_, or -1
    int pulse;  // into pulses_, or -1
  };
  // At the last addForce: each follower's vertex positions, and whether its box held it.
  struct State {
    std::array<Vec3, 3> x;
    bool active;
  };
  bool pressureLoads_;  // some follower pressure is given, on whatever ranks its triangles are
  std::vector<Box> boxes_;
  std::vector<PulsePressure> pulses_;
  std::vector<Follower> followers_;  // sorted by cell
  std::vector<State> state_;
  std::vector<std::pair<PetscInt, Vec3>> constantForces_;  // local vertex, force
};

// One load.pressure (numbers: P), load.pressure-pulse (P SPEED LOWER) or load.surface-traction
// (numbers: TX TY TZ) value, with its text (a warning quotes it).
struct SurfaceLoad {
  bool traction;
  bool pulse;
  SurfaceValue value;
  std::string text;
};
// The surface-pressure component's parameters, read once from a scene by
// readSurfacePressureParameters: every value of load.pressure, then of load.surface-traction.
struct SurfacePressureParameters {
  std::vector<SurfaceLoad> loads;
};
SurfacePressureParameters readSurfacePressureParameters(const Parameters& scene);
// Collective. nullptr when no load is given; a surface that selects no triangle adds a warning.
std::unique_ptr<ForceField> makeSurfacePressure(const ModelContext& context,
                                                const SurfacePressureParameters& parameters);

// load.pressure, load.pressure-pulse and load.surface-traction.
ForceFieldComponent surfacePressureComponent();

}  // namespace eis
