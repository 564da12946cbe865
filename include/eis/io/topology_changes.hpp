#pragma once
// topology.changes: a file of timed topological changes in the format of SOFA's
// TopologicalChangeProcessor (TopologicalChangeProcessor.cpp): "T= time" opens the events of
// that time, "REMOVE= N" is followed by a line of N cell indices. Which events a step applies
// follows its readNext at AnimateBeginEvent.
#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "eis/core/component.hpp"

namespace eis {

const ComponentDeclaration& topologyChangesComponent();

// The events of one "T=" (the lines before the first one: time 0): each removal's cell
// indices, in the file's order, in the numbering the cells have when it is applied.
struct TopologyEvent {
  double time = 0;
  int line = 0;  // of its "T=" in the file (0: before the first)
  std::vector<std::vector<std::int64_t>> removals;
  // What it asks that is not supported ("FILE:LINE: ADD= (adding cells)"), the first such;
  // "" when none. Refused at set-up when a run reaches the event.
  std::string unsupported;
};

// Reads and checks the whole file: "T=" with a number, "REMOVE=" with a count N and then a line
// of indices (not negative), read as SOFA reads them: the first N, and when the line lists
// N - 1 (none of them 0) the missing one as 0 (fewer is an error: cell 0 removed twice); other
// lines are ignored as SOFA does, as is a
// time that goes back. ADD= and INCISE= are noted in their event's `unsupported`. Throws
// eis::Error "topology.changes = path:line: why". `text` is the file's content, `path` names it.
std::vector<TopologyEvent> parseTopologyChanges(const std::string& text, const std::string& path);
std::vector<TopologyEvent> readTopologyChanges(const std::string& path);
// Collective: rank 0 reads the file, every rank parses the same text (the same events, or the
// same error on every rank).
std::vector<TopologyEvent> readTopologyChanges(const std::string& path, MPI_Comm comm);

// The events a step applies, from the step's clock at its start (SOFA's time, t += dt each
// step): every event not yet applied whose time is below the clock or within DBL_EPSILON of it
// is consumed, and only the last of them is applied (SOFA's readNext clears the lines it
// gathered at each due "T="). Null when none is due.
class TopologySchedule {
public:
  explicit TopologySchedule(std::vector<TopologyEvent> events) : events_(std::move(events)) {}
  const TopologyEvent* due(double clock);
  const std::vector<TopologyEvent>& events() const { return events_; }

private:
  std::vector<TopologyEvent> events_;
  std::size_t next_ = 0;
};

}  // namespace eis
