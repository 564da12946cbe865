// Materials per cell (model/cell_materials.cpp) on 1, 2 and 3 ranks: a bar of two materials in
// series reaches the static displacement of two springs in series with every material model and
// both operators, and its stress is the load over the section in both materials; SOFA's
// per-element youngModulus list follows getVecRealInElement (a short list's first value for the
// elements past its end), its localStiffnessFactor scales them by its index rule, refined cells
// take their parent's material, and a list equal to the uniform value changes no bit.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "eis/app/simulation.hpp"
#include "eis/mesh/box_mesh.hpp"
#include "eis/mesh/gmsh_reader.hpp"
#include "eis/model/cell_materials.hpp"
#include "eis/model/mechanical_system.hpp"
#include "mpi_support.hpp"

namespace {

// The bar: [0, 2] x [0, 1] x [0, 1], 8 x 1 x 1 hexahedra of six tetrahedra, soft for x < 1 and
// stiff beyond, nu = 0, held at x = 0 and pulled at x = 2 by a total force F along x.
constexpr std::array<double, 3> kSize{2, 1, 1};
constexpr std::array<int, 3> kCells{8, 1, 1};
constexpr double kSoft = 1e3, kStiff = 4e3, kForce = 1e-3, kInterface = 1;

// A tetrahedron's physical tag: 1 (soft) left of the interface, 2 (stiff) right of it.
int tagOf(const eis::SerialMesh& mesh, std::size_t tet) {
  double x = 0;
  for (auto v : mesh.cells[tet]) x += mesh.nodes[std::size_t(v)][0] / 4;
  return x < kInterface ? 1 : 2;
}

// The bar as a Gmsh 2.2 file with the volume groups "soft" (1) and "stiff" (2) and a surface
// group "end" (2) that holds no tetrahedra.
void writeBar(const std::string& path) {
  const eis::SerialMesh mesh = eis::makeBoxMesh(kSize, kCells);
  std::ofstream out(path);
  out.precision(17);
  out << "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$PhysicalNames\n3\n2 3 \"end\"\n"
         "3 1 \"soft\"\n3 2 \"stiff\"\n$EndPhysicalNames\n$Nodes\n"
      << mesh.nodes.size() << "\n";
  for (std::size_t i = 0; i < mesh.nodes.size(); ++i)
    out << i + 1 << " " << mesh.nodes[i][0] << " " << mesh.nodes[i][1] << " " << mesh.nodes[i][2]
        << "\n";
  const std::int64_t nx = kCells[0];
  out << "$EndNodes\n$Elements\n" << mesh.cells.size() + 1 << "\n";
  // One triangle of the end face, in group 3.
  out << "1 2 2 3 3 " << nx + 1 << " " << nx + 1 + (nx + 1) << " " << nx + 1 + 3 * (nx + 1) << "\n";
  for (std::size_t t = 0; t < mesh.cells.size(); ++t) {
    const int tag = tagOf(mesh, t);
    out << t + 2 << " 4 2 " << tag << " " << tag;
    for (auto v : mesh.cells[t]) out << " " << v + 1;
    out << "\n";
  }
  out << "$EndElements\n";
}

// The uniform traction F / A on the end face x = 2 as consistent nodal loads: its two triangles
// share the diagonal from node (nx, 0, 0) to (nx, 1, 1), whose ends take F/3, the other two F/6.
std::string endLoad() {
  const std::int64_t nx = kCells[0], row = nx + 1;
  std::ostringstream text;
  text.precision(17);
  text << nx << " " << kForce / 3 << " 0 0 " << nx + row << " " << kForce / 6 << " 0 0 "
       << nx + 2 * row << " " << kForce / 6 << " 0 0 " << nx + 3 * row << " " << kForce / 3
       << " 0 0";
  return text.str();
}

// u_x(x) of two springs in series, EA / L each (A = 1), under F.
double seriesDisplacement(double x) {
  return x <= kInterface ? kForce * x / kSoft
                         : kForce * (kInterface / kSoft + (x - kInterface) / kStiff);
}

class CellMaterials : public eis_test::TemporaryFolderTest {
protected:
  eis_test::TightSolveOptions tight_;

