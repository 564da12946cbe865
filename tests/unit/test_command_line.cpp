// Scene options: defaults, config file and command line, validation, PETSc routing, --help and
// describe(). The list of keys below is written independently of the components' declarations,
// so a key missing from either side fails a test.
#include "eis/io/command_line.hpp"

#include "eis/app/scene_builder.hpp"
#include "eis/core/box.hpp"
#include "eis/core/error.hpp"
#include "eis/io/help.hpp"
#include "eis/linalg/linear_solver.hpp"
#include "eis/model/elastic_force_fields.hpp"
#include "eis/model/mass.hpp"
#include "eis/model/physics.hpp"
#include "eis/ode/newton_solver.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

using eis::Scene;
using Args = std::vector<std::string>;
using Vec3 = std::array<double, 3>;

// parseArguments on {"euler-implicit", args...}.
eis::CommandLine parse(const Args& args) {
  std::vector<const char*> argv{"euler-implicit"};
  for (const std::string& a : args) argv.push_back(a.c_str());
  return eis::parseArguments(static_cast<int>(argv.size()), argv.data());
}

// A path key's value: empty when absent.
std::string path(const Scene& s, const std::string& key) {
  const Args values = s.texts(key);
  return values.empty() ? "" : values.front();
}

// The boxes of a repeatable box key, as the components read them.
std::vector<eis::Box> boxes(const Scene& s, const std::string& key) {
  std::vector<eis::Box> result;
  for (const std::string& text : s.texts(key))
    result.push_back(eis::Box::fromCorners(eis::parse::reals(key, text, 0)));
  return result;
}

// load.force-box values: the box, then the total force.
struct ForceBox {
  eis::Box box;
  Vec3 force;
};
std::vector<ForceBox> forceBoxes(const Scene& s) {
  std::vector<ForceBox> result;
  for (const std::string& text : s.texts("load.force-box")) {
    const std::vector<double> v = eis::parse::reals("load.force-box", text, 9);
    result.push_back({eis::Box::fromCorners(v), {v[6], v[7], v[8]}});
  }
  return result;
}

// The message of the eis::Error that parsing throws; empty when parsing succeeds.
std::string errorOf(const Args& args) {
  try {
    parse(args);
  } catch (const eis::Error& e) {
    return e.what();
  }
  return "";
}

bool startsWith(const std::string& s, const std::string& prefix) {
  return s.rfind(prefix, 0) == 0;
}

// A config file in the temporary directory, removed when the test ends.
class IniFile {
public:
  explicit IniFile(const std::string& contents) : path_(uniquePath()) {
    std::ofstream(path_) << contents;
  }
  ~IniFile() { std::filesystem::remove(path_); }
  std::string path() const { return path_.string(); }

private:
  static std::filesystem::path uniquePath() {
    static int counter = 0;
    const std::string name =
        "eis_test_scene_" + std::to_string(getpid()) + "_" + std::to_string(counter++) + ".ini";
    return std::filesystem::temp_directory_path() / name;
  }
  std::filesystem::path path_;

public:
  std::filesystem::path folder() const { return path_.parent_path(); }
};

// One key of docs/architecture.md's table, a valid value for it (not the default where there is a
// choice), and how that value shows in the Scene.
struct KeyCase {
  std::string key;
  std::string value;
  std::function<void(const Scene&)> check;
  Args needs = {};  // other options that this value requires
};

