#pragma once
// A HexahedronFEMForceField or TetrahedronFEMForceField in a child that an IdentityMapping or
// SubsetMapping drives from a body on a RegularGridTopology (io/sofa_mapped_fem.cpp). Private to
// io/sofa_import.cpp.
#include <vector>

#include "sofa_reader.hpp"
#include "sofa_walk.hpp"

namespace eis::sofa {

// Whether the child carries one hexahedral or tetrahedral FEM force field and nothing else: its
// stiffness is carried to the body by mapMappedFems or mapSharedTopologyFem, not by the
// mapped-child keys.
bool carriesOnlyFem(const MappedNode& child);

// Whether that force field (of a child that carriesOnlyFem) reads tetrahedra (on a grid: its
// hexahedra cut as TetrahedronFEMForceField cuts them).
bool readsTetrahedra(const MappedNode& child);

// The body's elastic keys (material.*, one Young's modulus per cell of `bodyGrid`: a hexahedron,
// or a tetrahedron of its cut) from the FEM force fields of `children` (each carriesOnlyFem). A
// selection mapping makes each child point a body node, so J^T K_c J of a child cell is that
// element's stiffness on the body nodes it selects; when those are, in order, a cell of the body's
// grid at the same rest positions, it is the body's element of that cell with the child's
// material, and the children's moduli add up per cell (0 where none acts). Anything else (a
// child cell across body cells, materials that do not add up, a barycentric child) is refused
// naming the component.
// The keys go into `keys`, the body's.
void mapMappedFems(Reader& r, const SofaObject& bodyGrid,
                   const std::vector<const MappedNode*>& children, std::vector<SofaKey>& keys);

// The body's elastic keys from the FEM force field of the one child of `children` (it
// carriesOnlyFem) of a body on no grid: an IdentityMapping child on a topology of its node that
// reads the body topology's points and cells (the same objects hold them) has J = I on the same
// cells and rest points, so J^T K_c J is the body's FEM with the child's data. Anything else is
// refused naming the component. The keys go to the reader's current body.
void mapSharedTopologyFem(Reader& r, const SofaObject& bodyState,
                          const std::vector<const MappedNode*>& children);

}  // namespace eis::sofa
