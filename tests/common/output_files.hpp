#pragma once
// Scaffolding the MPI tests of the files a run writes share (test_vtk_series, test_history_csv,
// test_state_csv): the built-in box from docs/architecture.md's formula, the small scenes they run,
// reading the CSV files back (rank 0), and writing an initial state for the bar.
#include <algorithm>
#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "mpi_support.hpp"
#include "scene_fields.hpp"

namespace eis_test {

// ---------------------------------------------------------------------------------------------
// The built-in box, from docs/architecture.md's formula (not from the library's builder).

struct BoxGeometry {
  std::array<double, 3> size;
  std::array<int, 3> cells;
  std::int64_t numNodes() const {
    return std::int64_t(cells[0] + 1) * (cells[1] + 1) * (cells[2] + 1);
  }
  std::int64_t numTets() const { return 6 * std::int64_t(cells[0]) * cells[1] * cells[2]; }
  std::int64_t id(int i, int j, int k) const {
    return i + std::int64_t(cells[0] + 1) * (j + std::int64_t(cells[1] + 1) * k);
  }
  // Rest position of node `id`: (i Lx/nx, j Ly/ny, k Lz/nz).
  std::array<double, 3> rest(std::int64_t id) const {
    return eis_test::boxRestPosition(size, cells, id);
  }
  // The six tetrahedra of every hexahedron around its v0-v6 diagonal, each as its sorted node ids
  // (orientation swaps do not change the set).
  std::vector<std::array<std::int64_t, 4>> sortedTets() const;
};

inline BoxGeometry geometryOf(const eis_test::SceneFields& scene) {
  return {scene.boxSize, scene.boxCells};
}

// ---------------------------------------------------------------------------------------------
// Scenes

// A small cantilever under gravity: 6x2x2 hexahedra, 4 steps, the series every 2 steps.
eis_test::SceneFields smallBeam();

// A bar with both ends held (at the values its initial state gives them), first order in time.
eis_test::SceneFields smallBar();

// ---------------------------------------------------------------------------------------------
// CSV reading (rank 0)

// The lines of a file (a failure, and none, when it cannot be read).
std::vector<std::string> lines(const std::filesystem::path& path);

// The comma-separated fields of a line.
std::vector<std::string> split(const std::string& line);

// The whole field as a number; false (with `value` untouched) when any of it is not.
bool parseNumber(const std::string& text, double& value);

// A final-state CSV as id -> row, checked for its form on the way.
struct StateFile {
  std::vector<std::string> header;
  std::vector<std::int64_t> ids;
  std::vector<double> values;  // width per row
  std::vector<std::string> texts;
  int width = 0;
  const double* find(std::int64_t id) const {
    auto it = std::lower_bound(ids.begin(), ids.end(), id);
    return it == ids.end() || *it != id ? nullptr : values.data() + (it - ids.begin()) * width;
  }
};

// Reads a final-state CSV; a malformed line is a failure that names it (and ends the reading).
StateFile readStateFile(const std::filesystem::path& path);

// ---------------------------------------------------------------------------------------------
// Initial states

// Rank 0: an initial `id,u,du` state for the bar: a field that is not a mode, with non-zero
// values on the held ends, and a rate that a first-order step does not use. 0 when it fails.
int writeBarInitialState(const std::string& path, const BoxGeometry& box);

}  // namespace eis_test