std::vector<KeyCase> allKeys() {
  std::string compositeLoads = "3";  // a cell, then its 24 x 9 matrix
  for (int i = 0; i < 216; ++i) compositeLoads += " 0.5";
  return {
      {"mesh.file", "beam.msh",
       [](const Scene& s) { EXPECT_EQ(path(s, "mesh.file"), "beam.msh"); }},
      {"mesh.box-size", "5 2 3",
       [](const Scene& s) {
         EXPECT_EQ(s.real3("mesh.box-size"), (Vec3{5, 2, 3}));
       }},
      {"mesh.box-cells", "7,8,9",
       [](const Scene& s) {
         EXPECT_EQ(s.integer3("mesh.box-cells"), (std::array<int, 3>{7, 8, 9}));
       }},
      {"mesh.refine", "2", [](const Scene& s) { EXPECT_EQ(s.integer("mesh.refine"), 2); }},
      {"mesh.convert", "out/beam.h5",
       [](const Scene& s) { EXPECT_EQ(path(s, "mesh.convert"), "out/beam.h5"); }},
      {"mesh.transform", "rotate 0 0 90",
       [](const Scene& s) {
         EXPECT_EQ(s.texts("mesh.transform"), (std::vector<std::string>{"rotate 0 0 90"}));
       }},
      {"mesh.nodes",
       "0 0 0 1 0 0 0 1 0 0 0 1",
       [](const Scene& s) { EXPECT_EQ(s.text("mesh.nodes"), "0 0 0 1 0 0 0 1 0 0 0 1"); },
       {"--mesh.tetrahedra=0 1 2 3"}},
      {"mesh.tetrahedra",
       "0 1 2 3",
       [](const Scene& s) { EXPECT_EQ(s.text("mesh.tetrahedra"), "0 1 2 3"); },
       {"--mesh.nodes=0 0 0 1 0 0 0 1 0 0 0 1"}},
      {"mesh.hexahedra",
       "0 1 2 3 4 5 6 7",
       [](const Scene& s) { EXPECT_EQ(s.text("mesh.hexahedra"), "0 1 2 3 4 5 6 7"); },
       {"--mesh.nodes=0 0 0 1 0 0 1 1 0 0 1 0 0 0 1 1 0 1 1 1 1 0 1 1"}},
      {"mesh.triangles",
       "0 1 2",
       [](const Scene& s) { EXPECT_EQ(s.text("mesh.triangles"), "0 1 2"); },
       {"--mesh.nodes=0 0 0 1 0 0 0 1 0"}},
      {"mesh.quadrangles",
       "0 1 2 3",
       [](const Scene& s) { EXPECT_EQ(s.text("mesh.quadrangles"), "0 1 2 3"); },
       {"--mesh.nodes=0 0 0 1 0 0 1 1 0 0 1 0"}},
      {"mesh.edges",
       "0 1",
       [](const Scene& s) { EXPECT_EQ(s.text("mesh.edges"), "0 1"); },
       {"--mesh.nodes=0 0 0 1 0 0"}},
      {"mesh.file-cells",
       "triangle",
       [](const Scene& s) { EXPECT_EQ(s.text("mesh.file-cells"), "triangle"); },
       {"--mesh.file=sheet.msh"}},
      {"mesh.cell-type", "hexahedron",
       [](const Scene& s) {
         EXPECT_EQ(s.choice("mesh.cell-type", eis::kCellTypes), eis::CellType::Hexahedron);
       }},
      {"physics.type",
       "diffusion",
       [](const Scene& s) {
         EXPECT_EQ(s.choice("physics.type", eis::kPhysics), eis::Physics::Diffusion);
       },
       {"--solver.first-order=true"}},
      {"material.model", "neohookean",
       [](const Scene& s) {
         EXPECT_EQ(s.choice("material.model", eis::kMaterialModels),
                   eis::MaterialModel::NeoHookean);
       }},
      {"material.rotation", "polar",
       [](const Scene& s) {
         EXPECT_EQ(s.choice("material.rotation", eis::kRotationMethods),
                   eis::RotationMethod::Polar);
       }},
      {"material.cells", "hexahedron",
       [](const Scene& s) { EXPECT_EQ(s.text("material.cells"), "hexahedron"); }},
      {"material.hexahedron-element", "hexahedral-fem",
       [](const Scene& s) { EXPECT_EQ(s.text("material.hexahedron-element"), "hexahedral-fem"); }},
      {"material.young-modulus", "2.5e6",
       [](const Scene& s) { EXPECT_EQ(s.real("material.young-modulus"), 2.5e6); }},
      {"material.poisson-ratio", "0.45",
       [](const Scene& s) { EXPECT_EQ(s.real("material.poisson-ratio"), 0.45); }},
      {"material.lame", "400 600",
       [](const Scene& s) {
         EXPECT_EQ(s.reals("material.lame"), (std::vector<double>{400, 600}));
       }},
      {"material.law-parameters", "5000 7000 10",
       [](const Scene& s) {
         EXPECT_EQ(s.reals("material.law-parameters"), (std::vector<double>{5000, 7000, 10}));
       }},
      {"material.region", "liver 3e3 0.45",
       [](const Scene& s) { EXPECT_EQ(s.texts("material.region"), Args{"liver 3e3 0.45"}); }},
      {"material.cell-young-modulus", "1e3 2e3",
       [](const Scene& s) {
         EXPECT_EQ(s.reals("material.cell-young-modulus"), (std::vector<double>{1e3, 2e3}));
       }},
      {"material.cell-poisson-ratio", "0.3,0.45",
       [](const Scene& s) {
         EXPECT_EQ(s.reals("material.cell-poisson-ratio"), (std::vector<double>{0.3, 0.45}));
       }},
      {"material.cell-stiffness-factor", "1 0.5",
       [](const Scene& s) {
         EXPECT_EQ(s.reals("material.cell-stiffness-factor"), (std::vector<double>{1, 0.5}));
       }},
      {"material.virtual-finer-levels", "2",
       [](const Scene& s) { EXPECT_EQ(s.integer("material.virtual-finer-levels"), 2); }},
      {"material.cell-finer-stiffness-factor", "1 0 0.5",
       [](const Scene& s) {
         EXPECT_EQ(s.reals("material.cell-finer-stiffness-factor"),
                   (std::vector<double>{1, 0, 0.5}));
       }},
      {"material.finer-homogenisation", "static",
       [](const Scene& s) { EXPECT_EQ(s.text("material.finer-homogenisation"), "static"); }},
      {"material.hexahedron-cut", "0 1 3 7 0 1 2 7 1 2 6 7 1 5 6 7 1 4 5 7 0 1 4 7",
       [](const Scene& s) {
         EXPECT_EQ(s.text("material.hexahedron-cut"),
                   "0 1 3 7 0 1 2 7 1 2 6 7 1 5 6 7 1 4 5 7 0 1 4 7");
       }},
      {"material.plastic-max-threshold", "0.025",
       [](const Scene& s) { EXPECT_EQ(s.real("material.plastic-max-threshold"), 0.025); }},
      {"material.plastic-yield-threshold", "0.005",
       [](const Scene& s) { EXPECT_EQ(s.real("material.plastic-yield-threshold"), 0.005); }},
      {"material.plastic-creep", "0.5",
       [](const Scene& s) { EXPECT_EQ(s.real("material.plastic-creep"), 0.5); }},
      {"material.density", "1000",
       [](const Scene& s) { EXPECT_EQ(s.real("material.density"), 1000); }},
      {"material.conductivity", "0.5",
       [](const Scene& s) { EXPECT_EQ(s.real("material.conductivity"), 0.5); }},
      {"material.capacity", "4", [](const Scene& s) { EXPECT_EQ(s.real("material.capacity"), 4); }},
      {"mass.type", "consistent",
       [](const Scene& s) {
         EXPECT_EQ(s.choice("mass.type", eis::kMassTypes), eis::MassType::Consistent);
       }},
      {"load.gravity", "0 0 -9.8",
       [](const Scene& s) {
         EXPECT_EQ(s.real3("load.gravity"), (Vec3{0, 0, -9.8}));
       }},
      {"load.force-box", "10 0 0 9 1 1 0 -5 0.5",
       [](const Scene& s) {
         ASSERT_EQ(forceBoxes(s).size(), 1u);
         EXPECT_EQ(forceBoxes(s)[0].box.min, (Vec3{9, 0, 0}));
         EXPECT_EQ(forceBoxes(s)[0].box.max, (Vec3{10, 1, 1}));
         EXPECT_EQ(forceBoxes(s)[0].force, (Vec3{0, -5, 0.5}));
       }},
      {"load.constant-force", "0 -1 0 indices 3 4",
       [](const Scene& s) {
         EXPECT_EQ(s.texts("load.constant-force"), Args{"0 -1 0 indices 3 4"});
       }},
      {"load.total-force", "0 0 2 sphere 1 0 0 0.5",
       [](const Scene& s) {
         EXPECT_EQ(s.texts("load.total-force"), Args{"0 0 2 sphere 1 0 0 0.5"});
       }},
      {"load.pressure", "200 group cavity",
       [](const Scene& s) { EXPECT_EQ(s.texts("load.pressure"), Args{"200 group cavity"}); }},
      {"load.pressure-pulse", "200 20 0 group cavity",
       [](const Scene& s) {
         EXPECT_EQ(s.texts("load.pressure-pulse"), Args{"200 20 0 group cavity"});
       }},
      {"load.surface-traction", "0 0 -5 triangles 0 3",
       [](const Scene& s) {
         EXPECT_EQ(s.texts("load.surface-traction"), Args{"0 0 -5 triangles 0 3"});
       }},
      {"load.edge-pressure", "follower -10 0 0 1 edges 4 9 0.25",
       [](const Scene& s) {
         EXPECT_EQ(s.texts("load.edge-pressure"), Args{"follower -10 0 0 1 edges 4 9 0.25"});
       }},
      {"load.nodal-forces", "3 0 -1 0 7 1 0 0",
       [](const Scene& s) { EXPECT_EQ(s.texts("load.nodal-forces"), Args{"3 0 -1 0 7 1 0 0"}); }},
      {"springs.rest-shape-nodes", "4 20 9 30",
       [](const Scene& s) { EXPECT_EQ(s.texts("springs.rest-shape-nodes"), Args{"4 20 9 30"}); }},
      {"springs.face-diagonals", "first",
       [](const Scene& s) { EXPECT_EQ(s.text("springs.face-diagonals"), "first"); }},
      {"load.face-traction", "0 0 -5 all",
       [](const Scene& s) { EXPECT_EQ(s.texts("load.face-traction"), Args{"0 0 -5 all"}); }},
      {"springs.rest-shape", "50 all",
       [](const Scene& s) { EXPECT_EQ(s.texts("springs.rest-shape"), Args{"50 all"}); }},
      {"volume.stiffness", "40", [](const Scene& s) { EXPECT_EQ(s.real("volume.stiffness"), 40); }},
      {"volume.geometric-stiffness", "exact",
       [](const Scene& s) { EXPECT_EQ(s.text("volume.geometric-stiffness"), "exact"); }},
      {"obstacle.plane", "0 1 0 -2 100 1 5 bilateral",
       [](const Scene& s) {
         EXPECT_EQ(s.texts("obstacle.plane"), Args{"0 1 0 -2 100 1 5 bilateral"});
       }},
      {"obstacle.sphere", "0 0 1 2",
       [](const Scene& s) { EXPECT_EQ(s.texts("obstacle.sphere"), Args{"0 0 1 2"}); }},
      {"membrane.young-modulus", "600",
       [](const Scene& s) { EXPECT_EQ(s.real("membrane.young-modulus"), 600); }},
      {"membrane.poisson-ratio", "0.3",
       [](const Scene& s) { EXPECT_EQ(s.real("membrane.poisson-ratio"), 0.3); }},
      {"membrane.method", "small",
       [](const Scene& s) { EXPECT_EQ(s.text("membrane.method"), "small"); }},
      {"bending.stiffness", "300",
       [](const Scene& s) { EXPECT_EQ(s.real("bending.stiffness"), 300); }},
      {"bending.damping", "2", [](const Scene& s) { EXPECT_EQ(s.real("bending.damping"), 2); }},
      {"membrane.element", "triangle",
       [](const Scene& s) { EXPECT_EQ(s.text("membrane.element"), "triangle"); }},
      {"membrane.thickness", "0.1",
       [](const Scene& s) { EXPECT_EQ(s.real("membrane.thickness"), 0.1); }},
      {"membrane.plane-strain", "true",
       [](const Scene& s) { EXPECT_TRUE(s.boolean("membrane.plane-strain")); }},
      {"membrane.faces", "boundary-flipped",
       [](const Scene& s) { EXPECT_EQ(s.text("membrane.faces"), "boundary-flipped"); }},
      {"bending.faces", "boundary",
       [](const Scene& s) { EXPECT_EQ(s.text("bending.faces"), "boundary"); }},
      {"bending.quads", "true", [](const Scene& s) { EXPECT_TRUE(s.boolean("bending.quads")); }},
      {"quad-bending.stiffness", "20",
       [](const Scene& s) { EXPECT_EQ(s.real("quad-bending.stiffness"), 20); }},
      {"quad-bending.damping", "0.5",
       [](const Scene& s) { EXPECT_EQ(s.real("quad-bending.damping"), 0.5); }},
      {"quad-bending.law", "quadular",
       [](const Scene& s) { EXPECT_EQ(s.text("quad-bending.law"), "quadular"); }},
      {"quad-bending.faces", "boundary",
       [](const Scene& s) { EXPECT_EQ(s.text("quad-bending.faces"), "boundary"); }},
      {"quad-bending.quadrangles", "0 1 4 3",
       [](const Scene& s) { EXPECT_EQ(s.text("quad-bending.quadrangles"), "0 1 4 3"); }},
      {"obstacle.ellipsoid", "0 0 1 2 3 1 -40",
       [](const Scene& s) { EXPECT_EQ(s.texts("obstacle.ellipsoid"), Args{"0 0 1 2 3 1 -40"}); }},
      {"interaction.ellipsoid-frame", "/obstacle 2",
       [](const Scene& s) { EXPECT_EQ(s.text("interaction.ellipsoid-frame"), "/obstacle 2"); }},
      {"interaction.ellipsoids", "0 0 0 6 2 4 0 -5 0 2 4 2",
       [](const Scene& s) {
         EXPECT_EQ(s.text("interaction.ellipsoids"), "0 0 0 6 2 4 0 -5 0 2 4 2");
       }},
      {"interaction.ellipsoid-stiffness", "-1000",
       [](const Scene& s) { EXPECT_EQ(s.real("interaction.ellipsoid-stiffness"), -1000); }},
      {"interaction.ellipsoid-damping", "1",
       [](const Scene& s) { EXPECT_EQ(s.real("interaction.ellipsoid-damping"), 1); }},
      {"interaction.ellipsoid-invert", "true",
       [](const Scene& s) { EXPECT_TRUE(s.boolean("interaction.ellipsoid-invert")); }},
      {"obstacle.cone", "0 -10 0 0 20 0 40 500 5",
       [](const Scene& s) {
         EXPECT_EQ(s.texts("obstacle.cone"), Args{"0 -10 0 0 20 0 40 500 5"});
       }},
      {"mapped.mapping", "identity",
       [](const Scene& s) { EXPECT_EQ(s.text("mapped.mapping"), "identity"); }},
      {"mapped.indices", "4 2 4",
       [](const Scene& s) { EXPECT_EQ(s.text("mapped.indices"), "4 2 4"); }},
      {"mapped.points", "1 2 3 4 5 6",
       [](const Scene& s) { EXPECT_EQ(s.text("mapped.points"), "1 2 3 4 5 6"); }},
      {"mapped.cells", "0 0.5 0.5 0.5",
       [](const Scene& s) { EXPECT_EQ(s.text("mapped.cells"), "0 0.5 0.5 0.5"); }},
      {"mapped.vertex-mass", "0.5",
       [](const Scene& s) { EXPECT_EQ(s.real("mapped.vertex-mass"), 0.5); }},
      {"mapped.total-mass", "2", [](const Scene& s) { EXPECT_EQ(s.real("mapped.total-mass"), 2); }},
      {"mapped.gravity", "0 0 -1",
       [](const Scene& s) {
         EXPECT_EQ(s.real3("mapped.gravity"), (Vec3{0, 0, -1}));
       }},
      {"mapped.constant-force", "1 2 3",
       [](const Scene& s) {
         EXPECT_EQ(s.real3("mapped.constant-force"), (Vec3{1, 2, 3}));
       }},
      {"mapped.nodal-forces", "2 1 0 0",
       [](const Scene& s) { EXPECT_EQ(s.text("mapped.nodal-forces"), "2 1 0 0"); }},
      {"mapped.plane", "0 1 0 -1 100",
       [](const Scene& s) { EXPECT_EQ(s.texts("mapped.plane"), Args{"0 1 0 -1 100"}); }},
      {"mapped.rest-shape-stiffness", "40",
       [](const Scene& s) { EXPECT_EQ(s.real("mapped.rest-shape-stiffness"), 40); }},
      {"mapped.rest-shape-nodes", "1 30",
       [](const Scene& s) { EXPECT_EQ(s.text("mapped.rest-shape-nodes"), "1 30"); }},
      {"mapped.pressure",
       "50",
       [](const Scene& s) { EXPECT_EQ(s.real("mapped.pressure"), 50); },
       {"--mapped.mapping=identity", "--mapped.triangles=0 1 2", "--solver.operator=matrix-free"}},
      {"mapped.pressure-pulse",
       "50 200 -10",
       [](const Scene& s) { EXPECT_EQ(s.text("mapped.pressure-pulse"), "50 200 -10"); },
       {"--mapped.mapping=identity", "--mapped.quads=0 1 2 3", "--solver.operator=matrix-free"}},
      {"mapped.triangles", "0 1 2",
       [](const Scene& s) { EXPECT_EQ(s.text("mapped.triangles"), "0 1 2"); }},
      {"mapped.quads", "0 1 2 3",
       [](const Scene& s) { EXPECT_EQ(s.text("mapped.quads"), "0 1 2 3"); }},
      {"mapped.composite-loads", compositeLoads,
       [compositeLoads](const Scene& s) {
         EXPECT_EQ(s.text("mapped.composite-loads"), compositeLoads);
       }},
      {"mass.total-mass",
       "3",
       [](const Scene& s) { EXPECT_EQ(s.real("mass.total-mass"), 3); },
       {"--mass.type=uniform"}},
      {"mass.vertex-mass",
       "0.5",
       [](const Scene& s) { EXPECT_EQ(s.real("mass.vertex-mass"), 0.5); },
       {"--mass.type=uniform"}},
      {"mass.total-mass-by-cells",
       "3",
       [](const Scene& s) { EXPECT_EQ(s.real("mass.total-mass-by-cells"), 3); },
       {"--mass.type=uniform"}},
      {"mass.cell-factor",
       "0.5 2",
       [](const Scene& s) {
         EXPECT_EQ(s.reals("mass.cell-factor"), (std::vector<double>{0.5, 2}));
       },
       {"--mass.type=hexahedron-fem"}},
      {"mass.virtual-finer-levels",
       "1",
       [](const Scene& s) { EXPECT_EQ(s.integer("mass.virtual-finer-levels"), 1); },
       {"--mass.type=hexahedron-fem"}},
      {"mass.cell-finer-factor",
       "0.5 0",
       [](const Scene& s) {
         EXPECT_EQ(s.reals("mass.cell-finer-factor"), (std::vector<double>{0.5, 0}));
       },
       {"--mass.type=hexahedron-fem"}},
      {"mass.finer-homogenisation",
       "static",
       [](const Scene& s) { EXPECT_EQ(s.text("mass.finer-homogenisation"), "static"); },
       {"--mass.type=hexahedron-fem"}},
      {"damping.coefficient", "0.7",
       [](const Scene& s) { EXPECT_EQ(s.real("damping.coefficient"), 0.7); }},
      {"springs.stiffness", "30",
       [](const Scene& s) { EXPECT_EQ(s.real("springs.stiffness"), 30); }},
      {"springs.damping", "0.2", [](const Scene& s) { EXPECT_EQ(s.real("springs.damping"), 0.2); }},
      {"springs.stiffness-by-kind", "30 20 10",
       [](const Scene& s) {
         EXPECT_EQ(s.reals("springs.stiffness-by-kind"), (std::vector<double>{30, 20, 10}));
       }},
      {"springs.damping-by-kind", "3 2 1",
       [](const Scene& s) {
         EXPECT_EQ(s.reals("springs.damping-by-kind"), (std::vector<double>{3, 2, 1}));
       }},
      {"constraint.fixed-box", "1 2 3 0 5 6",
       [](const Scene& s) {
         ASSERT_EQ(boxes(s, "constraint.fixed-box").size(), 1u);
         EXPECT_EQ(boxes(s, "constraint.fixed-box")[0].min, (Vec3{0, 2, 3}));
         EXPECT_EQ(boxes(s, "constraint.fixed-box")[0].max, (Vec3{1, 5, 6}));
       }},
      {"constraint.fixed-group", "clamp",
       [](const Scene& s) {
         EXPECT_EQ(s.texts("constraint.fixed-group"), Args{"clamp"});
         EXPECT_TRUE(boxes(s, "constraint.fixed-box").empty());
       }},
      {"constraint.fixed", "group clamp",
       [](const Scene& s) {
         EXPECT_EQ(s.texts("constraint.fixed"), Args{"group clamp"});
         EXPECT_TRUE(boxes(s, "constraint.fixed-box").empty());
       }},
      {"constraint.partial-fixed", "0 0 1 box 0 0 0 1 1 1",
       [](const Scene& s) {
         EXPECT_EQ(s.texts("constraint.partial-fixed"), Args{"0 0 1 box 0 0 0 1 1 1"});
         EXPECT_TRUE(boxes(s, "constraint.fixed-box").empty());
       }},
      {"constraint.linear-movement", "0 0 0 0 1 0.5 0 0 : box 1 0 0 1 1 1",
       [](const Scene& s) {
         EXPECT_EQ(s.texts("constraint.linear-movement"),
                   Args{"0 0 0 0 1 0.5 0 0 : box 1 0 0 1 1 1"});
       }},
      {"constraint.linear-movement-rule", "hold",
       [](const Scene& s) { EXPECT_EQ(s.text("constraint.linear-movement-rule"), "hold"); }},
      {"constraint.prescribed-velocity", "1 0 0 indices 3",
       [](const Scene& s) {
         EXPECT_EQ(s.texts("constraint.prescribed-velocity"), Args{"1 0 0 indices 3"});
       }},
      {"constraint.plane", "0 0 0 1 0 0 box 0 0 0 0 1 1",
       [](const Scene& s) {
         EXPECT_EQ(s.texts("constraint.plane"), Args{"0 0 0 1 0 0 box 0 0 0 0 1 1"});
       }},
      {"constraint.line", "0 0 0 0 1 0 indices 2",
       [](const Scene& s) {
         EXPECT_EQ(s.texts("constraint.line"), Args{"0 0 0 0 1 0 indices 2"});
       }},
      {"constraint.point", "1 2 3 indices 4",
       [](const Scene& s) { EXPECT_EQ(s.texts("constraint.point"), Args{"1 2 3 indices 4"}); }},
      {"constraint.oscillator", "2 0 0 1 0 0 5 10 indices 5",
       [](const Scene& s) {
         EXPECT_EQ(s.texts("constraint.oscillator"), Args{"2 0 0 1 0 0 5 10 indices 5"});
       }},
      {"constraint.affine-movement", "0 20 1 0 0 0 1 0 0 0 1 0.1 0 0 indices 6",
       [](const Scene& s) {
         EXPECT_EQ(s.texts("constraint.affine-movement"),
                   Args{"0 20 1 0 0 0 1 0 0 0 1 0.1 0 0 indices 6"});
       }},
      {"constraint.patch-test", "0 20 -0.2 -0.1 0 0.1 -0.1 0 0.1 0.1 0 -0.1 0.3 0 indices 6 7",
       [](const Scene& s) {
         EXPECT_EQ(s.texts("constraint.patch-test"),
                   Args{"0 20 -0.2 -0.1 0 0.1 -0.1 0 0.1 0.1 0 -0.1 0.3 0 indices 6 7"});
       }},
      {"constraint.patch-test",
       "0 20 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 all",
       [](const Scene& s) {
         EXPECT_EQ(s.texts("constraint.patch-test"),
                   Args{"0 20 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 "
                        "all"});
       }},
      {"lagrange.fixed",
       "box 0 0 0 0 1 1",
       [](const Scene& s) {
         EXPECT_EQ(s.texts("lagrange.fixed"), Args{"box 0 0 0 0 1 1"});
         EXPECT_TRUE(boxes(s, "constraint.fixed-box").empty());
       },
       {"--lagrange.solver=block-gauss-seidel", "--lagrange.correction=linear-solver"}},
      {"lagrange.bilateral",
       "indices 1 2 to points 0 0 1 0 0 2",
       [](const Scene& s) {
         EXPECT_EQ(s.texts("lagrange.bilateral"), Args{"indices 1 2 to points 0 0 1 0 0 2"});
       },
       {"--lagrange.solver=block-gauss-seidel", "--lagrange.correction=linear-solver"}},
      {"lagrange.unilateral",
       "box 0 0 0 1 1 0 plane 0 0 0 0 0 1 mu 0.3",
       [](const Scene& s) {
         EXPECT_EQ(s.texts("lagrange.unilateral"),
                   Args{"box 0 0 0 1 1 0 plane 0 0 0 0 0 1 mu 0.3"});
       },
       {"--lagrange.solver=block-gauss-seidel", "--lagrange.correction=linear-solver"}},
      {"lagrange.sliding",
       "indices 3 on 0 0 0 1 0 0",
       [](const Scene& s) {
         EXPECT_EQ(s.texts("lagrange.sliding"), Args{"indices 3 on 0 0 0 1 0 0"});
       },
       {"--lagrange.solver=block-gauss-seidel", "--lagrange.correction=linear-solver"}},
      {"lagrange.distance",
       "0 1 1 2 rest 0.5 0.5",
       [](const Scene& s) {
         EXPECT_EQ(s.texts("lagrange.distance"), Args{"0 1 1 2 rest 0.5 0.5"});
       },
       {"--lagrange.solver=block-gauss-seidel", "--lagrange.correction=linear-solver"}},
      {"lagrange.velocity-first",
       "true",
       [](const Scene& s) { EXPECT_TRUE(s.boolean("lagrange.velocity-first")); },
       {"--lagrange.solver=block-gauss-seidel"}},
      {"lagrange.compliance", "0.002",
       [](const Scene& s) { EXPECT_EQ(s.real("lagrange.compliance"), 0.002); }},
      {"lagrange.ode-factors", "false",
       [](const Scene& s) { EXPECT_FALSE(s.boolean("lagrange.ode-factors")); }},
      {"lagrange.correction-position-factor", "0.5",
       [](const Scene& s) { EXPECT_EQ(s.real("lagrange.correction-position-factor"), 0.5); }},
      {"lagrange.correction-velocity-factor", "2",
       [](const Scene& s) { EXPECT_EQ(s.real("lagrange.correction-velocity-factor"), 2); }},
      {"lagrange.solver", "block-gauss-seidel",
       [](const Scene& s) { EXPECT_EQ(s.text("lagrange.solver"), "block-gauss-seidel"); }},
      {"lagrange.max-iterations", "200",
       [](const Scene& s) { EXPECT_EQ(s.integer("lagrange.max-iterations"), 200); }},
      {"lagrange.tolerance", "1e-8",
       [](const Scene& s) { EXPECT_EQ(s.real("lagrange.tolerance"), 1e-8); }},
      {"lagrange.sor", "1.5", [](const Scene& s) { EXPECT_EQ(s.real("lagrange.sor"), 1.5); }},
      {"lagrange.in-step",
       "true",
       [](const Scene& s) { EXPECT_TRUE(s.boolean("lagrange.in-step")); },
       {"--lagrange.solver=block-gauss-seidel", "--lagrange.correction=linear-solver"}},
      {"lagrange.lcp-mu", "0.2", [](const Scene& s) { EXPECT_EQ(s.real("lagrange.lcp-mu"), 0.2); }},
      {"lagrange.initial-guess", "false",
       [](const Scene& s) { EXPECT_FALSE(s.boolean("lagrange.initial-guess")); }},
      {"lagrange.min-w", "1e-9", [](const Scene& s) { EXPECT_EQ(s.real("lagrange.min-w"), 1e-9); }},
      {"lagrange.max-f", "100", [](const Scene& s) { EXPECT_EQ(s.real("lagrange.max-f"), 100); }},
      {"lagrange.svd-regularization", "true",
       [](const Scene& s) { EXPECT_TRUE(s.boolean("lagrange.svd-regularization")); }},
      {"lagrange.svd-value-factor", "0.02",
       [](const Scene& s) { EXPECT_EQ(s.real("lagrange.svd-value-factor"), 0.02); }},
      {"lagrange.svd-vector-factor", "0.002",
       [](const Scene& s) { EXPECT_EQ(s.real("lagrange.svd-vector-factor"), 0.002); }},
      {"lagrange.scale-tolerance", "false",
       [](const Scene& s) { EXPECT_FALSE(s.boolean("lagrange.scale-tolerance")); }},
      {"lagrange.all-verified", "true",
       [](const Scene& s) { EXPECT_TRUE(s.boolean("lagrange.all-verified")); }},
      {"lagrange.regularization", "1e-9",
       [](const Scene& s) { EXPECT_EQ(s.real("lagrange.regularization"), 1e-9); }},
      {"lagrange.correction",
       "linear-solver",
       [](const Scene& s) { EXPECT_EQ(s.text("lagrange.correction"), "linear-solver"); },
       {"--lagrange.solver=block-gauss-seidel"}},
      {"lagrange.correction-regularization", "1e-9",
       [](const Scene& s) { EXPECT_EQ(s.real("lagrange.correction-regularization"), 1e-9); }},
      {"solver.dt", "0.005", [](const Scene& s) { EXPECT_EQ(s.real("solver.dt"), 0.005); }},
      {"solver.steps", "7", [](const Scene& s) { EXPECT_EQ(s.integer("solver.steps"), 7); }},
      {"solver.rayleigh-mass", "0.1",
       [](const Scene& s) { EXPECT_EQ(s.real("solver.rayleigh-mass"), 0.1); }},
      {"solver.rayleigh-stiffness", "0.2",
       [](const Scene& s) { EXPECT_EQ(s.real("solver.rayleigh-stiffness"), 0.2); }},
      {"solver.vdamping", "3", [](const Scene& s) { EXPECT_EQ(s.real("solver.vdamping"), 3); }},
      {"solver.first-order", "true",
       [](const Scene& s) { EXPECT_TRUE(s.boolean("solver.first-order")); }},
      {"solver.trapezoidal", "yes",
       [](const Scene& s) {
         EXPECT_TRUE(s.boolean("solver.trapezoidal"));
         EXPECT_EQ(s.choice("solver.scheme", eis::kTimeSchemes), eis::TimeScheme::SofaTrapezoidal);
       }},
      {"solver.scheme", "trapezoidal",
       [](const Scene& s) {
         EXPECT_EQ(s.choice("solver.scheme", eis::kTimeSchemes), eis::TimeScheme::Trapezoidal);
       }},
      {"solver.compute-residual", "on",
       [](const Scene& s) { EXPECT_TRUE(s.boolean("solver.compute-residual")); }},
      {"solver.newton", "full", [](const Scene& s) { EXPECT_EQ(s.text("solver.newton"), "full"); }},
      {"solver.newton-guess", "extrapolated",
       [](const Scene& s) {
         EXPECT_EQ(s.choice("solver.newton-guess", eis::kNewtonGuesses),
                   eis::NewtonGuess::Extrapolated);
       }},
      {"solver.explicit", "true",
       [](const Scene& s) { EXPECT_TRUE(s.boolean("solver.explicit")); }},
      {"solver.symplectic", "false",
       [](const Scene& s) { EXPECT_FALSE(s.boolean("solver.symplectic")); }},
      {"solver.group", "pair", [](const Scene& s) { EXPECT_EQ(s.text("solver.group"), "pair"); }},
      {"interaction.polynomial-springs", "/b 0 3 initial 0 50 2",
       [](const Scene& s) {
         EXPECT_EQ(s.texts("interaction.polynomial-springs"), Args{"/b 0 3 initial 0 50 2"});
       }},
      {"interaction.springs", "/b 0 3 50 2 1.2",
       [](const Scene& s) { EXPECT_EQ(s.texts("interaction.springs"), Args{"/b 0 3 50 2 1.2"}); }},
      {"attach.pairs", "/b two-way pairs 0 3 1",
       [](const Scene& s) { EXPECT_EQ(s.texts("attach.pairs"), Args{"/b two-way pairs 0 3 1"}); }},
      {"solver.operator", "matrix-free",
       [](const Scene& s) {
         EXPECT_EQ(s.choice("solver.operator", eis::kOperatorModes), eis::OperatorMode::MatrixFree);
       }},
      {"solver.preconditioner", "hypre-elasticity",
       [](const Scene& s) {
         EXPECT_EQ(s.choice("solver.preconditioner", eis::kPreconditioners),
                   eis::Preconditioner::HypreElasticity);
       }},
      {"solver.pc-lag", "4", [](const Scene& s) { EXPECT_EQ(s.integer("solver.pc-lag"), 4); }},
      {"solver.pc-rebuild-growth", "2.5",
       [](const Scene& s) { EXPECT_EQ(s.real("solver.pc-rebuild-growth"), 2.5); }},
      {"solver.guess-solutions", "5",
       [](const Scene& s) { EXPECT_EQ(s.integer("solver.guess-solutions"), 5); }},
      {"solver.initial-guess", "zero",
       [](const Scene& s) {
         EXPECT_EQ(s.choice("solver.initial-guess", eis::kInitialGuesses), eis::InitialGuess::Zero);
       }},
      {"solver.initial-guess", "projected",
       [](const Scene& s) {
         EXPECT_EQ(s.choice("solver.initial-guess", eis::kInitialGuesses),
                   eis::InitialGuess::Projected);
       }},
      {"initial.state", "start.csv",
       [](const Scene& s) { EXPECT_EQ(path(s, "initial.state"), "start.csv"); }},
      {"initial.positions", "0 0 0 1 0 0",
       [](const Scene& s) {
         EXPECT_EQ(s.reals("initial.positions"), (std::vector<double>{0, 0, 0, 1, 0, 0}));
       }},
      {"initial.velocities", "0 0 -1",
       [](const Scene& s) {
         EXPECT_EQ(s.reals("initial.velocities"), (std::vector<double>{0, 0, -1}));
       }},
      {"initial.values",
       "0.5 0 -1",
       [](const Scene& s) {
         EXPECT_EQ(s.reals("initial.values"), (std::vector<double>{0.5, 0, -1}));
       },
       {"--physics.type=diffusion", "--solver.first-order=true"}},
      {"output.final-state", "final.csv",
       [](const Scene& s) { EXPECT_EQ(path(s, "output.final-state"), "final.csv"); }},
      {"output.frames", "frames.csv",
       [](const Scene& s) { EXPECT_EQ(path(s, "output.frames"), "frames.csv"); }},
      {"topology.changes", "events.txt",
       [](const Scene& s) { EXPECT_EQ(path(s, "topology.changes"), "events.txt"); }},
      {"python.force-field", "/beam/spring",
       [](const Scene& s) { EXPECT_EQ(s.texts("python.force-field"), Args{"/beam/spring"}); }},
      {"python.add-k-to-matrix", "false",
       [](const Scene& s) { EXPECT_FALSE(s.boolean("python.add-k-to-matrix")); }},
      {"rigid.frames", "1 2 3 0 0 0 1",
       [](const Scene& s) {
         EXPECT_EQ(s.reals("rigid.frames"), (std::vector<double>{1, 2, 3, 0, 0, 0, 1}));
       }},
      {"rigid.velocities", "1 0 0 0 0 2",
       [](const Scene& s) {
         EXPECT_EQ(s.reals("rigid.velocities"), (std::vector<double>{1, 0, 0, 0, 0, 2}));
       }},
      {"rigid.mass", "2 1 1 0 0 0 2 0 0 0 3",
       [](const Scene& s) { EXPECT_EQ(s.reals("rigid.mass").size(), 11u); }},
      {"rigid.total-mass", "4", [](const Scene& s) { EXPECT_EQ(s.real("rigid.total-mass"), 4); }},
      {"rigid.fixed", "0 2",
       [](const Scene& s) { EXPECT_EQ(s.texts("rigid.fixed"), Args{"0 2"}); }},
      {"rigid.partial-fixed", "0 1 0 0 0 0 all",
       [](const Scene& s) { EXPECT_EQ(s.texts("rigid.partial-fixed"), Args{"0 1 0 0 0 0 all"}); }},
      {"rigid.rest-shape", "10 1000 all",
       [](const Scene& s) { EXPECT_EQ(s.texts("rigid.rest-shape"), Args{"10 1000 all"}); }},
      {"rigid.forces", "1 0 0 1 0 2 0",
       [](const Scene& s) { EXPECT_EQ(s.texts("rigid.forces"), Args{"1 0 0 1 0 2 0"}); }},
      {"rigid.beam", "2e7 0.49 0.05 0 0 1 1 2",
       [](const Scene& s) { EXPECT_EQ(s.texts("rigid.beam"), Args{"2e7 0.49 0.05 0 0 1 1 2"}); }},
      {"rigid.block-tridiagonal", "true",
       [](const Scene& s) { EXPECT_TRUE(s.boolean("rigid.block-tridiagonal")); }},
      {"rigid.mapped-points", "0 1 0 0  1 0 2 0",
       [](const Scene& s) { EXPECT_EQ(s.reals("rigid.mapped-points").size(), 8u); }},
      {"rigid.mapped-mass", "0.5",
       [](const Scene& s) { EXPECT_EQ(s.real("rigid.mapped-mass"), 0.5); }},
      {"rigid.mapped-forces", "1 3 0 -1",
       [](const Scene& s) { EXPECT_EQ(s.text("rigid.mapped-forces"), "1 3 0 -1"); }},
      {"rigid.mapped-plane", "0 1 0 -1 100",
       [](const Scene& s) { EXPECT_EQ(s.texts("rigid.mapped-plane"), Args{"0 1 0 -1 100"}); }},
      {"rigid.mapped-geometric-stiffness", "stabilized",
       [](const Scene& s) { EXPECT_EQ(s.text("rigid.mapped-geometric-stiffness"), "stabilized"); }},
      {"rigid.mapped-hexahedra", "0 1 2 3 4 5 6 7",
       [](const Scene& s) { EXPECT_EQ(s.reals("rigid.mapped-hexahedra").size(), 8u); }},
      {"rigid.mapped-springs", "/b 0 3 100 1 0.5",
       [](const Scene& s) {
         EXPECT_EQ(s.texts("rigid.mapped-springs"), Args{"/b 0 3 100 1 0.5"});
       }},
      {"carried.frames", "/f 0",
       [](const Scene& s) { EXPECT_EQ(s.text("carried.frames"), "/f 0"); }},
      {"carried.points",
       "1:0.5/2:0.5 3:1",
       [](const Scene& s) { EXPECT_EQ(s.text("carried.points"), "1:0.5/2:0.5 3:1"); },
       {"--carried.frames=/f"}},
      {"carried.plane",
       "0 1 0 -4 100 1",
       [](const Scene& s) { EXPECT_EQ(s.texts("carried.plane"), Args{"0 1 0 -4 100 1"}); },
       {"--carried.frames=/f", "--carried.points=0:1"}},
      {"rigid.mapped-tetrahedra", "0 1 2 3",
       [](const Scene& s) { EXPECT_EQ(s.reals("rigid.mapped-tetrahedra").size(), 4u); }},
      {"rigid.mapped-young-modulus", "1000",
       [](const Scene& s) { EXPECT_EQ(s.real("rigid.mapped-young-modulus"), 1000); }},
      {"rigid.mapped-poisson-ratio", "0.3",
       [](const Scene& s) { EXPECT_EQ(s.real("rigid.mapped-poisson-ratio"), 0.3); }},
      {"rigid.mapped-fem-method", "small",
       [](const Scene& s) { EXPECT_EQ(s.text("rigid.mapped-fem-method"), "small"); }},
      {"rigid.mapped-cell-mass", "consistent density 2",
       [](const Scene& s) { EXPECT_EQ(s.text("rigid.mapped-cell-mass"), "consistent density 2"); }},
      {"output.history", "history.csv",
       [](const Scene& s) { EXPECT_EQ(path(s, "output.history"), "history.csv"); }},
      {"output.multipliers", "lambda.csv",
       [](const Scene& s) { EXPECT_EQ(path(s, "output.multipliers"), "lambda.csv"); }},
      {"output.vtk", "out/beam",
       [](const Scene& s) { EXPECT_EQ(path(s, "output.vtk"), "out/beam"); }},
      {"output.xdmf", "out/series",
       [](const Scene& s) { EXPECT_EQ(path(s, "output.xdmf"), "out/series"); }},
      {"output.every", "5", [](const Scene& s) { EXPECT_EQ(s.integer("output.every"), 5); }},
      {"output.checkpoint", "out/ck",
       [](const Scene& s) { EXPECT_EQ(path(s, "output.checkpoint"), "out/ck"); }},
      {"output.checkpoint-every", "50",
       [](const Scene& s) { EXPECT_EQ(s.integer("output.checkpoint-every"), 50); }},
      {"output.checkpoint-minutes", "2.5",
       [](const Scene& s) { EXPECT_EQ(s.real("output.checkpoint-minutes"), 2.5); }},
      {"initial.restart", "auto",
       [](const Scene& s) { EXPECT_EQ(s.text("initial.restart"), "auto"); }},
      {"initial.restart-force", "true",
       [](const Scene& s) { EXPECT_TRUE(s.boolean("initial.restart-force")); }},
      {"output.progress-every", "5",
       [](const Scene& s) { EXPECT_EQ(s.integer("output.progress-every"), 5); }},
      {"solver.on-failure", "retry",
       [](const Scene& s) { EXPECT_EQ(s.text("solver.on-failure"), "retry"); }},
      {"solver.max-substeps", "8",
       [](const Scene& s) { EXPECT_EQ(s.integer("solver.max-substeps"), 8); }},
      {"solver.linear", "direct",
       [](const Scene& s) {
         EXPECT_EQ(s.choice("solver.linear", eis::kLinearMethods), eis::LinearMethod::Direct);
       }},
      {"solver.rtol", "1e-12", [](const Scene& s) { EXPECT_EQ(s.real("solver.rtol"), 1e-12); }},
      {"solver.max-iterations", "25",
       [](const Scene& s) { EXPECT_EQ(s.integer("solver.max-iterations"), 25); }},
      {"solver.residual-norm", "unpreconditioned",
       [](const Scene& s) {
         EXPECT_EQ(s.choice("solver.residual-norm", eis::kResidualNorms),
                   eis::ResidualNorm::Unpreconditioned);
       }},
      {"solver.block-products", "false",
       [](const Scene& s) { EXPECT_FALSE(s.boolean("solver.block-products")); }},
      {"solver.block-prefetch", "64",
       [](const Scene& s) { EXPECT_EQ(s.integer("solver.block-prefetch"), 64); }},
      {"solver.single-precision-levels", "false",
       [](const Scene& s) {
         EXPECT_FALSE(
             eis::linearSolverOf(eis::readLinearSolverParameters(s), false).options.singleLevels);
       }},
      {"solver.truncated-finest-smoother", "false",
       [](const Scene& s) {
         EXPECT_FALSE(eis::linearSolverOf(eis::readLinearSolverParameters(s), false)
                          .options.truncatedFinestSmoother);
       }},
      {"solver.block-prefetch-locality", "0",
       [](const Scene& s) {
         const auto choice = eis::linearSolverOf(eis::readLinearSolverParameters(s), false);
         EXPECT_EQ(choice.options.prefetch.locality, 0);
         EXPECT_EQ(choice.options.prefetch.distance, 128);
       }},
      {"solver.symmetric-blocks", "false",
       [](const Scene& s) {
         EXPECT_FALSE(s.boolean("solver.symmetric-blocks"));
         EXPECT_FALSE(eis::linearSolverOf(eis::readLinearSolverParameters(s), false)
                          .options.symmetricBlocks);
       }},
      {"solver.iteration-limit", "accept",
       [](const Scene& s) {
         EXPECT_EQ(s.choice("solver.iteration-limit", eis::kIterationLimits),
                   eis::IterationLimit::Accept);
       }},
      {"scene.file", "liver.scn",
       [](const Scene& s) { EXPECT_EQ(path(s, "scene.file"), "liver.scn"); }},
      {"scene.data-path", "share",
       [](const Scene& s) { EXPECT_EQ(s.texts("scene.data-path"), eis::Texts{"share"}); }},
      {"scene.python-timeout", "2.5",
       [](const Scene& s) { EXPECT_EQ(s.real("scene.python-timeout"), 2.5); }},
      {"scene.skip-unsupported", "true",
       [](const Scene& s) { EXPECT_TRUE(s.boolean("scene.skip-unsupported")); }},
      {"scene.python-main", "/tmp/eis-main/run.sock",
       [](const Scene& s) {
         EXPECT_EQ(s.optionalText("scene.python-main"), "/tmp/eis-main/run.sock");
       }},
      {"scene.linear-solver-limits", "scene",
       [](const Scene& s) { EXPECT_EQ(s.text("scene.linear-solver-limits"), "scene"); }},
  };
}

