// Tests of the components' parameter readers: each component reads its keys once, into its own
// struct, beside its declaration. For every reader: each field equals the value given for its
// key; with nothing given, each field equals the default the declaration states (read from the
// declaration, not restated here); and a bad value of its keys is refused naming the key. The
// cross-component checks (io/scene_checks) name only declared keys.
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "eis/app/scene_builder.hpp"
#include "eis/core/error.hpp"
#include "eis/io/scene_checks.hpp"
#include "eis/linalg/linear_solver.hpp"
#include "eis/mesh/mesh_source.hpp"
#include "eis/model/bilateral_lagrangian_constraint.hpp"
#include "eis/model/constant_force.hpp"
#include "eis/model/diffusion_fem.hpp"
#include "eis/model/elastic_force_fields.hpp"
#include "eis/model/fixed_constraint.hpp"
#include "eis/model/gravity.hpp"
#include "eis/model/mapped_child.hpp"
#include "eis/model/mass.hpp"
#include "eis/model/mesh_springs.hpp"
#include "eis/model/prescribed_motion.hpp"
#include "eis/model/rest_shape_springs.hpp"
#include "eis/model/surface_pressure.hpp"
#include "eis/model/triangular_bending_springs.hpp"
#include "eis/model/triangular_fem.hpp"
#include "eis/model/uniform_damping.hpp"
#include "eis/ode/time_integrator_component.hpp"

