// The attached pairs of a group (attach.pairs, SOFA's AttachProjectiveConstraint between two
// Vec3d states of one solver): CoupledSystem's part that projects them (model/coupled_system.hpp,
// the law of one pair in model/attach_constraint.hpp). Every rank applies every pair, in order,
// to the attached nodes' values gathered from their owners (one MPI_Allreduce), and each owner
// writes its nodes back: the result does not depend on the rank count.
#include <map>
#include <set>

#include "eis/core/error.hpp"
#include "eis/model/coupled_system.hpp"

namespace eis {

namespace {

std::string bodyName(const std::string& path) {
  return path.empty() ? "the body" : path;
}

}  // namespace

// Each node once (a node in two pairs is refused: the solve's projection would not be the
// symmetric projector the assembled matrix stands for); the pairs' P as a joined AIJ matrix.
void CoupledSystem::setUpAttachments() {
  std::map<std::pair<std::size_t, std::int64_t>, std::size_t> index;
  std::vector<std::pair<std::size_t, std::int64_t>> nodes;
  std::vector<std::string> owners;
  for (std::size_t b = 0; b < members_.size(); ++b)
    for (const AttachSet& set : members_[b].attach) {
      const std::size_t t = memberNamed(set.target, b, "attach.pairs");
      if (t == b)
        throw Error("attach.pairs of " + bodyName(members_[b].path) +
                    ": the target is the body itself; pairs within one body are not supported");
      const double share = set.twoWay ? 0.5 * set.responseFactor : 0.0;
      for (const AttachPair& pair : set.pairs) {
        const double a = share * pair.factor;
        if (set.twoWay && a != 0.0 && a != 0.5)
          throw Error("attach.pairs of " + bodyName(members_[b].path) + " to " + set.target +
                      ": two-way with response-factor x c = " + std::to_string(2 * a) +
                      ": the solve projects a two-way pair exactly for R c = 1 or 0 only");
        std::size_t ends[2];
        const std::pair<std::size_t, std::int64_t> keys[2] = {{b, pair.node1}, {t, pair.node2}};
        for (int k = 0; k < 2; ++k) {
          if (index.count(keys[k]))
            throw Error("attach.pairs: node " + std::to_string(keys[k].second) + " of " +
                        bodyName(members_[keys[k].first].path) +
                        " is in two attached pairs; each node may be in one");
          ends[k] = index[keys[k]] = nodes.size();
          nodes.push_back(keys[k]);
        }
        attached_.push_back({&set, &pair, ends[0], ends[1]});
      }
    }
  attachEnds_ = locate(nodes, "attach.pairs");
  for (std::size_t e = 0; e < nodes.size(); ++e)
    for (bool fixed : attachEnds_[e].fixed)
      if (fixed)
        throw Error("attach.pairs: node " + std::to_string(nodes[e].second) + " of " +
                    bodyName(members_[nodes[e].first].path) +
                    " is also fixed by its body's constraints; an attached node is not");
  if (attached_.empty()) return;

  // P: the identity but, one-way, an explicit zero block on j (so that P^T A P keeps the
  // diagonal that (I - P) D fills), two-way [[1 - a, a], [a, 1 - a]] on the pair.
  int rank;
  EIS_CHECK_MPI(MPI_Comm_rank(comm_, &rank));
  const PetscInt first = ranges_[rank], n = ranges_[rank + 1] - first;
  EIS_CHECK(MatCreateAIJ(comm_, n, n, PETSC_DETERMINE, PETSC_DETERMINE, 2, nullptr, 1, nullptr,
                         &attachP_));
  EIS_CHECK(MatSetBlockSize(attachP_, dofs_));
  std::set<PetscInt> special;
  for (const Attached& p : attached_)
    for (std::size_t e : {p.end1, p.end2})
      if (attachEnds_[e].local >= 0)
        for (int d = 0; d < dofs_; ++d) special.insert(attachEnds_[e].local + d);
  for (PetscInt r = 0; r < n; ++r)
    if (!special.count(r)) {
      const PetscInt row = first + r;
      EIS_CHECK(MatSetValue(attachP_, row, row, 1.0, INSERT_VALUES));
    }
  for (const Attached& p : attached_) {
    const double a = p.set->twoWay ? 0.5 * p.set->responseFactor * p.pair->factor : 0.0;
    const End &i = attachEnds_[p.end1], &j = attachEnds_[p.end2];
    for (int d = 0; d < dofs_; ++d) {
      if (i.local >= 0) {
        EIS_CHECK(MatSetValue(attachP_, i.global + d, i.global + d, p.set->twoWay ? 1 - a : 1.0,
                              INSERT_VALUES));
        if (p.set->twoWay)
          EIS_CHECK(MatSetValue(attachP_, i.global + d, j.global + d, a, INSERT_VALUES));
      }
      if (j.local >= 0) {
        EIS_CHECK(MatSetValue(attachP_, j.global + d, j.global + d, p.set->twoWay ? 1 - a : 0.0,
                              INSERT_VALUES));
        if (p.set->twoWay)
          EIS_CHECK(MatSetValue(attachP_, j.global + d, i.global + d, a, INSERT_VALUES));
      }
    }
  }
  EIS_CHECK(MatAssemblyBegin(attachP_, MAT_FINAL_ASSEMBLY));
  EIS_CHECK(MatAssemblyEnd(attachP_, MAT_FINAL_ASSEMBLY));
}

// SOFA's projectResponse, pair by pair in order, on the gathered values.
void CoupledSystem::projectAttachedResponse(Vec v) const {
  if (attached_.empty()) return;
  std::vector<double> values = gather(attachEnds_, v);
  for (const Attached& p : attached_)
    attachProjectResponse(*p.set, *p.pair, &values[3 * p.end1], &values[3 * p.end2]);
  scatter(attachEnds_, values, v);
}

// Positions, then velocities, constraint (attach.pairs value) by constraint.
void CoupledSystem::projectMotion(Vec x, Vec v) {
  if (attached_.empty()) return;
  std::vector<double> xs = gather(attachEnds_, x), vs = gather(attachEnds_, v);
  for (std::size_t k = 0; k < attached_.size();) {
    std::size_t end = k;
    while (end < attached_.size() && attached_[end].set == attached_[k].set) ++end;
    for (std::size_t q = k; q < end; ++q) {
      const Attached& p = attached_[q];
      attachProjectPosition(*p.set, *p.pair, &xs[3 * p.end1], &xs[3 * p.end2]);
    }
    for (std::size_t q = k; q < end; ++q) {
      const Attached& p = attached_[q];
      attachProjectVelocity(*p.set, *p.pair, &vs[3 * p.end1], &vs[3 * p.end2]);
    }
    k = end;
  }
  scatter(attachEnds_, xs, x);
  scatter(attachEnds_, vs, v);
}

// P A P + (I - P) D, D on a pair the mean diagonal entry of its nodes' rows of A: the solution
// then has no part outside P's range and its part inside solves the reduced system, as SOFA's CG
// on projectResponse(A x) does; one-way rows are fixed rows (SOFA's applyConstraint).
Mat CoupledSystem::projectAttachedMatrix() {
  if (attached_.empty()) return matrix_;
  Vec diagonal;
  EIS_CHECK(MatCreateVecs(matrix_, &diagonal, nullptr));
  EIS_CHECK(MatGetDiagonal(matrix_, diagonal));
  const std::vector<double> d = gather(attachEnds_, diagonal);
  EIS_CHECK(VecDestroy(&diagonal));
  EIS_CHECK(MatPtAP(matrix_, attachP_, projected_ ? MAT_REUSE_MATRIX : MAT_INITIAL_MATRIX,
                    PETSC_DEFAULT, &projected_));
  for (const Attached& p : attached_) {
    const End &i = attachEnds_[p.end1], &j = attachEnds_[p.end2];
    double mean = 0;
    for (int k = 0; k < 3; ++k)
      mean += d[3 * p.end2 + k] + (p.set->twoWay ? d[3 * p.end1 + k] : 0.0);
    mean /= p.set->twoWay ? 6.0 : 3.0;
    const double a = p.set->twoWay ? 0.5 * p.set->responseFactor * p.pair->factor : 1.0;
    if (a == 0.0) continue;
    for (int k = 0; k < dofs_; ++k) {
      // (I - P) D: one-way d on j; two-way d [[a, -a], [-a, a]].
      if (j.local >= 0) {
        EIS_CHECK(MatSetValue(projected_, j.global + k, j.global + k, a * mean, ADD_VALUES));
        if (p.set->twoWay)
          EIS_CHECK(MatSetValue(projected_, j.global + k, i.global + k, -a * mean, ADD_VALUES));
      }
      if (p.set->twoWay && i.local >= 0) {
        EIS_CHECK(MatSetValue(projected_, i.global + k, i.global + k, a * mean, ADD_VALUES));
        EIS_CHECK(MatSetValue(projected_, i.global + k, j.global + k, -a * mean, ADD_VALUES));
      }
    }
  }
  EIS_CHECK(MatAssemblyBegin(projected_, MAT_FINAL_ASSEMBLY));
  EIS_CHECK(MatAssemblyEnd(projected_, MAT_FINAL_ASSEMBLY));
  PetscBool symmetric = PETSC_FALSE, known = PETSC_FALSE;
  EIS_CHECK(MatIsSymmetricKnown(matrix_, &known, &symmetric));
  if (known) EIS_CHECK(MatSetOption(projected_, MAT_SYMMETRIC, symmetric));
  return projected_;
}

}  // namespace eis
