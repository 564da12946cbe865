#include "eis/linalg/element_matrix_assembler.hpp"

#include <algorithm>
#include <limits>
#include <string>

#include "eis/core/error.hpp"
#include "eis/core/mpi_exchange.hpp"

namespace eis {

namespace {

// The rank that owns global row `row`, from the ownership ranges (size + 1 entries).
int ownerOf(PetscInt row, const PetscInt* ranges, int size) {
  return int(std::upper_bound(ranges, ranges + size + 1, row) - ranges) - 1;
}

// A sequential AIJ matrix's rows and columns, read in place.
struct RowStructure {
  PetscInt rows = 0;
  const PetscInt* start = nullptr;    // row r's entries are start[r] .. start[r + 1] - 1
  const PetscInt* columns = nullptr;  // sorted within each row
};

RowStructure rowStructure(Mat A) {
  RowStructure s;
  PetscBool done;
  EIS_CHECK(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &s.rows, &s.start, &s.columns, &done));
  if (!done) throw Error("internal: PETSc gave no row structure for the system matrix");
  return s;
}

void releaseRowStructure(Mat A, RowStructure& s) {
  PetscBool done;
  EIS_CHECK(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &s.rows, &s.start, &s.columns, &done));
}

// The index in s.columns of `column` in row `row`.
PetscInt entryOf(const RowStructure& s, PetscInt row, PetscInt column) {
  const PetscInt* first = s.columns + s.start[row];
  const PetscInt* last = s.columns + s.start[row + 1];
  const PetscInt* at = std::lower_bound(first, last, column);
  if (at == last || *at != column)
    throw Error("internal: a vertex pair is missing from the matrix");
  return PetscInt(at - s.columns);
}

// The assembly's parts as -log_view events of their own, beside PETSc's MatAssemblyBegin and
// MatAssemblyEnd: the element matrices (AsmElementMats, run by run), their sums into the owned
// rows' values (AsmScatter, the same runs) and the ghost rows handed to PETSc's stash
// (AsmGhostRows). Without -log_view an event costs a test of a flag.
struct AssemblyEvents {
  PetscLogEvent elements = -1, scatter = -1, ghostRows = -1;
};

const AssemblyEvents& assemblyEvents() {
  static const AssemblyEvents events = [] {
    AssemblyEvents e;
    EIS_CHECK(PetscLogEventRegister("AsmElementMats", MAT_CLASSID, &e.elements));
    EIS_CHECK(PetscLogEventRegister("AsmScatter", MAT_CLASSID, &e.scatter));
    EIS_CHECK(PetscLogEventRegister("AsmGhostRows", MAT_CLASSID, &e.ghostRows));
    return e;
  }();
  return events;
}

}  // namespace

ElementMatrixAssembler::ElementMatrixAssembler(Mat A, const Cells& cells, int dofs,
                                               const std::vector<PetscInt>& globalBlock,
                                               const std::vector<unsigned char>& owned)
    : matrix_(A),
      cells_(cells),
      globalBlock_(globalBlock),
      owned_(owned),
      corners_(cells.corners()),
      dofs_(dofs) {
  if (dofs_ != 1 && dofs_ != 3)
    throw Error("internal: the assembler takes 1 or 3 unknowns per vertex, not " +
                std::to_string(dofs_));
  // The row layout alone gives the ownership ranges; MatSetUp would preallocate a default pattern.
  PetscLayout rows, columns;
  EIS_CHECK(MatGetLayouts(matrix_, &rows, &columns));
  EIS_CHECK(PetscLayoutSetUp(rows));
  EIS_CHECK(PetscLayoutSetUp(columns));
  PetscInt firstRow, endRow;
  EIS_CHECK(PetscLayoutGetRange(rows, &firstRow, &endRow));
  firstBlockRow_ = firstRow / dofs_;
  endBlockRow_ = endRow / dofs_;
  buildLocalRows(globalBlock);
  preallocate(ownedRowColumns(globalBlock, owned));
  locateBlocks(globalBlock, owned);
  mapCellBlocks(globalBlock);
  mapped_ = true;
}

