#include "eis/io/hdf5_writer.hpp"

#include <array>
#include <cerrno>
#include <cstring>
#include <utility>
#include <vector>

#include "eis/core/error.hpp"

namespace eis {

namespace {

// The innermost message of HDF5's error stack (where the failure arose: "file write failed"
// with MPI-IO's reason) and, where a failed system call left one that says why a write fails,
// errno's text ("No space left on device", "File too large").
herr_t innermost(unsigned n, const H5E_error2_t* entry, void* text) {
  if (n == 0 && entry->desc) *static_cast<std::string*>(text) = entry->desc;
  return 0;
}

// HDF5 reports a failure as a negative id or status; the call is named with the cause instead
// (the program turns HDF5's own printing of its error stack off, app/main.cpp).
hid_t checked(hid_t result, const char* call) {
  if (result >= 0) return result;
  const int error = errno;
  std::string cause;
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, innermost, &cause);
  std::string message = std::string(call) + " failed";
  if (!cause.empty()) message += ": " + cause;
  for (int reason : {ENOSPC, EDQUOT, EFBIG, EIO, EROFS, EACCES})
    if (error == reason) message += " (" + std::string(std::strerror(error)) + ")";
  throw Error(message);
}

// Closes an HDF5 object (of the kind `close` closes) at the end of a scope.
class Handle {
public:
  Handle(hid_t id, herr_t (*close)(hid_t)) : id_(id), close_(close) {}
  ~Handle() {
    if (id_ >= 0) close_(id_);
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  hid_t get() const { return id_; }

private:
  hid_t id_;
  herr_t (*close_)(hid_t);
};

}  // namespace

Hdf5Writer::Hdf5Writer(MPI_Comm comm, std::string what, const std::string& path, Mode mode)
    : comm_(comm), what_(std::move(what)) {
  PetscBool collective = PETSC_FALSE;
  EIS_CHECK(PetscOptionsGetBool(nullptr, nullptr, "-viewer_hdf5_collective", &collective, nullptr));
  collective_ = collective == PETSC_TRUE;
  agreed("opening it", [&] {
    const Handle access(checked(H5Pcreate(H5P_FILE_ACCESS), "H5Pcreate"), H5Pclose);
    checked(H5Pset_fapl_mpio(access.get(), comm_, MPI_INFO_NULL), "H5Pset_fapl_mpio");
    file_ = mode == Mode::create
                ? checked(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, access.get()),
                          "H5Fcreate")
                : checked(H5Fopen(path.c_str(), H5F_ACC_RDWR, access.get()), "H5Fopen");
  });
}

Hdf5Writer::~Hdf5Writer() {
  if (file_ >= 0) H5Fclose(file_);
}

template <typename Call>
void Hdf5Writer::agreed(const std::string& what, Call&& call) {
  std::string failure;
  try {
    errno = 0;
    call();
  } catch (const Error& e) {
    failure = what_ + ": " + what + " failed: " + e.what();
  }
  throwIfAnyRankFailed(failure, comm_);
}

