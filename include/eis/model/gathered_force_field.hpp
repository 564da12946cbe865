#pragma once
// A force field computed outside the engine on every node of a body at once, as SOFA's force
// fields see their state: a force field written in Python (Sofa.Core.ForceFieldVec3d, run by the
// euler_implicit module, or by the controllers' python3 under --scene). Every rank gathers the
// whole state in node-id order (one Allgatherv), asks its callbacks with the same numbers, and adds
// the rows of the nodes it owns: each node's force once, the same on any number of ranks.
//
// K: the callbacks' stiffness (kFactor 1, at the linearization point of the last addForce) as
// entries between scalar unknowns. An entry of nodes a and b enters the element matrices of the
// cells that hold both, divided by how many cells on all ranks hold them (one Allreduce per
// addForce), so that assembly sums it once; an entry of two nodes that share no cell has no place
// in the assembled matrix, which is then refused when assembled (the matrix-free operator's
// product takes it, and its Jacobi diagonal the entries that have a place).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "eis/model/force_field_component.hpp"

namespace eis {

// What computes the field: each call gets every node's values, `nodes` rows of `dofs`, in
// node-id order, and returns "" or one line saying why it failed (every rank then fails with the
// first rank's line).
class NodalForceCallbacks {
public:
  struct Entry {
    std::int64_t row, column;  // scalar unknowns: node * dofs + component
    double value;
  };
  virtual ~NodalForceCallbacks() = default;
  // f (zeroed) += the force at x, v.
  virtual std::string addForce(std::size_t nodes, int dofs, const double* x, const double* v,
                               double* f) = 0;
  // df (zeroed) += kFactor (df/dx) dx.
  virtual std::string addDForce(std::size_t nodes, int dofs, const double* dx, double* df,
                                double kFactor) = 0;
  // Whether the field gives its stiffness as entries (stiffness); without it, the assembled
  // operator is refused.
  virtual bool hasStiffness() const = 0;
  virtual std::string stiffness(std::size_t nodes, int dofs, std::vector<Entry>& entries) = 0;
};

class GatheredForceField : public ForceField {
public:
  // Collective. `name` names the field in errors. `askStiffness` false: the callbacks' stiffness
  // is never asked for (python.add-k-to-matrix = false, as SOFA's CGLinearSolver never calls
  // addKToMatrix), and the field has no matrix.
  GatheredForceField(const DistributedMesh& mesh, std::unique_ptr<NodalForceCallbacks> callbacks,
                     std::string name, bool askStiffness = true);

  void addForce(const double* x, const double* v, double* f) override;
  void addDForce(const double* dx, double* df, double kFactor) const override;
  void addKToElementMatrices(double* elementMatrices, double kFactor,
                             CellRange range) const override;
  // The entries the stiffness gave, else nothing (the Jacobi preconditioner leaves the field out).
  void addKToElementDiagonals(double* elementMatrices, double kFactor,
                              CellRange range) const override;
  double potentialEnergy(const double*) const override { return 0; }
  std::vector<double> vonMisesStress(const double*) const override { return {}; }
  bool isLinear() const override { return false; }
  bool usesVelocity() const override { return true; }

private:
  // Every node's rows of the local array `local` (owned rows gathered from all ranks) into
  // whole_, in node-id order.
  void gather(const double* local, std::vector<double>& whole) const;
  // local += whole's rows of the nodes this rank owns.
  void addOwned(const std::vector<double>& whole, double* local) const;
  // The element-matrix places of the stiffness entries (collective).
  void placeStiffness(const std::vector<NodalForceCallbacks::Entry>& entries);

  struct Place {
    std::size_t cell, offset;  // the cell, the entry's offset in its block
    double value;              // the entry's share
  };
  const DistributedMesh& mesh_;
  std::unique_ptr<NodalForceCallbacks> callbacks_;
  std::string name_;
  bool stiffness_;  // the stiffness is asked for
  int dofs_;
  std::size_t nodes_;
  std::vector<int> offsets_;               // where each rank's rows start, in doubles
  std::vector<std::int64_t> gatheredIds_;  // node id of each gathered row
  std::vector<PetscInt> ownedLocal_;       // owned local vertices, in gathering order
  std::vector<Place> places_;              // by cell
  std::string unplaced_;  // why the entries have no place in an assembled matrix, if they have not
  mutable std::vector<double> send_, received_, in_, out_;
  std::vector<double> x_, v_;
};

// The maker of the fields named by python.force-field (a path of the scene), set by what can call
// them (the euler_implicit module; euler-implicit's main under --scene); unset, such a field is
// refused.
using GatheredForceFieldMaker =
    std::function<std::unique_ptr<NodalForceCallbacks>(const std::string& name)>;
void setGatheredForceFieldMaker(GatheredForceFieldMaker maker);
bool gatheredForceFieldMakerSet();

ForceFieldComponent gatheredForceFieldComponent();

}  // namespace eis
