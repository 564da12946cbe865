// The files a run writes, read back on 1, 2 and 3 ranks: the ParaView time series (every output
// step listed with its time, one piece per rank, the pieces together covering the mesh once and
// agreeing with the final state), the history CSV, the final-state CSV (exactly the gathered
// state, fixed nodes held exactly), and initial.state (4 steps = 2 steps, write, read, 2 more
// steps) for elasticity and for diffusion.
//
// Every rank runs the simulations (they are collective); rank 0 alone reads the files back, after
// the last collective call of a test, so that an ASSERT there can never leave the others waiting.
#include <gtest/gtest.h>
#include <petscsys.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "eis/app/simulation.hpp"
#include "mpi_support.hpp"
#include "vtu_reader.hpp"

namespace fs = std::filesystem;

namespace {

constexpr double kPi = 3.14159265358979323846;

using eis_test::root;
using eis_test::run;
using eis_test::sizeOf;

// ---------------------------------------------------------------------------------------------
// The built-in box, from DESIGN.md's formula (not from the library's builder).

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
  std::vector<std::array<std::int64_t, 4>> sortedTets() const {
    std::vector<std::array<std::int64_t, 4>> tets;
    static const int split[6][4] = {{0, 1, 2, 6}, {0, 2, 3, 6}, {0, 3, 7, 6},
                                    {0, 7, 4, 6}, {0, 4, 5, 6}, {0, 5, 1, 6}};
    for (int k = 0; k < cells[2]; ++k)
      for (int j = 0; j < cells[1]; ++j)
        for (int i = 0; i < cells[0]; ++i) {
          const std::int64_t v[8] = {id(i, j, k),         id(i + 1, j, k),     id(i + 1, j + 1, k),
                                     id(i, j + 1, k),     id(i, j, k + 1),     id(i + 1, j, k + 1),
                                     id(i + 1, j + 1, k + 1), id(i, j + 1, k + 1)};
          for (const auto& t : split) {
            std::array<std::int64_t, 4> tet = {v[t[0]], v[t[1]], v[t[2]], v[t[3]]};
            std::sort(tet.begin(), tet.end());
            tets.push_back(tet);
          }
        }
    std::sort(tets.begin(), tets.end());
    return tets;
  }
};

BoxGeometry geometryOf(const eis::Scene& scene) { return {scene.boxSize, scene.boxCells}; }

// ---------------------------------------------------------------------------------------------
// Scenes

// A small cantilever under gravity: 6x2x2 hexahedra, 4 steps, the series every 2 steps.
eis::Scene smallBeam() {
  eis::Scene scene;
  scene.boxSize = {3, 1, 1};
  scene.boxCells = {6, 2, 2};
  scene.fixedBoxes = {{{0, 0, 0}, {0, 1, 1}}};
  scene.youngModulus = 1e4;
  scene.dt = 0.01;
  scene.steps = 4;
  scene.outputEvery = 2;
  return scene;
}

// A bar with both ends held (at the values its initial state gives them), first order in time.
eis::Scene smallBar() {
  eis::Scene scene;
  scene.physics = eis::Physics::Diffusion;
  scene.firstOrder = true;
  scene.boxSize = {1, 0.2, 0.2};
  scene.boxCells = {6, 2, 2};
  scene.fixedBoxes = {{{0, 0, 0}, {0, 0.2, 0.2}}, {{1, 0, 0}, {1, 0.2, 0.2}}};
  scene.dt = 0.01;
  scene.steps = 4;
  return scene;
}

// ---------------------------------------------------------------------------------------------
// CSV reading (rank 0)

std::vector<std::string> lines(const fs::path& path) {
  std::vector<std::string> result;
  std::istringstream in(vtu::readText(path));
  for (std::string line; std::getline(in, line);) result.push_back(line);
  return result;
}

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> fields;
  std::size_t begin = 0;
  for (std::size_t comma; (comma = line.find(',', begin)) != std::string::npos; begin = comma + 1)
    fields.push_back(line.substr(begin, comma - begin));
  fields.push_back(line.substr(begin));
  return fields;
}

