#include "scene_fields.hpp"

#include "eis/app/scene_builder.hpp"

namespace eis_test {

namespace {

using eis::parse::nameOf;
using eis::parse::text;

template <class T, std::size_t N>
std::string words(const std::array<T, N>& values) {
  std::string result;
  for (const T& v : values) {
    if (!result.empty()) result += ' ';
    if constexpr (std::is_floating_point_v<T>)
      result += text(v);
    else
      result += std::to_string(v);
  }
  return result;
}

std::string corners(const eis::Box& box) {
  return words(box.min) + " " + words(box.max);
}

}  // namespace

eis::Scene SceneFields::toScene() const {
  eis::Scene s = eis::defaultScene();
  if (!meshFile.empty()) s.set("mesh.file", meshFile);
  s.set("mesh.box-size", words(boxSize));
  s.set("mesh.box-cells", words(boxCells));
  // Given only for hexahedra: with a mesh file the key is refused.
  if (cellType != eis::CellType::Tetrahedron)
    s.set("mesh.cell-type", nameOf(cellType, eis::kCellTypes));
  s.set("mesh.refine", std::to_string(refine));
  s.set("physics.type", nameOf(physics, eis::kPhysics));
  s.set("material.model", nameOf(material, eis::kMaterialModels));
  s.set("material.rotation", nameOf(rotation, eis::kRotationMethods));
  s.set("material.young-modulus", text(youngModulus));
  s.set("material.poisson-ratio", text(poissonRatio));
  s.set("material.density", text(density));
  s.set("material.conductivity", text(conductivity));
  s.set("material.capacity", text(capacity));
  s.set("mass.type", nameOf(mass, eis::kMassTypes));
  s.set("load.gravity", words(gravity));
  for (const ForceBox& f : forceBoxes)
    s.set("load.force-box", corners(f.box) + " " + words(f.force));
  s.set("damping.coefficient", text(dampingCoefficient));
  s.set("springs.stiffness", text(springStiffness));
  s.set("springs.damping", text(springDamping));
  for (const eis::Box& box : fixedBoxes) s.set("constraint.fixed-box", corners(box));
  for (const std::string& group : fixedGroups) s.set("constraint.fixed-group", group);
  s.set("solver.dt", text(dt));
  s.set("solver.steps", std::to_string(steps));
  s.set("solver.rayleigh-mass", text(rayleighMass));
  s.set("solver.rayleigh-stiffness", text(rayleighStiffness));
  s.set("solver.vdamping", text(vdamping));
  s.set("solver.first-order", firstOrder ? "true" : "false");
  s.set("solver.compute-residual", computeResidual ? "true" : "false");
  s.set("solver.scheme", nameOf(scheme, eis::kTimeSchemes));
  s.set("solver.newton", nameOf(newton, eis::kNewtonModes));
  s.set("solver.newton-guess", nameOf(newtonGuess, eis::kNewtonGuesses));
  s.set("solver.operator", nameOf(op, eis::kOperatorModes));
  s.set("solver.preconditioner", nameOf(preconditioner, eis::kPreconditioners));
  s.set("solver.pc-lag", std::to_string(pcLag));
  s.set("solver.pc-rebuild-growth", text(pcRebuildGrowth));
  s.set("solver.initial-guess", nameOf(initialGuess, eis::kInitialGuesses));
  if (!initialState.empty()) s.set("initial.state", initialState);
  if (!finalState.empty()) s.set("output.final-state", finalState);
  if (!history.empty()) s.set("output.history", history);
  if (!vtk.empty()) s.set("output.vtk", vtk);
  s.set("output.every", std::to_string(outputEvery));
  for (const auto& [key, value] : extra) s.set(key, value);
  return s;
}

}  // namespace eis_test
