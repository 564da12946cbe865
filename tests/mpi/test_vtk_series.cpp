// The ParaView time series of a run on 1, 2 and 3 ranks (src/io/vtk_output.cpp through whole
// runs; unit/test_vtk_output.cpp reads one writer's files): every output step listed with its
// time, one piece per rank, the pieces together covering the mesh once and agreeing with the
// final state, and each piece holding as ghost cells exactly the other ranks' cells across its
// seams.
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
#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "mpi_support.hpp"
#include "output_files.hpp"
#include "vtu_reader.hpp"

namespace fs = std::filesystem;

namespace {

using eis_test::BoxGeometry;
using eis_test::geometryOf;
using eis_test::parseNumber;
using eis_test::readStateFile;
using eis_test::root;
using eis_test::run;
using eis_test::sizeOf;
using eis_test::smallBeam;
using eis_test::StateFile;

// A folder of its own for each test.
class VtkSeries : public eis_test::TemporaryFolderTest {};

TEST_F(VtkSeries, SeriesListsEveryOutputStepWithItsTimeAndOnePiecePerRank) {
  eis_test::SceneFields scene = smallBeam();
  scene.vtk = file("out/beam");
  run(scene);
  if (!root()) return;

  const fs::path out = dir_ / "out";
  ASSERT_TRUE(fs::exists(out / "beam.pvd"));
  EXPECT_FALSE(fs::exists(out / "beam.pvd.tmp"));
  const std::vector<std::string> dataSets =
      vtu::openingTags(vtu::readText(out / "beam.pvd"), "DataSet");
  const std::vector<int> steps = {0, 2, 4};
  ASSERT_EQ(scene.outputEvery, 2);
  ASSERT_EQ(dataSets.size(), steps.size());
  const int ranks = sizeOf(PETSC_COMM_WORLD);
  for (std::size_t s = 0; s < steps.size(); ++s) {
    SCOPED_TRACE("step " + std::to_string(steps[s]));
    char stem[32];
    std::snprintf(stem, sizeof stem, "beam_%06d", steps[s]);
    EXPECT_EQ(vtu::attribute(dataSets[s], "file"), std::string(stem) + ".pvtu");
    double time = -1;
    EXPECT_TRUE(parseNumber(vtu::attribute(dataSets[s], "timestep"), time));
    // The true time of the step, k dt every, to the last bit.
    EXPECT_EQ(time, int(s) * scene.outputEvery * scene.dt);

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
    EXPECT_EQ(vtu::attribute(vtu::openingTags(index, "PUnstructuredGrid").at(0), "GhostLevel"),
              ranks > 1 ? "1" : "0");
    for (const char* name :
         {"node_id", "vtkGhostType", "displacement", "velocity", "region", "rank", "von_mises"})
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

  using Tet = std::array<std::int64_t, 4>;  // sorted node ids
  std::vector<std::int64_t> ownedIds;
  std::vector<Tet> tets;
  std::vector<std::set<Tet>> ownTets(sources.size()), ghostTets(sources.size());
  std::int64_t totalCells = 0;
  double largestStress = 0;
  int badPosition = 0, badDisplacement = 0, badVelocity = 0, badStress = 0, badCell = 0;
  std::string firstBad;
  for (std::size_t r = 0; r < sources.size(); ++r) {
    const vtu::Piece piece =
        vtu::readPiece(pvtu.parent_path() / vtu::attribute(sources[r], "Source"));
    const std::size_t np = piece.numberOfPoints, nc = piece.numberOfCells;
    SCOPED_TRACE("piece " + std::to_string(r) + ": " + std::to_string(np) + " points, " +
                 std::to_string(nc) + " cells");
    // Every array has the size the piece declares.
    ASSERT_EQ(piece.points.size(), 3 * np);
    ASSERT_EQ(piece.nodeIds.size(), np);
    ASSERT_EQ(piece.ghost.size(), np);
    ASSERT_EQ(piece.cellGhost.size(), nc);
    ASSERT_EQ(piece.pointData.count("displacement"), 1u);
    ASSERT_EQ(piece.pointData.count("velocity"), 1u);
    ASSERT_EQ(piece.cellData.count("von_mises"), 1u);
    ASSERT_EQ(piece.cellData.count("region"), 1u);
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
    const auto& region = piece.cellData.at("region");
    ASSERT_EQ(region.size(), nc);

    for (std::size_t c = 0; c < nc; ++c) {
      EXPECT_EQ(piece.types[c], 10) << "cell " << c;
      EXPECT_EQ(piece.offsets[c], std::int64_t(4 * (c + 1))) << "cell " << c;
      // Own cells carry this rank; ghost cells (DUPLICATECELL) the rank that owns them.
      const bool ghost = piece.cellGhost[c] == 1, own = piece.cellGhost[c] == 0;
      const bool rankRight = own ? piece.rank[c] == std::int32_t(r)
                                 : piece.rank[c] >= 0 && piece.rank[c] < int(sources.size()) &&
                                       piece.rank[c] != std::int32_t(r);
      badCell += !(own || ghost) || !rankRight || region[c] != 0;
      if (!(std::isfinite(vonMises[c]) && vonMises[c] >= 0) || (atRest && vonMises[c] != 0))
        ++badStress;
      largestStress = std::max(largestStress, vonMises[c]);
      std::array<std::int64_t, 4> tet;
      for (int k = 0; k < 4; ++k) {
        const std::int64_t local = piece.connectivity[4 * c + k];
        ASSERT_TRUE(local >= 0 && std::size_t(local) < np) << "cell " << c << " vertex " << local;
        tet[k] = piece.nodeIds[local];
      }
      std::sort(tet.begin(), tet.end());
      if (own) {
        tets.push_back(tet);
        ownTets[r].insert(tet);
        ++totalCells;
      } else {
        ghostTets[r].insert(tet);
      }
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
        // The points are the rest shape; the state's position is point + displacement.
        const double x = piece.points[3 * p + d];
        const bool position = std::fabs(x - rest[d]) > 1e-13,
                   move = std::fabs(x + displacement[3 * p + d] - row[d]) > 1e-13,
                   speed = velocity[3 * p + d] != row[3 + d];
        badPosition += position;
        badDisplacement += move;
        badVelocity += speed;
        if ((position || move || speed) && firstBad.empty()) {
          std::ostringstream what;
          what.precision(17);
          what << "piece " << r << " point " << p << " (node " << id << ", ghost "
               << int(piece.ghost[p]) << ") component " << d << ": point " << x << " expected "
               << rest[d] << ", displacement " << displacement[3 * p + d] << " expected "
               << row[d] - rest[d] << ", velocity " << velocity[3 * p + d] << " expected "
               << row[3 + d];
          firstBad = what.str();
        }
      }
    }
  }
  EXPECT_EQ(badPosition, 0) << "points away from the rest shape; first: " << firstBad;
  EXPECT_EQ(badDisplacement, 0) << "point + displacement away from the state; first: " << firstBad;
  EXPECT_EQ(badCell, 0) << "cells with a wrong ghost flag, rank or region";
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

  // Ghost cells: exactly the other pieces' own cells that share a face with one of this piece's.
  const auto faces = [](const Tet& tet) {
    std::set<std::array<std::int64_t, 3>> out;
    for (int skip = 0; skip < 4; ++skip) {
      std::array<std::int64_t, 3> face;
      for (int k = 0, i = 0; k < 4; ++k)
        if (k != skip) face[i++] = tet[k];
      out.insert(face);
    }
    return out;
  };
  for (std::size_t r = 0; r < sources.size(); ++r) {
    std::set<std::array<std::int64_t, 3>> ownFaces;
    for (const Tet& tet : ownTets[r])
      for (const auto& face : faces(tet)) ownFaces.insert(face);
    std::set<Tet> expectedGhosts;
    for (std::size_t other = 0; other < sources.size(); ++other) {
      if (other == r) continue;
      for (const Tet& tet : ownTets[other])
        for (const auto& face : faces(tet))
          if (ownFaces.count(face)) expectedGhosts.insert(tet);
    }
    EXPECT_TRUE(ghostTets[r] == expectedGhosts)
        << "piece " << r << ": " << ghostTets[r].size() << " ghost cells, expected "
        << expectedGhosts.size();
    if (sources.size() > 1) {
      EXPECT_FALSE(expectedGhosts.empty()) << "piece " << r << " has no seam";
    }
  }
}

TEST_F(VtkSeries, PiecesCoverEveryNodeOnceAndShowTheFinalState) {
  eis_test::SceneFields scene = smallBeam();
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

}  // namespace
