// Tests of SOFA components the importer maps onto what exists or accepts without a model of
// their own: what only draws, collides or schedules threads (io/sofa_walk.cpp), the linear
// solvers that give the direct solve's answer (io/sofa_import.cpp),
// FastTetrahedralCorotationalForceField's methods (io/sofa_elastic_fem.cpp) and UniformMass's
// rigid mass file (io/sofa_rigid_mass_file.cpp).
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "eis/io/sofa_import.hpp"
#include "eis/io/sofa_scene.hpp"
#include "error_of.hpp"

namespace {

using eis::SofaScene;
using eis_test::errorOf;

eis::SofaImport imported(const std::string& text) {
  eis::SofaImportOptions options;
  options.sceneFolder = EIS_MESH_DIR;
  return eis::importSofaScene(SofaScene(text, "t.scn"), options);
}

bool anyHas(const std::vector<std::string>& lines, const std::string& part) {
  return std::any_of(lines.begin(), lines.end(),
                     [&](const std::string& l) { return l.find(part) != std::string::npos; });
}

std::map<std::string, std::vector<std::string>> keysOf(const eis::SofaImport& out,
                                                       std::size_t body = 0) {
  std::map<std::string, std::vector<std::string>> keys;
  for (const eis::SofaKey& k : out.objects.at(body).keys) keys[k.key].push_back(k.value);
  return keys;
}

// A beam an EulerImplicitSolver integrates, with `inside` in its node.
std::string beam(const std::string& inside, const std::string& name = "beam") {
  return "<Node name='" + name +
         "'><EulerImplicitSolver/><CGLinearSolver/>"
         "<MeshGmshLoader name='l' filename='beam_v22_ascii.msh'/>"
         "<MechanicalObject name='dofs' src='@l'/><UniformMass totalMass='1'/>" +
         inside + "</Node>";
}

// Text in the 3D view, arrows of a vector field, a ray-tracing narrow phase, the task
// scheduler's threads and an unread ValuesFromPositions or MeshROI change nothing SOFA
// integrates.
TEST(SofaSmallComponents, DrawnCollisionAndSchedulingComponentsAreSkipped) {
  const eis::SofaImport out = imported(
      "<Node><TaskSchedulerSettings nbThreads='8'/><CollisionPipeline/><RayTraceNarrowPhase/>" +
      beam("<Visual3DText text='a' position='1 0 0'/>"
           "<VisualVectorField position='@dofs.position' vector='@dofs.velocity'/>"
           "<ValuesFromPositions position='@dofs.position' direction='1 1 0'/>"
           "<MeshROI name='roi' position='@dofs.position'/>") +
      "</Node>");
  ASSERT_EQ(out.objects.size(), 1u);
  EXPECT_TRUE(anyHas(out.notes, "MeshROI, ValuesFromPositions, Visual3DText, VisualVectorField"));
  EXPECT_TRUE(anyHas(out.warnings, "RayTraceNarrowPhase"));
  // A ValuesFromPositions a force field reads is not only drawn: refused by name.
  EXPECT_NE(errorOf([&] {
              imported("<Node>" +
                       beam("<ValuesFromPositions name='v' position='@dofs.position'/>"
                            "<ConstantForceField forces='@v.vectors'/>") +
                       "</Node>");
            }).find("ValuesFromPositions 'v': not supported"),
            std::string::npos);
  // So is a MeshROI whose indices a constraint reads: its inside test is not implemented.
  EXPECT_NE(errorOf([&] {
              imported("<Node>" +
                       beam("<MeshROI name='roi' position='@dofs.position'/>"
                            "<FixedProjectiveConstraint indices='@roi.indices'/>") +
                       "</Node>");
            }).find("MeshROI 'roi': not supported"),
            std::string::npos);
}

// SVDLinearSolver solves a nonsingular system exactly: the direct solve; BTDLinearSolver keeps
// only the blocks next to the diagonal: refused on a mesh, saying so.
TEST(SofaSmallComponents, SvdIsTheDirectSolveAndBtdIsRefused) {
  const auto scene = [](const std::string& solver) {
    return "<Node><EulerImplicitSolver/>" + solver +
           "<MeshGmshLoader name='l' filename='beam_v22_ascii.msh'/>"
           "<MechanicalObject src='@l'/><UniformMass totalMass='1'/></Node>";
  };
  const eis::SofaImport out = imported(scene("<SVDLinearSolver template='FullMatrix'/>"));
  EXPECT_EQ(keysOf(out).at("solver.linear"), std::vector<std::string>{"direct"});
  EXPECT_TRUE(anyHas(out.notes, "minSingularValue 1e-06"));
  EXPECT_NE(errorOf([&] {
              imported(scene("<SVDLinearSolver minSingularValue='-1'/>"));
            }).find("minSingularValue = '-1': expected a number >= 0"),
            std::string::npos);
  EXPECT_NE(errorOf([&] {
              imported(scene("<BTDLinearSolver template='BTDMatrix6d'/>"));
            }).find("BTDLinearSolver: not supported: it solves a block-tridiagonal system"),
            std::string::npos);
}

// A chain of frames with a BeamFEMForceField (io/sofa_rigid.cpp) under BTDLinearSolver: the
// direct solve, checked by the run (rigid.block-tridiagonal); the beams' material, section and
// the topology's lines as rigid.beam, SOFA's defaults (E 5000, nu 0.45, radius 0.1) where not
// given, out-of-range values set to them with a warning, as SOFA does.
TEST(SofaSmallComponents, BeamsOnFramesUnderBtd) {
  const auto scene = [](const std::string& topology, const std::string& beam,
                        const std::string& solver = "<BTDLinearSolver template='BTDMatrix6d'/>") {
    return "<Node><EulerImplicitSolver/>" + solver +
           "<MechanicalObject template='Rigid3' position='0 0 0 0 0 0 1  1 0 0 0 0 0 1  "
           "2 0 0 0 0 0 1'/>" +
           topology + "<UniformMass totalMass='3'/><BeamFEMForceField " + beam + "/></Node>";
  };
  const std::string lines = "<MeshTopology lines='0 1 1 2'/>";
  const auto keys = keysOf(imported(scene(lines, "radius='0.05' youngModulus='2e7 2e7'")));
  EXPECT_EQ(keys.at("solver.linear"), std::vector<std::string>{"direct"});
  EXPECT_EQ(keys.at("rigid.block-tridiagonal"), std::vector<std::string>{"true"});
  EXPECT_EQ(keys.at("rigid.beam"), std::vector<std::string>{"2e+07 0.45 0.05 0 0 1 1 2"});
  const eis::SofaImport edges = imported(scene("<EdgeSetTopologyContainer edges='1 0 1 2'/>",
                                               "poissonRatio='0.5'", "<SparseLDLSolver/>"));
  EXPECT_EQ(keysOf(edges).at("rigid.beam"), std::vector<std::string>{"5000 0.45 0.1 0 1 0 1 2"});
  EXPECT_EQ(keysOf(edges).count("rigid.block-tridiagonal"), 0u);
  EXPECT_TRUE(anyHas(edges.warnings, "poissonRatio"));
  EXPECT_NE(errorOf([&] {
              imported(scene(lines, "youngModulus='1 2'"));
            }).find("youngModulus = '1 2': a value per beam is not supported"),
            std::string::npos);
  EXPECT_NE(errorOf([&] {
              imported(scene("<MeshTopology triangles='0 1 2'/>", ""));
            }).find("the beams need edges written as pairs of frames"),
            std::string::npos);
  EXPECT_NE(errorOf([&] {
              imported(scene("<MeshTopology lines='0 3'/>", ""));
            }).find("edge 0 3: a beam joins two different frames of 3"),
            std::string::npos);
  EXPECT_NE(errorOf([&] {
              imported(scene(lines, "", "<BTDLinearSolver subpartSolve='true'/>"));
            }).find("subpartSolve"),
            std::string::npos);
}

// FastTetrahedralCorotationalForceField's methods: qr (its default) and large are our large
// frame, polar2 our polar (the edge matrix's), polar the deformation gradient's, none, linear
// and small the linear element; youngModulus lists per element.
TEST(SofaSmallComponents, FastCorotationalMethods) {
  const auto keys = [](const std::string& fields) {
    return keysOf(
        imported("<Node><EulerImplicitSolver/><CGLinearSolver/>"
                 "<MeshGmshLoader name='l' filename='beam_v22_ascii.msh'/>"
                 "<MechanicalObject src='@l'/><UniformMass totalMass='1'/>"
                 "<FastTetrahedralCorotationalForceField " +
                 fields + "/></Node>"));
  };
  using V = std::vector<std::string>;
  const std::pair<const char*, const char*> methods[] = {{"", "large"},
                                                         {"method='large'", "large"},
                                                         {"method='polar2'", "polar"},
                                                         {"method='polar'", "polar-gradient"}};
  for (const auto& [fields, rotation] : methods) {
    const auto k = keys(fields);
    EXPECT_EQ(k.at("material.model"), V{"corotational"}) << fields;
    EXPECT_EQ(k.at("material.rotation"), V{rotation}) << fields;
  }
  for (const char* method : {"none", "linear", "small"})
    EXPECT_EQ(keys(std::string("method='") + method + "'").at("material.model"), V{"linear"});
  const auto lists = keys("youngModulus='100 200' poissonRatio='0.3'");
  EXPECT_EQ(lists.at("material.cell-young-modulus"), V{"100 200"});
  EXPECT_EQ(lists.at("material.poisson-ratio"), V{"0.3"});
  EXPECT_NE(errorOf([&] { keys("method='svd'"); }).find("expected qr, large, polar, polar2"),
            std::string::npos);
}

// UniformMass<Rigid3>'s mass file: the first line skipped, inrt, vertexMass and volm read, the
// other keywords' numbers dropped, # comments; found beside the scene. Its mass is what
// vertexMass="M VOLUME I.." gives.
TEST(SofaSmallComponents, RigidMassFile) {
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / ("eis-rigid-mass-" + std::to_string(::getpid()));
  std::filesystem::create_directories(folder);
  const auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream((folder / name).string()) << text;
  };
  write("body.rigid",
        "inrt 9 9 9 9 9 9 9 9 9 this header line is skipped\n"
        "# a comment: vertexMass 100\n"
        "vertexMass 2.5\nvolm 0.75\ncenter 1 2 3\nfrme 0 0 0 1 grav 0 -9.8 0 visc 1\n"
        "inrt 1.5 0.1 -0.2\n 0.1 2.5 0.3\n -0.2 0.3 3.5 stck 0 step 0.01 prec 1e-6\n");
  write("short.rigid", "Xsp 3.0\nvolm 2\n");
  write("bad.rigid", "Xsp 3.0\nvertexMass 2 mass 3\n");
  write("cut.rigid", "Xsp 3.0\ninrt 1 0 0 0 1 0 0 0\n");
  const auto scene = [&](const std::string& mass) {
    eis::SofaImportOptions options;
    options.sceneFolder = folder.string();
    return eis::importSofaScene(
        SofaScene("<Node><EulerImplicitSolver/><CGLinearSolver/>"
                  "<MechanicalObject template='Rigid3' position='0 0 0 0 0 0 1'/>" +
                      mass + "</Node>",
                  (folder / "t.scn").string()),
        options);
  };
  using V = std::vector<std::string>;
  EXPECT_EQ(keysOf(scene("<UniformMass filename='body.rigid'/>")).at("rigid.mass"),
            V{"2.5 0.75 1.5 0.1 -0.2 0.1 2.5 0.3 -0.2 0.3 3.5"});
  EXPECT_EQ(keysOf(scene("<UniformMass filename='short.rigid'/>")).at("rigid.mass"),
            V{"1 2 1 0 0 0 1 0 0 0 1"});
  EXPECT_NE(errorOf([&] {
              scene("<UniformMass filename='bad.rigid'/>");
            }).find("bad.rigid: unknown keyword 'mass'"),
            std::string::npos);
  EXPECT_NE(errorOf([&] {
              scene("<UniformMass filename='cut.rigid'/>");
            }).find("inrt needs 9 numbers, the file ends"),
            std::string::npos);
  EXPECT_NE(errorOf([&] {
              scene("<UniformMass filename='body.rigid' totalMass='3'/>");
            }).find("totalMass"),
            std::string::npos);
  EXPECT_NE(errorOf([&] { scene("<UniformMass filename='none.rigid'/>"); }).find("no such file"),
            std::string::npos);
  std::filesystem::remove_all(folder);
}