// The whole field as a number; false (with `value` untouched) when any of it is not.
bool parseNumber(const std::string& text, double& value) {
  if (text.empty()) return false;
  char* end = nullptr;
  const double parsed = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size()) return false;
  value = parsed;
  return true;
}

// Significant digits of a number as printed: the mantissa's digits without leading zeros.
int significantDigits(const std::string& text) {
  int digits = 0;
  bool leading = true;
  for (char c : text) {
    if (c == 'e' || c == 'E') break;
    if (c < '0' || c > '9') continue;
    if (leading && c == '0') continue;
    leading = false;
    ++digits;
  }
  return digits;
}

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

StateFile readStateFile(const fs::path& path) {
  StateFile file;
  const std::vector<std::string> text = lines(path);
  if (text.empty()) {
    ADD_FAILURE() << path << " is empty";
    return file;
  }
  file.header = split(text[0]);
  file.width = int(file.header.size()) - 1;
  for (std::size_t n = 1; n < text.size(); ++n) {
    const std::vector<std::string> fields = split(text[n]);
    if (int(fields.size()) != file.width + 1) {
      ADD_FAILURE() << path << " line " << n + 1 << ": " << fields.size() << " fields: " << text[n];
      return file;
    }
    double id = -1;
    if (!parseNumber(fields[0], id) || id != std::floor(id)) {
      ADD_FAILURE() << path << " line " << n + 1 << ": bad id " << fields[0];
      return file;
    }
    file.ids.push_back(std::int64_t(id));
    for (int c = 1; c <= file.width; ++c) {
      double value = 0;
      if (!parseNumber(fields[c], value)) {
        ADD_FAILURE() << path << " line " << n + 1 << ": bad number '" << fields[c] << "'";
        return file;
      }
      file.values.push_back(value);
      file.texts.push_back(fields[c]);
    }
  }
  return file;
}

// ---------------------------------------------------------------------------------------------
// Agreement of two gathered states (rank 0), as DESIGN.md measures it but with each half of a row
// against its own scale: the largest difference in position (u for diffusion) divided by the
// largest displacement from rest (largest |u|), and the largest difference in velocity (du)
// divided by the largest velocity (|du|). Velocities here are some 20 times the displacements, so
// one ratio over both would hold the velocities to a tolerance 20 times tighter than the solver's.

struct Disagreement {
  double state = 0, rate = 0;
};

Disagreement disagreement(const eis::NodalTable& a, const eis::NodalTable& b, const eis::Scene& scene) {
  EXPECT_EQ(a.ids, b.ids);
  EXPECT_EQ(a.width, b.width);
  const BoxGeometry box = geometryOf(scene);
  const bool elasticity = scene.physics == eis::Physics::Elasticity;
  const int half = a.width / 2;
  double difference[2] = {0, 0}, scale[2] = {0, 0};
  for (std::size_t n = 0; n < a.ids.size() && n < b.ids.size(); ++n) {
    const auto rest = box.rest(a.ids[n]);
    for (int c = 0; c < a.width && c < b.width; ++c) {
      const int kind = c < half ? 0 : 1;
      const double av = a.values[n * a.width + c], bv = b.values[n * b.width + c];
      difference[kind] = std::max(difference[kind], std::fabs(av - bv));
      scale[kind] = std::max(scale[kind], std::fabs(av - (elasticity && kind == 0 ? rest[c] : 0.0)));
    }
  }
  EXPECT_GT(scale[0], 0.0);
  EXPECT_GT(scale[1], 0.0);
  return {difference[0] / scale[0], difference[1] / scale[1]};
}

