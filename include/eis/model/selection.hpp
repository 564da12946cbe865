#pragma once
// The one grammar by which components select mesh nodes, and where it is resolved on a rank's
// part of the mesh. A selection is one of
//   all                               every node (SOFA's default when `indices` is empty)
//   indices I J K ...                 0-based node ids of the input (SOFA's `indices`)
//   box XMIN YMIN ZMIN XMAX YMAX ZMAX boundary included, min > max swapped (SOFA BoxROI)
//   sphere CX CY CZ R                 |p - c| <= R, boundary included (SOFA SphereROI)
//   group NAME|TAG                    the nodes of a Gmsh physical group's elements
//   oriented-box P0 P1 P2 DEPTH       the rectangle p0 p1 p2 (9 numbers) thickened by DEPTH
//                                     about its plane, tested as SOFA BoxROI's orientedBox is
//   plane P0 P1 P2 DEPTH              the same, tested as SOFA PlaneROI's plane is
//   pair-box OUTER INNER              in the box OUTER and not in the box INNER (6 numbers
//                                     each, as `box`; SOFA PairBoxROI)
//   nearest N C1X C1Y C1Z R1 ...      of the nodes p with |p - c_k| < R_k for some sphere k, the N
//                                     of smallest such distance (SOFA ProximityROI); a tie at the
//                                     N-th distance is refused
// A value of a component's key packs leading numbers and then a selection, e.g.
// "0 0 1 box 0 0 0 1 1 1". A selection that selects nothing is legal (a scene may be generic),
// but worth a warning naming it.
#include <petscsys.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "eis/core/box.hpp"
#include "eis/core/parameters.hpp"
#include "eis/mesh/distributed_mesh.hpp"

namespace eis {

inline std::string emptySelectionWarning(const std::string& key, const std::string& value) {
  return key + " = " + value + " selects no node";
}

struct Selection {
  enum class Kind { All, Indices, Box, Sphere, Group, OrientedBox, Plane, PairBox, Nearest };
  Kind kind = Kind::All;
  std::vector<std::int64_t> indices;
  Box box;
  Box inner;  // a pair-box's box that is left out
  std::array<double, 3> centre{};
  double radius = 0;
  std::string group;
  std::array<double, 10> shape{};              // p0, p1, p2, depth of an oriented box or a plane
  std::int64_t nearest = 0;                    // N of `nearest`
  std::vector<std::array<double, 4>> spheres;  // its spheres: centre, radius

  static Selection ofBox(const Box& box);
  static Selection ofGroup(const std::string& nameOrTag);
};

// "R1 .. Rn SELECTION": `numbers` leading reals, then a selection.
struct SelectionValue {
  std::vector<double> numbers;
  Selection selection;
};

// Throws eis::Error naming the key and the text when the value does not follow the grammar.
SelectionValue parseSelectionValue(const std::string& key, const std::string& text,
                                   std::size_t numbers);
// The parameter check of such a value (the group's existence is checked on the mesh).
Check selectionValueCheck(std::size_t numbers);

struct SelectedNodes {
  std::vector<PetscInt> vertices;  // local vertices (owned and ghost) selected
  std::int64_t count = 0;          // selected nodes over all ranks
};

// Collective. The nodes a selection picks on this rank's part of the mesh; an unknown group, or
// an index that names no node of a tetrahedron, throws eis::Error (the same on every rank).
SelectedNodes selectNodes(const DistributedMesh& mesh, const Selection& selection,
                          const std::string& key);

}  // namespace eis
