#pragma once
// A child a VolumeMapping drives from the body (io/sofa_volume_mapping.cpp). Private to
// io/sofa_import.cpp.
#include "sofa_reader.hpp"
#include "sofa_walk.hpp"

namespace eis::sofa {

// The volume.* keys (model/volume_springs.hpp) of a VolumeMapping child of `body` that carries
// a RestShapeSpringsForceField<Vec1>, into the reader's current keys; throws eis::Error naming
// the field or component for what cannot be mapped.
void mapVolumeMappedChild(Reader& r, const MappedNode& child, const SofaObject& body,
                          bool skipUnsupported);

}  // namespace eis::sofa