// Largest |value - expected| over the nodes a fixed box holds: positions at rest (elasticity) or
// u at its initial value (diffusion), and velocities (du) at zero.
double heldNodeDrift(const eis::NodalTable& state, const eis::Scene& scene,
                     const eis::NodalTable* initial, std::int64_t* held) {
  const BoxGeometry box = geometryOf(scene);
  const int half = state.width / 2;
  double drift = 0;
  *held = 0;
  for (std::size_t n = 0; n < state.ids.size(); ++n) {
    const auto rest = box.rest(state.ids[n]);
    bool fixed = false;
    for (const auto& b : scene.fixedBoxes) fixed = fixed || b.contains(rest);
    if (!fixed) continue;
    ++*held;
    const double* start = initial ? initial->find(state.ids[n]) : nullptr;
    for (int c = 0; c < state.width; ++c) {
      const double expected = c >= half ? 0.0 : start ? start[c] : rest[c];
      drift = std::max(drift, std::fabs(state.values[n * state.width + c] - expected));
    }
  }
  return drift;
}

// Rank 0: an initial `id,u,du` state for the bar: a field that is not a mode, with non-zero
// values on the held ends, and a rate that a first-order step does not use. 0 when it fails.
int writeBarInitialState(const std::string& path, const BoxGeometry& box) {
  std::FILE* out = std::fopen(path.c_str(), "w");
  if (!out) return 0;
  std::fprintf(out, "id,u,du\n");
  for (std::int64_t id = 0; id < box.numNodes(); ++id) {
    const auto p = box.rest(id);
    const double u = std::sin(kPi * p[0]) + 0.5 * std::sin(3 * kPi * p[0]) + 0.25 + 2 * p[1] - p[2] * p[0];
    std::fprintf(out, "%lld,%.17g,%.17g\n", static_cast<long long>(id), u, 0.1 * p[0] - 0.3);
  }
  return std::fclose(out) == 0;
}

// ---------------------------------------------------------------------------------------------
// A folder of its own for each test.

class OutputFiles : public eis_test::TemporaryFolderTest {};

// Tight linear solves, so that two ways to the same state agree to rounding.
class TightOutputFiles : public OutputFiles {
protected:
  // -ksp_rtol 1e-13, set before OutputFiles::SetUp and cleared after its TearDown.
  eis_test::TightSolveOptions tight_{eis_test::Tighten::Linear};

  // The scene run straight through, its first two steps alone (written to a final state), and
  // the last two steps restarted from that file.
  struct Restart {
    eis::NodalTable straight, half, restarted;
  };
  Restart runStraightAndRestarted(eis::Scene scene) {
    Restart r;
    r.straight = run(scene);
    scene.steps = 2;
    scene.finalState = file("half.csv");
    r.half = run(scene);
    scene.finalState.clear();
    scene.initialState = file("half.csv");
    r.restarted = run(scene);
    return r;
  }
};

// ---------------------------------------------------------------------------------------------
// 1. The time series

TEST_F(OutputFiles, SeriesListsEveryOutputStepWithItsTimeAndOnePiecePerRank) {
  eis::Scene scene = smallBeam();
  scene.vtk = file("out/beam");
  run(scene);
  if (!root()) return;

  const fs::path out = dir_ / "out";
  ASSERT_TRUE(fs::exists(out / "beam.pvd"));
  EXPECT_FALSE(fs::exists(out / "beam.pvd.tmp"));
  const std::vector<std::string> dataSets = vtu::openingTags(vtu::readText(out / "beam.pvd"), "DataSet");
  const std::vector<int> steps = {0, 2, 4};
  ASSERT_EQ(dataSets.size(), steps.size());
  const int ranks = sizeOf(PETSC_COMM_WORLD);
  for (std::size_t s = 0; s < steps.size(); ++s) {
    SCOPED_TRACE("step " + std::to_string(steps[s]));
    char stem[32];
    std::snprintf(stem, sizeof stem, "beam_%06d", steps[s]);
    EXPECT_EQ(vtu::attribute(dataSets[s], "file"), std::string(stem) + ".pvtu");
    double time = -1;
    EXPECT_TRUE(parseNumber(vtu::attribute(dataSets[s], "timestep"), time));
    EXPECT_DOUBLE_EQ(time, steps[s] * scene.dt);

    // The step's index names one piece per rank, each a file that exists.
    const fs::path pvtu = out / vtu::attribute(dataSets[s], "file");
    ASSERT_TRUE(fs::exists(pvtu)) << pvtu;
    const std::string index = vtu::readText(pvtu);
    const std::vector<std::string> pieces = vtu::openingTags(index, "Piece");
    ASSERT_EQ(pieces.size(), std::size_t(ranks));
    for (int r = 0; r < ranks; ++r) {
      char source[64];
      std::snprintf(source, sizeof source, "%s/piece_%04d.vtu", stem, r);
      EXPECT_EQ(vtu::attribute(pieces[r], "Source"), source);
      EXPECT_TRUE(fs::exists(out / vtu::attribute(pieces[r], "Source"))) << source;
    }
    std::set<std::string> declared;
    for (const std::string& tag : vtu::openingTags(index, "PDataArray"))
      declared.insert(vtu::attribute(tag, "Name"));
    for (const char* name : {"node_id", "vtkGhostType", "displacement", "velocity", "rank", "von_mises"})
      EXPECT_TRUE(declared.count(name)) << name << " not declared in " << pvtu;
  }
  // Steps between outputs write nothing.
  EXPECT_FALSE(fs::exists(out / "beam_000001.pvtu"));
  EXPECT_FALSE(fs::exists(out / "beam_000003.pvtu"));
}

