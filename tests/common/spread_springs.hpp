#pragma once
// What the MPI tests of springs spread over the ranks share: a global array's local rows, the
// local arrays of all ranks summed by node id, and the check of a spread field against one
// serial evaluation of the same springs (force, energy) and of its tangent against central
// differences of its force, at a smooth deformation of the nodes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "eis/mesh/distributed_mesh.hpp"
#include "eis/model/force_field.hpp"
#include "mpi_support.hpp"

namespace eis_test {

inline std::vector<double> localOf(const eis::DistributedMesh& mesh,
                                   const std::vector<double>& global) {
  std::vector<double> local;
  for (std::int64_t id : mesh.nodeIds())
    for (int c = 0; c < 3; ++c) local.push_back(global[3 * std::size_t(id) + std::size_t(c)]);
  return local;
}

// The local arrays of all ranks summed by node id (what the assembly of a global vector does).
inline std::vector<double> summed(const eis::DistributedMesh& mesh,
                                  const std::vector<double>& local, std::size_t nodes) {
  std::vector<double> global(3 * nodes, 0.0);
  for (std::size_t v = 0; v < mesh.numLocalVertices(); ++v)
    for (int c = 0; c < 3; ++c)
      global[3 * std::size_t(mesh.nodeIds()[v]) + std::size_t(c)] += local[3 * v + std::size_t(c)];
  MPI_Allreduce(MPI_IN_PLACE, global.data(), int(global.size()), MPI_DOUBLE, MPI_SUM,
                PETSC_COMM_WORLD);
  return global;
}

inline std::vector<double> force(const eis::DistributedMesh& mesh, eis::ForceField& field,
                                 const std::vector<double>& x, const std::vector<double>& v,
                                 std::size_t nodes) {
  std::vector<double> f(3 * mesh.numLocalVertices(), 0.0);
  field.addForce(localOf(mesh, x).data(), localOf(mesh, v).data(), f.data());
  return summed(mesh, f, nodes);
}

// SERIAL has addForce(x, v, f) and potentialEnergy(x) on whole arrays in node order; SMOOTH(p,
// a, b, c) is a smooth field of amplitudes a, b, c at p, which moves the nodes, gives their
// velocities and the direction of the differences.
template <class Serial, class Smooth>
void expectAsSerialWithItsTangent(const eis::DistributedMesh& mesh, eis::ForceField& field,
                                  Serial& serial, const std::vector<eis::Vec3>& nodes,
                                  Smooth smooth) {
  const std::size_t n = nodes.size();
  std::vector<double> x, v, dx;
  for (const auto& p : nodes) {
    const eis::Vec3 w = smooth(p, 0.1, -0.2, 0.3), u = smooth(p, 0.4, 1.3, -0.5),
                    d = smooth(p, -0.9, 0.2, 1.7);
    for (int c = 0; c < 3; ++c) {
      x.push_back(p[std::size_t(c)] + w[std::size_t(c)]);
      v.push_back(u[std::size_t(c)]);
      dx.push_back(d[std::size_t(c)]);
    }
  }
  const std::vector<double> f = force(mesh, field, x, v, n);
  std::vector<double> fs(3 * n, 0.0);
  serial.addForce(x.data(), v.data(), fs.data());
  double scale = 0;
  for (double value : fs) scale = std::max(scale, std::abs(value));
  ASSERT_GT(scale, 1e-2);
  for (std::size_t i = 0; i < 3 * n; ++i) EXPECT_NEAR(f[i], fs[i], 1e-13 * scale) << i;
  double energy = field.potentialEnergy(localOf(mesh, x).data());
  MPI_Allreduce(MPI_IN_PLACE, &energy, 1, MPI_DOUBLE, MPI_SUM, PETSC_COMM_WORLD);
  EXPECT_NEAR(energy, serial.potentialEnergy(x.data()), 1e-13 * std::abs(energy));

  // The tangent at x (the last addForce, without velocity) against central differences.
  const std::vector<double> still(3 * n, 0.0);
  force(mesh, field, x, still, n);
  std::vector<double> kdx(3 * mesh.numLocalVertices(), 0.0);
  field.addDForce(localOf(mesh, dx).data(), kdx.data(), 1.0);
  const std::vector<double> product = summed(mesh, kdx, n);
  const double h = 1e-6;
  std::vector<double> plus(x), minus(x);
  for (std::size_t i = 0; i < 3 * n; ++i) {
    plus[i] += h * dx[i];
    minus[i] -= h * dx[i];
  }
  const std::vector<double> fp = force(mesh, field, plus, still, n),
                            fm = force(mesh, field, minus, still, n);
  double norm = 0, error = 0;
  for (std::size_t i = 0; i < 3 * n; ++i) {
    const double fd = (fp[i] - fm[i]) / (2 * h);
    norm = std::max(norm, std::abs(fd));
    error = std::max(error, std::abs(fd - product[i]));
  }
  EXPECT_GT(norm, 1.0);
  EXPECT_LT(error, 1e-6 * norm);
}

}  // namespace eis_test
