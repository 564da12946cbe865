#include "eis/io/vtk_series_output.hpp"

#include <algorithm>

#include "eis/core/error.hpp"
#include "eis/io/vtk_output.hpp"

namespace eis {

namespace {

// The local values (owned and ghost) of a global vector, while it lives.
class LocalValues {
public:
  LocalValues(DM dm, Vec global) : dm_(dm) {
    EIS_CHECK(DMGetLocalVector(dm_, &local_));
    EIS_CHECK(DMGlobalToLocal(dm_, global, INSERT_VALUES, local_));
    EIS_CHECK(VecGetArrayRead(local_, &values_));
  }
  ~LocalValues() {
    VecRestoreArrayRead(local_, &values_);
    DMRestoreLocalVector(dm_, &local_);
  }
  LocalValues(const LocalValues&) = delete;
  LocalValues& operator=(const LocalValues&) = delete;
  const PetscScalar* data() const { return values_; }

private:
  DM dm_;
  Vec local_ = nullptr;
  const PetscScalar* values_ = nullptr;
};

class VtkSeriesOutput : public Output {
public:
  VtkSeriesOutput(MPI_Comm comm, const std::string& prefix, int every)
      : writer_(comm, prefix), every_(every) {}

  // The starting state is the series' first frame; a restart continues the series, its
  // starting step a frame only when the uninterrupted run had one there.
  void start(const RunStates& states) override {
    const RunState& state = states.front();
    if (state.resumed) writer_.resume(state.step);
    if (!state.resumed || state.step % every_ == 0) writeStep(state.step, state.time, states);
  }
  void write(const StepRecord& step, const RunStates& states) override {
    if (step.step % every_ == 0 || step.last) writeStep(step.step, step.time, states);
  }
  std::string where() const override { return "time series: " + writer_.pvdPath(); }

private:
  void writeStep(int step, double time, const RunStates& states);

  VtkSeriesWriter writer_;
  int every_;
};

// One body's piece and fields on this rank; `shown`: the integrators' fields (shownFieldNames).
VtkBody bodyOf(const RunState& state, const std::vector<std::string>& shown) {
  const DistributedMesh& mesh = state.mesh;
  const auto& rest = mesh.restCoords();
  const std::size_t n = rest.size();
  // The points are the rest shape: ParaView's Warp By Vector on "displacement" shows the deformed
  // one, with the deformation counted once.
  VtkPiece piece;
  piece.nodeIds = mesh.nodeIds();
  piece.owned = mesh.owned();
  piece.type = mesh.cellType();
  for (const auto& p : rest) piece.points.insert(piece.points.end(), p.begin(), p.end());
  for (const auto& cell : mesh.cells())
    piece.tets.insert(piece.tets.end(), cell.begin(), cell.end());
  std::vector<VtkField> pointData;
  {
    const LocalValues xs(mesh.dm(), state.x), vs(mesh.dm(), state.v);
    if (mesh.dofsPerNode() == 3) {
      VtkField displacement{"displacement", 3, {}};
      for (std::size_t v = 0; v < n; ++v)
        for (int d = 0; d < 3; ++d)
          displacement.values.push_back(xs.data()[3 * v + d] - rest[v][d]);
      pointData = {std::move(displacement),
                   {"velocity", 3, std::vector<double>(vs.data(), vs.data() + 3 * n)}};
    } else {
      pointData = {{"u", 1, std::vector<double>(xs.data(), xs.data() + n)},
                   {"du", 1, std::vector<double>(vs.data(), vs.data() + n)}};
    }
  }
  const int width = mesh.dofsPerNode();
  std::vector<VtkField> shownData(shown.size());
  useShownFields(state, shown, [&](std::size_t k, Vec vector) {
    std::vector<double> values(std::size_t(width) * n, 0.0);
    if (vector) {
      const LocalValues local(mesh.dm(), vector);
      std::copy(local.data(), local.data() + values.size(), values.begin());
    }
    shownData[k] = {shown[k], width, std::move(values)};
  });
  for (VtkField& field : shownData) pointData.push_back(std::move(field));
  std::vector<VtkField> cellData = {
      {"region", 1, std::vector<double>(mesh.cellTags().begin(), mesh.cellTags().end())}};
  if (mesh.dofsPerNode() == 3)
    cellData.push_back({"von_mises", 1, state.system.vonMisesStress(state.x)});
  return {std::move(piece), std::move(pointData), std::move(cellData)};
}

// One body: the series as it was before there were several, without the "object" arrays.
void VtkSeriesOutput::writeStep(int step, double time, const RunStates& states) {
  const std::vector<std::string> shown = shownFieldNames(states);
  if (states.size() == 1) {
    VtkBody body = bodyOf(states.front(), shown);
    writer_.write(step, time, std::move(body.piece), std::move(body.pointData),
                  std::move(body.cellData));
    return;
  }
  std::vector<VtkBody> bodies;
  std::vector<std::string> paths;
  for (const RunState& state : states) {
    bodies.push_back(bodyOf(state, shown));
    paths.push_back(state.object);
  }
  writer_.write(step, time, std::move(bodies), paths);
}

}  // namespace

OutputComponent vtkSeriesOutputComponent() {
  return {
      {"vtk-series", "output", "ParaView time series (PVD + PVTU)",
       ParameterSpec()
           .add(
               {"output.vtk", "PREFIX",
                "ParaView time series: PREFIX.pvd and one PVTU per written step (one piece per rank), with\n"
                "rest points, displacement (to warp by), velocity, region, rank and von Mises stress (and\n"
                "constraint_force, J^T lambda / h, under a Lagrangian constraint solver); with\n"
                "several bodies, every body and point and cell data object (its index; field data\n"
                "object_path: the node paths)",
                std::nullopt, "", false, check::anyText()})
           .add(
               {"output.every", "N",
                "write the ParaView series (output.vtk, output.xdmf) every N steps and at the last, >= 1",
                "1", "", false, check::integerAtLeast(1)}),
       nullptr},
      [](const Parameters& scene, MPI_Comm comm) -> std::unique_ptr<Output> {
        const std::string prefix = scene.optionalText("output.vtk");
        if (prefix.empty()) return nullptr;
        return std::make_unique<VtkSeriesOutput>(comm, prefix, scene.integer("output.every"));
      }};
}

const RegisterOutput registered(920, vtkSeriesOutputComponent);

}  // namespace eis
