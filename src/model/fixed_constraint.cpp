#include "eis/model/fixed_constraint.hpp"

#include "eis/core/error.hpp"
#include "eis/core/scene.hpp"
#include "eis/model/selection.hpp"

namespace eis {

FixedConstraint::FixedConstraint(const DistributedMesh& mesh, const std::vector<Box>& boxes,
                                 const std::vector<int>& groupTags) {
  const auto& coords = mesh.restCoords();
  const auto& owned = mesh.owned();
  std::vector<char> fixed(mesh.numLocalVertices(), 0);
  nodesPerBox_.assign(boxes.size(), 0);
  for (std::size_t v = 0; v < coords.size(); ++v)
    for (std::size_t b = 0; b < boxes.size(); ++b)
      if (boxes[b].contains(coords[v])) {
        fixed[v] = 1;
        nodesPerBox_[b] += owned[v];
      }
  for (int tag : groupTags)
    for (auto v : mesh.groupVertices(tag)) fixed[v] = 1;

  const int dofs = mesh.dofsPerNode();
  Vec probe;
  EIS_CHECK(DMGetGlobalVector(mesh.dm(), &probe));
  PetscInt rowStart;
  EIS_CHECK(VecGetOwnershipRange(probe, &rowStart, nullptr));
  EIS_CHECK(DMRestoreGlobalVector(mesh.dm(), &probe));
  std::vector<PetscInt> rows;
  for (PetscInt v = 0; v < PetscInt(fixed.size()); ++v) {
    if (!fixed[v]) continue;
    for (int d = 0; d < dofs; ++d) localDofs_.push_back(mesh.localOffset(v) + d);
    if (!owned[v]) continue;
    ++numFixedNodes_;
    for (int d = 0; d < dofs; ++d) {
      ownedDofs_.push_back(mesh.ownedOffset(v) + d);
      rows.push_back(rowStart + mesh.ownedOffset(v) + d);
    }
  }
  EIS_CHECK(
      ISCreateGeneral(mesh.comm(), PetscInt(rows.size()), rows.data(), PETSC_COPY_VALUES, &rows_));
  EIS_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, nodesPerBox_.data(), int(nodesPerBox_.size()),
                              MPI_INT64_T, MPI_SUM, mesh.comm()));
  EIS_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, &numFixedNodes_, 1, MPI_INT64_T, MPI_SUM, mesh.comm()));
}

FixedConstraint::~FixedConstraint() {
  ISDestroy(&rows_);
}

void FixedConstraint::project(Vec v) const {
  PetscScalar* values;
  EIS_CHECK(VecGetArray(v, &values));
  for (auto i : ownedDofs_) values[i] = 0;
  EIS_CHECK(VecRestoreArray(v, &values));
}

void FixedConstraint::projectLocal(double* local) const {
  for (auto i : localDofs_) local[i] = 0;
}

const ComponentDeclaration& fixedConstraintComponent() {
  static const ComponentDeclaration component{
      "fixed-constraint", "projective constraint",
      "nodes that never move (SOFA FixedProjectiveConstraint on a BoxROI or a group)",
      ParameterSpec()
          .add(
              {"constraint.fixed-box", "\"XMIN YMIN ZMIN XMAX YMAX ZMAX\"",
               "nodes inside the box, boundary included, are fixed (SOFA BoxROI +\n"
               "FixedProjectiveConstraint); a min > max in a component is swapped, as BoxROI does.\n"
               "Repeatable.",
               std::nullopt, "length", true, check::reals(6),
               "0 0 0 0 LY LZ (the x = 0 face) for the built-in box when neither\n"
               "fixed-box nor fixed-group is given; none otherwise"})
          .add({"constraint.fixed-group", "NAME|TAG",
                "Gmsh physical group (name or numeric tag) whose nodes are fixed. Repeatable.",
                std::nullopt, "", true, check::nonEmpty()}),
      [](Scene& scene) {
        if (scene.given("mesh.file") || scene.given("constraint.fixed-box") ||
            scene.given("constraint.fixed-group"))
          return;
        const auto size = scene.real3("mesh.box-size");
        scene.set("constraint.fixed-box",
                  "0 0 0 0 " + parse::text(size[1]) + " " + parse::text(size[2]));
      }};
  return component;
}

std::unique_ptr<FixedConstraint> makeFixedConstraint(const DistributedMesh& mesh,
                                                     const Parameters& scene,
                                                     std::vector<std::string>& warnings) {
  const Texts boxTexts = scene.texts("constraint.fixed-box");
  std::vector<Box> boxes;
  for (const std::string& text : boxTexts)
    boxes.push_back(Box::fromCorners(parse::reals("constraint.fixed-box", text, 6)));
  std::vector<int> tags;
  for (const std::string& group : scene.texts("constraint.fixed-group"))
    tags.push_back(mesh.findGroup(group));
  auto constraint = std::make_unique<FixedConstraint>(mesh, boxes, tags);
  for (std::size_t b = 0; b < boxes.size(); ++b)
    if (constraint->nodesPerBox()[b] == 0)
      warnings.push_back(emptySelectionWarning("constraint.fixed-box", boxTexts[b]));
  return constraint;
}

}  // namespace eis
