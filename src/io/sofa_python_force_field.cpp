// A force field written in Python (SofaPython3's Sofa.Core.ForceFieldVec3d subclass, recorded by
// the scene driver as <PythonForceField class=... base=...>) as python.force-field, its object
// path, which model/gathered_force_field calls back through the euler_implicit module (python3
// scene.py) or the controllers' python3 (euler-implicit --scene, io/python_remote_force_field).
#include "eis/model/gathered_force_field.hpp"
#include "sofa_reader.hpp"

namespace eis::sofa {

namespace {

void mapPythonForceField(Reader& r, const SofaObject& o) {
  const std::string base = r.text(o, "base").value_or("?");
  if (base != "ForceFieldVec3d")
    r.reject(o, "base",
             "a force field written in Python on Sofa.Core." + base +
                 " is not supported: the bodies' states are Vec3d (Sofa.Core.ForceFieldVec3d)");
  const std::string node = o.node->path();
  r.key("python.force-field", (node == "/" ? "" : node) + "/" + (o.name.empty() ? o.type : o.name));
}

}  // namespace

const RegisterSofaMapping pythonForceField({"PythonForceField"}, mapPythonForceField);

}  // namespace eis::sofa