namespace {

using Keys = std::vector<std::pair<std::string, std::string>>;

eis::Scene sceneWith(const Keys& keys) {
  eis::Scene scene = eis::defaultScene();
  for (const auto& [key, text] : keys) scene.set(key, text);
  return scene;
}

// The default the key's declaration states.
std::string declared(const std::string& key) {
  static const eis::Scene scene = eis::defaultScene();
  const eis::ParameterDeclaration* d = scene.spec().find(key);
  if (!d || !d->defaultText) throw std::logic_error(key + " declares no default");
  return *d->defaultText;
}
double declaredReal(const std::string& key) {
  return eis::parse::reals(key, declared(key), 1)[0];
}
int declaredInteger(const std::string& key) {
  return eis::parse::integers(key, declared(key), 1)[0];
}
bool declaredBoolean(const std::string& key) {
  return eis::parse::boolean(key, declared(key));
}
template <class T, std::size_t N>
T declaredChoice(const std::string& key, const eis::Named<T> (&names)[N]) {
  return eis::parse::choice(key, declared(key), names);
}

// Each bad value of each key is refused, with the key named.
void expectRefused(const Keys& bad) {
  for (const auto& [key, text] : bad) {
    SCOPED_TRACE(key + " = " + text);
    eis::Scene scene = eis::defaultScene();
    try {
      scene.set(key, text);
      ADD_FAILURE() << "accepted";
    } catch (const eis::Error& e) {
      EXPECT_NE(std::string(e.what()).find(key), std::string::npos) << e.what();
    }
  }
}

TEST(ComponentReaders, MeshSource) {
  const eis::MeshSourceParameters d = eis::readMeshSourceParameters(eis::defaultScene());
  EXPECT_FALSE(d.file);
  EXPECT_FALSE(d.convert);
  EXPECT_FALSE(d.isInline());
  const std::vector<double> size = eis::parse::reals("mesh.box-size", declared("mesh.box-size"), 3);
  EXPECT_EQ(d.boxSize, (std::array<double, 3>{size[0], size[1], size[2]}));
  const std::vector<int> cells =
      eis::parse::integers("mesh.box-cells", declared("mesh.box-cells"), 3);
  EXPECT_EQ(d.boxCells, (std::array<int, 3>{cells[0], cells[1], cells[2]}));
  EXPECT_EQ(d.boxCellsText, declared("mesh.box-cells"));
  EXPECT_EQ(d.cellType, declaredChoice("mesh.cell-type", eis::kCellTypes));
  EXPECT_TRUE(d.transforms.empty());
  EXPECT_EQ(d.refine, declaredInteger("mesh.refine"));

  const eis::MeshSourceParameters g =
      eis::readMeshSourceParameters(sceneWith({{"mesh.file", "beam.msh"},
                                               {"mesh.convert", "beam.h5"},
                                               {"mesh.box-size", "1 2 3"},
                                               {"mesh.box-cells", "4,5,6"},
                                               {"mesh.cell-type", "hexahedron"},
                                               {"mesh.transform", "translate 1 2 3"},
                                               {"mesh.transform", "scale 2 2 2"},
                                               {"mesh.refine", "2"}}));
  EXPECT_EQ(g.file, "beam.msh");
  EXPECT_EQ(g.convert, "beam.h5");
  EXPECT_EQ(g.boxSize, (std::array<double, 3>{1, 2, 3}));
  EXPECT_EQ(g.boxCells, (std::array<int, 3>{4, 5, 6}));
  EXPECT_EQ(g.boxCellsText, "4,5,6");
  EXPECT_EQ(g.cellType, eis::CellType::Hexahedron);
  ASSERT_EQ(g.transforms.size(), 2u);
  std::vector<std::array<double, 3>> p{{1, 1, 1}};
  for (const eis::MeshTransform& t : g.transforms) eis::applyMeshTransform(t, p);
  EXPECT_EQ(p[0], (std::array<double, 3>{4, 6, 8}));
  EXPECT_EQ(g.refine, 2);
  const eis::MeshSourceParameters inline_ = eis::readMeshSourceParameters(
      sceneWith({{"mesh.nodes", "0 0 0 1 0 0 0 1 0 0 0 1"}, {"mesh.tetrahedra", "0 1 2 3"}}));
  EXPECT_TRUE(inline_.isInline());
  EXPECT_EQ(inline_.nodes, "0 0 0 1 0 0 0 1 0 0 0 1");
  EXPECT_EQ(inline_.tetrahedra, "0 1 2 3");
  EXPECT_FALSE(inline_.hexahedra);
  expectRefused({{"mesh.box-size", "1 0 1"},
                 {"mesh.box-cells", "1 2"},
                 {"mesh.cell-type", "prism"},
                 {"mesh.transform", "shear 1 2 3"},
                 {"mesh.refine", "-1"},
                 {"mesh.nodes", "0 0"},
                 {"mesh.tetrahedra", "0 1 2 -3"}});
}

TEST(ComponentReaders, Mass) {
  const eis::MassParameters d = eis::readMassParameters(eis::defaultScene());
  EXPECT_EQ(d.type, declaredChoice("mass.type", eis::kMassTypes));
  EXPECT_FALSE(d.totalMass);
  EXPECT_FALSE(d.vertexMass);
  EXPECT_EQ(d.density, declaredReal("material.density"));
  EXPECT_EQ(d.capacity, declaredReal("material.capacity"));
  EXPECT_TRUE(d.cellFactors.empty());

  const eis::MassParameters g = eis::readMassParameters(sceneWith({{"mass.type", "uniform"},
                                                                   {"mass.total-mass", "2.5"},
                                                                   {"mass.vertex-mass", "0.5"},
                                                                   {"material.density", "7"},
                                                                   {"material.capacity", "3"},
                                                                   {"mass.cell-factor", "0.5 2"}}));
  EXPECT_EQ(g.type, eis::MassType::Uniform);
  EXPECT_EQ(g.totalMass, 2.5);
  EXPECT_EQ(g.vertexMass, 0.5);
  EXPECT_EQ(g.density, 7);
  EXPECT_EQ(g.capacity, 3);
  EXPECT_EQ(g.cellFactors, (std::vector<double>{0.5, 2}));
  EXPECT_EQ(eis::readMassParameters(sceneWith({{"mass.type", "none"}})).type, eis::MassType::None);
  expectRefused({{"mass.type", "heavy"},
                 {"mass.total-mass", "0"},
                 {"mass.vertex-mass", "-1"},
                 {"material.density", "x"},
                 {"material.capacity", "0"},
                 {"mass.cell-factor", "1 0"}});
}

TEST(ComponentReaders, ElasticFem) {
  const eis::ElasticFemParameters d = eis::readElasticFemParameters(eis::defaultScene());
  EXPECT_EQ(d.model, declaredChoice("material.model", eis::kMaterialModels));
  EXPECT_EQ(d.rotation, declaredChoice("material.rotation", eis::kRotationMethods));
  EXPECT_EQ(declared("material.cells"), "any");
  EXPECT_FALSE(d.cells);
  EXPECT_EQ(d.materials.youngModulus, declaredReal("material.young-modulus"));
  EXPECT_EQ(d.materials.poissonRatio, declaredReal("material.poisson-ratio"));
  EXPECT_FALSE(d.materials.lame);
  EXPECT_FALSE(d.materials.cellYoungModulus);
  EXPECT_FALSE(d.materials.cellPoissonRatio);
  EXPECT_FALSE(d.materials.cellStiffnessFactor);
  EXPECT_TRUE(d.materials.regions.empty());

  const eis::ElasticFemParameters g =
      eis::readElasticFemParameters(sceneWith({{"material.model", "corotational"},
                                               {"material.rotation", "polar"},
                                               {"material.cells", "hexahedron"},
                                               {"material.young-modulus", "2e3"},
                                               {"material.poisson-ratio", "0.25"},
                                               {"material.lame", "3 4"},
                                               {"material.cell-young-modulus", "1 2 3"},
                                               {"material.cell-poisson-ratio", "0.1 0.2"},
                                               {"material.cell-stiffness-factor", "5 6"},
                                               {"material.region", "stiff 4000 0.3"},
                                               {"material.region", "7 10 0.1"}}));
  EXPECT_EQ(g.model, eis::MaterialModel::Corotational);
  EXPECT_EQ(g.rotation, eis::RotationMethod::Polar);
  EXPECT_EQ(g.cells, eis::CellType::Hexahedron);
  EXPECT_EQ(g.materials.youngModulus, 2e3);
  EXPECT_EQ(g.materials.poissonRatio, 0.25);
  EXPECT_EQ(g.materials.lame, (std::array<double, 2>{3, 4}));
  EXPECT_EQ(g.materials.cellYoungModulus, (std::vector<double>{1, 2, 3}));
  EXPECT_EQ(g.materials.cellPoissonRatio, (std::vector<double>{0.1, 0.2}));
  EXPECT_EQ(g.materials.cellStiffnessFactor, (std::vector<double>{5, 6}));
  ASSERT_EQ(g.materials.regions.size(), 2u);
  EXPECT_EQ(g.materials.regions[0].group, "stiff");
  EXPECT_EQ(g.materials.regions[0].youngModulus, 4000);
  EXPECT_EQ(g.materials.regions[0].poissonRatio, 0.3);
  EXPECT_EQ(g.materials.regions[0].text, "stiff 4000 0.3");
  EXPECT_EQ(g.materials.regions[1].group, "7");
  EXPECT_EQ(eis::readElasticFemParameters(sceneWith({{"material.cells", "tetrahedron"}})).cells,
            eis::CellType::Tetrahedron);
  expectRefused({{"material.model", "rubber"},
                 {"material.rotation", "qr"},
                 {"material.cells", "prism"},
                 {"material.young-modulus", "0"},
                 {"material.poisson-ratio", "0.5"},
                 {"material.lame", "1"},
                 {"material.region", "g 1"},
                 {"material.cell-young-modulus", "1 -2"},
                 {"material.cell-poisson-ratio", "0.7"},
                 {"material.cell-stiffness-factor", "0"}});
}

TEST(ComponentReaders, DiffusionGravityDamping) {
  EXPECT_EQ(eis::readDiffusionFemParameters(eis::defaultScene()).conductivity,
            declaredReal("material.conductivity"));
  EXPECT_EQ(
      eis::readDiffusionFemParameters(sceneWith({{"material.conductivity", "4"}})).conductivity, 4);
  const std::vector<double> g = eis::parse::reals("load.gravity", declared("load.gravity"), 3);
  EXPECT_EQ(eis::readGravityParameters(eis::defaultScene()).g,
            (std::array<double, 3>{g[0], g[1], g[2]}));
  EXPECT_EQ(eis::readGravityParameters(sceneWith({{"load.gravity", "1 2 3"}})).g,
            (std::array<double, 3>{1, 2, 3}));
  EXPECT_EQ(eis::readUniformDampingParameters(eis::defaultScene()).coefficient,
            declaredReal("damping.coefficient"));
  EXPECT_EQ(
      eis::readUniformDampingParameters(sceneWith({{"damping.coefficient", "0.5"}})).coefficient,
      0.5);
  expectRefused(
      {{"material.conductivity", "0"}, {"load.gravity", "1 2"}, {"damping.coefficient", "-1"}});
}

TEST(ComponentReaders, MeshSprings) {
  const eis::MeshSpringsParameters d = eis::readMeshSpringsParameters(eis::defaultScene());
  const double ks = declaredReal("springs.stiffness"), kd = declaredReal("springs.damping");
  EXPECT_EQ(d.stiffness, (std::array<double, 3>{ks, ks, ks}));
  EXPECT_EQ(d.damping, (std::array<double, 3>{kd, kd, kd}));
  EXPECT_FALSE(d.byKind);
  const eis::MeshSpringsParameters all = eis::readMeshSpringsParameters(
      sceneWith({{"springs.stiffness", "5"}, {"springs.damping", "2"}}));
  EXPECT_EQ(all.stiffness, (std::array<double, 3>{5, 5, 5}));
  EXPECT_EQ(all.damping, (std::array<double, 3>{2, 2, 2}));
  const eis::MeshSpringsParameters kinds = eis::readMeshSpringsParameters(
      sceneWith({{"springs.stiffness-by-kind", "1 2 3"}, {"springs.damping-by-kind", "4 5 6"}}));
  EXPECT_EQ(kinds.stiffness, (std::array<double, 3>{1, 2, 3}));
  EXPECT_EQ(kinds.damping, (std::array<double, 3>{4, 5, 6}));
  EXPECT_TRUE(kinds.byKind);
  EXPECT_TRUE(
      eis::readMeshSpringsParameters(sceneWith({{"springs.damping-by-kind", "4 5 6"}})).byKind);
  expectRefused({{"springs.stiffness", "-1"},
                 {"springs.damping", "x"},
                 {"springs.stiffness-by-kind", "1 2"},
                 {"springs.damping-by-kind", "1"}});
}

TEST(ComponentReaders, TriangularFem) {
  const eis::TriangularFemParameters d = eis::readTriangularFemParameters(eis::defaultScene());
  EXPECT_FALSE(d.youngModulus);
  EXPECT_EQ(d.poissonRatio, declaredReal("membrane.poisson-ratio"));
  EXPECT_EQ(d.method, eis::TriangleFemMethod::Large);
  const eis::TriangularFemParameters given =
      eis::readTriangularFemParameters(sceneWith({{"membrane.young-modulus", "300"},
                                                  {"membrane.poisson-ratio", "0.2"},
                                                  {"membrane.method", "small"}}));
  EXPECT_EQ(given.youngModulus, 300.0);
  EXPECT_EQ(given.poissonRatio, 0.2);
  EXPECT_EQ(given.method, eis::TriangleFemMethod::Small);
  EXPECT_FALSE(d.options.triangleFem);
  EXPECT_EQ(d.options.thickness, 1.0);
  EXPECT_FALSE(d.options.planeStrain);
  const eis::TriangularFemParameters triangle =
      eis::readTriangularFemParameters(sceneWith({{"membrane.element", "triangle"},
                                                  {"membrane.thickness", "0.2"},
                                                  {"membrane.plane-strain", "true"}}));
  EXPECT_TRUE(triangle.options.triangleFem);
  EXPECT_EQ(triangle.options.thickness, 0.2);
  EXPECT_TRUE(triangle.options.planeStrain);
  EXPECT_EQ(d.faces, eis::BodyFaces::Cells);
  EXPECT_EQ(
      eis::readTriangularFemParameters(sceneWith({{"membrane.faces", "boundary-flipped"}})).faces,
      eis::BodyFaces::BoundaryFlipped);
  expectRefused({{"membrane.faces", "surface"}});
  expectRefused({{"membrane.young-modulus", "0"},
                 {"membrane.poisson-ratio", "0.5"},
                 {"membrane.method", "corotational"},
                 {"membrane.element", "quad"},
                 {"membrane.thickness", "0"}});
}

TEST(ComponentReaders, TriangularBendingSprings) {
  const eis::TriangularBendingSpringsParameters d =
      eis::readTriangularBendingSpringsParameters(eis::defaultScene());
  EXPECT_FALSE(d.stiffness);
  EXPECT_EQ(d.damping, declaredReal("bending.damping"));
  const eis::TriangularBendingSpringsParameters given = eis::readTriangularBendingSpringsParameters(
      sceneWith({{"bending.stiffness", "300"}, {"bending.damping", "2"}}));
  EXPECT_EQ(given.stiffness, 300.0);
  EXPECT_EQ(given.damping, 2.0);
  EXPECT_EQ(d.faces, eis::BodyFaces::Cells);
  EXPECT_EQ(
      eis::readTriangularBendingSpringsParameters(sceneWith({{"bending.faces", "boundary"}})).faces,
      eis::BodyFaces::Boundary);
  EXPECT_FALSE(d.quads);
  EXPECT_TRUE(
      eis::readTriangularBendingSpringsParameters(sceneWith({{"bending.quads", "true"}})).quads);
  expectRefused({{"bending.stiffness", "-1"},
                 {"bending.damping", "x"},
                 {"bending.faces", "x"},
                 {"bending.quads", "2"}});
}

TEST(ComponentReaders, ConstantForce) {
  EXPECT_TRUE(eis::readConstantForceParameters(eis::defaultScene()).loads.empty());
  const eis::ConstantForceParameters g =
      eis::readConstantForceParameters(sceneWith({{"load.nodal-forces", "3 1 2 3"},
                                                  {"load.total-force", "0 0 -6 all"},
                                                  {"load.force-box", "0 0 0 1 1 1 4 5 6"},
                                                  {"load.constant-force", "1 0 0 indices 2 4"}}));
  ASSERT_EQ(g.loads.size(), 4u);
  ASSERT_EQ(g.texts.size(), 4u);
  // In the order of the keys' declarations: force-box, constant-force, total-force, nodal-forces.
  EXPECT_EQ(g.loads[0].key, "load.force-box");
  EXPECT_EQ(g.loads[0].force, (std::array<double, 3>{4, 5, 6}));
  EXPECT_TRUE(g.loads[0].total);
  EXPECT_EQ(g.loads[0].selection.kind, eis::Selection::Kind::Box);
  EXPECT_EQ(g.loads[0].selection.box.max, (std::array<double, 3>{1, 1, 1}));
  EXPECT_EQ(g.texts[0], "0 0 0 1 1 1 4 5 6");
  EXPECT_EQ(g.loads[1].key, "load.constant-force");
  EXPECT_FALSE(g.loads[1].total);
  EXPECT_EQ(g.loads[1].selection.indices, (std::vector<std::int64_t>{2, 4}));
  EXPECT_EQ(g.loads[2].key, "load.total-force");
  EXPECT_TRUE(g.loads[2].total);
  EXPECT_EQ(g.loads[2].force, (std::array<double, 3>{0, 0, -6}));
  EXPECT_EQ(g.loads[3].key, "load.nodal-forces");
  EXPECT_EQ(g.loads[3].perNode.at(3), (std::array<double, 3>{1, 2, 3}));
  expectRefused({{"load.force-box", "0 0 0 1 1 1"},
                 {"load.constant-force", "1 0 0 nowhere"},
                 {"load.total-force", "1 all"},
                 {"load.nodal-forces", "-1 1 2 3"}});
}

TEST(ComponentReaders, RestShapeSprings) {
  EXPECT_TRUE(eis::readRestShapeSpringsParameters(eis::defaultScene()).springs.empty());
  const eis::RestShapeSpringsParameters g = eis::readRestShapeSpringsParameters(sceneWith(
      {{"springs.rest-shape-nodes", "2 10"}, {"springs.rest-shape", "100 box 0 0 0 1 1 1"}}));
  ASSERT_EQ(g.springs.size(), 2u);
  EXPECT_EQ(g.springs[0].key, "springs.rest-shape");
  EXPECT_EQ(g.springs[0].stiffness, 100);
  EXPECT_EQ(g.springs[0].selection.kind, eis::Selection::Kind::Box);
  EXPECT_EQ(g.texts[0], "100 box 0 0 0 1 1 1");
  EXPECT_EQ(g.springs[1].key, "springs.rest-shape-nodes");
  EXPECT_EQ(g.springs[1].perNode.at(2), 10);
  expectRefused({{"springs.rest-shape", "-1 all"}, {"springs.rest-shape-nodes", "2"}});
}

TEST(ComponentReaders, MappedChild) {
  const eis::MappedChildParameters d = eis::readMappedChildParameters(eis::defaultScene());
  EXPECT_EQ(d.mapping, eis::ChildMappingType::None);
  EXPECT_FALSE(d.vertexMass || d.totalMass || d.constantForce);
  EXPECT_EQ(d.gravity, (eis::Vec3{0, -9.81, 0}));
  EXPECT_EQ(d.restStiffness, 0);
  const eis::MappedChildParameters g =
      eis::readMappedChildParameters(sceneWith({{"mapped.mapping", "barycentric"},
                                                {"mapped.points", "1 2 3 4 5 6"},
                                                {"mapped.total-mass", "2"},
                                                {"mapped.gravity", "0 0 -1"},
                                                {"mapped.constant-force", "1 0 0"},
                                                {"mapped.plane", "0 0 1 -2 100"},
                                                {"mapped.rest-shape-stiffness", "5"},
                                                {"mapped.nodal-forces", "1 0 0 2  1 1 0 0"},
                                                {"mapped.rest-shape-nodes", "0 3"},
                                                {"mapped.cells", "3 0.5 1 0  0 -1 0 2"}}));
  EXPECT_EQ(g.mapping, eis::ChildMappingType::Barycentric);
  EXPECT_EQ(g.cells, (std::vector<std::int64_t>{3, 0}));
  EXPECT_EQ(g.coordinates, (std::vector<eis::Vec3>{{0.5, 1, 0}, {-1, 0, 2}}));
  EXPECT_EQ(g.points, (std::vector<eis::Vec3>{{1, 2, 3}, {4, 5, 6}}));
  EXPECT_EQ(*g.totalMass, 2);
  EXPECT_EQ(g.gravity, (eis::Vec3{0, 0, -1}));
  EXPECT_EQ(*g.constantForce, (eis::Vec3{1, 0, 0}));
  ASSERT_EQ(g.planes.size(), 1u);
  EXPECT_EQ(g.planes[0].stiffness, 100);
  EXPECT_EQ(g.restStiffness, 5);
  EXPECT_EQ(g.nodalForces, (std::map<std::int64_t, eis::Vec3>{{1, {1, 0, 2}}}));
  EXPECT_EQ(g.restStiffnessOf, (std::map<std::int64_t, double>{{0, 3}}));
  EXPECT_EQ(eis::readMappedChildParameters(
                sceneWith({{"mapped.mapping", "subset"}, {"mapped.indices", "4 2 4"}}))
                .indices,
            (std::vector<std::int64_t>{4, 2, 4}));
  expectRefused({{"mapped.mapping", "rigid"},
                 {"mapped.points", "1 2"},
                 {"mapped.indices", "-1"},
                 {"mapped.vertex-mass", "0"},
                 {"mapped.rest-shape-stiffness", "-1"},
                 {"mapped.nodal-forces", "1 0 0"},
                 {"mapped.rest-shape-nodes", "0.5 3"},
                 {"mapped.cells", "1.5 0 0 0"},
                 {"mapped.cells", "1 0 0"}});
}

TEST(ComponentReaders, SurfacePressure) {
  EXPECT_TRUE(eis::readSurfacePressureParameters(eis::defaultScene()).loads.empty());
  const eis::SurfacePressureParameters g = eis::readSurfacePressureParameters(
      sceneWith({{"load.surface-traction", "1 2 3 all"}, {"load.pressure", "5 all"}}));
  ASSERT_EQ(g.loads.size(), 2u);
  EXPECT_FALSE(g.loads[0].traction);
  EXPECT_EQ(g.loads[0].value.numbers, (std::vector<double>{5}));
  EXPECT_EQ(g.loads[0].text, "5 all");
  EXPECT_TRUE(g.loads[1].traction);
  EXPECT_EQ(g.loads[1].value.numbers, (std::vector<double>{1, 2, 3}));
  expectRefused({{"load.pressure", "x all"}, {"load.surface-traction", "1 2 all"}});
}

TEST(ComponentReaders, FixedConstraint) {
  // Not resolved: the built-in box's default clamp is the scene check's, not the reader's.
  EXPECT_TRUE(eis::readFixedConstraintParameters(eis::defaultScene()).sets.empty());
  const eis::FixedConstraintParameters g =
      eis::readFixedConstraintParameters(sceneWith({{"constraint.partial-fixed", "1 0 1 indices 5"},
                                                    {"constraint.fixed", "sphere 0 0 0 2"},
                                                    {"constraint.fixed-group", "base"},
                                                    {"constraint.fixed-box", "0 0 0 1 2 3"}}));
  ASSERT_EQ(g.sets.size(), 4u);
  EXPECT_EQ(g.sets[0].key, "constraint.fixed-box");
  EXPECT_EQ(g.sets[0].text, "0 0 0 1 2 3");
  EXPECT_EQ(g.sets[0].selection.box.max, (std::array<double, 3>{1, 2, 3}));
  EXPECT_EQ(g.sets[1].key, "constraint.fixed-group");
  EXPECT_EQ(g.sets[1].selection.kind, eis::Selection::Kind::Group);
  EXPECT_EQ(g.sets[1].selection.group, "base");
  EXPECT_EQ(g.sets[2].key, "constraint.fixed");
  EXPECT_EQ(g.sets[2].selection.kind, eis::Selection::Kind::Sphere);
  EXPECT_EQ(g.sets[2].selection.radius, 2);
  for (int s = 0; s < 3; ++s)
    EXPECT_EQ(g.sets[s].directions, (std::array<bool, 3>{true, true, true}));
  EXPECT_EQ(g.sets[3].key, "constraint.partial-fixed");
  EXPECT_EQ(g.sets[3].directions, (std::array<bool, 3>{true, false, true}));
  EXPECT_EQ(g.sets[3].selection.indices, (std::vector<std::int64_t>{5}));
  expectRefused({{"constraint.fixed-box", "0 0 0"},
                 {"constraint.fixed", "nowhere"},
                 {"constraint.partial-fixed", "2 0 0 all"},
                 {"constraint.fixed-group", ""}});
}

TEST(ComponentReaders, BilateralLagrangianConstraint) {
  using eis::BilateralLagrangianConstraint;
  EXPECT_TRUE(BilateralLagrangianConstraint::readParameters(eis::defaultScene()).pairs.empty());
  const BilateralLagrangianConstraint::Parameters p = BilateralLagrangianConstraint::readParameters(
      sceneWith({{"lagrange.bilateral", "box 0 0 0 1 1 1 to indices 7 3"},
                 {"lagrange.bilateral", "indices 2 to points 0.5 -1 2"}}));
  ASSERT_EQ(p.pairs.size(), 2u);
  EXPECT_EQ(p.pairs[0].first.kind, eis::Selection::Kind::Box);
  EXPECT_FALSE(p.pairs[0].toPoints);
  EXPECT_EQ(p.pairs[0].second.indices, (std::vector<std::int64_t>{7, 3}));
  EXPECT_EQ(p.pairs[1].first.indices, (std::vector<std::int64_t>{2}));
  EXPECT_TRUE(p.pairs[1].toPoints);
  ASSERT_EQ(p.pairs[1].points.size(), 1u);
  EXPECT_EQ(p.pairs[1].points[0], (std::array<double, 3>{0.5, -1, 2}));
  const BilateralLagrangianConstraint::Parameters q = BilateralLagrangianConstraint::readParameters(
      sceneWith({{"lagrange.bilateral", "all to body /other box 0 0 0 1 1 1"}}));
  EXPECT_TRUE(q.pairs.empty());  // the group's, not this body's
  const auto across = eis::bilateralPairsAcross(
      sceneWith({{"lagrange.bilateral", "all to body /other box 0 0 0 1 1 1"}}));
  ASSERT_EQ(across.size(), 1u);
  EXPECT_EQ(across[0].body, "/other");
  EXPECT_EQ(across[0].second.kind, eis::Selection::Kind::Box);
  expectRefused({{"lagrange.bilateral", "indices 1 to body /other"},
                 {"lagrange.bilateral", "indices 1 2"},
                 {"lagrange.bilateral", "to indices 1"},
                 {"lagrange.bilateral", "indices 1 to"},
                 {"lagrange.bilateral", "indices 1 to points 0 0"},
                 {"lagrange.bilateral", "indices 1 to points 0 0 x"},
                 {"lagrange.bilateral", "indices 1 to nowhere"}});
}

TEST(ComponentReaders, PrescribedMotion) {
  const eis::PrescribedMotionParameters d =
      eis::readPrescribedMotionParameters(eis::defaultScene());
  EXPECT_EQ(declared("constraint.linear-movement-rule"), "sofa");
  EXPECT_EQ(d.rule, eis::MotionRule::Sofa);
  EXPECT_TRUE(d.movements.empty());
  EXPECT_TRUE(d.velocities.empty());
  const eis::PrescribedMotionParameters g = eis::readPrescribedMotionParameters(
      sceneWith({{"constraint.linear-movement-rule", "hold"},
                 {"constraint.linear-movement", "0 0 0 0 2 1 0 0 : indices 3"},
                 {"constraint.prescribed-velocity", "1 2 3 all"}}));
  EXPECT_EQ(g.rule, eis::MotionRule::Hold);
  ASSERT_EQ(g.movements.size(), 1u);
  EXPECT_EQ(g.movements[0].text, "0 0 0 0 2 1 0 0 : indices 3");
  EXPECT_EQ(g.movements[0].frames.times, (std::vector<double>{0, 2}));
  EXPECT_EQ(g.movements[0].frames.moves[1], (std::array<double, 3>{1, 0, 0}));
  EXPECT_EQ(g.movements[0].selection.indices, (std::vector<std::int64_t>{3}));
  ASSERT_EQ(g.velocities.size(), 1u);
  EXPECT_EQ(g.velocities[0].velocity, (std::array<double, 3>{1, 2, 3}));
  EXPECT_EQ(g.velocities[0].selection.kind, eis::Selection::Kind::All);
  expectRefused({{"constraint.linear-movement-rule", "slide"},
                 {"constraint.linear-movement", "0 0 0 all"},
                 {"constraint.prescribed-velocity", "1 2 all"}});
}

TEST(ComponentReaders, TimeIntegrator) {
  const eis::TimeIntegratorParameters d = eis::readTimeIntegratorParameters(eis::defaultScene());
  EXPECT_EQ(d.dt, declaredReal("solver.dt"));
  EXPECT_EQ(d.steps, declaredInteger("solver.steps"));
  EXPECT_EQ(d.step.rayleighMass, declaredReal("solver.rayleigh-mass"));
  EXPECT_EQ(d.step.rayleighStiffness, declaredReal("solver.rayleigh-stiffness"));
  EXPECT_EQ(d.step.vdamping, declaredReal("solver.vdamping"));
  EXPECT_EQ(d.step.firstOrder, declaredBoolean("solver.first-order"));
  EXPECT_EQ(d.step.scheme, declaredChoice("solver.scheme", eis::kTimeSchemes));
  EXPECT_EQ(d.step.computeResidual, declaredBoolean("solver.compute-residual"));
  EXPECT_EQ(d.newton, declaredChoice("solver.newton", eis::kNewtonModes));
  EXPECT_EQ(d.newtonGuess, declaredChoice("solver.newton-guess", eis::kNewtonGuesses));

  const eis::TimeIntegratorParameters g =
      eis::readTimeIntegratorParameters(sceneWith({{"solver.dt", "0.5"},
                                                   {"solver.steps", "7"},
                                                   {"solver.rayleigh-mass", "0.1"},
                                                   {"solver.rayleigh-stiffness", "0.2"},
                                                   {"solver.vdamping", "0.3"},
                                                   {"solver.first-order", "true"},
                                                   {"solver.scheme", "trapezoidal"},
                                                   {"solver.compute-residual", "true"},
                                                   {"solver.newton", "full"},
                                                   {"solver.newton-guess", "extrapolated"}}));
  EXPECT_EQ(g.dt, 0.5);
  EXPECT_EQ(g.steps, 7);
  EXPECT_EQ(g.step.rayleighMass, 0.1);
  EXPECT_EQ(g.step.rayleighStiffness, 0.2);
  EXPECT_EQ(g.step.vdamping, 0.3);
  EXPECT_TRUE(g.step.firstOrder);
  EXPECT_EQ(g.step.scheme, eis::TimeScheme::Trapezoidal);
  EXPECT_TRUE(g.step.computeResidual);
  EXPECT_EQ(g.newton, eis::NewtonMode::Full);
  EXPECT_EQ(g.newtonGuess, eis::NewtonGuess::Extrapolated);
  expectRefused({{"solver.dt", "0"},
                 {"solver.steps", "-1"},
                 {"solver.rayleigh-mass", "-1"},
                 {"solver.rayleigh-stiffness", "x"},
                 {"solver.vdamping", "-2"},
                 {"solver.first-order", "maybe"},
                 {"solver.scheme", "rk4"},
                 {"solver.compute-residual", "2"},
                 {"solver.newton", "half"},
                 {"solver.newton-guess", "random"}});
}

TEST(ComponentReaders, LinearSolver) {
  const eis::LinearSolverParameters d = eis::readLinearSolverParameters(eis::defaultScene());
  EXPECT_EQ(d.op, declaredChoice("solver.operator", eis::kOperatorModes));
  EXPECT_EQ(d.preconditioner, declaredChoice("solver.preconditioner", eis::kPreconditioners));
  EXPECT_EQ(d.pcLag, declaredInteger("solver.pc-lag"));
  EXPECT_EQ(d.pcRebuildGrowth, declaredReal("solver.pc-rebuild-growth"));
  EXPECT_EQ(d.initialGuess, declaredChoice("solver.initial-guess", eis::kInitialGuesses));
  EXPECT_EQ(d.guessSolutions, declaredInteger("solver.guess-solutions"));
  EXPECT_EQ(d.method, declaredChoice("solver.linear", eis::kLinearMethods));
  EXPECT_EQ(d.rtol, declaredReal("solver.rtol"));
  EXPECT_EQ(d.maxIterations, declaredInteger("solver.max-iterations"));
  EXPECT_EQ(d.residualNorm, declaredChoice("solver.residual-norm", eis::kResidualNorms));
  EXPECT_EQ(d.blockProducts, declaredBoolean("solver.block-products"));
  EXPECT_EQ(d.symmetricBlocks, declaredBoolean("solver.symmetric-blocks"));
  EXPECT_EQ(d.singleLevels, declaredBoolean("solver.single-precision-levels"));
  EXPECT_EQ(d.truncatedFinestSmoother, declaredBoolean("solver.truncated-finest-smoother"));
  EXPECT_EQ(d.blockPrefetch, declaredInteger("solver.block-prefetch"));
  EXPECT_EQ(d.blockPrefetchLocality,
            declaredChoice("solver.block-prefetch-locality", eis::kPrefetchLocalities));
  EXPECT_EQ(d.iterationLimit, declaredChoice("solver.iteration-limit", eis::kIterationLimits));

  const eis::LinearSolverParameters g =
      eis::readLinearSolverParameters(sceneWith({{"solver.operator", "matrix-free"},
                                                 {"solver.preconditioner", "jacobi"},
                                                 {"solver.pc-lag", "3"},
                                                 {"solver.pc-rebuild-growth", "1.5"},
                                                 {"solver.initial-guess", "span"},
                                                 {"solver.guess-solutions", "4"},
                                                 {"solver.linear", "direct"},
                                                 {"solver.rtol", "1e-9"},
                                                 {"solver.max-iterations", "77"},
                                                 {"solver.residual-norm", "unpreconditioned"},
                                                 {"solver.block-products", "false"},
                                                 {"solver.symmetric-blocks", "false"},
                                                 {"solver.single-precision-levels", "false"},
                                                 {"solver.truncated-finest-smoother", "false"},
                                                 {"solver.block-prefetch", "64"},
                                                 {"solver.block-prefetch-locality", "1"},
                                                 {"solver.iteration-limit", "accept"}}));
  EXPECT_EQ(g.op, eis::OperatorMode::MatrixFree);
  EXPECT_EQ(g.preconditioner, eis::Preconditioner::Jacobi);
  EXPECT_EQ(g.pcLag, 3);
  EXPECT_EQ(g.pcRebuildGrowth, 1.5);
  EXPECT_EQ(g.initialGuess, eis::InitialGuess::Span);
  EXPECT_EQ(g.guessSolutions, 4);
  EXPECT_EQ(g.method, eis::LinearMethod::Direct);
  EXPECT_EQ(g.rtol, 1e-9);
  EXPECT_EQ(g.maxIterations, 77);
  EXPECT_EQ(g.residualNorm, eis::ResidualNorm::Unpreconditioned);
  EXPECT_FALSE(g.blockProducts);
  EXPECT_FALSE(g.symmetricBlocks);
  EXPECT_FALSE(g.singleLevels);
  EXPECT_FALSE(g.truncatedFinestSmoother);
  EXPECT_EQ(g.blockPrefetch, 64);
  EXPECT_EQ(g.blockPrefetchLocality, 1);
  EXPECT_EQ(g.iterationLimit, eis::IterationLimit::Accept);
  expectRefused({{"solver.operator", "lazy"},
                 {"solver.preconditioner", "ilu"},
                 {"solver.pc-lag", "x"},
                 {"solver.rtol", "0"},
                 {"solver.linear", "lu"},
                 {"solver.iteration-limit", "ignore"}});
}

// Every key a scene check reads is declared, and every check belongs to a known component.
TEST(SceneChecks, NameDeclaredKeysOfKnownComponents) {
  const eis::Scene scene = eis::defaultScene();
  for (const eis::SceneCheck& check : eis::sceneChecks()) {
    SCOPED_TRACE(check.component);
    bool known = false;
    for (const eis::ComponentDeclaration* c : scene.components())
      known |= c->type == check.component;
    EXPECT_TRUE(known);
    EXPECT_FALSE(check.reads.empty());
    for (const std::string& key : check.reads) EXPECT_NE(scene.spec().find(key), nullptr) << key;
  }
}

}  // namespace