// "[section]\nkey = value\n" for a "section.key".
std::string iniLine(const std::string& key, const std::string& value) {
  const std::size_t dot = key.find('.');
  return "[" + key.substr(0, dot) + "]\n" + key.substr(dot + 1) + " = " + value + "\n";
}

// The "section.key" names that describe() prints, given or commented out as absent.
std::set<std::string> describedKeys(const std::string& ini) {
  std::set<std::string> keys;
  std::istringstream in(ini);
  std::string section;
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    if (line.front() == '[') {
      section = line.substr(1, line.size() - 2);
      continue;
    }
    if (startsWith(line, "# ")) line = line.substr(2);
    keys.insert(section + "." + line.substr(0, line.find(" = ")));
  }
  return keys;
}

TEST(Scene, DefaultsMatchTheDesign) {
  const eis::CommandLine cl = parse({});
  EXPECT_FALSE(cl.help);
  EXPECT_FALSE(cl.version);
  EXPECT_TRUE(cl.petscArgs.empty());
  const Scene& s = cl.scene;
  EXPECT_EQ(path(s, "mesh.file"), "");
  EXPECT_EQ(s.real3("mesh.box-size"), (Vec3{10, 1, 1}));
  EXPECT_EQ(s.integer3("mesh.box-cells"), (std::array<int, 3>{20, 4, 4}));
  EXPECT_EQ(s.integer("mesh.refine"), 0);
  EXPECT_EQ(s.choice("physics.type", eis::kPhysics), eis::Physics::Elasticity);
  EXPECT_EQ(s.choice("material.model", eis::kMaterialModels), eis::MaterialModel::Linear);
  EXPECT_EQ(s.choice("material.rotation", eis::kRotationMethods), eis::RotationMethod::Large);
  EXPECT_EQ(s.choice("solver.newton-guess", eis::kNewtonGuesses), eis::NewtonGuess::Previous);
  EXPECT_EQ(s.real("material.young-modulus"), 1e5);
  EXPECT_EQ(s.real("material.poisson-ratio"), 0.3);
  EXPECT_EQ(s.real("material.density"), 1);
  EXPECT_EQ(s.real("material.conductivity"), 1);
  EXPECT_EQ(s.real("material.capacity"), 1);
  EXPECT_EQ(s.choice("mass.type", eis::kMassTypes), eis::MassType::Lumped);
  EXPECT_EQ(s.real3("load.gravity"), (Vec3{0, -9.81, 0}));
  ASSERT_EQ(boxes(s, "constraint.fixed-box").size(), 1u);
  EXPECT_EQ(boxes(s, "constraint.fixed-box")[0].min, (Vec3{0, 0, 0}));
  EXPECT_EQ(boxes(s, "constraint.fixed-box")[0].max, (Vec3{0, 1, 1}));
  EXPECT_TRUE(s.texts("constraint.fixed-group").empty());
  EXPECT_EQ(s.real("solver.dt"), 0.01);
  EXPECT_EQ(s.integer("solver.steps"), 100);
  EXPECT_EQ(s.real("solver.rayleigh-mass"), 0);
  EXPECT_EQ(s.real("solver.rayleigh-stiffness"), 0);
  EXPECT_EQ(s.real("solver.vdamping"), 0);
  EXPECT_FALSE(s.boolean("solver.first-order"));
  EXPECT_FALSE(s.boolean("solver.trapezoidal"));
  EXPECT_FALSE(s.boolean("solver.compute-residual"));
  EXPECT_EQ(s.text("solver.newton"), "linearized");
  EXPECT_EQ(s.choice("solver.operator", eis::kOperatorModes), eis::OperatorMode::Assembled);
  EXPECT_EQ(s.choice("solver.preconditioner", eis::kPreconditioners),
            eis::Preconditioner::Automatic);
  EXPECT_EQ(s.integer("solver.pc-lag"), 0);
  EXPECT_EQ(s.real("solver.pc-rebuild-growth"), 1.5);
  EXPECT_EQ(s.choice("solver.initial-guess", eis::kInitialGuesses), eis::InitialGuess::Automatic);
  EXPECT_EQ(path(s, "initial.state"), "");
  EXPECT_EQ(path(s, "output.final-state"), "");
  EXPECT_EQ(path(s, "output.history"), "");
  EXPECT_EQ(path(s, "output.vtk"), "");
  EXPECT_EQ(s.integer("output.every"), 1);
  EXPECT_EQ(s.integer("output.progress-every"), 1);
  EXPECT_EQ(s.text("solver.on-failure"), "stop");
  EXPECT_EQ(s.integer("solver.max-substeps"), 64);
  EXPECT_EQ(s.choice("solver.linear", eis::kLinearMethods), eis::LinearMethod::Iterative);
  EXPECT_EQ(s.real("solver.rtol"), 1e-8);
  EXPECT_EQ(s.integer("solver.max-iterations"), 1000);
  EXPECT_EQ(s.choice("solver.residual-norm", eis::kResidualNorms), eis::ResidualNorm::Default);
  EXPECT_EQ(s.choice("solver.iteration-limit", eis::kIterationLimits), eis::IterationLimit::Error);
  EXPECT_EQ(path(s, "scene.file"), "");
  EXPECT_EQ(s.real("scene.python-timeout"), 120);
  EXPECT_FALSE(s.boolean("scene.skip-unsupported"));
  EXPECT_EQ(s.text("scene.linear-solver-limits"), "converged");
}

