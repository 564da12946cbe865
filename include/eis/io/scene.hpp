#pragma once
// The resolved scene: every option of DESIGN.md's key table, read from an INI config file and
// the command line (the command line wins), validated, with defaults filled in.
#include <array>
#include <optional>
#include <string>
#include <vector>

namespace eis {

struct Box {
  std::array<double, 3> min{}, max{};
  bool contains(const std::array<double, 3>& p) const {  // inclusive, as SOFA's BoxROI
    for (int d = 0; d < 3; ++d)
      if (p[d] < min[d] || p[d] > max[d]) return false;
    return true;
  }
};

enum class Physics { Elasticity, Diffusion };
enum class MassType { Lumped, Consistent };
enum class NewtonMode { Linearized, Full };
enum class NewtonGuess { Zero, Previous, Extrapolated };
// euler: SOFA's implicit Euler; sofa-trapezoidal: SOFA's trapezoidalScheme (tr = 0.5, still
// x += h v_{n+1}); trapezoidal: the true trapezoidal rule, x += h/2 (v_n + v_{n+1}).
enum class TimeScheme { Euler, SofaTrapezoidal, Trapezoidal };
enum class MaterialModel { Linear, Corotational, StVenantKirchhoff, NeoHookean };
// How the corotational model finds an element's rotation (SOFA TetrahedronFEMForceField method).
enum class RotationMethod { Large, Polar };
enum class OperatorMode { Assembled, MatrixFree };
// The default preconditioner of the linear solves; -pc_type overrides it. Automatic: GAMG for an
// assembled operator, Jacobi for a matrix-free one. Hypre: BoomerAMG with our 3D settings;
// HypreElasticity: those plus nodal coarsening and the rigid rotations as interpolation vectors.
enum class Preconditioner { Automatic, Gamg, Hypre, HypreElasticity, Jacobi };
// Where each linearized step's KSP starts: from zero, or from the previous step's solution.
enum class InitialGuess { Automatic, Zero, Previous, Projected };

struct Scene {
  // [mesh]
  std::string meshFile;  // empty: the built-in box
  std::array<double, 3> boxSize{10, 1, 1};
  std::array<int, 3> boxCells{20, 4, 4};
  int refine = 0;
  // [physics]
  Physics physics = Physics::Elasticity;
  // [material]
  MaterialModel material = MaterialModel::Linear;
  RotationMethod rotation = RotationMethod::Large;
  double youngModulus = 1e5, poissonRatio = 0.3, density = 1;
  double conductivity = 1, capacity = 1;
  // [mass]
  MassType mass = MassType::Lumped;
  // [load]
  std::array<double, 3> gravity{0, -9.81, 0};
  // A constant total force shared equally by the nodes of a box (SOFA ConstantForceField with
  // totalForce).
  struct ForceBox {
    Box box;
    std::array<double, 3> force{};
  };
  std::vector<ForceBox> forceBoxes;
  // [damping]: uniform viscous damping f = -c M v, so B = -c M.
  double dampingCoefficient = 0;
  // [springs]: SOFA MeshSpringForceField, one spring per mesh edge (0: none).
  double springStiffness = 0, springDamping = 0;
  // [constraint]; fixedBoxes holds the default box (x = 0 face) when the built-in box is used and
  // no fixed-box and no fixed-group is given.
  std::vector<Box> fixedBoxes;
  std::vector<std::string> fixedGroups;  // names or numeric tags
  // [solver]
  double dt = 0.01;
  int steps = 100;
  double rayleighMass = 0, rayleighStiffness = 0, vdamping = 0;
  bool firstOrder = false, computeResidual = false;
  bool trapezoidal = false;               // SOFA's trapezoidalScheme flag, as given
  TimeScheme scheme = TimeScheme::Euler;  // solver.scheme, reconciled with the flag above
  NewtonMode newton = NewtonMode::Linearized;
  NewtonGuess newtonGuess = NewtonGuess::Previous;
  OperatorMode op = OperatorMode::Assembled;
  Preconditioner preconditioner = Preconditioner::Automatic;
  // The preconditioner is set up again at most every pcLag matrix updates, and earlier when a
  // solve needs more than pcRebuildGrowth times the iterations of the first after a set-up.
  int pcLag = 1;
  double pcRebuildGrowth = 1.5;
  InitialGuess initialGuess = InitialGuess::Automatic;
  // [initial]
  std::string initialState;
  // [output]
  std::string finalState, history, vtk;
  int outputEvery = 1;
};

// What the command line asked for besides a scene.
struct CommandLine {
  bool help = false, version = false;
  Scene scene;
  // Arguments that start with a single dash (PETSc options), in order, for PetscInitialize.
  std::vector<std::string> petscArgs;
};

// Parses main()'s argv (argv[0], the program, is skipped) and the --config file it names. Throws eis::Error naming the key,
// file or value for an unknown key, a malformed number or a value out of range. Pure: no MPI.
CommandLine parseCommandLine(int argc, const char* const argv[]);

// Text of --help: every key, its meaning and default.
std::string helpText();

// The resolved scene as INI text, printed once at start-up so that a log says what ran.
std::string describe(const Scene& scene);

}  // namespace eis