// Each vector swapped with an empty one, which takes its memory away (assigning {} would keep
// the capacity).
void ElementMatrixAssembler::releaseMaps() {
  std::vector<std::int64_t>().swap(rowStart_);
  std::vector<PetscInt>().swap(rowColumns_);
  std::vector<BlockPlace>().swap(places_);
  std::vector<std::uint16_t>().swap(cellBlocks_);
  std::vector<std::uint64_t>().swap(firstTouches_);
  std::vector<BlockPlace>().swap(uncovered_);
  std::vector<GhostRow>().swap(ghostRows_);
  std::vector<PetscScalar>().swap(ghostValues_);
  mapped_ = false;
}

std::size_t ElementMatrixAssembler::mapBytes() const {
  const auto bytes = [](const auto& v) { return v.capacity() * sizeof(v[0]); };
  return bytes(rowStart_) + bytes(rowColumns_) + bytes(places_) + bytes(cellBlocks_) +
         bytes(firstTouches_) + bytes(uncovered_) + bytes(ghostRows_) + bytes(ghostValues_);
}

void ElementMatrixAssembler::mapBlocks() {
  buildLocalRows(globalBlock_);
  locateBlocks(globalBlock_, owned_);
  mapCellBlocks(globalBlock_);
  mapped_ = true;
}

void ElementMatrixAssembler::buildLocalRows(const std::vector<PetscInt>& globalBlock) {
  const std::size_t vertices = globalBlock.size();
  std::vector<std::int64_t> cellStart(vertices + 1, 0);
  for (const auto& cell : cells_)
    for (auto v : cell) ++cellStart[v + 1];
  for (std::size_t v = 0; v < vertices; ++v) cellStart[v + 1] += cellStart[v];
  std::vector<PetscInt> cellsOf(cellStart.back());
  std::vector<std::int64_t> next(cellStart.begin(), cellStart.end() - 1);
  for (std::size_t c = 0; c < cells_.size(); ++c)
    for (auto v : cells_[c]) cellsOf[next[v]++] = PetscInt(c);

  rowStart_.assign(vertices + 1, 0);
  rowColumns_.clear();
  rowColumns_.reserve(16 * vertices);
  std::vector<PetscInt> row;
  for (std::size_t v = 0; v < vertices; ++v) {
    // The diagonal block always, so that a vertex no cell uses still gets a row.
    row.assign(1, globalBlock[v]);
    for (auto c = cellStart[v]; c < cellStart[v + 1]; ++c)
      for (auto w : cells_[cellsOf[c]]) row.push_back(globalBlock[w]);
    std::sort(row.begin(), row.end());
    row.erase(std::unique(row.begin(), row.end()), row.end());
    if (row.size() > std::numeric_limits<std::uint16_t>::max())
      throw Error("a mesh node shares cells with " + std::to_string(row.size()) +
                  " nodes; at most 65535 are supported");
    rowColumns_.insert(rowColumns_.end(), row.begin(), row.end());
    rowStart_[v + 1] = std::int64_t(rowColumns_.size());
  }
  rowColumns_.shrink_to_fit();
}

std::vector<std::vector<PetscInt>> ElementMatrixAssembler::ownedRowColumns(
    const std::vector<PetscInt>& globalBlock, const std::vector<unsigned char>& owned) const {
  MPI_Comm comm = PetscObjectComm(reinterpret_cast<PetscObject>(matrix_));
  int size;
  EIS_CHECK_MPI(MPI_Comm_size(comm, &size));
  PetscLayout layout;
  EIS_CHECK(MatGetLayouts(matrix_, &layout, nullptr));
  const PetscInt* ranges;
  EIS_CHECK(PetscLayoutGetRanges(layout, &ranges));
  std::vector<std::vector<PetscInt>> rows(std::size_t(endBlockRow_ - firstBlockRow_));
  const std::size_t vertices = globalBlock.size();
  for (std::size_t v = 0; v < vertices; ++v)
    if (owned[v])
      rows[globalBlock[v] - firstBlockRow_].assign(rowColumns_.begin() + rowStart_[v],
                                                   rowColumns_.begin() + rowStart_[v + 1]);

  // A ghost vertex's row holds pairs that only this rank's cells make: send them to its owner
  // as (row, column) pairs of global blocks.
  const std::vector<IndexRow<2>> received = exchangeRows<2>(comm, [&](auto emit) {
    for (std::size_t v = 0; v < vertices; ++v)
      if (!owned[v]) {
        const int owner = ownerOf(dofs_ * globalBlock[v], ranges, size);
        for (auto k = rowStart_[v]; k < rowStart_[v + 1]; ++k)
          emit(owner, IndexRow<2>{globalBlock[v], rowColumns_[k]});
      }
  });
  std::vector<unsigned char> grown(rows.size(), 0);
  for (const IndexRow<2>& pair : received) {
    const auto r = std::size_t(pair[0] - firstBlockRow_);
    rows[r].push_back(pair[1]);
    grown[r] = 1;
  }
  for (std::size_t r = 0; r < rows.size(); ++r)
    if (grown[r]) {
      std::sort(rows[r].begin(), rows[r].end());
      rows[r].erase(std::unique(rows[r].begin(), rows[r].end()), rows[r].end());
    }
  return rows;
}

