#pragma once
// The matrix of every step, kept from one step to the next: assembled (AIJ, block size =
// unknowns per node, element blocks written straight into its arrays by an
// ElementMatrixAssembler), A = P (mM + bB + kK) P + (I - P) D with D its own diagonal (the
// projected rows and columns zeroed with MatZeroRowsColumns across ranks, their diagonal entries
// kept), or matrix-free (a MatShell whose product runs the element products, with an
// element-wise Jacobi diagonal), A = P (mM + bB + kK) P + (I - P). Nodes that a 3x3 projector
// P_i maps (Projection::ownedBlocks) take the product P A P with a matrix P (MatPtAP) after the
// zeroed rows, and d_i (I - P_i) on their diagonal blocks, d_i the mean of the node's diagonal
// entries. The model offers its element
// matrices and products (ElementOperator) and the unknowns its constraints project
// (Projection); this class owns the PETSc matrix and decides when its values are rebuilt.
#include <petscdm.h>
#include <petscmat.h>

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "eis/core/cells.hpp"
#include "eis/core/parameters.hpp"
#include "eis/linalg/cell_range.hpp"
#include "eis/linalg/element_matrix_assembler.hpp"

namespace eis {

enum class OperatorMode { Assembled, MatrixFree };
inline constexpr Named<OperatorMode> kOperatorModes[] = {{"assembled", OperatorMode::Assembled},
                                                         {"matrix-free", OperatorMode::MatrixFree}};

// mM + bB + kK element by element, on local arrays (owned and ghost unknowns).
class ElementOperator {
public:
  virtual ~ElementOperator() = default;
  // blocks += the element matrices of the cells of `range`, (corners dofs)^2 row-major each.
  virtual void addElementMatrices(double* blocks, double m, double b, double k,
                                  CellRange range) const = 0;
  // The blocks whose diagonals make a matrix-free operator's diagonal (its Jacobi
  // preconditioner): the element matrices, less the terms that have none (springs between
  // vertices that share no cell), whose products alone are exact.
  virtual void addElementDiagonals(double* blocks, double m, double b, double k,
                                   CellRange range) const {
    addElementMatrices(blocks, m, b, k, range);
  }
  // out += (mM + bB + kK) in.
  virtual void addProducts(const double* in, double* out, double m, double b, double k) const = 0;
};

// P: the unknowns that projective constraints hold, and how they are zeroed.
class Projection {
public:
  virtual ~Projection() = default;
  // Global row numbers of the projected unknowns this rank owns.
  virtual IS rows() const = 0;
  // Their offsets in the local part of a global vector.
  virtual const std::vector<PetscInt>& ownedDofs() const = 0;
  // Zero them in a global vector, and in a local array (owned and ghost).
  virtual void project(Vec v) const = 0;
  virtual void projectLocal(double* local) const = 0;
  // Nodes whose three unknowns a 3x3 projector P_i maps rather than zeroes (SOFA's plane and line
  // projections): the offset of the node's first unknown in the local part of a global vector
  // and P_i row-major. project and projectLocal apply them too. None by default.
  struct Block {
    PetscInt offset;
    std::array<double, 9> p;
  };
  virtual const std::vector<Block>& ownedBlocks() const {
    static const std::vector<Block> none;
    return none;
  }
  // How many such nodes there are on all ranks (the same on every rank).
  virtual std::int64_t numBlockNodes() const { return 0; }
};

class SystemMatrix {
public:
  // Collective. dm: the layout of the unknowns (dofs per vertex, local vertex v's unknowns at
  // v * dofs in a local vector); cells: the local vertices of each; owned: whether this rank owns
  // each local vertex. `op` and `projection` must outlive the matrix. constantValues: the
  // values depend on the factors alone (a linear model), so they are rebuilt only when those
  // change. symmetric: whether the operator is symmetric, which the matrix is declared (PETSc's
  // MAT_SYMMETRIC) and the solvers' defaults follow (KspSettings::readOptions).
  SystemMatrix(DM dm, const Cells& cells, int dofs, const std::vector<unsigned char>& owned,
               OperatorMode mode, const ElementOperator& op, const Projection& projection,
               bool constantValues, bool symmetric = true);
  ~SystemMatrix();
  SystemMatrix(const SystemMatrix&) = delete;
  SystemMatrix& operator=(const SystemMatrix&) = delete;

  // Collective. The matrix at these factors; its values are rebuilt unless they cannot have
  // changed. The object owns it.
  Mat at(double m, double b, double k);

  // The matrix-free product y = P A P x + (I - P) x, and the diagonal of that operator.
  void applyShell(Vec x, Vec y);
  void shellDiagonal(Vec diagonal);

private:
  void createAssembled(const std::vector<unsigned char>& owned);
  void createShell();
  void assemble();
  void projectRowsAndColumns();
  void projectBlocks();
  void toLocal(Vec global, Vec local) const;

  DM dm_;
  const Cells& cells_;
  int dofs_;
  OperatorMode mode_;
  const ElementOperator& op_;
  const Projection& projection_;
  bool constantValues_;
  bool symmetric_;
  Mat matrix_ = nullptr;
  // With projector blocks (assembled): P, and P A P + (I - P) D made from matrix_.
  Mat projector_ = nullptr, projected_ = nullptr;
  std::unique_ptr<ElementMatrixAssembler> assembler_;  // assembled mode only
  bool haveFactors_ = false;
  double factors_[3] = {0, 0, 0};  // m, b, k of the current values
  Vec localIn_ = nullptr, localOut_ = nullptr;
};

}  // namespace eis
