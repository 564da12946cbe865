#pragma once
// A mapped child's keys (io/sofa_mapped_child.cpp). Private to the SOFA importer.
#include <string>
#include <vector>

#include "eis/io/sofa_import.hpp"
#include "sofa_reader.hpp"
#include "sofa_sparse_grid.hpp"
#include "sofa_walk.hpp"

namespace eis::sofa {

// The mapped-child keys (model/mapped_child.hpp) of `child` into `keys`, the keys of the body its
// mapping reads (which has its load.gravity already). Throws eis::Error naming the field or
// component for what cannot be mapped.
// `sparse`: the body's SparseGridTopology, when its mesh is one (SOFA's sparse grid mapper reads
// its cubes), and `finer` its virtual finer levels, the finest first (HexahedronCompositeFEMMapping
// reads its finest cells).
// `objFile`: the file of the MeshOBJLoader the child's points are linked to, found by the
// importer ("" when none).
void mapMappedChild(Reader& r, const MappedNode& child, std::vector<SofaKey>& keys,
                    const SparseGrid* sparse = nullptr,
                    const std::vector<GridLevel>* finer = nullptr, const std::string& objFile = "");

// SOFA's SurfacePressureForceField `o` in the mapped child (io/sofa_mapped_pressure.cpp): the
// mapped-pressure keys, the faces those of the child's topology; `points`: the child's size.
void mapMappedChildPressure(Reader& r, const SofaObject& o, const MappedNode& child,
                            const std::string& objFile, std::size_t points);

// A mapped child's points (`state` its MechanicalObject): written in its position, or (fromLoader:
// under a BarycentricMapping) a MeshOBJLoader's vertices from `objFile`, which its position links
// to; 3 a point.
std::vector<double> childPoints(Reader& r, const SofaObject& state, const std::string& objFile,
                                bool fromLoader);

// Refuses a mapping that keeps the child's forces or masses in the child (mapForces, mapMasses,
// mapMatrices, isMechanical false) or maps the rest positions (applyRestPosition).
void checkMechanicalMapping(const Reader& r, const SofaObject& mapping);

}  // namespace eis::sofa
