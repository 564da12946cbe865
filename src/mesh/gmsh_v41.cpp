// Gmsh format 4.1: nodes and elements come in blocks per geometric entity, and elements inherit
// the physical groups of their entity ($Entities). ASCII and binary list the same fields in the
// same order; size_t fields are as wide as $MeshFormat's data-size.
#include "gmsh_format.hpp"

namespace eis {
namespace {

void readEntity(GmshFile& file, int dim) {
  Cursor& in = file.in;
  const auto tag = static_cast<int>(in.readInt("entity tag"));
  const int boxValues = dim == 0 ? 3 : 6;  // a point's coordinates, or a bounding box
  for (int i = 0; i < boxValues; ++i) in.readReal("entity bounding box");
  const std::int64_t physicalCount = in.readSize("number of physical tags");
  in.guardCount(physicalCount, 1, "physical tags");
  std::vector<int> physicals(static_cast<std::size_t>(physicalCount));
  for (int& physical : physicals) physical = static_cast<int>(in.readInt("physical tag"));
  file.entityPhysicals[{dim, tag}] = std::move(physicals);
  if (dim == 0) return;
  const std::int64_t boundaryCount = in.readSize("number of bounding entities");
  in.guardCount(boundaryCount, 1, "bounding entities");
  for (std::int64_t i = 0; i < boundaryCount; ++i) in.readInt("bounding entity tag");
}

}  // namespace

void readEntitiesV41(GmshFile& file) {
  Cursor& in = file.in;
  file.beginPayload();
  std::array<std::int64_t, 4> counts{};
  for (auto& count : counts) count = in.readSize("number of entities");
  for (int dim = 0; dim < 4; ++dim) {
    in.guardCount(counts[dim], dim == 0 ? 5 : 9, "entities");
    for (std::int64_t i = 0; i < counts[dim]; ++i) readEntity(file, dim);
  }
  file.endPayload();
}

// Blocks per entity, each listing its node tags and then their coordinates.
void readNodesV41(GmshFile& file) {
  Cursor& in = file.in;
  file.beginPayload();
  const std::int64_t blocks = in.readSize("number of node blocks");
  const std::int64_t total = in.readSize("number of nodes");
  in.readSize("minimum node tag");
  in.readSize("maximum node tag");
  in.guardCount(blocks, 4, "node blocks");
  in.guardCount(total, 4, "nodes");
  file.mesh.reserveNodes(total);
  std::vector<std::int64_t> tags;
  std::int64_t read = 0;
  for (std::int64_t b = 0; b < blocks; ++b) {
    const std::int64_t dim = in.readInt("entity dimension");
    in.readInt("entity tag");
    const std::int64_t parametric = in.readInt("parametric flag");
    const std::int64_t count = in.readSize("number of nodes in block");
    if (dim < 0 || dim > 3) in.fail("entity dimension " + std::to_string(dim) + " is not 0..3");
    if (parametric != 0 && parametric != 1) in.fail("parametric flag must be 0 or 1");
    if (count > total - read)
      in.fail("node blocks hold more nodes than the " + std::to_string(total) + " announced");
    // Parametric nodes carry dim extra coordinates (u, v, w) after x, y, z.
    const int extra = parametric ? static_cast<int>(dim) : 0;
    tags.resize(static_cast<std::size_t>(count));
    for (auto& tag : tags) tag = in.readSize("node tag");
    for (std::int64_t i = 0; i < count; ++i) {
      const std::array<double, 3> point = file.readPoint();
      file.mesh.addNode(tags[i], point);
      for (int e = 0; e < extra; ++e) in.readReal("parametric coordinate");
    }
    read += count;
  }
  if (read != total)
    in.fail("node blocks hold " + std::to_string(read) + " nodes, not the " +
            std::to_string(total) + " announced");
  file.endPayload();
}

// Blocks per entity, "entityDim entityTag type count", then per element: tag, nodes.
void readElementsV41(GmshFile& file) {
  Cursor& in = file.in;
  file.beginPayload();
  const std::int64_t blocks = in.readSize("number of element blocks");
  const std::int64_t total = in.readSize("number of elements");
  in.readSize("minimum element tag");
  in.readSize("maximum element tag");
  in.guardCount(blocks, 4, "element blocks");
  in.guardCount(total, 2, "elements");
  const std::vector<int> noPhysicals;
  std::int64_t done = 0;
  for (std::int64_t b = 0; b < blocks; ++b) {
    const auto dim = static_cast<int>(in.readInt("entity dimension"));
    const auto entity = static_cast<int>(in.readInt("entity tag"));
    const std::int64_t type = in.readInt("element type");
    const std::int64_t count = in.readSize("number of elements in block");
    const int nodeCount = file.checkedNodeCount(type);
    if (count > total - done)
      in.fail("element blocks hold more elements than the " + std::to_string(total) + " announced");
    in.guardCount(count, 1 + nodeCount, "elements");
    const auto found = file.entityPhysicals.find({dim, entity});
    const std::vector<int>& physicals =
        found == file.entityPhysicals.end() ? noPhysicals : found->second;
    for (std::int64_t i = 0; i < count; ++i) {
      const std::int64_t tag = in.readSize("element tag");
      for (int j = 0; j < nodeCount; ++j) file.nodeBuffer[j] = in.readSize("element node tag");
      file.mesh.addElementByLabels(static_cast<int>(type), tag, nodeCount, file.nodeBuffer.data(),
                                   physicals);
    }
    done += count;
  }
  if (done != total)
    in.fail("element blocks hold " + std::to_string(done) + " elements, not the " +
            std::to_string(total) + " announced");
  file.endPayload();
}

}  // namespace eis
