#include "eis/io/xdmf_datasets.hpp"

#include <algorithm>
#include <unordered_map>

#include "eis/core/error.hpp"

namespace eis {

namespace {

// The file's row of each local cell (refinement keeps a cell's children on its rank, in the
// order the rank holds them).
std::vector<PetscInt> cellRows(const DistributedMesh& mesh, std::int64_t& total) {
  const auto& parents = mesh.inputCellIds();
  std::int64_t inputCells = 0;
  for (std::int64_t parent : parents) inputCells = std::max(inputCells, parent + 1);
  total = std::int64_t(parents.size());
  EIS_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, &total, 1, MPI_INT64_T, MPI_SUM, mesh.comm()));
  EIS_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, &inputCells, 1, MPI_INT64_T, MPI_MAX, mesh.comm()));
  const std::int64_t children = total / inputCells;
  std::unordered_map<std::int64_t, std::int64_t> taken;
  std::vector<PetscInt> rows;
  for (std::int64_t parent : parents) rows.push_back(PetscInt(parent * children + taken[parent]++));
  return rows;
}

// A scatter from the entries `from` of `source` to the entries `to` of `target`.
VecScatter scatterOf(Vec source, const std::vector<PetscInt>& from, Vec target,
                     const std::vector<PetscInt>& to) {
  IS isFrom, isTo;
  VecScatter scatter;
  EIS_CHECK(ISCreateGeneral(PETSC_COMM_SELF, PetscInt(from.size()), from.data(), PETSC_COPY_VALUES,
                            &isFrom));
  EIS_CHECK(
      ISCreateGeneral(PETSC_COMM_SELF, PetscInt(to.size()), to.data(), PETSC_COPY_VALUES, &isTo));
  EIS_CHECK(VecScatterCreate(source, isFrom, target, isTo, &scatter));
  EIS_CHECK(ISDestroy(&isFrom));
  EIS_CHECK(ISDestroy(&isTo));
  return scatter;
}

}  // namespace

Vec rowVector(MPI_Comm comm, std::int64_t rows, int width) {
  Vec vector;
  EIS_CHECK(VecCreate(comm, &vector));
  EIS_CHECK(VecSetSizes(vector, PETSC_DECIDE, PetscInt(rows * width)));
  EIS_CHECK(VecSetBlockSize(vector, width));
  EIS_CHECK(VecSetType(vector, VECMPI));
  return vector;
}

CellOrder::CellOrder(const DistributedMesh& mesh, int width) {
  const std::vector<PetscInt> rows = cellRows(mesh, cells_);
  EIS_CHECK(VecCreateMPI(mesh.comm(), PetscInt(rows.size()) * width, PETSC_DETERMINE, &local_));
  natural_ = rowVector(mesh.comm(), cells_, width);
  PetscInt start;
  EIS_CHECK(VecGetOwnershipRange(local_, &start, nullptr));
  std::vector<PetscInt> from, to;
  for (std::size_t c = 0; c < rows.size(); ++c)
    for (int k = 0; k < width; ++k) {
      from.push_back(start + PetscInt(c) * width + k);
      to.push_back(rows[c] * width + k);
    }
  scatter_ = scatterOf(local_, from, natural_, to);
}

CellOrder::~CellOrder() {
  VecScatterDestroy(&scatter_);
  VecDestroy(&natural_);
  VecDestroy(&local_);
}

void CellOrder::toNatural(const std::vector<double>& values) const {
  PetscScalar* local;
  EIS_CHECK(VecGetArray(local_, &local));
  std::copy(values.begin(), values.end(), local);
  EIS_CHECK(VecRestoreArray(local_, &local));
  EIS_CHECK(VecScatterBegin(scatter_, local_, natural_, INSERT_VALUES, SCATTER_FORWARD));
  EIS_CHECK(VecScatterEnd(scatter_, local_, natural_, INSERT_VALUES, SCATTER_FORWARD));
}

JoinedRows::JoinedRows(MPI_Comm comm, const std::vector<std::int64_t>& rows, int width)
    : width_(width), scatters_(rows.size(), nullptr) {
  for (std::int64_t count : rows) {
    offsets_.push_back(total_);
    total_ += count;
  }
  joined_ = rowVector(comm, total_, width);
}

JoinedRows::~JoinedRows() {
  for (VecScatter& scatter : scatters_) VecScatterDestroy(&scatter);
  VecDestroy(&joined_);
}

void JoinedRows::place(std::size_t body, Vec part) {
  VecScatter& scatter = scatters_.at(body);
  if (!scatter) {
    PetscInt start, end;
    EIS_CHECK(VecGetOwnershipRange(part, &start, &end));
    std::vector<PetscInt> from, to;
    for (PetscInt k = start; k < end; ++k) {
      from.push_back(k);
      to.push_back(PetscInt(offsets_[body] * width_) + k);
    }
    scatter = scatterOf(part, from, joined_, to);
  }
  EIS_CHECK(VecScatterBegin(scatter, part, joined_, INSERT_VALUES, SCATTER_FORWARD));
  EIS_CHECK(VecScatterEnd(scatter, part, joined_, INSERT_VALUES, SCATTER_FORWARD));
}

}  // namespace eis
