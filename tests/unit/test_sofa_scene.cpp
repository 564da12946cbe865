// Tests of the SOFA scene graph (nodes, objects, places, SOFA's link resolution) and of the
// mapping of each SOFA component onto our keys, against the defaults of SOFA master's sources
// (named beside each mapping in src/io/sofa_components.cpp and src/io/sofa_import.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "eis/core/error.hpp"
#include "eis/io/sofa_import.hpp"
#include "eis/io/sofa_scene.hpp"
#include "error_of.hpp"

namespace {

using eis::SofaScene;

using eis_test::errorOf;

const char* kGraph = R"(<Node name="root">
  <MeshGmshLoader name="loader" filename="a.msh"/>
  <Node name="body">
    <MechanicalObject name="dofs" position="@loader.position"/>
    <BoxROI name="box" box="0 0 0 1 1 1"/>
    <Node name="loader"/>
    <Node name="visual">
      <Object type="OglModel" name="skin" eis-source="liver.py:7"/>
    </Node>
  </Node>
</Node>)";

TEST(SofaScene, NodesObjectsAndPlaces) {
  const SofaScene scene(kGraph, "g.scn");
  const eis::SofaNode& root = scene.root();
  EXPECT_EQ(root.name, "root");
  EXPECT_EQ(root.path(), "/");
  ASSERT_EQ(root.objects.size(), 1u);
  EXPECT_EQ(root.objects[0].type, "MeshGmshLoader");
  EXPECT_EQ(root.objects[0].where, "g.scn:2");
  const eis::SofaNode& body = *root.children[0];
  EXPECT_EQ(body.path(), "/body");
  EXPECT_EQ(body.objects[0].label(), "MechanicalObject 'dofs' (g.scn:4)");
  ASSERT_NE(body.objects[0].field("position"), nullptr);
  EXPECT_EQ(body.objects[0].field("name"), nullptr);
  const eis::SofaObject& skin = body.children[1]->objects[0];
  EXPECT_EQ(skin.type, "OglModel");
  EXPECT_EQ(skin.where, "liver.py:7");
  EXPECT_TRUE(skin.data.empty());
  EXPECT_EQ(scene.objects().size(), 4u);
}

TEST(SofaScene, LinksResolveAsSofaDoes) {
  const SofaScene scene(kGraph, "g.scn");
  const eis::SofaNode& body = *scene.root().children[0];
  const eis::SofaNode& visual = *body.children[1];
  // "@box.indices": the object in the node itself, its field.
  eis::SofaLinkTarget t = scene.resolve(body, "@box.indices", "w");
  ASSERT_NE(t.object, nullptr);
  EXPECT_EQ(t.object->name, "box");
  EXPECT_EQ(t.field, "indices");
  // "@box" from a child node: looked for in each ancestor in turn.
  t = scene.resolve(visual, "@box", "w");
  ASSERT_NE(t.object, nullptr);
  EXPECT_EQ(t.field, "");
  // A child node wins over an object of the same name ("loader" in /body is a node; the
  // loader object is in the root, found from /visual only past /body).
  t = scene.resolve(body, "@loader", "w");
  EXPECT_EQ(t.object, nullptr);
  EXPECT_EQ(t.node->path(), "/body/loader");
  // "@../", "@/", "@./".
  t = scene.resolve(visual, "@../dofs.position", "w");
  ASSERT_NE(t.object, nullptr);
  EXPECT_EQ(t.object->name, "dofs");
  EXPECT_EQ(t.field, "position");
  t = scene.resolve(visual, "@/loader.filename", "w");
  ASSERT_NE(t.object, nullptr);
  EXPECT_EQ(t.object->type, "MeshGmshLoader");
  t = scene.resolve(visual, "@/body/visual/skin", "w");
  ASSERT_NE(t.object, nullptr);
  EXPECT_EQ(t.object->name, "skin");
  // "@./box" is based on the node: no search upwards.
  EXPECT_EQ(errorOf([&] { scene.resolve(visual, "@./box", "g.scn:9"); }),
            "g.scn:9: broken link '@./box': no node or object named 'box' in node /body/visual");
  EXPECT_EQ(errorOf([&] { scene.resolve(body, "@nothing.indices", "g.scn:5"); }),
            "g.scn:5: broken link '@nothing.indices': no node or object named 'nothing' in node "
            "/ or above it (SOFA finds nothing either, and keeps the field's default)");
  // "@../x/dofs.position" from /body: '..' is the parent of the owner's node, the root, where no
  // node or object is named x; based on it, not looked for above.
  EXPECT_EQ(errorOf([&] { scene.resolve(body, "@../x/dofs.position", "g.scn:4"); }),
            "g.scn:4: broken link '@../x/dofs.position': no node or object named 'x' in node / "
            "(SOFA finds nothing either, and keeps the field's default)");
  EXPECT_EQ(errorOf([&] { scene.resolve(scene.root(), "@..", "g.scn:1"); }),
            "g.scn:1: broken link '@..': the root node has no parent");
}

TEST(SofaScene, MalformedScenesNameFileAndLine) {
  // tinyxml2 names the element left open, at the line that opens it.
  EXPECT_EQ(errorOf([] { SofaScene("<Node>\n<A/>\n</B>", "m.scn"); }),
            "m.scn:1: <Node> is not closed by its own end tag (another end tag or the end of the "
            "text comes first)");
  EXPECT_EQ(errorOf([] { SofaScene("<Scene/>", "m.scn"); }),
            "m.scn:1: the root element is <Scene>; a SOFA scene's is <Node>");
  EXPECT_EQ(errorOf([] { SofaScene("<Node>\n<Object name='x'/></Node>", "m.scn"); }),
            "m.scn:2: <Object> without a type attribute");
  EXPECT_EQ(errorOf([] { SofaScene("<Node><A eis-source='nowhere'/></Node>", "m.scn"); }),
            "m.scn:1: eis-source = 'nowhere': expected FILE:LINE");
}

// The keys of an import's one body, kept alive (a range-for over a member of the import, a
// temporary, would outlive it).
std::vector<eis::SofaKey> bodyKeys(const eis::SofaImport& imported) {
  return imported.objects.at(0).keys;
}

// The keys of a scene around `body` (one mechanical node with a loader of a shipped mesh).
using Keys = std::map<std::string, std::vector<std::string>>;
// A body needs a mass component (SOFA's step without one has M = 0, refused): the tests of other
// components give it this one.
const std::string kMass = "<UniformMass totalMass='1'/>";

Keys keysOf(const std::string& body, bool sceneLimits = false,
            const std::string& root = "<Node name='root'>", eis::SofaImport* imported = nullptr) {
  const std::string text = root +
                           "<Node name='beam'>"
                           "<EulerImplicitSolver/>"
                           "<MeshGmshLoader name='loader' filename='beam_v22_ascii.msh'/>"
                           "<TetrahedronSetTopologyContainer name='topo' src='@loader'/>"
                           "<MechanicalObject name='dofs'/>" +
                           body + (body.find("Mass") == std::string::npos ? kMass : "") +
                           "</Node></Node>";
  eis::SofaImportOptions options;
  options.sceneFolder = EIS_MESH_DIR;
  options.sceneLinearLimits = sceneLimits;
  const eis::SofaImport result = eis::importSofaScene(SofaScene(text, "t.scn"), options);
  Keys keys;
  for (const eis::SofaKey& k : result.objects.at(0).keys) keys[k.key].push_back(k.value);
  if (imported) *imported = result;
  return keys;
}

std::string one(const Keys& keys, const std::string& key) {
  const auto it = keys.find(key);
  if (it == keys.end()) return "(absent)";
  return it->second.size() == 1 ? it->second[0] : "(" + std::to_string(it->second.size()) + ")";
}

TEST(SofaImport, RootAndEulerImplicitSolverDefaults) {
  const Keys keys = keysOf("");
  EXPECT_EQ(one(keys, "load.gravity"), "0 -9.81 0");  // BaseContext
  EXPECT_EQ(one(keys, "solver.dt"), "0.01");
  EXPECT_EQ(one(keys, "solver.rayleigh-stiffness"), "0");
  EXPECT_EQ(one(keys, "solver.rayleigh-mass"), "0");
  EXPECT_EQ(one(keys, "solver.vdamping"), "0");
  EXPECT_EQ(one(keys, "solver.first-order"), "false");
  EXPECT_EQ(one(keys, "solver.trapezoidal"), "false");
  EXPECT_EQ(one(keys, "solver.compute-residual"), "false");
  EXPECT_EQ(one(keys, "mesh.file"), std::string(EIS_MESH_DIR) + "/beam_v22_ascii.msh");
  const Keys root = keysOf("", false, "<Node name='root' gravity='1 2 3' dt='0.5'>");
  EXPECT_EQ(one(root, "load.gravity"), "1 2 3");
  EXPECT_EQ(one(root, "solver.dt"), "0.5");
}

TEST(SofaImport, EulerImplicitSolverFields) {
  const std::string text =
      "<Node><Node><EulerImplicitSolver rayleighStiffness='0.1' rayleighMass='0.2' vdamping='3'"
      " firstOrder='true' trapezoidalScheme='1' computeResidual='true'/>"
      "<MeshGmshLoader name='l' filename='beam_v22_ascii.msh'/><MechanicalObject src='@l'/>"
      "<UniformMass totalMass='1'/></Node></Node>";
  eis::SofaImportOptions options;
  options.sceneFolder = EIS_MESH_DIR;
  Keys keys;
  for (const eis::SofaKey& k : bodyKeys(eis::importSofaScene(SofaScene(text, "t.scn"), options)))
    keys[k.key].push_back(k.value);
  EXPECT_EQ(one(keys, "solver.rayleigh-stiffness"), "0.1");
  EXPECT_EQ(one(keys, "solver.rayleigh-mass"), "0.2");
  EXPECT_EQ(one(keys, "solver.vdamping"), "3");
  EXPECT_EQ(one(keys, "solver.first-order"), "true");
  EXPECT_EQ(one(keys, "solver.trapezoidal"), "true");
  EXPECT_EQ(one(keys, "solver.compute-residual"), "true");
  EXPECT_NE(one(keys, "mesh.file"), "(absent)");  // src="@l" on the MechanicalObject
}

