// SOFA's linear and corotational FEM force fields, of tetrahedra and of hexahedra
// (HexahedronFEMForceField and HexahedralFEMForceField, each with its AndMass form), and its
// hyperelastic ones, as the keys of our elastic-fem field (model/elastic_force_fields.cpp, which
// integrates the material on the mesh's cells: a HexahedronFEMForceField's mesh is hexahedra).
#include <utility>

#include "sofa_reader.hpp"
#include "sofa_selections.hpp"

namespace eis::sofa {

namespace {

// BaseLinearElasticityFEMForceField.inl: poissonRatio 0.45, youngModulus 5000. TetrahedronFEM-,
// HexahedronFEM- and HexahedralFEMForceField read both as lists (`lists`), element i taking
// list[i] where there is one, else list[0] (material.cell-* keys follow that rule);
// TetrahedralCorotational's are reals.
void mapElasticConstants(Reader& r, const SofaObject& o, bool lists) {
  const std::vector<std::pair<const char*, double>> fields = {{"youngModulus", 5000.0},
                                                              {"poissonRatio", 0.45}};
  for (const auto& [field, fallback] : fields) {
    const std::vector<double> values = r.reals(o, field);
    const bool young = std::string(field) == "youngModulus";
    if (values.size() > 1 && !lists) r.reject(o, field, "expected one number");
    if (values.size() > 1) {
      std::string list;
      for (double v : values) list += (list.empty() ? "" : " ") + parse::text(v);
      r.key(young ? "material.cell-young-modulus" : "material.cell-poisson-ratio", list);
    } else {
      r.key(young ? "material.young-modulus" : "material.poisson-ratio",
            parse::text(values.empty() ? fallback : values[0]));
    }
  }
}

// TetrahedronFEMForceField.inl, TetrahedralCorotationalFEMForceField.inl and
// HexahedronFEMForceField.inl: method "large" (HexahedronFEMForceField: large, polar or small).
void mapLinearElasticFem(Reader& r, const SofaObject& o) {
  // Each reads its own cells of the topology: a mesh of the other kind is refused, not
  // integrated by the other element.
  r.key("material.cells", readsHexahedra(o.type) ? "hexahedron" : "tetrahedron");
  const std::string method = r.text(o, "method").value_or("large");
  if (method == "small") {
    r.key("material.model", "linear");
  } else if (method == "large" || method == "polar" ||
             (method == "svd" && o.type == "TetrahedronFEMForceField")) {
    r.key("material.model", "corotational");
    r.key("material.rotation", method);
  } else {
    r.reject(o, "method",
             o.type == "TetrahedronFEMForceField" ? "expected small, large, polar or svd"
                                                  : "expected small, large or polar");
  }
  mapElasticConstants(r, o, o.type != "TetrahedralCorotationalFEMForceField");
  // TetrahedronFEMForceField::computeMaterialStiffness: element i's modulus times
  // localStiffnessFactor[i M / N] (TetrahedralCorotationalFEMForceField's: refused).
  const std::vector<double> factors = r.reals(o, "localStiffnessFactor");
  if (o.type == "TetrahedralCorotationalFEMForceField")
    r.refuseIfGiven(o, "localStiffnessFactor", "per-element stiffness factors are not supported");
  else if (!factors.empty())
    r.key("material.cell-stiffness-factor", joined(factors, 0, factors.size()));
  // HexahedronFEMForceField: the stiffness of the rest shape, computed once, unless asked
  // to follow the state, which ours does not.
  if (o.type != "TetrahedronFEMForceField" && o.type != "TetrahedralCorotationalFEMForceField" &&
      r.boolean(o, "updateStiffnessMatrix", false))
    r.reject(o, "updateStiffnessMatrix", "a stiffness recomputed every step is not supported");
  // TetrahedronFEMForceField's plasticity: plasticMaxThreshold 0 (off while <= 0),
  // plasticYieldThreshold 1e-4, plasticCreep 0.9, applied by every method but small's
  // assembled path; ours on the corotational element (model/fem_plasticity.hpp).
  const double plasticMax = r.real(o, "plasticMaxThreshold", 0);
  if (plasticMax > 0) {
    if (method == "small")
      r.reject(o, "plasticMaxThreshold", "plasticity with method small is not supported");
    r.key("material.plastic-max-threshold", parse::text(plasticMax));
    r.key("material.plastic-yield-threshold",
          parse::text(r.real(o, "plasticYieldThreshold", 1e-4)));
    r.key("material.plastic-creep", parse::text(r.real(o, "plasticCreep", 0.9)));
  }
}

// TetrahedronHyperelasticityFEMForceField.inl: materialName ArrudaBoyce, ParameterSet copied
// as is, [0] mu and [1] lambda for three of these, [0] mu and [1] the bulk modulus k0 for
// ArrudaBoyce, ours k0 = lambda + 2 mu/3; MooneyRivlin's "C10 C01 K0" and Ogden's
// "MU1 ALPHA1 K0" as they are (docs/sofa-hyperelastic.md).
// StandardTetrahedralFEMForceField.inl: the same materials' deriveSPKTensor, the same force
// -F S s_a V (as B^T S) and the same tangent: its 6x6 ElasticityTensor applied to the strain
// B_l with halved shears is, for these three, applyElasticityTensor of twice that strain, and
// it stores the same edge blocks (in addForce rather than in addDForce). So it is for
// MooneyRivlin, whose ElasticityTensor applied to a strain with halved shears equals its
// applyElasticityTensor of twice that strain to rounding (1e-16 relative on random strains and
// deformations, docs/sofa-hyperelastic.md). It has no StableNeoHookean (an error there), and
// declares ParameterFile without reading it; its Ogden is not checked against ours, so it stays
// refused on it.
void mapHyperelasticFem(Reader& r, const SofaObject& o) {
  const bool standard = o.type == "StandardTetrahedralFEMForceField";
  const std::string name = r.text(o, "materialName").value_or("ArrudaBoyce");
  std::vector<std::pair<std::string, std::string>> models = {{"StVenantKirchhoff", "stvk"},
                                                              {"NeoHookean", "neohookean"},
                                                              {"ArrudaBoyce", "arruda-boyce"},
                                                              {"MooneyRivlin", "mooney-rivlin"}};
  if (!standard) {
    models.emplace_back("StableNeoHookean", "stable-neohookean");
    models.emplace_back("Ogden", "ogden");
  }
  std::string model;
  for (const auto& [sofaName, ours] : models)
    if (name == sofaName) model = ours;
  if (model.empty())
    r.reject(o, "materialName",
             name + (standard ? " is not implemented; ArrudaBoyce, StVenantKirchhoff, "
                                "NeoHookean and MooneyRivlin are"
                              : " is not implemented; ArrudaBoyce, StVenantKirchhoff, NeoHookean, "
                                "StableNeoHookean, MooneyRivlin and Ogden are"));
  const std::vector<double> parameters = r.reals(o, "ParameterSet");
  r.refuseIfGiven(o, "AnisotropyDirections", "anisotropic materials are not supported");
  if (!standard) r.refuseIfGiven(o, "ParameterFile", "a parameter file is not supported");
  r.key("material.model", model);
  r.key("material.cells", "tetrahedron");
  if (model == "mooney-rivlin" || model == "ogden") {
    if (parameters.size() != 3)
      r.reject(o, "ParameterSet",
               model == "ogden" ? "expected the three parameters mu1, alpha1 and k0"
                                : "expected the three parameters C10, C01 and k0");
    r.key("material.law-parameters", joined(parameters, 0, 3));
    return;
  }
  if (parameters.size() != 2)
    r.reject(o, "ParameterSet",
             model == "arruda-boyce" ? "expected the two parameters mu and k0"
                                     : "expected the two Lame parameters mu and lambda");
  const double second =
      model == "arruda-boyce" ? parameters[1] - 2.0 * parameters[0] / 3.0 : parameters[1];
  r.key("material.lame", parse::text(parameters[0]) + " " + parse::text(second));
}

// HexahedronFEMForceFieldAndMass.inl: HexahedronFEMForceField's stiffness and its own element
// mass, density 1, lumpedMass false (model/hexahedron_fem.hpp, sofaHexahedronMass: SOFA's
// integrateMass makes every entry 8/27 density V, and gravity acts on density V / 8 a vertex).
void mapHexahedronFemAndMass(Reader& r, const SofaObject& o) {
  mapLinearElasticFem(r, o);
  r.refuseIfGiven(o, "massMatrices", "element mass matrices given in the scene are not supported");
  r.key("mass.type",
        r.boolean(o, "lumpedMass", false) ? "hexahedron-fem-lumped" : "hexahedron-fem");
  r.key("material.density", parse::text(r.real(o, "density", 1.0)));
}

// HexahedralFEMForceField.inl: method "large" or "polar" (another leaves its method unset: it
// is refused), youngModulus and poissonRatio as BaseLinearElasticityFEMForceField reads them;
// its own element (model/hexahedral_fem.hpp), on the topology's hexahedra.
void mapHexahedralFem(Reader& r, const SofaObject& o) {
  r.key("material.cells", "hexahedron");
  r.key("material.hexahedron-element", "hexahedral-fem");
  const std::string method = r.text(o, "method").value_or("large");
  if (method != "large" && method != "polar")
    r.reject(o, "method", "expected large or polar (SOFA's HexahedralFEMForceField has no other)");
  r.key("material.model", "corotational");
  r.key("material.rotation", method);
  mapElasticConstants(r, o, true);
  if (r.real(o, "rayleighStiffness", 0) != 0)
    r.reject(o, "rayleighStiffness", "a force field's own Rayleigh damping is not supported");
  r.refuseIfGiven(o, "hexahedronInfo", "element data given in the scene is not supported");
}

// HexahedralFEMForceFieldAndMass.inl: density 1, lumpedMass false. Its element mass is
// HexahedronFEMForceFieldAndMass's (every entry of the 8x8 matrix on each component the element's
// mass density V times integrateVolume's constant, V the product of the rest edges 0->1, 0->3,
// 0->4 turned into the frame, the same lengths; gravity on density V / 8 a vertex; lumped: the
// row sums), so it is our mass.type hexahedron-fem. Its massMatrices, totalMass (per element),
// particleMasses and lumpedMasses are outputs. A matrix-free CG (SOFA's CGLinearSolver)
// multiplies by the whole element matrices, as our solvers do.
void mapHexahedralFemAndMass(Reader& r, const SofaObject& o) {
  mapHexahedralFem(r, o);
  // Its addMToMatrix, addKToMatrix and addMBKToMatrix add only each vertex's own 3x3 blocks:
  // an assembling (direct) solver would solve with that matrix, a CG with the whole one.
  if (r.gaveValue("solver.linear") == "direct")
    r.reject(o, "density",
             "with a direct solver SOFA assembles only the diagonal 3x3 blocks of this element's "
             "mass and stiffness (addMBKToMatrix): not reproduced");
  for (const char* field : {"massMatrices", "totalMass", "particleMasses", "lumpedMasses"})
    r.refuseIfGiven(o, field, "element masses given in the scene are not supported");
  r.key("mass.type",
        r.boolean(o, "lumpedMass", false) ? "hexahedron-fem-lumped" : "hexahedron-fem");
  r.key("material.density", parse::text(r.real(o, "density", 1.0)));
}

// FastTetrahedralCorotationalForceField.inl: method "qr" (also "large"), "polar", "polar2" or
// "none" (also "linear", "small"); youngModulus and poissonRatio as lists. Its force is
// R K0 (R^T x - X) summed over edges and its tangent R K0 R^T, K0 the linear element of the Lame
// constants: qr's R is large's frame, polar2's the polar factor of the edge matrix (polar's),
// none the linear element; its polar takes the polar factor of the deformation gradient
// (model/corotational_fem.hpp, polar-gradient).
void mapFastCorotational(Reader& r, const SofaObject& o) {
  r.key("material.cells", "tetrahedron");
  const std::string method = r.text(o, "method").value_or("qr");
  if (method == "none" || method == "linear" || method == "small") {
    r.key("material.model", "linear");
  } else if (method == "qr" || method == "large" || method == "polar" || method == "polar2") {
    r.key("material.model", "corotational");
    r.key("material.rotation", method == "polar"    ? "polar-gradient"
                               : method == "polar2" ? "polar"
                                                    : "large");
  } else {
    r.reject(o, "method", "expected qr, large, polar, polar2, none, linear or small");
  }
  mapElasticConstants(r, o, true);
  if (r.real(o, "rayleighStiffness", 0) != 0)
    r.reject(o, "rayleighStiffness", "a force field's own Rayleigh damping is not supported");
  for (const char* field : {"pointInfo", "edgeInfo", "tetrahedronInfo"})
    r.refuseIfGiven(o, field, "element data given in the scene is not supported");
}

// TetrahedralTensorMassForceField.inl: youngModulus 1000, poissonRatio 0.3 (one number each).
// Per edge of each tetrahedron it stores lambda |V| s_l s_k^T + mu |V| (s_k s_l^T + (s_k . s_l)
// I), s the shape vectors (the gradients of the barycentric coordinates), the linear element's
// block (l, k), and takes f_l += DfDx (u_l - u_k), f_k -= DfDx^T (u_l - u_k) on u = x - X, its
// stiffness the same blocks: the linear element's force and stiffness, edge by edge
// (tests/unit/test_tensor_mass.cpp).
void mapTensorMass(Reader& r, const SofaObject& o) {
  r.key("material.cells", "tetrahedron");
  r.key("material.model", "linear");
  for (const auto& [field, fallback] :
       {std::pair<const char*, double>{"youngModulus", 1000.0}, {"poissonRatio", 0.3}}) {
    const std::vector<double> values = r.reals(o, field);
    if (values.size() > 1) r.reject(o, field, "expected one number");
    r.key(
        std::string(field) == "youngModulus" ? "material.young-modulus" : "material.poisson-ratio",
        parse::text(values.empty() ? fallback : values[0]));
  }
  if (r.real(o, "rayleighStiffness", 0) != 0)
    r.reject(o, "rayleighStiffness", "a force field's own Rayleigh damping is not supported");
  r.refuseIfGiven(o, "edgeInfo", "element data given in the scene is not supported");
}

}  // namespace

const RegisterSofaMapping tensorMass({"TetrahedralTensorMassForceField"}, mapTensorMass);
const RegisterSofaMapping fastCorotational({"FastTetrahedralCorotationalForceField"},
                                           mapFastCorotational);
const RegisterSofaMapping hexahedralFem({"HexahedralFEMForceField"}, mapHexahedralFem);
const RegisterSofaMapping hexahedralFemAndMass({"HexahedralFEMForceFieldAndMass"},
                                               mapHexahedralFemAndMass);
const RegisterSofaMapping hexahedronFemAndMass({"HexahedronFEMForceFieldAndMass"},
                                               mapHexahedronFemAndMass);
const RegisterSofaMapping linearElastic({"TetrahedronFEMForceField",
                                         "TetrahedralCorotationalFEMForceField",
                                         "HexahedronFEMForceField",
                                         "ParallelHexahedronFEMForceField"},
                                        mapLinearElasticFem);
const RegisterSofaMapping hyperelastic({"TetrahedronHyperelasticityFEMForceField",
                                        "StandardTetrahedralFEMForceField"},
                                       mapHyperelasticFem);

}  // namespace eis::sofa