// The built-in box's default clamp is its x = 0 face; moved by mesh.transform, that face is found
// by node id (i = 0: id = (NX+1)(j + (NY+1)k)), not by a box at x = 0 where it no longer is.
TEST(Scene, DefaultClampFollowsTheBoxThroughATransform) {
  const Scene moved = parse({"--mesh.box-cells=4 1 2", "--mesh.transform=translate 5 0 0"}).scene;
  EXPECT_EQ(moved.texts("constraint.fixed"), (std::vector<std::string>{"indices 0 5 10 15 20 25"}));
  EXPECT_TRUE(moved.texts("constraint.fixed-box").empty());
  const Scene still = parse({"--mesh.box-cells=4 1 2"}).scene;
  EXPECT_EQ(still.texts("constraint.fixed-box"), (std::vector<std::string>{"0 0 0 0 1 1"}));
}

TEST(Scene, EveryKeyFromTheCommandLine) {
  for (const KeyCase& c : allKeys()) {
    SCOPED_TRACE(c.key);
    Args adjacent = c.needs, separate = c.needs;
    adjacent.push_back("--" + c.key + "=" + c.value);
    separate.insert(separate.end(), {"--" + c.key, c.value});
    c.check(parse(adjacent).scene);
    c.check(parse(separate).scene);
  }
}

