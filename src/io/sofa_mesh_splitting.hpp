#pragma once
// SOFA's MeshSplittingEngine (Component/Engine/Select, MeshSplittingEngine.inl), computed as SOFA
// computes it at init: which part each point of a loader's mesh goes to, for a
// SubsetMultiMapping's indexPairs and the parts' states (io/sofa_split_body). Private to the SOFA
// importer.
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "sofa_reader.hpp"

namespace eis::sofa {

struct MeshSplit {
  std::vector<std::array<double, 3>> points;  // the mesh's, in its order
  // indexPairs: for point i of the mesh, its part (0 .. nbInputs) and its place in that part.
  std::vector<long long> indexPairs;
  // position1 .. position<nbInputs + 1>: each part's points, in the mesh's order.
  std::vector<std::vector<std::array<double, 3>>> parts;
  const SofaObject* loader = nullptr;  // whose position (and tetrahedra) the engine reads
};

// MeshSplittingEngine::doUpdate: every point starts in the last part (nbInputs); the regions are
// taken from the last to the first, so that the first region that holds a point keeps it: a
// region's `indices<k>` its points, its `tetrahedronIndices<k>` the corners of those tetrahedra
// (written, or a BoxROI's tetrahedronIndices of the same mesh, BaseROI's strict test by default:
// all four corners in one of its boxes, faces included; else the centre in one). The engine reads
// a MeshGmshLoader's, MeshVTKLoader's or MeshOBJLoader's position and tetrahedra (src or links);
// its other inputs (edges, triangles, quads and hexahedra, and their regions) are refused, as is a
// field it does not have. `file` is the loader's mesh file, found.
MeshSplit computeMeshSplit(Reader& r, const SofaObject& engine, const std::string& file);

// The engine and the output field (indexPairs, position<k>) that `field` of `o` links to, or
// nullopt when it links to no MeshSplittingEngine.
struct MeshSplitLink {
  const SofaObject* engine = nullptr;
  std::string output;
};
std::optional<MeshSplitLink> meshSplitLink(const Reader& r, const SofaObject& o,
                                           const std::string& field);

}  // namespace eis::sofa