// A MechanicalObject's rest_position linked to a regular grid's points makes that grid the mesh;
// its position, linked to another grid's points, the starting state (MechanicalObject::init
// keeps a rest_position as long as the position). A velocity linked to computed values is
// refused.
TEST(SofaSmallComponents, RestPositionLinkedToAGrid) {
  const auto scene = [](const std::string& state) {
    return imported(
        "<Node><EulerImplicitSolver/><CGLinearSolver/>"
        "<Node name='other'><RegularGridTopology name='g2' n='2 2 2' min='0 0 0' max='1 1 -1'/>"
        "</Node><RegularGridTopology name='g' n='2 2 2' min='0 0 0' max='1 1 1'/>" +
        state + "<UniformMass totalMass='1'/><TetrahedronFEMForceField/></Node>");
  };
  const auto keys = keysOf(
      scene("<MechanicalObject rest_position='@g.position' position='@other/g2.position'/>"));
  using V = std::vector<std::string>;
  EXPECT_EQ(keys.at("initial.positions"), V{"0 0 0 1 0 0 0 1 0 1 1 0 0 0 -1 1 0 -1 0 1 -1 1 1 -1"});
  EXPECT_TRUE(keys.count("mesh.nodes") || keys.count("mesh.box-size"));
  const auto written =
      keysOf(scene("<MechanicalObject rest_position='@g.position' "
                   "position='0 0 0 1 0 0 0 1 0 1 1 0 0 0 2 1 0 2 0 1 2 1 1 2'/>"));
  EXPECT_EQ(written.at("initial.positions"), V{"0 0 0 1 0 0 0 1 0 1 1 0 0 0 2 1 0 2 0 1 2 1 1 2"});
  EXPECT_NE(errorOf([&] {
              scene("<MechanicalObject rest_position='@g.position' position='0 0 0'/>");
            }).find("1 positions for the 8 points"),
            std::string::npos);
  EXPECT_NE(errorOf([&] {
              scene("<MechanicalObject velocity='@g.position'/>");
            }).find("velocity: a link to values SOFA computes"),
            std::string::npos);
}

