#pragma once
// The masses of a triangle body as SOFA computes them.
// DiagonalMass on a TriangleSetTopologyContainer: each triangle gives each of its vertices
// massDensity x rest area / 3 (massDensity is a mass per area). UniformMass: totalMass / n to
// each of the n vertices, whatever the cells.
#include <vector>

#include "eis/model/triangular_fem.hpp"

namespace eis {

// The lumped mass of each vertex of `rest`.
std::vector<double> triangleDiagonalMasses(const std::vector<Triangle>& triangles,
                                           const std::vector<Vec3>& rest, double massDensity);

}  // namespace eis
