#include "eis/model/mass.hpp"

#include "eis/core/error.hpp"
#include "eis/core/scene.hpp"
#include "eis/model/physics.hpp"

namespace eis {

Mass::Mass(const Cells& cells, const CellShapes& shapes, int dofsPerNode, double coefficient,
           MassType type, const std::vector<double>& cellsPerVertex)
    : cells_(cells), dofs_(dofsPerNode), coefficient_(coefficient), type_(type) {
  if (type == MassType::Uniform) {  // each vertex's mass, shared out among its cells
    vertexShares_.reserve(cellsPerVertex.size());
    for (double count : cellsPerVertex) vertexShares_.push_back(coefficient / count);
    return;
  }
  // A density integrated over a cell: the tetrahedron's volume is what the two masses need.
  if (cells.type() != CellType::Tetrahedron)
    throw Error("mass.type = " + std::string(type == MassType::Lumped ? "lumped" : "consistent") +
                ": integrated on tetrahedra only, and this mesh has " + pluralNameOf(cells.type()) +
                " (mass.type = uniform works on every cell type)");
  volumes_.reserve(cells.size());
  for (std::size_t c = 0; c < cells.size(); ++c) volumes_.push_back(shapes[c].volume);
}

double Mass::lumpedShare(std::size_t cell, int vertex) const {
  if (type_ == MassType::Uniform) return vertexShares_[cells_[cell][vertex]];
  return coefficient_ * volumes_[cell] / 4;
}

void Mass::addMDx(const double* dx, double* out, double factor) const {
  if (type_ != MassType::Consistent) {
    // Element by element, like the consistent case, so ghost vertices get this rank's share
    // only and the local-to-global sum counts each element once.
    for (std::size_t c = 0; c < cells_.size(); ++c)
      for (int a = 0; a < cells_.corners(); ++a) {
        const PetscInt v = cells_[c][a];
        const double m = factor * lumpedShare(c, a);
        for (int d = 0; d < dofs_; ++d) out[dofs_ * v + d] += m * dx[dofs_ * v + d];
      }
    return;
  }
  for (std::size_t c = 0; c < cells_.size(); ++c) {
    const double offDiagonal = factor * coefficient_ * volumes_[c] / 20;
    for (int d = 0; d < dofs_; ++d) {
      double sum = 0;
      for (auto v : cells_[c]) sum += dx[dofs_ * v + d];
      // (V/20)(1 + delta_ab): the diagonal gets one extra share of its own value.
      for (auto v : cells_[c]) out[dofs_ * v + d] += offDiagonal * (sum + dx[dofs_ * v + d]);
    }
  }
}

void Mass::addMToElementMatrices(double* elementMatrices, double factor, CellRange range) const {
  const int n = cells_.corners() * dofs_;
  const auto add = [&](double* block, int a, int b, double value) {
    for (int d = 0; d < dofs_; ++d) block[(dofs_ * a + d) * n + dofs_ * b + d] += value;
  };
  for (std::size_t c = range.begin; c < range.end; ++c) {
    double* block = elementMatrices + (c - range.begin) * n * n;
    if (type_ != MassType::Consistent) {
      for (int a = 0; a < cells_.corners(); ++a) add(block, a, a, factor * lumpedShare(c, a));
      continue;
    }
    const double share = factor * coefficient_ * volumes_[c];
    for (int a = 0; a < 4; ++a)
      for (int b = 0; b < 4; ++b) add(block, a, b, a == b ? share / 10 : share / 20);
  }
}

void Mass::addGravity(double* f, const double* g) const {
  for (std::size_t c = 0; c < cells_.size(); ++c)
    for (int a = 0; a < cells_.corners(); ++a) {
      const double m = lumpedShare(c, a);
      for (int d = 0; d < dofs_; ++d) f[dofs_ * cells_[c][a] + d] += m * g[d];
    }
}

double Mass::localTotal() const {
  double total = 0;
  for (std::size_t c = 0; c < cells_.size(); ++c)
    for (int a = 0; a < cells_.corners(); ++a) total += lumpedShare(c, a);
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
          .add(
              {"mass.type", "lumped|consistent|uniform",
               "lumped: SOFA DiagonalMass (and MeshMatrixMass lumping=\"true\", the same matrix),\n"
               "density*volume/4 on each node of a tetrahedron; consistent: SOFA MeshMatrixMass,\n"
               "the full P1 mass matrix; uniform: SOFA UniformMass, the same mass on every node\n"
               "(mass.total-mass or mass.vertex-mass)",
               "lumped", "", false, check::choice(kMassTypes)})
          .add(
              {"mass.total-mass", "M",
               "the total mass, > 0 (SOFA totalMass). uniform: shared equally by the mesh's nodes;\n"
               "lumped, consistent: the density is M / (the mesh's volume), as SOFA's DiagonalMass\n"
               "and MeshMatrixMass do, instead of material.density",
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
        const bool total = scene.given("mass.total-mass");
        if (total && scene.given("mass.vertex-mass"))
          throw Error("mass.total-mass and mass.vertex-mass both size the uniform mass: give one");
        if (!uniform && scene.given("mass.vertex-mass"))
          throw Error("mass.vertex-mass applies to mass.type = uniform only");
        if (!uniform && total && scene.given("material.density"))
          throw Error(
              "mass.total-mass and material.density both size the mass: give one (SOFA takes "
              "totalMass)");
        requireElasticity(scene, "mass.type = uniform", uniform);
        requireElasticity(scene, "mass.total-mass", total);
      }};
  return component;
}

MassType massTypeOf(const Parameters& scene) {
  return scene.choice("mass.type", kMassTypes);
}

double meshVolume(const DistributedMesh& mesh) {
  const auto& p = mesh.restCoords();
  double local = 0, global = 0;
  for (const auto& c : mesh.cells()) local += TetraShape(p[c[0]], p[c[1]], p[c[2]], p[c[3]]).volume;
  EIS_CHECK_MPI(MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, mesh.comm()));
  return global;
}

double massCoefficientOf(const Parameters& scene, const DistributedMesh& mesh) {
  if (massTypeOf(scene) == MassType::Uniform) {
    const double nodes = double(mesh.numGlobalVertices());
    return scene.given("mass.vertex-mass")  ? scene.real("mass.vertex-mass")
           : scene.given("mass.total-mass") ? scene.real("mass.total-mass") / nodes
                                            : 1.0 / nodes;
  }
  if (physicsOf(scene) == Physics::Diffusion) return scene.real("material.capacity");
  if (scene.given("mass.total-mass")) return scene.real("mass.total-mass") / meshVolume(mesh);
  return scene.real("material.density");
}

const RegisterComponent registered(300, massComponent);

}  // namespace eis
