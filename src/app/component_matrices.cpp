#include "eis/app/component_matrices.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>

#include "eis/core/error.hpp"
#include "eis/core/mpi_chunks.hpp"

namespace eis {

std::vector<double> componentMatrix(const DistributedMesh& mesh, MechanicalSystem& system,
                                    bool mass) {
  const std::int64_t half = mesh.dofsPerNode();
  const std::int64_t nodes =
      std::int64_t(mesh.numGlobalVertices()) + std::int64_t(mesh.unusedNodeIds().size());
  // The owned offset of each node id this rank owns (-1: another rank's, or no cell's).
  std::vector<PetscInt> offsetOf(std::size_t(nodes), -1);
  std::vector<std::pair<std::int64_t, PetscInt>> owned;
  for (std::size_t n = 0; n < mesh.numLocalVertices(); ++n)
    if (mesh.owned()[n]) {
      offsetOf[std::size_t(mesh.nodeIds()[n])] = mesh.ownedOffset(PetscInt(n));
      owned.emplace_back(mesh.nodeIds()[n], mesh.ownedOffset(PetscInt(n)));
    }
  Vec unit = system.createVector(), column = system.createVector();
  std::vector<double> triples;
  for (std::int64_t j = 0; j < nodes * half; ++j) {
    EIS_CHECK(VecZeroEntries(unit));
    EIS_CHECK(VecZeroEntries(column));
    const PetscInt at = offsetOf[std::size_t(j / half)];
    if (at >= 0) {
      PetscScalar* u;
      EIS_CHECK(VecGetArray(unit, &u));
      u[at + PetscInt(j % half)] = 1.0;
      EIS_CHECK(VecRestoreArray(unit, &u));
    }
    system.addMBKv(column, mass ? 1.0 : 0.0, 0.0, mass ? 0.0 : 1.0, unit);
    const PetscScalar* c;
    EIS_CHECK(VecGetArrayRead(column, &c));
    for (const auto& [id, offset] : owned)
      for (std::int64_t d = 0; d < half; ++d)
        if (const double value = c[offset + PetscInt(d)]; value != 0.0)
          triples.insert(triples.end(), {double(id * half + d), double(j), value});
    EIS_CHECK(VecRestoreArrayRead(column, &c));
  }
  EIS_CHECK(VecDestroy(&unit));
  EIS_CHECK(VecDestroy(&column));
  const std::vector<double> all = gatherDoubles(triples, 0, mesh.comm());
  if (commRank(mesh.comm()) != 0) return {};
  std::vector<std::array<double, 3>> entries(all.size() / 3);
  for (std::size_t k = 0; k < entries.size(); ++k)
    entries[k] = {all[3 * k], all[3 * k + 1], all[3 * k + 2]};
  std::sort(entries.begin(), entries.end());
  std::vector<double> out{double(nodes * half)};
  for (const auto& e : entries) out.insert(out.end(), e.begin(), e.end());
  return out;
}

}  // namespace eis
