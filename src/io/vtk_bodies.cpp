// The ParaView series of a scene of several bodies: every body in each rank's one piece.
#include <algorithm>
#include <cstdint>

#include "eis/core/error.hpp"
#include "eis/io/vtk_ghost_cells.hpp"
#include "eis/io/vtk_output.hpp"

namespace eis {

namespace {

// The error of a body whose fields are not the first body's (a piece has one set of arrays).
std::string sameFields(const std::vector<VtkField>& first, const std::vector<VtkField>& other,
                       std::size_t body) {
  bool same = first.size() == other.size();
  for (std::size_t f = 0; same && f < first.size(); ++f)
    same = first[f].name == other[f].name && first[f].components == other[f].components;
  return same ? ""
              : "VTK output: body " + std::to_string(body) +
                    " has other fields than body 0; the series holds one set for every body";
}

void append(std::vector<VtkField>& joined, const std::vector<VtkField>& fields) {
  for (std::size_t f = 0; f < fields.size(); ++f)
    joined[f].values.insert(joined[f].values.end(), fields[f].values.begin(),
                            fields[f].values.end());
}

}  // namespace

// Each rank holds its part of each body (none, for a body the partition puts elsewhere); the
// ghost cells are found body by body, since node ids are a body's own and would match across
// bodies.
void VtkSeriesWriter::write(int step, double time, std::vector<VtkBody> bodies,
                            const std::vector<std::string>& paths) {
  if (bodies.empty() || bodies.size() != paths.size())
    throw Error("VTK output: " + std::to_string(bodies.size()) + " bodies for " +
                std::to_string(paths.size()) + " object paths");
  VtkPiece joined;
  std::vector<VtkField> pointData = bodies.front().pointData, cellData = bodies.front().cellData;
  for (auto* fields : {&pointData, &cellData})
    for (VtkField& field : *fields) field.values.clear();
  std::vector<std::int32_t> cellRanks;
  VtkObjects objects{{}, {}, paths};
  for (std::size_t b = 0; b < bodies.size(); ++b) {
    VtkBody& body = bodies[b];
    std::string problem = checkVtkPiece(body.piece, body.pointData, body.cellData);
    if (problem.empty()) problem = sameFields(pointData, body.pointData, b);
    if (problem.empty()) problem = sameFields(cellData, body.cellData, b);
    throwIfAnyRankFailed(problem, comm_);
    const std::vector<std::int32_t> ranks =
        appendGhostCells(comm_, body.piece, body.pointData, body.cellData);
    const VtkPiece& piece = body.piece;
    const std::int64_t offset = std::int64_t(joined.nodeIds.size());
    joined.points.insert(joined.points.end(), piece.points.begin(), piece.points.end());
    joined.nodeIds.insert(joined.nodeIds.end(), piece.nodeIds.begin(), piece.nodeIds.end());
    joined.owned.insert(joined.owned.end(), piece.owned.begin(), piece.owned.end());
    for (std::int64_t vertex : piece.tets) joined.tets.push_back(offset + vertex);
    joined.type = piece.type;
    joined.cellTypes.insert(joined.cellTypes.end(),
                            piece.tets.size() / std::size_t(piece.corners()), piece.type);
    append(pointData, body.pointData);
    append(cellData, body.cellData);
    cellRanks.insert(cellRanks.end(), ranks.begin(), ranks.end());
    objects.points.insert(objects.points.end(), piece.nodeIds.size(), std::int32_t(b));
    objects.cells.insert(objects.cells.end(), piece.tets.size() / std::size_t(piece.corners()),
                         std::int32_t(b));
  }
  // Cells of one type need no per-cell count.
  if (std::all_of(joined.cellTypes.begin(), joined.cellTypes.end(),
                  [&](CellType type) { return type == joined.type; }))
    joined.cellTypes.clear();
  writeStep(step, time, joined, cellRanks, pointData, cellData, &objects);
}

}  // namespace eis
