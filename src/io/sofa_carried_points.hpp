#pragma once
// SOFA's DeformableOnRigidFrameMapping (Component/Mapping/Linear) with a BarycentricMapping child
// under PlaneForceFields, read as the carried.* keys of the body the mapping reads
// (model/carried_points.hpp; io/sofa_carried_points.cpp). Private to the SOFA importer.
#include <string>
#include <vector>

#include "sofa_reader.hpp"
#include "sofa_sparse_grid.hpp"
#include "sofa_walk.hpp"

namespace eis::sofa {

// The state a DeformableOnRigidFrameMapping reads as input1 (the body whose nodes it carries).
const SofaObject* carriedBody(const Reader& r, const SofaObject& frameMapping);

// For `child`, a child a BarycentricMapping drives from `state`: when a
// DeformableOnRigidFrameMapping in state's node fills state from a body of points (input1) and a
// body of Rigid3d frames (input2), both among `bodies`, the carried node; else one without a
// frameMapping. Throws eis::Error naming the mapping when its inputs are not such bodies.
CarriedNode carriedNode(const Reader& r, const std::vector<Body>& bodies, const MappedNode& child,
                        const SofaObject& state);

// The carried.* keys, into `keys` (the reader's), of the body that `carried` is carried from,
// whose mesh is the sparse grid
// `sparse` (SOFA's sparse grid mapper finds the child's points in its cubes); `objFile`: the
// MeshOBJLoader file the child's points are linked to, found by the importer ("" when none).
void mapCarriedNode(Reader& r, const CarriedNode& carried, const SofaObject& bodyGrid,
                    const SparseGrid& sparse, const std::string& objFile,
                    std::vector<SofaKey>& keys);

}  // namespace eis::sofa