void Hdf5Writer::write(const std::string& group, const std::string& name, Vec vector, int width,
                       Type type, bool column) {
  PetscInt start, end, size;
  EIS_CHECK(VecGetOwnershipRange(vector, &start, &end));
  EIS_CHECK(VecGetSize(vector, &size));
  const hsize_t rows = hsize_t(size / width), first = hsize_t(start / width);
  const hsize_t local = hsize_t((end - start) / width);
  const int rank = width == 1 && !column ? 1 : 2;
  const std::array<hsize_t, 2> dims{rows, hsize_t(width)}, offset{first, 0},
      count{local, hsize_t(width)};
  const std::string path = (group == "/" ? "" : group) + "/" + name;
  const hid_t memoryType = type == Type::real      ? H5T_NATIVE_DOUBLE
                           : sizeof(PetscInt) == 8 ? H5T_NATIVE_INT64
                                                   : H5T_NATIVE_INT32;

  // Each collective call of the file's metadata, then the data, agreed in turn: a rank that
  // failed one does not make the next.
  agreed("creating " + path, [&] {
    for (std::size_t slash = group.find('/', 1); group != "/"; slash = group.find('/', slash + 1)) {
      const std::string prefix = group.substr(0, slash);
      if (checked(H5Lexists(file_, prefix.c_str(), H5P_DEFAULT), "H5Lexists") == 0)
        checked(H5Gclose(checked(
                    H5Gcreate2(file_, prefix.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
                    "H5Gcreate2")),
                "H5Gclose");
      if (slash == std::string::npos) break;
    }
    if (checked(H5Lexists(file_, path.c_str(), H5P_DEFAULT), "H5Lexists") > 0)
      checked(H5Ldelete(file_, path.c_str(), H5P_DEFAULT), "H5Ldelete");
  });
  hid_t dataset = -1;
  agreed("creating " + path, [&] {
    const Handle space(checked(H5Screate_simple(rank, dims.data(), nullptr), "H5Screate_simple"),
                       H5Sclose);
    dataset = checked(H5Dcreate2(file_, path.c_str(), memoryType, space.get(), H5P_DEFAULT,
                                 H5P_DEFAULT, H5P_DEFAULT),
                      "H5Dcreate2");
  });
  const Handle datasetHandle(dataset, H5Dclose);

  std::vector<double> reals;
  std::vector<PetscInt> integers;
  const PetscScalar* values;
  EIS_CHECK(VecGetArrayRead(vector, &values));
  if (type == Type::real)
    reals.assign(values, values + (end - start));
  else
    integers.assign(values, values + (end - start));
  EIS_CHECK(VecRestoreArrayRead(vector, &values));
  agreed("writing " + path, [&] {
    const Handle fileSpace(checked(H5Dget_space(dataset), "H5Dget_space"), H5Sclose);
    checked(H5Sselect_hyperslab(fileSpace.get(), H5S_SELECT_SET, offset.data(), nullptr,
                                count.data(), nullptr),
            "H5Sselect_hyperslab");
    const Handle memorySpace(
        checked(H5Screate_simple(rank, count.data(), nullptr), "H5Screate_simple"), H5Sclose);
    const Handle transfer(checked(H5Pcreate(H5P_DATASET_XFER), "H5Pcreate"), H5Pclose);
    checked(H5Pset_dxpl_mpio(transfer.get(),
                             collective_ ? H5FD_MPIO_COLLECTIVE : H5FD_MPIO_INDEPENDENT),
            "H5Pset_dxpl_mpio");
    const void* data = type == Type::real ? static_cast<const void*>(reals.data())
                                          : static_cast<const void*>(integers.data());
    checked(H5Dwrite(dataset, memoryType, memorySpace.get(), fileSpace.get(), transfer.get(), data),
            "H5Dwrite");
  });
}

void Hdf5Writer::bytes(const std::string& name, const std::string& bytes) {
  const std::string path = "/" + name;
  const hsize_t size = bytes.size();
  hid_t dataset = -1;
  agreed("creating " + path, [&] {
    if (checked(H5Lexists(file_, path.c_str(), H5P_DEFAULT), "H5Lexists") > 0)
      checked(H5Ldelete(file_, path.c_str(), H5P_DEFAULT), "H5Ldelete");
    const Handle space(checked(H5Screate_simple(1, &size, nullptr), "H5Screate_simple"), H5Sclose);
    dataset = checked(H5Dcreate2(file_, path.c_str(), H5T_STD_U8LE, space.get(), H5P_DEFAULT,
                                 H5P_DEFAULT, H5P_DEFAULT),
                      "H5Dcreate2");
  });
  const Handle datasetHandle(dataset, H5Dclose);
  int rank = 0;
  EIS_CHECK_MPI(MPI_Comm_rank(comm_, &rank));
  agreed("writing " + path, [&] {
    // Every rank takes part (a collective transfer needs them all); rank 0's selection is all.
    const hsize_t count = rank == 0 ? size : 0;
    const Handle fileSpace(checked(H5Dget_space(dataset), "H5Dget_space"), H5Sclose);
    const Handle memorySpace(checked(H5Screate_simple(1, &size, nullptr), "H5Screate_simple"),
                             H5Sclose);
    if (count == 0) {
      checked(H5Sselect_none(fileSpace.get()), "H5Sselect_none");
      checked(H5Sselect_none(memorySpace.get()), "H5Sselect_none");
    }
    const Handle transfer(checked(H5Pcreate(H5P_DATASET_XFER), "H5Pcreate"), H5Pclose);
    checked(H5Pset_dxpl_mpio(transfer.get(),
                             collective_ ? H5FD_MPIO_COLLECTIVE : H5FD_MPIO_INDEPENDENT),
            "H5Pset_dxpl_mpio");
    if (size > 0)
      checked(H5Dwrite(dataset, H5T_NATIVE_UCHAR, memorySpace.get(), fileSpace.get(),
                       transfer.get(), bytes.data()),
              "H5Dwrite");
  });
}

void Hdf5Writer::attribute(const std::string& object, const std::string& name, hid_t type,
                           const void* value) {
  agreed("writing the attribute " + name + " of " + object, [&] {
    const Handle target(checked(H5Oopen(file_, object.c_str(), H5P_DEFAULT), "H5Oopen"), H5Oclose);
    if (checked(H5Aexists(target.get(), name.c_str()), "H5Aexists") > 0)
      checked(H5Adelete(target.get(), name.c_str()), "H5Adelete");
    const Handle space(checked(H5Screate(H5S_SCALAR), "H5Screate"), H5Sclose);
    const Handle attribute(
        checked(H5Acreate2(target.get(), name.c_str(), type, space.get(), H5P_DEFAULT, H5P_DEFAULT),
                "H5Acreate2"),
        H5Aclose);
    checked(H5Awrite(attribute.get(), type, value), "H5Awrite");
  });
}

void Hdf5Writer::attribute(const std::string& object, const std::string& name, std::int64_t value) {
  attribute(object, name, H5T_NATIVE_INT64, &value);
}

void Hdf5Writer::attribute(const std::string& object, const std::string& name, double value) {
  attribute(object, name, H5T_NATIVE_DOUBLE, &value);
}

void Hdf5Writer::attribute(const std::string& object, const std::string& name,
                           const std::string& value) {
  const Handle type(H5Tcopy(H5T_C_S1), H5Tclose);
  std::string failure;
  if (type.get() < 0 || H5Tset_size(type.get(), value.size() + 1) < 0 ||
      H5Tset_strpad(type.get(), H5T_STR_NULLTERM) < 0)
    failure = what_ + ": a string type for the attribute " + name + " failed";
  throwIfAnyRankFailed(failure, comm_);
  attribute(object, name, type.get(), value.c_str());
}

void Hdf5Writer::close() {
  agreed("writing its last data", [&] {
    checked(H5Fflush(file_, H5F_SCOPE_GLOBAL), "H5Fflush");
    const hid_t file = std::exchange(file_, -1);
    checked(H5Fclose(file), "H5Fclose");
  });
}

}  // namespace eis
