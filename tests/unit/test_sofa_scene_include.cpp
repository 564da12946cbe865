// Tests of <include href="..."/> in SOFA scenes, as SOFA's XML loader handles it: the file found
// beside the including one, then in the data paths; its root added as a child, given as a group
// ("Group") or merged ("_Merge_"); the include's attributes renaming the root and replacing the
// fields of the objects below; places in the included file; cycles, missing files and SOFA's
// object templates refused with file and line. The scenes are written to a temporary folder.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <string>

#include "eis/core/error.hpp"
#include "eis/io/sofa_scene.hpp"
#include "error_of.hpp"

namespace {

namespace fs = std::filesystem;
using eis::SofaNode;
using eis::SofaObject;
using eis::SofaScene;
using eis::SofaSceneFiles;

using eis_test::errorOf;

// A fresh folder for one test's files, removed with them at the end.
class Folder {
public:
  explicit Folder(const std::string& name)
      : path_(
            (fs::temp_directory_path() / ("eis_include_" + name + "_" + std::to_string(::getpid())))
                .string()) {
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~Folder() { fs::remove_all(path_); }

  // Writes the file (its folders created) and returns its path.
  std::string write(const std::string& relative, const std::string& text) const {
    const fs::path file = fs::path(path_) / relative;
    fs::create_directories(file.parent_path());
    std::ofstream(file) << text;
    return file.string();
  }
  std::string operator/(const std::string& relative) const {
    return (fs::path(path_) / relative).string();
  }

private:
  std::string path_;
};

// The scene of the file at `path`, read from disk as sceneFromSofa reads it.
SofaScene sceneOf(const std::string& path, const SofaSceneFiles& files = {}) {
  return SofaScene(*eis::sofaSceneFileText(path), path, files);
}

TEST(SofaScene, IncludeAddsTheFilesRootAsAChildWithItsPlaces) {
  const Folder dir("child");
  const std::string main = dir.write("scenes/main.scn",
                                     "<Node name=\"root\">\n"
                                     "  <A name=\"first\"/>\n"
                                     "  <include href=\"parts/beam.xml\"/>\n"
                                     "  <B name=\"last\"/>\n"
                                     "</Node>\n");
  dir.write("scenes/parts/beam.xml",
            "<Node name=\"beam\">\n  <MechanicalObject name=\"dofs\" position=\"0 0 0\"/>\n"
            "  <include href=\"mass.xml\"/>\n</Node>\n");
  dir.write("scenes/parts/mass.xml", "\n<UniformMass totalMass=\"2\"/>\n");
  const SofaScene scene = sceneOf(main);
  const SofaNode& root = scene.root();
  ASSERT_EQ(root.objects.size(), 2u);
  EXPECT_EQ(root.objects[1].name, "last");
  ASSERT_EQ(root.children.size(), 1u);
  const SofaNode& beam = *root.children[0];
  EXPECT_EQ(beam.name, "beam");
  EXPECT_EQ(beam.parent, &root);
  EXPECT_EQ(beam.where, dir / "scenes/parts/beam.xml" + ":1");
  ASSERT_EQ(beam.objects.size(), 2u);
  EXPECT_EQ(beam.objects[0].where, dir / "scenes/parts/beam.xml" + ":2");
  EXPECT_EQ(beam.objects[0].node, &beam);
  // The nested include is found beside the file that includes it.
  EXPECT_EQ(beam.objects[1].type, "UniformMass");
  EXPECT_EQ(beam.objects[1].where, dir / "scenes/parts/mass.xml" + ":2");
  EXPECT_EQ(scene.resolve(root, "@beam/dofs", "t").object, &beam.objects[0]);
}

TEST(SofaScene, IncludeAttributesRenameTheRootAndReplaceObjectFields) {
  const Folder dir("replace");
  dir.write("part.xml",
            "<Node name=\"part\" gravity=\"0 0 0\">\n"
            "  <MechanicalObject name=\"dofs\" position=\"0 0 0\"/>\n"
            "  <UniformMass name=\"mass\" totalMass=\"1\"/>\n"
            "  <DiagonalMass name=\"other\" totalMass=\"1\"/>\n"
            "</Node>\n");
  const std::string main = dir.write(
      "main.scn",
      "<Node>\n  <include href=\"part.xml\" name=\"liver\" gravity=\"1 1 1\" totalMass=\"5\"\n"
      "           other__totalMass=\"7\" absent=\"9\"/>\n</Node>\n");
  const SofaScene scene = sceneOf(main);
  const SofaNode& liver = *scene.root().children.at(0);
  EXPECT_EQ(liver.name, "liver");
  // SOFA applies the replacements to objects only, and only to fields they have.
  EXPECT_EQ(*liver.field("gravity"), "0 0 0");
  EXPECT_EQ(*liver.objects[1].field("totalMass"), "5");
  EXPECT_EQ(*liver.objects[2].field("totalMass"), "7");
  EXPECT_EQ(liver.objects[0].field("totalMass"), nullptr);
  EXPECT_EQ(liver.objects[0].field("absent"), nullptr);
}

TEST(SofaScene, IncludedGroupGivesItsChildrenAndMergeMergesThem) {
  const Folder dir("group");
  dir.write("group.xml",
            "<Node name=\"Group\" dt=\"9\">\n  <A name=\"a\"/>\n  <Node name=\"n\"/>\n</Node>\n");
  dir.write("renamed.xml", "<Node name=\"x\">\n  <C/>\n</Node>\n");
  dir.write("merge.xml",
            "<Node name=\"_Merge_\" dt=\"0.5\">\n"
            "  <MechanicalObject name=\"dofs\" position=\"1 2 3\"/>\n"
            "  <B name=\"b\"/>\n"
            "  <Node name=\"body\"><D/></Node>\n"
            "</Node>\n");
  const std::string main = dir.write("main.scn",
                                     "<Node name=\"root\" dt=\"0.1\">\n"
                                     "  <MechanicalObject name=\"dofs\" template=\"Vec3d\"/>\n"
                                     "  <Node name=\"body\"><E/></Node>\n"
                                     "  <include href=\"group.xml\"/>\n"
                                     "  <include href=\"renamed.xml\" name=\"_Group_\"/>\n"
                                     "  <include href=\"merge.xml\"/>\n"
                                     "</Node>\n");
  const SofaScene scene = sceneOf(main);
  const SofaNode& root = scene.root();
  EXPECT_EQ(*root.field("dt"), "0.5");  // the merged root's data, not the group's
  ASSERT_EQ(root.objects.size(), 4u);
  EXPECT_EQ(*root.objects[0].field("template"), "Vec3d");
  EXPECT_EQ(*root.objects[0].field("position"), "1 2 3");
  EXPECT_EQ(root.objects[1].name, "a");
  EXPECT_EQ(root.objects[1].node, &root);
  EXPECT_EQ(root.objects[1].where, dir / "group.xml" + ":2");
  EXPECT_EQ(root.objects[2].type, "C");
  EXPECT_EQ(root.objects[3].name, "b");
  ASSERT_EQ(root.children.size(), 2u);
  EXPECT_EQ(root.children[1]->name, "n");
  EXPECT_EQ(root.children[1]->parent, &root);
  const SofaNode& body = *root.children[0];
  ASSERT_EQ(body.objects.size(), 2u);
  EXPECT_EQ(body.objects[0].type, "E");
  EXPECT_EQ(body.objects[1].type, "D");
  EXPECT_EQ(body.objects[1].node, &body);
}

TEST(SofaScene, IncludedFilesAreFoundBesideTheSceneThenInEachDataPath) {
  const Folder dir("paths");
  dir.write("data1/part.xml", "<A/>");
  dir.write("data2/part.xml", "<B/>");
  dir.write("data2/only2.xml", "<C/>");
  const std::string main =
      dir.write("scene/main.scn",
                "<Node>\n<include href=\"part.xml\"/>\n<include href=\"only2.xml\"/>\n"
                "</Node>");
  SofaSceneFiles files;
  files.dataPaths = {dir / "data1", dir / "data2"};
  const SofaScene fromData = sceneOf(main, files);
  EXPECT_EQ(fromData.root().objects.at(0).type, "A");
  EXPECT_EQ(fromData.root().objects.at(1).type, "C");
  EXPECT_EQ(fromData.root().objects.at(1).where, dir / "data2/only2.xml" + ":1");
  dir.write("scene/part.xml", "<D/>");
  EXPECT_EQ(sceneOf(main, files).root().objects.at(0).type, "D");
}

// sceneFromSofa's ranks other than 0 read no file: they are given rank 0's texts.
TEST(SofaScene, IncludedFilesComeFromTheGivenReader) {
  const std::map<std::string, std::string> texts = {{"parts/a.xml", "<A/>"}};
  SofaSceneFiles files;
  files.read = [&texts](const std::string& path) -> std::optional<std::string> {
    const auto found = texts.find(path);
    if (found == texts.end()) return std::nullopt;
    return found->second;
  };
  const SofaScene scene("<Node>\n<include href='a.xml'/></Node>", "parts/s.scn", files);
  EXPECT_EQ(scene.root().objects.at(0).where, "parts/a.xml:1");
  // An include at the root gives the root.
  const SofaScene rooted("<include href='n.xml'/>", "parts/s.scn", [&] {
    SofaSceneFiles f = files;
    f.read = [](const std::string& path) -> std::optional<std::string> {
      if (path == "parts/n.xml") return "<Node name='n'/>";
      return std::nullopt;
    };
    return f;
  }());
  EXPECT_EQ(rooted.root().name, "n");
}

TEST(SofaScene, IncludeErrorsNameFileAndLine) {
  const Folder dir("errors");
  const std::string main = dir / "main.scn";
  const std::string folder = fs::path(main).parent_path().string();
  dir.write("a.xml", "<Node>\n  <include href=\"b.xml\"/>\n</Node>");
  dir.write("b.xml", "<Node>\n\n  <include href=\"a.xml\"/>\n</Node>");
  dir.write("bad.xml", "<Node>\n  <A x=1/>\n</Node>");
  const auto errorFor = [&](const std::string& text, const SofaSceneFiles& files = {}) {
    return errorOf([&] { SofaScene(text, main, files); });
  };
  EXPECT_EQ(errorFor("<Node>\n<include/></Node>"),
            main + ":2: <include> without the file to include (href)");
  EXPECT_EQ(errorFor("<Node>\n<include href=\"none.xml\"/></Node>"),
            main + ":2: <include href=\"none.xml\">: no such file in " + folder);
  SofaSceneFiles withData;
  withData.dataPaths = {dir / "data"};
  EXPECT_EQ(errorFor("<Node>\n<include href=\"none.xml\"/></Node>", withData),
            main + ":2: <include href=\"none.xml\">: no such file in " + folder +
                " or any scene.data-path");
  EXPECT_EQ(errorFor("<Node>\n<include href=\"a.xml\"/></Node>"),
            dir / "b.xml" + ":3: <include href=\"a.xml\">: " + dir / "a.xml" +
                " includes itself (" + main + " -> " + dir / "a.xml" + " -> " + dir / "b.xml" +
                " -> " + dir / "a.xml" + ")");
  const std::string self = dir.write("self.scn", "<Node>\n  <include href=\"self.scn\"/>\n</Node>");
  EXPECT_EQ(errorOf([&] { sceneOf(self); }), self + ":2: <include href=\"self.scn\">: " + self +
                                                 " includes itself (" + self + " -> " + self + ")");
  // A malformed included file is named with its own line.
  EXPECT_EQ(errorFor("<Node>\n<include href=\"bad.xml\"/></Node>").rfind(dir / "bad.xml:2: ", 0),
            0u);
  EXPECT_EQ(errorFor("<include href=\"bad.xml\" />").rfind(dir / "bad.xml:2: ", 0), 0u);
  dir.write("object.xml", "\n<A/>");
  EXPECT_EQ(errorFor("<include href=\"object.xml\"/>"),
            dir / "object.xml" + ":2: the root element is <A>; a SOFA scene's is <Node>");
}

// SOFA expands <BoxConstraint .../> from Objects/BoxConstraint.xml only when it has no component
// of that name, which depends on its component registry: refused by name instead.
// SOFA's object templates: <TYPE .../> or <Object type="TYPE" .../> with Objects/TYPE.xml in
// reach is an include of it with the element's attributes; "@[-1]" in the template is the object
// before the one that holds the link, in its node.
TEST(SofaScene, ObjectTemplatesAreIncludedWithTheElementsAttributes) {
  const Folder dir("templates");
  dir.write("share/Objects/BoxConstraint.xml",
            "<Node name=\"Group\">\n  <BoxROI name=\"box_roi\" box=\"0 0 0 1 1 1\"/>\n"
            "  <FixedProjectiveConstraint indices=\"@[-1].indices\"/>\n</Node>\n");
  const std::string main =
      dir.write("scene/main.scn",
                "<Node>\n  <MechanicalObject/>\n  <BoxConstraint box=\"0 0 0 2 2 2\"/>\n"
                "  <Object type=\"BoxConstraint\"/>\n</Node>\n");
  SofaSceneFiles files;
  files.dataPaths = {dir / "share"};
  const SofaScene scene = sceneOf(main, files);
  const auto& objects = scene.root().objects;
  ASSERT_EQ(objects.size(), 5u);
  EXPECT_EQ(objects[1].type, "BoxROI");
  ASSERT_NE(objects[1].field("box"), nullptr);
  EXPECT_EQ(*objects[1].field("box"), "0 0 0 2 2 2");
  EXPECT_EQ(*objects[3].field("box"), "0 0 0 1 1 1");
  EXPECT_EQ(objects[2].where, (dir / "share/Objects/BoxConstraint.xml") + ":3");
  // [-1] from each constraint: the box just before it, not the last one of the node.
  for (std::size_t c : {2u, 4u}) {
    const eis::SofaLinkTarget t =
        scene.resolve(scene.root(), *objects[c].field("indices"), "w", &objects[c]);
    EXPECT_EQ(t.object, &objects[c - 1]);
    EXPECT_EQ(t.field, "indices");
  }
  EXPECT_NE(errorOf([&] {
              scene.resolve(scene.root(), "@[-9]", "w", &objects[2]);
            }).find("fewer objects than that before it"),
            std::string::npos);
  // Without the template file in reach, the element is an object like any other.
  EXPECT_EQ(sceneOf(main).root().objects.at(1).type, "BoxConstraint");
}

}  // namespace
