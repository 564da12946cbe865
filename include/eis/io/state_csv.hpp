#pragma once
// The final-state CSV of docs/architecture.md (`id,x,y,z,vx,vy,vz` for elasticity, `id,u,du` for
// diffusion; one row per mesh node in the input's node order, 17 significant digits), written
// from a distributed state and read back as an initial state.
#include <petscvec.h>

#include <cstdint>
#include <string>
#include <vector>

#include "eis/core/component.hpp"
#include "eis/mesh/distributed_mesh.hpp"
#include "eis/model/physics.hpp"

namespace eis {

// Values of every node, sorted by id: `width` numbers per node (6 for elasticity: position and
// velocity; 2 for diffusion: u and du).
struct NodalTable {
  int width = 0;
  std::vector<std::int64_t> ids;
  std::vector<double> values;
  const double* find(std::int64_t id) const;  // nullptr when the id is absent
};

int stateWidth(Physics physics);
std::string stateHeader(Physics physics);

// Collective: rank 0 reads and checks the file, every rank receives the table. Throws on every
// rank (naming the file and line) for a missing file, a wrong header or a malformed row.
NodalTable readStateCsv(const std::string& path, Physics physics, MPI_Comm comm);

// Collective: sets x and v (global vectors) from the table read from `path`. The table must
// have exactly one row per mesh node (an error names the first missing id, or counts the rows
// that match no node).
void applyState(const NodalTable& table, const std::string& path, const DistributedMesh& mesh,
                Vec x, Vec v);

// Collective: the whole state on rank 0 (every node, including those no cell uses, taken from
// `initial` when it has them, else at rest with zero rate).
NodalTable gatherState(const DistributedMesh& mesh, Vec x, Vec v, const NodalTable* initial);

// Collective: rank 0 writes the gathered state to a temporary file and renames it over `path`
// (io/output_file.hpp), so `path` is either its old content or the complete new one; a failed
// write is an error on every rank.
void writeStateCsv(const std::string& path, const NodalTable& state, Physics physics,
                   MPI_Comm comm);

// The gathered state of one body of several, with its node path.
struct ObjectState {
  std::string path;
  NodalTable state;
};

// Collective: initial.state = `path` written for a scene of several bodies (the final state's
// last column `object`), one table per object in the order the file first names them. Errors as
// readStateCsv's, and for a row without a valid object path.
std::vector<ObjectState> readObjectStatesCsv(const std::string& path, Physics physics,
                                             MPI_Comm comm);

// The same for the bodies of a scene: with more than one, a last column `object` holds each
// row's body's node path (quoted when it holds a comma or a quote), the rows grouped by body in
// the order given.
void writeStateCsv(const std::string& path, const std::vector<ObjectState>& objects,
                   Physics physics, MPI_Comm comm);

// initial.state: where a run starts (absent: at rest).
const ComponentDeclaration& initialStateComponent();

}  // namespace eis
