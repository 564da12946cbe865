#pragma once
// The datasets of output.xdmf (io/xdmf_output.hpp) as PETSc vectors in the file's row order, and
// the HDF5 file they are written to. Rows of a scene of several bodies are the bodies' rows one
// after the other, in scene order (JoinedRows).
#include <petscvec.h>

#include <cstdint>
#include <string>
#include <vector>

#include "eis/mesh/distributed_mesh.hpp"

namespace eis {

// Collective: a global vector of `rows` rows of `width` values, split over the ranks as PETSc
// decides; made the way NaturalOrder makes its vector, so that those of the same size share a
// layout.
Vec rowVector(MPI_Comm comm, std::int64_t rows, int width);

// The scatter from `width` values per local cell to the same values in the file's cell order:
// input tetrahedron k becomes rows k * 8^r ... k * 8^r + 8^r - 1 (mesh.refine = r).
class CellOrder {
public:
  CellOrder(const DistributedMesh& mesh, int width);
  ~CellOrder();
  CellOrder(const CellOrder&) = delete;
  CellOrder& operator=(const CellOrder&) = delete;
  std::int64_t cells() const { return cells_; }
  Vec natural() const { return natural_; }
  // Fills natural() from this rank's values, `width` per local cell.
  void toNatural(const std::vector<double>& values) const;

private:
  std::int64_t cells_ = 0;
  Vec local_ = nullptr, natural_ = nullptr;
  VecScatter scatter_ = nullptr;
};

// The rows of several bodies (`rows` each, `width` values per row) one after the other in one
// vector, in the order given.
class JoinedRows {
public:
  JoinedRows(MPI_Comm comm, const std::vector<std::int64_t>& rows, int width);
  ~JoinedRows();
  JoinedRows(const JoinedRows&) = delete;
  JoinedRows& operator=(const JoinedRows&) = delete;
  Vec joined() const { return joined_; }
  std::int64_t rows() const { return total_; }
  // Collective: body `body`'s rows, a vector of rows[body] rows, into their place in joined().
  void place(std::size_t body, Vec part);

private:
  std::vector<std::int64_t> offsets_;  // the first row of each body
  std::int64_t total_ = 0;
  int width_;
  Vec joined_ = nullptr;
  std::vector<VecScatter> scatters_;  // made at a body's first place()
};

}  // namespace eis
