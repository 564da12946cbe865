#pragma once
// A SubsetMultiMapping's child that holds force fields, read as a body of its own, as SOFA's
// MeshSplittingEngine.scn builds one: a mesh split into points that fixed frames hold (through a
// RigidMapping) and free points with a mass, joined again by the mapping into the whole mesh on
// which the FEM force field acts (io/sofa_split_body.cpp). Private to the SOFA importer.
#include <vector>

#include "sofa_reader.hpp"
#include "sofa_walk.hpp"

namespace eis::sofa {

// Whether the walk reads this SubsetMultiMapping child as a body: one of its inputs is points a
// RigidMapping drives.
bool isSplitChild(const Reader& r, const MappedNode& child);

// Makes the child a body of `bodies` (its ODE solver the free points'), the bodies of its free
// inputs folded into it (their masses kept as splitMasses, the bodies removed). Throws eis::Error
// naming what is not read so: frames that are not all fixed, free points with more than a mass,
// inputs under different solvers, a mass or constraint in the child.
void foldSplitBody(const Reader& r, std::vector<Body>& bodies, const MappedNode& child);

// The folded body's keys beside its mesh and force fields: the points the frames hold as
// constraint.fixed, the free points' UniformMass as mass.vertex-mass, and initial.positions where
// the mapped points start off the mesh's points.
void mapSplitBody(Reader& r, const Body& body);

}  // namespace eis::sofa
