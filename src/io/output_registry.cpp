// Every output this build knows, one line each, in the order they finish.
#include "eis/io/checkpoint_output.hpp"
#include "eis/io/final_state_output.hpp"
#include "eis/io/history_csv.hpp"
#include "eis/io/vtk_series_output.hpp"
#include "eis/io/xdmf_output.hpp"

namespace eis {

const std::vector<OutputComponent>& outputComponents() {
  static const std::vector<OutputComponent> all = {
      finalStateOutputComponent(), vtkSeriesOutputComponent(),  xdmfOutputComponent(),
      historyOutputComponent(),    checkpointOutputComponent(),
  };
  return all;
}

}  // namespace eis
