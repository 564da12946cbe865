// Tests of the component registry (include/eis/core/component_registry.hpp): every component,
// force field, output and SOFA mapping is registered, in the order that --help shows and that sums
// the forces. A registrar whose object file the link leaves out (a static archive linked without
// eis_static_whole) loses its component: these lists catch it.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "eis/app/scene_builder.hpp"
#include "eis/core/component_registry.hpp"
#include "eis/io/output.hpp"
#include "eis/io/sofa_import.hpp"
#include "eis/model/force_field_component.hpp"

namespace {

using Names = std::vector<std::string>;

template <class List, class Type>
Names typesOf(const List& list, Type type) {
  Names names;
  for (const auto& entry : list) names.push_back(type(entry));
  return names;
}

TEST(ComponentRegistry, KnowsEveryComponentInHelpOrder) {
  const Names expected = {"mesh",
                          "rigid-body",
                          "physics",
                          "mass",
                          "elastic-fem",
                          "diffusion-fem",
                          "mesh-springs",
                          "gravity",
                          "uniform-damping",
                          "constant-force",
                          "face-traction",
                          "edge-pressure",
                          "rigid-mapped-cells",
                          "rigid-mapped-springs",
                          "carried-points",
                          "rest-shape-springs",
                          "volume-springs",
                          "surface-pressure",
                          "plane-force-field",
                          "triangular-fem",
                          "triangular-bending-springs",
                          "quad-bending-springs",
                          "interaction-ellipsoid",
                          "sphere-force-field",
                          "conical-force-field",
                          "ellipsoid-force-field",
                          "mapped-child",
                          "mapped-pressure",
                          "interaction-springs",
                          "composite-mapped-load",
                          "attach-constraint",
                          "python-force-field",
                          "fixed-constraint",
                          "node-projectors",
                          "prescribed-motion",
                          "fixed-lagrangian-constraint",
                          "bilateral-lagrangian-constraint",
                          "unilateral-lagrangian-constraint",
                          "sliding-lagrangian-constraint",
                          "distance-lagrangian-constraint",
                          "time-integrator",
                          "constraint-solver",
                          "lcp-constraint-solver",
                          "linear-solver",
                          "initial-state",
                          "final-state",
                          "vtk-series",
                          "xdmf",
                          "history",
                          "multipliers",
                          "checkpoint",
                          "rigid-frames",
                          "topology-changes",
                          "substepping",
                          "progress",
                          "sofa-scene"};
  EXPECT_EQ(typesOf(eis::knownComponents(), [](const auto* d) { return d->type; }), expected);
}

// The order forces are summed in: the elastic or diffusion field first (von Mises stress is the
// first stress field's).
TEST(ComponentRegistry, SumsForceFieldsInRankOrder) {
  // clang-format off
  const Names expected = {"elastic-fem",
                          "diffusion-fem",
                          "mesh-springs",
                          "gravity",
                          "uniform-damping",
                          "constant-force",
                          "face-traction",
                          "edge-pressure",
                          "rest-shape-springs",
                          "volume-springs",
                          "surface-pressure",
                          "plane-force-field",
                          "triangular-fem",
                          "triangular-bending-springs",
                          "quad-bending-springs",
                          "interaction-ellipsoid",
                          "sphere-force-field",
                          "conical-force-field",
                          "ellipsoid-force-field",
                          "mapped-child",
                          "mapped-pressure",
                          "composite-mapped-load",
                          "python-force-field"};
  // clang-format on
  EXPECT_EQ(typesOf(eis::forceFieldComponents(),
                    [](const eis::ForceFieldComponent& f) { return f.declaration.type; }),
            expected);
}

TEST(ComponentRegistry, FinishesOutputsInRankOrder) {
  const Names expected = {"final-state", "vtk-series",  "xdmf",
                          "history",     "multipliers", "checkpoint"};
  EXPECT_EQ(typesOf(eis::outputComponents(),
                    [](const eis::OutputComponent& o) { return o.declaration.type; }),
            expected);
}

TEST(ComponentRegistry, MapsEverySofaComponent) {
  const Names expected = {"AffineMovementConstraint",
                          "AffineMovementProjectiveConstraint",
                          "AttachConstraint",
                          "AttachProjectiveConstraint",
                          "BilateralLagrangianConstraint",
                          "CompositeLinearSystem",
                          "ConicalForceField",
                          "ConstantForceField",
                          "ConstantSparsityPatternSystem",
                          "DiagonalMass",
                          "EdgePressureForceField",
                          "EllipsoidForceField",
                          "FastTetrahedralCorotationalForceField",
                          "FixedConstraint",
                          "FixedLagrangianConstraint",
                          "FixedPlaneConstraint",
                          "FixedPlaneProjectiveConstraint",
                          "FixedProjectiveConstraint",
                          "GenericConstraintCorrection",
                          "HexahedralFEMForceField",
                          "HexahedralFEMForceFieldAndMass",
                          "HexahedronCompositeFEMForceFieldAndMass",
                          "HexahedronFEMForceField",
                          "HexahedronFEMForceFieldAndMass",
                          "InteractionEllipsoidForceField",
                          "LineProjectiveConstraint",
                          "LinearMovementConstraint",
                          "LinearMovementProjectiveConstraint",
                          "LinearSolverConstraintCorrection",
                          "MatrixLinearSystem",
                          "MatrixProjectionMethod",
                          "MeshMatrixMass",
                          "MeshSpringForceField",
                          "NonUniformHexahedronFEMForceFieldAndMass",
                          "OscillatorConstraint",
                          "OscillatorProjectiveConstraint",
                          "ParallelHexahedronFEMForceField",
                          "PartialFixedConstraint",
                          "PartialFixedProjectiveConstraint",
                          "PatchTestMovementProjectiveConstraint",
                          "PlaneForceField",
                          "PlaneProjectiveConstraint",
                          "PointProjectiveConstraint",
                          "PolynomialSpringsForceField",
                          "ProjectToLineConstraint",
                          "ProjectToPlaneConstraint",
                          "ProjectToPointConstraint",
                          "PythonForceField",
                          "QuadBendingSprings",
                          "QuadPressureForceField",
                          "QuadularBendingSprings",
                          "RegularGridSpringForceField",
                          "RestShapeSpringsForceField",
                          "SlidingLagrangianConstraint",
                          "SphereForceField",
                          "SpringForceField",
                          "StandardTetrahedralFEMForceField",
                          "StiffSpringForceField",
                          "SurfacePressureForceField",
                          "TetrahedralCorotationalFEMForceField",
                          "TetrahedralTensorMassForceField",
                          "TetrahedronDiffusionFEMForceField",
                          "TetrahedronFEMForceField",
                          "TetrahedronHyperelasticityFEMForceField",
                          "TriangleFEMForceField",
                          "TrianglePressureForceField",
                          "TriangularBendingSprings",
                          "TriangularFEMForceField",
                          "UncoupledConstraintCorrection",
                          "UniformMass"};
  EXPECT_EQ(eis::sofaMappedTypes(), expected);
}

TEST(ComponentRegistry, OrdersByRankNotByRegistration) {
  eis::ComponentRegistry<std::string> registry;
  registry.add(30, [] { return std::string("c"); });
  registry.add(10, [] { return std::string("a"); });
  registry.add(20, [] { return std::string("b"); });
  EXPECT_EQ(registry.entries(), (Names{"a", "b", "c"}));
  EXPECT_EQ(registry.ranks(), (std::vector<int>{10, 20, 30}));
}

TEST(ComponentRegistry, RefusesTwoComponentsAtOneRank) {
  eis::ComponentRegistry<std::string> registry;
  registry.add(10, [] { return std::string("a"); });
  registry.add(10, [] { return std::string("b"); });
  EXPECT_THROW(registry.entries(), std::logic_error);
}

}  // namespace
