#pragma once
// The step matrix once more, in PETSc's block storage (BAIJ: one column index and nine
// contiguous values per 3 x 3 block of a node pair), for the products of an iterative solve:
// CG's own, the span start's and those of GAMG's finest smoother, which are most of an
// iteration's memory traffic. PETSc's product over a BAIJ matrix was 1.3 to 1.7 times faster
// than over the same AIJ matrix with its inode rows (docs/performance.md, "Lever 4"). The AIJ
// matrix stays the preconditioner's: PETSc 3.18's GAMG coarsens no BAIJ matrix. The copy costs
// the memory of a second matrix (8 bytes per nonzero and an index per block), or of a symmetric
// matrix, about half that: its upper triangle of blocks, whose product reads half the bytes
// (Storage::Upper, solver.symmetric-blocks).
#include <petscmat.h>

#include "eis/linalg/prefetching_block_product.hpp"

namespace eis {

class BlockCopy {
public:
  // Upper: a matrix known to be symmetric (MAT_SYMMETRIC) is copied as its upper triangle of
  // blocks, half the bytes a product reads: on one rank in PETSc's SBAIJ storage; on several,
  // where each rank's rows and columns are the same and the products read ahead (3 x 3 blocks,
  // a prefetch distance > 0), each rank's diagonal part holds its triangle and its off-diagonal
  // part all its blocks. With 3 x 3 blocks and a read-ahead, on any number of ranks, the
  // triangles keep their values in two 32-bit halves (block_arrays.hpp, SplitValues) and are
  // multiplied through a MatShell (of() returns it) that has MatMult, MatMultTranspose and
  // MatGetDiagonal, and a second one from the high halves alone (highHalvesOf). Elsewhere, or
  // when A is not known symmetric, the whole matrix.
  enum class Storage { Whole, Upper };
  // setUpTimer: a ScopedTimer name (core/timer.hpp) that times the copy's making, its structure
  // and the first touch of its memory, apart from the value copies; nullptr: not timed apart.
  // prefetch: the read-ahead of the upper triangles' products on several ranks.
  explicit BlockCopy(Storage storage = Storage::Whole, const char* setUpTimer = nullptr,
                     BlockPrefetch prefetch = {})
      : storage_(storage), setUpTimer_(setUpTimer), prefetch_(prefetch) {}
  ~BlockCopy();
  BlockCopy(const BlockCopy&) = delete;
  BlockCopy& operator=(const BlockCopy&) = delete;

  // Collective. The matrix to multiply by in place of A: the block copy, its values those of
  // A now (copied again only when A's changed), or A itself when A is not an AIJ matrix made of
  // full blocks of its block size > 1 on every rank (a scalar problem, a MatShell).
  Mat of(Mat A);
  // Collective. What a multigrid's finest smoother may multiply by instead: of(A) from the high
  // halves of its values alone where the copy holds the upper triangle in halves (a read-ahead
  // of 3 x 3 blocks), each value cut to a 20-bit significand, half the bytes of its products;
  // else of(A) itself.
  Mat highHalvesOf(Mat A);

  Storage storage() const { return storage_; }

private:
  void create(Mat A);
  void wrapUpperTriangles(Mat A);
  Mat shellOver(Mat A, PetscErrorCode (*product)(Mat, Vec, Vec),
                PetscErrorCode (*view)(Mat, PetscViewer));
  void copyValues();

  Storage storage_;
  const char* setUpTimer_;
  BlockPrefetch prefetch_;
  bool upper_ = false;  // the copy (its diagonal parts on several ranks) holds upper triangles
  PetscObjectId sourceId_ = 0;
  PetscObjectState sourceState_ = 0;
  Mat source_ = nullptr;      // not owned: the A of the last call
  Mat copy_ = nullptr;        // nullptr: A is multiplied itself
  Mat products_ = nullptr;    // the MatShell over a copy of upper triangles, or nullptr
  Mat highHalves_ = nullptr;  // the same from the high halves of their values, or nullptr
};

}  // namespace eis
