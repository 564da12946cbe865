#include "eis/model/mass.hpp"

#include <algorithm>
#include <array>

#include "eis/core/error.hpp"
#include "eis/core/scene.hpp"
#include "eis/model/composite_hexahedron.hpp"
#include "eis/model/hexahedron_fem.hpp"
#include "eis/model/physics.hpp"

namespace eis {

namespace {

bool isHexahedronFem(MassType type) {
  return type == MassType::HexahedronFem || type == MassType::HexahedronFemLumped;
}
// Whether M_e couples the cell's vertices a and b beyond the diagonal.
bool fullMatrix(MassType type) {
  return type == MassType::Consistent || type == MassType::HexahedronFem;
}
// Whether slots a and b of a hexahedron are the ends of one of its edges; a table, since the
// products ask for every pair of every cell.
bool hexahedronEdge(int a, int b) {
  static const auto adjacent = [] {
    std::array<std::array<bool, 8>, 8> table{};
    for (const auto& e : kHexahedronEdges) table[e[0]][e[1]] = table[e[1]][e[0]] = true;
    return table;
  }();
  return adjacent[a][b];
}

// Collective. The input mesh's cell count (its cells' ids run from 0).
std::int64_t inputCellCount(const DistributedMesh& mesh) {
  std::int64_t local = 0, cells = 0;
  for (std::int64_t id : mesh.inputCellIds()) local = std::max(local, id + 1);
  EIS_CHECK_MPI(MPI_Allreduce(&local, &cells, 1, MPI_INT64_T, MPI_MAX, mesh.comm()));
  return cells;
}

}  // namespace

Mass::Mass(const Cells& cells, const CellShapes& shapes, int dofsPerNode, double coefficient,
           MassType type, const std::vector<double>& cellsPerVertex,
           const std::vector<double>& cellFactors, const HexahedronRefinement& refinement)
    : cells_(cells),
      dofs_(dofsPerNode),
      coefficient_(coefficient),
      type_(type),
      refined_(refinement.levels > 0),
      perAxis_(refined_ && refinement.homogenisation == FinerHomogenisation::Static) {
  if (refined_ && !isHexahedronFem(type))
    throw Error("mass.virtual-finer-levels applies to mass.type = hexahedron-fem(-lumped) only");
  if (perAxis_ && type != MassType::HexahedronFem)
    throw Error(
        "mass.finer-homogenisation = static: HexahedronCompositeFEMForceFieldAndMass's lumped "
        "mass is not supported (mass.type = hexahedron-fem only)");
  if (type == MassType::None) return;
  if (type == MassType::Uniform) {  // each vertex's mass, shared out among its cells
    vertexShares_.reserve(cellsPerVertex.size());
    for (double count : cellsPerVertex) vertexShares_.push_back(coefficient / count);
    return;
  }
  volumes_.reserve(cells.size());
  if (cells.type() != CellType::Hexahedron) {
    if (isHexahedronFem(type))
      throw Error("mass.type = " + parse::nameOf(type, kMassTypes) +
                  ": SOFA's HexahedronFEMForceFieldAndMass mass is a hexahedron's, and this mesh "
                  "has " +
                  pluralNameOf(cells.type()));
    if (cells.type() == CellType::Point)
      throw Error("mass.type = " + parse::nameOf(type, kMassTypes) +
                  ": a body of points has no cells to measure a mass on (SOFA's UniformMass, "
                  "mass.type = uniform, gives its points their mass)");
    if (type == MassType::Consistent && cells.type() == CellType::Edge)
      throw Error(
          "mass.type = consistent: SOFA's MeshMatrixMass has no mass matrix on edges (its "
          "lumped DiagonalMass, mass.type = lumped, has)");
    for (std::size_t c = 0; c < cells.size(); ++c) volumes_.push_back(shapes.measure(c));
    return;
  }
  for (std::size_t c = 0; c < cells.size(); ++c) {
    const std::array<Vec3, 8> p = shapes.corners<8>(c);
    if (!isHexahedronFem(type)) {
      volumes_.push_back(hexahedronVolume(p));
      continue;
    }
    // HexahedronFEMForceFieldAndMass on a sparse grid: the density times the grid's
    // getMassCoef, in the element matrix and in the mass gravity acts on.
    const double factor = cellFactors.empty() ? 1.0 : cellFactors[c];
    const HexahedronMass m = sofaHexahedronMass(p, coefficient * factor);
    volumes_.push_back(m.gravity[0]);
    if (!refined_) {
      entries_.push_back(type == MassType::HexahedronFem ? m.consistent[0] : m.lumped[0]);
      continue;
    }
    if (perAxis_) {
      const CompositeHexahedron composite = compositeHexahedron(
          p, refinement.lame, coefficient, refinement.levels,
          refinement.factors.data() + (c << (3 * refinement.levels)), CompositeWeights::None);
      for (int axis = 0; axis < 3; ++axis)
        for (int a = 0; a < 8; ++a)
          for (int b = 0; b < 8; ++b)
            entries_.push_back(composite.mass[(3 * a + axis) * 24 + 3 * b + axis]);
      continue;
    }
    // SOFA's NonUniformHexahedronFEMForceFieldAndMass: the finer cells' masses at the density
    // times their coefficients, condensed; its lumped mass the row sums (every entry is positive,
    // so the absolute value SOFA takes of a vertex's lumped mass changes nothing).
    const std::array<double, 64> condensed =
        condensedHexahedronMass(p, coefficient, refinement.levels,
                                refinement.factors.data() + (c << (3 * refinement.levels)));
    if (type == MassType::HexahedronFem) {
      entries_.insert(entries_.end(), condensed.begin(), condensed.end());
      continue;
    }
    for (int a = 0; a < 8; ++a) {
      double sum = 0;
      for (int b = 0; b < 8; ++b) sum += condensed[8 * a + b];
      entries_.push_back(sum);
    }
  }
}

double Mass::lumpedShare(std::size_t cell, int vertex) const {
  if (type_ == MassType::Uniform) return vertexShares_[cells_[cell][vertex]];
  if (isHexahedronFem(type_)) return volumes_[cell];
  return coefficient_ * volumes_[cell] / cells_.corners();
}

double Mass::entry(std::size_t cell, int a, int b, int axis) const {
  if (type_ == MassType::HexahedronFem) {
    if (perAxis_) return entries_[192 * cell + 64 * std::size_t(axis) + 8 * std::size_t(a) + b];
    return refined_ ? entries_[64 * cell + 8 * std::size_t(a) + std::size_t(b)] : entries_[cell];
  }
  const double m = coefficient_ * volumes_[cell];
  switch (cells_.type()) {
    case CellType::Triangle: return a == b ? m / 6 : m / 12;
    case CellType::Quadrangle: return a == b ? m / 8 : (a + b) % 2 == 1 ? m / 16 : 0;
    default: break;
  }
  if (a == b) return m / 20;
  return hexahedronEdge(a, b) ? m / 40 : 0;
}

double Mass::lumpedEntry(std::size_t cell, int a) const {
  return refined_ ? entries_[8 * cell + std::size_t(a)] : entries_[cell];
}

void Mass::addMDx(const double* dx, double* out, double factor) const {
  if (type_ == MassType::None) return;
  if (!fullMatrix(type_)) {
    // Element by element, like the consistent case, so ghost vertices get this rank's share
    // only and the local-to-global sum counts each element once.
    for (std::size_t c = 0; c < cells_.size(); ++c)
      for (int a = 0; a < cells_.corners(); ++a) {
        const PetscInt v = cells_[c][a];
        const double m = factor * (type_ == MassType::HexahedronFemLumped ? lumpedEntry(c, a)
                                                                          : lumpedShare(c, a));
        for (int d = 0; d < dofs_; ++d) out[dofs_ * v + d] += m * dx[dofs_ * v + d];
      }
    return;
  }
  if (cells_.type() != CellType::Tetrahedron) {
    const int corners = cells_.corners();
    for (std::size_t c = 0; c < cells_.size(); ++c) {
      const auto v = cells_[c];
      for (int a = 0; a < corners; ++a)
        for (int d = 0; d < dofs_; ++d) {
          double sum = 0;
          for (int b = 0; b < corners; ++b) sum += entry(c, a, b, d) * dx[dofs_ * v[b] + d];
          out[dofs_ * v[a] + d] += sum * factor;
        }
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
  if (type_ == MassType::None) return;
  const int corners = cells_.corners(), n = corners * dofs_;
  const auto add = [&](double* block, int a, int b, double value) {
    for (int d = 0; d < dofs_; ++d) block[(dofs_ * a + d) * n + dofs_ * b + d] += value;
  };
  for (std::size_t c = range.begin; c < range.end; ++c) {
    double* block = elementMatrices + (c - range.begin) * n * n;
    if (type_ == MassType::HexahedronFemLumped) {
      for (int a = 0; a < corners; ++a) add(block, a, a, factor * lumpedEntry(c, a));
    } else if (!fullMatrix(type_)) {
      for (int a = 0; a < corners; ++a) add(block, a, a, factor * lumpedShare(c, a));
    } else if (cells_.type() != CellType::Tetrahedron) {
      for (int a = 0; a < corners; ++a)
        for (int b = 0; b < corners; ++b)
          for (int d = 0; d < dofs_; ++d)
            block[(dofs_ * a + d) * n + dofs_ * b + d] += factor * entry(c, a, b, d);
    } else {
      const double share = factor * coefficient_ * volumes_[c];
      for (int a = 0; a < 4; ++a)
        for (int b = 0; b < 4; ++b) add(block, a, b, a == b ? share / 10 : share / 20);
    }
  }
}

void Mass::addGravity(double* f, const double* g) const {
  if (type_ == MassType::None) return;
  for (std::size_t c = 0; c < cells_.size(); ++c)
    for (int a = 0; a < cells_.corners(); ++a) {
      const double m = lumpedShare(c, a);
      for (int d = 0; d < dofs_; ++d) f[dofs_ * cells_[c][a] + d] += m * g[d];
    }
}

double Mass::localTotal() const {
  double total = 0;
  if (type_ == MassType::None) return total;
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
      "SOFA DiagonalMass (lumped), MeshMatrixMass (consistent), UniformMass (uniform) or\n"
      "HexahedronFEMForceFieldAndMass's mass (hexahedron-fem)",
      ParameterSpec()
          .add(
              {"mass.type", "lumped|consistent|uniform|hexahedron-fem|hexahedron-fem-lumped|none",
               "lumped: SOFA DiagonalMass (and MeshMatrixMass lumping=\"true\", the same matrix),\n"
               "density*volume/4 on each node of a tetrahedron, /8 of a hexahedron; consistent:\n"
               "SOFA MeshMatrixMass (tetrahedra: the P1 mass matrix; hexahedra: volume/20 on the\n"
               "diagonal, volume/40 along each edge); uniform: SOFA UniformMass, the same mass on\n"
               "every node (mass.total-mass or mass.vertex-mass); hexahedron-fem (-lumped): SOFA\n"
               "HexahedronFEMForceFieldAndMass's element mass (lumpedMass), hexahedra only; none:\n"
               "M = 0, SOFA's step with no mass component (quasi-static, and no gravity force)",
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
          .add({"mass.total-mass-by-cells", "M",
                "uniform: each node's mass is M / (the mesh's cells) instead, > 0 (SOFA\n"
                "NonUniformHexahedronFEMForceFieldAndMass's totalMass with useMass false)",
                std::nullopt, "mass", false, check::positive()})
          .add({"material.density", "RHO", "mass per volume, > 0", "1", "mass/volume", false,
                check::positive()})
          .add({"mass.cell-factor", "\"F0 F1 ..\"",
                "hexahedron-fem(-lumped): a factor of the density per input cell, > 0, one per\n"
                "cell (SOFA's sparse grid mass coefficients, getMassCoef)",
                std::nullopt, "", false, check::positives(0)})
          .add({"mass.virtual-finer-levels", "L",
                "hexahedron-fem(-lumped): each cell's element mass condensed from its 8^L cells L\n"
                "levels finer, as SOFA NonUniformHexahedronFEMForceFieldAndMass's (at the density\n"
                "times mass.cell-finer-factor); gravity still acts on the cell's own; 0: none",
                "0", "", false, check::integerAtLeast(0)})
          .add({"mass.cell-finer-factor", "\"F0 F1 ..\"",
                "with mass.virtual-finer-levels L: 8^L factors >= 0 per input cell, ordered as\n"
                "material.cell-finer-stiffness-factor",
                std::nullopt, "", false,
                [](const std::string& key, const std::string& text) {
                  const auto values = parse::reals(key, text, 0);
                  if (std::any_of(values.begin(), values.end(), [](double f) { return f < 0; }))
                    parse::reject(key, text, "expected factors >= 0, 8^L a cell");
                }})
          .add({"mass.finer-homogenisation", "trilinear|static",
                "with mass.virtual-finer-levels, as material.finer-homogenisation: static\n"
                "condenses the finer masses with the weights of the stiffness of\n"
                "material.young-modulus and material.poisson-ratio\n"
                "(HexahedronCompositeFEMForceFieldAndMass; hexahedron-fem only)",
                "trilinear", "", false, check::choice(kFinerHomogenisations)})
          .add({"material.capacity", "C", "diffusion: capacity c, the coefficient of du/dt, > 0",
                "1", "", false, check::positive()}),
      [](Scene& scene) {
        const MassType type = readMassParameters(scene).type;
        const bool uniform = type == MassType::Uniform;
        const bool hexahedronFem = isHexahedronFem(type);
        if (hexahedronFem && scene.given("mass.total-mass"))
          throw Error(
              "mass.total-mass: SOFA's HexahedronFEMForceFieldAndMass takes a density only "
              "(material.density)");
        const bool total = scene.given("mass.total-mass");
        if (type == MassType::None)
          for (const char* key : {"mass.total-mass", "material.density"})
            if (scene.given(key))
              throw Error(std::string(key) + ": mass.type = none has no mass to size");
        if (total && scene.given("mass.vertex-mass"))
          throw Error("mass.total-mass and mass.vertex-mass both size the uniform mass: give one");
        if (scene.given("mass.total-mass-by-cells")) {
          if (!uniform) throw Error("mass.total-mass-by-cells applies to mass.type = uniform only");
          if (total || scene.given("mass.vertex-mass"))
            throw Error(
                "mass.total-mass-by-cells and mass.total-mass or mass.vertex-mass both size the "
                "uniform mass: give one");
        }
        if (!hexahedronFem && scene.given("mass.cell-factor"))
          throw Error("mass.cell-factor applies to mass.type = hexahedron-fem(-lumped) only");
        if (!uniform && scene.given("mass.vertex-mass"))
          throw Error("mass.vertex-mass applies to mass.type = uniform only");
        if (!uniform && total && scene.given("material.density"))
          throw Error(
              "mass.total-mass and material.density both size the mass: give one (SOFA takes "
              "totalMass)");
      }};
  return component;
}

MassParameters readMassParameters(const Parameters& scene) {
  MassParameters mass;
  mass.type = scene.choice("mass.type", kMassTypes);
  if (scene.given("mass.total-mass")) mass.totalMass = scene.real("mass.total-mass");
  if (scene.given("mass.vertex-mass")) mass.vertexMass = scene.real("mass.vertex-mass");
  if (scene.given("mass.total-mass-by-cells"))
    mass.totalMassByCells = scene.real("mass.total-mass-by-cells");
  mass.density = scene.real("material.density");
  mass.capacity = scene.real("material.capacity");
  if (scene.given("mass.cell-factor")) mass.cellFactors = scene.reals("mass.cell-factor");
  mass.finerLevels = scene.integer("mass.virtual-finer-levels");
  mass.finerHomogenisation = scene.choice("mass.finer-homogenisation", kFinerHomogenisations);
  if (mass.finerHomogenisation == FinerHomogenisation::Static)
    mass.finerLame =
        lameParameters(scene.real("material.young-modulus"), scene.real("material.poisson-ratio"));
  if (scene.given("mass.cell-finer-factor"))
    mass.finerFactors = scene.reals("mass.cell-finer-factor");
  return mass;
}

double meshVolume(const DistributedMesh& mesh) {
  const auto& p = mesh.restCoords();
  double local = 0, global = 0;
  const CellShapes shapes(mesh.cells(), p);
  for (std::size_t c = 0; c < shapes.size(); ++c) local += shapes.measure(c);
  EIS_CHECK_MPI(MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, mesh.comm()));
  return global;
}

std::vector<double> localCellFactors(const DistributedMesh& mesh,
                                     const std::vector<double>& factors) {
  if (factors.empty()) return {};
  const std::int64_t cells = inputCellCount(mesh);
  if (std::int64_t(factors.size()) != cells)
    throw Error("mass.cell-factor has " + std::to_string(factors.size()) + " values for " +
                std::to_string(cells) + " cells: give one per cell");
  std::vector<double> out;
  out.reserve(mesh.inputCellIds().size());
  for (std::int64_t id : mesh.inputCellIds()) out.push_back(factors[std::size_t(id)]);
  return out;
}

double massCoefficientOf(const MassParameters& mass, Physics physics, const DistributedMesh& mesh) {
  if (mass.type == MassType::Uniform) {
    if (mass.totalMassByCells) return *mass.totalMassByCells / double(inputCellCount(mesh));
    const double nodes = double(mesh.numGlobalVertices());
    return mass.vertexMass  ? *mass.vertexMass
           : mass.totalMass ? *mass.totalMass / nodes
                            : 1.0 / nodes;
  }
  if (physics == Physics::Diffusion) return mass.capacity;
  if (mass.totalMass) return *mass.totalMass / meshVolume(mesh);
  return mass.density;
}

const RegisterComponent registered(300, massComponent);

}  // namespace eis