void ElementMatrixAssembler::preallocate(const std::vector<std::vector<PetscInt>>& rows) {
  std::vector<PetscInt> diagonalBlocks(rows.size(), 0), offDiagonalBlocks(rows.size(), 0);
  std::size_t longest = 0;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    for (auto column : rows[r])
      ++(column >= firstBlockRow_ && column < endBlockRow_ ? diagonalBlocks : offDiagonalBlocks)[r];
    longest = std::max(longest, rows[r].size());
  }
  EIS_CHECK(MatXAIJSetPreallocation(matrix_, dofs_, diagonalBlocks.data(), offDiagonalBlocks.data(),
                                    nullptr, nullptr));
  // The pattern goes in once, as zeros, one block row per call; values never take this path.
  const std::vector<PetscScalar> zeros(longest * dofs_ * dofs_, 0.0);
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const PetscInt row = firstBlockRow_ + PetscInt(r);
    EIS_CHECK(MatSetValuesBlocked(matrix_, 1, &row, PetscInt(rows[r].size()), rows[r].data(),
                                  zeros.data(), INSERT_VALUES));
  }
  EIS_CHECK(MatAssemblyBegin(matrix_, MAT_FINAL_ASSEMBLY));
  EIS_CHECK(MatAssemblyEnd(matrix_, MAT_FINAL_ASSEMBLY));
  // From here the pattern is fixed: the block places below stay valid for good.
  EIS_CHECK(MatSetOption(matrix_, MAT_NEW_NONZERO_LOCATION_ERR, PETSC_TRUE));
  EIS_CHECK(MatSetOption(matrix_, MAT_KEEP_NONZERO_PATTERN, PETSC_TRUE));
}

void ElementMatrixAssembler::locateBlocks(const std::vector<PetscInt>& globalBlock,
                                          const std::vector<unsigned char>& owned) {
  Mat diagonal = matrix_, offDiagonal = nullptr;
  const PetscInt* offDiagonalColumns = nullptr;  // global column of each of offDiagonal's
  PetscInt offDiagonalCount = 0;
  PetscBool distributed;
  EIS_CHECK(
      PetscObjectTypeCompare(reinterpret_cast<PetscObject>(matrix_), MATMPIAIJ, &distributed));
  if (distributed) {
    EIS_CHECK(MatMPIAIJGetSeqAIJ(matrix_, &diagonal, &offDiagonal, &offDiagonalColumns));
    EIS_CHECK(MatGetLocalSize(offDiagonal, nullptr, &offDiagonalCount));
  }
  RowStructure d = rowStructure(diagonal), o;
  if (offDiagonal) o = rowStructure(offDiagonal);

  const std::size_t vertices = globalBlock.size();
  places_.resize(rowColumns_.size());
  PetscInt ghostSize = 0;
  for (std::size_t v = 0; v < vertices; ++v) {
    const auto first = rowStart_[v];
    const auto count = PetscInt(rowStart_[v + 1] - rowStart_[v]);
    if (!owned[v]) {
      // Laid out as MatSetValuesBlocked takes one block row: dofs rows of count * dofs values.
      ghostRows_.push_back({PetscInt(v), ghostSize, globalBlock[v]});
      for (PetscInt k = 0; k < count; ++k)
        places_[first + k] = {ghostSize + dofs_ * k, dofs_ * count, InGhostRows};
      ghostSize += dofs_ * dofs_ * count;
      continue;
    }
    const PetscInt row = dofs_ * (globalBlock[v] - firstBlockRow_);
    for (std::int64_t k = first; k < first + count; ++k) {
      const PetscInt column = rowColumns_[k];
      if (column >= firstBlockRow_ && column < endBlockRow_) {
        places_[k] = {entryOf(d, row, dofs_ * (column - firstBlockRow_)),
                      d.start[row + 1] - d.start[row], InDiagonalPart};
      } else {
        const PetscInt* local = std::lower_bound(
            offDiagonalColumns, offDiagonalColumns + offDiagonalCount, dofs_ * column);
        places_[k] = {entryOf(o, row, PetscInt(local - offDiagonalColumns)),
                      o.start[row + 1] - o.start[row], InOffDiagonalPart};
      }
    }
    // Entry (a, b) of a block sits rowLength * a past entry (0, 0): true when every row of a
    // block row has the same columns, which inserting whole blocks guarantees.
    for (int a = 1; a < dofs_; ++a)
      if (d.start[row + a] - d.start[row] != a * (d.start[row + 1] - d.start[row]) ||
          (offDiagonal && o.start[row + a] - o.start[row] != a * (o.start[row + 1] - o.start[row])))
        throw Error("internal: the system matrix's rows do not come in whole blocks");
    // The row's blocks that only other ranks' cells add to, which no local pair covers.
    const auto listUncovered = [&](const RowStructure& part, Kind kind) {
      const PetscInt length = part.start[row + 1] - part.start[row];
      for (PetscInt offset = part.start[row]; offset < part.start[row + 1]; offset += dofs_)
        if (std::none_of(places_.begin() + first, places_.begin() + first + count,
                         [&](const BlockPlace& p) { return p.kind == kind && p.offset == offset; }))
          uncovered_.push_back({offset, length, kind});
    };
    const PetscInt blocksInRow = (d.start[row + 1] - d.start[row]) / dofs_ +
                                 (offDiagonal ? (o.start[row + 1] - o.start[row]) / dofs_ : 0);
    if (blocksInRow > count) {
      listUncovered(d, InDiagonalPart);
      if (offDiagonal) listUncovered(o, InOffDiagonalPart);
    }
  }
  ghostValues_.assign(std::size_t(ghostSize), 0.0);
  releaseRowStructure(diagonal, d);
  if (offDiagonal) releaseRowStructure(offDiagonal, o);
}