// One step's pieces against the state every node should have (id -> x y z vx vy vz).
void checkStep(const fs::path& pvtu, const BoxGeometry& box, const eis::NodalTable& expected,
               bool atRest) {
  SCOPED_TRACE(pvtu.string());
  const std::string index = vtu::readText(pvtu);
  const std::vector<std::string> sources = vtu::openingTags(index, "Piece");
  ASSERT_EQ(sources.size(), std::size_t(sizeOf(PETSC_COMM_WORLD)));

  std::vector<std::int64_t> ownedIds;
  std::vector<std::array<std::int64_t, 4>> tets;
  std::int64_t totalCells = 0;
  double largestStress = 0;
  int badPosition = 0, badDisplacement = 0, badVelocity = 0, badStress = 0;
  std::string firstBad;
  for (std::size_t r = 0; r < sources.size(); ++r) {
    const vtu::Piece piece = vtu::readPiece(pvtu.parent_path() / vtu::attribute(sources[r], "Source"));
    const std::size_t np = piece.numberOfPoints, nc = piece.numberOfCells;
    SCOPED_TRACE("piece " + std::to_string(r) + ": " + std::to_string(np) + " points, " +
                 std::to_string(nc) + " cells");
    // Every array has the size the piece declares.
    ASSERT_EQ(piece.points.size(), 3 * np);
    ASSERT_EQ(piece.nodeIds.size(), np);
    ASSERT_EQ(piece.ghost.size(), np);
    ASSERT_EQ(piece.pointData.count("displacement"), 1u);
    ASSERT_EQ(piece.pointData.count("velocity"), 1u);
    ASSERT_EQ(piece.cellData.count("von_mises"), 1u);
    const auto& displacement = piece.pointData.at("displacement");
    const auto& velocity = piece.pointData.at("velocity");
    const auto& vonMises = piece.cellData.at("von_mises");
    ASSERT_EQ(displacement.size(), 3 * np);
    ASSERT_EQ(velocity.size(), 3 * np);
    EXPECT_EQ(piece.components.at("displacement"), 3);
    EXPECT_EQ(piece.components.at("velocity"), 3);
    EXPECT_EQ(piece.components.at("von_mises"), 1);
    ASSERT_EQ(piece.connectivity.size(), 4 * nc);
    ASSERT_EQ(piece.offsets.size(), nc);
    ASSERT_EQ(piece.types.size(), nc);
    ASSERT_EQ(piece.rank.size(), nc);
    ASSERT_EQ(vonMises.size(), nc);
    totalCells += std::int64_t(nc);

    for (std::size_t c = 0; c < nc; ++c) {
      EXPECT_EQ(piece.types[c], 10) << "cell " << c;
      EXPECT_EQ(piece.offsets[c], std::int64_t(4 * (c + 1))) << "cell " << c;
      EXPECT_EQ(piece.rank[c], std::int32_t(r)) << "cell " << c;
      if (!(std::isfinite(vonMises[c]) && vonMises[c] >= 0) || (atRest && vonMises[c] != 0)) ++badStress;
      largestStress = std::max(largestStress, vonMises[c]);
      std::array<std::int64_t, 4> tet;
      for (int k = 0; k < 4; ++k) {
        const std::int64_t local = piece.connectivity[4 * c + k];
        ASSERT_TRUE(local >= 0 && std::size_t(local) < np) << "cell " << c << " vertex " << local;
        tet[k] = piece.nodeIds[local];
      }
      std::sort(tet.begin(), tet.end());
      tets.push_back(tet);
    }

    // Every point, owned or a ghost copy, shows the node's state.
    for (std::size_t p = 0; p < np; ++p) {
      const std::int64_t id = piece.nodeIds[p];
      EXPECT_TRUE(piece.ghost[p] == 0 || piece.ghost[p] == 1) << "point " << p;
      if (piece.ghost[p] == 0) ownedIds.push_back(id);
      ASSERT_TRUE(id >= 0 && id < box.numNodes()) << "node_id " << id;
      const double* row = expected.find(id);
      ASSERT_NE(row, nullptr) << "node " << id << " is not in the expected state";
      const auto rest = box.rest(id);
      for (int d = 0; d < 3; ++d) {
        const double x = piece.points[3 * p + d];
        const bool position = x != row[d], move = std::fabs(displacement[3 * p + d] - (x - rest[d])) > 1e-13,
                   speed = velocity[3 * p + d] != row[3 + d];
        badPosition += position;
        badDisplacement += move;
        badVelocity += speed;
        if ((position || move || speed) && firstBad.empty()) {
          std::ostringstream what;
          what.precision(17);
          what << "piece " << r << " point " << p << " (node " << id << ", ghost "
               << int(piece.ghost[p]) << ") component " << d << ": point " << x << " expected "
               << row[d] << ", displacement " << displacement[3 * p + d] << " expected "
               << x - rest[d] << ", velocity " << velocity[3 * p + d] << " expected " << row[3 + d];
          firstBad = what.str();
        }
      }
    }
  }
  EXPECT_EQ(badPosition, 0) << "points away from the state; first: " << firstBad;
  EXPECT_EQ(badDisplacement, 0) << "displacements other than point - rest; first: " << firstBad;
  EXPECT_EQ(badVelocity, 0) << "velocities away from the state; first: " << firstBad;
  EXPECT_EQ(badStress, 0) << "von Mises values negative, not finite, or non-zero at rest";
  if (!atRest) {
    EXPECT_GT(largestStress, 0.0);
  }

  // Points that are not ghosts: every node exactly once.
  EXPECT_EQ(std::int64_t(ownedIds.size()), box.numNodes());
  std::sort(ownedIds.begin(), ownedIds.end());
  EXPECT_TRUE(std::adjacent_find(ownedIds.begin(), ownedIds.end()) == ownedIds.end())
      << "a node is owned by two pieces";
  // Cells: every tetrahedron of the box exactly once, over all pieces.
  EXPECT_EQ(totalCells, box.numTets());
  std::sort(tets.begin(), tets.end());
  EXPECT_TRUE(tets == box.sortedTets()) << "the pieces' tetrahedra are not the box's";
}

