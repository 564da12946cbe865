// Constant forces on a mapped child carried to a body's hexahedra as SOFA's
// HexahedronCompositeFEMMapping::applyJT carries them (HexahedronCompositeFEMMapping.inl): a fine
// node's share g of a child force goes to the corners of each coarse cell it lies in as
// R^T W^T R g (W: the node's 3 x 24 weights in the cell, R: the cell's rotation). W^T R g is
// bilinear in W and g, so the importer (io/sofa_composite_mapping) sums each cell's loads into one
// 24 x 9 matrix A, W^T R g = A vec(R) (vec row-major), and this field adds R^T (A vec R) to the
// cell's corners. R is the cell's "large" frame (HexahedronFEMForceField::computeRotationLarge,
// rows its axes) as SOFA's mapping holds it: its apply copies the force field's rotations, which
// the force field's addForce computed at the start of the step before (at the first step, its
// init's, from the initial positions). K = 0: SOFA's mapping adds no geometric stiffness.
#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "eis/core/error.hpp"
#include "eis/mesh/distributed_mesh.hpp"
#include "eis/model/force_field.hpp"
#include "eis/model/force_field_component.hpp"
#include "eis/model/mat3.hpp"

namespace eis {

namespace {

const char* const kKey = "mapped.composite-loads";
constexpr std::size_t kEntries = 24 * 9;
using Matrix = std::array<double, kEntries>;
using mat3::Mat3;

// Each listed input cell's A, repeated cells summed.
std::map<std::int64_t, Matrix> parseLoads(const std::string& text) {
  const Texts t = parse::tokens(text);
  if (t.empty() || t.size() % (kEntries + 1) != 0)
    parse::reject(kKey, text, "expected a cell id then 216 numbers (A, 24 x 9), for each cell");
  std::map<std::int64_t, Matrix> loads;
  for (std::size_t i = 0; i < t.size(); i += kEntries + 1) {
    long long cell;
    if (!parse::number(t[i], cell) || cell < 0)
      parse::reject(kKey, text, "a cell id is an integer >= 0");
    Matrix& a = loads.try_emplace(cell, Matrix{}).first->second;
    for (std::size_t j = 0; j < kEntries; ++j) {
      double value;
      if (!parse::number(t[i + 1 + j], value))
        parse::reject(kKey, text, "expected 216 numbers after each cell id");
      a[j] += value;
    }
  }
  return loads;
}

// SOFA's computeRotationLarge of a hexahedron at x: its mean x and y edges, summed as SOFA does.
Mat3 largeFrame(const DistributedMesh& mesh, std::size_t cell, const double* x) {
  const auto v = mesh.cells()[cell];
  const auto at = [&](int a) {
    const double* p = x + 3 * std::size_t(v[std::size_t(a)]);
    return Vec3{p[0], p[1], p[2]};
  };
  Vec3 u{}, w{};
  for (int i = 0; i < 3; ++i) {
    u[i] = (at(1)[i] - at(0)[i] + at(2)[i] - at(3)[i] + at(5)[i] - at(4)[i] + at(6)[i] - at(7)[i]) *
           .25;
    w[i] = (at(3)[i] - at(0)[i] + at(2)[i] - at(1)[i] + at(7)[i] - at(4)[i] + at(6)[i] - at(5)[i]) *
           .25;
  }
  const Vec3 ex = mat3::normalized(u);
  const Vec3 ez = mat3::normalized(mat3::cross(ex, w));
  return mat3::rowsOf(ex, mat3::cross(ez, ex), ez);
}

class CompositeMappedLoad : public LoadField {
public:
  CompositeMappedLoad(const DistributedMesh& mesh, const std::map<std::int64_t, Matrix>& loads)
      : mesh_(mesh) {
    const auto& ids = mesh.inputCellIds();
    for (std::size_t c = 0; c < ids.size(); ++c)
      if (const auto it = loads.find(ids[c]); it != loads.end()) {
        cells_.push_back(c);
        matrices_.push_back(it->second);
      }
  }

