#include "eis/model/stiffness_factors.hpp"

#include <cmath>

#include "eis/core/error.hpp"
#include "eis/model/cell_materials.hpp"
#include "eis/model/corotational_fem.hpp"
#include "eis/model/elastic_force_fields.hpp"

namespace eis {

void setCellStiffnessFactors(const std::string& name, const Parameters& scene,
                             const DistributedMesh& mesh,
                             const std::vector<std::unique_ptr<ForceField>>& fields,
                             std::vector<double> factors) {
  // SOFA takes any number (a factor <= 0 makes its element's stiffness vanish or change sign).
  for (double f : factors)
    if (!std::isfinite(f))
      throw Error(name + ": each factor must be a finite number, got " + parse::text(f));
  ElasticFemParameters p = readElasticFemParameters(scene);
  CorotationalFEM* field = nullptr;
  int found = 0;
  for (const auto& f : fields)
    if (auto* corotational = dynamic_cast<CorotationalFEM*>(f.get())) {
      field = corotational;
      ++found;
    }
  if (p.model != MaterialModel::Corotational || mesh.cellType() != CellType::Tetrahedron ||
      !p.hexahedronCut.empty())
    throw Error(name +
                ": a controller's factors are applied to the corotational tetrahedra of SOFA's "
                "TetrahedronFEMForceField (method large, polar or svd); this body's elastic "
                "element is " +
                (p.model == MaterialModel::Linear
                     ? std::string("method small, whose matrix is built once")
                     : "material.model = " + parse::nameOf(p.model, kMaterialModels) + " on " +
                           pluralNameOf(mesh.cellType())));
  if (found != 1)
    throw Error(name + ": the body has " + std::to_string(found) +
                " corotational tetrahedral fields; a controller's factors go to exactly one");
  if (factors.empty())
    p.materials.cellStiffnessFactor.reset();
  else
    p.materials.cellStiffnessFactor = std::move(factors);
  std::vector<std::string> warnings;  // the lists' lengths were warned about at the start
  field->setCellMaterials(cellMaterials(mesh, p.materials, warnings));
}

}  // namespace eis