TEST_F(OutputFiles, PiecesCoverEveryNodeOnceAndShowTheFinalState) {
  eis::Scene scene = smallBeam();
  scene.vtk = file("beam");
  scene.finalState = file("final.csv");
  run(scene);
  if (!root()) return;

  const BoxGeometry box = geometryOf(scene);
  // Step 0: the rest state with zero velocity.
  eis::NodalTable rest;
  rest.width = 6;
  for (std::int64_t id = 0; id < box.numNodes(); ++id) {
    const auto p = box.rest(id);
    rest.ids.push_back(id);
    rest.values.insert(rest.values.end(), {p[0], p[1], p[2], 0, 0, 0});
  }
  {
    SCOPED_TRACE("step 0");
    checkStep(dir_ / "beam_000000.pvtu", box, rest, true);
  }
  // The last step: the final-state CSV.
  const StateFile final = readStateFile(scene.finalState);
  eis::NodalTable state;
  state.width = final.width;
  state.ids = final.ids;
  state.values = final.values;
  ASSERT_EQ(state.width, 6);
  {
    SCOPED_TRACE("step 4");
    checkStep(dir_ / "beam_000004.pvtu", box, state, false);
  }
}

// ---------------------------------------------------------------------------------------------
// 2. The history

// 1/2 v.M v with the lumped mass (rho V/4 per vertex of each tetrahedron), from a state table.
double lumpedKineticEnergy(const StateFile& state, const eis::Scene& scene) {
  const BoxGeometry box = geometryOf(scene);
  const double tetMass = scene.density * scene.boxSize[0] * scene.boxSize[1] * scene.boxSize[2] /
                         double(box.numTets());
  std::map<std::int64_t, int> tetsPerNode;
  for (const auto& tet : box.sortedTets())
    for (auto id : tet) ++tetsPerNode[id];
  double energy = 0;
  for (const auto& [id, count] : tetsPerNode) {
    const double* row = state.find(id);
    if (!row) continue;
    energy += 0.5 * tetMass / 4 * count * (row[3] * row[3] + row[4] * row[4] + row[5] * row[5]);
  }
  return energy;
}