// The keys whose values are paths, listed apart from their declarations.
const std::set<std::string> kPathKeys = {
    "mesh.file",   "initial.state", "output.final-state", "output.history",
    "output.vtk",  "scene.file",    "scene.data-path",    "output.checkpoint",
    "output.xdmf", "output.frames", "output.multipliers", "topology.changes"};

TEST(Scene, EveryKeyFromTheConfigFile) {
  for (const KeyCase& c : allKeys()) {
    SCOPED_TRACE(c.key);
    const IniFile ini(iniLine(c.key, c.value));
    Args args = c.needs;
    args.insert(args.end(), {"--config", ini.path()});
    if (kPathKeys.count(c.key))
      EXPECT_EQ(path(parse(args).scene, c.key), (ini.folder() / c.value).string());
    else
      c.check(parse(args).scene);
  }
}

// A relative path in a config file starts at the file's folder, wherever the run starts; an
// absolute one stays; the command line's paths start at the current folder.
TEST(Scene, ConfigFilePathsStartAtTheConfigFilesFolder) {
  const IniFile ini(
      "[mesh]\nfile = meshes/beam.msh\n[initial]\nstate = /data/start.csv\n[output]\n"
      "vtk = out/beam\nhistory = history.csv\nfinal-state = ../final.csv\n");
  const Scene s = parse({"--config", ini.path(), "--output.history=here.csv"}).scene;
  EXPECT_EQ(path(s, "mesh.file"), (ini.folder() / "meshes/beam.msh").string());
  EXPECT_EQ(path(s, "initial.state"), "/data/start.csv");
  EXPECT_EQ(path(s, "output.vtk"), (ini.folder() / "out/beam").string());
  EXPECT_EQ(path(s, "output.final-state"), (ini.folder() / "../final.csv").string());
  EXPECT_EQ(path(s, "output.history"), "here.csv");
  // Every path key is declared as one, and no other key is.
  for (const eis::ParameterDeclaration& d : s.spec().declarations())
    EXPECT_EQ(d.isPath(), kPathKeys.count(d.key) > 0) << d.key;
  // A config file in the current folder leaves its paths as written.
  const std::string name = std::filesystem::path(ini.path()).filename().string();
  const std::filesystem::path start = std::filesystem::current_path();
  std::filesystem::current_path(ini.folder());
  const std::string mesh = path(parse({"--config", name}).scene, "mesh.file");
  std::filesystem::current_path(start);
  EXPECT_EQ(mesh, "meshes/beam.msh");
}

// '#' and ';' start a comment at the start of a line or after a blank, not inside a word.
TEST(Scene, ConfigFileCommentsStartAtHashOrSemicolonAfterABlank) {
  const IniFile ini(
      "# a scene\n  ; indented comment\n[solver] # the solver\ndt = 0.25 # seconds\n"
      "steps = 7;not a comment here\n[output]\nvtk = run#1 ; written\n");
  const std::string steps = errorOf({"--config", ini.path()});
  EXPECT_TRUE(startsWith(
      steps, "config file " + ini.path() + ", line 5: solver.steps = 7;not a comment here: "))
      << steps;
  const IniFile fine(
      "[solver] # the solver\ndt = 0.25 # seconds\nsteps = 7 ;seven\n"
      "[output]\nvtk = run#1 ; written\n");
  const Scene s = parse({"--config", fine.path()}).scene;
  EXPECT_EQ(s.real("solver.dt"), 0.25);
  EXPECT_EQ(s.integer("solver.steps"), 7);
  EXPECT_EQ(path(s, "output.vtk"), (fine.folder() / "run#1").string());
}

// Every config error names the file and the line; a SOFA XML scene is named as one.
TEST(Scene, ConfigFileErrorsNameTheFileAndLine) {
  const IniFile bad("[solver]\ndt = 1\n\nsteps = -3\n");
  EXPECT_EQ(errorOf({"--config", bad.path()}),
            "config file " + bad.path() + ", line 4: solver.steps = -3: must be >= 0");
  const IniFile noEquals("[solver]\ndt 1\n");
  EXPECT_EQ(
      errorOf({"--config", noEquals.path()}),
      "config file " + noEquals.path() + ", line 2: invalid line 'dt 1' (expected key = value)");
  const IniFile section("[solver\ndt = 1\n");
  EXPECT_EQ(
      errorOf({"--config", section.path()}),
      "config file " + section.path() + ", line 1: invalid section '[solver' (expected [name])");
  const IniFile scene(
      "\n  <?xml version=\"1.0\"?>\n<Node name=\"root\">\n<MechanicalObject/>\n"
      "</Node>\n");
  EXPECT_EQ(errorOf({"--config", scene.path()}),
            "config file " + scene.path() +
                ": is a SOFA XML scene; --config takes INI files of section.key = value lines "
                "(README.md, Running)");
  const IniFile marked("\xEF\xBB\xBF<Node name=\"root\"/>\n");
  EXPECT_NE(errorOf({"--config", marked.path()}).find("is a SOFA XML scene"), std::string::npos);
  const IniFile markedIni("\xEF\xBB\xBF[solver]\nsteps = 7\n");
  EXPECT_EQ(parse({"--config", markedIni.path()}).scene.integer("solver.steps"), 7);
}

TEST(Scene, EveryTestValueChangesTheScene) {
  // Guards the tests above: a value equal to the default would prove nothing.
  for (const KeyCase& c : allKeys()) {
    SCOPED_TRACE(c.key);
    Args args = c.needs;
    const std::string before = eis::describe(parse(args).scene);
    args.push_back("--" + c.key + "=" + c.value);
    EXPECT_NE(eis::describe(parse(args).scene), before);
  }
}

TEST(Scene, CommandLineWinsOverTheConfigFile) {
  const IniFile ini("[solver]\ndt = 0.1\nsteps = 5\n[mesh]\nbox-size = 4 2 2\n");
  for (const Args& args : {Args{"--config", ini.path(), "--solver.dt=0.2"},
                           Args{"--solver.dt", "0.2", "--config=" + ini.path()}}) {
    const Scene s = parse(args).scene;
    EXPECT_EQ(s.real("solver.dt"), 0.2);
    EXPECT_EQ(s.integer("solver.steps"), 5);
    EXPECT_EQ(s.real3("mesh.box-size"), (Vec3{4, 2, 2}));
  }
}

