#pragma once
// Which triangles a SOFA field of triangles works on when its node's topology is filled by a
// topological mapping from the body's volume (a child node with no MechanicalObject of its own,
// acting on the body's points): Tetra2TriangleTopologicalMapping's boundary triangles become
// our `*.faces = boundary` (mesh/boundary_faces). Private to the SOFA importer.
#include <optional>
#include <string>

#include "sofa_reader.hpp"

namespace eis::sofa {

// "cells" (the topology holds the body's own triangles), "boundary" or "boundary-flipped"
// (Tetra2TriangleTopologicalMapping, with flipNormals; or Quad2TriangleTopologicalMapping of a
// Hexa2QuadTopologicalMapping's quadrangles, with that one's flipNormals), or nothing when the
// mapping makes no triangles (noInitialTriangles). Another topological mapping is rejected at
// `field`.
std::optional<std::string> triangleFacesOf(const Reader& r, const SofaObject& o,
                                           const std::string& field);
// The same for a field of quadrangles: "boundary" or "boundary-flipped" when a
// Hexa2QuadTopologicalMapping fills its topology from the body's hexahedra
// (HexahedronSetTopologyContainer::createQuadSetArray, Hexa2QuadTopologicalMapping::init), else
// rejected at `field`.
std::string quadFacesOf(const Reader& r, const SofaObject& o, const std::string& field);

}  // namespace eis::sofa
