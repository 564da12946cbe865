#include "eis/io/xdmf_output.hpp"

#include <petscviewerhdf5.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <unordered_map>

#include "eis/core/error.hpp"
#include "eis/io/checkpoint_file.hpp"
#include "eis/io/output_file.hpp"

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

PetscObject object(Vec vector) {
  return reinterpret_cast<PetscObject>(vector);
}

// A global vector of `rows` rows of `width` values, split over the ranks as PETSc decides; made
// the way NaturalOrder makes its vector, so that those of the same size share a layout.
Vec rowVector(MPI_Comm comm, std::int64_t rows, int width) {
  Vec vector;
  EIS_CHECK(VecCreate(comm, &vector));
  EIS_CHECK(VecSetSizes(vector, PETSC_DECIDE, PetscInt(rows * width)));
  EIS_CHECK(VecSetBlockSize(vector, width));
  EIS_CHECK(VecSetType(vector, VECMPI));
  return vector;
}

// The file's row of each local cell: input tetrahedron k becomes rows k * 8^r ... k * 8^r + 8^r - 1
// (refinement keeps a cell's children on its rank, in the order the rank holds them).
std::vector<PetscInt> cellRows(const DistributedMesh& mesh, std::int64_t& total) {
  const auto& parents = mesh.inputCellIds();
  std::int64_t inputCells = 0;
  for (std::int64_t parent : parents) inputCells = std::max(inputCells, parent + 1);
  total = std::int64_t(parents.size());
  EIS_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, &total, 1, MPI_INT64_T, MPI_SUM, mesh.comm()));
  EIS_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, &inputCells, 1, MPI_INT64_T, MPI_MAX, mesh.comm()));
  const std::int64_t children = total / inputCells;
  std::unordered_map<std::int64_t, std::int64_t> taken;
  std::vector<PetscInt> rows;
  for (std::int64_t parent : parents) rows.push_back(PetscInt(parent * children + taken[parent]++));
  return rows;
}

// The scatter from `width` values per local cell to the same values in the file's cell order.
class CellOrder {
public:
  CellOrder(const DistributedMesh& mesh, int width) {
    const std::vector<PetscInt> rows = cellRows(mesh, cells_);
    EIS_CHECK(VecCreateMPI(mesh.comm(), PetscInt(rows.size()) * width, PETSC_DETERMINE, &local_));
    natural_ = rowVector(mesh.comm(), cells_, width);
    PetscInt start;
    EIS_CHECK(VecGetOwnershipRange(local_, &start, nullptr));
    std::vector<PetscInt> from, to;
    for (std::size_t c = 0; c < rows.size(); ++c)
      for (int k = 0; k < width; ++k) {
        from.push_back(start + PetscInt(c) * width + k);
        to.push_back(rows[c] * width + k);
      }
    IS isFrom, isTo;
    EIS_CHECK(ISCreateGeneral(PETSC_COMM_SELF, PetscInt(from.size()), from.data(),
                              PETSC_COPY_VALUES, &isFrom));
    EIS_CHECK(
        ISCreateGeneral(PETSC_COMM_SELF, PetscInt(to.size()), to.data(), PETSC_COPY_VALUES, &isTo));
    EIS_CHECK(VecScatterCreate(local_, isFrom, natural_, isTo, &scatter_));
    EIS_CHECK(ISDestroy(&isFrom));
    EIS_CHECK(ISDestroy(&isTo));
  }
  ~CellOrder() {
    VecScatterDestroy(&scatter_);
    VecDestroy(&natural_);
    VecDestroy(&local_);
  }
  CellOrder(const CellOrder&) = delete;
  CellOrder& operator=(const CellOrder&) = delete;
  std::int64_t cells() const { return cells_; }
  Vec natural() const { return natural_; }
  // Fills natural() from this rank's values, `width` per local cell.
  void toNatural(const std::vector<double>& values) const {
    PetscScalar* local;
    EIS_CHECK(VecGetArray(local_, &local));
    std::copy(values.begin(), values.end(), local);
    EIS_CHECK(VecRestoreArray(local_, &local));
    EIS_CHECK(VecScatterBegin(scatter_, local_, natural_, INSERT_VALUES, SCATTER_FORWARD));
    EIS_CHECK(VecScatterEnd(scatter_, local_, natural_, INSERT_VALUES, SCATTER_FORWARD));
  }

private:
  std::int64_t cells_ = 0;
  Vec local_ = nullptr, natural_ = nullptr;
  VecScatter scatter_ = nullptr;
};

