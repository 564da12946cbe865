#include "eis/model/bilateral_lagrangian_constraint.hpp"

#include <algorithm>
#include <cstdint>
#include <map>

#include "eis/core/error.hpp"
#include "eis/core/mpi_chunks.hpp"
#include "eis/core/scene.hpp"
#include "eis/model/distance_lagrangian_constraint.hpp"
#include "eis/model/fixed_lagrangian_constraint.hpp"
#include "eis/model/sliding_lagrangian_constraint.hpp"
#include "eis/model/unilateral_lagrangian_constraint.hpp"

namespace eis {

std::vector<std::int64_t> orderedNodeIds(const DistributedMesh& mesh, const Selection& selection,
                                         const SelectedNodes& nodes) {
  if (selection.kind == Selection::Kind::Indices) return selection.indices;
  std::vector<std::int64_t> mine;
  for (PetscInt v : nodes.vertices)
    if (mesh.owned()[v]) mine.push_back(mesh.nodeIds()[v]);
  std::vector<std::int64_t> all = allGatherChunks(mine, MPI_INT64_T, mesh.comm());
  std::sort(all.begin(), all.end());
  return all;
}

namespace {

constexpr const char* kKey = "lagrange.bilateral";

// The selected nodes this rank owns, by node id.
std::map<std::int64_t, PetscInt> ownedById(const DistributedMesh& mesh,
                                           const SelectedNodes& nodes) {
  std::map<std::int64_t, PetscInt> owned;
  for (PetscInt v : nodes.vertices)
    if (mesh.owned()[v]) owned.emplace(mesh.nodeIds()[v], v);
  return owned;
}

// Rows of several sets, one after another.
class StackedConstraints : public LagrangianConstraints {
public:
  void add(std::unique_ptr<LagrangianConstraints> part) {
    if (!part || part->rows() == 0) return;
    starts_.push_back(rows_);
    rows_ += part->rows();
    groups_.insert(groups_.end(), part->groups().begin(), part->groups().end());
    std::vector<GroupResolution> own = part->resolutions();
    if (own.empty()) own.resize(part->groups().size());
    resolutions_.insert(resolutions_.end(), own.begin(), own.end());
    parts_.push_back(std::move(part));
  }
  std::size_t size() const { return parts_.size(); }
  std::unique_ptr<LagrangianConstraints> release() { return std::move(parts_.front()); }

