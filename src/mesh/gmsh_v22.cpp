// Gmsh format 2.2: $Nodes lists "tag x y z"; $Elements lists "tag type ntags tags... nodes..."
// one element a line in ASCII, and in binary blocks opened by (type, count, ntags). The first
// of an element's tags is its physical group (0: none).
#include "gmsh_format.hpp"

namespace eis {
namespace {

void readElementBody(GmshFile& file, std::int64_t tag, std::int64_t type, std::int64_t tagCount) {
  Cursor& in = file.in;
  const int nodeCount = file.checkedNodeCount(type);
  int physical = 0;
  for (std::int64_t t = 0; t < tagCount; ++t) {
    const auto value = static_cast<int>(in.readInt("element tag value"));
    if (t == 0) physical = value;
  }
  file.physicalScratch.clear();
  if (physical != 0) file.physicalScratch.push_back(physical);
  for (int j = 0; j < nodeCount; ++j) file.nodeBuffer[j] = in.readInt("element node tag");
  file.mesh.addElementByLabels(static_cast<int>(type), tag, nodeCount, file.nodeBuffer.data(),
                               file.physicalScratch);
}

void readElementsAscii(GmshFile& file) {
  Cursor& in = file.in;
  const std::int64_t count = in.readInt("number of elements");
  in.guardCount(count, 4, "elements");
  for (std::int64_t i = 0; i < count; ++i) {
    const std::int64_t tag = in.readInt("element tag");
    const std::int64_t type = in.readInt("element type");
    const std::int64_t tagCount = in.readInt("number of tags");
    in.guardCount(tagCount, 1, "element tags");
    readElementBody(file, tag, type, tagCount);
  }
}

void readElementsBinary(GmshFile& file) {
  Cursor& in = file.in;
  const std::int64_t count = in.readInt("number of elements");
  file.beginPayload();
  in.guardCount(count, 2, "elements");
  for (std::int64_t done = 0; done < count;) {
    const std::int64_t type = in.readInt("element type");
    const std::int64_t blockCount = in.readInt("number of elements in block");
    const std::int64_t tagCount = in.readInt("number of tags");
    const int nodeCount = file.checkedNodeCount(type);
    if (blockCount < 1 || blockCount > count - done)
      in.fail("element block of " + std::to_string(blockCount) + " elements overruns the " +
              std::to_string(count) + " announced");
    in.guardCount(tagCount, 1, "element tags");
    in.guardCount(blockCount, 1 + tagCount + nodeCount, "elements");
    for (std::int64_t i = 0; i < blockCount; ++i)
      readElementBody(file, in.readInt("element tag"), type, tagCount);
    done += blockCount;
  }
  file.endPayload();
}

}  // namespace

void readNodesV22(GmshFile& file) {
  Cursor& in = file.in;
  const std::int64_t count = in.readInt("number of nodes");
  file.beginPayload();
  in.guardCount(count, 4, "nodes");
  file.mesh.reserveNodes(count);
  for (std::int64_t i = 0; i < count; ++i) {
    const std::int64_t tag = in.readInt("node tag");
    file.mesh.addNode(tag, file.readPoint());
  }
  file.endPayload();
}

void readElementsV22(GmshFile& file) {
  if (file.binary)
    readElementsBinary(file);
  else
    readElementsAscii(file);
}

}  // namespace eis
