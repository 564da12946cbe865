#pragma once
// SOFA's RegularGridTopology (CylinderGridTopology, SphereGridTopology) as a mesh, per SOFA
// master's source (Topology/Container/Grid: GridTopology, RegularGridTopology,
// CylinderGridTopology, SphereGridTopology; Topology/Mapping: Hexa2TetraTopologicalMapping;
// SolidMechanics/FEM/Elastic: TetrahedronFEMForceField::init): the grid's points in SOFA's
// numbering, and its hexahedra cut into six tetrahedra each, with the vertex orders SOFA gives them
// (the corotational "large" frame depends on them). Private to io/sofa_import.cpp.
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "sofa_reader.hpp"

namespace eis::sofa {

struct RegularGrid {
  std::array<int, 3> n{2, 2, 2};              // points along x, y, z
  std::vector<std::array<double, 3>> points;  // point i + n0 (j + n1 k) at p0 + i dx + j dy + k dz
  std::vector<std::array<long long, 8>> hexahedra;  // x fastest, then y, then z
  // A grid of one point along an axis (and two or more along the others): its quads, as
  // GridTopology::updateQuads lists them (the plane of the two long axes, counter-clockwise from
  // the lower axis: (x,y) (x+1,y) (x+1,y+1) (x,y+1), or the same with z for y or x).
  std::vector<std::array<long long, 4>> quads;
  // A grid of one point along two axes: its edges, as GridTopology::updateEdges lists them.
  std::vector<std::array<long long, 2>> edges;
  // Axes with 2 or more points: 3 (hexahedra), 2 (quads), 1 (edges).
  int dimension() const { return (n[0] > 1) + (n[1] > 1) + (n[2] > 1); }
  // A RegularGridTopology's p0 and its steps along x, y, z (its dx, dy, dz are (step[0], 0, 0),
  // (0, step[1], 0), (0, 0, step[2])); zero for a cylinder or ball.
  std::array<double, 3> p0{}, step{};
};

// GridTopology::updateTriangles: each quad (q0 q1 q2 q3) cut into (q0 q1 q2) and (q0 q2 q3), the
// triangles a triangle force field reads on a 2D grid.
std::vector<std::array<long long, 3>> gridTriangles(const RegularGrid& grid);

// The grid a RegularGridTopology describes: n (2 2 2) or the legacy nx ny nz, min (0 0 0) and
// max (1 1 1) or the legacy xmin .. zmax (read in single precision, times the legacy `scale`, as
// RegularGridTopology::parse reads them), p0 (min when not set), cellWidth (> 0: n from it).
// A CylinderGridTopology or SphereGridTopology (center 0 0 0, axis 0 0 1, radius 1, the
// cylinder's length 1) has the same points and cells, its points moved onto the cylinder (ball).
// A grid with fewer than 2 points along an axis has quads (one such axis) or edges (two); a grid
// of one point has no cells: refused, naming it.
// pointsOnly: the points alone, of any grid of at least one point along each axis (one point
// along x or y lies midway between min and max, along z at min, as RegularGridTopology::setPos
// puts it).
RegularGrid regularGrid(const Reader& reader, const SofaObject& grid, bool pointsOnly = false);

// How the hexahedra are cut. Hexa2TetraTopologicalMapping: with `swapping`, the vertices of
// every other hexahedron along each axis are mirrored first and the pattern follows the parity
// of the mirrorings; without, no mirroring. TetrahedronFEMForceField's own cut (a grid is its
// topology): always mirrored, always the first pattern.
enum class GridCut { MappingWithoutSwapping, MappingWithSwapping, ForceField };

// Six tetrahedra per hexahedron, in hexahedron order, as SOFA lists them.
std::vector<std::array<long long, 4>> cutIntoTetrahedra(const RegularGrid& grid, GridCut cut);

// The points (X Y Z each) of the regular, cylinder or sphere grid whose `position`, which SOFA
// computes, the object's `field` links ("@grid.position"); nothing when the field links nothing
// of the kind.
std::optional<std::vector<double>> linkedGridPoints(const Reader& reader, const SofaObject& o,
                                                    const std::string& field);

}  // namespace eis::sofa
