// The Python front end from C++ (io/sofa_python_scene.hpp): python3 runs the driver found beside
// the executable; a scene gives its XML, a broken one one eis::Error naming its file and line.
#include "eis/io/sofa_python_scene.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
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

  std::string errorOf(const std::string& text, double seconds = 120,
                      const std::function<int()>& stop = nullptr) {
    const std::string path = write(text);
    try {
      eis::sofaPythonSceneToXml(path, seconds, stop);
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
  EXPECT_EQ(eis::sofaPythonSceneToXml(path, 120),
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
    eis::sofaPythonSceneToXml(path, 120);
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
    eis::sofaPythonSceneToXml(path, 120);
  } catch (const eis::Error& e) {
    message = e.what();
  }
  setenv("PATH", old.c_str(), 1);
  EXPECT_EQ(message,
            "scene.file = " + path + ": a Python scene needs python3 on PATH, which is not there");
}

TEST_F(SofaPythonScene, SysExitInCreateSceneNamesItsLineAndStatus) {
  EXPECT_EQ(errorOf("import sys\ndef createScene(root):\n    sys.exit(3)\n"),
            (folder_ / "scene.py").string() +
                ":3: the scene exited (status 3) before createScene returned");
}

TEST_F(SofaPythonScene, OsExitInCreateSceneNamesItsLineAndStatus) {
  EXPECT_EQ(errorOf("import os\ndef createScene(root):\n    os._exit(0)\n"),
            (folder_ / "scene.py").string() +
                ":3: the scene exited (status 0) before createScene returned");
}

TEST_F(SofaPythonScene, KeyboardInterruptIsAClearMessage) {
  EXPECT_EQ(errorOf("def createScene(root):\n    raise KeyboardInterrupt\n"),
            (folder_ / "scene.py").string() +
                ":2: the scene was interrupted (KeyboardInterrupt) before createScene returned");
}

// Python's recursion limit is 1,000: the driver writes the graph in a loop, so 98 levels (the
// most SOFA's XML parser reads) work and 5,000 are refused by depth, not by a RecursionError.
TEST_F(SofaPythonScene, DeepGraphIsWrittenOrRefusedByItsDepth) {
  const std::string deep =
      "def createScene(root):\n    node = root\n    for k in range(%d):\n"
      "        node = node.addChild('n%%d' %% k)\n";
  char text[200];
  std::snprintf(text, sizeof text, deep.c_str(), 97);
  const std::string xml = eis::sofaPythonSceneToXml(write(text), 120);
  EXPECT_NE(xml.find("name=\"n96\""), std::string::npos);
  std::snprintf(text, sizeof text, deep.c_str(), 5000);
  EXPECT_EQ(errorOf(text), (folder_ / "scene.py").string() +
                               ":4: node n97 is nested deeper than 98 nodes, the limit of SOFA's "
                               "XML parser (tinyxml2)");
}

TEST_F(SofaPythonScene, EndlessSceneIsKilledAtItsTimeLimit) {
  const auto start = std::chrono::steady_clock::now();
  const std::string message = errorOf(
      "import os\ndef createScene(root):\n"
      "    open(os.path.join(os.path.dirname(__file__), 'pid'), 'w').write(str(os.getpid()))\n"
      "    while True:\n        pass\n",
      3);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
  EXPECT_EQ(message, "scene.file = " + (folder_ / "scene.py").string() +
                         ": createScene did not return within 3 s (scene.python-timeout); "
                         "python3 killed (an endless loop in the scene?)");
  std::ifstream pid(folder_ / "pid");
  int id = 0;
  ASSERT_TRUE(pid >> id);
  EXPECT_NE(kill(id, 0), 0);  // gone, and reaped
}

TEST_F(SofaPythonScene, StopSignalKillsTheSceneAtOnce) {
  const auto start = std::chrono::steady_clock::now();
  const std::string message =
      errorOf("def createScene(root):\n    while True:\n        pass\n", 120, [&] {
        return std::chrono::steady_clock::now() - start > std::chrono::milliseconds(300) ? SIGTERM
                                                                                         : 0;
      });
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
  EXPECT_EQ(message, "scene.file = " + (folder_ / "scene.py").string() +
                         ": stopped by signal 15 (Terminated) while python3 ran createScene; "
                         "python3 killed");
}

}  // namespace
