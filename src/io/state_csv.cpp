#include "eis/io/state_csv.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <numeric>
#include <sstream>

#include "eis/core/error.hpp"
#include "eis/core/input_file.hpp"
#include "eis/core/mpi_chunks.hpp"
#include "eis/io/initial_values.hpp"
#include "eis/io/output_file.hpp"
#include "eis/model/physics.hpp"

namespace eis {

int stateWidth(Physics physics) {
  return physics == Physics::Elasticity ? 6 : 2;
}

std::string stateHeader(Physics physics) {
  return physics == Physics::Elasticity ? "id,x,y,z,vx,vy,vz" : "id,u,du";
}

const double* NodalTable::find(std::int64_t id) const {
  auto it = std::lower_bound(ids.begin(), ids.end(), id);
  if (it == ids.end() || *it != id) return nullptr;
  return values.data() + (it - ids.begin()) * width;
}

namespace {

// The object field that ends a row at `p` (after its comma): plain, or quoted as RFC 4180
// quotes (the final-state writer quotes a path with a comma or a quote); false when malformed.
bool objectField(const char* p, std::string& field) {
  field.clear();
  if (*p != '"') {
    for (; *p && *p != '\r'; ++p) {
      if (*p == '"') return false;
      field += *p;
    }
    return !field.empty() && (*p == '\0' || p[1] == '\0');
  }
  for (++p;; ++p) {
    if (*p == '\0') return false;
    if (*p == '"') {
      if (p[1] != '"') break;
      ++p;
    }
    field += *p;
  }
  ++p;
  return *p == '\0' || (*p == '\r' && p[1] == '\0');
}

// Sorted by id, so that lookups can bisect; a repeated id is an error.
NodalTable sortedById(const NodalTable& table, const std::string& path, const std::string& object) {
  std::vector<std::pair<std::int64_t, std::size_t>> order;
  for (std::size_t k = 0; k < table.ids.size(); ++k) order.emplace_back(table.ids[k], k);
  std::sort(order.begin(), order.end());
  NodalTable sorted;
  sorted.width = table.width;
  for (std::size_t k = 0; k < order.size(); ++k) {
    if (k > 0 && order[k].first == order[k - 1].first)
      throw Error("initial.state = " + path + ": node id " + std::to_string(order[k].first) +
                  (object.empty() ? std::string() : " of object " + object) + " appears twice");
    sorted.ids.push_back(order[k].first);
    const double* row = table.values.data() + order[k].second * table.width;
    sorted.values.insert(sorted.values.end(), row, row + table.width);
  }
  return sorted;
}

// The file's rows, by object in the order they first appear; `objects`: the file has the last
// column `object` (a final state of several bodies), else one table whose path is "".
std::vector<ObjectState> parseStateFile(const std::string& path, Physics physics, bool objects) {
  if (const std::string problem = inputFileProblem(path); !problem.empty())
    throw Error("initial.state = " + path + ": " + problem);
  std::ifstream in(path);
  if (!in) throw Error("initial.state = " + path + ": cannot open the file");
  std::string line;
  std::getline(in, line);
  if (!line.empty() && line.back() == '\r') line.pop_back();
  const std::string header = stateHeader(physics) + (objects ? ",object" : "");
  if (line != header)
    throw Error("initial.state = " + path + ": line 1: expected the header '" + header +
                "', found '" + line + "'" +
                (objects ? " (a scene of several bodies starts from the final state of one)"
                         : (line == stateHeader(physics) + ",object"
                                ? " (this file holds several bodies, the scene one)"
                                : "")));
  const int width = stateWidth(physics);
  std::vector<ObjectState> read;
  std::string object;
  for (int lineNo = 2; std::getline(in, line); ++lineNo) {
    if (line.empty() || line == "\r") continue;
    const char* p = line.c_str();
    char* end = nullptr;
    const long long id = std::strtoll(p, &end, 10);
    if (end != p && *end == ',' && id < 0)
      throw Error("initial.state = " + path + ": line " + std::to_string(lineNo) + ": node id " +
                  std::to_string(id) + " is negative (ids are 0-based positions in the mesh)");
    bool ok = end != p && *end == ',';
    std::vector<double> row(width);
    for (int k = 0; ok && k < width; ++k) {
      p = end + 1;
      row[k] = std::strtod(p, &end);
      const bool last = k + 1 == width;
      ok = end != p && std::isfinite(row[k]) &&
           (*end == (last && !objects ? '\0' : ',') || (last && !objects && *end == '\r'));
    }
    if (ok && objects) ok = objectField(end + 1, object);
    if (!ok)
      throw Error("initial.state = " + path + ": line " + std::to_string(lineNo) + ": expected " +
                  std::to_string(width + 1) + " comma-separated numbers" +
                  (objects ? " and an object path" : "") + " (" + header + ")");
    auto it = std::find_if(read.begin(), read.end(),
                           [&](const ObjectState& state) { return state.path == object; });
    if (it == read.end()) {
      read.push_back({object, {}});
      it = read.end() - 1;
      it->state.width = width;
    }
    it->state.ids.push_back(id);
    it->state.values.insert(it->state.values.end(), row.begin(), row.end());
  }
  for (ObjectState& state : read) state.state = sortedById(state.state, path, state.path);
  if (read.empty() && !objects) read.push_back({"", NodalTable{width, {}, {}}});
  return read;
}

// Collective: rank 0's table on every rank.
void broadcastTable(NodalTable& table, MPI_Comm comm) {
  std::int64_t count = std::int64_t(table.ids.size());
  EIS_CHECK_MPI(MPI_Bcast(&count, 1, MPI_INT64_T, 0, comm));
  table.ids.resize(count);
  table.values.resize(count * table.width);
  broadcastInPieces(table.ids.data(), count, MPI_INT64_T, 0, comm);
  broadcastInPieces(table.values.data(), count * table.width, MPI_DOUBLE, 0, comm);
}

// Collective: rank 0 parses, every rank receives the objects' tables (or the error).
std::vector<ObjectState> readStates(const std::string& path, Physics physics, bool objects,
                                    MPI_Comm comm) {
  std::vector<ObjectState> read;
  std::string failure;
  if (commRank(comm) == 0) {
    try {
      read = parseStateFile(path, physics, objects);
    } catch (const Error& e) {
      failure = e.what();
    }
  }
  throwIfAnyRankFailed(failure, comm);
  int count = int(read.size());
  EIS_CHECK_MPI(MPI_Bcast(&count, 1, MPI_INT, 0, comm));
  read.resize(std::size_t(count));
  for (ObjectState& object : read) {
    int length = int(object.path.size());
    EIS_CHECK_MPI(MPI_Bcast(&length, 1, MPI_INT, 0, comm));
    object.path.resize(std::size_t(length));
    EIS_CHECK_MPI(MPI_Bcast(object.path.data(), length, MPI_CHAR, 0, comm));
    object.state.width = stateWidth(physics);
    broadcastTable(object.state, comm);
  }
  return read;
}

}  // namespace

NodalTable readStateCsv(const std::string& path, Physics physics, MPI_Comm comm) {
  return readStates(path, physics, false, comm).front().state;
}

std::vector<ObjectState> readObjectStatesCsv(const std::string& path, Physics physics,
                                             MPI_Comm comm) {
  return readStates(path, physics, true, comm);
}

void applyState(const NodalTable& table, const std::string& path, const DistributedMesh& mesh,
                Vec x, Vec v) {
  const int half = table.width / 2;
  PetscScalar *xs, *vs;
  EIS_CHECK(VecGetArray(x, &xs));
  EIS_CHECK(VecGetArray(v, &vs));
  std::string failure;
  std::int64_t matched = 0;
  for (PetscInt n = 0; n < PetscInt(mesh.numLocalVertices()) && failure.empty(); ++n) {
    if (!mesh.owned()[n]) continue;
    const double* row = table.find(mesh.nodeIds()[n]);
    if (!row) {
      failure =
          "initial.state = " + path + ": no row for node " + std::to_string(mesh.nodeIds()[n]);
      break;
    }
    ++matched;
    for (int d = 0; d < half; ++d) {
      xs[mesh.ownedOffset(n) + d] = row[d];
      vs[mesh.ownedOffset(n) + d] = row[half + d];
    }
  }
  EIS_CHECK(VecRestoreArray(v, &vs));
  EIS_CHECK(VecRestoreArray(x, &xs));
  throwIfAnyRankFailed(failure, mesh.comm());
  // Rows for nodes the mesh does not have mean the file belongs to another mesh.
  for (auto id : mesh.unusedNodeIds()) matched += table.find(id) != nullptr;
  EIS_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, &matched, 1, MPI_INT64_T, MPI_SUM, mesh.comm()));
  if (matched != std::int64_t(table.ids.size()))
    throw Error("initial.state = " + path + ": " + std::to_string(table.ids.size() - matched) +
                " rows name no node of the mesh (was it written for another mesh?)");
}