  void setTime(double, double) override { newStep_ = true; }

  void addForce(const double* x, const double*, double* f) override {
    if (newStep_) {
      std::vector<Mat3> next;
      for (std::size_t c : cells_) next.push_back(largeFrame(mesh_, c, x));
      applied_ = pending_.empty() ? next : pending_;
      pending_ = std::move(next);
      newStep_ = false;
    }
    for (std::size_t k = 0; k < cells_.size(); ++k) {
      const Mat3& r = applied_[k];
      const Matrix& a = matrices_[k];
      const auto v = mesh_.cells()[cells_[k]];
      for (int corner = 0; corner < 8; ++corner) {
        Vec3 local{0, 0, 0};
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 9; ++j)
            local[std::size_t(i)] += a[std::size_t((3 * corner + i) * 9 + j)] * r[std::size_t(j)];
        const Vec3 world = mat3::transposeTimes(r, local);
        for (int i = 0; i < 3; ++i) f[3 * std::size_t(v[std::size_t(corner)]) + i] += world[i];
      }
    }
  }

private:
  const DistributedMesh& mesh_;
  std::vector<std::size_t> cells_;  // the local cells with loads
  std::vector<Matrix> matrices_;    // and their A
  std::vector<Mat3> applied_, pending_;
  bool newStep_ = true;
};

struct CompositeLoadParameters {
  std::map<std::int64_t, Matrix> loads;
};

CompositeLoadParameters readCompositeLoads(const Parameters& scene) {
  CompositeLoadParameters parameters;
  if (scene.given(kKey)) parameters.loads = parseLoads(scene.text(kKey));
  return parameters;
}

std::unique_ptr<ForceField> makeCompositeLoad(const ModelContext& context,
                                              const CompositeLoadParameters& parameters) {
  if (parameters.loads.empty()) return nullptr;
  if (context.mesh.cellType() != CellType::Hexahedron)
    throw Error(std::string(kKey) + ": the loads act on hexahedra, and this mesh has " +
                pluralNameOf(context.mesh.cellType()));
  std::int64_t local = 0, cells = 0;
  for (std::int64_t id : context.mesh.inputCellIds()) local = std::max(local, id + 1);
  EIS_CHECK_MPI(MPI_Allreduce(&local, &cells, 1, MPI_INT64_T, MPI_MAX, context.mesh.comm()));
  if (parameters.loads.rbegin()->first >= cells)
    throw Error(std::string(kKey) + ": cell " + std::to_string(parameters.loads.rbegin()->first) +
                " of a mesh of " + std::to_string(cells) + " cells");
  return std::make_unique<CompositeMappedLoad>(context.mesh, parameters.loads);
}

ForceFieldComponent compositeLoadComponent() {
  return {{"composite-mapped-load", "force field",
           "constant forces of a mapped child carried as SOFA's HexahedronCompositeFEMMapping does",
           ParameterSpec().add(
               {kKey, "\"C A0 .. A215 [C A0 .. A215 ..]\"",
                "forces on the corners of input hexahedron C (its 8 corners' forces are\n"
                "R^T (A vec R), A 24 x 9 row-major, vec R row-major), R the cell's large frame\n"
                "(rows its mean x edge, then in-plane y, then their normal) at the start of the\n"
                "step before (step 1: at the start), as SOFA's HexahedronCompositeFEMMapping\n"
                "turns its finest weights (the importer sums A from them and the child's\n"
                "ConstantForceField); repeated cells add up. K = 0.",
                std::nullopt, "force", false,
                [](const std::string&, const std::string& text) { parseLoads(text); }}),
           nullptr},
          Physics::Elasticity,
          forceFieldMaker(readCompositeLoads, makeCompositeLoad)};
}

}  // namespace

// After the mapped child's own (493): the forces a second mapping of the child carries.
const RegisterForceField registered(496, compositeLoadComponent);

}  // namespace eis
