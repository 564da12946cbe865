#pragma once
// The points of a state that SOFA's SubsetMapping or IdentityMapping drives from a body's state
// (Sofa/Component/Mapping/Linear): which of the body's points each one is, so that a spring to
// them acts on those (J^T f of a selection is the force on the selected points). Private to the
// SOFA importer.
#include <utility>
#include <vector>

#include "sofa_reader.hpp"

namespace eis::sofa {

struct SelectedPoints {
  const SofaObject* body = nullptr;  // the body's state the mapping reads
  std::vector<long long> indices;    // the body's point of each mapped point
  bool all = false;                  // IdentityMapping: every point is the body's own
  bool rigid = false;  // RigidMapping (springs only): the frames' mapped points, by index
  // BarycentricMapping: each mapped point's body points and their weights (indices empty).
  std::vector<std::vector<std::pair<long long, double>>> weighted;
};

// The body state (selectionBody, io/sofa_walk.hpp) and the points selected: nothing when no
// mechanical mapping drives `state`. SubsetMapping::init: `indices` as written, or a link to a
// BoxROI's `indices` (BoxROI.inl: the points p of its `position`, a link to the body state's
// position or rest_position, with box_min <= p <= box_max in every coordinate for one of its
// `box`es, each box's bounds sorted, by increasing index; "0 0 0 1 1 1" when no box is given); the
// body's points written in its `position`, linked to a grid's, or a RegularGridTopology's of its
// node. Refused: a range (first, last), the match by position (radius), resizeToModel, an oriented
// box, other ROIs. BarycentricMapping from a body on a RegularGridTopology or a sparse grid
// (BarycentricMapperRegularGridTopology, BarycentricMapperSparseGridTopology): each of the state's
// points (its position, or its node's topology's) in the cube the grid's mapper puts it in
// (io/sofa_grid_mapper), its eight corners weighted trilinearly. RigidMapping, for a
// SpringForceField (io/sofa_springs): the frames' state and `rigid`, the points being the
// frames' mapped points (rigid.mapped-points, in the child's order).
SelectedPoints selectedPoints(Reader& r, const SofaObject& state, const SofaObject& user,
                              const std::string& field);

}  // namespace eis::sofa