TEST(SofaImport, LinearSolvers) {
  // CGLinearSolver.inl: iterations 25, tolerance 1e-5.
  Keys keys = keysOf("<CGLinearSolver/>");
  EXPECT_EQ(one(keys, "solver.linear"), "iterative");
  EXPECT_EQ(one(keys, "solver.residual-norm"), "unpreconditioned");
  EXPECT_EQ(one(keys, "solver.rtol"), "1e-08");
  EXPECT_EQ(one(keys, "solver.max-iterations"), "1000");
  EXPECT_EQ(one(keys, "solver.iteration-limit"), "error");
  keys = keysOf("<CGLinearSolver/>", true);
  EXPECT_EQ(one(keys, "solver.rtol"), "1e-05");
  EXPECT_EQ(one(keys, "solver.max-iterations"), "25");
  EXPECT_EQ(one(keys, "solver.iteration-limit"), "accept");
  keys = keysOf("<PCGLinearSolver iterations='3000' tolerance='1e-12'/>");
  EXPECT_EQ(one(keys, "solver.rtol"), "1e-12");
  EXPECT_EQ(one(keys, "solver.max-iterations"), "3000");
  for (const char* direct :
       {"SparseLDLSolver", "SparseCholeskySolver", "EigenSimplicialLDLT", "AsyncSparseLDLSolver"})
    EXPECT_EQ(one(keysOf("<" + std::string(direct) + "/>"), "solver.linear"), "direct") << direct;
  EXPECT_EQ(one(keysOf("<NewtonRaphsonSolver/>"), "solver.newton"), "full");
  EXPECT_NE(errorOf([] { keysOf("<StaticSolver/>"); }).find("StaticSolver"), std::string::npos);
}

TEST(SofaImport, ElasticForceFieldDefaults) {
  for (const char* type : {"TetrahedronFEMForceField", "TetrahedralCorotationalFEMForceField"}) {
    // BaseLinearElasticityFEMForceField.inl / TetrahedralCorotationalFEMForceField.inl:
    // youngModulus 5000, poissonRatio 0.45, method large.
    Keys keys = keysOf("<" + std::string(type) + "/>");
    EXPECT_EQ(one(keys, "material.model"), "corotational") << type;
    EXPECT_EQ(one(keys, "material.rotation"), "large") << type;
    EXPECT_EQ(one(keys, "material.young-modulus"), "5000") << type;
    EXPECT_EQ(one(keys, "material.poisson-ratio"), "0.45") << type;
    keys =
        keysOf("<" + std::string(type) + " method='small' youngModulus='1e8' poissonRatio='0.3'/>");
    EXPECT_EQ(one(keys, "material.model"), "linear") << type;
    EXPECT_EQ(one(keys, "material.young-modulus"), "1e+08") << type;
    EXPECT_EQ(one(keys, "material.poisson-ratio"), "0.3") << type;
    EXPECT_EQ(one(keysOf("<" + std::string(type) + " method='polar'/>"), "material.rotation"),
              "polar");
  }
  // svd: TetrahedronFEMForceField's only (polar's frame until an element flattens).
  EXPECT_EQ(one(keysOf("<TetrahedronFEMForceField method='svd'/>"), "material.rotation"), "svd");
  EXPECT_EQ(errorOf([] { keysOf("<TetrahedralCorotationalFEMForceField method='svd'/>"); }),
            "t.scn:1: TetrahedralCorotationalFEMForceField: method = 'svd': expected small, large "
            "or polar");
  EXPECT_EQ(errorOf([] { keysOf("<TetrahedronFEMForceField method='qr'/>"); }),
            "t.scn:1: TetrahedronFEMForceField: method = 'qr': expected small, large, polar or "
            "svd");
}

TEST(SofaImport, Masses) {
  Keys keys = keysOf("<DiagonalMass massDensity='1000'/>");
  EXPECT_EQ(one(keys, "mass.type"), "lumped");
  EXPECT_EQ(one(keys, "material.density"), "1000");
  keys = keysOf("<MeshMatrixMass massDensity='2'/>");
  EXPECT_EQ(one(keys, "mass.type"), "consistent");
  EXPECT_EQ(one(keys, "material.density"), "2");
  EXPECT_EQ(one(keysOf("<MeshMatrixMass massDensity='2' lumping='true'/>"), "mass.type"), "lumped");
  // UniformMass.inl: totalMass wins over vertexMass; neither is refused, as SOFA master does.
  keys = keysOf("<UniformMass totalMass='7' vertexMass='0.5'/>");
  EXPECT_EQ(one(keys, "mass.type"), "uniform");
  EXPECT_EQ(one(keys, "mass.total-mass"), "7");
  EXPECT_EQ(one(keys, "mass.vertex-mass"), "(absent)");
  EXPECT_EQ(one(keysOf("<UniformMass vertexMass='0.5'/>"), "mass.vertex-mass"), "0.5");
  EXPECT_NE(errorOf([] { keysOf("<UniformMass/>"); }).find("give totalMass or vertexMass"),
            std::string::npos);
  // DiagonalMass.inl / MeshMatrixMass.inl massInitialization: totalMass wins when set, then
  // massDensity; none set is totalMass = 1 (not density 1).
  for (const char* type : {"DiagonalMass", "MeshMatrixMass"}) {
    keys = keysOf("<" + std::string(type) + "/>");
    EXPECT_EQ(one(keys, "mass.total-mass"), "1") << type;
    EXPECT_EQ(one(keys, "material.density"), "(absent)") << type;
    keys = keysOf("<" + std::string(type) + " totalMass='3' massDensity='1000'/>");
    EXPECT_EQ(one(keys, "mass.total-mass"), "3") << type;
    EXPECT_EQ(one(keys, "material.density"), "(absent)") << type;
  }
  // DiagonalMass.inl (checkVertexMass): a vertexMass of another size than the points is dropped
  // for totalMass 1; the beam has more than 4 points. One of that size is refused, as is
  // MeshMatrixMass's.
  keys = keysOf("<DiagonalMass vertexMass='1'/>");
  EXPECT_EQ(one(keys, "mass.total-mass"), "1");
  EXPECT_EQ(one(keys, "material.density"), "(absent)");
  EXPECT_NE(errorOf([] { keysOf("<DiagonalMass vertexMass='1 2 3 4'/>"); }).find("vertexMass"),
            std::string::npos);
  EXPECT_NE(errorOf([] { keysOf("<MeshMatrixMass vertexMass='1'/>"); }).find("vertexMass"),
            std::string::npos);
}

// ConstantSparsityPatternSystem.inl: MatrixLinearSystem's matrix, stored on a constant pattern:
// no key, a note; a switch that leaves out part of the matrix is refused.
TEST(SofaImport, ConstantSparsityPatternSystem) {
  eis::SofaImport imported;
  const Keys plain = keysOf(
      "<ConstantSparsityPatternSystem template='CompressedRowSparseMatrixd'"
      " name='A'/><SparseLDLSolver linearSystem='@A'/>",
      false, "<Node name='root'>", &imported);
  const Keys none = keysOf("<SparseLDLSolver/>");
  EXPECT_EQ(plain, none);
  bool noted = false;
  for (const std::string& line : imported.notes)
    noted = noted || line.find("ConstantSparsityPatternSystem 'A'") != std::string::npos;
  EXPECT_TRUE(noted);
  EXPECT_NE(errorOf([] {
              keysOf("<ConstantSparsityPatternSystem assembleMass='false'/>");
            }).find("leaves out part of the matrix"),
            std::string::npos);
}

