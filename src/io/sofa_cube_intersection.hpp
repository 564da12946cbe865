#pragma once
// Whether a triangle touches a cube, decided as SOFA's SparseGridTopology decides it when it
// marks the cells a surface crosses (Topology/Container/Grid: polygon_cube_intersection, after
// Green's and Hatch's tests in Graphics Gems): the same tests in the same order, in single
// precision, so that a triangle grazing a cell's face or corner gets SOFA's verdict. Private to
// io/sofa_sparse_grid.cpp.
#include <array>

namespace eis::sofa {

// A triangle in the frame of the cube: the cube's centre at the origin, its sides of length 1.
using UnitCubeTriangle = std::array<std::array<float, 3>, 3>;

// True when the triangle meets the closed cube [-1/2, 1/2]^3.
bool touchesUnitCube(const UnitCubeTriangle& t);

}  // namespace eis::sofa
