#pragma once
// ParaView time series of a distributed tetrahedral mesh: one .pvd listing every step, one .pvtu
// per step, and one .vtu piece per rank and step. It takes plain arrays, so it knows nothing of
// DMPlex; the caller hands over what its rank holds.
//
// Layout for the prefix "out/beam":
//   out/beam.pvd                      the collection: one DataSet per step, with its time
//   out/beam_000012.pvtu              step 12: names the arrays and lists the pieces
//   out/beam_000012/piece_0003.vtu    step 12 as rank 3 holds it
//
// The pieces are VTK XML UnstructuredGrid files whose arrays follow the XML in an appended section,
// raw (encoding="raw", a UInt64 byte count before each array, no compression): ParaView's own
// default, read by ParaView and by meshio, and written straight from the arrays without encoding
// (a piece of 1e6 points and 5.8e6 tetrahedra, 390 MB, in about half a second). On more than one
// rank each piece also holds one layer of ghost cells (io/vtk_ghost_cells.hpp: the other ranks'
// cells across its partition seams, GhostLevel="1" in the .pvtu), so that ParaView's surface
// shows no seam. Every piece has point data "node_id" (Int64) and "vtkGhostType" (UInt8;
// 1 = DUPLICATEPOINT on ghost copies, so that ParaView counts each mesh node once), and cell data
// "rank" (Int32, the rank that holds the cell as its own) and "vtkGhostType" (UInt8;
// 1 = DUPLICATECELL on ghost cells), before the caller's Float64 fields.
// Tetrahedra are VTK_TETRA (10), vertices in the order given.
//
// A scene of several bodies writes every body into each piece, one after the other, with point
// and cell data "object" (Int32: the body's index in scene order, 0-based) and, in each piece's
// field data, "object_path" (String, one value per body: its node path, in the same order), which
// ParaView's Information panel lists; its Threshold on "object" shows one body.
#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "eis/core/cells.hpp"

namespace eis {

// What one rank holds of the mesh.
struct VtkPiece {
  std::vector<double> points;             // xyz per local point (current or rest, caller's choice)
  CellType type = CellType::Tetrahedron;  // the cells' type (core/cells.hpp), VTK's too
  // Each cell's type, when the piece joins bodies of several cell types; else empty.
  std::vector<CellType> cellTypes;
  std::vector<std::int64_t> tets;     // corners() local point indices per local cell
  std::vector<std::int64_t> nodeIds;  // global node id per local point (point data "node_id")
  std::vector<unsigned char> owned;   // 1 if this rank owns the point, 0 if it is a ghost copy
  int corners() const { return cornersOf(type); }
};

// A Float64 field, `components` values per point (point data) or per cell (cell data), interleaved.
struct VtkField {
  std::string name;
  int components = 1;
  std::vector<double> values;
};

// One body of several: its piece and its fields, as write() takes them for one.
struct VtkBody {
  VtkPiece piece;
  std::vector<VtkField> pointData, cellData;
};

// Each point's and cell's body in a piece of several, and the bodies' node paths.
struct VtkObjects {
  std::vector<std::int32_t> points, cells;
  std::vector<std::string> paths;
};

// The error the sizes of a piece and its fields give (a message naming what is wrong), "" when
// they fit.
std::string checkVtkPiece(const VtkPiece& piece, const std::vector<VtkField>& pointData,
                          const std::vector<VtkField>& cellData);

class VtkSeriesWriter {
public:
  // Collective. Rank 0 creates the folder the prefix names, if needed; throws eis::Error on every
  // rank when that fails or the prefix has no file name.
  VtkSeriesWriter(MPI_Comm comm, std::string prefix);

  // Collective. Writes one time step: each rank its piece and its ghost cells (the fields' values
  // of the cells and points it lacks come from the ranks that hold them), then rank 0 the .pvtu,
  // then rank 0
  // rewrites the .pvd with every step so far (through a temporary file and a rename, so a run
  // killed at any moment leaves a valid .pvd). Every rank must pass the same step, time and field
  // names. Bad sizes or a file that cannot be written, on any rank, throw eis::Error on every rank,
  // naming the path.
  void write(int step, double time, VtkPiece piece, std::vector<VtkField> pointData,
             std::vector<VtkField> cellData);

  // Collective (io/vtk_bodies.cpp). The same for the bodies of a scene, `paths` their node paths:
  // each body's ghost cells are found among its own cells, then the bodies are joined, in order,
  // into this rank's one piece, with the arrays "object" and "object_path". Every body must have
  // the same fields.
  void write(int step, double time, std::vector<VtkBody> bodies,
             const std::vector<std::string>& paths);

  // Collective. A restart from `step`: the series already on disk is continued, its frames
  // before `step` kept in the .pvd (those at or after it, from a run killed after its last
  // checkpoint, are dropped and written again). No .pvd: the series starts afresh.
  void resume(int step);

  const std::string& pvdPath() const { return pvdPath_; }

private:
  // Writes the step's piece (ghost cells appended, `cellRanks` each cell's owner), its .pvtu and
  // the .pvd; `objects`: the bodies of several, nullptr for one.
  void writeStep(int step, double time, const VtkPiece& piece,
                 const std::vector<std::int32_t>& cellRanks, const std::vector<VtkField>& pointData,
                 const std::vector<VtkField>& cellData, const VtkObjects* objects);

  MPI_Comm comm_;
  int rank_ = 0, size_ = 1;
  std::string prefix_;     // output.vtk as given, for error messages
  std::string directory_;  // folder of every file; empty for the working directory
  std::string name_;       // file name part of the prefix
  std::string pvdPath_;
  std::vector<std::string> dataSets_;  // the .pvd's <DataSet/> line of every step written
};

}  // namespace eis
