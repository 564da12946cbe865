#include "eis/io/final_state_output.hpp"

#include "eis/io/output_file.hpp"

namespace eis {

namespace {

class FinalStateOutput : public Output {
public:
  FinalStateOutput(std::string path, MPI_Comm comm) : path_(std::move(path)), comm_(comm) {}
  void write(const StepRecord&, const RunStates&) override {}
  void finish(const RunStates& states) override {
    std::vector<ObjectState> objects;
    for (const RunState& state : states)
      objects.push_back({state.object, gatherState(state.mesh, state.x, state.v, state.initial)});
    writeStateCsv(path_, objects, states.front().physics, comm_);
  }
  std::string where() const override { return "final state: " + path_; }

private:
  std::string path_;
  MPI_Comm comm_;
};

}  // namespace

OutputComponent finalStateOutputComponent() {
  return {
      {"final-state", "output", "the last state as CSV, in the input's node order",
       ParameterSpec().add(
           {"output.final-state", "PATH",
            "CSV of the last state: a header, then one row per node in the input file's node order\n"
            "(0-based ids), the same for any rank count; columns id,x,y,z,vx,vy,vz (positions, not\n"
            "displacements) for elasticity, id,u,du for diffusion; 17 significant digits. With\n"
            "mesh.refine > 0 the new nodes follow, sorted by rest coordinates (x, then y, then z).\n"
            "A SOFA scene of several bodies adds a last column `object`, the node path of each\n"
            "row's MechanicalObject, the rows grouped by body in the scene's order.\n"
            "Missing folders are created before the first step; the file is written to PATH.partial\n"
            "and renamed over PATH, so PATH is never left half-written.",
            std::nullopt, "", false, check::anyText()}),
       nullptr},
      [](const Parameters& scene, MPI_Comm comm) -> std::unique_ptr<Output> {
        const std::string path = scene.optionalText("output.final-state");
        if (path.empty()) return nullptr;
        prepareOutputFile("output.final-state", path, FileWrite::Replaced, comm);
        return std::make_unique<FinalStateOutput>(path, comm);
      }};
}

const RegisterOutput registered(910, finalStateOutputComponent);

}  // namespace eis
