#include "eis/io/xdmf_output.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <tuple>

#include "eis/core/error.hpp"
#include "eis/io/checkpoint_file.hpp"
#include "eis/io/hdf5_writer.hpp"
#include "eis/io/output_file.hpp"
#include "eis/io/xdmf_datasets.hpp"

namespace eis {

namespace {

namespace fs = std::filesystem;

constexpr const char* kKey = "output.xdmf";

std::string sixDigits(int step) {
  char text[32];
  std::snprintf(text, sizeof text, "%06d", step);
  return text;
}

// The shortest text that reads back as the same double.
std::string shortest(double value) {
  char text[32];
  const auto end = std::to_chars(text, text + sizeof text, value).ptr;
  return std::string(text, end);
}

std::string xmlEscaped(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '&')
      out += "&amp;";
    else if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '"')
      out += "&quot;";
    else
      out += c;
  }
  return out;
}

// One written step as the index lists it.
struct IndexedStep {
  int step;
  std::string time;
};

class XdmfOutput : public Output {
public:
  XdmfOutput(MPI_Comm comm, const std::string& prefix, int every) : comm_(comm), every_(every) {
    const fs::path path(prefix);
    h5Path_ = prefix + ".h5";
    indexPath_ = prefix + ".xdmf";
    h5Name_ = path.filename().string() + ".h5";
  }
  ~XdmfOutput() override {
    VecDestroy(&geometry_);
    VecDestroy(&work_);
  }

  // The starting state is the series' first step; a restart continues the series, its starting
  // step written only when the uninterrupted run wrote it.
  void start(const RunStates& states) override {
    const RunState& state = states.front();
    if (state.resumed) resume(state.step);
    writeMesh(states);
    if (!state.resumed || state.step % every_ == 0) writeStep(state.step, state.time, states);
  }
  void write(const StepRecord& step, const RunStates& states) override {
    if (step.step % every_ == 0 || step.last) writeStep(step.step, step.time, states);
  }
  std::string where() const override { return "XDMF series: " + indexPath_; }

private:
  void resume(int step);
  void writeMesh(const RunStates& states);
  // The bodies' nodal vectors (`x` or `v`) joined, in the file's node rows.
  Vec joinNodal(const RunStates& states, bool velocity);
  // The bodies' shown field shown_[k] (TimeIntegrator::saveShown) joined likewise.
  Vec joinShown(const RunStates& states, std::size_t k);
  void writeStep(int step, double time, const RunStates& states);
  std::string indexXml() const;

  MPI_Comm comm_;
  int every_;
  std::string h5Path_, indexPath_, h5Name_;
  std::vector<std::unique_ptr<NaturalOrder>> nodes_;  // per body
  std::vector<std::unique_ptr<CellOrder>> cells_;
  std::unique_ptr<JoinedRows> nodeRows_, cellRows_;  // every body's rows
  Vec geometry_ = nullptr, work_ = nullptr;
  std::vector<IndexedStep> steps_;  // on rank 0
  std::vector<std::string> paths_;  // the bodies' node paths when there are several
  std::vector<std::string> shown_;  // the integrators' fields (shownFieldNames)
  bool elastic_ = true;
  CellType cellType_ = CellType::Tetrahedron;  // every body's: one topology holds them all
};

void XdmfOutput::resume(int step) {
  if (commRank(comm_) != 0) return;
  std::ifstream in(indexPath_);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // The grids this writer wrote: <Grid Name="step_N" GridType="Uniform"> then, after white
  // space, <Time Value="T". Scanned by hand: std::regex took 5 s of this file's compile time.
  const std::string grid = "<Grid Name=\"step_", uniform = "\" GridType=\"Uniform\">",
                    time = "<Time Value=\"";
  for (std::size_t at = text.find(grid); at != std::string::npos; at = text.find(grid, at)) {
    at += grid.size();
    const std::size_t digits = text.find_first_not_of("0123456789", at);
    if (digits == at || digits == std::string::npos ||
        text.compare(digits, uniform.size(), uniform))
      continue;
    std::size_t next = text.find_first_not_of(" \t\r\n\f\v", digits + uniform.size());
    if (next == std::string::npos || text.compare(next, time.size(), time)) continue;
    next += time.size();
    const std::size_t close = text.find('"', next);
    if (close == std::string::npos) break;
    const int written = std::stoi(text.substr(at, digits - at));
    if (written < step) steps_.push_back({written, text.substr(next, close - next)});
  }
}

