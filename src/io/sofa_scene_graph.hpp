#pragma once
// Private to io: the graph of a SOFA scene built from its parsed XML (sofa_scene_graph.cpp), for
// SofaScene's constructor.
#include <memory>
#include <string>

#include "eis/core/xml.hpp"
#include "eis/io/sofa_scene.hpp"

namespace eis {

// The root node of the graph `root` (the scene `file`'s root element) describes, includes
// replaced. Throws eis::Error "file:line: ..." as SofaScene's constructor documents.
std::unique_ptr<SofaNode> buildSofaGraph(const xml::Element& root, const std::string& file,
                                         const SofaSceneFiles& files);

}  // namespace eis
