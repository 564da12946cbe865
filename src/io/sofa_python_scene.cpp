#include "eis/io/sofa_python_scene.hpp"

#include "eis/core/error.hpp"

namespace eis {

std::string sofaPythonSceneToXml(const std::string& path) {
  throw Error(path + ": SofaPython3 scenes (.py) are not supported by this build; give a .scn");
}

}  // namespace eis