// Rank 0: the history of a run of `scene`, whose final state is in scene.finalState.
void checkHistory(const eis::Scene& scene) {
  SCOPED_TRACE(scene.computeResidual ? "computeResidual = true" : "computeResidual = false");
  const bool computeResidual = scene.computeResidual;
  const std::vector<std::string> text = lines(scene.history);
  ASSERT_FALSE(text.empty());
  const std::string fixed = "step,time,wall_seconds,linear_iterations,nonlinear_iterations";
  EXPECT_EQ(text[0].substr(0, fixed.size()), fixed) << text[0];
  const std::vector<std::string> header = split(text[0]);
  const auto column = [&](const std::string& name) {
    const auto it = std::find(header.begin(), header.end(), name);
    EXPECT_TRUE(it != header.end()) << "no column " << name << " in " << text[0];
    return it == header.end() ? -1 : int(it - header.begin());
  };
  const int residual = column("residual"), kinetic = column("kinetic_energy"),
            elastic = column("elastic_energy");
  ASSERT_TRUE(residual >= 0 && kinetic >= 0 && elastic >= 0);
  ASSERT_EQ(text.size(), std::size_t(scene.steps) + 1) << "one row per step after the header";

  double lastKinetic = 0, lastElastic = 0;
  for (int step = 1; step <= scene.steps; ++step) {
    SCOPED_TRACE("row of step " + std::to_string(step) + ": " + text[step]);
    const std::vector<std::string> row = split(text[step]);
    ASSERT_EQ(row.size(), header.size());
    double value[5];
    for (int c = 0; c < 5; ++c) ASSERT_TRUE(parseNumber(row[c], value[c])) << header[c];
    EXPECT_EQ(value[0], step);
    EXPECT_DOUBLE_EQ(value[1], step * scene.dt);
    EXPECT_TRUE(std::isfinite(value[2]) && value[2] >= 0) << "wall_seconds";
    EXPECT_GE(value[3], 1) << "linear_iterations";
    EXPECT_EQ(value[4], 1) << "nonlinear_iterations of a linearized step";

    if (computeResidual) {
      double r = -1;
      EXPECT_TRUE(parseNumber(row[residual], r)) << "residual '" << row[residual] << "'";
      EXPECT_TRUE(std::isfinite(r) && r >= 0) << "residual " << r;
    } else {
      EXPECT_EQ(row[residual], "") << "residual not computed, yet written";
    }
    ASSERT_TRUE(parseNumber(row[kinetic], lastKinetic)) << "kinetic_energy";
    ASSERT_TRUE(parseNumber(row[elastic], lastElastic)) << "elastic_energy";
    EXPECT_GT(lastKinetic, 0.0) << "a beam falling under gravity moves";
    EXPECT_TRUE(std::isfinite(lastElastic) && lastElastic >= 0) << "elastic_energy " << lastElastic;
  }
  EXPECT_GT(lastElastic, 0.0) << "the beam is bent after " << scene.steps << " steps";
  // The last row's kinetic energy is that of the final state.
  const double expected = lumpedKineticEnergy(readStateFile(scene.finalState), scene);
  EXPECT_NEAR(lastKinetic, expected, 1e-12 * expected);
}

