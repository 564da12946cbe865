#include "eis/model/constant_force.hpp"

namespace eis {

ConstantForces::ConstantForces(const DistributedMesh& mesh, const std::vector<Load>& loads)
    : loads_(loads) {
  for (const auto& load : loads) {
    const SelectedNodes nodes = selectNodes(mesh, load.selection, load.key);
    nodesPerLoad_.push_back(nodes.count);
    auto& owned = nodalLoads_.emplace_back();
    for (auto v : nodes.vertices)
      if (mesh.owned()[v]) owned.push_back({mesh.ownedOffset(v), mesh.nodeIds()[v]});
  }
  resolveNodalForces();
}

void ConstantForces::setLoad(std::size_t i, const std::array<double, 3>& force, bool total,
                             std::map<std::int64_t, std::array<double, 3>> perNode) {
  Load& load = loads_.at(i);
  load.force = force;
  load.total = total;
  load.perNode = std::move(perNode);
  resolveNodalForces();
}

void ConstantForces::resolveNodalForces() {
  nodalForces_.clear();
  for (std::size_t i = 0; i < loads_.size(); ++i) {
    const Load& load = loads_[i];
    const double share = load.total ? 1.0 / double(nodesPerLoad_[i]) : 1.0;
    for (const NodalLoad& node : nodalLoads_[i]) {
      const auto found = load.perNode.find(node.id);
      if (!load.perNode.empty() && found == load.perNode.end()) continue;
      const auto& force = load.perNode.empty() ? load.force : found->second;
      nodalForces_.push_back({node.offset, {force[0] * share, force[1] * share, force[2] * share}});
    }
  }
}

void ConstantForces::addNodalForce(double* fOwned) const {
  for (const NodalForce& node : nodalForces_)
    for (int d = 0; d < 3; ++d) fOwned[node.offset + d] += node.force[d];
}

namespace {

const char* const kKeys[] = {"load.force-box", "load.constant-force", "load.total-force",
                             "load.nodal-forces"};

// "I FX FY FZ [I FX FY FZ ..]": one load on the listed nodes, a repeated node getting the sum.
ConstantForces::Load nodalForces(const std::string& key, const std::string& text) {
  const Texts tokens = parse::tokens(text);
  if (tokens.empty() || tokens.size() % 4 != 0)
    parse::reject(key, text, "expected groups of 4: node id, then FX FY FZ");
  ConstantForces::Load load{Selection(), {}, false, key};
  load.selection.kind = Selection::Kind::Indices;
  for (std::size_t i = 0; i < tokens.size(); i += 4) {
    long long id;
    if (!parse::number(tokens[i], id) || id < 0)
      parse::reject(key, text, "'" + tokens[i] + "' is not a node id (an integer >= 0)");
    auto& force = load.perNode[id];
    for (int d = 0; d < 3; ++d) {
      double value;
      if (!parse::number(tokens[i + 1 + d], value))
        parse::reject(key, text, "'" + tokens[i + 1 + d] + "' is not a number");
      force[d] += value;
    }
    load.selection.indices.push_back(id);
  }
  return load;
}

}  // namespace

ForceFieldComponent constantForceComponent() {
  return {
      {"constant-force", "force field",
       "constant forces on selected nodes (SOFA ConstantForceField: force, totalForce, forces)",
       ParameterSpec()
           .add({"load.force-box", "\"XMIN YMIN ZMIN XMAX YMAX ZMAX FX FY FZ\"",
                 "a constant total force (FX FY FZ) shared equally by the nodes inside the box,\n"
                 "boundary included (SOFA ConstantForceField with totalForce on a BoxROI).\n"
                 "Repeatable; a box that selects no node is a warning.",
                 std::nullopt, "force", true, check::reals(9)})
           .add({"load.constant-force", "\"FX FY FZ SELECTION\"",
                 "the force FX FY FZ on each selected node (SOFA ConstantForceField `force`).\n"
                 "SELECTION: all | indices I.. (0-based input node ids) | box XMIN YMIN ZMIN XMAX\n"
                 "YMAX ZMAX | sphere CX CY CZ R (SOFA SphereROI) | group NAME|TAG. Repeatable.",
                 std::nullopt, "force", true, selectionValueCheck(3)})
           .add({"load.total-force", "\"FX FY FZ SELECTION\"",
                 "the total force FX FY FZ shared equally by the selected nodes, each getting\n"
                 "total / n (SOFA ConstantForceField `totalForce`). Repeatable.",
                 std::nullopt, "force", true, selectionValueCheck(3)})
           .add({"load.nodal-forces", "\"I FX FY FZ [I FX FY FZ ..]\"",
                 "a force of its own on each listed node, I a 0-based input node id (SOFA\n"
                 "ConstantForceField `indices` with `forces`); a node listed twice gets the sum.\n"
                 "Repeatable.",
                 std::nullopt, "force", true,
                 [](const std::string& key, const std::string& text) { nodalForces(key, text); }}),
       nullptr},
      Physics::Elasticity,
      forceFieldMaker(readConstantForceParameters, makeConstantForce)};
}

ConstantForceParameters readConstantForceParameters(const Parameters& scene) {
  std::vector<ConstantForces::Load> loads;
  Texts texts;
  for (const std::string& text : scene.texts("load.force-box")) {
    const std::vector<double> v = parse::reals("load.force-box", text, 9);
    loads.push_back(
        {Selection::ofBox(Box::fromCorners(v)), {v[6], v[7], v[8]}, true, "load.force-box"});
    texts.push_back(text);
  }
  for (const char* key : {kKeys[1], kKeys[2]})
    for (const std::string& text : scene.texts(key)) {
      const SelectionValue value = parseSelectionValue(key, text, 3);
      loads.push_back({value.selection,
                       {value.numbers[0], value.numbers[1], value.numbers[2]},
                       key == kKeys[2],
                       key});
      texts.push_back(text);
    }
  for (const std::string& text : scene.texts(kKeys[3])) {
    loads.push_back(nodalForces(kKeys[3], text));
    texts.push_back(text);
  }
  return {std::move(loads), std::move(texts)};
}

std::unique_ptr<ForceField> makeConstantForce(const ModelContext& context,
                                              const ConstantForceParameters& parameters) {
  const auto& loads = parameters.loads;
  if (loads.empty()) return nullptr;
  auto field = std::make_unique<ConstantForces>(context.mesh, loads);
  for (std::size_t i = 0; i < loads.size(); ++i)
    if (field->nodesPerLoad()[i] == 0)
      context.warnings.push_back(emptySelectionWarning(loads[i].key, parameters.texts[i]));
  return field;
}

const RegisterForceField registered(460, constantForceComponent);

}  // namespace eis
