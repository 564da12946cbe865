#pragma once
// A child a DistanceMapping drives from the body, holding a UniformLagrangianConstraint
// (io/sofa_distance_mapping.cpp). Private to io/sofa_import.cpp.
#include "sofa_reader.hpp"
#include "sofa_walk.hpp"

namespace eis::sofa {

// The lagrange.distance key (model/distance_lagrangian_constraint.hpp) of a DistanceMapping
// child of `body` whose UniformLagrangianConstraint<Vec1> holds every edge at its rest length,
// into the reader's current keys; called after the body's mesh keys (its edges are the mapping's
// edges). Throws eis::Error naming the field or component for what cannot be mapped.
void mapDistanceMappedChild(Reader& r, const MappedNode& child, const SofaObject& body,
                            bool skipUnsupported);

}  // namespace eis::sofa