TEST(Scene, AnEmptyValueOnTheCommandLineClearsAPathOfTheFile) {
  const IniFile ini("[output]\nvtk = out/beam\nhistory = history.csv\n");
  const Scene s = parse({"--config", ini.path(), "--output.vtk="}).scene;
  EXPECT_EQ(path(s, "output.vtk"), "");
  EXPECT_EQ(path(s, "output.history"), (ini.folder() / "history.csv").string());
}

TEST(Scene, RepeatableKeysOnTheCommandLineReplaceTheFiles) {
  const IniFile ini(
      "[constraint]\nfixed-box = 0 0 0 1 1 1\nfixed-box = 9 0 0 10 1 1\nfixed-group = clamp\n");
  const Scene fromFile = parse({"--config", ini.path()}).scene;
  ASSERT_EQ(boxes(fromFile, "constraint.fixed-box").size(), 2u);
  EXPECT_EQ(boxes(fromFile, "constraint.fixed-box")[1].min, (Vec3{9, 0, 0}));
  EXPECT_EQ(fromFile.texts("constraint.fixed-group"), Args{"clamp"});

  const Scene s = parse({"--config", ini.path(), "--constraint.fixed-box=5 0 0 6 1 1",
                         "--constraint.fixed-box", "7 0 0 8 1 1"})
                      .scene;
  ASSERT_EQ(boxes(s, "constraint.fixed-box").size(), 2u);
  EXPECT_EQ(boxes(s, "constraint.fixed-box")[0].min, (Vec3{5, 0, 0}));
  EXPECT_EQ(boxes(s, "constraint.fixed-box")[1].max, (Vec3{8, 1, 1}));
  EXPECT_EQ(s.texts("constraint.fixed-group"),
            Args{"clamp"});  // a different key: the file's occurrences stay
}

TEST(Scene, VectorsAcceptSpacesAndCommas) {
  for (const std::string text : {"3 2 1", "3,2,1", "3, 2, 1", " 3  2\t1 "}) {
    SCOPED_TRACE(text);
    EXPECT_EQ(parse({"--mesh.box-size=" + text}).scene.real3("mesh.box-size"), (Vec3{3, 2, 1}));
    const IniFile ini(iniLine("mesh.box-size", text));
    EXPECT_EQ(parse({"--config", ini.path()}).scene.real3("mesh.box-size"), (Vec3{3, 2, 1}));
  }
  EXPECT_EQ(parse({"--mesh.box-size=1e1 2E0 .5"}).scene.real3("mesh.box-size"), (Vec3{10, 2, 0.5}));
}

TEST(Scene, BadValuesNameTheKeyAndTheValue) {
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"solver.dt", "-1"},
      {"solver.dt", "0"},
      {"solver.dt", "1e5x"},
      {"solver.dt", "nan"},
      {"solver.dt", "inf"},
      {"solver.dt", "-inf"},
      {"solver.dt", "1e999"},
      {"solver.dt", "0.1 0.2"},
      {"solver.dt", ""},
      {"solver.steps", "-1"},
      {"solver.on-failure", "again"},
      {"solver.max-substeps", "1"},
      {"solver.steps", "2.5"},
      {"solver.steps", "99999999999"},
      {"material.young-modulus", "0"},
      {"material.poisson-ratio", "0.5"},
      {"material.poisson-ratio", "-1"},
      {"material.poisson-ratio", "x"},
      {"material.lame", "0 1"},
      {"material.lame", "1 -1"},
      {"material.lame", "1"},
      {"material.law-parameters", "1 2"},
      {"material.law-parameters", "1 2 0"},
      {"material.region", "liver 3e3"},
      {"material.region", "liver 0 0.3"},
      {"material.region", "liver 3e3 0.5"},
      {"material.cell-young-modulus", "1 -1"},
      {"material.cell-poisson-ratio", "0.3 0.5"},
      {"material.cell-stiffness-factor", "1 0"},
      {"material.virtual-finer-levels", "-1"},
      {"material.cell-finer-stiffness-factor", "1 -0.5"},
      {"material.finer-homogenisation", "bilinear"},
      {"constraint.linear-movement-rule", "free"},
      {"initial.positions", "0 0 0 1"},
      {"initial.velocities", "0 0 x"},
      {"initial.values", "0 x"},
      {"material.density", "-2"},
      {"material.conductivity", "0"},
      {"material.capacity", "0"},
      {"mesh.refine", "-1"},
      {"mesh.nodes", "0 0 0 1 0"},
      {"mesh.nodes", "0 0 nan"},
      {"mesh.tetrahedra", "0 1 2"},
      {"mesh.tetrahedra", "0 1 2 -3"},
      {"mesh.hexahedra", "0 1 2 3"},
      {"mesh.cell-type", "prism"},
      {"material.cells", "prism"},
      {"material.hexahedron-element", "hexahedral"},
      {"obstacle.plane", "0 1 0 x"},
      {"obstacle.sphere", "0 0 0 1 2 3 4"},
      {"obstacle.ellipsoid", "0 0 0 1 0 1"},
      {"obstacle.ellipsoid", "0 0 0 1 1 1 5 -1"},
      {"interaction.ellipsoid-frame", "/obstacle -1"},
      {"interaction.ellipsoid-frame", "/obstacle 0 1"},
      {"interaction.ellipsoids", "0 0 0 1 1"},
      {"interaction.ellipsoids", "0 0 0 1 0 1"},
      {"interaction.ellipsoid-damping", "-1"},
      {"solver.explicit", "maybe"},
      {"obstacle.cone", "0 0 0 0 0 0 40"},
      {"obstacle.cone", "0 0 0 0 1 0 40 -1"},
      {"obstacle.cone", "0 0 0 0 1 0"},
      {"mesh.transform", "spin 0 0 90"},
      {"mesh.box-cells", "20 0 4"},
      {"mesh.box-cells", "20 4"},
      {"mesh.box-cells", "20 4.5 4"},
      {"mesh.box-size", "10 0 1"},
      {"mesh.box-size", "10 1"},
      {"mesh.box-size", "10 1 1 1"},
      {"mesh.box-size", "10;1;1"},
      {"load.gravity", "0 x 0"},
      {"load.gravity", "0 nan 0"},
      {"solver.rayleigh-mass", "-1"},
      {"solver.rayleigh-stiffness", "-0.1"},
      {"solver.vdamping", "-1"},
      {"output.every", "0"},
      {"output.checkpoint-every", "-1"},
      {"output.checkpoint-minutes", "-1"},
      {"output.progress-every", "-1"},
      {"constraint.fixed-box", "0 0 0 1 1"},
      {"constraint.fixed-group", ""},
      {"constraint.fixed", "cube 1"},
      {"constraint.fixed", "all 1"},
      {"constraint.partial-fixed", "0 0 2 all"},
      {"constraint.partial-fixed", "0 0 all"},
      {"constraint.linear-movement", "0 0 0 0 all"},
      {"constraint.linear-movement", "1 0 0 0 0.5 1 0 0 : all"},
      {"constraint.prescribed-velocity", "1 0 all"},
      {"constraint.plane", "0 0 0 1 0 all"},
      {"constraint.line", "0 0 0 0 1 0 cube 1"},
      {"constraint.point", "1 2 indices 4"},
      {"constraint.oscillator", "2 0 0 1 0 0 5 indices 5"},
      {"constraint.affine-movement", "0 20 1 0 0 0 1 0 0 0 1 indices 6"},
      {"constraint.patch-test", "0 20 1 0 0 0 1 0 0 0 1 0 indices 6"},
      {"constraint.patch-test", "0 20 1 0 0 0 1 0 0 0 1 0 1 2 3 4 5 6 7 8 9 10 11 12 13 indices 6"},
      {"load.total-force", "1 2 3 sphere 0 0 0"},
      {"load.constant-force", "1 2 3 indices -1"},
      {"springs.rest-shape", "-5 all"},
      {"springs.rest-shape-nodes", "4 20 9"},
      {"springs.rest-shape-nodes", "4 -20"},
      {"load.nodal-forces", "3 0 -1"},
      {"load.nodal-forces", "-3 0 -1 0"},
      {"mass.total-mass", "0"},
      {"mass.vertex-mass", "-1"},
      {"mass.total-mass-by-cells", "0"},
      {"mass.cell-factor", "1 -1"},
      {"mass.virtual-finer-levels", "1.5"},
      {"mass.cell-finer-factor", "0 -1"},
      {"mass.finer-homogenisation", "bilinear"},
      {"solver.first-order", "maybe"},
      {"physics.type", "fluid"},
      {"mass.type", "heavy"},
      {"solver.operator", "magic"},
      {"material.model", "foo"},
      {"solver.newton", "foo"},
      {"solver.preconditioner", "ilu"},
      {"solver.pc-lag", "-3"},
      {"solver.pc-lag", "2.5"},
      {"solver.pc-lag", ""},
      {"solver.pc-rebuild-growth", "1"},
      {"solver.guess-solutions", "0"},
      {"solver.pc-rebuild-growth", "0.5"},
      {"solver.pc-rebuild-growth", "inf"},
      {"solver.pc-rebuild-growth", "x"},
      {"solver.initial-guess", "last"},
      {"solver.linear", "lu"},
      {"solver.rtol", "0"},
      {"solver.rtol", "1"},
      {"solver.max-iterations", "0"},
      {"solver.block-prefetch", "-1"},
      {"solver.block-prefetch", "1.5"},
      {"solver.block-prefetch-locality", "4"},
      {"solver.single-precision-levels", "half"},
      {"solver.truncated-finest-smoother", "half"},
      {"solver.block-prefetch-locality", "nta"},
      {"solver.symmetric-blocks", "maybe"},
      {"solver.residual-norm", "natural"},
      {"solver.iteration-limit", "warn"},
      {"scene.python-timeout", "0"},
      {"scene.skip-unsupported", "maybe"},
      {"scene.linear-solver-limits", "sofa"},
      {"lagrange.solver", "simplex"},
      {"lagrange.max-iterations", "0"},
      {"lagrange.tolerance", "0"},
      {"lagrange.sor", "2"},
      {"lagrange.regularization", "-1"},
      {"lagrange.correction", "generic"},
      {"lagrange.compliance", "0"},
      {"lagrange.ode-factors", "maybe"},
      {"lagrange.fixed", "cube 1"},
  };
  for (const auto& [key, value] : bad) {
    SCOPED_TRACE(key + " = " + value);
    const std::string fromCommandLine = errorOf({"--" + key + "=" + value});
    EXPECT_TRUE(startsWith(fromCommandLine, key + " = " + value)) << fromCommandLine;
    const IniFile ini(iniLine(key, value));
    const std::string fromFile = errorOf({"--config", ini.path()});
    EXPECT_TRUE(startsWith(fromFile, "config file " + ini.path() + ", line 2: " + key + " = "))
        << fromFile;
  }
  EXPECT_EQ(errorOf({"--solver.dt=-1"}), "solver.dt = -1: must be > 0");
  EXPECT_EQ(errorOf({"--solver.dt=1e5x"}), "solver.dt = 1e5x: '1e5x' is not a finite number");
  EXPECT_EQ(errorOf({"--mesh.box-size=10 1"}), "mesh.box-size = 10 1: expected 3 numbers, got 2");
  EXPECT_EQ(errorOf({"--solver.steps=1e3"}), "solver.steps = 1e3: '1e3' is not an integer");
  EXPECT_EQ(errorOf({"--solver.block-prefetch=99999999999"}),
            "solver.block-prefetch = 99999999999: '99999999999' is out of range: integers here "
            "lie between -2147483648 and 2147483647");
  EXPECT_EQ(errorOf({"--solver.steps=-99999999999999999999"}),
            "solver.steps = -99999999999999999999: '-99999999999999999999' is out of range: "
            "integers here lie between -2147483648 and 2147483647");
  EXPECT_EQ(errorOf({"--solver.steps=12x"}), "solver.steps = 12x: '12x' is not an integer");
  EXPECT_EQ(errorOf({"--solver.pc-lag=-1"}), "solver.pc-lag = -1: must be >= 0");
  EXPECT_EQ(errorOf({"--solver.pc-rebuild-growth=1"}), "solver.pc-rebuild-growth = 1: must be > 1");
  EXPECT_EQ(errorOf({"--solver.initial-guess=last"}),
            "solver.initial-guess = last: expected auto | zero | previous | projected | span");
  EXPECT_EQ(
      errorOf({"--solver.preconditioner=ilu"}),
      "solver.preconditioner = ilu: expected auto | gamg | hypre | hypre-elasticity | jacobi | none");
}