  // Static (first order, one huge step per Newton iteration: the second only corrects the
  // nonlinear models) and without gravity.
  eis_test::SceneFields bar() const {
    eis_test::SceneFields scene;
    scene.meshFile = file("bar.msh");
    scene.boxSize = kSize;  // the file's mesh, for the helpers' node positions
    scene.boxCells = kCells;
    scene.poissonRatio = 0;
    scene.gravity = {0, 0, 0};
    scene.fixedBoxes = {eis::Box{{-0.1, -0.1, -0.1}, {0.1, 1.1, 1.1}}};
    scene.firstOrder = true;
    scene.dt = 1e8;
    scene.steps = 2;
    scene.initialGuess = eis::InitialGuess::Zero;  // a second step's right-hand side is tiny
    scene.extra = {{"load.nodal-forces", endLoad()}};
    return scene;
  }

  void SetUp() override {
    TemporaryFolderTest::SetUp();
    if (eis_test::root()) writeBar(file("bar.msh"));
    MPI_Barrier(PETSC_COMM_WORLD);
  }
};

// The cells' own E, in input order, as the regions give them.
std::string cellList() {
  const eis::SerialMesh mesh = eis::makeBoxMesh(kSize, kCells);
  std::ostringstream list;
  for (std::size_t t = 0; t < mesh.cells.size(); ++t)
    list << (t ? " " : "") << (tagOf(mesh, t) == 1 ? kSoft : kStiff);
  return list.str();
}

TEST_F(CellMaterials, TwoMaterialsInSeriesStretchAsTwoSprings) {
  const eis::MaterialModel models[] = {eis::MaterialModel::Linear, eis::MaterialModel::Corotational,
                                       eis::MaterialModel::StVenantKirchhoff,
                                       eis::MaterialModel::NeoHookean,
                                       eis::MaterialModel::StableNeoHookean};
  const std::vector<std::pair<std::string, std::string>> materials[] = {
      {{"material.region", "soft " + std::to_string(kSoft) + " 0"},
       {"material.region", "2 " + std::to_string(kStiff) + " 0"}},
      {{"material.cell-young-modulus", cellList()}}};
  for (const auto& material : materials)
    for (eis::MaterialModel model : models)
      for (eis::OperatorMode op : {eis::OperatorMode::Assembled, eis::OperatorMode::MatrixFree}) {
        SCOPED_TRACE(material[0].first + " " + eis::parse::nameOf(model, eis::kMaterialModels) +
                     (op == eis::OperatorMode::Assembled ? " assembled" : " matrix-free"));
        eis_test::SceneFields scene = bar();
        scene.material = model;
        scene.op = op;
        if (op == eis::OperatorMode::MatrixFree) scene.preconditioner = eis::Preconditioner::Jacobi;
        for (const auto& key : material) scene.extra.push_back(key);
        if (material[0].first == "material.cell-young-modulus")
          scene.extra.push_back({"material.cell-poisson-ratio", "0"});
        eis::Simulation simulation(scene.toScene(), PETSC_COMM_WORLD, nullptr);
        simulation.run();
        // nu = 0: uniaxial stress F / A in both materials (the strain differs by kStiff / kSoft).
        for (double vm : simulation.system().vonMisesStress(simulation.positions()))
          EXPECT_NEAR(vm, kForce, 1e-5 * kForce);
        const eis::NodalTable state = simulation.gatherState();
        if (!eis_test::root()) continue;
        const double tip = seriesDisplacement(kSize[0]);
        for (std::size_t i = 0; i < state.ids.size(); ++i) {
          const auto rest = eis_test::boxRestPosition(kSize, kCells, state.ids[i]);
          const double* x = &state.values[i * state.width];
          EXPECT_NEAR(x[0] - rest[0], seriesDisplacement(rest[0]), 1e-5 * tip);
          EXPECT_NEAR(x[1] - rest[1], 0, 1e-5 * tip);
          EXPECT_NEAR(x[2] - rest[2], 0, 1e-5 * tip);
        }
      }
}

// Regions and the equivalent per-cell list build the same cells bit for bit; so does a list that
// repeats the uniform E (whole or as SOFA's one-value list), and material.lame of the same E and
// nu, against the uniform keys. Compared on
// one rank, where a run is deterministic (on three, the order in which two neighbours' shares of
// a node arrive may change its last bit); on every rank count the runs agree with it to rounding.
TEST_F(CellMaterials, EquivalentFormsAreBitIdentical) {
  for (eis::MaterialModel model : {eis::MaterialModel::Linear, eis::MaterialModel::NeoHookean}) {
    eis_test::SceneFields regions = bar(), list = bar();
    regions.material = list.material = model;
    regions.extra.push_back({"material.region", "soft 1000 0"});
    regions.extra.push_back({"material.region", "stiff 4000 0"});
    list.extra.push_back({"material.cell-young-modulus", cellList()});
    list.extra.push_back({"material.cell-poisson-ratio", "0"});
    const eis::NodalTable a = eis_test::serialReference(regions);
    const eis::NodalTable b = eis_test::serialReference(list);
    if (eis_test::root()) EXPECT_EQ(a.values, b.values);
    EXPECT_LT(eis_test::disagreement(a, eis_test::run(regions), regions), 1e-10);
    EXPECT_LT(eis_test::disagreement(a, eis_test::run(list), list), 1e-10);
  }
  eis_test::SceneFields uniform = eis_test::cantilever({4, 1, 1}, {8, 2, 2}, 2e3);
  uniform.steps = 5;
  uniform.material = eis::MaterialModel::Corotational;
  const eis::NodalTable reference = eis_test::serialReference(uniform);
  const std::string whole = [] {
    std::string text;
    for (int c = 0; c < 6 * 8 * 2 * 2; ++c) text += (c ? " 2e3" : "2e3");
    return text;
  }();
  for (const std::string& list : {whole, std::string("2e3")}) {
    eis_test::SceneFields perCell = uniform;
    perCell.extra = {{"material.cell-young-modulus", list}};
    const eis::NodalTable state = eis_test::serialReference(perCell);
    if (eis_test::root()) EXPECT_EQ(state.values, reference.values);
    EXPECT_LT(eis_test::disagreement(reference, eis_test::run(perCell), perCell), 1e-10);
  }
  // The Lame pair of the same E and nu, in SOFA's ParameterSet order.
  const eis::LameParameters lame = eis::lameParameters(uniform.youngModulus, uniform.poissonRatio);
  eis_test::SceneFields byLame = uniform;
  byLame.youngModulus = 1e9;  // written too (no resolve step here): the pair must win
  byLame.extra = {
      {"material.lame", eis::parse::text(lame.mu) + " " + eis::parse::text(lame.lambda)}};
  const eis::NodalTable state = eis_test::serialReference(byLame);
  if (eis_test::root()) EXPECT_EQ(state.values, reference.values);
}

// SOFA's localStiffnessFactor (material.cell-stiffness-factor): with M factors over N
// tetrahedra, tetrahedron i's modulus is factor[i M / N] times its own (here from a short
// youngModulus list); the run is bit for bit that of the equivalent per-cell modulus list, with
// the linear and the corotational model. The products are exact in binary, so the list written
// by hand holds the very numbers.
TEST_F(CellMaterials, StiffnessFactorsEqualTheEquivalentModulusList) {
  const std::vector<double> factors{1, 0.5, 2, 0.25, 4}, young{1000, 3000};
  const int cells = 6 * 8;
  std::string equivalent;
  for (int i = 0; i < cells; ++i)
    equivalent += (i ? " " : "") + eis::parse::text(factors[std::size_t(i * 5 / cells)] *
                                                    eis::valueInElement(young, i));
  for (eis::MaterialModel model : {eis::MaterialModel::Linear, eis::MaterialModel::Corotational}) {
    eis_test::SceneFields byFactor = bar(), byList = bar();
    byFactor.material = byList.material = model;
    byFactor.extra.push_back({"material.cell-young-modulus", "1000 3000"});
    byFactor.extra.push_back({"material.cell-stiffness-factor", "1 0.5 2 0.25 4"});
    byList.extra.push_back({"material.cell-young-modulus", equivalent});
    const eis::NodalTable a = eis_test::serialReference(byFactor);
    const eis::NodalTable b = eis_test::serialReference(byList);
    if (eis_test::root()) EXPECT_EQ(a.values, b.values);
    EXPECT_LT(eis_test::disagreement(a, eis_test::run(byFactor), byFactor), 1e-10);
  }
  const eis::SerialMesh serial =
      eis_test::root() ? eis::readGmsh(file("bar.msh")) : eis::SerialMesh{};
  const eis::DistributedMesh mesh(PETSC_COMM_WORLD, serial, 3, 0);
  eis_test::SceneFields fields = bar();
  fields.extra = {{"material.cell-stiffness-factor", "1 0.5 2 0.25 4"}};
  std::vector<std::string> warnings;
  const auto lame =
      eis::cellMaterials(mesh, eis::readElasticFemParameters(fields.toScene()).materials, warnings);
  for (std::size_t c = 0; c < lame.size(); ++c) {
    const std::int64_t id = mesh.inputCellIds()[c];
    const double factor = id < 10 ? 1 : id < 20 ? 0.5 : id < 29 ? 2 : id < 39 ? 0.25 : 4;
    EXPECT_EQ(lame[c].mu, eis::lameParameters(factor * fields.youngModulus, 0).mu) << id;
  }
}

// SOFA's rule on a mesh refined once: input tetrahedron i takes list[i] while the list lasts and
// list[0] after it, its eight children alike; a short list is said in a warning. Regions follow
// the children's inherited tags.
TEST_F(CellMaterials, ShortListsFollowSofaAndChildrenInheritTheirParent) {
  const eis::SerialMesh serial =
      eis_test::root() ? eis::readGmsh(file("bar.msh")) : eis::SerialMesh{};
  const eis::DistributedMesh mesh(PETSC_COMM_WORLD, serial, 3, 1);
  eis_test::SceneFields fields = bar();
  fields.extra = {{"material.cell-young-modulus", "10 20 30"},
                  {"material.cell-poisson-ratio", "0.1 0.2"}};
  std::vector<std::string> warnings;
  const auto lame =
      eis::cellMaterials(mesh, eis::readElasticFemParameters(fields.toScene()).materials, warnings);
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_EQ(warnings[0],
            "material.cell-young-modulus has 3 values for 48 tetrahedra: the tetrahedra past its "
            "end take its first value (SOFA's rule)");
  ASSERT_EQ(lame.size(), mesh.cells().size());
  for (std::size_t c = 0; c < lame.size(); ++c) {
    const std::int64_t id = mesh.inputCellIds()[c];
    const double E = id == 1 ? 20 : id == 2 ? 30 : 10, nu = id == 1 ? 0.2 : 0.1;
    const eis::LameParameters expected = eis::lameParameters(E, nu);
    EXPECT_EQ(lame[c].lambda, expected.lambda) << "input cell " << id;
    EXPECT_EQ(lame[c].mu, expected.mu) << "input cell " << id;
  }
  // Regions on the refined mesh: the children of a stiff cell are stiff.
  eis_test::SceneFields regions = bar();
  regions.extra = {{"material.region", "stiff 4000 0.25"}};
  warnings.clear();
  const auto byRegion = eis::cellMaterials(
      mesh, eis::readElasticFemParameters(regions.toScene()).materials, warnings);
  const eis::LameParameters stiff = eis::lameParameters(4000, 0.25);
  const eis::LameParameters other = eis::lameParameters(regions.youngModulus, 0);
  for (std::size_t c = 0; c < byRegion.size(); ++c) {
    const eis::LameParameters& expected = mesh.cellTags()[c] == 2 ? stiff : other;
    EXPECT_EQ(byRegion[c].lambda, expected.lambda);
    EXPECT_EQ(byRegion[c].mu, expected.mu);
  }
  EXPECT_TRUE(warnings.empty());
  EXPECT_EQ(eis::valueInElement({5, 6}, 1), 6);
  EXPECT_EQ(eis::valueInElement({5, 6}, 2), 5);
}

TEST_F(CellMaterials, ARegionWithoutTetrahedraIsAnError) {
  eis_test::SceneFields scene = bar();
  for (const auto& [region, message] : std::vector<std::pair<std::string, std::string>>{
           {"end 1 0.3",
            "material.region = 'end 1 0.3': group end has no tetrahedra (a region's "
            "material applies to volume cells)"},
           {"1 5 0.3", "material.region: group 1 is given twice ('soft 1 0.3' and '1 5 0.3')"}}) {
    scene.extra = {{"material.region", "soft 1 0.3"}, {"material.region", region}};
    if (region == "end 1 0.3") scene.extra.erase(scene.extra.begin());
    try {
      eis::Simulation simulation(scene.toScene(), PETSC_COMM_WORLD, nullptr);
      ADD_FAILURE() << "no error for " << region;
    } catch (const eis::Error& error) {
      EXPECT_EQ(std::string(error.what()), message);
    }
  }
}

}  // namespace