TEST(SofaImport, PerElementMaterialsAndHyperelasticity) {
  // BaseLinearElasticityFEMForceField: youngModulus and poissonRatio are lists (element i takes
  // list[i], else list[0]): our material.cell-* keys, which follow the same rule.
  Keys keys = keysOf("<TetrahedronFEMForceField youngModulus='1 2 3' poissonRatio='0.3 0.2'/>");
  EXPECT_EQ(one(keys, "material.cell-young-modulus"), "1 2 3");
  EXPECT_EQ(one(keys, "material.cell-poisson-ratio"), "0.3 0.2");
  EXPECT_EQ(one(keys, "material.young-modulus"), "(absent)");
  EXPECT_NE(errorOf([] {
              keysOf("<TetrahedralCorotationalFEMForceField youngModulus='1 2'/>");
            }).find("expected one number"),
            std::string::npos);
  // TetrahedronHyperelasticityFEMForceField: ParameterSet = "mu lambda" for these materials
  // (docs/sofa-hyperelastic.md).
  const std::vector<std::pair<std::string, std::string>> laws = {
      {"StVenantKirchhoff", "stvk"},
      {"NeoHookean", "neohookean"},
      {"StableNeoHookean", "stable-neohookean"}};
  for (const auto& [sofa, ours] : laws) {
    keys = keysOf("<TetrahedronHyperelasticityFEMForceField materialName='" + sofa +
                  "' ParameterSet='3448 31034'/>");
    EXPECT_EQ(one(keys, "material.model"), ours) << sofa;
    EXPECT_EQ(one(keys, "material.lame"), "3448 31034") << sofa;
  }
  // ArrudaBoyce, the default: ParameterSet = "mu k0" with k0 the bulk modulus, ours
  // lambda = k0 - 2 mu / 3.
  for (const std::string name : {"materialName='ArrudaBoyce' ", ""}) {
    keys =
        keysOf("<TetrahedronHyperelasticityFEMForceField " + name + "ParameterSet='3000 5000'/>");
    EXPECT_EQ(one(keys, "material.model"), "arruda-boyce") << name;
    EXPECT_EQ(one(keys, "material.lame"), "3000 3000") << name;
  }
  // MooneyRivlin "C10 C01 k0" and Ogden "mu1 alpha1 k0": their own three parameters, as they are.
  for (const auto& [sofa, ours] : std::vector<std::pair<std::string, std::string>>{
           {"MooneyRivlin", "mooney-rivlin"}, {"Ogden", "ogden"}}) {
    keys = keysOf("<TetrahedronHyperelasticityFEMForceField materialName='" + sofa +
                  "' ParameterSet='5000 7000 10'/>");
    EXPECT_EQ(one(keys, "material.model"), ours) << sofa;
    EXPECT_EQ(one(keys, "material.law-parameters"), "5000 7000 10") << sofa;
    EXPECT_EQ(one(keys, "material.lame"), "(absent)") << sofa;
    const std::string scene =
        "<TetrahedronHyperelasticityFEMForceField materialName='" + sofa + "' ParameterSet='1 2'/>";
    const std::string two = errorOf([&scene] { keysOf(scene); });
    EXPECT_NE(two.find("expected the three parameters"), std::string::npos) << two;
  }
  const std::string costa = errorOf([] {
    keysOf(
        "<TetrahedronHyperelasticityFEMForceField materialName='Costa' "
        "ParameterSet='1 2'/>");
  });
  EXPECT_NE(costa.find("materialName = 'Costa': Costa is not implemented"), std::string::npos)
      << costa;
  EXPECT_NE(errorOf([] {
              keysOf("<TetrahedronHyperelasticityFEMForceField/>");
            }).find("expected the two parameters mu and k0"),
            std::string::npos);
  EXPECT_NE(errorOf([] {
              keysOf("<TetrahedronHyperelasticityFEMForceField materialName='NeoHookean'/>");
            }).find("expected the two Lame parameters"),
            std::string::npos);
}

TEST(SofaImport, LoaderAndStateTransformsInSofasOrder) {
  // MeshLoader: scale3d (times scale), rotation, translation; then MechanicalObject's, each in
  // that order; neutral ones are left out.
  const std::string text =
      "<Node><EulerImplicitSolver/>"
      "<MeshGmshLoader name='l' filename='beam_v22_ascii.msh' translation='1 2 3' "
      "rotation='0 0 90' scale3d='2 2 2' scale='0.5'/>"
      "<MechanicalObject src='@l' translation='0 0 1' rotation='0 0 0'/><UniformMass totalMass='1'/></Node>";
  eis::SofaImportOptions options;
  options.sceneFolder = EIS_MESH_DIR;
  std::vector<std::string> transforms;
  for (const eis::SofaKey& k : bodyKeys(eis::importSofaScene(SofaScene(text, "t.scn"), options)))
    if (k.key == "mesh.transform") transforms.push_back(k.value);
  EXPECT_EQ(transforms,
            (std::vector<std::string>{"rotate 0 0 90", "translate 1 2 3", "translate 0 0 1"}));
  EXPECT_NE(
      errorOf([&] {
        eis::importSofaScene(
            SofaScene(
                "<Node><EulerImplicitSolver/>"
                "<MeshGmshLoader name='l' filename='beam_v22_ascii.msh'/>"
                "<MechanicalObject src='@l' translation2='1 0 0'/><UniformMass totalMass='1'/></Node>",
                "t.scn"),
            options);
      }).find("translation2"),
      std::string::npos);
}

// MechanicalObject::parse, after the data fields: scale replaces scale3d with (s, s, s); sx sy sz
// replace it (1 where not given), rx ry rz the rotation and dx dy dz the translation (0 where not
// given); rx2 ry2 rz2 are rotation2, which moves the position but not the rest position.
TEST(SofaImport, MechanicalObjectLegacyTransformAttributes) {
  eis::SofaImportOptions options;
  options.sceneFolder = EIS_MESH_DIR;
  const auto transforms = [&](const std::string& attributes) {
    std::vector<std::string> found;
    for (const eis::SofaKey& k : bodyKeys(eis::importSofaScene(
             SofaScene("<Node><EulerImplicitSolver/><MeshGmshLoader name='l' "
                       "filename='beam_v22_ascii.msh'/><MechanicalObject "
                       "src='@l' " +
                           attributes + "/><UniformMass totalMass='1'/></Node>",
                       "t.scn"),
             options)))
      if (k.key == "mesh.transform") found.push_back(k.value);
    return found;
  };
  using Texts = std::vector<std::string>;
  EXPECT_EQ(transforms("dx='60'"), Texts{"translate 60 0 0"});
  EXPECT_EQ(transforms("translation='1 2 3' dz='4'"), Texts{"translate 0 0 4"});
  EXPECT_EQ(transforms("rotation='0 0 45' rx='90'"), Texts{"rotate 90 0 0"});
  EXPECT_EQ(transforms("scale3d='2 2 2' scale='0.5'"), Texts{"scale 0.5 0.5 0.5"});
  EXPECT_EQ(transforms("scale='2' sy='3'"), Texts{"scale 1 3 1"});
  EXPECT_EQ(transforms("sx='2' ry='30' dy='-1'"),
            (Texts{"scale 2 1 1", "rotate 0 30 0", "translate 0 -1 0"}));
  EXPECT_NE(errorOf([&] { transforms("rz2='10'"); }).find("rz2"), std::string::npos);
  // getAttributeAsFloat: strtof, single precision (0.1f is 0.100000001490116...).
  EXPECT_EQ(transforms("dx='0.1'"), Texts{"translate 0.10000000149011612 0 0"});
  // src="@loader" does not carry the loader's transform over (not auto-linked in SOFA): it
  // applies once, as the loader's.
  std::vector<std::string> once;
  for (
      const eis::SofaKey& k : bodyKeys(eis::importSofaScene(
          SofaScene(
              "<Node><EulerImplicitSolver/><MeshGmshLoader name='l' "
              "filename='beam_v22_ascii.msh' scale3d='2 2 2' "
              "translation='1 0 0'/><MechanicalObject src='@l'/><UniformMass totalMass='1'/></Node>",
              "t.scn"),
          options)))
    if (k.key == "mesh.transform") once.push_back(k.value);
  EXPECT_EQ(once, (Texts{"scale 2 2 2", "translate 1 0 0"}));
}

// GridMeshCreator.cpp: point x + y nx at (x / (nx - 1), y / (ny - 1), 0); pattern 1 cuts the
// cells with (x + y) even from (x, y) to (x + 1, y + 1), the others the other way; 2 (default)
// all the first way, 3 the second, 0 keeps quads. Triangles and points worked out by hand.
TEST(SofaImport, GridMeshCreator) {
  const auto keys = [](const std::string& creator, std::vector<std::string>* warnings = nullptr) {
    const eis::SofaImport imported = eis::importSofaScene(
        SofaScene(
            "<Node><EulerImplicitSolver/>" + creator +
                "<MechanicalObject position='@g.position'/><TriangleSetTopologyContainer "
                "position='@g.position' triangles='@g.triangles'/><UniformMass totalMass='1'/></Node>",
            "t.scn"),
        eis::SofaImportOptions{});
    if (warnings) *warnings = imported.warnings;
    std::map<std::string, std::string> found;
    for (const eis::SofaKey& k : imported.objects.at(0).keys) found[k.key] = k.value;
    return found;
  };
  auto alternate = keys("<GridMeshCreator name='g' resolution='3 2' trianglePattern='1'/>");
  EXPECT_EQ(alternate["mesh.nodes"], "0 0 0 0.5 0 0 1 0 0 0 1 0 0.5 1 0 1 1 0");
  EXPECT_EQ(alternate["mesh.triangles"], "0 1 4 0 4 3 1 2 4 2 5 4");
  EXPECT_EQ(keys("<GridMeshCreator name='g' resolution='3 2'/>")["mesh.triangles"],
            "0 1 4 0 4 3 1 2 5 1 5 4");
  EXPECT_EQ(keys("<GridMeshCreator name='g' trianglePattern='3'/>")["mesh.triangles"],
            "0 1 2 1 3 2");
  EXPECT_EQ(keys("<GridMeshCreator name='g' trianglePattern='0'/>")["mesh.quadrangles"], "0 1 3 2");
  std::vector<std::string> warnings;
  EXPECT_EQ(keys("<GridMeshCreator name='g' scale='1 1 0'/>", &warnings).count("mesh.transform"),
            0u);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("reads 1 instead"), std::string::npos);
  EXPECT_NE(errorOf([&] { keys("<GridMeshCreator name='g' resolution='1 4'/>"); }).find(">= 2"),
            std::string::npos);
}

// MeshLoader::reinit: a transformation other than the identity replaces scale3d, rotation and
// translation; applyTransformation ignores a matrix that is not affine (a warning says so).
TEST(SofaImport, LoaderTransformationMatrix) {
  eis::SofaImportOptions options;
  options.sceneFolder = EIS_MESH_DIR;
  auto transforms = [&](const std::string& matrix, std::vector<std::string>* warnings) {
    const eis::SofaImport imported = eis::importSofaScene(
        SofaScene(
            "<Node><EulerImplicitSolver/><MeshGmshLoader name='l' "
            "filename='beam_v22_ascii.msh' translation='1 2 3' transformation='" +
                matrix +
                "'/><MechanicalObject src='@l' translation='0 0 1'/><UniformMass totalMass='1'/></Node>",
            "t.scn"),
        options);
    if (warnings) *warnings = imported.warnings;
    std::vector<std::string> found;
    for (const eis::SofaKey& k : imported.objects.at(0).keys)
      if (k.key == "mesh.transform") found.push_back(k.value);
    return found;
  };
  EXPECT_EQ(transforms("0 -1 0 5  2 0 0 0  0 0 0.5 -1  0 0 0 1", nullptr),
            (std::vector<std::string>{"matrix 0 -1 0 5 2 0 0 0 0 0 0.5 -1", "translate 0 0 1"}));
  EXPECT_EQ(transforms("1 0 0 0  0 1 0 0  0 0 1 0  0 0 0 1", nullptr),
            (std::vector<std::string>{"translate 1 2 3", "translate 0 0 1"}));
  std::vector<std::string> warnings;
  EXPECT_EQ(transforms("2 0 0 0  0 1 0 0  0 0 1 0  0 0 1 1", &warnings),
            (std::vector<std::string>{"translate 0 0 1"}));
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("transformation is not affine"), std::string::npos);
  EXPECT_NE(errorOf([&] { transforms("1 0 0", nullptr); }).find("expected 16 numbers"),
            std::string::npos);
}