void ElementMatrixAssembler::mapCellBlocks(const std::vector<PetscInt>& globalBlock) {
  const std::size_t pairs = std::size_t(corners_) * corners_;
  cellBlocks_.resize(pairs * cells_.size());
  firstTouches_.assign(cells_.size(), 0);
  std::vector<unsigned char> touched(places_.size(), 0);
  for (std::size_t c = 0; c < cells_.size(); ++c)
    for (int i = 0; i < corners_; ++i) {
      const auto rowBegin = rowColumns_.begin() + rowStart_[cells_[c][i]];
      const auto rowEnd = rowColumns_.begin() + rowStart_[cells_[c][i] + 1];
      for (int j = 0; j < corners_; ++j) {
        const auto position =
            std::lower_bound(rowBegin, rowEnd, globalBlock[cells_[c][j]]) - rowBegin;
        cellBlocks_[pairs * c + corners_ * i + j] = std::uint16_t(position);
        unsigned char& seen = touched[std::size_t(rowStart_[cells_[c][i]] + position)];
        if (!seen) firstTouches_[c] |= std::uint64_t(1) << (corners_ * i + j);
        seen = 1;
      }
    }
  // A pair no cell makes (the diagonal block of a vertex without cells) is zeroed at each
  // assembly like the blocks only other ranks add to.
  for (std::size_t k = 0; k < places_.size(); ++k)
    if (!touched[k]) uncovered_.push_back(places_[k]);
}

template <int D, int N>
void ElementMatrixAssembler::scatter(const double* blocks, CellRange range,
                                     PetscScalar* const* values) const {
  constexpr int n = N * D;
  for (std::size_t c = range.begin; c < range.end; ++c) {
    const double* block = blocks + (c - range.begin) * n * n;
    const std::uint16_t* positions = cellBlocks_.data() + N * N * c;
    const PetscInt* cell = cells_.flat().data() + N * c;
    const std::uint64_t firsts = firstTouches_[c];
    for (int i = 0; i < N; ++i) {
      const BlockPlace* row = places_.data() + rowStart_[cell[i]];
      for (int j = 0; j < N; ++j) {
        const BlockPlace& place = row[positions[N * i + j]];
        PetscScalar* target = values[place.kind] + place.offset;
        const double* source = block + i * D * n + j * D;
        // The first cell to reach a block writes 0 + its value, the sum a zeroed matrix would
        // hold, without reading the stale one; later cells add to it.
        if (firsts >> (N * i + j) & 1) {
          for (int a = 0; a < D; ++a)
            for (int b = 0; b < D; ++b) target[a * place.rowLength + b] = 0.0 + source[a * n + b];
        } else {
          for (int a = 0; a < D; ++a)
            for (int b = 0; b < D; ++b) target[a * place.rowLength + b] += source[a * n + b];
        }
      }
    }
  }
}

