#include "eis/model/elastic_force_fields.hpp"

#include <algorithm>

#include "eis/core/error.hpp"
#include "eis/model/cell_materials.hpp"
#include "eis/model/cut_cells.hpp"
#include "eis/model/hexahedral_fem.hpp"
#include "eis/model/hexahedron_fem.hpp"
#include "eis/model/hyperelastic_fem.hpp"
#include "eis/model/linear_elastic_fem.hpp"
#include "eis/model/nonuniform_hexahedron.hpp"

namespace eis {

namespace {

// SOFA's HexahedronFEMForceField: the linear element (method small) or the corotated one (large,
// polar), as the material asks for on tetrahedra; or SOFA's HexahedralFEMForceField (large,
// polar).
std::unique_ptr<ForceField> makeHexahedralField(const ElasticMaterial& material, const Cells& cells,
                                                std::vector<double> rest) {
  if (material.hexahedron == HexahedronElement::HexahedralFem) {
    if (material.refinement.levels > 0)
      throw Error(
          "material.virtual-finer-levels: SOFA condenses finer cells into "
          "HexahedronFEMForceField's element (NonUniformHexahedronFEMForceFieldAndMass), not "
          "HexahedralFEMForceField's");
    if (material.model != MaterialModel::Corotational ||
        (material.rotation != RotationMethod::Large && material.rotation != RotationMethod::Polar))
      throw Error(
          "material.hexahedron-element = hexahedral-fem: SOFA's HexahedralFEMForceField is "
          "corotational only (material.model = corotational, material.rotation large or polar)");
    return std::make_unique<HexahedralFEM>(cells, std::move(rest), material.lame,
                                           material.rotation == RotationMethod::Large
                                               ? HexahedronMethod::Large
                                               : HexahedronMethod::Polar);
  }
  switch (material.model) {
    case MaterialModel::Linear:
      return std::make_unique<HexahedronFEM>(cells, std::move(rest), material.lame,
                                             HexahedronMethod::Small, &material.refinement);
    case MaterialModel::Corotational:
      if (material.rotation != RotationMethod::Large && material.rotation != RotationMethod::Polar)
        throw Error(
            "material.rotation: SOFA's HexahedronFEMForceField has no svd or polar-gradient "
            "method; on hexahedra it is large or polar");
      return std::make_unique<HexahedronFEM>(cells, std::move(rest), material.lame,
                                             material.rotation == RotationMethod::Large
                                                 ? HexahedronMethod::Large
                                                 : HexahedronMethod::Polar,
                                             &material.refinement);
    default:
      throw Error(
          "material.model: on hexahedra the elastic models are linear and corotational (SOFA's "
          "HexahedronFEMForceField); the hyperelastic laws are integrated on tetrahedra only");
  }
}

}  // namespace

std::unique_ptr<ForceField> makeElasticForceField(const ElasticMaterial& material,
                                                  const Cells& cells, const CellShapes& shapes,
                                                  std::vector<double> rest) {
  if (material.model != MaterialModel::None && cells.type() == CellType::Hexahedron)
    return makeHexahedralField(material, cells, std::move(rest));
  std::vector<LameParameters> lame = material.lame;
  switch (material.model) {
    case MaterialModel::Linear:
      return std::make_unique<LinearElasticFEM>(cells, shapes, std::move(rest), std::move(lame));
    case MaterialModel::Corotational:
      return std::make_unique<CorotationalFEM>(cells, shapes, std::move(rest), std::move(lame),
                                               material.rotation, material.plasticity);
    case MaterialModel::StVenantKirchhoff:
      return std::make_unique<HyperelasticFEM>(cells, shapes, std::move(rest), std::move(lame),
                                               HyperelasticFEM::Law::StVenantKirchhoff);
    case MaterialModel::NeoHookean:
      return std::make_unique<HyperelasticFEM>(cells, shapes, std::move(rest), std::move(lame),
                                               HyperelasticFEM::Law::NeoHookean);
    case MaterialModel::StableNeoHookean:
      return std::make_unique<HyperelasticFEM>(cells, shapes, std::move(rest), std::move(lame),
                                               HyperelasticFEM::Law::StableNeoHookean);
    case MaterialModel::ArrudaBoyce:
      return std::make_unique<HyperelasticFEM>(cells, shapes, std::move(rest), std::move(lame),
                                               HyperelasticFEM::Law::ArrudaBoyce);
    case MaterialModel::MooneyRivlin:
      return std::make_unique<HyperelasticFEM>(cells, shapes, std::move(rest), std::move(lame),
                                               HyperelasticFEM::Law::MooneyRivlin,
                                               material.lawParameters);
    case MaterialModel::Ogden:
      return std::make_unique<HyperelasticFEM>(cells, shapes, std::move(rest), std::move(lame),
                                               HyperelasticFEM::Law::Ogden, material.lawParameters);
    case MaterialModel::None: break;
  }
  throw Error("no elastic force field to make for this material model");
}

namespace {

void checkPoissonList(const std::string& key, const std::string& text) {
  const auto values = parse::reals(key, text, 0);
  if (std::any_of(values.begin(), values.end(), [](double nu) { return !(nu > -1 && nu < 0.5); }))
    parse::reject(key, text, "each must be in (-1, 0.5)");
}

void checkCellModuli(const std::string& key, const std::string& text) {
  const auto values = parse::reals(key, text, 0);
  if (values.empty() || std::any_of(values.begin(), values.end(), [](double e) { return e < 0; }))
    parse::reject(key, text, "expected one modulus >= 0 a cell, at least one");
}

void checkFinerFactors(const std::string& key, const std::string& text) {
  const auto values = parse::reals(key, text, 0);
  if (values.empty() || std::any_of(values.begin(), values.end(), [](double f) { return f < 0; }))
    parse::reject(key, text, "expected factors >= 0, 8^L a cell");
}

void checkLame(const std::string& key, const std::string& text) {
  const auto values = parse::reals(key, text, 2);
  if (!(values[0] > 0) || !(3 * values[1] + 2 * values[0] > 0))
    parse::reject(key, text, "expected MU > 0 and a positive bulk modulus, 3 LAMBDA + 2 MU > 0");
}

void checkLawParameters(const std::string& key, const std::string& text) {
  const auto values = parse::reals(key, text, 3);
  if (!(values[2] > 0)) parse::reject(key, text, "expected a bulk modulus K0 > 0");
}

void checkHexahedronCut(const std::string& key, const std::string& text) {
  const std::vector<int> slots = parse::integers(key, text, 0);
  if (slots.empty() || slots.size() % 24 != 0 ||
      std::any_of(slots.begin(), slots.end(), [](int s) { return s < 0 || s > 7; }))
    parse::reject(key, text, "expected 24 slots in 0..7 a hexahedron");
}

// material.cells: the cell type an elastic model is written for, or none in particular.
constexpr Named<int> kElementCells[] = {{"any", 0}, {"tetrahedron", 1}, {"hexahedron", 2}};
const std::optional<CellType> kCellsOfElement[] = {std::nullopt, CellType::Tetrahedron,
                                                   CellType::Hexahedron};

ParameterSpec elasticParameters() {
  return ParameterSpec()
      .add(
          {"material.model",
           "linear|corotational|stvk|neohookean|stable-neohookean|arruda-boyce|mooney-rivlin|ogden|"
           "none",
           "linear: small-strain linear elasticity (SOFA TetrahedronFEMForceField method=\"small\");\n"
           "corotational: SOFA's method=\"large\" or \"polar\" (material.rotation), the linear element\n"
           "stiffness rotated with each element, with SOFA's tangent R K0 R^T (no derivative of R);\n"
           "stvk: St Venant-Kirchhoff, psi = lambda/2 (tr E)^2 + mu tr(E^2); neohookean:\n"
           "psi = mu/2 (tr C - 3) - mu ln J + lambda/2 (ln J)^2 (an inverted element is an error);\n"
           "stable-neohookean: SOFA's StableNeoHookean, psi = mu/2 (tr C - 3) + k/2 (J - alpha)^2,\n"
           "k = lambda + mu, alpha = 1 + mu/k (J = 0 is an error); arruda-boyce: SOFA's ArrudaBoyce,\n"
           "psi = mu sum_i c_i (Ib^i - 3^i) + k0/2 (ln J)^2, Ib = J^(-2/3) tr C, five terms, locking\n"
           "stretch^2 8, k0 = lambda + 2 mu/3 (an inverted element is an error); mooney-rivlin:\n"
           "SOFA's MooneyRivlin, psi = C10 (J^(-2/3) I1 - 3) + C01 (J^(-4/3) I2 - 3) + K0/2 (ln J)^2;\n"
           "ogden: SOFA's Ogden, psi = MU1/ALPHA1^2 (J^(-ALPHA1/3) tr C^(ALPHA1/2) - 3)\n"
           "+ K0/2 (ln J)^2 (these two take material.law-parameters); all with\n"
           "their exact tangent, SOFA's TetrahedronHyperelasticityFEMForceField materials (see\n"
           "docs/sofa-hyperelastic.md). Nonlinear models are re-assembled every step. none: no\n"
           "elastic force field at all (springs, a mass and loads only; what a SOFA scene without\n"
           "a FEM force field gets).",
           "linear", "", false, check::choice(kMaterialModels)})
      .add(
          {"material.rotation", "large|polar|svd|polar-gradient",
           "corotational frame, as SOFA's TetrahedronFEMForceField method: large builds it from the\n"
           "element's vertices 0, 1, 2 in the mesh file's order; polar is the rotation of the polar\n"
           "decomposition of the matrix of edges 0->1, 0->2, 0->3 (so it too depends on the order);\n"
           "svd is polar's while no element's det F falls below 1e-6, where SOFA switches to a\n"
           "stable SVD (not implemented: such an element stops the step with an error);\n"
           "polar-gradient (tetrahedra only) the rotation of the polar decomposition of the\n"
           "deformation gradient F, SOFA's FastTetrahedralCorotationalForceField method=\"polar\"",
           "large", "", false, check::choice(kRotationMethods)})
      .add(
          {"material.cells", "any|tetrahedron|hexahedron",
           "the cells the elastic model is written for: any takes the mesh's (a tetrahedral or\n"
           "hexahedral element, as the mesh has); tetrahedron or hexahedron refuses a mesh of the\n"
           "other kind (a SOFA TetrahedronFEMForceField or HexahedronFEMForceField reads only its\n"
           "own)",
           "any", "", false, check::choice(kElementCells)})
      .add(
          {"material.hexahedron-element", "hexahedron-fem|hexahedral-fem",
           "on hexahedra: hexahedron-fem is SOFA's HexahedronFEMForceField (Gauss stiffness of\n"
           "the element's rest shape); hexahedral-fem SOFA's HexahedralFEMForceField (corotational\n"
           "only, large or polar: a box's closed-form stiffness from the rest diagonal, its\n"
           "entries in single precision, as SOFA computes it; see model/hexahedral_fem.hpp)",
           "hexahedron-fem", "", false, check::choice(kHexahedronElements)})
      .add({"material.hexahedron-cut", "\"S0 S1 .. S23 ..\"",
            "on hexahedra, the tetrahedral element (material.cells = tetrahedron) on each\n"
            "hexahedron cut into six tetrahedra: 24 corner slots (0..7, the hexahedron's vertex\n"
            "order) a hexahedron, four a tetrahedron, for every input hexahedron in order, or 24\n"
            "for all alike (SOFA's TetrahedronFEMForceField on a grid, or on a\n"
            "Hexa2TetraTopologicalMapping's tetrahedra, beside a mass or springs on its hexahedra)",
            std::nullopt, "", false, checkHexahedronCut})
      .add({"material.young-modulus", "E", "Young's modulus, > 0", "1e5", "force/area", false,
            check::positive()})
      .add({"material.poisson-ratio", "NU", "Poisson's ratio, in (-1, 0.5)", "0.3", "", false,
            check::within(-1, 0.5)})
      .add(
          {"material.lame", "\"MU LAMBDA\"",
           "the Lame parameters instead of E and NU, in SOFA's ParameterSet order (mu first); for\n"
           "arruda-boyce, whose ParameterSet is \"MU K0\", LAMBDA = K0 - 2 MU/3",
           std::nullopt, "force/area", false, checkLame})
      .add(
          {"material.law-parameters", "\"P0 P1 P2\"",
           "mooney-rivlin's \"C10 C01 K0\" or ogden's \"MU1 ALPHA1 K0\" (SOFA's ParameterSet), the\n"
           "same in every cell; required by those two models, refused by the others",
           std::nullopt, "", false, checkLawParameters})
      .add(
          {"material.region", "\"GROUP E NU\"",
           "Young's modulus and Poisson's ratio of the tetrahedra of a physical group (name or\n"
           "tag; it must hold tetrahedra); cells in no listed group keep the uniform material.\n"
           "Repeatable, one group each.",
           std::nullopt, "force/area", true,
           [](const std::string& key, const std::string& text) { parseRegionMaterial(key, text); }})
      .add(
          {"material.cell-young-modulus", "\"E0 E1 ..\"",
           "Young's modulus per input tetrahedron, in file order (SOFA TetrahedronFEMForceField\n"
           "youngModulus list): tetrahedron i takes Ei, or E0 when the list is shorter than i + 1;\n"
           "refined cells take their parent's. 0: no stiffness in that cell (the cells of a body\n"
           "that none of its mapped children's FEM force fields covers)",
           std::nullopt, "force/area", false, checkCellModuli})
      .add({"material.cell-poisson-ratio", "\"NU0 NU1 ..\"",
            "Poisson's ratio per input tetrahedron, with the same rule (SOFA's poissonRatio list)",
            std::nullopt, "", false, checkPoissonList})
      .add({"material.cell-stiffness-factor", "\"F0 F1 ..\"",
            "factors of Young's modulus over the input tetrahedra (SOFA TetrahedronFEMForceField\n"
            "localStiffnessFactor): with M factors and N tetrahedra, tetrahedron i's modulus is\n"
            "F[i M / N] (integer division) times its own",
            std::nullopt, "", false, check::positives(0)})
      .add({"material.virtual-finer-levels", "L",
            "hexahedra: each cell's stiffness condensed from its 8^L cells L levels finer (SOFA\n"
            "NonUniformHexahedronFEMForceFieldAndMass nbVirtualFinerLevels): each finer cell's\n"
            "element stiffness times its material.cell-finer-stiffness-factor, pulled back\n"
            "through the trilinear interpolation of its parent's vertices; 0: none",
            "0", "", false, check::integerAtLeast(0)})
      .add({"material.cell-finer-stiffness-factor", "\"F0 F1 ..\"",
            "with material.virtual-finer-levels L: 8^L factors >= 0 per input cell, in its order,\n"
            "its finer cells in SOFA's child order (bit 0: x, bit 1: y, bit 2: z; the first\n"
            "level slowest); 0 for a finer cell the grid does not keep (SOFA's sparse grid\n"
            "getStiffnessCoef of its finer levels)",
            std::nullopt, "", false, checkFinerFactors})
      .add({"material.finer-homogenisation", "trilinear|static",
            "with material.virtual-finer-levels: trilinear pulls each finer cell's stiffness back\n"
            "through the trilinear interpolation (NonUniformHexahedronFEMForceFieldAndMass);\n"
            "static condenses the 27 vertices of each cell's 8 children level by level, the 8\n"
            "corners held and a stiff element in empty children, the weights kept between\n"
            "corners and normalised (HexahedronCompositeFEMForceFieldAndMass;\n"
            "model/composite_hexahedron.hpp)",
            "trilinear", "", false, check::choice(kFinerHomogenisations)})
      .add(
          {"material.plastic-max-threshold", "PMAX",
           "plasticity of SOFA's TetrahedronFEMForceField (plasticMaxThreshold; corotational\n"
           "tetrahedra only): the largest norm of an element's plastic strain, 0 or less for none.\n"
           "SOFA's strain unit: the Voigt strain (engineering shears) times 6 V\n"
           "(model/fem_plasticity.hpp)",
           "0", "", false, check::real()})
      .add({"material.plastic-yield-threshold", "PYIELD",
            "the norm of the elastic strain past which it creeps into the plastic one (SOFA's\n"
            "plasticYieldThreshold, in the same unit)",
            "0.0001", "", false, check::real()})
      .add({"material.plastic-creep", "C",
            "the fraction of the elastic strain that turns plastic at each force evaluation past\n"
            "the yield (SOFA's plasticCreep, meant to be in [0, 1]; it depends on the time step)",
            "0.9", "", false, check::real()});
}

}  // namespace

ForceFieldComponent elasticFemComponent() {
  return {{"elastic-fem", "force field",
           "linear, corotational or hyperelastic tetrahedra (SOFA TetrahedronFEMForceField, "
           "TetrahedronHyperelasticityFEMForceField)",
           elasticParameters(), nullptr},
          Physics::Elasticity,
          forceFieldMaker(readElasticFemParameters, makeElasticFem)};
}

ElasticFemParameters readElasticFemParameters(const Parameters& scene) {
  ElasticFemParameters p;
  p.model = scene.choice("material.model", kMaterialModels);
  p.rotation = scene.choice("material.rotation", kRotationMethods);
  p.cells = kCellsOfElement[scene.choice("material.cells", kElementCells)];
  p.hexahedron = scene.choice("material.hexahedron-element", kHexahedronElements);
  CellMaterialParameters& m = p.materials;
  m.youngModulus = scene.real("material.young-modulus");
  m.poissonRatio = scene.real("material.poisson-ratio");
  if (scene.given("material.lame")) {
    const std::vector<double> muLambda = scene.reals("material.lame");
    m.lame = {muLambda[0], muLambda[1]};
  }
  if (scene.given("material.cell-young-modulus"))
    m.cellYoungModulus = scene.reals("material.cell-young-modulus");
  if (scene.given("material.cell-poisson-ratio"))
    m.cellPoissonRatio = scene.reals("material.cell-poisson-ratio");
  if (scene.given("material.cell-stiffness-factor"))
    m.cellStiffnessFactor = scene.reals("material.cell-stiffness-factor");
  for (const std::string& text : scene.texts("material.region"))
    m.regions.push_back(parseRegionMaterial("material.region", text));
  if (scene.given("material.law-parameters")) {
    const std::vector<double> values = scene.reals("material.law-parameters");
    p.lawParameters = {{values[0], values[1], values[2]}};
  }
  if (scene.given("material.hexahedron-cut"))
    p.hexahedronCut =
        parse::integers("material.hexahedron-cut", scene.text("material.hexahedron-cut"), 0);
  p.finerLevels = scene.integer("material.virtual-finer-levels");
  if (scene.given("material.cell-finer-stiffness-factor"))
    p.finerFactors = scene.reals("material.cell-finer-stiffness-factor");
  p.finerHomogenisation = scene.choice("material.finer-homogenisation", kFinerHomogenisations);
  p.plasticity = {scene.real("material.plastic-max-threshold"),
                  scene.real("material.plastic-yield-threshold"),
                  scene.real("material.plastic-creep")};
  return p;
}

namespace {

// Each local hexahedron's 24 slots of material.hexahedron-cut (24 for all, or 24 an input cell).
std::vector<int> localCut(const DistributedMesh& mesh, const std::vector<int>& cut) {
  std::int64_t local = 0, cells = 0;
  for (std::int64_t id : mesh.inputCellIds()) local = std::max(local, id + 1);
  EIS_CHECK_MPI(MPI_Allreduce(&local, &cells, 1, MPI_INT64_T, MPI_MAX, mesh.comm()));
  if (cut.size() != 24 && std::int64_t(cut.size()) != 24 * cells)
    throw Error("material.hexahedron-cut has " + std::to_string(cut.size()) + " slots for " +
                std::to_string(cells) + " hexahedra: give 24 for all, or 24 a hexahedron");
  std::vector<int> out;
  out.reserve(24 * mesh.inputCellIds().size());
  for (std::int64_t id : mesh.inputCellIds()) {
    const auto from = cut.begin() + (cut.size() == 24 ? 0 : 24 * id);
    out.insert(out.end(), from, from + 24);
  }
  return out;
}

// The tetrahedral element on the hexahedra cut as material.hexahedron-cut says, each
// tetrahedron with its hexahedron's material.
std::unique_ptr<ForceField> makeCutElasticFem(const ModelContext& context,
                                              const ElasticFemParameters& parameters,
                                              ElasticMaterial material) {
  const DistributedMesh& mesh = context.mesh;
  if (mesh.cellType() != CellType::Hexahedron)
    throw Error("material.hexahedron-cut: cuts hexahedra, and this mesh has " +
                pluralNameOf(mesh.cellType()));
  if (parameters.cells != CellType::Tetrahedron)
    throw Error(
        "material.hexahedron-cut: the element on the cut is tetrahedral: give "
        "material.cells = tetrahedron");
  const CellMaterialParameters& m = parameters.materials;
  if (m.cellYoungModulus.has_value() || m.cellPoissonRatio.has_value() ||
      m.cellStiffnessFactor.has_value())
    throw Error(
        "material.hexahedron-cut: the material.cell-* lists, per input tetrahedron, "
        "are not supported on a cut (its tetrahedra are no input cells)");
  const std::vector<int> slots = localCut(mesh, parameters.hexahedronCut);
  const std::vector<LameParameters> perCell = cellMaterials(mesh, m, context.warnings);
  if (perCell.size() == mesh.cells().size()) {
    material.lame.clear();
    for (const LameParameters& lame : perCell) material.lame.insert(material.lame.end(), 6, lame);
  } else {
    material.lame = perCell;
  }
  std::vector<double> rest = restArray(mesh);
  std::vector<Vec3> points(rest.size() / 3);
  for (std::size_t i = 0; i < points.size(); ++i)
    points[i] = {rest[3 * i], rest[3 * i + 1], rest[3 * i + 2]};
  std::unique_ptr<ForceField> field;
  std::string failure;
  try {
    field = std::make_unique<CutCellsField>(
        mesh.cells(), CellType::Tetrahedron, 6, slots, std::move(points), 3,
        [&](const Cells& cells, const CellShapes& shapes) {
          return makeElasticForceField(material, cells, shapes, rest);
        });
  } catch (const Error& e) {
    failure = e.what();
  }
  throwIfAnyRankFailed(failure, mesh.comm());
  return field;
}

}  // namespace

std::unique_ptr<ForceField> makeElasticFem(const ModelContext& context,
                                           const ElasticFemParameters& parameters) {
  ElasticMaterial material;
  material.model = parameters.model;
  if (material.model == MaterialModel::None) return nullptr;
  material.rotation = parameters.rotation;
  const bool ownParameters =
      material.model == MaterialModel::MooneyRivlin || material.model == MaterialModel::Ogden;
  if (ownParameters != parameters.lawParameters.has_value())
    throw Error(ownParameters
                    ? "material.model = " + parse::nameOf(material.model, kMaterialModels) +
                          ": give its parameters, material.law-parameters"
                    : "material.law-parameters: only mooney-rivlin and ogden take them");
  if (ownParameters) material.lawParameters = *parameters.lawParameters;
  if (!parameters.hexahedronCut.empty()) return makeCutElasticFem(context, parameters, material);
  if (parameters.cells && *parameters.cells != context.mesh.cellType())
    throw Error("material.cells = " + nameOf(*parameters.cells) +
                ": the elastic model is written for " + pluralNameOf(*parameters.cells) +
                ", and this mesh has " + pluralNameOf(context.mesh.cellType()));
  material.hexahedron = parameters.hexahedron;
  if (material.hexahedron == HexahedronElement::HexahedralFem &&
      context.mesh.cellType() != CellType::Hexahedron)
    throw Error(
        "material.hexahedron-element = hexahedral-fem: SOFA's HexahedralFEMForceField reads "
        "hexahedra, and this mesh has " +
        pluralNameOf(context.mesh.cellType()));
  material.plasticity = parameters.plasticity;
  if (material.plasticity.enabled() && (material.model != MaterialModel::Corotational ||
                                        context.mesh.cellType() != CellType::Tetrahedron))
    throw Error(
        "material.plastic-max-threshold: plasticity (SOFA's TetrahedronFEMForceField "
        "plasticMaxThreshold) is implemented for corotational tetrahedra only (material.model = "
        "corotational)");
  material.lame = cellMaterials(context.mesh, parameters.materials, context.warnings);
  material.refinement =
      localRefinement(context.mesh, parameters.finerLevels, parameters.finerFactors,
                      "material.cell-finer-stiffness-factor");
  material.refinement.homogenisation = parameters.finerHomogenisation;
  // A cell one rank cannot integrate stops every rank.
  std::unique_ptr<ForceField> field;
  std::string failure;
  try {
    field = makeElasticForceField(material, context.mesh.cells(), context.shapes,
                                  restArray(context.mesh));
  } catch (const Error& e) {
    failure = e.what();
  }
  throwIfAnyRankFailed(failure, context.mesh.comm());
  return field;
}

// First of the fields: von Mises stress is the first stress field's.
const RegisterForceField registered(410, elasticFemComponent);

}  // namespace eis
