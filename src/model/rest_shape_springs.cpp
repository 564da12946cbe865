#include "eis/model/rest_shape_springs.hpp"

namespace eis {

RestShapeSprings::RestShapeSprings(const DistributedMesh& mesh, const std::vector<Spring>& springs)
    : mesh_(mesh), rest_(restArray(mesh)), stiffness_(mesh.numLocalVertices(), 0.0) {
  for (std::size_t s = 0; s < springs.size(); ++s) {
    const SelectedNodes nodes = selectNodes(mesh, springs[s].selection, springs[s].key);
    nodesPerSet_.push_back(nodes.count);
    for (auto v : nodes.vertices)
      stiffness_[v] += springs[s].perNode.empty() ? springs[s].stiffness
                                                  : springs[s].perNode.at(mesh.nodeIds()[v]);
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
  const int n = 3 * cells.corners();
  for (std::size_t c = range.begin; c < range.end; ++c) {
    double* block = elementMatrices + (c - range.begin) * n * n;
    for (int a = 0; a < cells.corners(); ++a)
      for (int d = 0; d < 3; ++d)
        block[(3 * a + d) * n + 3 * a + d] -= kFactor * cellShare_[cells[c][a]];
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

namespace {

// "I K [I K ..]": springs on the listed nodes, a repeated node getting the sum.
RestShapeSprings::Spring nodeSprings(const std::string& key, const std::string& text) {
  const Texts tokens = parse::tokens(text);
  if (tokens.empty() || tokens.size() % 2 != 0)
    parse::reject(key, text, "expected pairs: node id, then stiffness");
  RestShapeSprings::Spring spring{Selection(), 0, key};
  spring.selection.kind = Selection::Kind::Indices;
  for (std::size_t i = 0; i < tokens.size(); i += 2) {
    long long id;
    double k;
    if (!parse::number(tokens[i], id) || id < 0)
      parse::reject(key, text, "'" + tokens[i] + "' is not a node id (an integer >= 0)");
    if (!parse::number(tokens[i + 1], k) || k < 0)
      parse::reject(key, text, "'" + tokens[i + 1] + "' is not a stiffness (a number >= 0)");
    spring.perNode[id] += k;
    spring.selection.indices.push_back(id);
  }
  return spring;
}

}  // namespace

ForceFieldComponent restShapeSpringsComponent() {
  return {
      {"rest-shape-springs", "force field",
       "springs tying nodes to their rest positions (SOFA RestShapeSpringsForceField)",
       ParameterSpec()
           .add(
               {"springs.rest-shape", "\"K SELECTION\"",
                "a spring of stiffness K (SOFA `stiffness`, one value for all its points) from each\n"
                "selected node to its rest position: f = -K (x - x_rest) (SOFA\n"
                "RestShapeSpringsForceField; SELECTION plays `points`, and `all` is SOFA's default\n"
                "of every node). Repeatable; springs on one node add up.",
                std::nullopt, "force/length", true,
                [](const std::string& key, const std::string& text) {
                  if (parseSelectionValue(key, text, 1).numbers[0] < 0)
                    parse::reject(key, text, "the stiffness must be >= 0");
                }})
           .add({"springs.rest-shape-nodes", "\"I K [I K ..]\"",
                 "a spring of its own stiffness K on each listed node, I a 0-based input node id\n"
                 "(SOFA RestShapeSpringsForceField `points` with one `stiffness` per point).\n"
                 "Repeatable; springs on one node add up.",
                 std::nullopt, "force/length", true,
                 [](const std::string& key, const std::string& text) { nodeSprings(key, text); }}),
       nullptr},
      Physics::Elasticity,
      forceFieldMaker(readRestShapeSpringsParameters, makeRestShapeSprings)};
}

RestShapeSpringsParameters readRestShapeSpringsParameters(const Parameters& scene) {
  std::vector<RestShapeSprings::Spring> springs;
  Texts texts;
  for (const std::string& text : scene.texts("springs.rest-shape")) {
    const SelectionValue value = parseSelectionValue("springs.rest-shape", text, 1);
    springs.push_back({value.selection, value.numbers[0], "springs.rest-shape"});
    texts.push_back(text);
  }
  for (const std::string& text : scene.texts("springs.rest-shape-nodes")) {
    springs.push_back(nodeSprings("springs.rest-shape-nodes", text));
    texts.push_back(text);
  }
  return {std::move(springs), std::move(texts)};
}

std::unique_ptr<ForceField> makeRestShapeSprings(const ModelContext& context,
                                                 const RestShapeSpringsParameters& parameters) {
  const auto& springs = parameters.springs;
  if (springs.empty()) return nullptr;
  auto field = std::make_unique<RestShapeSprings>(context.mesh, springs);
  for (std::size_t s = 0; s < parameters.texts.size(); ++s)
    if (field->nodesPerSet()[s] == 0)
      context.warnings.push_back(emptySelectionWarning(springs[s].key, parameters.texts[s]));
  return field;
}

const RegisterForceField registered(470, restShapeSpringsComponent);

}  // namespace eis
