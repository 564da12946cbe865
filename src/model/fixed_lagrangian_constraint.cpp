#include "eis/model/fixed_lagrangian_constraint.hpp"

#include <algorithm>
#include <cstdint>
#include <map>

#include "eis/core/error.hpp"
#include "eis/core/mpi_chunks.hpp"
#include "eis/core/scene.hpp"
#include "eis/model/physics.hpp"
#include "eis/model/selection.hpp"

namespace eis {

FixedLagrangianConstraint::Parameters FixedLagrangianConstraint::readParameters(
    const eis::Parameters& scene) {
  Parameters p;
  for (const std::string& text : scene.texts("lagrange.fixed"))
    p.selections.emplace_back(text, parseSelectionValue("lagrange.fixed", text, 0).selection);
  return p;
}

std::unique_ptr<FixedLagrangianConstraint> FixedLagrangianConstraint::make(
    const DistributedMesh& mesh, const Parameters& parameters, std::vector<std::string>& warnings) {
  if (parameters.selections.empty()) return nullptr;
  std::unique_ptr<FixedLagrangianConstraint> c(new FixedLagrangianConstraint);
  for (const auto& [text, selection] : parameters.selections) {
    const SelectedNodes nodes = selectNodes(mesh, selection, "lagrange.fixed");
    if (nodes.count == 0) warnings.push_back(emptySelectionWarning("lagrange.fixed", text));
    // The position of each selected node's rows among this key's, by node id.
    std::multimap<std::int64_t, int> positions;
    int count = 0;
    if (selection.kind == Selection::Kind::Indices) {
      for (std::int64_t id : selection.indices) positions.emplace(id, count++);
    } else {
      std::vector<std::int64_t> mine;
      for (PetscInt v : nodes.vertices)
        if (mesh.owned()[v]) mine.push_back(mesh.nodeIds()[v]);
      std::vector<std::int64_t> all = allGatherChunks(mine, MPI_INT64_T, mesh.comm());
      std::sort(all.begin(), all.end());
      for (std::int64_t id : all) positions.emplace(id, count++);
    }
    for (PetscInt v : nodes.vertices) {
      if (!mesh.owned()[v]) continue;
      const auto [first, last] = positions.equal_range(mesh.nodeIds()[v]);
      for (auto it = first; it != last; ++it)
        c->entries_.push_back(
            {c->rows_ + 3 * it->second, mesh.ownedOffset(v), mesh.restCoords()[std::size_t(v)]});
    }
    c->rows_ += 3 * count;
  }
  c->groups_.assign(std::size_t(c->rows_ / 3), 3);
  return c;
}

void FixedLagrangianConstraint::addTransposed(const std::vector<double>& lambda, Vec out) const {
  PetscScalar* values;
  EIS_CHECK(VecGetArray(out, &values));
  for (const Entry& e : entries_)
    for (int d = 0; d < 3; ++d) values[e.offset + d] += lambda[std::size_t(e.row + d)];
  EIS_CHECK(VecRestoreArray(out, &values));
}

void FixedLagrangianConstraint::addLocalProduct(Vec y, std::vector<double>& out) const {
  const PetscScalar* values;
  EIS_CHECK(VecGetArrayRead(y, &values));
  for (const Entry& e : entries_)
    for (int d = 0; d < 3; ++d) out[std::size_t(e.row + d)] += values[e.offset + d];
  EIS_CHECK(VecRestoreArrayRead(y, &values));
}

void FixedLagrangianConstraint::addLocalViolation(Vec x, std::vector<double>& out) const {
  const PetscScalar* values;
  EIS_CHECK(VecGetArrayRead(x, &values));
  for (const Entry& e : entries_)
    for (int d = 0; d < 3; ++d) out[std::size_t(e.row + d)] += values[e.offset + d] - e.rest[d];
  EIS_CHECK(VecRestoreArrayRead(x, &values));
}

const ComponentDeclaration& fixedLagrangianConstraintComponent() {
  static const ComponentDeclaration component{
      "fixed-lagrangian-constraint", "Lagrangian constraint",
      "nodes held at their rest positions by constraint forces (SOFA\n"
      "FixedLagrangianConstraint); needs lagrange.solver and lagrange.correction",
      ParameterSpec().add(
          {"lagrange.fixed", "SELECTION",
           "the selected nodes are held at their rest positions by Lagrange multipliers, three\n"
           "rows a node (SOFA FixedLagrangianConstraint, `indices`, `fixAll` = all). SELECTION:\n"
           "all | indices I.. | box XMIN YMIN ZMIN XMAX YMAX ZMAX | sphere CX CY CZ R | group\n"
           "NAME|TAG. Repeatable.",
           std::nullopt, "", true, selectionValueCheck(0)}),
      nullptr};
  return component;
}

// After the projective constraints (500, 510).
const RegisterComponent registered(520, fixedLagrangianConstraintComponent);

}  // namespace eis