TEST(Scene, OptionsThatDoNotComposeAreRejected) {
  EXPECT_EQ(
      errorOf({"--physics.type=diffusion", "--solver.first-order=true", "--material.model=stvk"}),
      "material.model = stvk is an elastic model; physics.type = diffusion takes none");
  EXPECT_EQ(
      errorOf({"--physics.type=diffusion", "--solver.first-order=true", "--springs.stiffness=3"}),
      "springs.stiffness applies to elasticity only, not to physics.type = diffusion");
  EXPECT_EQ(errorOf({"--solver.newton=full", "--solver.trapezoidal=true"}),
            "solver.newton = full does not take SOFA's trapezoidal variant (a linearized scheme); "
            "solver.scheme = trapezoidal is the rule it approximates");
  EXPECT_EQ(errorOf({"--solver.trapezoidal=true", "--solver.scheme=trapezoidal"}),
            "solver.trapezoidal = true contradicts solver.scheme = trapezoidal");
  EXPECT_EQ(errorOf({"--solver.trapezoidal=false", "--solver.scheme=sofa-trapezoidal"}),
            "solver.trapezoidal = false contradicts solver.scheme = sofa-trapezoidal");
  EXPECT_EQ(parse({"--solver.scheme=sofa-trapezoidal"}).scene.boolean("solver.trapezoidal"), true);
  // Lagrangian constraints need a solver and a correction; the free motion is the linearized step.
  EXPECT_TRUE(startsWith(errorOf({"--lagrange.fixed=all"}),
                         "lagrange.fixed: Lagrangian constraints need a constraint solver"));
  EXPECT_TRUE(startsWith(errorOf({"--lagrange.fixed=all", "--lagrange.solver=block-gauss-seidel"}),
                         "lagrange.fixed: Lagrangian constraints need a constraint correction"));
  EXPECT_EQ(errorOf({"--lagrange.correction=linear-solver"}),
            "lagrange.correction = linear-solver needs lagrange.solver = block-gauss-seidel");
  EXPECT_TRUE(startsWith(errorOf({"--lagrange.solver=block-gauss-seidel", "--solver.newton=full"}),
                         "lagrange.solver = block-gauss-seidel runs SOFA's linearized step"));
  EXPECT_EQ(errorOf({"--physics.type=diffusion", "--solver.first-order=true",
                     "--lagrange.solver=block-gauss-seidel", "--lagrange.correction=linear-solver",
                     "--lagrange.fixed=all"}),
            "lagrange.fixed applies to elasticity only, not to physics.type = diffusion");
  for (const std::string pc : {"gamg", "hypre", "hypre-elasticity"})
    EXPECT_EQ(
        errorOf({"--solver.operator=matrix-free", "--solver.preconditioner=" + pc}),
        "solver.preconditioner = " + pc +
            " needs an assembled matrix; solver.operator = matrix-free has none (take jacobi)");
  EXPECT_EQ(parse({"--solver.operator=matrix-free", "--solver.preconditioner=jacobi"})
                .scene.choice("solver.preconditioner", eis::kPreconditioners),
            eis::Preconditioner::Jacobi);
  EXPECT_EQ(errorOf({"--physics.type=diffusion", "--solver.first-order=true",
                     "--solver.preconditioner=hypre-elasticity"}),
            "solver.preconditioner = hypre-elasticity applies to elasticity only, not to "
            "physics.type = diffusion (take hypre)");
  // The initial guess is the linearized step's; with Newton it is accepted and has no effect.
  EXPECT_EQ(parse({"--solver.newton=full", "--solver.initial-guess=previous"})
                .scene.choice("solver.initial-guess", eis::kInitialGuesses),
            eis::InitialGuess::Previous);
}

// The uniform material comes from E and NU or from the Lame pair, cells' own from the SOFA lists
// or from the regions; the keys of elasticity only are refused in a diffusion scene.
TEST(Scene, MaterialSourcesExcludeEachOther) {
  EXPECT_EQ(errorOf({"--material.lame=1 2", "--material.young-modulus=3"}),
            "material.lame and material.young-modulus both give the material: give one");
  EXPECT_EQ(errorOf({"--material.lame=1 2", "--material.cell-poisson-ratio=0.3"}),
            "material.lame and material.cell-poisson-ratio both give the material: give one");
  EXPECT_EQ(errorOf({"--material.young-modulus=3", "--material.cell-young-modulus=3 4"}),
            "material.young-modulus and material.cell-young-modulus both give the material (the "
            "list is SOFA's whole youngModulus or poissonRatio): give one");
  EXPECT_EQ(errorOf({"--material.region=a 1 0.3", "--material.cell-young-modulus=3 4"}),
            "material.region and a per-cell list (material.cell-young-modulus, "
            "material.cell-poisson-ratio or material.cell-stiffness-factor) both set cells' "
            "materials: give one");
  EXPECT_EQ(errorOf({"--material.lame=1 2", "--material.cell-stiffness-factor=2"}),
            "material.lame and material.cell-stiffness-factor both give the material: give one");
  // material.model = none adds no elastic force field: a material given to it would be unused.
  EXPECT_EQ(errorOf({"--material.model=none", "--material.young-modulus=3"}),
            "material.young-modulus describes the elastic material, and material.model = none adds "
            "no elastic force field: give a model or leave the key out");
  EXPECT_TRUE(startsWith(errorOf({"--material.model=none", "--material.region=a 1 0.3"}),
                         "material.region describes the elastic material"));
  EXPECT_TRUE(
      startsWith(errorOf({"--material.model=none", "--material.cell-finer-stiffness-factor=1"}),
                 "material.cell-finer-stiffness-factor describes the elastic material"));
  EXPECT_EQ(errorOf({"--material.model=none", "--material.density=3"}), "");
  EXPECT_EQ(errorOf({"--initial.state=a.csv", "--initial.velocities=1 0 0"}),
            "initial.velocities and initial.state are given: give one");
  EXPECT_EQ(errorOf({"--initial.values=1 0 0"}),
            "initial.values applies to physics.type = diffusion only (elasticity: "
            "initial.positions)");
  EXPECT_EQ(errorOf({"--physics.type=diffusion", "--solver.first-order=true",
                     "--initial.state=a.csv", "--initial.values=1 0 0"}),
            "initial.values and initial.state are given: give one");
  EXPECT_TRUE(startsWith(errorOf({"--physics.type=diffusion", "--solver.first-order=true",
                                  "--material.region=a 1 0.3"}),
                         "material.region"));
  // E and NU with regions, and the Lame pair with regions, are fine.
  EXPECT_EQ(parse({"--material.young-modulus=3", "--material.region=a 1 0.3"})
                .scene.texts("material.region")
                .size(),
            1u);
  EXPECT_EQ(parse({"--material.lame=1 2", "--material.region=a 1 0.3"})
                .scene.reals("material.lame")
                .size(),
            2u);
}

// mass.total-mass sizes the lumped and consistent masses too (SOFA's DiagonalMass and
// MeshMatrixMass totalMass), instead of the density; vertex-mass stays uniform's.
TEST(Scene, TotalMassSizesEveryMassType) {
  for (const std::string type : {"lumped", "consistent", "uniform"})
    EXPECT_EQ(parse({"--mass.type=" + type, "--mass.total-mass=2"}).scene.real("mass.total-mass"),
              2);
  EXPECT_EQ(errorOf({"--mass.total-mass=2", "--material.density=3"}),
            "mass.total-mass and material.density both size the mass: give one (SOFA takes "
            "totalMass)");
  EXPECT_EQ(errorOf({"--mass.vertex-mass=2"}),
            "mass.vertex-mass applies to mass.type = uniform only");
  EXPECT_EQ(errorOf({"--mass.type=none", "--mass.total-mass=2"}),
            "mass.total-mass: mass.type = none has no mass to size");
  EXPECT_EQ(errorOf({"--mass.type=none", "--material.density=2"}),
            "material.density: mass.type = none has no mass to size");
  EXPECT_EQ(errorOf({"--mass.type=none", "--physics.type=diffusion", "--solver.first-order=true"}),
            "mass.type = none applies to elasticity only, not to physics.type = diffusion");
  EXPECT_EQ(errorOf({"--mass.type=none", "--solver.newton=full"}),
            "mass.type = none: not with solver.newton = full (the linearized step is SOFA's)");
  EXPECT_EQ(errorOf({"--mass.type=none", "--lagrange.fixed=indices 0"}),
            "mass.type = none: not with Lagrangian constraints (lagrange.fixed): a massless "
            "body's constraint response is not supported");
  EXPECT_EQ(errorOf({"--mass.cell-factor=2"}),
            "mass.cell-factor applies to mass.type = hexahedron-fem(-lumped) only");
  EXPECT_EQ(errorOf({"--mass.total-mass-by-cells=2"}),
            "mass.total-mass-by-cells applies to mass.type = uniform only");
  EXPECT_EQ(
      errorOf({"--mass.type=uniform", "--mass.total-mass-by-cells=2", "--mass.vertex-mass=1"}),
      "mass.total-mass-by-cells and mass.total-mass or mass.vertex-mass both size the "
      "uniform mass: give one");
  EXPECT_TRUE(startsWith(
      errorOf({"--physics.type=diffusion", "--solver.first-order=true", "--mass.total-mass=2"}),
      "mass.total-mass"));
}

TEST(Scene, UnknownKeysAreErrors) {
  EXPECT_EQ(errorOf({"--solver.foo=1"}), "unknown option --solver.foo");
  EXPECT_EQ(errorOf({"--solver.foo", "1"}), "unknown option --solver.foo");
  // No abbreviations; a key within one edit in four letters is named.
  EXPECT_EQ(errorOf({"--solver.d=1"}), "unknown option --solver.d (did you mean --solver.dt?)");
  EXPECT_EQ(errorOf({"--solver.step=10"}),
            "unknown option --solver.step (did you mean --solver.steps?)");
  EXPECT_EQ(errorOf({"--soft/solver.stesp=10"}),
            "unknown option --soft/solver.stesp (did you mean --soft/solver.steps?)");
  EXPECT_EQ(errorOf({"--dt=1"}), "unknown option --dt");

  const IniFile unknownKey("[solver]\nfoo = 1\n");
  EXPECT_EQ(errorOf({"--config", unknownKey.path()}),
            "config file " + unknownKey.path() + ", line 2: unknown key solver.foo");
  const IniFile unknownSection("[mesh]\nrefine = 1\n[solvers]\ndt = 1\n");
  EXPECT_EQ(errorOf({"--config", unknownSection.path()}),
            "config file " + unknownSection.path() +
                ", line 4: unknown key solvers.dt (did you mean solver.dt?)");
}

TEST(Scene, MalformedCommandLinesAreErrors) {
  const std::string missing = errorOf({"--config", "/nonexistent/scene.ini"});
  EXPECT_NE(missing.find("/nonexistent/scene.ini"), std::string::npos) << missing;
  EXPECT_TRUE(startsWith(errorOf({"--solver.dt=1", "--solver.dt=2"}), "solver.dt"));
  EXPECT_NE(errorOf({"--solver.dt"}).find("--solver.dt"), std::string::npos);
  EXPECT_NE(errorOf({"--config"}).find("--config"), std::string::npos);
  EXPECT_EQ(errorOf({"--config=a.ini", "--config", "b.ini"}), "--config: given more than once");
  EXPECT_EQ(errorOf({"--help=1"}), "--help: takes no value");
  EXPECT_EQ(errorOf({"--"}), "unknown option --");
  const std::string directory = std::filesystem::temp_directory_path().string();
  EXPECT_EQ(errorOf({"--config", directory}),
            "config file " + directory + ": a directory, not a file");
  EXPECT_EQ(errorOf({"--config", "/dev/zero"}),
            "config file /dev/zero: not a regular file (a device, a pipe or a socket)");
  EXPECT_EQ(errorOf({"--config", "no-such.ini"}), "config file no-such.ini: no such file");
  EXPECT_NE(errorOf({"scene.ini"}).find("scene.ini"), std::string::npos);
  EXPECT_NE(errorOf({"-log_view", "x", "y"}).find("'y'"), std::string::npos);

  const IniFile duplicate("[solver]\ndt = 1\ndt = 2\n");
  EXPECT_TRUE(startsWith(errorOf({"--config", duplicate.path()}),
                         "config file " + duplicate.path() + ", line 3: solver.dt"));
}