TEST(SofaImport, FixedConstraintsAndRegionsOfInterest) {
  // FixedProjectiveConstraint.inl: indices {0}; fixAll false.
  EXPECT_EQ(one(keysOf("<FixedProjectiveConstraint/>"), "constraint.fixed"), "indices 0");
  EXPECT_EQ(one(keysOf("<FixedConstraint indices='3 4'/>"), "constraint.fixed"), "indices 3 4");
  EXPECT_EQ(one(keysOf("<FixedConstraint fixAll='true'/>"), "constraint.fixed"), "all");
  // BoxROI.inl: box "0 0 0 1 1 1" when not set; several boxes.
  EXPECT_EQ(
      one(keysOf("<BoxROI name='b'/><FixedConstraint indices='@b.indices'/>"), "constraint.fixed"),
      "box 0 0 0 1 1 1");
  const Keys two = keysOf(
      "<BoxROI name='b' box='0 0 0 1 1 1  2 2 2 3 3 3'/>"
      "<FixedProjectiveConstraint indices='@b.indices'/>");
  ASSERT_EQ(two.at("constraint.fixed").size(), 2u);
  EXPECT_EQ(two.at("constraint.fixed")[1], "box 2 2 2 3 3 3");
  // BoxROI.inl: each orientedBox (p0 p1 p2 depth), and no default box beside one;
  // PlaneROI.inl: each plane, one of ten zeros when not set.
  const Keys oriented = keysOf(
      "<BoxROI name='b' orientedBox='0 0 0 1 0 0 1 1 0 0.5  0 0 1 1 0 1 1 1 1 0.25'/>"
      "<FixedConstraint indices='@b.indices'/>");
  ASSERT_EQ(oriented.at("constraint.fixed").size(), 2u);
  EXPECT_EQ(oriented.at("constraint.fixed")[0], "oriented-box 0 0 0 1 0 0 1 1 0 0.5");
  EXPECT_EQ(oriented.at("constraint.fixed")[1], "oriented-box 0 0 1 1 0 1 1 1 1 0.25");
  EXPECT_EQ(one(keysOf("<BoxROI name='b' box='0 0 0 1 1 1' orientedBox='0 0 0 1 0 0 1 1 0 0.5'/>"
                       "<FixedConstraint indices='@b.indices'/>"),
                "constraint.fixed"),
            "(2)");
  EXPECT_EQ(one(keysOf("<PlaneROI name='p'/><FixedConstraint indices='@p.indices'/>"),
                "constraint.fixed"),
            "plane 0 0 0 0 0 0 0 0 0 0");
  EXPECT_EQ(one(keysOf("<PlaneROI name='p' plane='0 0 0 1 0 0 1 1 0 0.5'"
                       " rest_position='@dofs.rest_position'/>"
                       "<FixedConstraint indices='@p.indices'/>"),
                "constraint.fixed"),
            "plane 0 0 0 1 0 0 1 1 0 0.5");
  EXPECT_NE(errorOf([&] {
              keysOf(
                  "<BoxROI name='b' orientedBox='0 0 0 1 0 0 1 1 0'/>"
                  "<FixedConstraint indices='@b.indices'/>");
            }).find("10 numbers per box"),
            std::string::npos);
  // PairBoxROI.inl: inclusiveBox less includedBox; an all-zero box, which leaves the indices
  // unset, is refused.
  EXPECT_EQ(one(keysOf("<PairBoxROI name='p' inclusiveBox='0 0 0 1 1 1' includedBox='0 0 0 1 1"
                       " 0.5'/><FixedConstraint indices='@p.indices'/>"),
                "constraint.fixed"),
            "pair-box 0 0 0 1 1 1 0 0 0 1 1 0.5");
  EXPECT_NE(errorOf([&] {
              keysOf(
                  "<PairBoxROI name='p' inclusiveBox='0 0 0 1 1 1'/>"
                  "<FixedConstraint indices='@p.indices'/>");
            }).find("includedBox"),
            std::string::npos);
  // BaseROI.inl: without `position` a ROI tests its MechanicalObject's rest_position; a link to
  // that field ("@[-1]": the object before it) is the same set, another source is refused.
  EXPECT_EQ(one(keysOf("<BoxROI name='b' position='@[-1].rest_position'/>"
                       "<FixedConstraint indices='@b.indices'/>"),
                "constraint.fixed"),
            "box 0 0 0 1 1 1");
  EXPECT_EQ(one(keysOf("<SphereROI name='s' centers='1 2 3' radii='0.5'"
                       " position='@dofs.rest_position'/><FixedConstraint indices='@s.indices'/>"),
                "constraint.fixed"),
            "sphere 1 2 3 0.5");
  for (const char* other : {"@dofs.position", "@loader.position", "0 0 0"})
    EXPECT_NE(errorOf([&] {
                keysOf(std::string("<BoxROI name='b' position='") + other +
                       "'/><FixedConstraint indices='@b.indices'/>");
              }).find("tests the rest positions"),
              std::string::npos)
        << other;
  EXPECT_EQ(one(keysOf("<SphereROI name='s' centers='1 2 3' radii='0.5'/>"
                       "<FixedConstraint indices='@s.indices'/>"),
                "constraint.fixed"),
            "sphere 1 2 3 0.5");
  // PartialFixedProjectiveConstraint.inl: fixedDirections 1 1 1.
  EXPECT_EQ(one(keysOf("<PartialFixedProjectiveConstraint/>"), "constraint.partial-fixed"),
            "1 1 1 indices 0");
  EXPECT_EQ(one(keysOf("<PartialFixedProjectiveConstraint fixedDirections='0 1 0' indices='2'/>"),
                "constraint.partial-fixed"),
            "0 1 0 indices 2");
  EXPECT_EQ(one(keysOf("<LinearMovementProjectiveConstraint indices='1' keyTimes='0 1'"
                       " movements='0 0 0  0.1 0 0'/>"),
                "constraint.linear-movement"),
            "0 0 0 0 1 0.1 0 0 : indices 1");
}

// FixedPlaneProjectiveConstraint.inl: a unit axis fixed on `indices` and on the nodes strictly
// between the planes p . dir = dmin and dmax, whatever the linear solver; another direction is
// refused.
TEST(SofaImport, FixedPlaneProjectiveConstraint) {
  const Keys slab =
      keysOf("<FixedPlaneProjectiveConstraint direction='0 0 1' dmin='-0.1' dmax='0.1'/>");
  EXPECT_EQ(one(slab, "constraint.partial-fixed"),
            "0 0 1 box -1e+308 -1e+308 " + eis::parse::text(std::nextafter(-0.1, 1.0)) +
                " 1e+308 1e+308 " + eis::parse::text(std::nextafter(0.1, -1.0)));
  const Keys down =
      keysOf("<FixedPlaneProjectiveConstraint direction='-1 0 0' dmin='1' dmax='2'/>");
  EXPECT_EQ(one(down, "constraint.partial-fixed"),
            "1 0 0 box " + eis::parse::text(std::nextafter(-2.0, 0.0)) + " -1e+308 -1e+308 " +
                eis::parse::text(std::nextafter(-1.0, -2.0)) + " 1e+308 1e+308");
  EXPECT_EQ(one(keysOf("<FixedPlaneProjectiveConstraint direction='0 1 0' indices='3 4'/>"),
                "constraint.partial-fixed"),
            "0 1 0 indices 3 4");
  EXPECT_NE(errorOf([] {
              keysOf("<FixedPlaneProjectiveConstraint direction='0 1 1'/>");
            }).find("a unit axis"),
            std::string::npos);
  // A direct solver's matrix (MatrixLinearSystem: applyConstraint(ZeroDirichletCondition*))
  // discards the same axis: the same keys.
  EXPECT_EQ(one(keysOf("<SparseLDLSolver/>"
                       "<FixedPlaneProjectiveConstraint direction='0 1 0' indices='3 4'/>"),
                "constraint.partial-fixed"),
            "0 1 0 indices 3 4");
}

// PlaneProjectiveConstraint.inl, LineProjectiveConstraint.inl, PointProjectiveConstraint.inl:
// indices {0}, origin, normal, direction and point zero unless given; the old names too.
TEST(SofaImport, NodeProjectors) {
  EXPECT_EQ(one(keysOf("<PlaneProjectiveConstraint normal='1 0 0'/>"), "constraint.plane"),
            "0 0 0 1 0 0 indices 0");
  EXPECT_EQ(one(keysOf("<ProjectToPlaneConstraint origin='1 2 3' normal='0 2 0' indices='4 5'/>"),
                "constraint.plane"),
            "1 2 3 0 2 0 indices 4 5");
  EXPECT_EQ(
      one(keysOf("<LineProjectiveConstraint direction='0.1 1 0' indices='2'/>"), "constraint.line"),
      "0 0 0 0.1 1 0 indices 2");
  EXPECT_EQ(
      one(keysOf("<PointProjectiveConstraint point='1 0 2' indices='3'/>"), "constraint.point"),
      "1 0 2 indices 3");
  EXPECT_EQ(one(keysOf("<PointProjectiveConstraint fixAll='1'/>"), "constraint.point"),
            "0 0 0 all");
  EXPECT_NE(errorOf([] {
              keysOf("<PlaneProjectiveConstraint normal='0 1'/>");
            }).find("expected 3 numbers"),
            std::string::npos);
}

