// The bodies of one group as one system (model/coupled_system.hpp).
#include "eis/model/coupled_system.hpp"

#include <algorithm>
#include <cstring>
#include <map>

#include "eis/core/error.hpp"
#include "eis/core/timer.hpp"

namespace eis {

namespace {

// The rank that owns global index g of a vector with these ownership ranges.
int ownerOf(const std::vector<PetscInt>& ranges, PetscInt g) {
  return int(std::upper_bound(ranges.begin(), ranges.end(), g) - ranges.begin()) - 1;
}

std::vector<PetscInt> rangesOf(Vec v) {
  const PetscInt* r;
  EIS_CHECK(VecGetOwnershipRanges(v, &r));
  PetscMPIInt size;
  EIS_CHECK_MPI(MPI_Comm_size(PetscObjectComm(reinterpret_cast<PetscObject>(v)), &size));
  return std::vector<PetscInt>(r, r + size + 1);
}

}  // namespace

CoupledSystem::CoupledSystem(std::vector<Member> members, MPI_Comm comm)
    : members_(std::move(members)), comm_(comm) {
  int size;
  EIS_CHECK_MPI(MPI_Comm_size(comm_, &size));
  dofs_ = members_.front().system->mesh().dofsPerNode();
  PetscInt offset = 0;
  for (const Member& m : members_) {
    Vec x = m.system->createVector(), v = m.system->createVector(), f = m.system->createVector();
    xs_.push_back(x);
    vs_.push_back(v);
    fs_.push_back(f);
    PetscInt n;
    EIS_CHECK(VecGetLocalSize(x, &n));
    localSizes_.push_back(n);
    offsets_.push_back(offset);
    offset += n;
    bodyRanges_.push_back(rangesOf(x));
    std::vector<PetscInt> all(size);
    EIS_CHECK_MPI(MPI_Allgather(&n, 1, MPIU_INT, all.data(), 1, MPIU_INT, comm_));
    rankOffsets_.push_back(all);
  }
  // rankOffsets_[b][r]: the sum of the earlier members' local sizes on rank r.
  for (int r = 0; r < size; ++r) {
    PetscInt sum = 0;
    for (auto& sizes : rankOffsets_) {
      const PetscInt n = sizes[r];
      sizes[r] = sum;
      sum += n;
    }
  }
  Vec whole = createVector();
  ranges_ = rangesOf(whole);
  EIS_CHECK(VecDestroy(&whole));

  // Each spring's endpoints: the member and node, found on the rank that owns the node.
  std::vector<std::pair<std::size_t, std::int64_t>> nodes;
  for (std::size_t b = 0; b < members_.size(); ++b)
    for (const InteractionSpringSet& set : members_[b].springs) {
      const std::size_t t =
          set.target == "self" ? b : memberNamed(set.target, b, "interaction.springs");
      for (const InteractionSpring& s : set.springs) {
        Spring spring{s, {}};
        for (int side = 0; side < 2; ++side) {
          const auto& points = side == 0 ? s.points1 : s.points2;
          const std::size_t member = side == 0 ? b : t;
          if (points.empty()) {
            spring.terms.push_back({nodes.size(), 1.0, side});
            nodes.push_back({member, side == 0 ? s.node1 : s.node2});
          }
          for (const auto& [node, weight] : points) {
            spring.terms.push_back({nodes.size(), weight, side});
            nodes.push_back({member, node});
          }
        }
        springs_.push_back(std::move(spring));
      }
    }
  ends_ = locate(nodes, "interaction.springs");
  setUpAttachments();
  dfdx_.assign(springs_.size(), {});
  std::vector<JoinedMember> joined;
  for (std::size_t b = 0; b < members_.size(); ++b)
    joined.push_back({members_[b].system->lagrangianConstraints(), &members_[b].system->mesh(),
                      members_[b].path, offsets_[b], localSizes_[b], members_[b].bilateral});
  lagrangian_ = joinLagrangianConstraints(joined, warnings_);
}

std::size_t CoupledSystem::memberNamed(const std::string& path, std::size_t from,
                                       const char* key) const {
  for (std::size_t c = 0; c < members_.size(); ++c)
    if (members_[c].path == path) return c;
  throw Error(std::string(key) + " of " +
              (members_[from].path.empty() ? std::string("the body") : members_[from].path) +
              ": the target " + path + " is no body of its solver.group");
}

// Each (member, node id): its first unknown in the joined vector, on its owner and (global)
// on every rank, and which of its unknowns the member's own projection fixes.
std::vector<CoupledSystem::End> CoupledSystem::locate(
    const std::vector<std::pair<std::size_t, std::int64_t>>& nodes, const char* key) const {
  int rank;
  EIS_CHECK_MPI(MPI_Comm_rank(comm_, &rank));
  std::vector<std::map<std::int64_t, PetscInt>> ownedVertex(members_.size());
  for (std::size_t b = 0; b < members_.size(); ++b) {
    const DistributedMesh& mesh = members_[b].system->mesh();
    for (std::size_t v = 0; v < mesh.numLocalVertices(); ++v)
      if (mesh.owned()[v]) ownedVertex[b][mesh.nodeIds()[v]] = PetscInt(v);
  }
  std::vector<End> ends(nodes.size());
  std::vector<PetscInt> globals(nodes.size(), -1);
  std::vector<int> fixed(3 * nodes.size(), 0);
  std::vector<Vec> free(members_.size(), nullptr);
  std::vector<const PetscScalar*> freeValues(members_.size(), nullptr);
  for (std::size_t b = 0; b < members_.size(); ++b) {
    // P 1: zero on the fixed unknowns.
    free[b] = members_[b].system->createVector();
    EIS_CHECK(VecSet(free[b], 1.0));
    members_[b].system->projectResponse(free[b]);
    EIS_CHECK(VecGetArrayRead(free[b], &freeValues[b]));
  }
  for (std::size_t e = 0; e < nodes.size(); ++e) {
    const auto& [b, node] = nodes[e];
    const auto found = ownedVertex[b].find(node);
    if (found == ownedVertex[b].end()) continue;
    const PetscInt local = offsets_[b] + members_[b].system->mesh().ownedOffset(found->second);
    ends[e].local = local;
    globals[e] = ranges_[rank] + local;
    for (int d = 0; d < dofs_; ++d)
      fixed[3 * e + d] = freeValues[b][local - offsets_[b] + d] == 0.0 ? 1 : 0;
  }
  for (std::size_t b = 0; b < members_.size(); ++b) {
    EIS_CHECK(VecRestoreArrayRead(free[b], &freeValues[b]));
    EIS_CHECK(VecDestroy(&free[b]));
  }
  if (!nodes.empty()) {
    EIS_CHECK_MPI(
        MPI_Allreduce(MPI_IN_PLACE, globals.data(), int(globals.size()), MPIU_INT, MPI_MAX, comm_));
    EIS_CHECK_MPI(
        MPI_Allreduce(MPI_IN_PLACE, fixed.data(), int(fixed.size()), MPI_INT, MPI_MAX, comm_));
  }
  for (std::size_t e = 0; e < nodes.size(); ++e) {
    if (globals[e] < 0)
      throw Error(std::string(key) + ": node " + std::to_string(nodes[e].second) + " of " +
                  (members_[nodes[e].first].path.empty() ? std::string("the body")
                                                         : members_[nodes[e].first].path) +
                  " is no node of its mesh's cells");
    ends[e].global = globals[e];
    for (int d = 0; d < 3; ++d) ends[e].fixed[d] = fixed[3 * e + d] != 0;
  }
  return ends;
}

CoupledSystem::~CoupledSystem() {
  for (auto* list : {&xs_, &vs_, &fs_})
    for (Vec& v : *list) VecDestroy(&v);
  MatDestroy(&matrix_);
  MatDestroy(&attachP_);
  MatDestroy(&projected_);
}

Vec CoupledSystem::createVector() const {
  PetscInt n = 0;
  for (PetscInt s : localSizes_) n += s;
  Vec v;
  EIS_CHECK(VecCreateMPI(comm_, n, PETSC_DETERMINE, &v));
  EIS_CHECK(VecSetBlockSize(v, dofs_));
  return v;
}

void CoupledSystem::split(Vec whole, std::size_t b, Vec part) const {
  const PetscScalar* w;
  PetscScalar* p;
  EIS_CHECK(VecGetArrayRead(whole, &w));
  EIS_CHECK(VecGetArray(part, &p));
  std::copy(w + offsets_[b], w + offsets_[b] + localSizes_[b], p);
  EIS_CHECK(VecRestoreArray(part, &p));
  EIS_CHECK(VecRestoreArrayRead(whole, &w));
}

void CoupledSystem::join(Vec part, std::size_t b, Vec whole) const {
  const PetscScalar* p;
  PetscScalar* w;
  EIS_CHECK(VecGetArrayRead(part, &p));
  EIS_CHECK(VecGetArray(whole, &w));
  std::copy(p, p + localSizes_[b], w + offsets_[b]);
  EIS_CHECK(VecRestoreArray(whole, &w));
  EIS_CHECK(VecRestoreArrayRead(part, &p));
}

bool CoupledSystem::constantMatrix() const {
  if (!springs_.empty()) return false;
  return std::all_of(members_.begin(), members_.end(),
                     [](const Member& m) { return m.system->constantMatrix(); });
}

bool CoupledSystem::massless() const {
  return std::any_of(members_.begin(), members_.end(),
                     [](const Member& m) { return m.system->massless(); });
}

std::vector<double> CoupledSystem::gatherEnds(Vec whole) const {
  return gather(ends_, whole);
}

std::vector<double> CoupledSystem::gather(const std::vector<End>& ends, Vec whole) const {
  std::vector<double> values(3 * ends.size(), 0.0);
  if (ends.empty()) return values;
  const PetscScalar* w;
  EIS_CHECK(VecGetArrayRead(whole, &w));
  for (std::size_t e = 0; e < ends.size(); ++e)
    if (ends[e].local >= 0)
      for (int d = 0; d < 3; ++d) values[3 * e + d] = w[ends[e].local + d];
  EIS_CHECK(VecRestoreArrayRead(whole, &w));
  // Each endpoint has one owner, the others adding zeros: every rank gets the owner's bits.
  EIS_CHECK_MPI(
      MPI_Allreduce(MPI_IN_PLACE, values.data(), int(values.size()), MPI_DOUBLE, MPI_SUM, comm_));
  return values;
}

void CoupledSystem::scatter(const std::vector<End>& ends, const std::vector<double>& values,
                            Vec whole) const {
  if (ends.empty()) return;
  PetscScalar* w;
  EIS_CHECK(VecGetArray(whole, &w));
  for (std::size_t e = 0; e < ends.size(); ++e)
    if (ends[e].local >= 0)
      for (int d = 0; d < 3; ++d) w[ends[e].local + d] = values[3 * e + d];
  EIS_CHECK(VecRestoreArray(whole, &w));
}

void CoupledSystem::sideValue(const Spring& s, int side, const std::vector<double>& values,
                              double* out) const {
  out[0] = out[1] = out[2] = 0.0;
  for (const Term& term : s.terms)
    if (term.side == side)
      for (int d = 0; d < 3; ++d) out[d] += term.weight * values[3 * term.end + d];
}

// Each member's forces, then the springs' in their order, added by the owner of each endpoint:
// every rank evaluates every spring from the same gathered values, so the sums do not depend
// on the ranks.
void CoupledSystem::computeForce(Vec x, Vec v, Vec f) {
  for (std::size_t b = 0; b < members_.size(); ++b) {
    split(x, b, xs_[b]);
    split(v, b, vs_[b]);
    members_[b].system->computeForce(xs_[b], vs_[b], fs_[b]);
    join(fs_[b], b, f);
  }
  if (springs_.empty()) return;
  const ScopedTimer timer("Forces");
  const std::vector<double> xe = gatherEnds(x), ve = gatherEnds(v);
  PetscScalar* fw;
  EIS_CHECK(VecGetArray(f, &fw));
  for (std::size_t s = 0; s < springs_.size(); ++s) {
    Spring& spring = springs_[s];
    double x1[3], x2[3], v1[3], v2[3];
    sideValue(spring, 0, xe, x1);
    sideValue(spring, 1, xe, x2);
    sideValue(spring, 0, ve, v1);
    sideValue(spring, 1, ve, v2);
    settleLength(spring.law, x1, x2);
    SpringState state;
    springForce(spring.law, x1, x2, v1, v2, state);
    dfdx_[s] = state.dfdx;
    // J^T f: w f on a node of end 1, -w f on one of end 2.
    for (const Term& term : spring.terms)
      if (ends_[term.end].local >= 0)
        for (int d = 0; d < 3; ++d)
          fw[ends_[term.end].local + d] +=
              (term.side == 0 ? 1.0 : -1.0) * term.weight * state.force[d];
  }
  EIS_CHECK(VecRestoreArray(f, &fw));
}

void CoupledSystem::addMBKv(Vec out, double mFactor, double bFactor, double kFactor, Vec v) {
  for (std::size_t b = 0; b < members_.size(); ++b) {
    split(v, b, vs_[b]);
    split(out, b, fs_[b]);
    members_[b].system->addMBKv(fs_[b], mFactor, bFactor, kFactor, vs_[b]);
    join(fs_[b], b, out);
  }
  if (springs_.empty() || kFactor == 0) return;
  // df1 = k D (dx2 - dx1), df2 = -df1 (SpringForceField::addDForce; no B).
  const std::vector<double> ve = gatherEnds(v);
  PetscScalar* o;
  EIS_CHECK(VecGetArray(out, &o));
  for (std::size_t s = 0; s < springs_.size(); ++s) {
    double v1[3], v2[3];
    sideValue(springs_[s], 0, ve, v1);
    sideValue(springs_[s], 1, ve, v2);
    for (int j = 0; j < 3; ++j) {
      double df = 0;
      for (int k = 0; k < 3; ++k) df += dfdx_[s][3 * j + k] * (v2[k] - v1[k]);
      for (const Term& term : springs_[s].terms)
        if (ends_[term.end].local >= 0)
          o[ends_[term.end].local + j] +=
              (term.side == 0 ? 1.0 : -1.0) * term.weight * (kFactor * df);
    }
  }
  EIS_CHECK(VecRestoreArray(out, &o));
}

void CoupledSystem::projectResponse(Vec v) {
  for (std::size_t b = 0; b < members_.size(); ++b) {
    split(v, b, vs_[b]);
    members_[b].system->projectResponse(vs_[b]);
    join(vs_[b], b, v);
  }
  projectAttachedResponse(v);
}

// The pattern of the members' matrices (their rows here, columns moved into the joined
// numbering) and of the springs' blocks.
void CoupledSystem::createMatrix(const std::vector<Mat>& blocks) {
  int rank;
  EIS_CHECK_MPI(MPI_Comm_rank(comm_, &rank));
  const PetscInt first = ranges_[rank], n = ranges_[rank + 1] - first;
  const PetscInt N = ranges_.back();
  std::vector<PetscInt> diagonal(n, 0), offDiagonal(n, 0);
  for (std::size_t b = 0; b < members_.size(); ++b) {
    PetscInt start, end;
    EIS_CHECK(MatGetOwnershipRange(blocks[b], &start, &end));
    for (PetscInt row = start; row < end; ++row) {
      PetscInt count;
      const PetscInt* columns;
      EIS_CHECK(MatGetRow(blocks[b], row, &count, &columns, nullptr));
      const PetscInt r = offsets_[b] + row - start;
      for (PetscInt k = 0; k < count; ++k) {
        const int owner = ownerOf(bodyRanges_[b], columns[k]);
        (owner == rank ? diagonal : offDiagonal)[r]++;
      }
      EIS_CHECK(MatRestoreRow(blocks[b], row, &count, &columns, nullptr));
    }
  }
  for (const Spring& s : springs_)
    for (const Term& row : s.terms) {
      if (ends_[row.end].local < 0) continue;
      for (const Term& column : s.terms)
        for (int d = 0; d < dofs_; ++d)
          (ends_[column.end].local >= 0 ? diagonal : offDiagonal)[ends_[row.end].local + d] += 3;
    }
  for (PetscInt r = 0; r < n; ++r) {
    diagonal[r] = std::min(diagonal[r], n);
    offDiagonal[r] = std::min(offDiagonal[r], N - n);
  }
  EIS_CHECK(MatCreate(comm_, &matrix_));
  EIS_CHECK(MatSetSizes(matrix_, n, n, N, N));
  EIS_CHECK(MatSetBlockSize(matrix_, dofs_));
  EIS_CHECK(MatSetType(matrix_, MATAIJ));
  EIS_CHECK(MatSeqAIJSetPreallocation(matrix_, 0, diagonal.data()));
  EIS_CHECK(MatMPIAIJSetPreallocation(matrix_, 0, diagonal.data(), 0, offDiagonal.data()));
  EIS_CHECK(MatSetOption(matrix_, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  const bool symmetric = std::all_of(members_.begin(), members_.end(),
                                     [](const Member& m) { return m.system->symmetricMatrix(); });
  // Eternal, as SystemMatrix's: PETSc 3.18 forgets a matrix's symmetry once its values are set
  // and assembled again, so from the second step on the solve no longer knew it (on one rank its
  // upper-triangle copy was remade as a whole one at every step, linalg/block_copy).
  EIS_CHECK(MatSetOption(matrix_, MAT_SYMMETRIC, symmetric ? PETSC_TRUE : PETSC_FALSE));
  EIS_CHECK(MatSetOption(matrix_, MAT_SYMMETRY_ETERNAL, PETSC_TRUE));
}

Mat CoupledSystem::systemMatrix(double mFactor, double bFactor, double kFactor) {
  std::vector<Mat> blocks;
  for (const Member& m : members_)
    blocks.push_back(m.system->systemMatrix(mFactor, bFactor, kFactor));
  const bool same = factors_[0] == mFactor && factors_[1] == bFactor && factors_[2] == kFactor;
  if (filled_ && same && constantMatrix()) return projected_ ? projected_ : matrix_;
  const ScopedTimer timer("Matrix assembly");
  if (!matrix_) createMatrix(blocks);
  int rank;
  EIS_CHECK_MPI(MPI_Comm_rank(comm_, &rank));
  EIS_CHECK(MatZeroEntries(matrix_));
  std::vector<PetscInt> mapped;
  for (std::size_t b = 0; b < members_.size(); ++b) {
    PetscInt start, end;
    EIS_CHECK(MatGetOwnershipRange(blocks[b], &start, &end));
    for (PetscInt row = start; row < end; ++row) {
      PetscInt count;
      const PetscInt* columns;
      const PetscScalar* values;
      EIS_CHECK(MatGetRow(blocks[b], row, &count, &columns, &values));
      mapped.resize(count);
      for (PetscInt k = 0; k < count; ++k) {
        const int owner = ownerOf(bodyRanges_[b], columns[k]);
        mapped[k] = ranges_[owner] + rankOffsets_[b][owner] + columns[k] - bodyRanges_[b][owner];
      }
      const PetscInt r = ranges_[rank] + offsets_[b] + row - start;
      EIS_CHECK(MatSetValues(matrix_, 1, &r, count, mapped.data(), values, ADD_VALUES));
      EIS_CHECK(MatRestoreRow(blocks[b], row, &count, &columns, &values));
    }
  }
  // kFactor J^T K J of each spring: -w_e w_f D between nodes of one end, +w_e w_f D across,
  // free rows and columns only (SpringForceField::addKToMatrix; a mapped end's mapping carries
  // it to the body's nodes).
  for (std::size_t s = 0; s < springs_.size(); ++s)
    for (const Term& e : springs_[s].terms) {
      if (ends_[e.end].local < 0) continue;
      for (const Term& f : springs_[s].terms) {
        const double sign = e.side == f.side ? -1.0 : 1.0;
        for (int j = 0; j < 3; ++j)
          for (int k = 0; k < 3; ++k) {
            if (ends_[e.end].fixed[j] || ends_[f.end].fixed[k]) continue;
            const PetscInt row = ends_[e.end].global + j, column = ends_[f.end].global + k;
            const PetscScalar value = sign * e.weight * f.weight * kFactor * dfdx_[s][3 * j + k];
            EIS_CHECK(MatSetValues(matrix_, 1, &row, 1, &column, &value, ADD_VALUES));
          }
      }
    }
  EIS_CHECK(MatAssemblyBegin(matrix_, MAT_FINAL_ASSEMBLY));
  EIS_CHECK(MatAssemblyEnd(matrix_, MAT_FINAL_ASSEMBLY));
  factors_[0] = mFactor;
  factors_[1] = bFactor;
  factors_[2] = kFactor;
  filled_ = true;
  return projectAttachedMatrix();
}

}  // namespace eis