NodalTable gatherState(const DistributedMesh& mesh, Vec x, Vec v, const NodalTable* initial) {
  MPI_Comm comm = mesh.comm();
  const int rank = commRank(comm);
  const int half = mesh.dofsPerNode(), width = 2 * half;

  std::vector<std::int64_t> ids;
  std::vector<double> values;
  const PetscScalar *xs, *vs;
  EIS_CHECK(VecGetArrayRead(x, &xs));
  EIS_CHECK(VecGetArrayRead(v, &vs));
  for (PetscInt n = 0; n < PetscInt(mesh.numLocalVertices()); ++n) {
    if (!mesh.owned()[n]) continue;
    ids.push_back(mesh.nodeIds()[n]);
    for (int d = 0; d < half; ++d) values.push_back(xs[mesh.ownedOffset(n) + d]);
    for (int d = 0; d < half; ++d) values.push_back(vs[mesh.ownedOffset(n) + d]);
  }
  EIS_CHECK(VecRestoreArrayRead(v, &vs));
  EIS_CHECK(VecRestoreArrayRead(x, &xs));

  std::vector<std::int64_t> allIds = gatherInt64s(ids, 0, comm);
  std::vector<double> allValues = gatherDoubles(values, 0, comm);

  NodalTable state;
  state.width = width;
  if (rank != 0) return state;
  // Nodes no tetrahedron uses never entered the solver: they keep their initial values.
  const auto& unusedIds = mesh.unusedNodeIds();
  for (std::size_t k = 0; k < unusedIds.size(); ++k) {
    allIds.push_back(unusedIds[k]);
    const double* row = initial ? initial->find(unusedIds[k]) : nullptr;
    for (int c = 0; c < width; ++c) {
      const bool position = half == 3 && c < 3;
      allValues.push_back(row ? row[c] : position ? mesh.unusedNodeCoords()[k][c] : 0.0);
    }
  }
  std::vector<std::size_t> order(allIds.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return allIds[a] < allIds[b]; });
  for (auto k : order) {
    state.ids.push_back(allIds[k]);
    state.values.insert(state.values.end(), &allValues[k * width], &allValues[k * width] + width);
  }
  return state;
}

