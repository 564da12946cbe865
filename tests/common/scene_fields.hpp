#pragma once
// A scene as typed fields, for tests that build many variants of one scene in C++. toScene()
// writes every field as the text a config file would hold, so the run reads it through the
// components' own declarations and checks, as it reads a user's scene. No resolve step runs:
// the scene is exactly what the fields say (an empty fixedBoxes fixes no node).
#include <array>
#include <string>
#include <utility>
#include <vector>

#include "eis/core/box.hpp"
#include "eis/core/scene.hpp"
#include "eis/linalg/linear_solver.hpp"
#include "eis/model/elastic_force_fields.hpp"
#include "eis/model/mass.hpp"
#include "eis/model/physics.hpp"
#include "eis/ode/euler_implicit_solver.hpp"
#include "eis/ode/newton_solver.hpp"
#include "eis/ode/time_integrator.hpp"

namespace eis_test {

struct SceneFields {
  std::string meshFile;
  std::array<double, 3> boxSize{10, 1, 1};
  std::array<int, 3> boxCells{20, 4, 4};
  eis::CellType cellType = eis::CellType::Tetrahedron;
  int refine = 0;
  eis::Physics physics = eis::Physics::Elasticity;
  eis::MaterialModel material = eis::MaterialModel::Linear;
  eis::RotationMethod rotation = eis::RotationMethod::Large;
  double youngModulus = 1e5, poissonRatio = 0.3, density = 1;
  double conductivity = 1, capacity = 1;
  eis::MassType mass = eis::MassType::Lumped;
  std::array<double, 3> gravity{0, -9.81, 0};
  struct ForceBox {
    eis::Box box;
    std::array<double, 3> force{};
  };
  std::vector<ForceBox> forceBoxes;
  double dampingCoefficient = 0;
  double springStiffness = 0, springDamping = 0;
  std::vector<eis::Box> fixedBoxes;
  std::vector<std::string> fixedGroups;
  double dt = 0.01;
  int steps = 100;
  double rayleighMass = 0, rayleighStiffness = 0, vdamping = 0;
  bool firstOrder = false, computeResidual = false;
  eis::TimeScheme scheme = eis::TimeScheme::Euler;
  eis::NewtonMode newton = eis::NewtonMode::Linearized;
  eis::NewtonGuess newtonGuess = eis::NewtonGuess::Previous;
  eis::OperatorMode op = eis::OperatorMode::Assembled;
  eis::Preconditioner preconditioner = eis::Preconditioner::Automatic;
  int pcLag = 1;
  double pcRebuildGrowth = 1.5;
  eis::InitialGuess initialGuess = eis::InitialGuess::Automatic;
  std::string initialState;
  std::string finalState, history, vtk;
  int outputEvery = 1;
  // Keys without a typed field (key, value), set after the others in this order.
  std::vector<std::pair<std::string, std::string>> extra;

  eis::Scene toScene() const;
};

}  // namespace eis_test
