// TopologicalChangeProcessor.cpp (master): init reads `filename` unless useDataInputs; at each
// AnimateBeginEvent processTopologicalChanges reads the lines due at the node's time plus
// `shift`, re-reading the file from the start when `loop` is set; saveIndicesAtInit serves
// INCISE= alone. Every other field (interval, timeToRemove, the *ToRemove lists) serves
// useDataInputs alone, and epsilonSnapPath, epsilonSnapBorder and draw incisions and drawing.
#include "sofa_topology_changes.hpp"

#include "eis/io/topology_changes.hpp"

namespace eis::sofa {

void mapTopologicalChanges(Reader& reader, const SofaObject& o, const std::string& path) {
  if (reader.boolean(o, "useDataInputs", false))
    reader.reject(o, "useDataInputs", "not supported: only the events of its file are");
  if (reader.boolean(o, "loop", false))
    reader.reject(o, "loop", "not supported: the file is read once");
  if (reader.real(o, "shift", 0.0) != 0.0)
    reader.reject(o, "shift", "not supported: the file's times are taken as they are");
  if (reader.boolean(o, "saveIndicesAtInit", false))
    reader.reject(o, "saveIndicesAtInit", "not supported: it serves INCISE=, which is not");
  reader.refuseIfGiven(o, "listChanges", "not supported: only the events of its file are");
  if (reader.gave("topology.changes"))
    reader.reject(o, "filename", "a second TopologicalChangeProcessor on one body");
  try {
    readTopologyChanges(path);
  } catch (const Error& e) {
    reader.reject(o, "filename", e.what());
  }
  reader.key("topology.changes", path);
}

}  // namespace eis::sofa
