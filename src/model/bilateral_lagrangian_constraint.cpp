#include "eis/model/bilateral_lagrangian_constraint.hpp"

#include <algorithm>
#include <cstdint>
#include <map>

#include "eis/core/error.hpp"
#include "eis/core/scene.hpp"
#include "eis/model/fixed_lagrangian_constraint.hpp"

namespace eis {

namespace {

constexpr const char* kKey = "lagrange.bilateral";

// The ids of the nodes a selection picks, in SOFA's order, on every rank: an `indices` list as
// written, any other selection by increasing node id.
std::vector<std::int64_t> orderedIds(const DistributedMesh& mesh, const Selection& selection,
                                     const SelectedNodes& nodes) {
  if (selection.kind == Selection::Kind::Indices) return selection.indices;
  std::vector<std::int64_t> mine;
  for (PetscInt v : nodes.vertices)
    if (mesh.owned()[v]) mine.push_back(mesh.nodeIds()[v]);
  int size;
  EIS_CHECK_MPI(MPI_Comm_size(mesh.comm(), &size));
  const int count = int(mine.size());
  std::vector<int> counts(size), starts(size, 0);
  EIS_CHECK_MPI(MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, mesh.comm()));
  for (int r = 1; r < size; ++r) starts[r] = starts[r - 1] + counts[r - 1];
  std::vector<std::int64_t> all(std::size_t(starts.back() + counts.back()));
  EIS_CHECK_MPI(MPI_Allgatherv(mine.data(), count, MPI_INT64_T, all.data(), counts.data(),
                               starts.data(), MPI_INT64_T, mesh.comm()));
  std::sort(all.begin(), all.end());
  return all;
}

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
    parts_.push_back(std::move(part));
  }
  std::size_t size() const { return parts_.size(); }
  std::unique_ptr<LagrangianConstraints> release() { return std::move(parts_.front()); }

  int rows() const override { return rows_; }
  const std::vector<int>& groups() const override { return groups_; }
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
    const std::string numbers = join(to + 2, words.end());
    const std::vector<double> xyz = parse::reals(key, numbers, 0);
    if (xyz.empty() || xyz.size() % 3 != 0)
      throw Error(key + " = " + text + ": the points are not triples X Y Z");
    for (std::size_t i = 0; i < xyz.size(); i += 3)
      p.points.push_back({xyz[i], xyz[i + 1], xyz[i + 2]});
  } else {
    p.second = parseSelectionValue(key, join(to + 1, words.end()), 0).selection;
  }
  return p;
}

BilateralLagrangianConstraint::Parameters BilateralLagrangianConstraint::readParameters(
    const eis::Parameters& scene) {
  Parameters p;
  for (const std::string& text : scene.texts(kKey)) p.pairs.push_back(parsePairs(kKey, text));
  return p;
}

std::unique_ptr<BilateralLagrangianConstraint> BilateralLagrangianConstraint::make(
    const DistributedMesh& mesh, const Parameters& parameters, std::vector<std::string>& warnings) {
  if (parameters.pairs.empty()) return nullptr;
  std::unique_ptr<BilateralLagrangianConstraint> c(new BilateralLagrangianConstraint);
  for (const Pairs& pairs : parameters.pairs) {
    const SelectedNodes firstNodes = selectNodes(mesh, pairs.first, kKey);
    const std::vector<std::int64_t> first = orderedIds(mesh, pairs.first, firstNodes);
    std::vector<std::int64_t> second;
    std::map<std::int64_t, PetscInt> secondOwned;
    if (!pairs.toPoints) {
      const SelectedNodes secondNodes = selectNodes(mesh, pairs.second, kKey);
      second = orderedIds(mesh, pairs.second, secondNodes);
      secondOwned = ownedById(mesh, secondNodes);
    }
    const std::size_t secondCount = pairs.toPoints ? pairs.points.size() : second.size();
    const std::size_t count = std::min(first.size(), secondCount);
    if (count == 0) warnings.push_back(kKey + std::string(" = ") + pairs.text + " holds no point");
    if (first.size() != secondCount)
      warnings.push_back(kKey + std::string(" = ") + pairs.text + ": " +
                         std::to_string(first.size()) + " first and " +
                         std::to_string(secondCount) + " second points; the first " +
                         std::to_string(count) + " of each are paired (as SOFA does)");
    const std::map<std::int64_t, PetscInt> firstOwned = ownedById(mesh, firstNodes);
    for (std::size_t k = 0; k < count; ++k) {
      const int row = c->rows_ + 3 * int(k);
      if (const auto a = firstOwned.find(first[k]); a != firstOwned.end())
        c->entries_.push_back({row, mesh.ownedOffset(a->second), -1.0,
                               pairs.toPoints ? pairs.points[k] : std::array<double, 3>{}});
      if (pairs.toPoints) continue;
      if (const auto b = secondOwned.find(second[k]); b != secondOwned.end())
        c->entries_.push_back({row, mesh.ownedOffset(b->second), 1.0, {}});
    }
    c->rows_ += 3 * int(count);
  }
  c->groups_.assign(std::size_t(c->rows_ / 3), 3);
  return c;
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
      out[std::size_t(e.row + d)] += e.sign * values[e.offset + d] + e.constant[d];
  EIS_CHECK(VecRestoreArrayRead(x, &values));
}

std::unique_ptr<LagrangianConstraints> makeLagrangianConstraints(
    const DistributedMesh& mesh, const eis::Parameters& scene, std::vector<std::string>& warnings) {
  StackedConstraints all;
  all.add(FixedLagrangianConstraint::make(mesh, FixedLagrangianConstraint::readParameters(scene),
                                          warnings));
  all.add(BilateralLagrangianConstraint::make(
      mesh, BilateralLagrangianConstraint::readParameters(scene), warnings));
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
          {kKey, "SELECTION to SELECTION|points X Y Z ..",
           "the k-th node of the first selection is held to the k-th of the second (a node of\n"
           "the same body) or to the k-th fixed point, three rows a pair (SOFA\n"
           "BilateralLagrangianConstraint first_point, second_point; a second object that\n"
           "nothing integrates gives fixed points). A selection's nodes in the order of an\n"
           "`indices` list, else by increasing id. Repeatable.",
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
