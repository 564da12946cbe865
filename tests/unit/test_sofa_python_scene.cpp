// The Python front end from C++ (io/sofa_python_scene.hpp): python3 runs the driver found beside
// the executable; a scene gives its XML, a broken one one eis::Error naming its file and line.
#include "eis/io/sofa_python_scene.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "eis/core/error.hpp"

namespace fs = std::filesystem;

namespace {

class SofaPythonScene : public ::testing::Test {
protected:
  void SetUp() override {
    folder_ = fs::temp_directory_path() / ("eis-python-scene-" + std::to_string(getpid()));
    fs::create_directories(folder_);
  }
  void TearDown() override { fs::remove_all(folder_); }

  std::string write(const std::string& text) {
    const std::string path = (folder_ / "scene.py").string();
    std::ofstream(path) << text;
    return path;
  }

  std::string errorOf(const std::string& text) {
    const std::string path = write(text);
    try {
      eis::sofaPythonSceneToXml(path);
    } catch (const eis::Error& e) {
      return e.what();
    }
    return "no error";
  }

  fs::path folder_;
};

TEST_F(SofaPythonScene, GivesTheXmlOfTheGraph) {
  const std::string path = write(
      "import Sofa.Core\n"
      "def createScene(root):\n"
      "    root.dt = 0.5\n"
      "    root.addChild('beam').addObject('MechanicalObject', name='dofs', position=[1, 2.5])\n");
  EXPECT_EQ(eis::sofaPythonSceneToXml(path),
            "<?xml version=\"1.0\"?>\n"
            "<Node name=\"root\" dt=\"0.5\" eis-source=\"" +
                path +
                ":2\">\n"
                "  <Node name=\"beam\" eis-source=\"" +
                path +
                ":4\">\n"
                "    <MechanicalObject name=\"dofs\" position=\"1 2.5\" eis-source=\"" +
                path +
                ":4\"/>\n"
                "  </Node>\n"
                "</Node>\n");
}

TEST_F(SofaPythonScene, SyntaxErrorIsOneLineWithFileAndLine) {
  EXPECT_EQ(errorOf("def createScene(root):\n    root.addObject('A'\n"),
            (folder_ / "scene.py").string() + ":2: SyntaxError: '(' was never closed");
}

TEST_F(SofaPythonScene, MissingCreateSceneIsNamed) {
  EXPECT_EQ(errorOf("x = 1\n"),
            (folder_ / "scene.py").string() + ": the scene defines no createScene(rootNode)");
}

TEST_F(SofaPythonScene, ExceptionInsideCreateSceneNamesItsLine) {
  EXPECT_EQ(errorOf("def createScene(root):\n    root.addObject('A')\n    1 / 0\n"),
            (folder_ / "scene.py").string() + ":3: ZeroDivisionError: division by zero");
}

TEST_F(SofaPythonScene, MissingFileIsRefusedByName) {
  const std::string path = (folder_ / "none.py").string();
  try {
    eis::sofaPythonSceneToXml(path);
    FAIL() << "no error";
  } catch (const eis::Error& e) {
    EXPECT_EQ(std::string(e.what()), "scene.file = " + path + ": no such file");
  }
}

TEST_F(SofaPythonScene, NoPython3OnPathIsAClearError) {
  const std::string path = write("def createScene(root):\n    pass\n");
  const char* saved = getenv("PATH");
  const std::string old = saved ? saved : "";
  setenv("PATH", folder_.c_str(), 1);
  std::string message = "no error";
  try {
    eis::sofaPythonSceneToXml(path);
  } catch (const eis::Error& e) {
    message = e.what();
  }
  setenv("PATH", old.c_str(), 1);
  EXPECT_EQ(message,
            "scene.file = " + path + ": a Python scene needs python3 on PATH, which is not there");
}

}  // namespace
