// SOFA's renumbering after a removal of tetrahedra (mesh/cell_removal), worked out by hand from
// TetrahedronSetTopologyModifier::removeTetrahedraProcess and removePointsProcess, and the event
// file of TopologicalChangeProcessor (io/topology_changes).
#include <gtest/gtest.h>

#include <cfloat>

#include "eis/core/error.hpp"
#include "eis/io/topology_changes.hpp"
#include "eis/mesh/cell_removal.hpp"

namespace {

using Ids = std::vector<std::int64_t>;

// T0 = (0 1 2 3), T1 = (1 2 3 4), T2 = (2 3 4 5), T3 = (3 4 5 6); point 7 in no cell.
const Ids kCells = {0, 1, 2, 3, 1, 2, 3, 4, 2, 3, 4, 5, 3, 4, 5, 6};

// Removing T2 then T0 (sorted descending): T2's slot takes T3, then T0's slot takes T3 again
// (now last): cells (3 4 5 6), (1 2 3 4). Point 0 lost its last cell; its slot takes the last
// point, 7, which no cell uses.
TEST(CellRemoval, TheLastCellAndTheLastPointTakeTheRemovedSlots) {
  const eis::CellRemoval r = eis::removeCells(kCells, 4, 8, {0, 2});
  EXPECT_EQ(r.cells, (Ids{3, 4, 5, 6, 1, 2, 3, 4}));
  EXPECT_EQ(r.oldPoint, (Ids{7, 1, 2, 3, 4, 5, 6}));
  EXPECT_TRUE(r.skipped.empty());
}

// Removing T3 and T0: points 6 and 0 lose their cells. 6 goes first (descending: it is the last
// of 7 points, so nothing moves), then 0's slot takes point 5, which the cells then name 0.
TEST(CellRemoval, IsolatedPointsGoInDescendingOrder) {
  const eis::CellRemoval r = eis::removeCells(kCells, 4, 7, {3, 0, 9});
  EXPECT_EQ(r.cells, (Ids{2, 3, 4, 0, 1, 2, 3, 4}));
  EXPECT_EQ(r.oldPoint, (Ids{5, 1, 2, 3, 4}));
  EXPECT_EQ(r.skipped, (Ids{9}));  // past the last cell: SOFA skips it
}

TEST(CellRemoval, ACellListedTwiceIsRefused) {
  EXPECT_THROW(eis::removeCells(kCells, 4, 7, {1, 1}), eis::Error);
}

TEST(TopologyChanges, EventsAreReadWithTheirLines) {
  const auto events = eis::parseTopologyChanges(
      "T= 0.1\n  REMOVE= 2\n7 8\nT= 0.2\n  REMOVE= 1\n41\nREMOVE= 0\n\n", "f");
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].time, 0.1);
  EXPECT_EQ(events[0].line, 1);
  EXPECT_EQ(events[0].removals, (std::vector<Ids>{{7, 8}}));
  EXPECT_EQ(events[1].removals, (std::vector<Ids>{{41}, {}}));
}

// SOFA reads N indices into a zero-filled list: a line one short ends in 0, as its
// RemovingHexaProcess.txt counts on, and what a long line lists past N is not read.
TEST(TopologyChanges, IndicesAreReadAsSofaReadsThem) {
  const auto events = eis::parseTopologyChanges("T= 1\nREMOVE= 3\n4 5\nREMOVE= 2\n6 7 8\n", "f");
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].removals, (std::vector<Ids>{{4, 5, 0}, {6, 7}}));
}

// Each malformed file is one error naming the file, the line and what is wrong.
TEST(TopologyChanges, MalformedFilesAreOneClearError) {
  const std::pair<const char*, const char*> cases[] = {
      {"T= x\n", "f:1: \"T=\" needs a time"},
      {"T= 1\nREMOVE= 4\n1 2\n",
       "f:3: \"REMOVE= 4\" above, but this line lists 2 cell indices; SOFA reads each missing "
       "one as 0, which would remove cell 0 twice"},
      {"T= 1\nREMOVE= 3\n0 2\n", "f:3: \"REMOVE= 3\" above, but this line lists 2 cell indices"},
      {"T= 1\nREMOVE= 1\n", "f:2: \"REMOVE= 1\" is the last line"},
      {"T= 1\nREMOVE= 1\n-4\n", "f:3: a cell index is negative"},
      {"T= 1\nREMOVE= 2\n1 b\n", "f:3: the cell indices are not all integers"},
      {"T= 1\nT= 0.5\n", "f:2: T= 0.5 goes back before the time above it (1)"},
  };
  for (const auto& [text, message] : cases) {
    SCOPED_TRACE(text);
    try {
      eis::parseTopologyChanges(text, "f");
      ADD_FAILURE() << "no error";
    } catch (const eis::Error& e) {
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
    }
  }
}

// ADD= and INCISE= are noted in their event (refused at set-up only when a run reaches it).
TEST(TopologyChanges, AddingAndCuttingAreNotedInTheirEvent) {
  const auto events = eis::parseTopologyChanges(
      "T= 1\nREMOVE= 1\n3\nT= 2\nADD= Tetrahedra 1\n0 1 2 3\nINCISE= 2\n", "f");
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].unsupported, "");
  EXPECT_EQ(events[1].unsupported, "topology.changes = f:5: ADD= (adding cells)");
}

// SOFA's readNext: an event is due once the step's time reaches it within DBL_EPSILON; of
// several due at once only the last is applied.
TEST(TopologyChanges, TheScheduleFollowsReadNext) {
  eis::TopologySchedule schedule(eis::parseTopologyChanges(
      "T= 0.1\nREMOVE= 1\n1\nT= 0.15\nREMOVE= 1\n2\nT= 0.2\nREMOVE= 1\n3\n", "f"));
  double clock = 0;
  for (int step = 0; step < 10; ++step) {
    EXPECT_EQ(schedule.due(clock), nullptr);
    clock += 0.01;
  }
  EXPECT_NE(clock, 0.1);  // 0.09999999999999999: within DBL_EPSILON
  const eis::TopologyEvent* first = schedule.due(clock);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first->removals.front(), (Ids{1}));
  const eis::TopologyEvent* last = schedule.due(0.25);
  ASSERT_NE(last, nullptr);
  EXPECT_EQ(last->removals.front(), (Ids{3}));
  EXPECT_EQ(schedule.due(1.0), nullptr);
}

}  // namespace
