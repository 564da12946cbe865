#pragma once
// What the mesh reader tests share: a mesh file written from a string (removed when the test is
// done), and the check that reading one fails with a message naming the file and the cause.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "eis/core/error.hpp"

namespace eis::test {

class TempFile {
public:
  TempFile(const std::string& name, const std::string& text)
      : path_(testing::TempDir() + "eis_mesh_" + name) {
    std::ofstream(path_, std::ios::binary) << text;
  }
  ~TempFile() { std::filesystem::remove(path_); }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  const std::string& path() const { return path_; }

private:
  std::string path_;
};

// Reads `text`, written as a file named `name`, with `read` (a reader taking the path), and
// checks that it fails with a message holding the file name and each fragment.
template <class Reader>
void expectReadError(Reader read, const std::string& name, const std::string& text,
                     const std::vector<std::string>& fragments) {
  const TempFile file(name, text);
  try {
    read(file.path());
    ADD_FAILURE() << name << ": no error";
  } catch (const eis::Error& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find(name), std::string::npos) << message;
    for (const auto& fragment : fragments)
      EXPECT_NE(message.find(fragment), std::string::npos)
          << "'" << fragment << "' not in: " << message;
  }
}

}  // namespace eis::test
