#pragma once
// What SOFA's penalty obstacles (PlaneForceField, SphereForceField; model/plane_force_field.hpp,
// model/sphere_force_field.hpp) share: addForce finds the nodes in contact with the obstacle and
// gives each a force and a 3x3 block of df/dx (SOFA's m_contacts, d_contacts), and the products
// and element matrices of the step use those blocks until the next addForce. As in SOFA, the
// damping is in the force only (both fields' buildDampingMatrix add nothing, their addDForce
// takes the stiffness alone): B = 0.
//
// A contact is decided on every local node, ghosts included, from the same x on every rank, so
// that the element matrices agree across ranks; forces and products are taken on owned nodes
// only (each node once, whatever the partition), and the element matrices carry each block
// divided by the number of cells, over all ranks, holding its node, so that assembly sums to it.
#include <petscsys.h>

#include <array>
#include <vector>

#include "eis/mesh/distributed_mesh.hpp"
#include "eis/model/force_field.hpp"

namespace eis {

class PenaltyContacts : public ForceField {
public:
  // Collective (counts the cells around each node across the ranks).
  explicit PenaltyContacts(const DistributedMesh& mesh);

  void addDForce(const double* dx, double* df, double kFactor) const override;
  void addKToElementMatrices(double* elementMatrices, double kFactor,
                             CellRange range) const override;
  std::vector<double> vonMisesStress(const double*) const override { return {}; }
  bool isLinear() const override { return false; }
  // SOFA's obstacles have no B, but their force depends on v (the damping).
  bool usesVelocity() const override { return true; }

  // The local nodes in contact at the last addForce.
  std::size_t numContacts() const { return contacts_.size(); }

protected:
  using Block = std::array<double, 9>;  // row-major df/dx of one node
  // Forget the contacts of the last addForce.
  void clearContacts();
  // Node `vertex` (local) is in contact, with this df/dx (added to its block when it is in
  // contact already: with two obstacles, or two planes of one field).
  void addContact(PetscInt vertex, const Block& k);

  const DistributedMesh& mesh_;

private:
  struct Contact {
    PetscInt vertex;
    Block k;
  };
  std::vector<Contact> contacts_;
  std::vector<PetscInt> contactOf_;  // per local node: its index in contacts_, or -1
  std::vector<double> cellsPerVertex_;
};

}  // namespace eis
