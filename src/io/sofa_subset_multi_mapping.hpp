#pragma once
// SOFA's SubsetMultiMapping and the NearestPointROI engine that pairs the points of two states
// (io/sofa_subset_multi_mapping.cpp). Private to the SOFA importer.
#include <optional>
#include <string>
#include <vector>

#include "sofa_reader.hpp"
#include "sofa_walk.hpp"

namespace eis::sofa {

// The states a SubsetMultiMapping reads: its `input` links in order, a link to a node that node's
// state (its context's). Throws eis::Error naming the link that leads to no MechanicalObject.
std::vector<const SofaObject*> multiMappingInputs(const Reader& r, const SofaObject& mapping);

// NearestPointROI's indices1 or indices2 when `o`'s `field` links to one of them, as SOFA computes
// them; nullopt when the field links to no NearestPointROI. Its other outputs are read only by a
// SubsetMultiMapping (indexPairs) and its child's topology (edges).
std::optional<std::vector<long long>> nearestPointIndices(Reader& r, const SofaObject& o,
                                                          const std::string& field);

// The springs of a SubsetMultiMapping child (a MeshSpringForceField on its edges) as
// interaction.springs of the body its first input is, whose keys the reader is writing. Throws
// eis::Error naming what the child holds that is not carried.
void mapSubsetMultiMappedChild(Reader& r, const MappedNode& child);

}  // namespace eis::sofa