// OscillatorProjectiveConstraint.inl: "index mean amplitude pulsation phase" each;
// AffineMovementProjectiveConstraint.inl: times 0 and 20, rotation zero (Mat's default) unless
// given, as Mat reads it.
TEST(SofaImport, OscillatorAndAffineMovement) {
  const Keys two = keysOf(
      "<OscillatorProjectiveConstraint oscillators='15 2 0 0 1 0 0 5 10  3 0 1 0 0 0.5 0 2 0'/>");
  ASSERT_EQ(two.at("constraint.oscillator").size(), 2u);
  EXPECT_EQ(two.at("constraint.oscillator")[0], "2 0 0 1 0 0 5 10 indices 15");
  EXPECT_EQ(two.at("constraint.oscillator")[1], "0 1 0 0 0.5 0 2 0 indices 3");
  EXPECT_NE(errorOf([] {
              keysOf("<OscillatorProjectiveConstraint oscillators='1 2 3'/>");
            }).find("9 numbers"),
            std::string::npos);
  EXPECT_EQ(one(keysOf("<AffineMovementProjectiveConstraint indices='1 2' translation='0.1 0 0'"
                       " rotation='[0.7 -0.7 0,0.7 0.7 0,0 0 1]'/>"),
                "constraint.affine-movement"),
            "0 20 0.7 -0.7 0 0.7 0.7 0 0 0 1 0.1 0 0 indices 1 2");
  EXPECT_EQ(one(keysOf("<AffineMovementProjectiveConstraint indices='4' beginConstraintTime='1'"
                       " endConstraintTime='2'/>"),
                "constraint.affine-movement"),
            "1 2 0 0 0 0 0 0 0 0 0 0 0 0 indices 4");
}

// ProximityROI.inl: missing radii are the last one; N = 0 (the default) leaves the indices {0}.
TEST(SofaImport, ProximityRoi) {
  EXPECT_EQ(one(keysOf("<ProximityROI name='p' centers='0 0 1 0 0 0 0 0 0.5' radii='0.1 0.2' "
                       "N='40'/><FixedProjectiveConstraint indices='@p.indices'/>"),
                "constraint.fixed"),
            "nearest 40 0 0 1 0.1 0 0 0 0.2 0 0 0.5 0.2");
  EXPECT_EQ(one(keysOf("<ProximityROI name='p' centers='0 0 1' radii='0.1'/>"
                       "<FixedProjectiveConstraint indices='@p.indices'/>"),
                "constraint.fixed"),
            "indices 0");
}

// PatchTestMovementProjectiveConstraint: times 0 and 20 by default, the 4 corner movements, or
// 8 when that many are given; its constrainedPoints only as the pointsInROI of the ROI of its
// indices. cornerMovements is read as SOFA's vector of Vec3 reads it: 22 numbers are 7
// movements, of which the first 4 are kept; fewer than 4 are refused.
TEST(SofaImport, PatchTestMovement) {
  const std::string roi =
      "<PairBoxROI name='P' inclusiveBox='-1 -1 0 2 2 0' "
      "includedBox='0.1 0.1 0 0.9 0.9 0'/>";
  const std::string moves = " cornerMovements='-0.2 -0.1 0 0.1 -0.1 0 0.1 0.1 0 -0.1 0.3 0'";
  EXPECT_EQ(one(keysOf(roi +
                       "<PatchTestMovementProjectiveConstraint indices='@P.indices' "
                       "constrainedPoints='@P.pointsInROI' endConstraintTime='3'" +
                       moves + "/>"),
                "constraint.patch-test"),
            "0 3 -0.2 -0.1 0 0.1 -0.1 0 0.1 0.1 0 -0.1 0.3 0 pair-box -1 -1 0 2 2 0 0.1 0.1 0 0.9 "
            "0.9 0");
  EXPECT_NE(errorOf([&] {
              keysOf("<PatchTestMovementProjectiveConstraint indices='1 2'" + moves + "/>");
            }).find("pointsInROI"),
            std::string::npos);
  const auto patch = [&](const std::string& movements) {
    return one(keysOf(roi +
                      "<PatchTestMovementProjectiveConstraint indices='@P.indices' "
                      "constrainedPoints='@P.pointsInROI' cornerMovements='" +
                      movements + "'/>"),
               "constraint.patch-test");
  };
  const std::string box = "pair-box -1 -1 0 2 2 0 0.1 0.1 0 0.9 0.9 0";
  EXPECT_EQ(patch("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24"),
            "0 20 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 " + box);
  EXPECT_EQ(patch("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22"),
            "0 20 1 2 3 4 5 6 7 8 9 10 11 12 " + box);
  const std::string few = errorOf([&] { patch("0 0 0 .1 0 0 0 0 0 0 0"); });
  EXPECT_NE(few.find("11 numbers, which SOFA reads as 3 movements (an incomplete last one "
                     "dropped): it reads 4"),
            std::string::npos)
      << few;
}

// MergeVectors (MergeVectors.inl): input1 .. input<nbInputs> one after the other; read where its
// output is a field of indices, each input a value written in the scene or a ROI's indices;
// another input (an engine output not computed here) is refused by name.
TEST(SofaImport, MergeVectorsOfIndices) {
  const std::string rois =
      "<BoxROI name='a' box='0 0 0 1 1 1'/><SphereROI name='s' centers='1 2 3' "
      "radii='0.5'/>";
  const Keys two = keysOf(rois +
                          "<MergeVectors template='Data<int>' name='m' input1='@a.indices' "
                          "input2='@s.indices'/><FixedProjectiveConstraint indices='@m.output'/>");
  ASSERT_EQ(two.at("constraint.fixed").size(), 2u);
  EXPECT_EQ(two.at("constraint.fixed")[0], "box 0 0 0 1 1 1");
  EXPECT_EQ(two.at("constraint.fixed")[1], "sphere 1 2 3 0.5");
  const Keys three = keysOf(rois +
                            "<MergeVectors name='m' nbInputs='3' input1='4 5' input2='@a.indices' "
                            "input3='7'/><FixedProjectiveConstraint indices='@m.output'/>");
  ASSERT_EQ(three.at("constraint.fixed").size(), 3u);
  EXPECT_EQ(three.at("constraint.fixed")[0], "indices 4 5");
  EXPECT_EQ(three.at("constraint.fixed")[2], "indices 7");
  EXPECT_NE(errorOf([&] {
              keysOf(
                  "<MergeVectors name='m' input1='@dofs.rest_position' input2='1'/>"
                  "<FixedProjectiveConstraint indices='@m.output'/>");
            }).find("MergeVectors 'm'"),
            std::string::npos);
}

TEST(SofaImport, LoadsAndSprings) {
  // ConstantForceField.inl: indices empty = every point; one force in forces on every index.
  EXPECT_EQ(one(keysOf("<ConstantForceField forces='1 2 3'/>"), "load.constant-force"),
            "1 2 3 all");
  EXPECT_EQ(
      one(keysOf("<ConstantForceField indices='4 5' forces='1 2 3'/>"), "load.constant-force"),
      "1 2 3 indices 4 5");
  EXPECT_EQ(
      one(keysOf("<ConstantForceField indices='4' totalForce='0 -1 0'/>"), "load.total-force"),
      "0 -1 0 indices 4");
  EXPECT_EQ(
      one(keysOf("<ConstantForceField indices='4 5' forces='1 0 0 0 1 0'/>"), "load.nodal-forces"),
      "4 1 0 0 5 0 1 0");
  // forces wins over totalForce; none: no force. SOFA master has no `force` (removed in its PR
  // #4019): an unknown data field.
  const Keys both =
      keysOf("<ConstantForceField indices='4 5' forces='1 0 0 0 1 0' totalForce='0 0 9'/>");
  EXPECT_EQ(one(both, "load.nodal-forces"), "4 1 0 0 5 0 1 0");
  EXPECT_EQ(one(both, "load.total-force"), "(absent)");
  EXPECT_EQ(one(keysOf("<ConstantForceField/>"), "load.constant-force"), "(absent)");
  EXPECT_NE(errorOf([] {
              keysOf("<ConstantForceField indices='1 2 3' forces='1 2 3 4 5 6'/>");
            }).find("expected 3 numbers (one force for every index) or 3 per index"),
            std::string::npos);
  EXPECT_NE(errorOf([] {
              keysOf("<ConstantForceField force='1 2 3'/>");
            }).find("unknown data field 'force' (did you mean forces?)"),
            std::string::npos);
  // RestShapeSpringsForceField.inl: stiffness empty = 100, points empty = every point; a point
  // past the stiffness list takes its first value.
  EXPECT_EQ(one(keysOf("<RestShapeSpringsForceField/>"), "springs.rest-shape"), "100 all");
  EXPECT_EQ(one(keysOf("<RestShapeSpringsForceField stiffness='10 20' points='1 2 3'/>"),
                "springs.rest-shape-nodes"),
            "1 10 2 20 3 10");
  EXPECT_EQ(one(keysOf("<RestShapeSpringsForceField stiffness='10' points='1 2'/>"),
                "springs.rest-shape"),
            "10 indices 1 2");
  EXPECT_EQ(one(keysOf("<RestShapeSpringsForceField stiffness='10 20' points='1 2'/>"),
                "springs.rest-shape-nodes"),
            "1 10 2 20");
  const Keys springs = keysOf("<MeshSpringForceField stiffness='50' damping='2'/>");
  EXPECT_EQ(one(springs, "springs.stiffness"), "50");
  EXPECT_EQ(one(springs, "springs.damping"), "2");
  // No FEM force field in the scene: no elastic force field (SOFA adds none either).
  EXPECT_EQ(one(springs, "material.model"), "none");
  EXPECT_EQ(one(keysOf("<UniformMass totalMass='1'/>"), "material.model"), "none");
  EXPECT_EQ(one(keysOf("<MeshSpringForceField stiffness='50'/><TetrahedronFEMForceField/>"),
                "material.model"),
            "corotational");
}