  int rows() const override { return rows_; }
  const std::vector<int>& groups() const override { return groups_; }
  std::vector<GroupResolution> resolutions() const override { return resolutions_; }
  void addTransposed(const std::vector<double>& lambda, Vec out) const override {
    for (std::size_t p = 0; p < parts_.size(); ++p) {
      const auto first = lambda.begin() + starts_[p];
      parts_[p]->addTransposed(std::vector<double>(first, first + parts_[p]->rows()), out);
    }
  }
  void addLocalProduct(Vec y, std::vector<double>& out) const override {
    each(out,
         [&](const LagrangianConstraints& c, std::vector<double>& o) { c.addLocalProduct(y, o); });
  }
  void addLocalViolation(Vec x, std::vector<double>& out) const override {
    each(out, [&](const LagrangianConstraints& c, std::vector<double>& o) {
      c.addLocalViolation(x, o);
    });
  }
  void setTime(double t) override {
    for (const auto& part : parts_) part->setTime(t);
  }
  void addLocalStepViolation(Vec start, Vec x, std::vector<double>& out) const override {
    each(out, [&](const LagrangianConstraints& c, std::vector<double>& o) {
      c.addLocalStepViolation(start, x, o);
    });
  }
  void addLocalVelocityViolation(Vec x, Vec v, double h, std::vector<double>& out) const override {
    each(out, [&](const LagrangianConstraints& c, std::vector<double>& o) {
      c.addLocalVelocityViolation(x, v, h, o);
    });
  }
  void setChildForces(const std::vector<double>& multipliers, double h) const override {
    for (std::size_t p = 0; p < parts_.size(); ++p) {
      const auto first = multipliers.begin() + starts_[p];
      parts_[p]->setChildForces(std::vector<double>(first, first + parts_[p]->rows()), h);
    }
  }

private:
  template <class F>
  void each(std::vector<double>& out, F f) const {
    for (std::size_t p = 0; p < parts_.size(); ++p) {
      const auto first = out.begin() + starts_[p];
      std::vector<double> part(first, first + parts_[p]->rows());
      f(*parts_[p], part);
      std::copy(part.begin(), part.end(), first);
    }
  }
  std::vector<std::unique_ptr<LagrangianConstraints>> parts_;
  std::vector<int> starts_;
  int rows_ = 0;
  std::vector<int> groups_;
  std::vector<GroupResolution> resolutions_;
};

}  // namespace

BilateralLagrangianConstraint::Pairs BilateralLagrangianConstraint::parsePairs(
    const std::string& key, const std::string& text) {
  const Texts words = parse::tokens(text);
  const auto to = std::find(words.begin(), words.end(), "to");
  if (to == words.end() || to == words.begin() || to + 1 == words.end())
    throw Error(key + " = " + text +
                ": expected SELECTION to SELECTION, or SELECTION to points X Y Z ..");
  const auto join = [](Texts::const_iterator a, Texts::const_iterator b) {
    std::string s;
    for (; a != b; ++a) s += (s.empty() ? "" : " ") + *a;
    return s;
  };
  Pairs p;
  p.text = text;
  p.first = parseSelectionValue(key, join(words.begin(), to), 0).selection;
  if (*(to + 1) == "points") {
    p.toPoints = true;
    const auto moving = std::find(to + 2, words.end(), "moving");
    const std::vector<double> xyz = parse::reals(key, join(to + 2, moving), 0);
    if (xyz.empty() || xyz.size() % 3 != 0)
      throw Error(key + " = " + text + ": the points are not triples X Y Z");
    for (std::size_t i = 0; i < xyz.size(); i += 3)
      p.points.push_back({xyz[i], xyz[i + 1], xyz[i + 2]});
    if (moving != words.end()) {
      std::string selection;
      p.motion = parseKeyFrames(key, join(moving + 1, words.end()) + " : all", selection);
    }
  } else if (*(to + 1) == "body") {
    if (to + 3 >= words.end())
      throw Error(key + " = " + text + ": expected SELECTION to body PATH SELECTION");
    p.body = *(to + 2);
    p.second = parseSelectionValue(key, join(to + 3, words.end()), 0).selection;
  } else {
    p.second = parseSelectionValue(key, join(to + 1, words.end()), 0).selection;
  }
  return p;
}

BilateralLagrangianConstraint::Parameters BilateralLagrangianConstraint::readParameters(
    const eis::Parameters& scene) {
  Parameters p;
  for (const std::string& text : scene.texts(kKey))
    if (Pairs pairs = parsePairs(kKey, text); pairs.body.empty()) p.pairs.push_back(pairs);
  return p;
}

std::vector<BilateralLagrangianConstraint::Pairs> bilateralPairsAcross(
    const eis::Parameters& scene) {
  std::vector<BilateralLagrangianConstraint::Pairs> across;
  for (const std::string& text : scene.texts(kKey))
    if (auto pairs = BilateralLagrangianConstraint::parsePairs(kKey, text); !pairs.body.empty())
      across.push_back(pairs);
  return across;
}

std::unique_ptr<BilateralLagrangianConstraint> BilateralLagrangianConstraint::make(
    const DistributedMesh& mesh, const Parameters& parameters, std::vector<std::string>& warnings) {
  if (parameters.pairs.empty()) return nullptr;
  std::unique_ptr<BilateralLagrangianConstraint> c(new BilateralLagrangianConstraint);
  for (const Pairs& pairs : parameters.pairs)
    c->addPairs(pairs, mesh, 0, pairs.toPoints ? nullptr : &mesh, 0, warnings);
  return c;
}

void BilateralLagrangianConstraint::addPairs(const Pairs& pairs, const DistributedMesh& firstMesh,
                                             PetscInt firstOffset,
                                             const DistributedMesh* secondMesh,
                                             PetscInt secondOffset,
                                             std::vector<std::string>& warnings) {
  const SelectedNodes firstNodes = selectNodes(firstMesh, pairs.first, kKey);
  const std::vector<std::int64_t> first = orderedNodeIds(firstMesh, pairs.first, firstNodes);
  std::vector<std::int64_t> second;
  std::map<std::int64_t, PetscInt> secondOwned;
  if (secondMesh) {
    const SelectedNodes secondNodes = selectNodes(*secondMesh, pairs.second, kKey);
    second = orderedNodeIds(*secondMesh, pairs.second, secondNodes);
    secondOwned = ownedById(*secondMesh, secondNodes);
  }
  const std::size_t secondCount = secondMesh ? second.size() : pairs.points.size();
  const std::size_t count = std::min(first.size(), secondCount);
  if (count == 0) warnings.push_back(kKey + std::string(" = ") + pairs.text + " holds no point");
  if (first.size() != secondCount)
    warnings.push_back(kKey + std::string(" = ") + pairs.text + ": " +
                       std::to_string(first.size()) + " first and " + std::to_string(secondCount) +
                       " second points; the first " + std::to_string(count) +
                       " of each are paired (as SOFA does)");
  const std::map<std::int64_t, PetscInt> firstOwned = ownedById(firstMesh, firstNodes);
  int motion = -1;
  if (!secondMesh && !pairs.motion.times.empty()) {
    motion = int(motions_.size());
    motions_.push_back(pairs.motion);
    shifts_.push_back({0, 0, 0});
  }
  for (std::size_t k = 0; k < count; ++k) {
    const int row = rows_ + 3 * int(k);
    if (const auto a = firstOwned.find(first[k]); a != firstOwned.end())
      entries_.push_back({row, firstOffset + firstMesh.ownedOffset(a->second), -1.0,
                          secondMesh ? std::array<double, 3>{} : pairs.points[k], motion});
    if (!secondMesh) continue;
    if (const auto b = secondOwned.find(second[k]); b != secondOwned.end())
      entries_.push_back({row, secondOffset + secondMesh->ownedOffset(b->second), 1.0, {}, -1});
  }
  rows_ += 3 * int(count);
  groups_.assign(std::size_t(rows_ / 3), 3);
}

void BilateralLagrangianConstraint::addTransposed(const std::vector<double>& lambda,
                                                  Vec out) const {
  PetscScalar* values;
  EIS_CHECK(VecGetArray(out, &values));
  for (const Entry& e : entries_)
    for (int d = 0; d < 3; ++d) values[e.offset + d] += e.sign * lambda[std::size_t(e.row + d)];
  EIS_CHECK(VecRestoreArray(out, &values));
}

void BilateralLagrangianConstraint::addLocalProduct(Vec y, std::vector<double>& out) const {
  const PetscScalar* values;
  EIS_CHECK(VecGetArrayRead(y, &values));
  for (const Entry& e : entries_)
    for (int d = 0; d < 3; ++d) out[std::size_t(e.row + d)] += e.sign * values[e.offset + d];
  EIS_CHECK(VecRestoreArrayRead(y, &values));
}

void BilateralLagrangianConstraint::addLocalViolation(Vec x, std::vector<double>& out) const {
  const PetscScalar* values;
  EIS_CHECK(VecGetArrayRead(x, &values));
  for (const Entry& e : entries_)
    for (int d = 0; d < 3; ++d)
      out[std::size_t(e.row + d)] +=
          e.sign * values[e.offset + d] +
          (e.motion < 0 ? e.constant[d] : e.constant[d] + shifts_[std::size_t(e.motion)][d]);
  EIS_CHECK(VecRestoreArrayRead(x, &values));
}

// SOFA's LinearMovementProjectiveConstraint::projectPosition, relative movements: x0 + m(t), at
// initialization (the first time given) and after each step at its start time.
void BilateralLagrangianConstraint::setTime(double t) {
  if (started_ && t == lastTime_) return;
  const double projected = started_ ? lastTime_ : t;
  for (std::size_t k = 0; k < motions_.size(); ++k)
    if (motions_[k].active(projected)) {
      std::array<double, 3> slope;
      motions_[k].sofaAt(projected, shifts_[k], slope);
    }
  started_ = true;
  lastTime_ = t;
}

// Per pair, SOFA computes (x_b - x_a) / h + (v_b - v_a); here each node's term is its owner's,
// summed over the pair's one or two entries.
void BilateralLagrangianConstraint::addLocalVelocityViolation(Vec x, Vec v, double h,
                                                              std::vector<double>& out) const {
  if (!motions_.empty())
    throw Error(std::string(kKey) +
                ": moving points in the velocity order (lagrange.in-step): not supported");
  const PetscScalar *xs, *vs;
  EIS_CHECK(VecGetArrayRead(x, &xs));
  EIS_CHECK(VecGetArrayRead(v, &vs));
  for (const Entry& e : entries_)
    for (int d = 0; d < 3; ++d)
      out[std::size_t(e.row + d)] +=
          (e.sign * xs[e.offset + d] + e.constant[d]) / h + e.sign * vs[e.offset + d];
  EIS_CHECK(VecRestoreArrayRead(v, &vs));
  EIS_CHECK(VecRestoreArrayRead(x, &xs));
}

namespace {

// A member's own rows, read and written in its part of a joined vector: a vector of the
// member's layout whose array is placed on that part for each call.
class MemberRows : public LagrangianConstraints {
public:
  MemberRows(const LagrangianConstraints& own, PetscInt offset, PetscInt localSize, MPI_Comm comm)
      : own_(own), offset_(offset) {
    EIS_CHECK(VecCreateMPIWithArray(comm, 1, localSize, PETSC_DETERMINE, nullptr, &view_));
    EIS_CHECK(VecCreateMPIWithArray(comm, 1, localSize, PETSC_DETERMINE, nullptr, &startView_));
  }
  ~MemberRows() override {
    VecDestroy(&view_);
    VecDestroy(&startView_);
  }
  MemberRows(const MemberRows&) = delete;
  MemberRows& operator=(const MemberRows&) = delete;

