#include "eis/model/fixed_constraint.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <string>

#include "eis/core/error.hpp"
#include "eis/model/selection.hpp"

namespace eis {

namespace {

using Block3 = std::array<double, 9>;

Block3 product(const Block3& a, const Block3& b) {
  Block3 c{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k) c[3 * i + j] += a[3 * i + k] * b[3 * k + j];
  return c;
}

double largest(const Block3& a) {
  double m = 0;
  for (double x : a) m = std::max(m, std::abs(x));
  return m;
}

void applyBlock(const std::array<double, 9>& p, double* u) {
  const double a = u[0], b = u[1], c = u[2];
  for (int i = 0; i < 3; ++i) u[i] = p[3 * i] * a + p[3 * i + 1] * b + p[3 * i + 2] * c;
}

}  // namespace

FixedConstraint::FixedConstraint(const DistributedMesh& mesh, const std::vector<FixedNodes>& sets,
                                 const std::vector<ProjectedNodes>& projected) {
  const auto& owned = mesh.owned();
  const int dofs = mesh.dofsPerNode();
  std::vector<char> fixed(mesh.numLocalVertices() * dofs, 0);
  for (const FixedNodes& set : sets)
    for (auto v : set.vertices)
      for (int d = 0; d < dofs; ++d)
        if (set.directions[d]) fixed[dofs * v + d] = 1;

  // Each projected node's product of its projectors, in the order given (SOFA applies them one
  // after another).
  std::map<PetscInt, Block3> blockOf;
  std::string failure;
  for (const ProjectedNodes& set : projected)
    for (auto v : set.vertices) {
      auto [it, fresh] = blockOf.try_emplace(v, set.block);
      if (fresh) continue;
      const Block3 after = product(set.block, it->second), before = product(it->second, set.block);
      Block3 difference;
      for (int k = 0; k < 9; ++k) difference[k] = after[k] - before[k];
      if (largest(difference) > 1e-12 && failure.empty())
        failure = "node " + std::to_string(mesh.nodeIds()[v]) +
                  " is under two projective constraints whose projections do not commute";
      it->second = after;
    }
  for (auto& [v, block] : blockOf) {
    int fixedDirections = 0;
    for (int d = 0; d < dofs; ++d) fixedDirections += fixed[dofs * v + d];
    if (fixedDirections == dofs) continue;
    if (fixedDirections > 0) {
      // The fixed directions zero their components (a diagonal mask), which SOFA applies
      // before or after the projection in graph order: when the two commute (an axis of the
      // plane's normal or across the line), either order gives their product.
      Block3 mask{};
      for (int d = 0; d < 3; ++d) mask[4 * d] = fixed[dofs * v + d] ? 0 : 1;
      const Block3 after = product(mask, block), before = product(block, mask);
      Block3 difference;
      for (int k = 0; k < 9; ++k) difference[k] = after[k] - before[k];
      if (largest(difference) > 1e-12 && failure.empty())
        failure = "node " + std::to_string(mesh.nodeIds()[v]) +
                  " is fixed in some directions and under a plane, line or point projection "
                  "that does not commute with them: not supported";
      block = after;
      for (int d = 0; d < dofs; ++d) fixed[dofs * v + d] = 0;
    }
    if (largest(block) < 1e-12) {
      for (int d = 0; d < dofs; ++d) fixed[dofs * v + d] = 1;
      continue;
    }
    localBlocks_.push_back({mesh.localOffset(v), block});
    if (!owned[v]) continue;
    ownedBlocks_.push_back({mesh.ownedOffset(v), block});
  }
  throwIfAnyRankFailed(failure, mesh.comm());
  numBlockNodes_ = std::int64_t(ownedBlocks_.size());
  EIS_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, &numBlockNodes_, 1, MPI_INT64_T, MPI_SUM, mesh.comm()));

  Vec probe;
  EIS_CHECK(DMGetGlobalVector(mesh.dm(), &probe));
  PetscInt rowStart;
  EIS_CHECK(VecGetOwnershipRange(probe, &rowStart, nullptr));
  EIS_CHECK(DMRestoreGlobalVector(mesh.dm(), &probe));
  std::vector<PetscInt> rows;
  for (PetscInt v = 0; v < PetscInt(mesh.numLocalVertices()); ++v) {
    bool any = false;
    for (int d = 0; d < dofs; ++d) {
      if (!fixed[dofs * v + d]) continue;
      any = true;
      localDofs_.push_back(mesh.localOffset(v) + d);
      if (!owned[v]) continue;
      ownedDofs_.push_back(mesh.ownedOffset(v) + d);
      rows.push_back(rowStart + mesh.ownedOffset(v) + d);
    }
    numFixedNodes_ += any && owned[v];
  }
  EIS_CHECK(
      ISCreateGeneral(mesh.comm(), PetscInt(rows.size()), rows.data(), PETSC_COPY_VALUES, &rows_));
  EIS_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, &numFixedNodes_, 1, MPI_INT64_T, MPI_SUM, mesh.comm()));
}

FixedConstraint::~FixedConstraint() {
  ISDestroy(&rows_);
}