// TetrahedralTensorMassForceField is the linear element (tests/unit/test_tensor_mass.cpp) with
// its own defaults, youngModulus 1000 and poissonRatio 0.3, one number each.
TEST(SofaSmallComponents, TensorMassIsTheLinearElement) {
  const auto keys = [](const std::string& fields) {
    return keysOf(
        imported("<Node><EulerImplicitSolver/><CGLinearSolver/>"
                 "<MeshGmshLoader name='l' filename='beam_v22_ascii.msh'/>"
                 "<MechanicalObject src='@l'/><UniformMass totalMass='1'/>"
                 "<TetrahedralTensorMassForceField " +
                 fields + "/></Node>"));
  };
  using V = std::vector<std::string>;
  const auto defaults = keys("");
  EXPECT_EQ(defaults.at("material.model"), V{"linear"});
  EXPECT_EQ(defaults.at("material.cells"), V{"tetrahedron"});
  EXPECT_EQ(defaults.at("material.young-modulus"), V{"1000"});
  EXPECT_EQ(defaults.at("material.poisson-ratio"), V{"0.3"});
  EXPECT_EQ(keys("youngModulus='2e5' poissonRatio='0.4'").at("material.young-modulus"), V{"2e+05"});
  EXPECT_NE(errorOf([&] { keys("youngModulus='1 2'"); }).find("expected one number"),
            std::string::npos);
}

}  // namespace
