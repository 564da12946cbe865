#pragma once
// A child node that SOFA's RigidMapping drives from a body of Rigid3d frames, with its UniformMass
// and ConstantForceField, as the body's rigid.mapped-* keys (io/sofa_rigid_mapping.cpp). Private to
// io/sofa_import.cpp.
#include <string>
#include <vector>

#include "sofa_reader.hpp"
#include "sofa_walk.hpp"

namespace eis::sofa {

// The frames' keys (rigid.frames) must be written already; the keys go into `keys`, the body's.
// Throws eis::Error naming the field or component for what cannot be mapped.
// `objFile`: the MeshOBJLoader file the child's position links to, or "" when none does.
void mapRigidMappedChild(Reader& r, const MappedNode& child, std::vector<SofaKey>& keys,
                         const std::string& objFile);

}  // namespace eis::sofa
