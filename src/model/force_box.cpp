#include "eis/model/force_box.hpp"

#include "eis/model/selection.hpp"

namespace eis {

ForceBoxes::ForceBoxes(const DistributedMesh& mesh, const std::vector<Load>& loads) {
  const auto& coords = mesh.restCoords();
  for (const auto& load : loads) {
    std::vector<PetscInt> inside;
    for (PetscInt v = 0; v < PetscInt(coords.size()); ++v)
      if (mesh.owned()[v] && load.box.contains(coords[v])) inside.push_back(v);
    std::int64_t count = std::int64_t(inside.size());
    EIS_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, &count, 1, MPI_INT64_T, MPI_SUM, mesh.comm()));
    nodesPerBox_.push_back(count);
    for (auto v : inside) {
      NodalLoad nodal{mesh.ownedOffset(v), {}};
      for (int d = 0; d < 3; ++d) nodal.force[d] = load.force[d] / double(count);
      nodalLoads_.push_back(nodal);
    }
  }
}

void ForceBoxes::addNodalForce(double* fOwned) const {
  for (const auto& load : nodalLoads_)
    for (int d = 0; d < 3; ++d) fOwned[load.offset + d] += load.force[d];
}

ForceFieldComponent forceBoxComponent() {
  return {
      {"force-box", "force field",
       "constant total forces on the nodes of boxes (SOFA ConstantForceField totalForce on a BoxROI)",
       ParameterSpec().add(
           {"load.force-box", "\"XMIN YMIN ZMIN XMAX YMAX ZMAX FX FY FZ\"",
            "a constant total force (FX FY FZ) shared equally by the nodes inside the box, boundary\n"
            "included (SOFA ConstantForceField with totalForce on a BoxROI). Repeatable; a box that\n"
            "selects no node is a warning.",
            std::nullopt, "force", true, check::reals(9)}),
       [](Scene& scene) {
         requireElasticity(scene, "load.force-box", !scene.texts("load.force-box").empty());
       }},
      Physics::Elasticity,
      [](const ModelContext& context, const Parameters& scene) -> std::unique_ptr<ForceField> {
        const Texts texts = scene.texts("load.force-box");
        if (texts.empty()) return nullptr;
        std::vector<ForceBoxes::Load> loads;
        for (const std::string& text : texts) {
          const std::vector<double> v = parse::reals("load.force-box", text, 9);
          loads.push_back({Box::fromCorners(v), {v[6], v[7], v[8]}});
        }
        auto field = std::make_unique<ForceBoxes>(context.mesh, loads);
        for (std::size_t b = 0; b < loads.size(); ++b)
          if (field->nodesPerBox()[b] == 0)
            context.warnings.push_back(emptySelectionWarning("load.force-box", texts[b]));
        return field;
      }};
}

}  // namespace eis
