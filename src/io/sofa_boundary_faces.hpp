#pragma once
// Which triangles a SOFA field of triangles works on when its node's topology is filled by a
// topological mapping from the body's volume (a child node with no MechanicalObject of its own,
// acting on the body's points): Tetra2TriangleTopologicalMapping's boundary triangles become
// our `*.faces = boundary` (mesh/boundary_faces). Private to the SOFA importer.
#include <array>
#include <optional>
#include <string>
#include <vector>

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
// rejected at `field`. Several such mappings onto one container: the last one's (each init
// clears the container and fills it anew). A mapping whose input is a RegularGridTopology makes
// the same quadrangles in another order and vertex order (gridBoundaryQuads): accepted only with
// `orderFree`, for a field whose result depends on neither (TriangularBendingSprings on their
// Quad2TriangleTopologicalMapping's triangles: each quadrangle's first vertex is its smallest
// either way, so it is cut along the same diagonal), else rejected at `field`.
std::string quadFacesOf(const Reader& r, const SofaObject& o, const std::string& field,
                        bool orderFree = false);
// Whether a Hexa2QuadTopologicalMapping fills the topology of `o` (a field of quadrangles).
bool filledByHexa2Quad(const Reader& r, const SofaObject& o);
// The quadrangles a Hexa2QuadTopologicalMapping makes of a RegularGridTopology's hexahedra when
// one fills the topology of `o` (a field of quadrangles): of GridTopology::updateQuads's list
// (the XY, XZ, then YZ planes), those of one hexahedron, in that order, each reversed with
// flipNormals; nothing otherwise.
std::optional<std::vector<std::array<long long, 4>>> gridBoundaryQuads(const Reader& r,
                                                                       const SofaObject& o);

}  // namespace eis::sofa