TEST_F(OutputFiles, HistoryHasOneRowPerStepWithEnergiesAndResidualWhenAskedFor) {
  std::vector<eis::Scene> scenes;
  for (bool computeResidual : {false, true}) {
    eis::Scene scene = smallBeam();
    scene.computeResidual = computeResidual;
    scene.history = file(computeResidual ? "history_residual.csv" : "history.csv");
    scene.finalState = file(computeResidual ? "final_residual.csv" : "final.csv");
    run(scene);
    scenes.push_back(scene);
  }
  if (!root()) return;
  for (const eis::Scene& scene : scenes) checkHistory(scene);
}

// ---------------------------------------------------------------------------------------------
// 3. The final state

TEST_F(OutputFiles, FinalStateCsvIsTheGatheredStateToTheBit) {
  eis::Scene scene = smallBeam();
  scene.finalState = file("final.csv");
  eis::Simulation simulation(scene, PETSC_COMM_WORLD, nullptr);
  simulation.run();
  const eis::NodalTable gathered = simulation.gatherState();
  int nonEmptyElsewhere = !root() && (!gathered.ids.empty() || !gathered.values.empty());
  MPI_Allreduce(MPI_IN_PLACE, &nonEmptyElsewhere, 1, MPI_INT, MPI_MAX, PETSC_COMM_WORLD);
  if (!root()) return;
  EXPECT_EQ(nonEmptyElsewhere, 0) << "gatherState is not empty on a rank other than 0";

  const std::vector<std::string> text = lines(scene.finalState);
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text[0], "id,x,y,z,vx,vy,vz");
  const std::string raw = vtu::readText(scene.finalState);
  EXPECT_EQ(raw.back(), '\n');

  const StateFile state = readStateFile(scene.finalState);
  const BoxGeometry box = geometryOf(scene);
  ASSERT_EQ(state.width, 6);
  ASSERT_EQ(std::int64_t(state.ids.size()), box.numNodes()) << "one row per node";
  ASSERT_EQ(gathered.width, 6);
  ASSERT_EQ(gathered.ids.size(), state.ids.size());
  int outOfOrder = 0, differing = 0, shortDigits = 0;
  std::string firstBad;
  for (std::size_t n = 0; n < state.ids.size(); ++n) {
    outOfOrder += state.ids[n] != std::int64_t(n);
    for (int c = 0; c < 6; ++c) {
      const double written = state.values[6 * n + c], held = gathered.values[6 * n + c];
      const std::string& token = state.texts[6 * n + c];
      char g17[40];
      std::snprintf(g17, sizeof g17, "%.17g", held);
      // 17 significant digits: %.17g's text, or any other with exactly 17 digits.
      const bool digits = token == g17 || significantDigits(token) == 17;
      const bool same = std::memcmp(&written, &held, sizeof written) == 0;
      differing += !same;
      shortDigits += !digits;
      if ((!same || !digits) && firstBad.empty())
        firstBad = "node " + std::to_string(n) + " column " + std::to_string(c) + ": '" + token +
                   "', held " + g17;
    }
  }
  EXPECT_EQ(outOfOrder, 0) << "rows not in id order 0, 1, 2, ...";
  EXPECT_EQ(differing, 0) << "values that do not read back as the gathered state; first: " << firstBad;
  EXPECT_EQ(shortDigits, 0) << "values not printed with 17 significant digits; first: " << firstBad;
  EXPECT_EQ(gathered.ids, state.ids);
}