// PREFIX.h5, open while one step (or the mesh) is written; closed, so complete on disk, after.
class Hdf5File {
public:
  Hdf5File(MPI_Comm comm, const std::string& path, PetscFileMode mode) {
    try {
      EIS_CHECK(PetscViewerHDF5Open(comm, path.c_str(), mode, &viewer_));
    } catch (const Error& e) {
      throw Error(std::string(kKey) + ": cannot open " + path + " for writing: " + e.what());
    }
  }
  ~Hdf5File() { PetscViewerDestroy(&viewer_); }
  Hdf5File(const Hdf5File&) = delete;
  Hdf5File& operator=(const Hdf5File&) = delete;

  void write(const std::string& group, const char* name, Vec vector) {
    EIS_CHECK(PetscViewerHDF5PushGroup(viewer_, group.c_str()));
    EIS_CHECK(PetscObjectSetName(object(vector), name));
    EIS_CHECK(VecView(vector, viewer_));
    EIS_CHECK(PetscViewerHDF5PopGroup(viewer_));
  }
  // The integers `vector` holds (exactly, as reals), `width` per row, as an Int dataset.
  void writeIntegers(const std::string& group, const char* name, Vec vector, int width) {
    PetscInt n;
    const PetscScalar* values;
    EIS_CHECK(VecGetLocalSize(vector, &n));
    EIS_CHECK(VecGetArrayRead(vector, &values));
    const std::vector<PetscInt> integers(values, values + n);
    EIS_CHECK(VecRestoreArrayRead(vector, &values));
    IS is;
    EIS_CHECK(ISCreateGeneral(PetscObjectComm(object(vector)), n, integers.data(),
                              PETSC_COPY_VALUES, &is));
    EIS_CHECK(ISSetBlockSize(is, width));
    EIS_CHECK(PetscViewerHDF5PushGroup(viewer_, group.c_str()));
    EIS_CHECK(PetscObjectSetName(reinterpret_cast<PetscObject>(is), name));
    EIS_CHECK(ISView(is, viewer_));
    EIS_CHECK(PetscViewerHDF5PopGroup(viewer_));
    EIS_CHECK(ISDestroy(&is));
  }
  void close() { EIS_CHECK(PetscViewerDestroy(&viewer_)); }

private:
  PetscViewer viewer_ = nullptr;
};

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
    writeMesh(state);
    if (!state.resumed || state.step % every_ == 0) writeStep(state.step, state.time, state);
  }
  void write(const StepRecord& step, const RunStates& states) override {
    if (step.step % every_ == 0 || step.last) writeStep(step.step, step.time, states.front());
  }
  std::string where() const override { return "XDMF series: " + indexPath_; }

private:
  void resume(int step);
  void writeMesh(const RunState& state);
  void writeStep(int step, double time, const RunState& state);
  std::string indexXml() const;

  MPI_Comm comm_;
  int every_;
  std::string h5Path_, indexPath_, h5Name_;
  std::unique_ptr<NaturalOrder> nodes_;
  std::unique_ptr<CellOrder> cells_;
  Vec geometry_ = nullptr, work_ = nullptr;
  std::vector<IndexedStep> steps_;  // on rank 0
  bool elastic_ = true;
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

