#pragma once
// A HexahedronFEMForceField in a child that an IdentityMapping or SubsetMapping drives from a body
// on a RegularGridTopology (io/sofa_mapped_fem.cpp). Private to io/sofa_import.cpp.
#include <vector>

#include "sofa_reader.hpp"
#include "sofa_walk.hpp"

namespace eis::sofa {

// Whether the child carries one hexahedral FEM force field and nothing else: its stiffness is
// carried to the body by mapMappedFems, not by the mapped-child keys.
bool carriesOnlyFem(const MappedNode& child);

// The body's elastic keys (material.*, one Young's modulus per hexahedron of `bodyGrid`) from the
// FEM force fields of `children` (each carriesOnlyFem). A selection mapping makes each child point
// a body node, so J^T K_c J of a child hexahedron is that element's stiffness on the body nodes it
// selects; when those are, in order, a hexahedron of the body's grid at the same rest positions,
// it is the body's element of that hexahedron with the child's material, and the children's
// moduli add up per hexahedron (0 where none acts). Anything else (a child hexahedron across body
// cells, materials that do not add up, a barycentric child) is refused naming the component.
// The keys go into `keys`, the body's.
void mapMappedFems(Reader& r, const SofaObject& bodyGrid,
                   const std::vector<const MappedNode*>& children, std::vector<SofaKey>& keys);

}  // namespace eis::sofa