void FixedConstraint::project(Vec v) const {
  PetscScalar* values;
  EIS_CHECK(VecGetArray(v, &values));
  for (auto i : ownedDofs_) values[i] = 0;
  for (const Block& block : ownedBlocks_) applyBlock(block.p, values + block.offset);
  EIS_CHECK(VecRestoreArray(v, &values));
}

void FixedConstraint::projectLocal(double* local) const {
  for (auto i : localDofs_) local[i] = 0;
  for (const Block& block : localBlocks_) applyBlock(block.p, local + block.offset);
}

namespace {

Check partialFixedCheck() {
  return [](const std::string& key, const std::string& text) {
    for (double flag : parseSelectionValue(key, text, 3).numbers)
      if (flag != 0 && flag != 1) parse::reject(key, text, "each direction flag must be 0 or 1");
  };
}

}  // namespace

const ComponentDeclaration& fixedConstraintComponent() {
  static const ComponentDeclaration component{
      "fixed-constraint", "projective constraint",
      "nodes that never move, in all or some directions (SOFA FixedProjectiveConstraint,\n"
      "PartialFixedProjectiveConstraint)",
      ParameterSpec()
          .add(
              {"constraint.fixed-box", "\"XMIN YMIN ZMIN XMAX YMAX ZMAX\"",
               "nodes inside the box, boundary included, are fixed (SOFA BoxROI +\n"
               "FixedProjectiveConstraint); a min > max in a component is swapped, as BoxROI does.\n"
               "Repeatable.",
               std::nullopt, "length", true, check::reals(6),
               "0 0 0 0 LY LZ (the x = 0 face) for the built-in box when no constraint\n"
               "is given (with mesh.transform: constraint.fixed = the nodes of that face, by\n"
               "id, wherever the transform puts them); none otherwise"})
          .add({"constraint.fixed-group", "NAME|TAG",
                "Gmsh physical group (name or numeric tag) whose nodes are fixed. Repeatable.",
                std::nullopt, "", true, check::nonEmpty()})
          .add({"constraint.fixed", "SELECTION",
                "the selected nodes are fixed (SOFA FixedProjectiveConstraint, `indices`).\n"
                "SELECTION: all | indices I.. (0-based input node ids) | box XMIN YMIN ZMIN XMAX\n"
                "YMAX ZMAX | sphere CX CY CZ R (SOFA SphereROI) | group NAME|TAG | oriented-box\n"
                "P0 P1 P2 DEPTH (SOFA BoxROI orientedBox) | plane P0 P1 P2 DEPTH (SOFA\n"
                "PlaneROI) | pair-box OUTER INNER (SOFA PairBoxROI). Repeatable.",
                std::nullopt, "", true, selectionValueCheck(0)})
          .add(
              {"constraint.partial-fixed", "\"FX FY FZ SELECTION\"",
               "the selected nodes are fixed along the directions whose flag is 1 and free along\n"
               "those whose flag is 0 (SOFA PartialFixedProjectiveConstraint, `fixedDirections`);\n"
               "elasticity only. Repeatable.",
               std::nullopt, "", true, partialFixedCheck()}),
      nullptr};
  return component;
}

FixedConstraintParameters readFixedConstraintParameters(const Parameters& scene) {
  FixedConstraintParameters parameters;
  auto add = [&](const std::string& key, const std::string& text, const Selection& selection,
                 std::array<bool, 3> directions) {
    parameters.sets.push_back({key, text, selection, directions});
  };
  for (const std::string& text : scene.texts("constraint.fixed-box"))
    add("constraint.fixed-box", text,
        Selection::ofBox(Box::fromCorners(parse::reals("constraint.fixed-box", text, 6))),
        {true, true, true});
  for (const std::string& group : scene.texts("constraint.fixed-group"))
    add("constraint.fixed-group", group, Selection::ofGroup(group), {true, true, true});
  for (const std::string& text : scene.texts("constraint.fixed"))
    add("constraint.fixed", text, parseSelectionValue("constraint.fixed", text, 0).selection,
        {true, true, true});
  for (const std::string& text : scene.texts("constraint.partial-fixed")) {
    const SelectionValue value = parseSelectionValue("constraint.partial-fixed", text, 3);
    add("constraint.partial-fixed", text, value.selection,
        {value.numbers[0] != 0, value.numbers[1] != 0, value.numbers[2] != 0});
  }
  return parameters;
}

std::vector<FixedConstraint::FixedNodes> fixedNodeSets(const DistributedMesh& mesh,
                                                       const FixedConstraintParameters& parameters,
                                                       std::vector<std::string>& warnings) {
  std::vector<FixedConstraint::FixedNodes> sets;
  for (const FixedSelection& set : parameters.sets) {
    SelectedNodes nodes = selectNodes(mesh, set.selection, set.key);
    if (nodes.count == 0) warnings.push_back(emptySelectionWarning(set.key, set.text));
    sets.push_back({std::move(nodes.vertices), set.directions});
  }
  return sets;
}

const RegisterComponent registered(500, fixedConstraintComponent);

}  // namespace eis