void XdmfOutput::writeMesh(const RunState& state) {
  const DistributedMesh& mesh = state.mesh;
  elastic_ = mesh.dofsPerNode() == 3;
  nodes_ = std::make_unique<NaturalOrder>(mesh, state.x);
  cells_ = std::make_unique<CellOrder>(mesh, 1);
  const std::int64_t n = nodes_->nodes();
  geometry_ = rowVector(comm_, n, 3);
  Vec ids = rowVector(comm_, n, 1);
  const auto setNode = [&](std::int64_t id, const std::array<double, 3>& p) {
    for (int d = 0; d < 3; ++d)
      EIS_CHECK(VecSetValue(geometry_, PetscInt(3 * id + d), p[d], INSERT_VALUES));
    EIS_CHECK(VecSetValue(ids, PetscInt(id), PetscScalar(id), INSERT_VALUES));
  };
  for (std::size_t v = 0; v < mesh.numLocalVertices(); ++v)
    if (mesh.owned()[v]) setNode(mesh.nodeIds()[v], mesh.restCoords()[v]);
  for (std::size_t k = 0; k < mesh.unusedNodeIds().size(); ++k)
    setNode(mesh.unusedNodeIds()[k], mesh.unusedNodeCoords()[k]);
  for (Vec vector : {geometry_, ids}) {
    EIS_CHECK(VecAssemblyBegin(vector));
    EIS_CHECK(VecAssemblyEnd(vector));
  }
  if (elastic_) EIS_CHECK(VecDuplicate(geometry_, &work_));

  // A fresh series creates PREFIX.h5 anew: what an earlier run left there (a file, or a link,
  // which HDF5's create would truncate and write through) is removed first, as a rename would
  // replace it. A restart appends to the series' own file and only opens it.
  if (!state.resumed) clearNameForHdf5(std::string(kKey) + " = " + h5Path_, h5Path_, comm_);
  Hdf5File file(comm_, h5Path_, state.resumed ? FILE_MODE_APPEND : FILE_MODE_WRITE);
  file.write("/mesh", "geometry", geometry_);
  file.writeIntegers("/mesh", "node_id", ids, 1);
  EIS_CHECK(VecDestroy(&ids));
  const CellOrder vertices(mesh, 4);
  std::vector<double> cellValues;
  for (const auto& cell : mesh.cells())
    for (PetscInt v : cell) cellValues.push_back(double(mesh.nodeIds()[v]));
  vertices.toNatural(cellValues);
  file.writeIntegers("/mesh", "topology", vertices.natural(), 4);
  cells_->toNatural(std::vector<double>(mesh.cellTags().begin(), mesh.cellTags().end()));
  file.writeIntegers("/mesh", "region", cells_->natural(), 1);
  file.close();
}

void XdmfOutput::writeStep(int step, double time, const RunState& state) {
  const std::string group = "/steps/" + sixDigits(step);
  Hdf5File file(comm_, h5Path_, FILE_MODE_APPEND);
  nodes_->toNatural(state.x, 0, state.initial);
  if (elastic_) {
    EIS_CHECK(VecWAXPY(work_, -1.0, geometry_, nodes_->natural()));
    file.write(group, "displacement", work_);
    nodes_->toNatural(state.v, 1, state.initial);
    file.write(group, "velocity", nodes_->natural());
    cells_->toNatural(state.system.vonMisesStress(state.x));
    file.write(group, "von_mises", cells_->natural());
  } else {
    file.write(group, "u", nodes_->natural());
    nodes_->toNatural(state.v, 1, state.initial);
    file.write(group, "du", nodes_->natural());
  }
  file.close();

  // Only now that the step's data is on disk (PETSc's viewer flushes the file after each dataset,
  // MPI-IO syncs it, and it is closed) may the index name it; the index too is synced, then
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
  const std::string nodes = std::to_string(nodes_->nodes()),
                    cells = std::to_string(cells_->cells());
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
  for (const IndexedStep& entry : steps_) {
    const std::string group = "/steps/" + sixDigits(entry.step) + "/";
    xml += "      <Grid Name=\"step_" + sixDigits(entry.step) + "\" GridType=\"Uniform\">\n";
    xml += "        <Time Value=\"" + entry.time + "\"/>\n";
    xml += "        <Topology TopologyType=\"Tetrahedron\" NumberOfElements=\"" + cells +
           "\" NodesPerElement=\"4\">\n          " + item(cells + " 4", integer, "/mesh/topology") +
           "\n        </Topology>\n";
    xml += "        <Geometry GeometryType=\"XYZ\">\n          " +
           item(nodes + " 3", real, "/mesh/geometry") + "\n        </Geometry>\n";
    xml += attribute("node_id", "Scalar", "Node", item(nodes + " 1", integer, "/mesh/node_id"));
    xml += attribute("region", "Scalar", "Cell", item(cells + " 1", integer, "/mesh/region"));
    if (elastic_) {
      xml += attribute("displacement", "Vector", "Node",
                       item(nodes + " 3", real, group + "displacement"));
      xml += attribute("velocity", "Vector", "Node", item(nodes + " 3", real, group + "velocity"));
      xml += attribute("von_mises", "Scalar", "Cell", item(cells, real, group + "von_mises"));
    } else {
      xml += attribute("u", "Scalar", "Node", item(nodes, real, group + "u"));
      xml += attribute("du", "Scalar", "Node", item(nodes, real, group + "du"));
    }
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
            "velocity and von Mises stress, or u and du) and PREFIX.xdmf, its XDMF 3 index (open it\n"
            "with ParaView's XDMF reader, Xdmf3ReaderT). Rows in the input's node order, the same for\n"
            "any rank count; steps as output.every says; the index names only complete steps",
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

}  // namespace eis
