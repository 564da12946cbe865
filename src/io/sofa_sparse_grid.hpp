#pragma once
// SOFA's SparseGridTopology built from a surface, per SOFA master's source
// (Topology/Container/Grid: SparseGridTopology::buildAsFinest, buildFromTriangleMesh,
// voxelizeTriangleMesh, buildFromRegularGridTypes; RegularGridTopology::findCube; Helper/io:
// MeshOBJ): the cells of a regular grid the surface crosses (boundary cells) and those it
// encloses (inside cells), with the points they use, numbered as SOFA numbers them, so that
// indices in a scene name the same points. Private to io/sofa_import.cpp.
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "sofa_reader.hpp"

namespace eis::sofa {

// SparseGridTopology, or SparseGridRamificationTopology or SparseGridMultipleTopology
// (io/sofa_sparse_grid_ramification.hpp), which derive from it.
inline bool isSparseGrid(const std::string& type) {
  return type == "SparseGridTopology" || type == "SparseGridRamificationTopology" ||
         type == "SparseGridMultipleTopology";
}

// A surface as SOFA's helper::io::Mesh holds it: vertices, and facets as vertex lists
// (polygons, cut into fans of triangles from their first vertex).
struct Surface {
  std::vector<std::array<double, 3>> vertices;
  std::vector<std::vector<long long>> facets;
};

// An OBJ file as MeshOBJ reads it: `v x y z` and the first number of each corner of `f` (and
// `l`) lines, 1-based; everything else is ignored. A missing or malformed file is an Error.
Surface readObj(const std::string& path);

// SparseGridTopology's own data fields that shape the grid.
struct SparseGridSettings {
  std::array<int, 3> n{2, 2, 2};
  std::array<double, 3> min{0, 0, 0}, max{0, 0, 0};  // both zero: the surface's box, 1% wider
  double cellWidth = 0;                              // not zero: n from it
  bool onlyInsideCells = false;
  bool fillWeighted = true;
};

// SparseGridRamificationTopology::findCube with virtual finer levels: the point's cell in the
// finest level's regular grid, and the hexahedron of the grid that cell ended in (its coarsest
// parent); findNearestCube: the nearest of the finest level's boundary cells.
struct FinestCells {
  std::array<int, 3> n{};
  std::array<double, 3> min{}, max{};
  std::vector<long long> parent;    // per regular cell of the finest level; -1: not kept
  std::vector<long long> boundary;  // its boundary cells (regular numbers), in its cells' order
};

// One level of a ramified grid (SparseGridRamificationTopology's own, or one of its virtual finer
// levels): per hexahedron its corners (the level's point numbers), its _stiffnessCoefs and its
// _hierarchicalCubeMapRamification (per place 0..7 in SOFA's child order, bit 0: x, bit 1: y,
// bit 2: z, the hexahedra one level finer, in SOFA's order; none at the finest level), and its
// cell's number in the level's regular grid and whether its type is BOUNDARY.
struct RamifiedLevel {
  std::vector<std::array<long long, 8>> hexahedra;
  std::vector<double> stiffness;
  std::vector<long long> regular;
  std::vector<bool> boundary;
  std::vector<std::array<std::vector<long long>, 8>> children;
};

struct SparseGrid {
  std::array<int, 3> n{};                           // points of the regular grid along x, y, z
  std::array<double, 3> min{}, max{};               // its box
  std::vector<std::array<double, 3>> points;        // those the kept cells use, in SOFA's order
  std::vector<std::array<long long, 8>> hexahedra;  // boundary cells first, then inside ones
  std::size_t boundaryCells = 0;                    // voxelize keeps them first
  std::vector<bool> boundary;                       // per hexahedron: SOFA's type BOUNDARY
  // SparseGridTopology::getStiffnessCoef: 0.5 for a boundary cell when fillWeighted, else 1, or
  // from a finer level's (coarser).
  std::vector<double> stiffness;
  // getMassCoef: the stiffness's but on a SparseGridMultipleTopology (its massCoefs).
  std::vector<double> mass;
  std::optional<FinestCells> finest;    // SparseGridRamificationTopology's, with finer levels
  std::vector<RamifiedLevel> ramified;  // and its levels, the finest first, the grid's own last
  std::vector<long long> regular;       // per hexahedron: its cell's number in the regular grid
};

// One level of a sparse grid, over its regular grid (cell (x, y, z) numbered
// x + (nx - 1) (y + (ny - 1) z)): each regular cell's type, and the stiffness coefficient
// (SparseGridTopology's _stiffnessCoefs) of those kept.
enum class VoxelType : char { Outside, Inside, Boundary };
struct GridLevel {
  std::array<int, 3> n{};
  std::array<double, 3> min{}, max{};
  std::vector<VoxelType> types;
  std::vector<double> stiffness;  // per regular cell; 0 where not kept
  std::vector<double> mass;       // _massCoefs likewise
};

// buildAsFinest's voxelisation of `surface` (see voxelize), before any cell is numbered; the
// stiffness as voxelize gives it.
GridLevel finestLevel(const Surface& surface, const SparseGridSettings& settings);

// SparseGridTopology::buildFromFiner: the grid of n / 2 + 1 points (integer division) along each
// axis over min and min + (n_coarse - 1) 2 step_fine, whose cell (i, j, k) has the fine cells
// (2i..2i+1, 2j..2j+1, 2k..2k+1) as children: outside when no child is kept, inside when all eight
// are kept and inside, else boundary; its coefficients the sums of its children's over 8.
GridLevel coarser(const GridLevel& finer);

// A level's cells `kept` (regular-grid numbers) in that order, their corners numbered by
// position (SOFA's std::map of Vec3: by x, then y, then z), with their coefficients.
SparseGrid numberedCells(const GridLevel& level, const std::vector<long long>& kept);

// buildFromFiner's numbering of a level's kept cells: in the order of (x, y, z) with z fastest
// (x slowest), boundary and inside ones together; their corners numbered by position as in
// voxelize.
SparseGrid numberedByCubes(const GridLevel& level);

// NonUniformHexahedronFEMForceFieldAndMass's finer cells: for each hexahedron of `grid` (cell
// numbers `grid.regular`), the coefficients of its 8^levels cells `levels` levels finer,
// children in SOFA's order (bit 0: x, bit 1: y, bit 2: z; the first level slowest), 0 where a
// level does not keep the cell (SOFA's InvalidID). `finer` is the grid's virtual finer levels,
// the finest first (SOFA's _virtualFinerLevels); levels is at most their number.
std::vector<double> finerCoefficients(const SparseGrid& grid, const std::vector<GridLevel>& finer,
                                      int levels);

// finerCoefficients on a ramified grid (`grid.ramified`), for
// HexahedronCompositeFEMForceFieldAndMass (its
// computeMechanicalMatricesRecursivelyWithRamifications): each hexahedron's children are those of
// its own piece, its coefficient the level's. Where no place of a hexahedron holds two pieces and
// no two of its children meet at a position without sharing the point there, that assembles 27
// points as the plain homogenisation does, and the coefficients are listed alike; anything else is
// an Error naming the hexahedron.
std::vector<double> ramifiedFinerCoefficients(const SparseGrid& grid, int levels);

// NonUniformHexahedronFEMForceFieldAndMass `field` on `grid` (io/sofa_nonuniform_hexahedron.cpp):
// the keys of its finer cells, from the grid's virtual finer levels `finer`.
void mapNonUniformLevels(Reader& r, const SofaObject& grid, const SofaObject& field,
                         const SparseGrid& mesh, const std::vector<GridLevel>& finer);

// The grid SOFA keeps of `surface`: the cells its vertices and facets cross, and those the fill
// from the grid's border does not reach. The surface need not be closed (nor have facets: then
// the cells holding its vertices and those they enclose), as in SOFA. A vertex outside a box given
// by min and max counts in the grid's cell nearest to it along each axis, as in SOFA.
SparseGrid voxelize(const Surface& surface, const SparseGridSettings& settings);

// The SparseGridTopology `grid`, its surface read from `surfacePath` (empty: its position with
// its triangles and quads; `linkedPoints`, when given, the points its position links to, which
// SOFA computes); a SparseGridMultipleTopology's `surfaces` its fileTopologies, found. Anything
// refused is an Error naming the object and field. `finer` (when not null) receives a
// SparseGridTopology's virtual finer levels, the finest first.
SparseGrid sparseGrid(const Reader& reader, const SofaObject& grid, const std::string& surfacePath,
                      const std::vector<std::string>& surfaces = {},
                      const std::vector<std::array<double, 3>>* linkedPoints = nullptr,
                      std::vector<GridLevel>* finer = nullptr);

}  // namespace eis::sofa
