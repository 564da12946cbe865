#pragma once
// SOFA's TopologicalChangeProcessor (Sofa/Component/Topology/Utility): its file of timed
// changes becomes topology.changes. Private to the SOFA importer.
#include <string>

#include "sofa_reader.hpp"

namespace eis::sofa {

// `path`: its `filename`, found as a loader's file is. Refuses the fields that change what it
// does and have no key (useDataInputs, loop, shift, listChanges, saveIndicesAtInit), and a file
// the reader refuses (ADD=, INCISE=, malformed lines), naming the file's line.
void mapTopologicalChanges(Reader& reader, const SofaObject& o, const std::string& path);

}  // namespace eis::sofa