// TriangularFEMForceField.inl and BaseLinearElasticityFEMForceField: method large, youngModulus
// 5000, poissonRatio 0.45.
TEST(SofaImport, TriangularFemFields) {
  const Keys defaults = keysOf("<TriangularFEMForceField/>");
  EXPECT_EQ(one(defaults, "membrane.method"), "large");
  EXPECT_EQ(one(defaults, "membrane.young-modulus"), "5000");
  EXPECT_EQ(one(defaults, "membrane.poisson-ratio"), "0.45");
  const Keys given =
      keysOf("<TriangularFEMForceField method='small' youngModulus='600' poissonRatio='0.3'/>");
  EXPECT_EQ(one(given, "membrane.method"), "small");
  EXPECT_EQ(one(given, "membrane.young-modulus"), "600");
  EXPECT_EQ(one(given, "membrane.poisson-ratio"), "0.3");
  EXPECT_NE(errorOf([] {
              keysOf("<TriangularFEMForceField method='polar'/>");
            }).find("method = 'polar': expected large or small"),
            std::string::npos);
  EXPECT_NE(errorOf([] {
              keysOf("<TriangularFEMForceField youngModulus='1 2'/>");
            }).find("one value per element is not supported"),
            std::string::npos);
  const Keys triangle = keysOf("<TriangleFEMForceField/>");
  EXPECT_EQ(one(triangle, "membrane.element"), "triangle");
  EXPECT_EQ(one(triangle, "membrane.thickness"), "1");
  EXPECT_EQ(one(triangle, "membrane.plane-strain"), "false");
  EXPECT_EQ(one(triangle, "membrane.method"), "large");
  const Keys strain = keysOf("<TriangleFEMForceField thickness='0.1' planeStrain='true'/>");
  EXPECT_EQ(one(strain, "membrane.thickness"), "0.1");
  EXPECT_EQ(one(strain, "membrane.plane-strain"), "true");
  // TriangularBendingSprings.inl: stiffness 100000, damping 1.
  const Keys bending = keysOf("<TriangularBendingSprings/>");
  EXPECT_EQ(one(bending, "bending.stiffness"), "1e+05");
  EXPECT_EQ(one(bending, "bending.damping"), "1");
  EXPECT_EQ(
      one(keysOf("<TriangularBendingSprings stiffness='300' damping='2'/>"), "bending.damping"),
      "2");
  EXPECT_NE(
      errorOf([] { keysOf("<TriangularBendingSprings stiffness='-1'/>"); }).find("must be >= 0"),
      std::string::npos);
}

TEST(SofaImport, SkippedAndUnsupportedComponents) {
  eis::SofaImport imported;
  keysOf(
      "<TetrahedronFEMForceField/>"
      "<Node name='visual'><OglModel/><BarycentricMapping/></Node>"
      "<Node name='collision'><MechanicalObject/><SphereCollisionModel/>"
      "<BarycentricMapping/></Node>",
      false, "<Node name='root'><CollisionPipeline/><VisualStyle/>", &imported);
  ASSERT_EQ(imported.notes.size(), 1u);
  EXPECT_EQ(imported.notes[0], "skipped (visual only): BarycentricMapping, OglModel, VisualStyle");
  ASSERT_EQ(imported.warnings.size(), 1u);
  EXPECT_EQ(imported.warnings[0],
            "skipped collision and contact components (contact is not simulated): "
            "BarycentricMapping, CollisionPipeline, MechanicalObject, SphereCollisionModel");
  EXPECT_EQ(errorOf([] { keysOf("<GenericConstraintSolver/>"); }),
            "t.scn:1: GenericConstraintSolver: not supported: it may change the mechanics "
            "(--scene.skip-unsupported=true skips it with a warning)");
  // A child node with a MechanicalObject of its own is a second body, with a mesh of its own:
  // with nothing given, SOFA's one point at the origin, which has no mass (M = 0).
  eis::SofaImport two;
  keysOf("<Node name='other'><MechanicalObject/></Node>", false, "<Node name='root'>", &two);
  ASSERT_EQ(two.objects.size(), 2u);
  const auto& other = two.objects[1].keys;
  EXPECT_TRUE(std::any_of(other.begin(), other.end(), [](const eis::SofaKey& k) {
    return k.key == "mass.type" && k.value == "none";
  }));
  EXPECT_NE(errorOf([] {
              keysOf("<MechanicalObject name='second'/>");
            }).find("a second MechanicalObject in node /beam"),
            std::string::npos);
  EXPECT_NE(errorOf([] { keysOf("<StaticSolver/>"); }).find("a second ODE solver in node /beam"),
            std::string::npos);
}

// SOFA registers BarycentricMapping for Vec3 states only: one onto Rigid3d frames is never
// created in SOFA (as in SOFA's BarycentricMappingTrussBeam.scn), and is refused as SOFA's
// breakage, not for what the frames hold.
TEST(SofaImport, BarycentricMappingOntoFramesIsNotBuiltBySofa) {
  const std::string error = errorOf([] {
    keysOf(
        "<Node name='frames'><MechanicalObject template='Rigid3' name='f' position='0 0 0 0 0 0 "
        "1'/><UniformMass totalMass='1'/><BarycentricMapping input='@../dofs' output='@f'/>"
        "</Node>");
  });
  EXPECT_NE(error.find("BarycentricMapping between MechanicalObject 'dofs'"), std::string::npos)
      << error;
  EXPECT_NE(error.find("SOFA builds BarycentricMapping for Vec3 states only"), std::string::npos)
      << error;
  EXPECT_NE(error.find("the state of /beam/frames unmapped"), std::string::npos) << error;
}

// Several bodies (SOFA's search-down order): each MechanicalObject with the ODE solver of its
// node or above (the linear solver of that solver's node or above), the gravity of its node or
// above, and the components of its node and of child nodes without a state of their own; a
// component acts on the nearest state up the tree only.
TEST(SofaImport, SeveralBodiesEachWithWhatActsOnIt) {
  const std::string text =
      "<Node name='root' gravity='0 0 -1' dt='0.02'>"
      " <Node name='a'>"
      "  <EulerImplicitSolver rayleighMass='0.1'/><CGLinearSolver iterations='30'/>"
      "  <MeshGmshLoader name='l' filename='beam_v22_ascii.msh'/><MechanicalObject src='@l'/>"
      "  <DiagonalMass massDensity='2'/><FixedProjectiveConstraint indices='1'/>"
      "  <Node name='fem'><TetrahedronFEMForceField youngModulus='100'/></Node>"
      " </Node>"
      " <Node name='b' gravity='1 0 0'>"
      "  <EulerImplicitSolver/><SparseLDLSolver/>"
      "  <MeshGmshLoader name='l' filename='beam_v22_ascii.msh'/>"
      "  <MechanicalObject src='@l' dx='5'/>"
      "  <UniformMass totalMass='3'/><MeshSpringForceField stiffness='7'/>"
      "  <Node name='c'>"
      "   <MeshGmshLoader name='l' filename='beam_v22_ascii.msh'/><MechanicalObject src='@l'/>"
      "   <DiagonalMass/><TetrahedronFEMForceField method='small'/>"
      "  </Node>"
      " </Node>"
      "</Node>";
  eis::SofaImportOptions options;
  options.sceneFolder = EIS_MESH_DIR;
  const eis::SofaImport imported = eis::importSofaScene(SofaScene(text, "t.scn"), options);
  ASSERT_EQ(imported.objects.size(), 3u);
  std::vector<Keys> bodies;
  for (const eis::SofaObjectKeys& object : imported.objects) {
    bodies.emplace_back();
    for (const eis::SofaKey& k : object.keys) bodies.back()[k.key].push_back(k.value);
  }
  EXPECT_EQ(imported.objects[0].path, "/a");
  EXPECT_EQ(imported.objects[1].path, "/b");
  EXPECT_EQ(imported.objects[2].path, "/b/c");
  const Keys &a = bodies[0], &b = bodies[1], &c = bodies[2];
  EXPECT_EQ(one(a, "solver.rayleigh-mass"), "0.1");
  EXPECT_EQ(one(a, "solver.linear"), "iterative");
  EXPECT_EQ(one(a, "load.gravity"), "0 0 -1");
  EXPECT_EQ(one(a, "solver.dt"), "0.02");
  EXPECT_EQ(one(a, "material.model"), "corotational");
  EXPECT_EQ(one(a, "material.young-modulus"), "100");
  EXPECT_EQ(one(a, "constraint.fixed"), "indices 1");
  EXPECT_EQ(one(b, "solver.rayleigh-mass"), "0");
  EXPECT_EQ(one(b, "solver.linear"), "direct");
  EXPECT_EQ(one(b, "load.gravity"), "1 0 0");
  EXPECT_EQ(one(b, "material.model"), "none");
  EXPECT_EQ(one(b, "springs.stiffness"), "7");
  EXPECT_EQ(one(b, "mesh.transform"), "translate 5 0 0");
  EXPECT_EQ(one(b, "mass.type"), "uniform");
  EXPECT_EQ(one(c, "solver.linear"), "direct");
  EXPECT_EQ(one(c, "load.gravity"), "1 0 0");
  EXPECT_EQ(one(c, "material.model"), "linear");
  EXPECT_EQ(one(c, "springs.stiffness"), "(absent)");
  EXPECT_EQ(one(c, "constraint.fixed"), "(absent)");
  EXPECT_EQ(one(c, "mesh.transform"), "(absent)");
  // A body no ODE solver integrates, and a component above every state.
  EXPECT_NE(errorOf([&] {
              eis::importSofaScene(
                  SofaScene("<Node><MeshGmshLoader name='l' filename='beam_v22_ascii.msh'/>"
                            "<MechanicalObject src='@l'/></Node>",
                            "t.scn"),
                  options);
            }).find("no EulerImplicitSolver in its node or above integrates it"),
            std::string::npos);
  // FreeMotionAnimationLoop solves velocity constraints first only for a DistanceMapping child's
  // rows; a body's own Lagrangian constraint with it is refused.
  EXPECT_NE(errorOf([&] {
              eis::importSofaScene(
                  SofaScene("<Node><FreeMotionAnimationLoop solveVelocityConstraintFirst='true'/>"
                            "<Node><EulerImplicitSolver/>"
                            "<MeshGmshLoader name='l' filename='beam_v22_ascii.msh'/>"
                            "<MechanicalObject src='@l'/><UniformMass totalMass='1'/>"
                            "<FixedLagrangianConstraint indices='0'/>"
                            "<LinearSolverConstraintCorrection/></Node></Node>",
                            "t.scn"),
                  options);
            }).find("t.scn:1: FreeMotionAnimationLoop: solveVelocityConstraintFirst"),
            std::string::npos);
}