void writeStateCsv(const std::string& path, const NodalTable& state, Physics physics,
                   MPI_Comm comm) {
  writeStateCsv(path, {{"", state}}, physics, comm);
}

namespace {

// A CSV field: quoted (RFC 4180) when it holds a comma, a quote or a line break.
std::string csvField(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

}  // namespace

void writeStateCsv(const std::string& path, const std::vector<ObjectState>& objects,
                   Physics physics, MPI_Comm comm) {
  const bool several = objects.size() > 1;
  std::string failure;
  if (commRank(comm) == 0)
    failure = replaceFile("output.final-state", path, [&](std::FILE* file) {
      std::fprintf(file, "%s%s\n", stateHeader(physics).c_str(), several ? ",object" : "");
      for (const ObjectState& object : objects) {
        const NodalTable& state = object.state;
        const std::string column = several ? "," + csvField(object.path) : "";
        for (std::size_t k = 0; k < state.ids.size(); ++k) {
          std::fprintf(file, "%lld", static_cast<long long>(state.ids[k]));
          for (int c = 0; c < state.width; ++c)
            std::fprintf(file, ",%.17g", state.values[k * state.width + c]);
          std::fprintf(file, "%s\n", column.c_str());
        }
      }
    });
  throwIfAnyRankFailed(failure, comm);
}

const ComponentDeclaration& initialStateComponent() {
  static const ComponentDeclaration component{
      "initial-state", "initial state", "where the run starts",
      ParameterSpec()
          .add(
              {"initial.state", "PATH",
               "where the run starts: a CSV in the output.final-state format (at step 0, t = 0; with\n"
               "several bodies, its object column gives each body its rows), or a\n"
               "checkpoint of output.checkpoint (an HDF5 file: its state, step and time continue,\n"
               "the outputs start afresh; initial.restart also continues them). Absent: at rest, zero\n"
               "velocity.",
               std::nullopt, "", false, check::anyText()})
          .add({"initial.positions", "\"X Y Z ..\"",
                "the starting position of every node of the input, in node order (SOFA\n"
                "MechanicalObject `position` beside a `rest_position`); the rest shape stays the\n"
                "mesh's. Absent: the rest positions",
                std::nullopt, "length", false, initialValuesCheck()})
          .add({"initial.velocities", "\"VX VY VZ ..\"",
                "the starting velocity of the nodes of the input, in node order; the nodes after\n"
                "the last one given take its velocity (SOFA MechanicalObject `velocity`), so one\n"
                "velocity moves them all. Absent: zero",
                std::nullopt, "length/time", false, initialValuesCheck()})
          .add({"initial.values", "\"U0 U1 ..\"",
                "diffusion: the starting u of every node of the input, in node order, one number\n"
                "a node (SOFA's Vec1 MechanicalObject `position`). Absent: zero",
                std::nullopt, "", false, check::reals(0)}),
      nullptr};
  return component;
}

const RegisterComponent registered(800, initialStateComponent);

}  // namespace eis
