#include "eis/model/penalty_contacts.hpp"

#include "eis/model/mass.hpp"

namespace eis {

PenaltyContacts::PenaltyContacts(const DistributedMesh& mesh)
    : mesh_(mesh), contactOf_(mesh.numLocalVertices(), -1), cellsPerVertex_(cellsPerVertex(mesh)) {}

void PenaltyContacts::clearContacts() {
  for (const Contact& c : contacts_) contactOf_[c.vertex] = -1;
  contacts_.clear();
}

void PenaltyContacts::addContact(PetscInt vertex, const Block& k) {
  if (contactOf_[vertex] >= 0) {
    Block& sum = contacts_[contactOf_[vertex]].k;
    for (int i = 0; i < 9; ++i) sum[i] += k[i];
    return;
  }
  contactOf_[vertex] = PetscInt(contacts_.size());
  contacts_.push_back({vertex, k});
}

void PenaltyContacts::addDForce(const double* dx, double* df, double kFactor) const {
  for (const Contact& c : contacts_) {
    if (!mesh_.owned()[c.vertex]) continue;
    const double* w = dx + 3 * c.vertex;
    for (int i = 0; i < 3; ++i)
      df[3 * c.vertex + i] +=
          kFactor * (c.k[3 * i] * w[0] + c.k[3 * i + 1] * w[1] + c.k[3 * i + 2] * w[2]);
  }
}

void PenaltyContacts::addKToElementMatrices(double* elementMatrices, double kFactor,
                                            CellRange range) const {
  if (contacts_.empty()) return;
  const Cells& cells = mesh_.cells();
  const int n = 3 * cells.corners();
  for (std::size_t c = range.begin; c < range.end; ++c) {
    double* block = elementMatrices + (c - range.begin) * n * n;
    for (int a = 0; a < cells.corners(); ++a) {
      const PetscInt v = cells[c][a];
      if (contactOf_[v] < 0) continue;
      const Block& k = contacts_[contactOf_[v]].k;
      const double share = kFactor / cellsPerVertex_[v];
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) block[(3 * a + i) * n + 3 * a + j] += share * k[3 * i + j];
    }
  }
}

}  // namespace eis