// With several bodies the rows are body 0's, then body 1's, ...; "/mesh/object" and
// "/mesh/cell_object" say whose each row is.
void XdmfOutput::writeMesh(const RunStates& states) {
  elastic_ = states.front().mesh.dofsPerNode() == 3;
  cellType_ = states.front().mesh.cellType();
  shown_ = shownFieldNames(states);
  std::vector<std::int64_t> nodeCounts, cellCounts;
  for (const RunState& state : states) {
    if (state.mesh.dofsPerNode() != states.front().mesh.dofsPerNode())
      throw Error(std::string(kKey) + ": the bodies " + states.front().object + " and " +
                  state.object + " have different physics; the series holds one set of fields");
    if (state.mesh.cellType() != cellType_)
      throw Error(std::string(kKey) + ": the bodies " + states.front().object + " and " +
                  state.object + " have cells of different types; the series holds one");
    nodes_.push_back(std::make_unique<NaturalOrder>(state.mesh, state.x));
    cells_.push_back(std::make_unique<CellOrder>(state.mesh, 1));
    nodeCounts.push_back(nodes_.back()->nodes());
    cellCounts.push_back(cells_.back()->cells());
    if (states.size() > 1) paths_.push_back(state.object);
  }
  const int dofs = states.front().mesh.dofsPerNode();
  nodeRows_ = std::make_unique<JoinedRows>(comm_, nodeCounts, dofs);
  cellRows_ = std::make_unique<JoinedRows>(comm_, cellCounts, 1);
  const std::int64_t n = nodeRows_->rows(), c = cellRows_->rows();
  geometry_ = rowVector(comm_, n, 3);
  Vec ids = rowVector(comm_, n, 1), nodeObject = rowVector(comm_, n, 1),
      cellObject = rowVector(comm_, c, 1);
  std::int64_t offset = 0, cellOffset = 0;
  for (std::size_t b = 0; b < states.size(); ++b) {
    const DistributedMesh& mesh = states[b].mesh;
    const auto setNode = [&](std::int64_t id, const std::array<double, 3>& p) {
      for (int d = 0; d < 3; ++d)
        EIS_CHECK(VecSetValue(geometry_, PetscInt(3 * (offset + id) + d), p[d], INSERT_VALUES));
      EIS_CHECK(VecSetValue(ids, PetscInt(offset + id), PetscScalar(id), INSERT_VALUES));
    };
    for (std::size_t v = 0; v < mesh.numLocalVertices(); ++v)
      if (mesh.owned()[v]) setNode(mesh.nodeIds()[v], mesh.restCoords()[v]);
    for (std::size_t k = 0; k < mesh.unusedNodeIds().size(); ++k)
      setNode(mesh.unusedNodeIds()[k], mesh.unusedNodeCoords()[k]);
    // Each rank marks the rows of its own part of the vectors.
    for (auto [vector, first, count] : {std::make_tuple(nodeObject, offset, nodeCounts[b]),
                                        std::make_tuple(cellObject, cellOffset, cellCounts[b])}) {
      PetscInt start, end;
      EIS_CHECK(VecGetOwnershipRange(vector, &start, &end));
      for (PetscInt row = std::max<PetscInt>(start, PetscInt(first));
           row < std::min<PetscInt>(end, PetscInt(first + count)); ++row)
        EIS_CHECK(VecSetValue(vector, row, PetscScalar(b), INSERT_VALUES));
    }
    offset += nodeCounts[b];
    cellOffset += cellCounts[b];
  }
  for (Vec vector : {geometry_, ids, nodeObject, cellObject}) {
    EIS_CHECK(VecAssemblyBegin(vector));
    EIS_CHECK(VecAssemblyEnd(vector));
  }
  if (elastic_) EIS_CHECK(VecDuplicate(geometry_, &work_));

  // A fresh series creates PREFIX.h5 anew: what an earlier run left there (a file, or a link,
  // which HDF5's create would truncate and write through) is removed first, as a rename would
  // replace it. A restart appends to the series' own file and only opens it.
  const bool resumed = states.front().resumed;
  if (!resumed) clearNameForHdf5(std::string(kKey) + " = " + h5Path_, h5Path_, comm_);
  Hdf5Writer file(comm_, std::string(kKey) + " = " + h5Path_, h5Path_,
                  resumed ? Hdf5Writer::Mode::append : Hdf5Writer::Mode::create);
  const auto real = Hdf5Writer::Type::real;
  const auto integer = Hdf5Writer::Type::integer;
  file.write("/mesh", "geometry", geometry_, 3, real, true);
  file.write("/mesh", "node_id", ids, 1, integer, true);
  const int corners = cornersOf(cellType_);
  JoinedRows topology(comm_, cellCounts, corners);
  offset = 0;
  for (std::size_t b = 0; b < states.size(); ++b) {
    const DistributedMesh& mesh = states[b].mesh;
    const CellOrder vertices(mesh, corners);
    std::vector<double> cellValues;
    for (const auto& cell : mesh.cells())
      for (PetscInt v : cell) cellValues.push_back(double(offset + mesh.nodeIds()[v]));
    vertices.toNatural(cellValues);
    topology.place(b, vertices.natural());
    cells_[b]->toNatural(std::vector<double>(mesh.cellTags().begin(), mesh.cellTags().end()));
    cellRows_->place(b, cells_[b]->natural());
    offset += nodeCounts[b];
  }
  file.write("/mesh", "topology", topology.joined(), corners, integer, true);
  file.write("/mesh", "region", cellRows_->joined(), 1, integer, true);
  if (!paths_.empty()) {
    file.write("/mesh", "object", nodeObject, 1, integer, true);
    file.write("/mesh", "cell_object", cellObject, 1, integer, true);
  }
  for (Vec* vector : {&ids, &nodeObject, &cellObject}) EIS_CHECK(VecDestroy(vector));
  file.close();
}

