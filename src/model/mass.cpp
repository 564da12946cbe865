#include "eis/model/mass.hpp"

#include "eis/core/error.hpp"
#include "eis/core/scene.hpp"
#include "eis/model/physics.hpp"

namespace eis {

Mass::Mass(const std::vector<std::array<PetscInt, 4>>& cells, const std::vector<TetraShape>& shapes,
           int dofsPerNode, double coefficient, MassType type,
           const std::vector<double>& cellsPerVertex)
    : cells_(cells), shapes_(shapes), dofs_(dofsPerNode), coefficient_(coefficient), type_(type) {
  lumped_.reserve(4 * cells.size());
  for (std::size_t c = 0; c < cells.size(); ++c)
    for (auto v : cells[c])
      lumped_.push_back(type == MassType::Uniform ? coefficient / cellsPerVertex[v]
                                                  : coefficient * shapes[c].volume / 4);
}

void Mass::addMDx(const double* dx, double* out, double factor) const {
  if (type_ != MassType::Consistent) {
    // Element by element, like the consistent case, so ghost vertices get this rank's share
    // only and the local-to-global sum counts each element once.
    for (std::size_t c = 0; c < cells_.size(); ++c)
      for (int a = 0; a < 4; ++a) {
        const PetscInt v = cells_[c][a];
        const double m = factor * lumped_[4 * c + a];
        for (int d = 0; d < dofs_; ++d) out[dofs_ * v + d] += m * dx[dofs_ * v + d];
      }
    return;
  }
  for (std::size_t c = 0; c < cells_.size(); ++c) {
    const double offDiagonal = factor * coefficient_ * shapes_[c].volume / 20;
    for (int d = 0; d < dofs_; ++d) {
      double sum = 0;
      for (auto v : cells_[c]) sum += dx[dofs_ * v + d];
      // (V/20)(1 + delta_ab): the diagonal gets one extra share of its own value.
      for (auto v : cells_[c]) out[dofs_ * v + d] += offDiagonal * (sum + dx[dofs_ * v + d]);
    }
  }
}

void Mass::addMToElementMatrices(double* elementMatrices, double factor, CellRange range) const {
  const int n = 4 * dofs_;
  for (std::size_t c = range.begin; c < range.end; ++c) {
    double* block = elementMatrices + (c - range.begin) * n * n;
    const double share = factor * coefficient_ * shapes_[c].volume;
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < 4; ++b) {
        double value = 0;
        if (type_ != MassType::Consistent)
          value = a == b ? factor * lumped_[4 * c + a] : 0;
        else
          value = a == b ? share / 10 : share / 20;
        for (int d = 0; d < dofs_; ++d) block[(dofs_ * a + d) * n + dofs_ * b + d] += value;
      }
  }
}

void Mass::addGravity(double* f, const double* g) const {
  for (std::size_t c = 0; c < cells_.size(); ++c)
    for (int a = 0; a < 4; ++a)
      for (int d = 0; d < dofs_; ++d) f[dofs_ * cells_[c][a] + d] += lumped_[4 * c + a] * g[d];
}

double Mass::localTotal() const {
  double total = 0;
  for (double m : lumped_) total += m;
  return total;
}

std::vector<double> cellsPerVertex(const DistributedMesh& mesh) {
  Vec local, global;
  EIS_CHECK(DMGetLocalVector(mesh.dm(), &local));
  EIS_CHECK(DMGetGlobalVector(mesh.dm(), &global));
  EIS_CHECK(VecZeroEntries(local));
  EIS_CHECK(VecZeroEntries(global));
  PetscScalar* values;
  EIS_CHECK(VecGetArray(local, &values));
  for (const auto& cell : mesh.cells())
    for (auto v : cell) values[mesh.localOffset(v)] += 1;
  EIS_CHECK(VecRestoreArray(local, &values));
  EIS_CHECK(DMLocalToGlobal(mesh.dm(), local, ADD_VALUES, global));
  EIS_CHECK(DMGlobalToLocal(mesh.dm(), global, INSERT_VALUES, local));
  std::vector<double> counts(mesh.numLocalVertices());
  EIS_CHECK(VecGetArray(local, &values));
  for (std::size_t v = 0; v < counts.size(); ++v) counts[v] = values[mesh.localOffset(PetscInt(v))];
  EIS_CHECK(VecRestoreArray(local, &values));
  EIS_CHECK(DMRestoreGlobalVector(mesh.dm(), &global));
  EIS_CHECK(DMRestoreLocalVector(mesh.dm(), &local));
  return counts;
}

const ComponentDeclaration& massComponent() {
  static const ComponentDeclaration component{
      "mass", "mass",
      "SOFA DiagonalMass (lumped), MeshMatrixMass (consistent) or UniformMass (uniform)",
      ParameterSpec()
          .add({"mass.type", "lumped|consistent|uniform",
                "lumped: SOFA DiagonalMass, density*volume/4 on each node of a tetrahedron;\n"
                "consistent: SOFA MeshMatrixMass, the full P1 mass matrix; uniform: SOFA\n"
                "UniformMass, the same mass on every node (mass.total-mass or mass.vertex-mass)",
                "lumped", "", false, check::choice(kMassTypes)})
          .add({"mass.total-mass", "M",
                "uniform: the total mass, shared equally by the mesh's nodes (SOFA UniformMass\n"
                "totalMass), > 0",
                std::nullopt, "mass", false, check::positive(),
                "1 (SOFA's) when mass.type = uniform and mass.vertex-mass is not given"})
          .add({"mass.vertex-mass", "M",
                "uniform: the mass of each node instead (SOFA UniformMass vertexMass), > 0",
                std::nullopt, "mass", false, check::positive()})
          .add({"material.density", "RHO", "mass per volume, > 0", "1", "mass/volume", false,
                check::positive()})
          .add({"material.capacity", "C", "diffusion: capacity c, the coefficient of du/dt, > 0",
                "1", "", false, check::positive()}),
      [](Scene& scene) {
        const bool uniform = massTypeOf(scene) == MassType::Uniform;
        const int given = scene.given("mass.total-mass") + scene.given("mass.vertex-mass");
        if (given == 2)
          throw Error("mass.total-mass and mass.vertex-mass both size the uniform mass: give one");
        if (!uniform && given != 0)
          throw Error(
              std::string(scene.given("mass.total-mass") ? "mass.total-mass" : "mass.vertex-mass") +
              " applies to mass.type = uniform only");
        requireElasticity(scene, "mass.type = uniform", uniform);
      }};
  return component;
}

MassType massTypeOf(const Parameters& scene) {
  return scene.choice("mass.type", kMassTypes);
}

double massCoefficientOf(const Parameters& scene, std::int64_t numNodes) {
  if (massTypeOf(scene) == MassType::Uniform)
    return scene.given("mass.vertex-mass")  ? scene.real("mass.vertex-mass")
           : scene.given("mass.total-mass") ? scene.real("mass.total-mass") / double(numNodes)
                                            : 1.0 / double(numNodes);
  return physicsOf(scene) == Physics::Elasticity ? scene.real("material.density")
                                                 : scene.real("material.capacity");
}

}  // namespace eis
