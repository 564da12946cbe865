// Output paths (io/output_file.hpp): missing folders are created, unusable paths are refused
// naming the key and the path, and replaceFile leaves either the old file or the whole new one,
// never its temporary.
#include "eis/io/output_file.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "eis/core/error.hpp"

namespace fs = std::filesystem;

namespace {

class OutputFile : public ::testing::Test {
protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "eis_output_file.XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string at(const std::string& name) const { return (dir_ / name).string(); }

  fs::path dir_;
};

std::string contents(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void writeText(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
}

// The message of the eis::Error that `call` throws; empty when it throws none.
template <class Call>
std::string errorOf(Call call) {
  try {
    call();
  } catch (const eis::Error& e) {
    return e.what();
  }
  return "";
}

TEST_F(OutputFile, CreatesTheMissingFoldersOfAFile) {
  for (auto mode : {eis::FileWrite::InPlace, eis::FileWrite::Replaced}) {
    const std::string path = at(mode == eis::FileWrite::InPlace ? "a/b/h.csv" : "c/d/s.csv");
    eis::prepareOutputFile("output.x", path, mode, MPI_COMM_WORLD);
    EXPECT_TRUE(fs::is_directory(fs::path(path).parent_path()));
    EXPECT_FALSE(fs::exists(path)) << "only the folders are made";
    EXPECT_FALSE(fs::exists(eis::temporaryPathFor(path))) << "the probe is removed";
  }
}

TEST_F(OutputFile, AcceptsAnExistingFileAndADeviceWrittenInPlace) {
  writeText(at("old.csv"), "old");
  eis::prepareOutputFile("output.x", at("old.csv"), eis::FileWrite::Replaced, MPI_COMM_WORLD);
  EXPECT_EQ(contents(at("old.csv")), "old");
  EXPECT_EQ(errorOf([] {
              eis::prepareOutputFile("output.x", "/dev/null", eis::FileWrite::InPlace,
                                     MPI_COMM_WORLD);
            }),
            "");
}

TEST_F(OutputFile, RefusesADirectoryNamingKeyAndPath) {
  for (auto mode : {eis::FileWrite::InPlace, eis::FileWrite::Replaced})
    EXPECT_EQ(errorOf([&] { eis::prepareOutputFile("output.x", at(""), mode, MPI_COMM_WORLD); }),
              "output.x = " + at("") + ": is a directory");
}

TEST_F(OutputFile, RefusesAFolderThatIsAFile) {
  writeText(at("plain"), "");
  const std::string message = errorOf([&] {
    eis::prepareOutputFile("output.x", at("plain/s.csv"), eis::FileWrite::Replaced, MPI_COMM_WORLD);
  });
  EXPECT_EQ(message.rfind("output.x = " + at("plain/s.csv") + ": cannot create the folder", 0), 0u)
      << message;
  EXPECT_NE(errorOf([&] {
              eis::prepareOutputFolder("output.vtk", "p/beam", at("plain/p"), MPI_COMM_WORLD);
            }).find("output.vtk = p/beam: cannot create the folder"),
            std::string::npos);
}

TEST_F(OutputFile, RefusesToReplaceADevice) {
  EXPECT_NE(errorOf([] {
              eis::prepareOutputFile("output.x", "/dev/null", eis::FileWrite::Replaced,
                                     MPI_COMM_WORLD);
            }).find("output.x = /dev/null: exists and is not a regular file"),
            std::string::npos);
}

TEST_F(OutputFile, PrepareFolderCreatesItAndAcceptsTheWorkingDirectory) {
  eis::prepareOutputFolder("output.vtk", "x/y/beam", at("x/y"), MPI_COMM_WORLD);
  EXPECT_TRUE(fs::is_directory(at("x/y")));
  EXPECT_EQ(errorOf([] { eis::prepareOutputFolder("output.vtk", "beam", "", MPI_COMM_WORLD); }),
            "");
}

TEST_F(OutputFile, ReplaceFileWritesTheWholeContentAndNoTemporary) {
  writeText(at("s.csv"), "old content that is longer than the new one\n");
  EXPECT_EQ(
      eis::replaceFile("output.x", at("s.csv"), [](std::FILE* file) { std::fputs("new\n", file); }),
      "");
  EXPECT_EQ(contents(at("s.csv")), "new\n");
  EXPECT_FALSE(fs::exists(eis::temporaryPathFor(at("s.csv"))));
}

TEST_F(OutputFile, ReplaceFileThatFailsLeavesTheTargetAndNoTemporary) {
  // A non-empty folder cannot be renamed over: the write fails at its last stage.
  fs::create_directories(at("target/inside"));
  const std::string message = eis::replaceFile("output.x", at("target"),
                                               [](std::FILE* file) { std::fputs("new\n", file); });
  EXPECT_EQ(message.rfind("output.x = " + at("target") + ": write failed: ", 0), 0u) << message;
  EXPECT_TRUE(fs::is_directory(at("target/inside")));
  EXPECT_FALSE(fs::exists(eis::temporaryPathFor(at("target"))));
}

TEST_F(OutputFile, ReplaceFileWithoutItsFolderNamesTheTemporary) {
  const std::string message = eis::replaceFile("output.x", at("missing/s.csv"),
                                               [](std::FILE* file) { std::fputs("x", file); });
  EXPECT_NE(message.find("output.x = " + at("missing/s.csv") + ": cannot create '" +
                         eis::temporaryPathFor(at("missing/s.csv")) + "'"),
            std::string::npos)
      << message;
}

}  // namespace
