#include "eis/model/rest_shape_springs.hpp"

namespace eis {

RestShapeSprings::RestShapeSprings(const DistributedMesh& mesh, const std::vector<Spring>& springs,
                                   const std::string& key)
    : mesh_(mesh), rest_(restArray(mesh)), stiffness_(mesh.numLocalVertices(), 0.0) {
  for (std::size_t s = 0; s < springs.size(); ++s) {
    const SelectedNodes nodes = selectNodes(mesh, springs[s].selection, key);
    nodesPerSet_.push_back(nodes.count);
    for (auto v : nodes.vertices) stiffness_[v] += springs[s].stiffness;
  }
  const std::vector<double> cells = cellsPerVertex(mesh);
  cellShare_.resize(stiffness_.size());
  for (std::size_t v = 0; v < stiffness_.size(); ++v) {
    cellShare_[v] = stiffness_[v] / cells[v];
    if (stiffness_[v] != 0 && mesh.owned()[v]) owned_.push_back(PetscInt(v));
  }
}

void RestShapeSprings::addForce(const double* x, const double*, double* f) {
  for (auto v : owned_)
    for (int d = 0; d < 3; ++d) f[3 * v + d] -= stiffness_[v] * (x[3 * v + d] - rest_[3 * v + d]);
}

void RestShapeSprings::addDForce(const double* dx, double* df, double kFactor) const {
  for (auto v : owned_)
    for (int d = 0; d < 3; ++d) df[3 * v + d] -= kFactor * stiffness_[v] * dx[3 * v + d];
}

void RestShapeSprings::addKToElementMatrices(double* elementMatrices, double kFactor,
                                             CellRange range) const {
  const auto& cells = mesh_.cells();
  for (std::size_t c = range.begin; c < range.end; ++c) {
    double* block = elementMatrices + (c - range.begin) * 144;
    for (int a = 0; a < 4; ++a)
      for (int d = 0; d < 3; ++d)
        block[(3 * a + d) * 12 + 3 * a + d] -= kFactor * cellShare_[cells[c][a]];
  }
}

double RestShapeSprings::potentialEnergy(const double* x) const {
  double energy = 0;
  for (auto v : owned_)
    for (int d = 0; d < 3; ++d) {
      const double u = x[3 * v + d] - rest_[3 * v + d];
      energy += 0.5 * stiffness_[v] * u * u;
    }
  return energy;
}

ForceFieldComponent restShapeSpringsComponent() {
  return {
      {"rest-shape-springs", "force field",
       "springs tying nodes to their rest positions (SOFA RestShapeSpringsForceField)",
       ParameterSpec().add(
           {"springs.rest-shape", "\"K SELECTION\"",
            "a spring of stiffness K (SOFA `stiffness`, one value for all its points) from each\n"
            "selected node to its rest position: f = -K (x - x_rest) (SOFA\n"
            "RestShapeSpringsForceField; SELECTION plays `points`, and `all` is SOFA's default\n"
            "of every node). Repeatable; springs on one node add up.",
            std::nullopt, "force/length", true,
            [](const std::string& key, const std::string& text) {
              if (parseSelectionValue(key, text, 1).numbers[0] < 0)
                parse::reject(key, text, "the stiffness must be >= 0");
            }}),
       [](Scene& scene) {
         requireElasticity(scene, "springs.rest-shape", !scene.texts("springs.rest-shape").empty());
       }},
      Physics::Elasticity,
      [](const ModelContext& context, const Parameters& scene) -> std::unique_ptr<ForceField> {
        const Texts texts = scene.texts("springs.rest-shape");
        if (texts.empty()) return nullptr;
        std::vector<RestShapeSprings::Spring> springs;
        for (const std::string& text : texts) {
          const SelectionValue value = parseSelectionValue("springs.rest-shape", text, 1);
          springs.push_back({value.selection, value.numbers[0]});
        }
        auto field =
            std::make_unique<RestShapeSprings>(context.mesh, springs, "springs.rest-shape");
        for (std::size_t s = 0; s < texts.size(); ++s)
          if (field->nodesPerSet()[s] == 0)
            context.warnings.push_back(emptySelectionWarning("springs.rest-shape", texts[s]));
        return field;
      }};
}

}  // namespace eis
