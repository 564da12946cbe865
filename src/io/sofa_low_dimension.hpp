#pragma once
// A SOFA MechanicalObject of template Vec1 or Vec2 (points of one or two coordinates) as a body
// of 3D points whose coordinates past the first d are held at zero: the grid's points keep
// their first d coordinates, gravity its first d components, and those directions are fixed at
// every point, so that the d-dimensional springs and masses SOFA computes are ours in the plane
// or on the line. Private to the SOFA importer (io/sofa_*.cpp).
#include <string>
#include <vector>

#include "sofa_reader.hpp"

namespace eis::sofa {

// The coordinates of a point of the MechanicalObject template `name`: 1 (Vec1, Vec1d, Vec1f),
// 2 (Vec2, Vec2d, Vec2f), else 3.
int templateDimensions(const std::string& name);

// The coordinates of the points of the state a component of `node` acts on: its node's
// MechanicalObject, else the nearest ancestor's (3 when none).
int stateDimensions(const Reader& reader, const SofaNode* node);

// What a Vec1 or Vec2 body may not have, refused in one line before its mesh is read: positions
// or velocities written (its points are its grid's), a rotation, a mapped child, a component that
// does not honour d < 3 (those that do: UniformMass, MeshSpringForceField,
// FixedProjectiveConstraint, ConstantForceField, whose forces have d numbers each).
void checkLowDimensionBody(Reader& reader, const SofaObject& state,
                           const std::vector<const SofaObject*>& components, bool mappedChildren);

// The keys of a Vec1 or Vec2 body, after its context and mesh are mapped: its points come from
// `grid` (a RegularGridTopology; nullptr when they come from elsewhere, which is refused) with no
// extent past d, their coordinates past d dropped and held at zero at every point; its gravity
// (the last load.gravity of `keys`) loses its components past d.
void mapLowDimensionBody(Reader& reader, const SofaObject& state, const SofaObject* grid,
                         std::vector<SofaKey>& keys);

}  // namespace eis::sofa