// ---------------------------------------------------------------------------------------------
// 4. initial.state: 4 steps = 2 steps, write the state, read it, 2 more steps

TEST_F(TightOutputFiles, ElasticityRestartFromTheFinalStateContinuesTheRun) {
  eis::Scene scene = smallBeam();
  scene.rayleighStiffness = 0.01;  // let the velocity matter in the step (SOFA's b has K v)
  const auto [straight, half, restarted] = runStraightAndRestarted(scene);
  if (!root()) return;

  const Disagreement restart = disagreement(straight, restarted, scene);
  EXPECT_LT(restart.state, 1e-12) << "positions";
  EXPECT_LT(restart.rate, 1e-12) << "velocities";
  // Not a trivial agreement: steps 3 and 4 moved the beam.
  const Disagreement moved = disagreement(straight, half, scene);
  EXPECT_GT(moved.state, 1e-3);
  EXPECT_GT(moved.rate, 1e-3);
}

TEST_F(TightOutputFiles, DiffusionRestartFromTheFinalStateContinuesTheRun) {
  eis::Scene scene = smallBar();
  const BoxGeometry box = geometryOf(scene);
  scene.initialState = file("initial.csv");
  int written = root() ? writeBarInitialState(scene.initialState, box) : 1;
  MPI_Bcast(&written, 1, MPI_INT, 0, PETSC_COMM_WORLD);
  ASSERT_TRUE(written) << "cannot write " << scene.initialState;  // the same verdict on every rank
  const eis::NodalTable initial = eis::readStateCsv(scene.initialState, scene.physics, PETSC_COMM_WORLD);
  const auto [straight, half, restarted] = runStraightAndRestarted(scene);
  if (!root()) return;

  ASSERT_EQ(straight.width, 2);
  const Disagreement restart = disagreement(straight, restarted, scene);
  EXPECT_LT(restart.state, 1e-12) << "u";
  EXPECT_LT(restart.rate, 1e-12) << "du";
  // Not a trivial agreement: the field evolved from its start and from step 2 on.
  EXPECT_GT(disagreement(straight, initial, scene).state, 1e-3);
  EXPECT_GT(disagreement(straight, half, scene).state, 1e-3);
}

// SOFA's FixedProjectiveConstraint holds its nodes exactly: positions at rest (u at its initial
// value) and velocities (du) zero, whatever the linear solver's tolerance. Default solver options.
TEST_F(OutputFiles, FinalStateHoldsFixedNodesExactly) {
  eis::Scene beam = smallBeam();
  beam.finalState = file("beam.csv");
  const eis::NodalTable beamState = run(beam);

  eis::Scene bar = smallBar();
  bar.initialState = file("initial.csv");
  int written = root() ? writeBarInitialState(bar.initialState, geometryOf(bar)) : 1;
  MPI_Bcast(&written, 1, MPI_INT, 0, PETSC_COMM_WORLD);
  ASSERT_TRUE(written) << "cannot write " << bar.initialState;  // the same verdict on every rank
  const eis::NodalTable initial = eis::readStateCsv(bar.initialState, bar.physics, PETSC_COMM_WORLD);
  const eis::NodalTable barState = run(bar);
  if (!root()) return;

  std::int64_t held = 0;
  const double beamDrift = heldNodeDrift(beamState, beam, nullptr, &held);
  EXPECT_EQ(held, 9);
  EXPECT_EQ(beamDrift, 0.0) << "beam: largest |x - rest| or |v| over the fixed nodes after "
                            << beam.steps << " steps";
  const double barDrift = heldNodeDrift(barState, bar, &initial, &held);
  EXPECT_EQ(held, 18);
  EXPECT_EQ(barDrift, 0.0) << "bar: largest |u - u0| or |du| over the held ends after "
                           << bar.steps << " steps";
}

}  // namespace