  int rows() const override { return own_.rows(); }
  const std::vector<int>& groups() const override { return own_.groups(); }
  std::vector<GroupResolution> resolutions() const override { return own_.resolutions(); }
  void addTransposed(const std::vector<double>& lambda, Vec out) const override {
    PetscScalar* a;
    EIS_CHECK(VecGetArray(out, &a));
    EIS_CHECK(VecPlaceArray(view_, a + offset_));
    own_.addTransposed(lambda, view_);
    EIS_CHECK(VecResetArray(view_));
    EIS_CHECK(VecRestoreArray(out, &a));
  }
  void addLocalProduct(Vec y, std::vector<double>& out) const override {
    read(y, [&] { own_.addLocalProduct(view_, out); });
  }
  void addLocalViolation(Vec x, std::vector<double>& out) const override {
    read(x, [&] { own_.addLocalViolation(view_, out); });
  }
  void addLocalStepViolation(Vec start, Vec x, std::vector<double>& out) const override {
    const PetscScalar* a;
    EIS_CHECK(VecGetArrayRead(start, &a));
    EIS_CHECK(VecPlaceArray(startView_, const_cast<PetscScalar*>(a) + offset_));
    read(x, [&] { own_.addLocalStepViolation(startView_, view_, out); });
    EIS_CHECK(VecResetArray(startView_));
    EIS_CHECK(VecRestoreArrayRead(start, &a));
  }
  void addLocalVelocityViolation(Vec x, Vec v, double h, std::vector<double>& out) const override {
    const PetscScalar* a;
    EIS_CHECK(VecGetArrayRead(v, &a));
    EIS_CHECK(VecPlaceArray(startView_, const_cast<PetscScalar*>(a) + offset_));
    read(x, [&] { own_.addLocalVelocityViolation(view_, startView_, h, out); });
    EIS_CHECK(VecResetArray(startView_));
    EIS_CHECK(VecRestoreArrayRead(v, &a));
  }
  void setChildForces(const std::vector<double>& multipliers, double h) const override {
    own_.setChildForces(multipliers, h);
  }

private:
  template <class F>
  void read(Vec whole, F f) const {
    const PetscScalar* a;
    EIS_CHECK(VecGetArrayRead(whole, &a));
    EIS_CHECK(VecPlaceArray(view_, const_cast<PetscScalar*>(a) + offset_));
    f();
    EIS_CHECK(VecResetArray(view_));
    EIS_CHECK(VecRestoreArrayRead(whole, &a));
  }
  const LagrangianConstraints& own_;
  PetscInt offset_;
  Vec view_ = nullptr, startView_ = nullptr;
};

}  // namespace

std::unique_ptr<LagrangianConstraints> joinLagrangianConstraints(
    const std::vector<JoinedMember>& members, std::vector<std::string>& warnings) {
  StackedConstraints all;
  for (const JoinedMember& m : members)
    if (m.own) all.add(std::make_unique<MemberRows>(*m.own, m.offset, m.localSize, m.mesh->comm()));
  std::unique_ptr<BilateralLagrangianConstraint> across(new BilateralLagrangianConstraint);
  for (const JoinedMember& m : members)
    for (const BilateralLagrangianConstraint::Pairs& pairs : m.across) {
      const auto other = std::find_if(members.begin(), members.end(),
                                      [&](const JoinedMember& o) { return o.path == pairs.body; });
      if (other == members.end())
        throw Error(m.path + ": " + kKey + " = " + pairs.text + ": " + pairs.body +
                    " is no body of its solver.group");
      across->addPairs(pairs, *m.mesh, m.offset, other->mesh, other->offset, warnings);
    }
  all.add(std::move(across));
  if (all.size() == 0) return nullptr;
  return std::make_unique<StackedConstraints>(std::move(all));
}

std::unique_ptr<LagrangianConstraints> makeLagrangianConstraints(
    const DistributedMesh& mesh, const eis::Parameters& scene, std::vector<std::string>& warnings,
    std::vector<std::unique_ptr<ForceField>>& fields) {
  StackedConstraints all;
  all.add(FixedLagrangianConstraint::make(mesh, FixedLagrangianConstraint::readParameters(scene),
                                          warnings));
  all.add(BilateralLagrangianConstraint::make(
      mesh, BilateralLagrangianConstraint::readParameters(scene), warnings));
  all.add(UnilateralLagrangianConstraint::make(
      mesh, UnilateralLagrangianConstraint::readParameters(scene), warnings));
  all.add(SlidingLagrangianConstraint::make(
      mesh, SlidingLagrangianConstraint::readParameters(scene), warnings));
  auto distance =
      DistanceLagrangianConstraint::make(mesh, DistanceLagrangianConstraint::readParameters(scene));
  if (distance)
    if (auto field = distance->geometricStiffness(mesh)) fields.push_back(std::move(field));
  all.add(std::move(distance));
  if (all.size() == 0) return nullptr;
  if (all.size() == 1) return all.release();
  return std::make_unique<StackedConstraints>(std::move(all));
}

const ComponentDeclaration& bilateralLagrangianConstraintComponent() {
  static const ComponentDeclaration component{
      "bilateral-lagrangian-constraint", "Lagrangian constraint",
      "pairs of points held together by constraint forces (SOFA\n"
      "BilateralLagrangianConstraint); needs lagrange.solver and lagrange.correction",
      ParameterSpec().add(
          {kKey,
           "SELECTION to SELECTION|body PATH SELECTION|points X Y Z .. [moving T DX DY DZ ..]",
           "the k-th node of the first selection is held to the k-th of the second (a node of\n"
           "the same body, or of the body PATH of its solver.group) or to the k-th fixed point,\n"
           "three rows a pair (SOFA\n"
           "BilateralLagrangianConstraint first_point, second_point; a second object that\n"
           "nothing integrates gives fixed points). A selection's nodes in the order of an\n"
           "`indices` list, else by increasing id. `moving`: key frames (increasing times T) of\n"
           "a translation of the points, SOFA's LinearMovementProjectiveConstraint on a frame\n"
           "they are rigidly mapped from: the step starting at t_n holds to them moved by\n"
           "m(t_{n-1}) (m(t_0) for the first), while that time lies in [first T, last T).\n"
           "Repeatable.",
           std::nullopt, "", true,
           [](const std::string& key, const std::string& text) {
             BilateralLagrangianConstraint::parsePairs(key, text);
           }}),
      nullptr};
  return component;
}

// After the fixed Lagrangian constraint (520).
const RegisterComponent registered(525, bilateralLagrangianConstraintComponent);

}  // namespace eis
