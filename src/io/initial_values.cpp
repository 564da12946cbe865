#include "eis/io/initial_values.hpp"

#include <algorithm>

#include "eis/core/error.hpp"

namespace eis {

Check initialValuesCheck() {
  return [](const std::string& key, const std::string& text) {
    if (parse::reals(key, text, 0).size() % 3 != 0 || parse::tokens(text).empty())
      parse::reject(key, text, "expected three numbers per node");
  };
}

// initial.values: u at every input node, one number a node (diffusion).
void applyInitialScalars(const Parameters& scene, const DistributedMesh& mesh, Vec x) {
  const std::vector<double> us = scene.reals("initial.values");
  const std::int64_t nodes = mesh.numGlobalVertices() + std::int64_t(mesh.unusedNodeIds().size());
  if (scene.integer("mesh.refine") > 0)
    throw Error("initial.values names the input's nodes; it does not go with mesh.refine");
  if (std::int64_t(us.size()) != nodes)
    throw Error("initial.values: " + std::to_string(us.size()) + " values for " +
                std::to_string(nodes) + " nodes; give one per node");
  PetscScalar* xl;
  EIS_CHECK(VecGetArray(x, &xl));
  for (PetscInt n = 0; n < PetscInt(mesh.numLocalVertices()); ++n)
    if (mesh.owned()[n]) xl[mesh.ownedOffset(n)] = us[std::size_t(mesh.nodeIds()[n])];
  EIS_CHECK(VecRestoreArray(x, &xl));
}

void applyInitialValues(const Parameters& scene, const DistributedMesh& mesh, Vec x, Vec v) {
  if (scene.given("initial.values")) applyInitialScalars(scene, mesh, x);
  const bool positions = scene.given("initial.positions"),
             velocities = scene.given("initial.velocities");
  if (!positions && !velocities) return;
  // The input's nodes, used by a tetrahedron or not; refinement adds nodes no list names.
  const std::int64_t nodes = mesh.numGlobalVertices() + std::int64_t(mesh.unusedNodeIds().size());
  if (scene.integer("mesh.refine") > 0)
    throw Error(
        "initial.positions and initial.velocities name the input's nodes; they do not go "
        "with mesh.refine");
  const std::vector<double> xs =
      positions ? parse::reals("initial.positions", scene.text("initial.positions"), 0)
                : std::vector<double>{};
  const std::vector<double> vs =
      velocities ? parse::reals("initial.velocities", scene.text("initial.velocities"), 0)
                 : std::vector<double>{};
  if (positions && std::int64_t(xs.size()) != 3 * nodes)
    throw Error("initial.positions: " + std::to_string(xs.size() / 3) + " positions for " +
                std::to_string(nodes) + " nodes; give one per node");
  if (velocities && std::int64_t(vs.size()) > 3 * nodes)
    throw Error("initial.velocities: " + std::to_string(vs.size() / 3) + " velocities for " +
                std::to_string(nodes) + " nodes; give at most one per node");
  PetscScalar *xl, *vl;
  EIS_CHECK(VecGetArray(x, &xl));
  EIS_CHECK(VecGetArray(v, &vl));
  for (PetscInt n = 0; n < PetscInt(mesh.numLocalVertices()); ++n) {
    if (!mesh.owned()[n]) continue;
    const std::int64_t id = mesh.nodeIds()[n];
    // SOFA's MechanicalObject::init: the last velocity given goes to every node after it.
    const std::int64_t k = std::min<std::int64_t>(id, std::int64_t(vs.size() / 3) - 1);
    for (int d = 0; d < 3; ++d) {
      if (positions) xl[mesh.ownedOffset(n) + d] = xs[3 * id + d];
      if (velocities) vl[mesh.ownedOffset(n) + d] = vs[3 * k + d];
    }
  }
  EIS_CHECK(VecRestoreArray(v, &vl));
  EIS_CHECK(VecRestoreArray(x, &xl));
}

}  // namespace eis
