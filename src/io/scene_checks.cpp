#include "eis/io/scene_checks.hpp"

#include <cstdint>

#include "eis/core/error.hpp"
#include "eis/linalg/linear_solver.hpp"
#include "eis/model/distance_lagrangian_constraint.hpp"
#include "eis/model/elastic_force_fields.hpp"
#include "eis/model/physics.hpp"

namespace eis {

namespace {

// An error when the scene is a diffusion scene and `set` says that `key`, which applies to
// elasticity only, asks for something. Reads physics.type.
void requireElasticity(const Scene& scene, const std::string& key, bool set) {
  if (set && physicsOf(scene) == Physics::Diffusion)
    throw Error(key + " applies to elasticity only, not to physics.type = diffusion");
}

void physicsNeedsSolver(Scene& scene) {
  if (physicsOf(scene) != Physics::Diffusion) return;
  if (!scene.boolean("solver.first-order"))
    throw Error("physics.type = diffusion requires solver.first-order = true");
  if (scene.choice("solver.preconditioner", kPreconditioners) == Preconditioner::HypreElasticity)
    throw Error(
        "solver.preconditioner = hypre-elasticity applies to elasticity only, not to "
        "physics.type = diffusion (take hypre)");
}

constexpr const char* kLagrangianRows[] = {"lagrange.fixed", "lagrange.bilateral",
                                           "lagrange.unilateral", "lagrange.sliding",
                                           "lagrange.distance"};

void massOfElasticity(Scene& scene) {
  const MassType type = scene.choice("mass.type", kMassTypes);
  requireElasticity(scene, "mass.type = uniform", type == MassType::Uniform);
  requireElasticity(scene, "mass.type = none", type == MassType::None);
  // A massless body's constraint response (W from a system with M = 0) and its step solved to
  // convergence (a nonlinear static solve) are not carried.
  if (type == MassType::None && scene.text("solver.newton") == "full")
    throw Error("mass.type = none: not with solver.newton = full (the linearized step is SOFA's)");
  if (type == MassType::None)
    for (const char* key : kLagrangianRows)
      if (scene.given(key))
        throw Error(std::string("mass.type = none: not with Lagrangian constraints (") + key +
                    "): a massless body's constraint response is not supported");
  requireElasticity(scene, "mass.total-mass", scene.given("mass.total-mass"));
  requireElasticity(scene, "mass.type = hexahedron-fem",
                    type == MassType::HexahedronFem || type == MassType::HexahedronFemLumped);
}

// The uniform material comes from E and NU or from the Lame pair; the per-cell forms are the
// SOFA lists or the regions, not both.
void checkMaterialSources(const Scene& scene) {
  const bool lame = scene.given("material.lame");
  for (const char* key :
       {"material.young-modulus", "material.poisson-ratio", "material.cell-young-modulus",
        "material.cell-poisson-ratio", "material.cell-stiffness-factor"})
    if (lame && scene.given(key))
      throw Error(std::string("material.lame and ") + key + " both give the material: give one");
  const char* pairs[][2] = {{"material.young-modulus", "material.cell-young-modulus"},
                            {"material.poisson-ratio", "material.cell-poisson-ratio"}};
  for (const auto& pair : pairs)
    if (scene.given(pair[0]) && scene.given(pair[1]))
      throw Error(std::string(pair[0]) + " and " + pair[1] +
                  " both give the material (the list is SOFA's whole youngModulus or "
                  "poissonRatio): give one");
  const bool regions = !scene.texts("material.region").empty();
  if (regions &&
      (scene.given("material.cell-young-modulus") || scene.given("material.cell-poisson-ratio") ||
       scene.given("material.cell-stiffness-factor")))
    throw Error(
        "material.region and a per-cell list (material.cell-young-modulus, "
        "material.cell-poisson-ratio or material.cell-stiffness-factor) both set cells' "
        "materials: give one");
}

// A material given to no elastic force field would be silently unused.
void refuseMaterialWithoutModel(const Scene& scene) {
  for (const char* key : {"material.rotation", "material.cells", "material.hexahedron-element",
                          "material.young-modulus", "material.poisson-ratio", "material.lame",
                          "material.cell-young-modulus", "material.cell-poisson-ratio",
                          "material.cell-stiffness-factor", "material.cell-finer-stiffness-factor"})
    if (scene.given(key))
      throw Error(std::string(key) +
                  " describes the elastic material, and material.model = none adds no elastic "
                  "force field: give a model or leave the key out");
  if (!scene.texts("material.region").empty())
    throw Error(
        "material.region describes the elastic material, and material.model = none adds no "
        "elastic force field: give a model or leave the key out");
}

void elasticMaterial(Scene& scene) {
  const MaterialModel model = scene.choice("material.model", kMaterialModels);
  if (physicsOf(scene) == Physics::Diffusion && model != MaterialModel::Linear)
    throw Error("material.model = " + scene.text("material.model") +
                " is an elastic model; physics.type = diffusion takes none");
  for (const char* key :
       {"material.lame", "material.cell-young-modulus", "material.cell-poisson-ratio",
        "material.cell-stiffness-factor", "material.cell-finer-stiffness-factor"})
    requireElasticity(scene, key, scene.given(key));
  requireElasticity(scene, "material.region", !scene.texts("material.region").empty());
  checkMaterialSources(scene);
  if (model == MaterialModel::None) refuseMaterialWithoutModel(scene);
}

// SOFA's RegularGridSpringForceField constants by kind replace the one for all springs.
void checkByKind(const Scene& scene, const char* all, const char* byKind) {
  if (!scene.given(byKind)) return;
  if (scene.real(all) != 0)
    throw Error(std::string(all) + " and " + byKind + " both set it: give one");
  for (double v : scene.reals(byKind))
    if (v < 0) throw Error(std::string(byKind) + ": expected numbers >= 0");
  requireElasticity(scene, byKind, true);
}

void meshSprings(Scene& scene) {
  requireElasticity(scene, "springs.stiffness", scene.real("springs.stiffness") != 0);
  requireElasticity(scene, "springs.damping", scene.real("springs.damping") != 0);
  checkByKind(scene, "springs.stiffness", "springs.stiffness-by-kind");
  checkByKind(scene, "springs.damping", "springs.damping-by-kind");
}

// Repeatable keys of elasticity only: any occurrence is refused in a diffusion scene.
std::function<void(Scene&)> elasticityOnly(std::vector<std::string> keys) {
  return [keys](Scene& scene) {
    for (const std::string& key : keys) requireElasticity(scene, key, !scene.texts(key).empty());
  };
}

void surfaceLoads(Scene& scene) {
  for (const char* key : {"load.pressure", "load.surface-traction"}) {
    const bool set = !scene.texts(key).empty();
    requireElasticity(scene, key, set);
    if (set && scene.integer("mesh.refine") > 0)
      throw Error(std::string(key) +
                  " acts on the mesh file's triangles, which mesh.refine does not split: "
                  "refine the mesh file instead");
  }
}

// A mapped child is elasticity's, and its points are located in the input cells, which
// mesh.refine splits.
void mappedChild(Scene& scene) {
  const bool set = scene.text("mapped.mapping") != "none";
  requireElasticity(scene, "mapped.mapping", set);
  if (set && scene.integer("mesh.refine") > 0)
    throw Error(
        "mapped.mapping locates the child's points in the mesh's cells, which "
        "mesh.refine splits: refine the mesh file instead");
}

// A pressure on a mapped child's faces has a tangent between nodes of different cells, which no
// element matrix holds (model/mapped_pressure.hpp).
void mappedPressure(Scene& scene) {
  for (const char* key : {"mapped.pressure", "mapped.pressure-pulse"}) {
    if (!scene.given(key)) continue;
    requireElasticity(scene, key, true);
    if (scene.text("solver.operator") != "matrix-free")
      throw Error(std::string(key) +
                  ": its tangent couples body nodes of different cells, which no element "
                  "matrix holds: it needs solver.operator = matrix-free");
  }
}

// HexahedronCompositeFEMMapping's loads act on input cells' corners, which mesh.refine splits.
void compositeLoads(Scene& scene) {
  const bool set = scene.given("mapped.composite-loads");
  requireElasticity(scene, "mapped.composite-loads", set);
  if (set && scene.integer("mesh.refine") > 0)
    throw Error(
        "mapped.composite-loads acts on the corners of the mesh's cells, which mesh.refine "
        "splits: refine the mesh file instead");
}

// The built-in box is fixed at its x = 0 face when no constraint and no other mesh is given.
void fixedConstraint(Scene& scene) {
  requireElasticity(scene, "constraint.partial-fixed", scene.given("constraint.partial-fixed"));
  if (scene.given("mesh.file") || scene.given("mesh.nodes") || scene.given("rigid.frames") ||
      scene.given("constraint.fixed-box") || scene.given("constraint.fixed-group") ||
      scene.given("constraint.fixed") || scene.given("constraint.partial-fixed") ||
      scene.given("lagrange.fixed") || scene.given("constraint.plane") ||
      scene.given("constraint.line") || scene.given("constraint.point") ||
      scene.given("constraint.oscillator") || scene.given("constraint.affine-movement") ||
      scene.given("constraint.patch-test"))
    return;
  if (scene.given("mesh.transform")) {
    // The transformed box's x = 0 face is no longer at x = 0: its nodes by id instead
    // (node id = i + (NX+1)(j + (NY+1)k), i = 0 on that face).
    const auto cells = scene.integer3("mesh.box-cells");
    std::string ids = "indices";
    for (std::int64_t k = 0; k <= cells[2]; ++k)
      for (std::int64_t j = 0; j <= cells[1]; ++j)
        ids += " " + std::to_string((cells[0] + 1) * (j + (cells[1] + 1) * k));
    scene.set("constraint.fixed", ids);
    return;
  }
  const auto size = scene.real3("mesh.box-size");
  scene.set("constraint.fixed-box", "0 0 0 0 " + parse::text(size[1]) + " " + parse::text(size[2]));
}

void prescribedMotion(Scene& scene) {
  // Diffusion: u moves by each key frame's first number, SOFA's rule only (the hold rule starts
  // from the rest positions).
  requireElasticity(scene, "constraint.linear-movement-rule = hold",
                    scene.given("constraint.linear-movement") &&
                        scene.text("constraint.linear-movement-rule") == "hold");
  requireElasticity(scene, "constraint.prescribed-velocity",
                    scene.given("constraint.prescribed-velocity"));
  for (const char* key : {"constraint.linear-movement", "constraint.prescribed-velocity"}) {
    if (scene.given(key) && scene.text("solver.newton") == "full")
      throw Error(std::string(key) +
                  " is not supported with solver.newton = full; use the linearized step");
  }
}

void nodeProjectors(Scene& scene) {
  for (const char* key :
       {"constraint.plane", "constraint.line", "constraint.point", "constraint.oscillator",
        "constraint.affine-movement", "constraint.patch-test"}) {
    requireElasticity(scene, key, scene.given(key));
    if (scene.given(key) && scene.text("solver.newton") == "full")
      throw Error(std::string(key) +
                  " is not supported with solver.newton = full; use the linearized step");
  }
}

void initialState(Scene& scene) {
  if (scene.given("initial.values")) {
    if (physicsOf(scene) != Physics::Diffusion)
      throw Error(
          "initial.values applies to physics.type = diffusion only (elasticity: "
          "initial.positions)");
    if (scene.given("initial.state"))
      throw Error("initial.values and initial.state are given: give one");
  }
  for (const char* key : {"initial.positions", "initial.velocities"}) {
    if (!scene.given(key)) continue;
    requireElasticity(scene, key, true);
    if (scene.given("initial.state"))
      throw Error(std::string(key) + " and initial.state are given: give one");
  }
}

// A retried step (solver.on-failure = retry) starts again from the state before it, but a
// lagrange.distance geometric stiffness would read the multipliers its failed try left.
void distanceStiffness(Scene& scene) {
  if (scene.text("solver.on-failure") != "retry") return;
  for (const std::string& text : scene.texts("lagrange.distance"))
    if (DistanceLagrangianConstraint::parseEdges("lagrange.distance", text).stiffness !=
        MappingStiffness::None)
      throw Error("solver.on-failure = retry: not with lagrange.distance = " + text +
                  ", whose geometric stiffness would read the multipliers of the failed try");
}

}  // namespace

const std::vector<SceneCheck>& sceneChecks() {
  static const std::vector<SceneCheck> checks{
      {"physics",
       {"physics.type", "solver.first-order", "solver.preconditioner"},
       physicsNeedsSolver},
      {"mass",
       {"physics.type", "mass.type", "mass.total-mass", "solver.newton", "lagrange.fixed",
        "lagrange.bilateral", "lagrange.unilateral", "lagrange.sliding", "lagrange.distance"},
       massOfElasticity},
      {"elastic-fem",
       {"physics.type", "material.model", "material.rotation", "material.cells",
        "material.hexahedron-element", "material.young-modulus", "material.poisson-ratio",
        "material.lame", "material.region", "material.cell-young-modulus",
        "material.cell-poisson-ratio", "material.cell-stiffness-factor",
        "material.cell-finer-stiffness-factor"},
       elasticMaterial},
      {"mesh-springs",
       {"physics.type", "springs.stiffness", "springs.damping", "springs.stiffness-by-kind",
        "springs.damping-by-kind"},
       meshSprings},
      {"uniform-damping",
       {"physics.type", "damping.coefficient"},
       [](Scene& scene) {
         requireElasticity(scene, "damping.coefficient", scene.real("damping.coefficient") != 0);
       }},
      {"constant-force",
       {"physics.type", "load.force-box", "load.constant-force", "load.total-force",
        "load.nodal-forces"},
       elasticityOnly(
           {"load.force-box", "load.constant-force", "load.total-force", "load.nodal-forces"})},
      {"rest-shape-springs",
       {"physics.type", "springs.rest-shape", "springs.rest-shape-nodes"},
       elasticityOnly({"springs.rest-shape", "springs.rest-shape-nodes"})},
      {"surface-pressure",
       {"physics.type", "load.pressure", "load.surface-traction", "mesh.refine"},
       surfaceLoads},
      {"plane-force-field", {"physics.type", "obstacle.plane"}, elasticityOnly({"obstacle.plane"})},
      {"sphere-force-field",
       {"physics.type", "obstacle.sphere"},
       elasticityOnly({"obstacle.sphere"})},
      {"mapped-child", {"physics.type", "mapped.mapping", "mesh.refine"}, mappedChild},
      {"mapped-pressure",
       {"physics.type", "mapped.pressure", "mapped.pressure-pulse", "solver.operator"},
       mappedPressure},
      {"composite-mapped-load",
       {"physics.type", "mapped.composite-loads", "mesh.refine"},
       compositeLoads},
      {"fixed-constraint",
       {"physics.type", "constraint.fixed-box", "constraint.fixed-group", "constraint.fixed",
        "constraint.partial-fixed", "lagrange.fixed", "mesh.file", "mesh.nodes", "mesh.transform",
        "mesh.box-cells", "mesh.box-size", "rigid.frames", "constraint.plane", "constraint.line",
        "constraint.point", "constraint.oscillator", "constraint.affine-movement",
        "constraint.patch-test"},
       fixedConstraint},
      {"node-projectors",
       {"physics.type", "constraint.plane", "constraint.line", "constraint.point",
        "constraint.oscillator", "constraint.affine-movement", "constraint.patch-test",
        "solver.newton"},
       nodeProjectors},
      {"prescribed-motion",
       {"physics.type", "constraint.linear-movement", "constraint.linear-movement-rule",
        "constraint.prescribed-velocity", "solver.newton"},
       prescribedMotion},
      {"fixed-lagrangian-constraint",
       {"physics.type", "lagrange.fixed"},
       elasticityOnly({"lagrange.fixed"})},
      {"distance-lagrangian-constraint",
       {"lagrange.distance", "solver.on-failure"},
       distanceStiffness},
      {"initial-state",
       {"physics.type", "initial.state", "initial.positions", "initial.velocities",
        "initial.values"},
       initialState},
  };
  return checks;
}

void checkScene(Scene& scene) {
  for (const ComponentDeclaration* component : scene.components()) {
    if (component->resolve) component->resolve(scene);
    for (const SceneCheck& check : sceneChecks())
      if (check.component == component->type) check.run(scene);
  }
}

}  // namespace eis