TEST(SofaImport, MeshFromTheLoaderTheTopologyNames) {
  const std::string text =
      "<Node><EulerImplicitSolver/><MeshGmshLoader name='l' filename='none.msh'/>"
      "<MechanicalObject position='@l.position'/></Node>";
  eis::SofaImportOptions options;
  options.sceneFolder = "nowhere";
  EXPECT_EQ(errorOf([&] { eis::importSofaScene(SofaScene(text, "t.scn"), options); }),
            "t.scn:1: MeshGmshLoader 'l': filename = 'none.msh': no such file in the scene's "
            "folder");
  // The data paths are searched after the scene's folder.
  const std::string found =
      "<Node><EulerImplicitSolver/><MeshGmshLoader name='l' filename='beam_v22_ascii.msh'/>"
      "<MechanicalObject position='@l.position'/><UniformMass totalMass='1'/></Node>";
  options.dataPaths = {"elsewhere", EIS_MESH_DIR};
  const eis::SofaImport imported = eis::importSofaScene(SofaScene(found, "t.scn"), options);
  EXPECT_EQ(imported.objects.at(0).keys[2].key, "mesh.file");
  EXPECT_EQ(imported.objects.at(0).keys[2].value,
            std::string(EIS_MESH_DIR) + "/beam_v22_ascii.msh");
  // A mesh written in the scene: the MechanicalObject's (or the topology's) position, the
  // topology's tetrahedra.
  Keys inline_;
  for (const eis::SofaKey& k : bodyKeys(eis::importSofaScene(
           SofaScene("<Node><EulerImplicitSolver/>"
                     "<MeshTopology name='t' position='0 0 0 1 0 0 0 1 0 0 0 1'"
                     " tetrahedra='0 1 2 3'/><MechanicalObject/>"
                     "<UniformMass totalMass='1'/></Node>",
                     "t.scn"),
           {})))
    inline_[k.key].push_back(k.value);
  EXPECT_EQ(one(inline_, "mesh.nodes"), "0 0 0 1 0 0 0 1 0 0 0 1");
  EXPECT_EQ(one(inline_, "mesh.tetrahedra"), "0 1 2 3");
  EXPECT_EQ(one(inline_, "mesh.file"), "(absent)");
  // Positions alone: a body of points, mesh.nodes with no cells.
  Keys points;
  for (const eis::SofaKey& k : bodyKeys(eis::importSofaScene(
           SofaScene("<Node><EulerImplicitSolver/><MechanicalObject position='0 0 0 1 0 0'/>"
                     "<UniformMass totalMass='1'/></Node>",
                     "t.scn"),
           {})))
    points[k.key].push_back(k.value);
  EXPECT_EQ(one(points, "mesh.nodes"), "0 0 0 1 0 0");
  EXPECT_EQ(one(points, "mesh.tetrahedra"), "(absent)");
}

Keys inlineKeys(const std::string& state) {
  Keys keys;
  for (const eis::SofaKey& k :
       bodyKeys(eis::importSofaScene(SofaScene("<Node><EulerImplicitSolver/>"
                                               "<MeshTopology name='t' tetrahedra='0 1 2 3'/>" +
                                                   state + "</Node>",
                                               "t.scn"),
                                     {})))
    keys[k.key].push_back(k.value);
  return keys;
}

// MechanicalObject::init (SOFA master): rest_position is the rest shape (the mesh) and position
// where the run starts; velocity, fewer than the points, gives its last value to the points
// after it (initial.velocities follows that rule).
TEST(SofaImport, InlineVelocityAndRestPosition) {
  const Keys both = inlineKeys(
      "<MechanicalObject position='0 0 0 2 0 0 0 2 0 0 0 2' rest_position='0 0 0 1 0 0 0 1 0 0 0 1'"
      " velocity='0 0 -1'/><UniformMass totalMass='1'/>");
  EXPECT_EQ(one(both, "mesh.nodes"), "0 0 0 1 0 0 0 1 0 0 0 1");
  EXPECT_EQ(one(both, "initial.positions"), "0 0 0 2 0 0 0 2 0 0 0 2");
  EXPECT_EQ(one(both, "initial.velocities"), "0 0 -1");
  // rest_position alone is also the position.
  const Keys rest = inlineKeys(
      "<MechanicalObject rest_position='0 0 0 1 0 0 0 1 0 0 0 1'/><UniformMass totalMass='1'/>");
  EXPECT_EQ(one(rest, "mesh.nodes"), "0 0 0 1 0 0 0 1 0 0 0 1");
  EXPECT_EQ(one(rest, "initial.positions"), "(absent)");
  EXPECT_EQ(one(keysOf(""), "initial.velocities"), "(absent)");
  EXPECT_EQ(errorOf([] {
              inlineKeys(
                  "<MechanicalObject position='0 0 0 1 0 0 0 1 0' "
                  "rest_position='0 0 0 1 0 0 0 1 0 0 0 1'/><UniformMass totalMass='1'/>");
            }),
            "t.scn:1: MechanicalObject: position = '0 0 0 1 0 0 0 1 0': 3 positions for 4 rest "
            "positions");
  EXPECT_NE(errorOf([] {
              inlineKeys(
                  "<MechanicalObject position='0 0 0 1 0 0 0 1 0 0 0 1' "
                  "velocity='0 0 0 0 0 0 0 0 0 0 0 0 1 1 1'/><UniformMass totalMass='1'/>");
            }).find("velocity = '0 0 0 0 0 0 0 0 0 0 0 0 1 1 1': 5 velocities for 4 points"),
            std::string::npos);
  // The rest shape is the mesh: a loader's points and a rest_position of their own are refused.
  EXPECT_NE(
      errorOf([] {
        eis::SofaImportOptions options;
        options.sceneFolder = EIS_MESH_DIR;
        eis::importSofaScene(
            SofaScene("<Node><EulerImplicitSolver/><MeshGmshLoader name='l' "
                      "filename='beam_v22_ascii.msh'/><MechanicalObject position='@l.position'"
                      " rest_position='0 0 0'/><UniformMass totalMass='1'/></Node>",
                      "t.scn"),
            options);
      }).find("rest_position = '0 0 0': beside positions from MeshGmshLoader 'l'"),
      std::string::npos);
}

// TetrahedronFEMForceField::computeMaterialStiffness: localStiffnessFactor scales each
// element's youngModulus (material.cell-stiffness-factor, model/cell_materials.cpp);
// TetrahedralCorotationalFEMForceField's is refused.
TEST(SofaImport, LocalStiffnessFactor) {
  EXPECT_EQ(one(keysOf("<TetrahedronFEMForceField localStiffnessFactor='1 0.5 2'/>"),
                "material.cell-stiffness-factor"),
            "1 0.5 2");
  EXPECT_NE(errorOf([] {
              keysOf("<TetrahedralCorotationalFEMForceField localStiffnessFactor='1 0.5'/>");
            }).find("localStiffnessFactor"),
            std::string::npos);
}

}  // namespace

// The pressure loads' keys with the topology `topology` (reading the loader) in the node.
Keys pressureKeys(const std::string& body,
                  const std::string& topology = "<MeshTopology name='topo' src='@loader'/>",
                  const std::string& loaderExtra = "") {
  const std::string text =
      "<Node name='root'><Node name='beam'><EulerImplicitSolver/>"
      "<MeshGmshLoader name='loader' filename='beam_v22_ascii.msh'" +
      loaderExtra + "/>" + topology +
      "<MechanicalObject name='dofs'/><UniformMass totalMass='1'/>" + body + "</Node></Node>";
  eis::SofaImportOptions options;
  options.sceneFolder = EIS_MESH_DIR;
  Keys keys;
  for (const eis::SofaKey& k : bodyKeys(eis::importSofaScene(SofaScene(text, "t.scn"), options)))
    keys[k.key].push_back(k.value);
  return keys;
}

