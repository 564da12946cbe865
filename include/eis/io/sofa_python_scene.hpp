#pragma once
// SofaPython3 scenes (.py): the Python front end runs the scene's createScene(rootNode) against a
// stand-in of SOFA's modules and writes the graph it records as the XML of a .scn scene, each
// element with an eis-source="FILE:LINE" attribute naming the Python line that made it.
#include <functional>
#include <string>

namespace eis {

// The XML text of the scene graph that the Python scene at `path` builds. Called on rank 0
// only. Throws eis::Error naming the file for a scene that cannot be run, that runs longer than
// `seconds` (scene.python-timeout) or while which `stopSignal` (if given) returns a signal
// number; python3 and every process it started are killed on every way out. What the scene
// printed (print(), Sofa.Helper's messages) goes to this process's standard output once the
// graph is read.
std::string sofaPythonSceneToXml(const std::string& path, double seconds,
                                 const std::function<int()>& stopSignal = nullptr);

}  // namespace eis
