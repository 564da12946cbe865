#pragma once
// Sums element matrices into a distributed AIJ matrix without a MatSetValues call per element.
//
// The pattern is built once: one dofs x dofs block for every pair of vertices that share a cell
// on any rank. After that, every vertex pair this rank's cells touch has a fixed place: in PETSc's
// own value arrays of the owned rows (diagonal or off-diagonal part of the MPIAIJ matrix), or,
// for a row owned by another rank, in a small buffer of ghost rows. An assembly adds the element
// blocks straight into those places, then hands the ghost rows to their owners in one
// MatSetValuesBlocked per ghost vertex (PETSc's stash sends them at MatAssemblyEnd). The matrix
// is not zeroed first: the first cell (in cell order) to reach a place writes 0 + its block
// there, the same bits as adding to a zero, so an assembly passes over the values once.
//
// Memory beside the matrix: 2 bytes per element-matrix block (32 per tetrahedron, 128 per
// hexahedron) and 8 per cell, 16 bytes per vertex pair, and the ghost rows' values, none of it
// once released (releaseMaps) until the next assembly. No array of every element's values is
// ever held.
#include <petscmat.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "eis/core/cells.hpp"
#include "eis/linalg/cell_range.hpp"

namespace eis {

class ElementMatrixAssembler {
public:
  // A: sizes, block size `dofs` and type AIJ set, not yet preallocated. cells: the local
  // vertices of each, tetrahedra or hexahedra (core/cells.hpp). globalBlock: the global block row
  // of each local vertex (its first global unknown / dofs). owned: whether this rank owns each
  // local vertex. Collective.
  ElementMatrixAssembler(Mat A, const Cells& cells, int dofs,
                         const std::vector<PetscInt>& globalBlock,
                         const std::vector<unsigned char>& owned);

  // Adds to the zeroed `blocks` the element matrices of the cells of a range, (corners dofs)^2
  // row-major each, in the cell's vertex order.
  using ElementMatrices = std::function<void(double* blocks, CellRange range)>;
  // A = the sum over every rank's cells of the element matrices. Collective.
  void assemble(const ElementMatrices& elementMatrices);
  // Frees where each cell's blocks go (about 150 bytes a unknown), for a matrix that will not be
  // assembled again soon (a linear model's); the next assembly finds them again first, as the
  // constructor did. The pattern stays.
  void releaseMaps();
  // The bytes the maps hold now (their vectors' capacities): none once released.
  std::size_t mapBytes() const;

private:
  // Where one vertex pair's block lives: entry (a, b) is at values[kind][offset + a * rowLength +
  // b].
  enum Kind : int { InDiagonalPart = 0, InOffDiagonalPart = 1, InGhostRows = 2 };
  struct BlockPlace {
    PetscInt offset;
    PetscInt rowLength;
    Kind kind;
  };
  // Sorted global block columns of each local vertex's row: the vertices that share a cell with it.
  void buildLocalRows(const std::vector<PetscInt>& globalBlock);
  // The owned rows' columns: this rank's plus those other ranks' cells add (sent to the owner).
  std::vector<std::vector<PetscInt>> ownedRowColumns(const std::vector<PetscInt>& globalBlock,
                                                     const std::vector<unsigned char>& owned) const;
  void preallocate(const std::vector<std::vector<PetscInt>>& rows);
  void locateBlocks(const std::vector<PetscInt>& globalBlock,
                    const std::vector<unsigned char>& owned);
  void mapCellBlocks(const std::vector<PetscInt>& globalBlock);
  // buildLocalRows, locateBlocks and mapCellBlocks: every map an assembly reads.
  void mapBlocks();
  // Adds a range's element matrices (as `assemble` takes them) into their places; D, the
  // unknowns per vertex, and N, the vertices per cell, are constants so that each block's loops
  // unroll into straight-line code.
  template <int D, int N>
  void scatter(const double* blocks, CellRange range, PetscScalar* const* values) const;

  Mat matrix_;
  const Cells& cells_;
  // The constructor's globalBlock and owned, from which the maps are made again after
  // releaseMaps.
  std::vector<PetscInt> globalBlock_;
  std::vector<unsigned char> owned_;
  bool mapped_ = false;
  int corners_;
  int dofs_;
  PetscInt firstBlockRow_ = 0, endBlockRow_ = 0;  // this rank's block rows (and diagonal columns)
  // Local vertex rows: row v's pairs are rowStart_[v] .. rowStart_[v + 1] - 1.
  std::vector<std::int64_t> rowStart_;
  std::vector<PetscInt> rowColumns_;  // global block column of each pair
  std::vector<BlockPlace> places_;    // of each pair
  // Block (i, j) of cell c is pair rowStart_[cell[i]] + cellBlocks_[N^2 c + N i + j]: the
  // position of cell[j] in cell[i]'s row, small enough for 16 bits.
  std::vector<std::uint16_t> cellBlocks_;
  // Bit N i + j of cell c: the cell is the first to reach its block (i, j)'s place.
  std::vector<std::uint64_t> firstTouches_;
  // The blocks no local cell reaches (pairs only other ranks' cells make, the diagonal block of
  // a vertex without cells): zeroed at each assembly.
  std::vector<BlockPlace> uncovered_;
  // Ghost rows: the vertex, where its values start in ghostValues_, its global block row.
  struct GhostRow {
    PetscInt vertex;
    PetscInt start;
    PetscInt globalRow;
  };
  std::vector<GhostRow> ghostRows_;
  std::vector<PetscScalar> ghostValues_;
};

}  // namespace eis
