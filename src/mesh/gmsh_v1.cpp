// Gmsh format 1.0 (legacy; SOFA's classic mesh/liver.msh), ASCII only:
//   $NOD  number-of-nodes, then "node-number x y z" per node  $ENDNOD
//   $ELM  number-of-elements, then
//         "elm-number elm-type reg-phys reg-elem number-of-nodes node-numbers..."  $ENDELM
// Node numbers are labels: node ids are 0-based positions in $NOD, as in SOFA's MeshGmsh.
// reg-phys is the element's physical group (0: none); there are no group names.
#include "gmsh_format.hpp"

namespace eis {
namespace {

void readNodes(GmshFile& file) {
  Cursor& in = file.in;
  in.enterSection("$NOD", "$ENDNOD");
  const std::int64_t count = in.readInt("number of nodes");
  in.guardCount(count, 4, "nodes");
  file.mesh.reserveNodes(count);
  for (std::int64_t i = 0; i < count; ++i) {
    const std::int64_t number = in.readInt("node number");
    file.mesh.addNode(number, file.readPoint());
  }
  file.mesh.finishNodes();
  in.expectWord("$ENDNOD");
}

void readElements(GmshFile& file) {
  Cursor& in = file.in;
  in.enterSection("$ELM", "$ENDELM");
  const std::int64_t count = in.readInt("number of elements");
  in.guardCount(count, 5, "elements");
  for (std::int64_t i = 0; i < count; ++i) {
    const std::int64_t number = in.readInt("element number");
    const std::int64_t type = in.readInt("element type");
    const auto physical = static_cast<int>(in.readInt("reg-phys"));
    in.readInt("reg-elem");
    const std::int64_t nodeCount = in.readInt("number of nodes");
    const int expected = gmshNodesPerElement(type);
    if (expected != 0 && nodeCount != expected)
      in.fail("element " + std::to_string(i) + " (number " + std::to_string(number) + ") of type " +
              std::to_string(type) + " lists " + std::to_string(nodeCount) + " nodes, not " +
              std::to_string(expected));
    if (nodeCount < 1 || nodeCount > kMaxNodesPerElement)
      in.fail("element " + std::to_string(i) + " (number " + std::to_string(number) +
              "): number of nodes " + std::to_string(nodeCount) + " is not 1.." +
              std::to_string(kMaxNodesPerElement));
    for (std::int64_t j = 0; j < nodeCount; ++j) file.nodeBuffer[j] = in.readInt("node number");
    file.physicalScratch.clear();
    if (physical != 0) file.physicalScratch.push_back(physical);
    file.mesh.addElementByLabels(static_cast<int>(type), number, static_cast<int>(nodeCount),
                                 file.nodeBuffer.data(), file.physicalScratch);
  }
  in.expectWord("$ENDELM");
}

}  // namespace

void readGmshV1(GmshFile& file) {
  Cursor& in = file.in;
  readNodes(file);
  in.leaveSection();
  const std::string_view next = in.word();
  if (next != "$ELM") in.fail("expected $ELM after $ENDNOD, found '" + excerpt(next) + "'");
  readElements(file);
  in.leaveSection();
  // Nothing else in 1.0 is needed: any later section is skipped to its $END line.
  while (!in.atEnd()) {
    const std::string_view word = in.word();
    if (word.size() < 2 || word[0] != '$')
      in.fail("expected a section name, found '" + excerpt(word) + "'");
    const std::string end = "$END" + std::string(word.substr(1));
    in.enterSection(std::string(word), end);
    in.skipTo(end);
    in.expectWord(end);
    in.leaveSection();
  }
}

}  // namespace eis
