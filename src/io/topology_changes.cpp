#include "eis/io/topology_changes.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <fstream>
#include <sstream>

#include "eis/core/error.hpp"
#include "eis/core/input_file.hpp"
#include "eis/core/mpi_chunks.hpp"

namespace eis {

const ComponentDeclaration& topologyChangesComponent() {
  static const ComponentDeclaration component{
      "topology-changes", "topology",
      "cells removed at given times (SOFA TopologicalChangeProcessor)",
      ParameterSpec().add(
          {"topology.changes", "PATH",
           "a file of timed removals of tetrahedra or hexahedra, SOFA\n"
           "TopologicalChangeProcessor's format: \"T= time\", then \"REMOVE= N\" and a line of\n"
           "N cell indices (one short: the last is 0, as SOFA reads it). At the start of the\n"
           "first step whose time reaches T, the cells go as SOFA removes them (each by the\n"
           "last cell), the nodes they leave without a cell go too (each by the last node),\n"
           "and the body is rebuilt on what is left with its state carried over; the indices\n"
           "of later events and of the final state follow that numbering. Absent: none",
           std::nullopt, "", false, check::anyText()}),
      nullptr};
  return component;
}

namespace {

[[noreturn]] void malformed(const std::string& path, int line, const std::string& why) {
  throw Error("topology.changes = " + path + ":" + std::to_string(line) + ": " + why);
}

}  // namespace

std::vector<TopologyEvent> parseTopologyChanges(const std::string& text, const std::string& path) {
  std::vector<TopologyEvent> events(1);
  std::istringstream in(text);
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    std::istringstream words(line);
    std::string command;
    if (!(words >> command)) continue;
    if (command == "T=") {
      double time;
      if (!(words >> time) || !std::isfinite(time)) malformed(path, number, "\"T=\" needs a time");
      if (time < events.back().time) {
        std::ostringstream why;
        why << "T= " << time << " goes back before the time above it (" << events.back().time
            << ")";
        malformed(path, number, why.str());
      }
      events.push_back({time, number, {}, ""});
    } else if (command == "REMOVE=") {
      long long count;
      if (!(words >> count) || count < 0)
        malformed(path, number, "\"REMOVE=\" needs the number of cells it removes");
      std::string indices;
      if (!std::getline(in, indices))
        malformed(path, number,
                  "\"REMOVE= " + std::to_string(count) +
                      "\" is the last line: the line of indices is missing");
      ++number;
      std::istringstream list(indices);
      std::vector<std::int64_t> removal;
      long long index;
      while (list >> index) {
        if (index < 0) malformed(path, number, "a cell index is negative");
        removal.push_back(index);
      }
      if (!list.eof()) malformed(path, number, "the cell indices are not all integers");
      // SOFA reads exactly `count` indices into a zero-filled list: a short line's missing
      // index is 0 (SOFA's RemovingHexaProcess.txt lists "1 .. 9" under "REMOVE= 10"), and
      // what a long line lists past them is not read. Two missing, or one beside a listed 0,
      // would remove cell 0 twice.
      const long long listed = static_cast<long long>(removal.size());
      if (count > listed &&
          (count - listed > 1 || std::find(removal.begin(), removal.end(), 0) != removal.end()))
        malformed(path, number,
                  "\"REMOVE= " + std::to_string(count) + "\" above, but this line lists " +
                      std::to_string(listed) +
                      " cell indices; SOFA reads each missing one as 0, which would remove "
                      "cell 0 twice");
      removal.resize(static_cast<std::size_t>(count), 0);
      events.back().removals.push_back(std::move(removal));
    } else if ((command == "ADD=" || command == "INCISE=") && events.back().unsupported.empty()) {
      events.back().unsupported = "topology.changes = " + path + ":" + std::to_string(number) +
                                  ": " + command + " (" +
                                  (command == "ADD=" ? "adding cells" : "cutting triangles") + ")";
    }
  }
  if (events.front().removals.empty() && events.front().unsupported.empty())
    events.erase(events.begin());
  return events;
}

namespace {

std::string fileText(const std::string& path) {
  if (const std::string problem = inputFileProblem(path); !problem.empty())
    throw Error("topology.changes = " + path + ": " + problem);
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in) throw Error("topology.changes = " + path + ": cannot be read");
  return text.str();
}

}  // namespace

std::vector<TopologyEvent> readTopologyChanges(const std::string& path) {
  return parseTopologyChanges(fileText(path), path);
}

std::vector<TopologyEvent> readTopologyChanges(const std::string& path, MPI_Comm comm) {
  std::string text, failure;
  if (commRank(comm) == 0) {
    try {
      text = fileText(path);
    } catch (const Error& e) {
      failure = e.what();
    }
  }
  throwIfAnyRankFailed(failure, comm);
  std::int64_t size = std::int64_t(text.size());
  EIS_CHECK_MPI(MPI_Bcast(&size, 1, MPI_INT64_T, 0, comm));
  text.resize(std::size_t(size));
  broadcastInPieces(text.data(), size, MPI_CHAR, 0, comm);
  return parseTopologyChanges(text, path);
}

const TopologyEvent* TopologySchedule::due(double clock) {
  const TopologyEvent* last = nullptr;
  while (next_ < events_.size() &&
         (events_[next_].time < clock || std::fabs(events_[next_].time - clock) < DBL_EPSILON))
    last = &events_[next_++];
  return last;
}

const RegisterComponent registered(960, topologyChangesComponent);

}  // namespace eis
