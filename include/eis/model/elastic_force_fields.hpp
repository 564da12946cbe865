#pragma once
// The elastic force field of an elasticity scene: SOFA's TetrahedronFEMForceField (small, large,
// polar) or a hyperelastic law (material.model, material.rotation), with each cell's material
// (model/cell_materials.hpp).
#include <array>
#include <memory>
#include <optional>
#include <vector>

#include "eis/model/cell_materials.hpp"
#include "eis/model/cell_shapes.hpp"
#include "eis/model/corotational_fem.hpp"
#include "eis/model/force_field_component.hpp"
#include "eis/model/nonuniform_hexahedron.hpp"

namespace eis {

enum class MaterialModel {
  Linear,
  Corotational,
  StVenantKirchhoff,
  NeoHookean,
  StableNeoHookean,
  ArrudaBoyce,
  MooneyRivlin,
  Ogden,
  None  // no elastic force field: the scene's forces come from its other components
};
inline constexpr Named<MaterialModel> kMaterialModels[] = {
    {"linear", MaterialModel::Linear},
    {"corotational", MaterialModel::Corotational},
    {"stvk", MaterialModel::StVenantKirchhoff},
    {"neohookean", MaterialModel::NeoHookean},
    {"stable-neohookean", MaterialModel::StableNeoHookean},
    {"arruda-boyce", MaterialModel::ArrudaBoyce},
    {"mooney-rivlin", MaterialModel::MooneyRivlin},
    {"ogden", MaterialModel::Ogden},
    {"none", MaterialModel::None}};

// Which of SOFA's hexahedral elements a hexahedral mesh gets (material.hexahedron-element).
enum class HexahedronElement { HexahedronFem, HexahedralFem };
inline constexpr Named<HexahedronElement> kHexahedronElements[] = {
    {"hexahedron-fem", HexahedronElement::HexahedronFem},
    {"hexahedral-fem", HexahedronElement::HexahedralFem}};

struct ElasticMaterial {
  MaterialModel model = MaterialModel::Linear;
  RotationMethod rotation = RotationMethod::Large;
  HexahedronElement hexahedron = HexahedronElement::HexahedronFem;
  std::vector<LameParameters> lame;       // one per cell
  std::array<double, 3> lawParameters{};  // mooney-rivlin's and ogden's (material.law-parameters)
  HexahedronRefinement refinement;   // hexahedra: the finer cells their stiffness condenses
  Plasticity plasticity;             // corotational tetrahedra only
};

// cells: four local vertex indices each (material.model other than none) (input vertex order),
// material.lame one per cell; shapes: their rest geometry, which must outlive the field; rest: rest
// positions as a local array, 3 per local vertex.
std::unique_ptr<ForceField> makeElasticForceField(const ElasticMaterial& material,
                                                  const Cells& cells, const CellShapes& shapes,
                                                  std::vector<double> rest);

// The elastic-fem component's parameters, read once from a scene by readElasticFemParameters
// (the only reader of its keys, beside its declaration).
struct ElasticFemParameters {
  MaterialModel model;               // material.model
  RotationMethod rotation;           // material.rotation
  std::optional<CellType> cells;     // material.cells: none for any
  HexahedronElement hexahedron;      // material.hexahedron-element
  CellMaterialParameters materials;  // material.young-modulus .. material.region
  std::vector<int> hexahedronCut;    // material.hexahedron-cut: empty unless given
  int finerLevels;                   // material.virtual-finer-levels
  std::vector<double> finerFactors;  // material.cell-finer-stiffness-factor: empty unless given
  Plasticity plasticity;             // material.plastic-*
  std::optional<std::array<double, 3>> lawParameters;  // material.law-parameters
  FinerHomogenisation finerHomogenisation;             // material.finer-homogenisation
};
ElasticFemParameters readElasticFemParameters(const Parameters& scene);

// The elastic force field the parameters ask for on this rank's part of the mesh, or nullptr for
// material.model = none.
std::unique_ptr<ForceField> makeElasticFem(const ModelContext& context,
                                           const ElasticFemParameters& parameters);

ForceFieldComponent elasticFemComponent();

}  // namespace eis
