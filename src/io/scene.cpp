// The scene options: one table (kKeys) names every key of DESIGN.md, says what it means, parses
// and validates its value into the Scene, and prints it back. --help, describe() and the parser
// all read that table, so they cannot disagree about which keys exist.
//
// Boost.Program_options describes the keys, parses the INI file and gives the command line
// precedence (a variables_map keeps the first source stored for each key). routeArguments() splits
// argv: PETSc's single-dash options with their values go aside, ours become Boost options.
#include "eis/io/scene.hpp"

#include "eis/core/error.hpp"

#include <boost/program_options.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>
#include <type_traits>

namespace eis {
namespace {

namespace po = boost::program_options;

using Values = std::vector<std::string>;

// ---------------------------------------------------------------------------------------------
// Parsing one value. Every error starts with "key = value: ".

// One value on its way into the Scene; the key names it in error messages.
struct Setting {
  const char* key;
  const std::string& text;
};

[[noreturn]] void reject(const Setting& s, const std::string& why) {
  throw Error(std::string(s.key) + " = " + (s.text.empty() ? "\"\"" : s.text) + ": " + why);
}

// The whitespace- or comma-separated tokens of a value.
Values tokens(std::string text) {
  std::replace(text.begin(), text.end(), ',', ' ');
  std::istringstream in(text);
  Values result;
  for (std::string token; in >> token;) result.push_back(token);
  return result;
}

// Strict conversion: the whole token must be the number ("1e5x" fails), and doubles must be
// finite (std::from_chars accepts "nan" and "inf").
template <class T>
bool convert(const std::string& token, T& value) {
  const char* end = token.data() + token.size();
  const auto [ptr, ec] = std::from_chars(token.data(), end, value);
  if (ec != std::errc() || ptr != end) return false;
  if constexpr (std::is_floating_point_v<T>) return std::isfinite(value);
  return true;
}

// Exactly `count` numbers of type T.
template <class T>
std::vector<T> list(const Setting& s, std::size_t count) {
  constexpr bool real = std::is_floating_point_v<T>;
  const Values words = tokens(s.text);
  if (words.size() != count)
    reject(s, "expected " + std::to_string(count) + (real ? " number" : " integer") +
                  (count == 1 ? "" : "s") + ", got " + std::to_string(words.size()));
  std::vector<T> result(count);
  for (std::size_t i = 0; i < count; ++i)
    if (!convert(words[i], result[i]))
      reject(s, "'" + words[i] + (real ? "' is not a finite number" : "' is not an integer"));
  return result;
}

double number(const Setting& s) { return list<double>(s, 1)[0]; }

double positive(const Setting& s) {
  const double value = number(s);
  if (!(value > 0)) reject(s, "must be > 0");
  return value;
}

double aboveOne(const Setting& s) {
  const double value = number(s);
  if (!(value > 1)) reject(s, "must be > 1");
  return value;
}

double nonNegative(const Setting& s) {
  const double value = number(s);
  if (value < 0) reject(s, "must be >= 0");
  return value;
}

int integerAtLeast(const Setting& s, int least) {
  const int value = list<int>(s, 1)[0];
  if (value < least) reject(s, "must be >= " + std::to_string(least));
  return value;
}

std::array<double, 3> vector3(const Setting& s) {
  const std::vector<double> v = list<double>(s, 3);
  return {v[0], v[1], v[2]};
}

std::array<double, 3> positive3(const Setting& s) {
  const std::array<double, 3> v = vector3(s);
  if (std::any_of(v.begin(), v.end(), [](double x) { return !(x > 0); }))
    reject(s, "each must be > 0");
  return v;
}

std::array<int, 3> cells3(const Setting& s) {
  const std::vector<int> v = list<int>(s, 3);
  if (std::any_of(v.begin(), v.end(), [](int n) { return n < 1; })) reject(s, "each must be >= 1");
  return {v[0], v[1], v[2]};
}

bool boolean(const Setting& s) {
  std::string word = s.text;
  std::transform(word.begin(), word.end(), word.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (const char* yes : {"true", "1", "yes", "on"})
    if (word == yes) return true;
  for (const char* no : {"false", "0", "no", "off"})
    if (word == no) return false;
  reject(s, "expected true | false | 1 | 0 | yes | no | on | off");
}

// An INI-style box "xmin ymin zmin xmax ymax zmax"; min > max in a component is swapped, as
// SOFA's BoxROI does.
Box box(const Setting& s) {
  const std::vector<double> v = list<double>(s, 6);
  Box result;
  for (int d = 0; d < 3; ++d) {
    result.min[d] = std::min(v[d], v[d + 3]);
    result.max[d] = std::max(v[d], v[d + 3]);
  }
  return result;
}

// "xmin ymin zmin xmax ymax zmax fx fy fz": a box as above and the total force on its nodes.
Scene::ForceBox forceBox(const Setting& s) {
  const std::vector<double> v = list<double>(s, 9);
  Scene::ForceBox result;
  for (int d = 0; d < 3; ++d) {
    result.box.min[d] = std::min(v[d], v[d + 3]);
    result.box.max[d] = std::max(v[d], v[d + 3]);
    result.force[d] = v[d + 6];
  }
  return result;
}

std::string nonEmpty(const Setting& s) {
  if (s.text.empty()) reject(s, "must not be empty");
  return s.text;
}

// ---------------------------------------------------------------------------------------------
// Enumerations: one name table per type serves parsing and printing.

template <class T>
struct Named {
  const char* name;
  T value;
};

constexpr Named<Physics> kPhysics[] = {{"elasticity", Physics::Elasticity},
                                       {"diffusion", Physics::Diffusion}};
constexpr Named<MassType> kMass[] = {{"lumped", MassType::Lumped},
                                     {"consistent", MassType::Consistent}};
constexpr Named<NewtonMode> kNewton[] = {{"linearized", NewtonMode::Linearized},
                                         {"full", NewtonMode::Full}};
constexpr Named<OperatorMode> kOperator[] = {{"assembled", OperatorMode::Assembled},
                                             {"matrix-free", OperatorMode::MatrixFree}};
constexpr Named<MaterialModel> kModels[] = {{"linear", MaterialModel::Linear},
                                            {"corotational", MaterialModel::Corotational},
                                            {"stvk", MaterialModel::StVenantKirchhoff},
                                            {"neohookean", MaterialModel::NeoHookean}};
constexpr Named<RotationMethod> kRotations[] = {{"large", RotationMethod::Large},
                                               {"polar", RotationMethod::Polar}};
constexpr Named<TimeScheme> kSchemes[] = {{"euler", TimeScheme::Euler},
                                          {"sofa-trapezoidal", TimeScheme::SofaTrapezoidal},
                                          {"trapezoidal", TimeScheme::Trapezoidal}};
constexpr Named<Preconditioner> kPreconditioners[] = {
    {"auto", Preconditioner::Automatic},
    {"gamg", Preconditioner::Gamg},
    {"hypre", Preconditioner::Hypre},
    {"hypre-elasticity", Preconditioner::HypreElasticity},
    {"jacobi", Preconditioner::Jacobi}};
constexpr Named<InitialGuess> kInitialGuesses[] = {{"auto", InitialGuess::Automatic},
                                                   {"zero", InitialGuess::Zero},
                                                   {"previous", InitialGuess::Previous},
                                                   {"projected", InitialGuess::Projected}};
constexpr Named<NewtonGuess> kGuesses[] = {{"zero", NewtonGuess::Zero},
                                           {"previous", NewtonGuess::Previous},
                                           {"extrapolated", NewtonGuess::Extrapolated}};

template <class T, std::size_t N>
T choose(const Setting& s, const Named<T> (&names)[N]) {
  std::string expected = "expected ";
  for (const Named<T>& n : names) {
    if (s.text == n.name) return n.value;
    expected += std::string(&n == names ? "" : " | ") + n.name;
  }
  reject(s, expected);
}

template <class T, std::size_t N>
std::string nameOf(T value, const Named<T> (&names)[N]) {
  for (const Named<T>& n : names)
    if (n.value == value) return n.name;
  throw Error("unnamed enumeration value");
}

// ---------------------------------------------------------------------------------------------
// Printing values back, as the parser reads them.

// Shortest text that reads back as the same double.
std::string text(double x) {
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, x);
  return std::string(buffer, result.ptr);
}

std::string text(int n) { return std::to_string(n); }
std::string text(bool b) { return b ? "true" : "false"; }

template <class T, std::size_t N>
std::string text(const std::array<T, N>& values) {
  std::string result;
  for (const T& v : values) result += (result.empty() ? "" : " ") + text(v);
  return result;
}

std::string text(const Box& b) { return text(b.min) + " " + text(b.max); }
std::string text(const Scene::ForceBox& f) { return text(f.box) + " " + text(f.force); }

// An optional path: no value at all when empty.
Values path(const std::string& p) { return p.empty() ? Values{} : Values{p}; }

// ---------------------------------------------------------------------------------------------
// The key table.

struct Key {
  const char* name;     // "section.key"
  const char* arg;      // what --help shows after '='
  const char* meaning;  // --help text, lines separated by '\n'
  void (*set)(Scene&, const Setting&);  // called once per occurrence
  Values (*get)(const Scene&);          // the value(s) as INI text; none: absent
  bool repeatable = false;
  const char* defaultText = nullptr;  // --help's default where a default Scene cannot show it
};

const Key kKeys[] = {
    {"mesh.file", "PATH",
     "Gmsh mesh of tetrahedra (.msh 2.2 or 4.1, ASCII or binary); node ids are 0-based positions\n"
     "in its $Nodes section. Absent: the built-in box.",
     [](Scene& sc, const Setting& s) { sc.meshFile = s.text; },
     [](const Scene& sc) { return path(sc.meshFile); }},
    {"mesh.box-size", "\"LX LY LZ\"", "size of the built-in box, origin at 0; each > 0",
     [](Scene& sc, const Setting& s) { sc.boxSize = positive3(s); },
     [](const Scene& sc) { return Values{text(sc.boxSize)}; }},
    {"mesh.box-cells", "\"NX NY NZ\"",
     "cells per axis of the built-in box, each >= 1; each hexahedron is split into 6 tetrahedra",
     [](Scene& sc, const Setting& s) { sc.boxCells = cells3(s); },
     [](const Scene& sc) { return Values{text(sc.boxCells)}; }},
    {"mesh.refine", "N", "uniform refinements of the mesh after distribution, >= 0",
     [](Scene& sc, const Setting& s) { sc.refine = integerAtLeast(s, 0); },
     [](const Scene& sc) { return Values{text(sc.refine)}; }},

    {"physics.type", "elasticity|diffusion",
     "elasticity: 3 displacement components per node; diffusion: one scalar field u per node,\n"
     "c du/dt = div(k grad u) (needs solver.first-order = true)",
     [](Scene& sc, const Setting& s) { sc.physics = choose(s, kPhysics); },
     [](const Scene& sc) { return Values{nameOf(sc.physics, kPhysics)}; }},

    {"material.model", "linear|corotational|stvk|neohookean",
     "linear: small-strain linear elasticity (SOFA TetrahedronFEMForceField method=\"small\");\n"
     "corotational: SOFA's method=\"large\" or \"polar\" (material.rotation), the linear element\n"
     "stiffness rotated with each element, with SOFA's tangent R K0 R^T (no derivative of R);\n"
     "stvk: St Venant-Kirchhoff, psi = lambda/2 (tr E)^2 + mu tr(E^2); neohookean:\n"
     "psi = mu/2 (tr C - 3) - mu ln J + lambda/2 (ln J)^2 (an inverted element is an error); both\n"
     "with their exact tangent. Nonlinear models are re-assembled every step.",
     [](Scene& sc, const Setting& s) { sc.material = choose(s, kModels); },
     [](const Scene& sc) { return Values{nameOf(sc.material, kModels)}; }},
    {"material.rotation", "large|polar",
     "corotational frame, as SOFA's TetrahedronFEMForceField method: large builds it from the\n"
     "element's vertices 0, 1, 2 in the mesh file's order; polar is the rotation of the polar\n"
     "decomposition of the matrix of edges 0->1, 0->2, 0->3 (so it too depends on the order)",
     [](Scene& sc, const Setting& s) { sc.rotation = choose(s, kRotations); },
     [](const Scene& sc) { return Values{nameOf(sc.rotation, kRotations)}; }},
    {"material.young-modulus", "E", "Young's modulus, > 0",
     [](Scene& sc, const Setting& s) { sc.youngModulus = positive(s); },
     [](const Scene& sc) { return Values{text(sc.youngModulus)}; }},
    {"material.poisson-ratio", "NU", "Poisson's ratio, in (-1, 0.5)",
     [](Scene& sc, const Setting& s) {
       sc.poissonRatio = number(s);
       if (!(sc.poissonRatio > -1 && sc.poissonRatio < 0.5)) reject(s, "must be in (-1, 0.5)");
     },
     [](const Scene& sc) { return Values{text(sc.poissonRatio)}; }},
    {"material.density", "RHO", "mass per volume, > 0",
     [](Scene& sc, const Setting& s) { sc.density = positive(s); },
     [](const Scene& sc) { return Values{text(sc.density)}; }},
    {"material.conductivity", "K", "diffusion: conductivity k, > 0",
     [](Scene& sc, const Setting& s) { sc.conductivity = positive(s); },
     [](const Scene& sc) { return Values{text(sc.conductivity)}; }},
    {"material.capacity", "C", "diffusion: capacity c, the coefficient of du/dt, > 0",
     [](Scene& sc, const Setting& s) { sc.capacity = positive(s); },
     [](const Scene& sc) { return Values{text(sc.capacity)}; }},

    {"mass.type", "lumped|consistent",
     "lumped: SOFA DiagonalMass, density*volume/4 on each node of a tetrahedron;\n"
     "consistent: SOFA MeshMatrixMass, the full P1 mass matrix",
     [](Scene& sc, const Setting& s) { sc.mass = choose(s, kMass); },
     [](const Scene& sc) { return Values{nameOf(sc.mass, kMass)}; }},

    {"load.gravity", "\"GX GY GZ\"", "gravity g, applied as the force f = M g (M: the mass above)",
     [](Scene& sc, const Setting& s) { sc.gravity = vector3(s); },
     [](const Scene& sc) { return Values{text(sc.gravity)}; }},
    {"load.force-box", "\"XMIN YMIN ZMIN XMAX YMAX ZMAX FX FY FZ\"",
     "a constant total force (FX FY FZ) shared equally by the nodes inside the box, boundary\n"
     "included (SOFA ConstantForceField with totalForce on a BoxROI). Repeatable; a box that\n"
     "selects no node is a warning.",
     [](Scene& sc, const Setting& s) { sc.forceBoxes.push_back(forceBox(s)); },
     [](const Scene& sc) {
       Values values;
       for (const auto& f : sc.forceBoxes) values.push_back(text(f));
       return values;
     },
     true},

    {"springs.stiffness", "KS",
     "SOFA MeshSpringForceField: a spring along every mesh edge, rest length L0 the edge's\n"
     "rest length, force ks (l - L0) + kd (v_b - v_a).u along the edge with, as SOFA,\n"
     "ks = KS / L0 and kd = KD / L0; >= 0 (0: no springs)",
     [](Scene& sc, const Setting& s) { sc.springStiffness = nonNegative(s); },
     [](const Scene& sc) { return Values{text(sc.springStiffness)}; }},
    {"springs.damping", "KD",
     "damping of the edge springs (kd = KD / L0), >= 0. Its B = df/dv enters the step matrix;\n"
     "SOFA treats spring damping explicitly (no B), so steps with KD > 0 differ from SOFA's.",
     [](Scene& sc, const Setting& s) { sc.springDamping = nonNegative(s); },
     [](const Scene& sc) { return Values{text(sc.springDamping)}; }},

    {"damping.coefficient", "C",
     "uniform viscous damping, the force f = -C M v (M: the mass above), so B = df/dv = -C M\n"
     "enters the step matrix; >= 0",
     [](Scene& sc, const Setting& s) { sc.dampingCoefficient = nonNegative(s); },
     [](const Scene& sc) { return Values{text(sc.dampingCoefficient)}; }},

    {"constraint.fixed-box", "\"XMIN YMIN ZMIN XMAX YMAX ZMAX\"",
     "nodes inside the box, boundary included, are fixed (SOFA BoxROI +\n"
     "FixedProjectiveConstraint); a min > max in a component is swapped, as BoxROI does.\n"
     "Repeatable.",
     [](Scene& sc, const Setting& s) { sc.fixedBoxes.push_back(box(s)); },
     [](const Scene& sc) {
       Values values;
       for (const Box& b : sc.fixedBoxes) values.push_back(text(b));
       return values;
     },
     true,
     "0 0 0 0 LY LZ (the x = 0 face) for the built-in box when neither\n"
     "fixed-box nor fixed-group is given; none otherwise"},
    {"constraint.fixed-group", "NAME|TAG",
     "Gmsh physical group (name or numeric tag) whose nodes are fixed. Repeatable.",
     [](Scene& sc, const Setting& s) { sc.fixedGroups.push_back(nonEmpty(s)); },
     [](const Scene& sc) { return sc.fixedGroups; }, true},

    {"solver.dt", "H", "time step h, > 0",
     [](Scene& sc, const Setting& s) { sc.dt = positive(s); },
     [](const Scene& sc) { return Values{text(sc.dt)}; }},
    {"solver.steps", "N", "number of time steps, >= 0",
     [](Scene& sc, const Setting& s) { sc.steps = integerAtLeast(s, 0); },
     [](const Scene& sc) { return Values{text(sc.steps)}; }},
    {"solver.rayleigh-mass", "RM", "Rayleigh damping coefficient on M (SOFA rayleighMass), >= 0",
     [](Scene& sc, const Setting& s) { sc.rayleighMass = nonNegative(s); },
     [](const Scene& sc) { return Values{text(sc.rayleighMass)}; }},
    {"solver.rayleigh-stiffness", "RS",
     "Rayleigh damping coefficient on K (SOFA rayleighStiffness), >= 0",
     [](Scene& sc, const Setting& s) { sc.rayleighStiffness = nonNegative(s); },
     [](const Scene& sc) { return Values{text(sc.rayleighStiffness)}; }},
    {"solver.vdamping", "D", "velocity decay after each step, v *= exp(-h D) (SOFA vdamping), >= 0",
     [](Scene& sc, const Setting& s) { sc.vdamping = nonNegative(s); },
     [](const Scene& sc) { return Values{text(sc.vdamping)}; }},
    {"solver.first-order", "BOOL",
     "SOFA firstOrder: the system is M dx/dt = f(x); solve (M - h K) v = f(x_n) (h/2 K with\n"
     "solver.trapezoidal), then x_{n+1} = x_n + h v. Required by physics.type = diffusion.",
     [](Scene& sc, const Setting& s) { sc.firstOrder = boolean(s); },
     [](const Scene& sc) { return Values{text(sc.firstOrder)}; }},
    {"solver.trapezoidal", "BOOL",
     "SOFA trapezoidalScheme: tr = 0.5 in the matrix and right-hand-side factors, but the\n"
     "position update x_{n+1} = x_n + h v_{n+1} keeps the scheme FIRST order in time, and it\n"
     "is only conditionally stable: a mode of angular frequency w grows unless h w < 2.\n"
     "Same as solver.scheme = sofa-trapezoidal; solver.scheme = trapezoidal is the stable,\n"
     "second-order rule.",
     [](Scene& sc, const Setting& s) { sc.trapezoidal = boolean(s); },
     [](const Scene& sc) { return Values{text(sc.trapezoidal)}; }},
    {"solver.scheme", "euler|sofa-trapezoidal|trapezoidal",
     "euler: SOFA's implicit Euler (tr = 1). sofa-trapezoidal: what solver.trapezoidal = true\n"
     "selects (see there). trapezoidal: the true trapezoidal rule (average acceleration):\n"
     "M (v_{n+1} - v_n) = h/2 (f_n + f_{n+1}), x_{n+1} = x_n + h/2 (v_n + v_{n+1}); linearized\n"
     "like SOFA's step, or solved by Newton (solver.newton = full); unconditionally stable,\n"
     "second order in time, and it conserves the energy of undamped linear elasticity. With\n"
     "solver.first-order both trapezoidal schemes are Crank-Nicolson.",
     [](Scene& sc, const Setting& s) { sc.scheme = choose(s, kSchemes); },
     [](const Scene& sc) { return Values{nameOf(sc.scheme, kSchemes)}; }},
    {"solver.compute-residual", "BOOL",
     "after each step print the 2-norm ||r|| of r = P(M (v_{n+1} - v_n) - h f(x_{n+1}, v_{n+1})),\n"
     "P the projection onto the free degrees of freedom (SOFA stores r.r in its `residual` data;\n"
     "we print the norm)",
     [](Scene& sc, const Setting& s) { sc.computeResidual = boolean(s); },
     [](const Scene& sc) { return Values{text(sc.computeResidual)}; }},
    {"solver.newton", "linearized|full",
     "linearized: one linear solve per step, as SOFA. full: Newton iterations on the same implicit\n"
     "Euler equations with PETSc SNES until converged (unknown v_{n+1}; residual\n"
     "P(M (v - v_n) - h [f(x_n + h v, v) - rm M v + rs K v]); first order: P(M v - f(x_n + h v)));\n"
     "-snes_rtol, -snes_stol, -snes_max_it, -snes_linesearch_type tune it. Takes solver.scheme =\n"
     "euler or trapezoidal, not SOFA's linearized trapezoidal variant.",
     [](Scene& sc, const Setting& s) { sc.newton = choose(s, kNewton); },
     [](const Scene& sc) { return Values{nameOf(sc.newton, kNewton)}; }},
    {"solver.newton-guess", "zero|previous|extrapolated",
     "initial Newton iterate: zero (v = 0, so x = x_n), previous (v = v_n) or extrapolated\n"
     "(v = 2 v_n - v_{n-1}; v_n on the first step)",
     [](Scene& sc, const Setting& s) { sc.newtonGuess = choose(s, kGuesses); },
     [](const Scene& sc) { return Values{nameOf(sc.newtonGuess, kGuesses)}; }},
    {"solver.operator", "assembled|matrix-free",
     "assembled: the step matrix is assembled (PETSc AIJ); matrix-free: SOFA's iterative path,\n"
     "matrix-free products element by element (PETSc MatShell), Jacobi preconditioner by default",
     [](Scene& sc, const Setting& s) { sc.op = choose(s, kOperator); },
     [](const Scene& sc) { return Values{nameOf(sc.op, kOperator)}; }},
    {"solver.preconditioner", "auto|gamg|hypre|hypre-elasticity|jacobi",
     "the linear solves' preconditioner (under CG); a -pc_type option overrides it. auto: gamg\n"
     "for an assembled operator, jacobi for solver.operator = matrix-free. gamg: PETSc's\n"
     "smoothed-aggregation AMG (for elasticity with the six rigid-body modes). hypre:\n"
     "BoomerAMG with settings for 3D (strong threshold 0.5, HMIS coarsening, ext+i\n"
     "interpolation, P_max 4, one level of aggressive coarsening): the cheapest set-up.\n"
     "hypre-elasticity: those plus nodal coarsening and the three rigid rotations as\n"
     "interpolation vectors (GM-1), for elasticity: the fewest iterations, each dearer. A\n"
     "-pc_hypre_boomeramg_* option overrides the setting it names. jacobi: the diagonal. All\n"
     "but jacobi need an assembled operator. README, \"Choosing the preconditioner\", says which\n"
     "to take when.",
     [](Scene& sc, const Setting& s) { sc.preconditioner = choose(s, kPreconditioners); },
     [](const Scene& sc) { return Values{nameOf(sc.preconditioner, kPreconditioners)}; }},
    {"solver.pc-lag", "N",
     "the preconditioner is set up again at most every N updates of the matrix (one update per\n"
     "step; one per Newton iteration with solver.newton = full) and kept in between (PETSc's\n"
     "KSPSetReusePreconditioner); 1: at every update. Only matters where the matrix changes\n"
     "(the nonlinear materials): a linear model's matrix is built once, its preconditioner with\n"
     "it. With solver.newton = full it replaces -snes_lag_preconditioner. The history's\n"
     "pc_rebuilt column counts the set-ups of each step. >= 1",
     [](Scene& sc, const Setting& s) { sc.pcLag = integerAtLeast(s, 1); },
     [](const Scene& sc) { return Values{text(sc.pcLag)}; }},
    {"solver.pc-rebuild-growth", "G",
     "with solver.pc-lag > 1: once a linear solve needs more than G times the iterations of\n"
     "the first solve after the last set-up, the preconditioner is set up again at the next\n"
     "matrix update, before the lag runs out. The default sits above the spread between fresh\n"
     "set-ups (up to 1.2 on the README's beams) and well below what a never-rebuilt GAMG\n"
     "reached on a swinging soft beam (nearly 3). > 1",
     [](Scene& sc, const Setting& s) { sc.pcRebuildGrowth = aboveOne(s); },
     [](const Scene& sc) { return Values{text(sc.pcRebuildGrowth)}; }},
    {"solver.initial-guess", "auto|zero|previous|projected",
     "where the linearized step's linear solve starts. The solve stops at a residual relative\n"
     "to the right-hand side, so a close start saves iterations. zero: from zero. previous: the\n"
     "previous step's solution of the same system (dv; v_{n+1} with solver.first-order), via\n"
     "KSPSetInitialGuessNonzero: 7 to 13% fewer iterations on the README's runs. projected:\n"
     "the new right-hand side's projection on the last 10 ones, mapped to their solutions\n"
     "(PETSc's KSPGuess, Fischer's method 3): exact for a right-hand side in their span while\n"
     "the matrix stays the same, about half the iterations once 10 steps are stored on the\n"
     "README's beams; it starts from zero whenever the matrix changes, so it suits linear\n"
     "models. auto: projected for linear models, previous for the others. For\n"
     "solver.newton = linearized only: Newton's first iterate is solver.newton-guess, and its\n"
     "linear solves start from zero.",
     [](Scene& sc, const Setting& s) { sc.initialGuess = choose(s, kInitialGuesses); },
     [](const Scene& sc) { return Values{nameOf(sc.initialGuess, kInitialGuesses)}; }},

    {"initial.state", "PATH",
     "CSV in the output.final-state format to start from. Absent: at rest, zero velocity.",
     [](Scene& sc, const Setting& s) { sc.initialState = s.text; },
     [](const Scene& sc) { return path(sc.initialState); }},

    {"output.final-state", "PATH",
     "CSV of the last state: a header, then one row per node in the input file's node order\n"
     "(0-based ids), the same for any rank count; columns id,x,y,z,vx,vy,vz (positions, not\n"
     "displacements) for elasticity, id,u,du for diffusion; 17 significant digits. With\n"
     "mesh.refine > 0 the new nodes follow, sorted by rest coordinates (x, then y, then z).",
     [](Scene& sc, const Setting& s) { sc.finalState = s.text; },
     [](const Scene& sc) { return path(sc.finalState); }},
    {"output.history", "PATH",
     "CSV, one row per step, with the columns step,time,wall_seconds,linear_iterations,\n"
     "nonlinear_iterations,residual,kinetic_energy,elastic_energy,pc_rebuilt (pc_rebuilt: how\n"
     "many times the preconditioner was set up in the step, see solver.pc-lag)",
     [](Scene& sc, const Setting& s) { sc.history = s.text; },
     [](const Scene& sc) { return path(sc.history); }},
    {"output.vtk", "PREFIX",
     "ParaView time series: PREFIX.pvd and one PVTU per written step (one piece per rank), with\n"
     "displacement, velocity, rank and von Mises stress",
     [](Scene& sc, const Setting& s) { sc.vtk = s.text; },
     [](const Scene& sc) { return path(sc.vtk); }},
    {"output.every", "N", "write the vtk time series every N steps, >= 1",
     [](Scene& sc, const Setting& s) { sc.outputEvery = integerAtLeast(s, 1); },
     [](const Scene& sc) { return Values{text(sc.outputEvery)}; }},
};

std::string sectionOf(const std::string& name) { return name.substr(0, name.find('.')); }
std::string keyOf(const std::string& name) { return name.substr(name.find('.') + 1); }

// ---------------------------------------------------------------------------------------------
// Reading argv and the config file.

// Every scene key, each occurrence one string; the config file accepts exactly these.
po::options_description sceneOptions() {
  po::options_description options;
  for (const Key& key : kKeys) options.add_options()(key.name, po::value<Values>());
  return options;
}

// The scene keys plus those only the command line has.
po::options_description commandLineOptions(const po::options_description& scene) {
  po::options_description options;
  options.add_options()("config", po::value<std::string>())("help", "")("version", "");
  options.add(scene);
  return options;
}

bool startsWith(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

// "-1", "-1e-3", "-.5": a value, not a PETSc option.
bool isNegativeNumber(const std::string& token) {
  if (token.size() < 2 || token[0] != '-') return false;
  if (!std::isdigit(static_cast<unsigned char>(token[1])) && token[1] != '.') return false;
  double value = 0;
  return convert(token, value);
}

// Our option at argv[i], "--name=value", "--name value" or "--flag", as Boost's parsed option;
// returns the index of the last argument it used. A separate value may start with '-' ("-1 0 0")
// but not with "--". Boost's own command-line parser is not used: it can neither take a value
// that starts with '-' nor an empty one ("--output.vtk=" clears a path the config file set).
int takeOurOption(int i, int argc, const char* const argv[], po::parsed_options& ours) {
  const std::string token = argv[i];
  const std::size_t equals = token.find('=');
  po::option option;
  option.string_key = token.substr(2, equals == std::string::npos ? equals : equals - 2);
  const std::string shown = "--" + option.string_key;
  // Boost matches an empty name with every option (their short names are empty too).
  const po::option_description* description =
      option.string_key.empty() ? nullptr
                                : ours.description->find_nothrow(option.string_key, false);
  if (!description) throw Error("unknown option " + shown);
  if (description->semantic()->max_tokens() == 0) {
    if (equals != std::string::npos) throw Error(shown + ": takes no value");
  } else if (equals != std::string::npos) {
    option.value = {token.substr(equals + 1)};
  } else if (i + 1 < argc && !startsWith(argv[i + 1], "--")) {
    option.value = {argv[++i]};
  } else {
    throw Error(shown + ": missing value");
  }
  ours.options.push_back(option);
  return i;
}

// Splits argv[1..] into our options and PETSc's. A PETSc option keeps the one value that follows
// it (a token that does not start with '-', or a negative number), as PetscInitialize reads it.
void routeArguments(int argc, const char* const argv[], po::parsed_options& ours, Values& petsc) {
  for (int i = 1; i < argc; ++i) {
    const std::string token = argv[i];
    if (startsWith(token, "--")) {
      i = takeOurOption(i, argc, argv, ours);
    } else if (startsWith(token, "-") && !isNegativeNumber(token)) {
      petsc.push_back(token);
      if (i + 1 < argc && (argv[i + 1][0] != '-' || isNegativeNumber(argv[i + 1])))
        petsc.push_back(argv[++i]);
    } else {
      throw Error("unexpected argument '" + token + "' (ours start with --, PETSc's with -)");
    }
  }
}

// Stored after the command line, so the command line wins, key by key.
void storeConfigFile(const std::string& file, const po::options_description& keys,
                     po::variables_map& vm) {
  std::ifstream in(file);
  if (!in || std::filesystem::is_directory(file))
    throw Error("config file " + file + ": cannot be opened");
  try {
    const po::parsed_options parsed = po::parse_config_file(in, keys, true);
    for (const po::option& option : parsed.options)
      if (option.unregistered)
        throw Error("config file " + file + ": unknown key " + option.string_key);
    po::store(parsed, vm);
  } catch (const po::error& e) {
    throw Error("config file " + file + ": " + e.what());
  }
}

// The preconditioner against the operator and the physics.
void checkPreconditioner(const Scene& scene) {
  const std::string named = nameOf(scene.preconditioner, kPreconditioners);
  const bool multigrid = scene.preconditioner != Preconditioner::Automatic &&
                         scene.preconditioner != Preconditioner::Jacobi;
  if (multigrid && scene.op == OperatorMode::MatrixFree)
    throw Error("solver.preconditioner = " + named +
                " needs an assembled matrix; solver.operator = matrix-free has none (take jacobi)");
  if (scene.preconditioner == Preconditioner::HypreElasticity &&
      scene.physics != Physics::Elasticity)
    throw Error("solver.preconditioner = hypre-elasticity applies to elasticity only, not to "
                "physics.type = diffusion (take hypre)");
}

Scene resolveScene(const po::variables_map& vm) {
  Scene scene;
  for (const Key& key : kKeys) {
    if (!vm.count(key.name)) continue;
    const Values& values = vm[key.name].as<Values>();
    if (!key.repeatable && values.size() > 1)
      throw Error(std::string(key.name) + ": given more than once");
    for (const std::string& value : values) key.set(scene, Setting{key.name, value});
  }
  const bool constrained = vm.count("constraint.fixed-box") || vm.count("constraint.fixed-group");
  if (scene.meshFile.empty() && !constrained)
    scene.fixedBoxes = {Box{{0, 0, 0}, {0, scene.boxSize[1], scene.boxSize[2]}}};
  if (scene.physics == Physics::Diffusion && !scene.firstOrder)
    throw Error("physics.type = diffusion requires solver.first-order = true");
  if (scene.physics == Physics::Diffusion && scene.material != MaterialModel::Linear)
    throw Error("material.model = " + nameOf(scene.material, kModels) +
                " is an elastic model; physics.type = diffusion takes none");
  if (scene.physics == Physics::Diffusion) {
    const std::pair<const char*, bool> elasticOnly[] = {
        {"springs.stiffness", scene.springStiffness != 0},
        {"springs.damping", scene.springDamping != 0},
        {"damping.coefficient", scene.dampingCoefficient != 0},
        {"load.force-box", !scene.forceBoxes.empty()}};
    for (const auto& [key, set] : elasticOnly)
      if (set) throw Error(std::string(key) + " applies to elasticity only, not to physics.type = diffusion");
  }
  // solver.trapezoidal is SOFA's name for solver.scheme = sofa-trapezoidal: the two must agree.
  const bool schemeGiven = vm.count("solver.scheme") > 0;
  if (scene.trapezoidal && !schemeGiven) scene.scheme = TimeScheme::SofaTrapezoidal;
  if (scene.scheme == TimeScheme::SofaTrapezoidal && !vm.count("solver.trapezoidal"))
    scene.trapezoidal = true;
  if (scene.trapezoidal != (scene.scheme == TimeScheme::SofaTrapezoidal))
    throw Error("solver.trapezoidal = " + std::string(scene.trapezoidal ? "true" : "false") +
                " contradicts solver.scheme = " + nameOf(scene.scheme, kSchemes));
  if (scene.newton == NewtonMode::Full && scene.scheme == TimeScheme::SofaTrapezoidal)
    throw Error("solver.newton = full does not take SOFA's trapezoidal variant (a linearized "
                "scheme); solver.scheme = trapezoidal is the rule it approximates");
  checkPreconditioner(scene);
  return scene;
}

// ---------------------------------------------------------------------------------------------
// Help text.

std::string indented(const std::string& lines, const std::string& indent) {
  std::string result = indent;
  for (const char c : lines) result += c == '\n' ? "\n" + indent : std::string(1, c);
  return result + "\n";
}

std::string defaultOf(const Key& key) {
  if (key.defaultText) return key.defaultText;
  const Values values = key.get(Scene{});
  return values.empty() ? "none" : values.front();
}

const char* const kUsage =
    "Usage: mpiexec -n N euler-implicit [--config scene.ini] [--section.key=value ...] "
    "[PETSc options]\n"
    "\n"
    "Advances a tetrahedral mesh in time with SOFA's EulerImplicitSolver, distributed over\n"
    "the MPI ranks with PETSc. Without options it runs the built-in scene: a cantilever beam\n"
    "(the default box, fixed at x = 0) under gravity.\n"
    "\n"
    "Our options start with two dashes: --section.key=value or --section.key value. A config\n"
    "file gives the same keys in INI sections, e.g. \"[mesh]\" then \"box-size = 10 1 1\"; the\n"
    "command line wins, key by key (the command-line occurrences of a repeatable key replace\n"
    "the file's). Vectors are one argument of space- or comma-separated numbers:\n"
    "--mesh.box-size=\"10 1 1\" or --mesh.box-size=10,1,1. Booleans: true/false, 1/0, yes/no,\n"
    "on/off.\n"
    "\n"
    "  --config FILE   read keys from the INI file FILE\n"
    "  --help          print this text and exit\n"
    "  --version       print the version and exit\n";

const char* const kNotes =
    "The step (SOFA EulerImplicitSolver, linearized; tr = 1, or 0.5 with solver.trapezoidal):\n"
    "    ((1 + tr h rm) M - tr h (tr h + rs) K) dv = h (f(x_n) + (tr h + rs) K v_n - rm M v_n)\n"
    "    v_{n+1} = v_n + dv,   x_{n+1} = x_n + h v_{n+1},   v_{n+1} *= exp(-h vdamping)\n"
    "with K = df/dx, rm = solver.rayleigh-mass, rs = solver.rayleigh-stiffness, and the fixed\n"
    "degrees of freedom projected out (their rows and columns of the matrix become the\n"
    "identity, their right-hand side zero). First order: (M - tr h K) v_{n+1} = f(x_n).\n"
    "The default linear solve stops at a relative residual of 1e-8 (-ksp_rtol changes it).\n"
    "\n"
    "PETSc options start with one dash and go to PETSc with their values, e.g.\n"
    "    -ksp_type cg -pc_type gamg -ksp_rtol 1e-10 -ksp_monitor -log_view\n"
    "The linear solver defaults to CG + GAMG for elasticity and for diffusion (assembled\n"
    "operator) and CG + Jacobi with solver.operator = matrix-free (solver.preconditioner picks\n"
    "another); any -ksp_type / -pc_type overrides it.\n"
    "PETSc options that no solver read are listed as warnings at the end of the run (as\n"
    "-options_left would), which shows a misspelt PETSc option.\n";

}  // namespace

// ---------------------------------------------------------------------------------------------

CommandLine parseCommandLine(int argc, const char* const argv[]) {
  const po::options_description keys = sceneOptions();
  const po::options_description options = commandLineOptions(keys);
  CommandLine result;
  po::parsed_options ours(&options);
  routeArguments(argc, argv, ours, result.petscArgs);

  po::variables_map vm;
  try {
    po::store(ours, vm);  // scene keys take any number of occurrences; the others, one
  } catch (const po::multiple_occurrences& e) {
    throw Error("--" + e.get_option_name() + ": given more than once");
  }
  result.help = vm.count("help") > 0;
  result.version = vm.count("version") > 0;
  if (result.help || result.version) return result;
  if (vm.count("config")) storeConfigFile(vm["config"].as<std::string>(), keys, vm);
  result.scene = resolveScene(vm);
  return result;
}

std::string helpText() {
  std::string help = kUsage;
  std::string section;
  for (const Key& key : kKeys) {
    if (sectionOf(key.name) != section) {
      section = sectionOf(key.name);
      help += "\n[" + section + "]\n";
    }
    help += "  --" + std::string(key.name) + "=" + key.arg + "\n";
    help += indented(key.meaning, "      ");
    help += indented("default: " + defaultOf(key), "      ");
  }
  return help + "\n" + kNotes;
}

std::string describe(const Scene& scene) {
  std::string ini;
  std::string section;
  for (const Key& key : kKeys) {
    if (sectionOf(key.name) != section) {
      ini += std::string(section.empty() ? "" : "\n") + "[" + sectionOf(key.name) + "]\n";
      section = sectionOf(key.name);
    }
    const Values values = key.get(scene);
    if (values.empty()) ini += "# " + keyOf(key.name) + " = (none)\n";
    for (const std::string& value : values) ini += keyOf(key.name) + " = " + value + "\n";
  }
  return ini;
}

}  // namespace eis