Vec XdmfOutput::joinNodal(const RunStates& states, bool velocity) {
  for (std::size_t b = 0; b < states.size(); ++b) {
    const RunState& state = states[b];
    nodes_[b]->toNatural(velocity ? state.v : state.x, velocity ? 1 : 0, state.initial);
    nodeRows_->place(b, nodes_[b]->natural());
  }
  return nodeRows_->joined();
}

Vec XdmfOutput::joinShown(const RunStates& states, std::size_t k) {
  for (std::size_t b = 0; b < states.size(); ++b)
    useShownFields(states[b], shown_, [&](std::size_t field, Vec vector) {
      if (field != k) return;
      if (vector)
        nodes_[b]->toNatural(vector, 1, nullptr);
      else
        EIS_CHECK(VecZeroEntries(nodes_[b]->natural()));
      nodeRows_->place(b, nodes_[b]->natural());
    });
  return nodeRows_->joined();
}

void XdmfOutput::writeStep(int step, double time, const RunStates& states) {
  const std::string group = "/steps/" + sixDigits(step);
  Hdf5Writer file(comm_, std::string(kKey) + " = " + h5Path_, h5Path_, Hdf5Writer::Mode::append);
  const auto real = Hdf5Writer::Type::real;
  if (elastic_) {
    EIS_CHECK(VecWAXPY(work_, -1.0, geometry_, joinNodal(states, false)));
    file.write(group, "displacement", work_, 3, real, true);
    file.write(group, "velocity", joinNodal(states, true), 3, real, true);
    for (std::size_t b = 0; b < states.size(); ++b) {
      cells_[b]->toNatural(states[b].system.vonMisesStress(states[b].x));
      cellRows_->place(b, cells_[b]->natural());
    }
    file.write(group, "von_mises", cellRows_->joined(), 1, real, false);
  } else {
    file.write(group, "u", joinNodal(states, false), 1, real, false);
    file.write(group, "du", joinNodal(states, true), 1, real, false);
  }
  for (std::size_t k = 0; k < shown_.size(); ++k)
    file.write(group, shown_[k], joinShown(states, k), elastic_ ? 3 : 1, real, elastic_);
  file.close();

  // Only now that the step's data is on disk (flushed, MPI-IO syncing it, and closed) may the
  // index name it; the index too is synced, then
  // renamed.
  std::string message;
  if (commRank(comm_) == 0) {
    steps_.push_back({step, shortest(time)});
    const std::string xml = indexXml();
    message = replaceFile(kKey, indexPath_,
                          [&](std::FILE* out) { std::fwrite(xml.data(), 1, xml.size(), out); });
  }
  throwIfAnyRankFailed(message, comm_);
}