void ElementMatrixAssembler::assemble(const ElementMatrices& elementMatrices) {
  if (!mapped_) mapBlocks();
  Mat diagonal = matrix_, offDiagonal = nullptr;
  PetscBool distributed;
  EIS_CHECK(
      PetscObjectTypeCompare(reinterpret_cast<PetscObject>(matrix_), MATMPIAIJ, &distributed));
  if (distributed) EIS_CHECK(MatMPIAIJGetSeqAIJ(matrix_, &diagonal, &offDiagonal, nullptr));
  PetscScalar* values[3] = {nullptr, nullptr, ghostValues_.data()};
  EIS_CHECK(MatSeqAIJGetArray(diagonal, &values[InDiagonalPart]));
  if (offDiagonal) EIS_CHECK(MatSeqAIJGetArray(offDiagonal, &values[InOffDiagonalPart]));
  // No MatZeroEntries: the scatter writes every block some local cell reaches before adding to
  // it, which spares a pass over the matrix; the others are zeroed here.
  for (const BlockPlace& place : uncovered_)
    for (int a = 0; a < dofs_; ++a)
      std::fill_n(values[place.kind] + place.offset + a * place.rowLength, dofs_, 0.0);

  const int n = corners_ * dofs_;
  std::vector<double> blocks(kCellsPerRange * n * n);
  // The scatter specialised on unknowns a vertex (3, 1) and corners (8, 4, 3, 2, 1).
  const auto scatterAll = [&](const double* block, CellRange range) {
    switch (corners_ + 10 * dofs_) {
      case 38: return scatter<3, 8>(block, range, values);
      case 34: return scatter<3, 4>(block, range, values);
      case 33: return scatter<3, 3>(block, range, values);
      case 32: return scatter<3, 2>(block, range, values);
      case 31: return scatter<3, 1>(block, range, values);
      case 18: return scatter<1, 8>(block, range, values);
      case 14: return scatter<1, 4>(block, range, values);
      case 13: return scatter<1, 3>(block, range, values);
      case 11: return scatter<1, 1>(block, range, values);
      default: return scatter<1, 2>(block, range, values);
    }
  };
  const AssemblyEvents& events = assemblyEvents();
  forEachCellRange(cells_.size(), [&](CellRange range) {
    EIS_CHECK(PetscLogEventBegin(events.elements, 0, 0, 0, 0));
    std::fill(blocks.begin(), blocks.begin() + range.size() * n * n, 0.0);
    elementMatrices(blocks.data(), range);
    EIS_CHECK(PetscLogEventEnd(events.elements, 0, 0, 0, 0));
    EIS_CHECK(PetscLogEventBegin(events.scatter, 0, 0, 0, 0));
    scatterAll(blocks.data(), range);
    EIS_CHECK(PetscLogEventEnd(events.scatter, 0, 0, 0, 0));
  });

  EIS_CHECK(MatSeqAIJRestoreArray(diagonal, &values[InDiagonalPart]));
  if (offDiagonal) EIS_CHECK(MatSeqAIJRestoreArray(offDiagonal, &values[InOffDiagonalPart]));
  EIS_CHECK(PetscLogEventBegin(events.ghostRows, 0, 0, 0, 0));
  for (const auto& ghost : ghostRows_) {
    const auto first = rowStart_[ghost.vertex];
    EIS_CHECK(MatSetValuesBlocked(
        matrix_, 1, &ghost.globalRow, PetscInt(rowStart_[ghost.vertex + 1] - first),
        rowColumns_.data() + first, ghostValues_.data() + ghost.start, ADD_VALUES));
  }
  EIS_CHECK(PetscLogEventEnd(events.ghostRows, 0, 0, 0, 0));
  EIS_CHECK(MatAssemblyBegin(matrix_, MAT_FINAL_ASSEMBLY));
  EIS_CHECK(MatAssemblyEnd(matrix_, MAT_FINAL_ASSEMBLY));
}

}  // namespace eis