TEST(SofaImport, PressureLoadsOnTheFilesTriangles) {
  // SurfacePressureForceField.inl: triangleIndices win over the box; min = max = 0 is every
  // triangle; pressure 0 is no load.
  EXPECT_EQ(one(pressureKeys("<SurfacePressureForceField pressure='-2.5' triangleIndices='4 1'"
                             " min='0 0 0' max='1 1 1'/>"),
                "load.pressure"),
            "-2.5 triangles 4 1");
  EXPECT_EQ(one(pressureKeys("<SurfacePressureForceField pressure='3'/>"), "load.pressure"),
            "3 all");
  EXPECT_EQ(one(pressureKeys("<SurfacePressureForceField pressure='3' min='0 -1 0' max='2 1 1'/>"),
                "load.pressure"),
            "3 box 0 -1 0 2 1 1");
  EXPECT_EQ(one(pressureKeys("<SurfacePressureForceField/>"), "load.pressure"), "(absent)");
  // TrianglePressureForceField.inl: a vector pressure on the rest area of triangleList.
  EXPECT_EQ(one(pressureKeys("<TrianglePressureForceField pressure='0 0 -4' triangleList='0 2'/>"),
                "load.surface-traction"),
            "0 0 -4 triangles 0 2");
  EXPECT_EQ(
      one(pressureKeys("<TrianglePressureForceField pressure='0 0 -4'/>"), "load.surface-traction"),
      "(absent)");
  // The modes not implemented, and triangles that are not the file's, are errors naming the field.
  const std::pair<std::string, std::string> refused[] = {
      {"<SurfacePressureForceField pressure='1' pulseMode='1' pressureSpeed='-2'/>",
       "pressureSpeed = '-2'"},
      {"<SurfacePressureForceField pressure='1' volumeConservationMode='true'/>",
       "volumeConservationMode = 'true'"},
      {"<SurfacePressureForceField pressure='1' useTangentStiffness='0'/>",
       "useTangentStiffness = '0'"},
      {"<SurfacePressureForceField pressure='1' quadIndices='0'/>", "quadIndices = '0'"},
      {"<SurfacePressureForceField pressure='1' mainDirection='0 0 1'/>", "mainDirection"},
      {"<TrianglePressureForceField pressure='1 0 0' triangleList='0' useConstantForce='0'/>",
       "useConstantForce = '0'"}};
  // Named copies, not structured bindings: clang 14 (the checking build) cannot capture those.
  for (const auto& entry : refused) {
    const std::string& body = entry.first;
    EXPECT_NE(errorOf([&] { pressureKeys(body); }).find(entry.second), std::string::npos) << body;
  }
  const std::string tetrahedra = errorOf([] {
    pressureKeys("<SurfacePressureForceField pressure='1' triangleIndices='0'/>",
                 "<TetrahedronSetTopologyContainer name='topo' src='@loader'/>");
  });
  EXPECT_NE(tetrahedra.find("SurfacePressureForceField: triangleIndices = '0': the triangles of a "
                            "TetrahedronSetTopologyContainer are the faces SOFA creates"),
            std::string::npos)
      << tetrahedra;
  EXPECT_NE(errorOf([] {
              pressureKeys("<TrianglePressureForceField pressure='1 0 0' triangleList='0'/>",
                           "<MeshTopology name='topo' src='@loader'/>", " createSubelements='1'");
            }).find("createSubelements = '1'"),
            std::string::npos);
}

// A MechanicalObject's `force` is zeroed before every force computation (resetForce): values
// written in the scene change nothing. `externalForce` is added to every one (accumulateForce): a
// zero one changes nothing, another is refused.
TEST(SofaScene, AStatesForceCountsForNothingAndAZeroExternalForceToo) {
  const auto keysWith = [](const std::string& fields) {
    const std::string text =
        "<Node><Node name='b'><EulerImplicitSolver/><CGLinearSolver/>"
        "<MechanicalObject position='0 0 0 1 0 0 0 1 0 0 0 1' " +
        fields +
        "/><UniformMass totalMass='1'/><TetrahedronSetTopologyContainer tetrahedra='0 1 2 3'/><TetrahedronFEMForceField/>"
        "</Node></Node>";
    const eis::SofaImport imported = eis::importSofaScene(SofaScene(text, "t.scn"), {});
    std::vector<std::pair<std::string, std::string>> keys;
    for (const eis::SofaKey& k : imported.objects.at(0).keys) keys.emplace_back(k.key, k.value);
    return keys;
  };
  EXPECT_EQ(keysWith("force='1 2 3' externalForce='0 0 0 0 0 0'"), keysWith(""));
  EXPECT_NE(errorOf([&] {
              keysWith("externalForce='0 1 0'");
            }).find("externalForce = '0 1 0': a constant external force is not supported yet"),
            std::string::npos);
}

// A child node whose TriangleSetTopologyContainer a Tetra2TriangleTopologicalMapping fills from
// the body's tetrahedra, with no state of its own: its triangle fields act on the body's boundary
// (Tetra2TriangleTopologicalMapping::init: flipNormals reverses the triangles, noInitialTriangles
// leaves none), and a pressure's triangleList indexes those triangles, inline or through a
// BoxROI's triangleIndices.
Keys boundaryKeys(const std::string& mapping, const std::string& fields) {
  return keysOf("<Node name='surface'><TriangleSetTopologyContainer name='tri'/>" + mapping +
                fields + "</Node>");
}

TEST(SofaImport, TriangleFieldsOnTheBoundaryOfTetrahedra) {
  const std::string mapping = "<Tetra2TriangleTopologicalMapping input='@../topo' output='@tri'/>";
  const std::string fields =
      "<TriangularFEMForceField youngModulus='60'/>"
      "<TriangularBendingSprings stiffness='300'/>"
      "<BoxROI name='roi' position='@../dofs.position' triangles='@tri.triangles'"
      " box='0 0 0 1 1 1'/>"
      "<TrianglePressureForceField pressure='0.4 0 0' triangleList='@roi.triangleIndices'/>";
  const Keys keys = boundaryKeys(mapping, fields);
  EXPECT_EQ(one(keys, "membrane.faces"), "boundary");
  EXPECT_EQ(one(keys, "membrane.young-modulus"), "60");
  EXPECT_EQ(one(keys, "bending.faces"), "boundary");
  EXPECT_EQ(one(keys, "solver.operator"), "matrix-free");
  EXPECT_EQ(one(keys, "load.surface-traction"), "0.4 0 0 boundary-triangles-in box 0 0 0 1 1 1");
  EXPECT_EQ(one(boundaryKeys(mapping,
                             "<TrianglePressureForceField pressure='0 1 0'"
                             " triangleList='3 1'/>"),
                "load.surface-traction"),
            "0 1 0 boundary-triangles 3 1");
  const std::string flipped =
      "<Tetra2TriangleTopologicalMapping input='@../topo' output='@tri' flipNormals='1'/>";
  EXPECT_EQ(one(boundaryKeys(flipped, fields), "membrane.faces"), "boundary-flipped");
  EXPECT_EQ(one(boundaryKeys(flipped, fields), "bending.faces"), "boundary-flipped");
  const Keys none = boundaryKeys(
      "<Tetra2TriangleTopologicalMapping input='@../topo' output='@tri'"
      " noInitialTriangles='1'/>",
      fields);
  EXPECT_EQ(one(none, "membrane.young-modulus"), "(absent)");
  EXPECT_EQ(one(none, "bending.stiffness"), "(absent)");
  EXPECT_EQ(one(none, "load.surface-traction"), "(absent)");
  const std::string quads = errorOf([] {
    keysOf(
        "<Node name='surface'><TriangleSetTopologyContainer name='tri'/>"
        "<Quad2TriangleTopologicalMapping input='@../topo' output='@tri'/>"
        "<TriangularFEMForceField youngModulus='60'/></Node>");
  });
  EXPECT_NE(quads.find("a Hexa2QuadTopologicalMapping makes of the body's hexahedra only"),
            std::string::npos)
      << quads;
  // QuadularBendingSprings.inl: stiffness 100000, damping 1; on a Hexa2QuadTopologicalMapping's
  // quadrangles only.
  const std::string noQuads =
      errorOf([] { keysOf("<Node name='surface'><QuadularBendingSprings/></Node>"); });
  EXPECT_NE(noQuads.find("QuadularBendingSprings: stiffness"), std::string::npos) << noQuads;
  EXPECT_NE(noQuads.find("a Hexa2QuadTopologicalMapping"), std::string::npos) << noQuads;
}

// QuadularBendingSprings and QuadBendingSprings on a QuadSetTopologyContainer that takes a flat
// grid's quads (src, as SOFA's QuadForceFieldTopologyChangeHandling.scn) read the grid's
// quadrangles in GridTopology::updateQuads' order: points i + 3 k, quads (0 1 4 3) (1 2 5 4).
TEST(SofaImport, BendingSpringsOnAContainerOfAFlatGridsQuads) {
  for (const std::string springs : {"QuadularBendingSprings", "QuadBendingSprings"}) {
    SCOPED_TRACE(springs);
    const std::string text =
        "<Node><RegularGridTopology name='grid' nx='3' ny='1' nz='2' xmin='0' xmax='2' ymin='0' "
        "ymax='0' zmin='0' zmax='1'/><Node name='cloth'><EulerImplicitSolver/>"
        "<MechanicalObject src='@../grid'/><QuadSetTopologyContainer name='c' src='@../grid'/>"
        "<UniformMass totalMass='1'/><" +
        springs + " stiffness='30' damping='1'/></Node></Node>";
    Keys keys;
    for (const eis::SofaKey& k :
         bodyKeys(eis::importSofaScene(SofaScene(text, "q.scn"), eis::SofaImportOptions{})))
      keys[k.key].push_back(k.value);
    EXPECT_EQ(one(keys, "quad-bending.quadrangles"), "0 1 4 3 1 2 5 4");
    EXPECT_EQ(one(keys, "quad-bending.law"),
              springs == "QuadularBendingSprings" ? "quadular" : "quad");
    EXPECT_EQ(one(keys, "quad-bending.stiffness"), "30");
  }
}