std::string XdmfOutput::indexXml() const {
  const std::string nodes = std::to_string(nodeRows_->rows()),
                    cells = std::to_string(cellRows_->rows());
  const std::string file = xmlEscaped(h5Name_) + ":";
  const std::string integer =
      "NumberType=\"Int\" Precision=\"" + std::to_string(sizeof(PetscInt)) + "\"";
  const std::string real = "NumberType=\"Float\" Precision=\"8\"";
  const auto item = [&](const std::string& dimensions, const std::string& type,
                        const std::string& path) {
    return "<DataItem Dimensions=\"" + dimensions + "\" " + type + " Format=\"HDF\">" + file +
           path + "</DataItem>";
  };
  const auto attribute = [&](const char* name, const char* kind, const char* center,
                             const std::string& data) {
    return std::string("        <Attribute Name=\"") + name + "\" AttributeType=\"" + kind +
           "\" Center=\"" + center + "\">\n          " + data + "\n        </Attribute>\n";
  };
  std::string xml =
      "<?xml version=\"1.0\"?>\n<Xdmf Version=\"3.0\">\n  <Domain>\n"
      "    <Grid Name=\"" +
      xmlEscaped(fs::path(indexPath_).stem().string()) +
      "\" GridType=\"Collection\" CollectionType=\"Temporal\">\n";
  // The bodies' node paths, by the index the "object" arrays hold.
  for (std::size_t b = 0; b < paths_.size(); ++b)
    xml += "      <Information Name=\"object " + std::to_string(b) + "\" Value=\"" +
           xmlEscaped(paths_[b]) + "\"/>\n";
  for (const IndexedStep& entry : steps_) {
    const std::string group = "/steps/" + sixDigits(entry.step) + "/";
    xml += "      <Grid Name=\"step_" + sixDigits(entry.step) + "\" GridType=\"Uniform\">\n";
    xml += "        <Time Value=\"" + entry.time + "\"/>\n";
    const std::string corners = std::to_string(cornersOf(cellType_));
    xml += "        <Topology TopologyType=\"" + std::string(xdmfTopologyOf(cellType_)) +
           "\" NumberOfElements=\"" + cells + "\" NodesPerElement=\"" + corners +
           "\">\n          " + item(cells + " " + corners, integer, "/mesh/topology") +
           "\n        </Topology>\n";
    xml += "        <Geometry GeometryType=\"XYZ\">\n          " +
           item(nodes + " 3", real, "/mesh/geometry") + "\n        </Geometry>\n";
    xml += attribute("node_id", "Scalar", "Node", item(nodes + " 1", integer, "/mesh/node_id"));
    xml += attribute("region", "Scalar", "Cell", item(cells + " 1", integer, "/mesh/region"));
    if (!paths_.empty()) {
      xml += attribute("object", "Scalar", "Node", item(nodes + " 1", integer, "/mesh/object"));
      xml +=
          attribute("object", "Scalar", "Cell", item(cells + " 1", integer, "/mesh/cell_object"));
    }
    if (elastic_) {
      xml += attribute("displacement", "Vector", "Node",
                       item(nodes + " 3", real, group + "displacement"));
      xml += attribute("velocity", "Vector", "Node", item(nodes + " 3", real, group + "velocity"));
      xml += attribute("von_mises", "Scalar", "Cell", item(cells, real, group + "von_mises"));
    } else {
      xml += attribute("u", "Scalar", "Node", item(nodes, real, group + "u"));
      xml += attribute("du", "Scalar", "Node", item(nodes, real, group + "du"));
    }
    for (const std::string& name : shown_)
      xml += attribute(name.c_str(), elastic_ ? "Vector" : "Scalar", "Node",
                       item(elastic_ ? nodes + " 3" : nodes, real, group + name));
    xml += "      </Grid>\n";
  }
  xml += "    </Grid>\n  </Domain>\n</Xdmf>\n";
  return xml;
}

}  // namespace

OutputComponent xdmfOutputComponent() {
  return {
      {"xdmf", "output", "ParaView time series as one HDF5 file and an XDMF index",
       ParameterSpec().add(
           {kKey, "PREFIX",
            "ParaView time series in one HDF5 file, written by every rank together: PREFIX.h5 (the\n"
            "mesh once: rest points, tetrahedra, node_id, region; per written step displacement,\n"
            "velocity and von Mises stress, or u and du; constraint_force, J^T lambda / h, under a\n"
            "Lagrangian constraint solver) and PREFIX.xdmf, its XDMF 3 index (open it\n"
            "with ParaView's XDMF reader, Xdmf3ReaderT). Rows in the input's node order, the same for\n"
            "any rank count; steps as output.every says; the index names only complete steps. With\n"
            "several bodies, their rows one after another, with point and cell data object (the\n"
            "body's index; the index's Information elements \"object <index>\" name them)",
            std::nullopt, "", false, check::anyText()}),
       nullptr},
      [](const Parameters& scene, MPI_Comm comm) -> std::unique_ptr<Output> {
        const std::string prefix = scene.optionalText(kKey);
        if (prefix.empty()) return nullptr;
        const std::string name = fs::path(prefix).filename().string();
        if (name.empty() || name == "." || name == "..")
          throw Error(std::string(kKey) + " = " + prefix +
                      ": the prefix does not end in a file name");
        prepareOutputFile(kKey, prefix + ".h5", FileWrite::Replaced, comm);
        prepareOutputFile(kKey, prefix + ".xdmf", FileWrite::Replaced, comm);
        return std::make_unique<XdmfOutput>(comm, prefix, scene.integer("output.every"));
      }};
}

const RegisterOutput registered(930, xdmfOutputComponent);

}  // namespace eis
