#pragma once
// An HDF5 file written by all ranks together through MPI-IO, one dataset of rows at a time, each
// rank its own run of rows (a PETSc vector's ownership range). The data go as independent MPI-IO
// writes, or collective ones under PETSc's option -viewer_hdf5_collective, as PETSc's viewer
// sends them.
//
// Why not PETSc's VecView: when a write fails on one rank only (a full disk, a quota, a file-size
// limit meeting that rank's part), VecView returns the error there while the other ranks go on
// into the file flush it ends with, a collective call the failed rank never makes, and the run
// hangs. Here every call is made by every rank, and the ranks agree on its success before the
// next one: a failure on any rank fails the call on all of them, with that rank's message.
#include <hdf5.h>
#include <petscvec.h>

#include <cstdint>
#include <string>

namespace eis {

class Hdf5Writer {
public:
  enum class Mode { create, append };
  // Collective. `what` names the file in errors ("output.xdmf = out/beam.h5"). create truncates
  // (the caller clears the name first: a link would be written through); append opens it.
  Hdf5Writer(MPI_Comm comm, std::string what, const std::string& path, Mode mode);
  ~Hdf5Writer();
  Hdf5Writer(const Hdf5Writer&) = delete;
  Hdf5Writer& operator=(const Hdf5Writer&) = delete;

  // Collective: the dataset group/name (the group created where missing, a dataset of that name
  // replaced) holding `vector`'s values as rows of `width`, each rank writing its own rows; a
  // width of 1 is a one-column table when `column` is true, else a plain list. Integers are
  // written as PetscInt; the vector holds them exactly as reals.
  enum class Type { real, integer };
  void write(const std::string& group, const std::string& name, Vec vector, int width, Type type,
             bool column);
  // Collective, with the same `bytes` on every rank: the dataset `name` in the root group, a
  // plain list of unsigned 8-bit integers (an opaque record), written by rank 0 alone.
  void bytes(const std::string& name, const std::string& bytes);
  // Collective, with the same value on every rank: the attribute `name` of the group or dataset
  // `object` ("/" the file's root), replaced where it exists. A string is stored fixed-length
  // and null-terminated, as PETSc's viewer reads it.
  void attribute(const std::string& object, const std::string& name, std::int64_t value);
  void attribute(const std::string& object, const std::string& name, double value);
  void attribute(const std::string& object, const std::string& name, const std::string& value);
  // Collective: flushes the file (MPI-IO syncs it to disk) and closes it; complete on disk once
  // this returns.
  void close();

private:
  template <typename Call>
  void agreed(const std::string& what, Call&& call);
  void attribute(const std::string& object, const std::string& name, hid_t type, const void* value);

  MPI_Comm comm_;
  std::string what_;
  bool collective_;
  hid_t file_ = -1;
};

}  // namespace eis
