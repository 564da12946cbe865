#include "eis/app/component_matrices.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <iterator>
#include <map>
#include <utility>

#include "eis/core/error.hpp"
#include "eis/core/mpi_chunks.hpp"

namespace eis {

namespace {

// The matrix `multiply` applies (out = A in, out zeroed), probed on unit vectors.
std::vector<double> probedMatrix(const DistributedMesh& mesh, MechanicalSystem& system,
                                 const std::function<void(Vec in, Vec out)>& multiply) {
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
    multiply(unit, column);
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

}  // namespace

std::vector<double> componentMatrix(const DistributedMesh& mesh, MechanicalSystem& system,
                                    bool mass) {
  return probedMatrix(mesh, system, [&](Vec in, Vec out) {
    system.addMBKv(out, mass ? 1.0 : 0.0, 0.0, mass ? 0.0 : 1.0, in);
  });
}

std::vector<double> systemMatrix(const DistributedMesh& mesh, MechanicalSystem& system,
                                 const EulerImplicitSolver& solver) {
  const Mat A = solver.lastOperator();
  if (!A) throw Error("no linear system has been solved yet (it is read after a step)");
  // The fixed unknowns: those the projection zeroes (1 - P 1 is 1 there, 0 elsewhere).
  Vec fixed = system.createVector();
  EIS_CHECK(VecSet(fixed, 1.0));
  system.projectResponse(fixed);
  PetscInt size;
  EIS_CHECK(VecGetLocalSize(fixed, &size));
  PetscScalar* f;
  EIS_CHECK(VecGetArray(fixed, &f));
  int partial = 0;
  for (PetscInt i = 0; i < size; ++i) {
    partial |= f[i] != 0.0 && f[i] != 1.0;
    f[i] = 1.0 - f[i];
  }
  EIS_CHECK(VecRestoreArray(fixed, &f));
  EIS_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, &partial, 1, MPI_INT, MPI_MAX, mesh.comm()));
  if (partial) {
    EIS_CHECK(VecDestroy(&fixed));
    throw Error(
        "the body's unknowns are projected onto planes or lines, which SOFA's matrix "
        "holds otherwise: only fixed unknowns are supported");
  }
  const std::vector<double> out = probedMatrix(mesh, system, [&](Vec in, Vec product) {
    EIS_CHECK(MatMult(A, in, product));
    // A fixed unknown's row is e_i (1 on the diagonal): its entry is the input's.
    EIS_CHECK(VecPointwiseMult(in, in, fixed));
    PetscScalar *p, *u;
    const PetscScalar* mask;
    EIS_CHECK(VecGetArray(product, &p));
    EIS_CHECK(VecGetArray(in, &u));
    EIS_CHECK(VecGetArrayRead(fixed, &mask));
    for (PetscInt i = 0; i < size; ++i)
      if (mask[i] != 0.0) p[i] = u[i];
    EIS_CHECK(VecRestoreArrayRead(fixed, &mask));
    EIS_CHECK(VecRestoreArray(in, &u));
    EIS_CHECK(VecRestoreArray(product, &p));
  });
  EIS_CHECK(VecDestroy(&fixed));
  return out;
}

std::vector<double> constraintMatrix(const DistributedMesh& mesh,
                                     const std::vector<FreeMotionStep::JacobianEntry>& entries) {
  const std::int64_t half = mesh.dofsPerNode();
  // The node id of each owned offset of this rank.
  std::map<PetscInt, std::int64_t> nodeAt;
  for (std::size_t n = 0; n < mesh.numLocalVertices(); ++n)
    if (mesh.owned()[n]) nodeAt[mesh.ownedOffset(PetscInt(n))] = mesh.nodeIds()[n];
  // This rank's blocks, (row, node) -> its dofsPerNode values.
  std::map<std::pair<int, std::int64_t>, std::vector<double>> blocks;
  for (const FreeMotionStep::JacobianEntry& e : entries) {
    const auto node = std::prev(nodeAt.upper_bound(e.local));
    std::vector<double>& block = blocks[{e.row, node->second}];
    block.resize(std::size_t(half), 0.0);
    block[std::size_t(e.local - node->first)] = e.value;
  }
  std::vector<double> triples;
  for (const auto& [at, block] : blocks)
    for (std::int64_t d = 0; d < half; ++d)
      triples.insert(triples.end(),
                     {double(at.first), double(at.second * half + d), block[std::size_t(d)]});
  const std::vector<double> all = gatherDoubles(triples, 0, mesh.comm());
  if (commRank(mesh.comm()) != 0) return {};
  std::vector<std::array<double, 3>> stored(all.size() / 3);
  double rows = 0, columns = 0;
  for (std::size_t k = 0; k < stored.size(); ++k) {
    stored[k] = {all[3 * k], all[3 * k + 1], all[3 * k + 2]};
    rows = std::max(rows, stored[k][0] + 1);
    columns = std::max(columns, stored[k][1] + 1);
  }
  std::sort(stored.begin(), stored.end());
  std::vector<double> out{rows, columns};
  for (const auto& e : stored) out.insert(out.end(), e.begin(), e.end());
  return out;
}

std::vector<double> nodalVector(const DistributedMesh& mesh, Vec vector) {
  const std::int64_t half = mesh.dofsPerNode();
  const std::int64_t nodes =
      std::int64_t(mesh.numGlobalVertices()) + std::int64_t(mesh.unusedNodeIds().size());
  std::vector<std::int64_t> ids;
  std::vector<double> values;
  const PetscScalar* xs;
  EIS_CHECK(VecGetArrayRead(vector, &xs));
  for (std::size_t n = 0; n < mesh.numLocalVertices(); ++n) {
    if (!mesh.owned()[n]) continue;
    ids.push_back(mesh.nodeIds()[n]);
    for (std::int64_t d = 0; d < half; ++d)
      values.push_back(xs[mesh.ownedOffset(PetscInt(n)) + PetscInt(d)]);
  }
  EIS_CHECK(VecRestoreArrayRead(vector, &xs));
  const std::vector<std::int64_t> allIds = gatherInt64s(ids, 0, mesh.comm());
  const std::vector<double> allValues = gatherDoubles(values, 0, mesh.comm());
  if (commRank(mesh.comm()) != 0) return {};
  std::vector<double> out(std::size_t(nodes * half), 0.0);
  for (std::size_t k = 0; k < allIds.size(); ++k)
    for (std::int64_t d = 0; d < half; ++d)
      out[std::size_t(allIds[k] * half + d)] = allValues[k * std::size_t(half) + std::size_t(d)];
  return out;
}

}  // namespace eis
