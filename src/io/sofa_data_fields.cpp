// The data field check (io/sofa_data_fields.hpp); the table is io/sofa_data_fields_table.cpp.
#include "sofa_data_fields.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>

#include "eis/core/error.hpp"
#include "eis/core/nearest_name.hpp"

namespace eis::sofa {

namespace {

// The components whose fields are checked: those the importer maps or accepts. The table's other
// classes are their bases.
const char* const kComponents[] = {"MechanicalObject",
                                   "MeshGmshLoader",
                                   "MeshVTKLoader",
                                   "GIDMeshLoader",
                                   "MeshOBJLoader",
                                   "MeshSTLLoader",
                                   "MeshOffLoader",
                                   "MeshTrianLoader",
                                   "SphereLoader",
                                   "TetrahedronSetTopologyContainer",
                                   "TetrahedronSetTopologyModifier",
                                   "TetrahedronSetGeometryAlgorithms",
                                   "TriangleSetTopologyContainer",
                                   "TriangleSetTopologyModifier",
                                   "TriangleSetGeometryAlgorithms",
                                   "HexahedronSetTopologyContainer",
                                   "HexahedronSetTopologyModifier",
                                   "HexahedronSetGeometryAlgorithms",
                                   "QuadSetTopologyContainer",
                                   "QuadSetTopologyModifier",
                                   "QuadSetGeometryAlgorithms",
                                   "EdgeSetTopologyContainer",
                                   "EdgeSetTopologyModifier",
                                   "EdgeSetGeometryAlgorithms",
                                   "PointSetTopologyContainer",
                                   "PointSetTopologyModifier",
                                   "PointSetGeometryAlgorithms",
                                   "MeshTopology",
                                   "RegularGridTopology",
                                   "CylinderGridTopology",
                                   "SphereGridTopology",
                                   "SparseGridTopology",
                                   "SparseGridRamificationTopology",
                                   "SparseGridMultipleTopology",
                                   "Hexa2TetraTopologicalMapping",
                                   "GenerateGrid",
                                   "StringMeshCreator",
                                   "GenerateCylinder",
                                   "TransformPosition",
                                   "SubsetTopology",
                                   "Tetra2TriangleTopologicalMapping",
                                   "FreeMotionAnimationLoop",
                                   "BlockGaussSeidelConstraintSolver",
                                   "FixedLagrangianConstraint",
                                   "BilateralLagrangianConstraint",
                                   "LinearSolverConstraintCorrection",
                                   "UncoupledConstraintCorrection",
                                   "GenericConstraintCorrection",
                                   "SlidingLagrangianConstraint",
                                   "UniformLagrangianConstraint",
                                   "UnbuiltGaussSeidelConstraintSolver",
                                   "NNCGConstraintSolver",
                                   "EulerImplicitSolver",
                                   "EulerExplicitSolver",
                                   "NewtonRaphsonSolver",
                                   "StaticSolver",
                                   "CGLinearSolver",
                                   "PCGLinearSolver",
                                   "SparseLDLSolver",
                                   "NaturalOrderingMethod",
                                   "AMDOrderingMethod",
                                   "COLAMDOrderingMethod",
                                   "EigenSimplicialLDLT",
                                   "EigenSimplicialLLT",
                                   "AsyncSparseLDLSolver",
                                   "EigenSparseLU",
                                   "CholeskySolver",
                                   "SVDLinearSolver",
                                   "BTDLinearSolver",
                                   "Gravity",
                                   "DiagonalMass",
                                   "MeshMatrixMass",
                                   "UniformMass",
                                   "TetrahedronFEMForceField",
                                   "TetrahedralCorotationalFEMForceField",
                                   "FastTetrahedralCorotationalForceField",
                                   "TetrahedralTensorMassForceField",
                                   "TetrahedronHyperelasticityFEMForceField",
                                   "StandardTetrahedralFEMForceField",
                                   "HexahedronFEMForceField",
                                   "BeamFEMForceField",
                                   "HexahedronFEMForceFieldAndMass",
                                   "NonUniformHexahedronFEMForceFieldAndMass",
                                   "HexahedronCompositeFEMForceFieldAndMass",
                                   "ParallelHexahedronFEMForceField",
                                   "HexahedralFEMForceField",
                                   "HexahedralFEMForceFieldAndMass",
                                   "MeshSpringForceField",
                                   "RegularGridSpringForceField",
                                   "RestShapeSpringsForceField",
                                   "ConstantForceField",
                                   "PlaneForceField",
                                   "SphereForceField",
                                   "ConicalForceField",
                                   "InteractionEllipsoidForceField",
                                   "SurfacePressureForceField",
                                   "TrianglePressureForceField",
                                   "QuadPressureForceField",
                                   "FixedProjectiveConstraint",
                                   "PartialFixedProjectiveConstraint",
                                   "LinearMovementProjectiveConstraint",
                                   "PlaneProjectiveConstraint",
                                   "LineProjectiveConstraint",
                                   "PointProjectiveConstraint",
                                   "OscillatorProjectiveConstraint",
                                   "AffineMovementProjectiveConstraint",
                                   "PatchTestMovementProjectiveConstraint",
                                   "AttachProjectiveConstraint",
                                   "VolumeMapping",
                                   "DistanceMapping",
                                   "DeformableOnRigidFrameMapping",
                                   "BoxROI",
                                   "SphereROI",
                                   "PlaneROI",
                                   "PairBoxROI",
                                   "ConstantSparsityPatternSystem",
                                   "CompositeLinearSystem",
                                   "MatrixLinearSystem",
                                   "MatrixProjectionMethod",
                                   "RequiredPlugin",
                                   "DefaultAnimationLoop",
                                   "DefaultVisualManagerLoop",
                                   "AddPluginRepository"};

// The old names the importer still maps (SOFA's ComponentChange: renamed in v24.06).
const std::map<std::string, std::string> kRenamed = {
    {"FixedConstraint", "FixedProjectiveConstraint"},
    {"PartialFixedConstraint", "PartialFixedProjectiveConstraint"},
    {"LinearMovementConstraint", "LinearMovementProjectiveConstraint"},
    {"ProjectToPlaneConstraint", "PlaneProjectiveConstraint"},
    {"ProjectToLineConstraint", "LineProjectiveConstraint"},
    {"ProjectToPointConstraint", "PointProjectiveConstraint"},
    {"OscillatorConstraint", "OscillatorProjectiveConstraint"},
    {"AffineMovementConstraint", "AffineMovementProjectiveConstraint"},
    {"AttachConstraint", "AttachProjectiveConstraint"}};

// Attributes no data field holds that SOFA takes from every object: the factory's template and
// type (Base::parse skips type), and the name (a data field, but read apart by the scene).
const char* const kEveryObject[] = {"template", "type", "name", "src"};

std::string className(const std::string& type) {
  const auto renamed = kRenamed.find(type);
  return renamed == kRenamed.end() ? type : renamed->second;
}

// Each component's fields, its own and its bases', built once from the table.
const std::map<std::string, std::set<std::string>>& fieldsByType() {
  static const std::map<std::string, std::set<std::string>> byType = [] {
    std::map<std::string, const SofaClassFields*> classes;
    for (const SofaClassFields& c : sofaClassFields()) classes[c.name] = &c;
    std::map<std::string, std::set<std::string>> out;
    for (const char* component : kComponents) {
      std::set<std::string>& fields = out[component];
      std::vector<const SofaClassFields*> todo = {classes.at(component)};
      std::set<std::string> seen;
      while (!todo.empty()) {
        const SofaClassFields* c = todo.back();
        todo.pop_back();
        if (!seen.insert(c->name).second) continue;
        fields.insert(c->fields.begin(), c->fields.end());
        for (const char* base : c->bases) todo.push_back(classes.at(base));
      }
      fields.insert(std::begin(kEveryObject), std::end(kEveryObject));
    }
    return out;
  }();
  return byType;
}

std::string label(const SofaObject& o) {
  return o.type + (o.name.empty() ? "" : " '" + o.name + "'");
}

// What a link in the attribute names, or nothing when it is no link or a broken one: a broken
// link is an error where the importer reads the field, and only there (SOFA warns about the
// others and runs on).
std::optional<SofaLinkTarget> resolved(const Reader& reader, const SofaObject& o,
                                       const xml::Attribute& a) {
  if (!isSofaLink(a.value)) return std::nullopt;
  try {
    return reader.scene().resolve(*o.node, a.value, reader.where(o, a.name), &o);
  } catch (const Error&) {
    return std::nullopt;
  }
}

}  // namespace

bool knowsDataFields(const std::string& type) {
  return fieldsByType().count(className(type)) != 0;
}

bool isDataField(const std::string& type, const std::string& field) {
  const auto fields = fieldsByType().find(className(type));
  return fields != fieldsByType().end() && fields->second.count(field) != 0;
}

std::string didYouMean(const std::string& type, const std::string& field) {
  const auto fields = fieldsByType().find(className(type));
  if (fields == fieldsByType().end()) return "";
  const std::string best =
      nearestName(field, std::vector<std::string>(fields->second.begin(), fields->second.end()));
  return best.empty() ? "" : " (did you mean " + best + "?)";
}

void checkLinkTarget(const Reader& reader, const SofaObject& o, const std::string& field,
                     const std::string& link, const SofaLinkTarget& target) {
  if (!target.object || target.field.empty() || !knowsDataFields(target.object->type)) return;
  if (isDataField(target.object->type, target.field)) return;
  throw Error(reader.where(o, field) + ": " + label(o) + ": " + field + " = '" +
              printable(link, 120) + "': " + label(*target.object) + " (" + target.object->where +
              ") has no data field '" + printable(target.field, 80) + "'" +
              didYouMean(target.object->type, target.field));
}

void checkDataFields(Reader& reader, const SofaObject& o, bool skipUnsupported) {
  if (!knowsDataFields(o.type)) return;
  for (const xml::Attribute& a : o.data) {
    if (!isDataField(o.type, a.name)) {
      const std::string why = label(o) + ": unknown data field '" + printable(a.name, 80) + "'" +
                              didYouMean(o.type, a.name);
      if (!skipUnsupported)
        throw Error(reader.where(o, a.name) + ": " + why +
                    " (SOFA ignores it and keeps the default; --scene.skip-unsupported=true "
                    "does the same with a warning)");
      reader.warnOnce(reader.where(o, a.name) + ": " + why + ": ignored, as SOFA does");
      continue;
    }
    if (const std::optional<SofaLinkTarget> target = resolved(reader, o, a))
      checkLinkTarget(reader, o, a.name, a.value, *target);
  }
  // BaseMass's own fields (separateGravity is BaseMass's alone): every mass of every kind takes
  // them, and both change SOFA's step. rayleighMass adds the mass's own Rayleigh factor to the
  // solver's (Mass::mFactorIncludingRayleighDamping); separateGravity moves the weight from the
  // forces into the velocities (addGravityToV). Neither is simulated: read silently, either
  // would be a wrong answer.
  if (isDataField(o.type, "separateGravity")) {
    if (reader.real(o, "rayleighMass", 0) != 0)
      reader.reject(o, "rayleighMass",
                    "a mass's own Rayleigh factor is not supported (the ODE solver's "
                    "rayleighMass is)");
    if (reader.boolean(o, "separateGravity", false))
      reader.reject(o, "separateGravity",
                    "true (gravity added to the velocities, not the forces) is not supported");
  }
}

void checkLinkedDataFields(Reader& reader, const SofaObject& o, bool skipUnsupported) {
  for (const xml::Attribute& a : o.data) {
    const std::optional<SofaLinkTarget> target = resolved(reader, o, a);
    if (target && target->object && target->object != &o)
      checkDataFields(reader, *target->object, skipUnsupported);
  }
}

}  // namespace eis::sofa