TEST(Scene, PetscOptionsAreRoutedWithTheirValues) {
  const eis::CommandLine cl =
      parse({"-ksp_rtol", "1e-10", "--solver.dt=0.5", "-log_view", "-pc_type", "gamg"});
  EXPECT_EQ(cl.petscArgs, (Args{"-ksp_rtol", "1e-10", "-log_view", "-pc_type", "gamg"}));
  EXPECT_EQ(cl.scene.real("solver.dt"), 0.5);

  const eis::CommandLine negative = parse({"-mat_shift", "-1e-3", "-ksp_gmres_restart", "-1",
                                           "-log_view", "-ksp_monitor", "--solver.steps", "3"});
  EXPECT_EQ(negative.petscArgs,
            (Args{"-mat_shift", "-1e-3", "-ksp_gmres_restart", "-1", "-log_view", "-ksp_monitor"}));
  EXPECT_EQ(negative.scene.integer("solver.steps"), 3);

  // The value of one of our options is ours even when it starts with a dash.
  const eis::CommandLine ours = parse({"--load.gravity", "-1,0,0", "--solver.dt", "1e-3"});
  EXPECT_TRUE(ours.petscArgs.empty());
  EXPECT_EQ(ours.scene.real3("load.gravity"), (Vec3{-1, 0, 0}));
  EXPECT_EQ(ours.scene.real("solver.dt"), 1e-3);
}

TEST(Scene, DefaultFixedBoxOnlyForTheBuiltInBoxWithoutConstraints) {
  auto fixedBoxes = [](const Args& args) {
    return boxes(parse(args).scene, "constraint.fixed-box");
  };
  const std::vector<eis::Box> scaled = fixedBoxes({"--mesh.box-size=5 2 3"});
  ASSERT_EQ(scaled.size(), 1u);
  EXPECT_EQ(scaled[0].min, (Vec3{0, 0, 0}));
  EXPECT_EQ(scaled[0].max, (Vec3{0, 2, 3}));
  EXPECT_TRUE(scaled[0].contains({0, 2, 3}));
  EXPECT_FALSE(scaled[0].contains({1e-12, 1, 1}));

  const IniFile ini("[mesh]\nbox-size = 6 4 5\n");
  const std::vector<eis::Box> fromFile = fixedBoxes({"--config", ini.path()});
  ASSERT_EQ(fromFile.size(), 1u);
  EXPECT_EQ(fromFile[0].max, (Vec3{0, 4, 5}));

  EXPECT_TRUE(fixedBoxes({"--mesh.file=beam.msh"}).empty());
  EXPECT_TRUE(fixedBoxes({"--constraint.fixed-group=clamp"}).empty());
  const std::vector<eis::Box> given = fixedBoxes({"--constraint.fixed-box=1 1 1 0 0 0"});
  ASSERT_EQ(given.size(), 1u);
  EXPECT_EQ(given[0].min, (Vec3{0, 0, 0}));
  EXPECT_EQ(given[0].max, (Vec3{1, 1, 1}));
}

TEST(Scene, DiffusionRequiresFirstOrder) {
  EXPECT_EQ(errorOf({"--physics.type=diffusion"}),
            "physics.type = diffusion requires solver.first-order = true");
  EXPECT_EQ(errorOf({"--physics.type=diffusion", "--solver.first-order=false"}),
            "physics.type = diffusion requires solver.first-order = true");
  EXPECT_EQ(parse({"--physics.type=diffusion", "--solver.first-order=1"})
                .scene.choice("physics.type", eis::kPhysics),
            eis::Physics::Diffusion);
}

TEST(Scene, BooleansAcceptTheUsualWords) {
  for (const std::string yes : {"true", "1", "yes", "on", "True"})
    EXPECT_TRUE(parse({"--solver.trapezoidal=" + yes}).scene.boolean("solver.trapezoidal")) << yes;
  for (const std::string no : {"false", "0", "no", "off"})
    EXPECT_FALSE(parse({"--solver.trapezoidal=" + no}).scene.boolean("solver.trapezoidal")) << no;
}

TEST(Scene, HelpAndVersionFlags) {
  EXPECT_TRUE(parse({"--help"}).help);
  EXPECT_TRUE(parse({"--version"}).version);
  EXPECT_TRUE(parse({"--help", "--solver.dt=-1", "-log_view"}).help);  // no scene is read
  EXPECT_EQ(parse({"--help", "-log_view"}).petscArgs, Args{"-log_view"});
}

TEST(Scene, HelpMentionsEveryKeyAndTheDocumentedFacts) {
  const std::string help = eis::helpText(eis::knownComponents());
  for (const KeyCase& c : allKeys())
    EXPECT_NE(help.find("--" + c.key + "="), std::string::npos) << c.key;
  for (const std::string fact :
       {"mpiexec -n N euler-implicit [--config scene.ini | --scene scene.scn] [--quiet] "
        "[--section.key=value ...] [PETSc options]",
        "--config FILE",
        "--scene FILE",
        "--help",
        "--version",
        "--quiet",
        "-options_left",
        "-ksp_type",
        "-pc_type",
        "CG + GAMG",
        "Jacobi",
        "trapezoidalScheme",
        "FIRST order",
        "h w < 2",
        "||r||",
        "r.r",
        "DiagonalMass",
        "density*volume/4",
        "MeshMatrixMass",
        "f = M g",
        "BoxROI",
        "FixedProjectiveConstraint",
        "LinearMovementProjectiveConstraint",
        "id,x,y,z,vx,vy,vz",
        "id,u,du",
        "step,time,wall_seconds,linear_iterations,\n      nonlinear_iterations,residual,"
        "kinetic_energy,elastic_energy",
        "PVTU",
        "rank",
        "von Mises",
        "default: 0.01",
        "default: 20 4 4",
        "default: 0 -9.81 0",
        "default: lumped",
        "default: 0 0 0 0 LY LZ",
        "elastic_energy,pc_rebuilt,substeps",
        "KSPSetReusePreconditioner",
        "-snes_lag_preconditioner",
        "KSPSetInitialGuessNonzero",
        "solver.newton = linearized only",
        "-pc_hypre_boomeramg_*",
        "docs/linear-solvers.md"})
    EXPECT_NE(help.find(fact), std::string::npos) << fact;
}

TEST(Scene, DescribeListsEveryKey) {
  std::set<std::string> expected;
  for (const KeyCase& c : allKeys()) expected.insert(c.key);
  EXPECT_EQ(describedKeys(eis::describe(parse({}).scene)), expected);
  EXPECT_EQ(describedKeys(eis::describe(parse({"--mesh.file=a.msh"}).scene)), expected);
}

TEST(Scene, DescribeReadsBackAsTheSameScene) {
  const Scene original =
      parse({"--solver.dt=0.30000000000000004", "--material.young-modulus=123456.789e3",
             "--constraint.fixed-box=0 0 0 1 1 1", "--constraint.fixed-box=2 0 0 3 1 1",
             "--constraint.fixed-group=7", "--physics.type=diffusion", "--solver.first-order=on",
             "--output.vtk=" + (std::filesystem::temp_directory_path() / "out/run").string(),
             "--load.gravity=0.1 -0.2 1e-300"})
          .scene;
  const std::string text = eis::describe(original);
  const IniFile ini(text);
  const Scene reread = parse({"--config", ini.path()}).scene;
  EXPECT_EQ(eis::describe(reread), text);
  EXPECT_EQ(reread.real("solver.dt"), 0.1 + 0.2);
  EXPECT_EQ(reread.real3("load.gravity"), (Vec3{0.1, -0.2, 1e-300}));
  EXPECT_EQ(boxes(reread, "constraint.fixed-box").size(), 2u);
  EXPECT_NE(text.find("[solver]\n"), std::string::npos);
  EXPECT_NE(text.find("dt = 0.30000000000000004\n"), std::string::npos);
}

// A scene of several objects: keys NAME/section.key, in the config file as [NAME/section]. Each
// object takes the shared keys and its own, its own winning; the command line wins over the
// config file, for shared and own keys alike; objects in the order they first appear.
TEST(CommandLine, ObjectsNamedInTheConfigFileAndOnTheCommandLine) {
  const IniFile ini(
      "[solver]\nsteps = 7\n[material]\nyoung-modulus = 200\n"
      "[soft/material]\nyoung-modulus = 50\n[soft/mesh]\nfile = soft.msh\n"
      "[stiff/mass]\ntype = consistent\n[stiff/constraint]\nfixed = indices 1 2\n");
  const eis::CommandLine cl =
      parse({"--config", ini.path(), "--stiff/material.poisson-ratio=0.2",
             "--material.young-modulus=300", "--late/solver.rayleigh-mass", "0.5"});
  ASSERT_EQ(cl.objects.size(), 3u);
  EXPECT_EQ(cl.objects[0].path, "/soft");
  EXPECT_EQ(cl.objects[1].path, "/stiff");
  EXPECT_EQ(cl.objects[2].path, "/late");
  const Scene &soft = cl.objects[0].scene, &stiff = cl.objects[1].scene,
              &late = cl.objects[2].scene;
  // The object's own config key wins over the shared config key, but the shared command-line
  // key wins over both.
  EXPECT_EQ(soft.real("material.young-modulus"), 300);
  EXPECT_EQ(path(soft, "mesh.file"), (ini.folder() / "soft.msh").string());
  EXPECT_EQ(stiff.real("material.poisson-ratio"), 0.2);
  EXPECT_EQ(stiff.text("mass.type"), "consistent");
  EXPECT_EQ(soft.text("mass.type"), "lumped");
  EXPECT_EQ(stiff.texts("constraint.fixed"), Args{"indices 1 2"});
  EXPECT_TRUE(soft.texts("constraint.fixed").empty());
  for (const Scene* s : {&soft, &stiff, &late}) EXPECT_EQ(s->integer("solver.steps"), 7);
  EXPECT_EQ(late.real("solver.rayleigh-mass"), 0.5);
  EXPECT_EQ(soft.real("solver.rayleigh-mass"), 0);
  // No object named: the one scene, as before.
  EXPECT_TRUE(parse({"--solver.steps=3"}).objects.empty());
}

// Values that only fail in the first solve, with PETSc's words, are refused up front with the
// key and the reason.
TEST(Scene, ValuesThatWouldFailTheFirstSolveAreRefused) {
  EXPECT_EQ(errorOf({"--mesh.box-size=1e308 1e308 1e308"}),
            "mesh.box-size = 1e308 1e308 1e308: the box's volume overflows a double");
  EXPECT_EQ(errorOf({"--solver.dt=1e300"}), "solver.dt = 1e300: h^2 overflows a double");
  EXPECT_EQ(
      errorOf({"--mesh.transform=matrix 1 0 0 0  0 1 0 0  1 0 0 0"}),
      "mesh.transform = matrix 1 0 0 0  0 1 0 0  1 0 0 0: the matrix's 3 x 3 part is singular "
      "(determinant 0): it flattens the mesh");
  EXPECT_EQ(errorOf({"--mesh.box-size=1e100 1e100 1e100", "--solver.dt=1e150"}), "");
}

TEST(CommandLine, ObjectKeysAreCheckedAsTheirKeys) {
  EXPECT_EQ(errorOf({"--soft/material.young-modulus=-1"}),
            "object soft: material.young-modulus = -1: must be > 0");
  EXPECT_EQ(errorOf({"--soft/material.nosuch=1"}), "unknown option --soft/material.nosuch");
  EXPECT_EQ(errorOf({"--so ft/material.young-modulus=1"}),
            "'so ft/material.young-modulus': an object's name (before '/') is letters, digits, "
            "'_' and '-'");
  EXPECT_EQ(errorOf({"--soft/help"}), "unknown option --soft/help");
  EXPECT_EQ(errorOf({"--soft/solver.dt=1", "--soft/solver.dt=2"}),
            "object soft: solver.dt: given more than once");
  EXPECT_TRUE(startsWith(errorOf({"--scene.file=a.scn", "--soft/solver.dt=1"}),
                         "keys of named objects (NAME/section.key)"));
}

}  // namespace
