#pragma once
// Components register themselves from their own files, so that adding one edits no list
// elsewhere: a registrar object at the end of the file names the component and its rank.
//
// The rank, not the order of static initialisation (unspecified across files), fixes every
// order that shows or changes a result: where a component stands in --help and the start-up
// report, the order a system sums its force fields (the elastic or diffusion field first: von
// Mises stress is the first stress field's), the order outputs finish. Ranks by kind:
//   100 mesh source, 200 physics, 300 mass, 400-499 force fields, 500-599 projective and
//   Lagrangian constraints, 600 time integrator, 650 constraint solver, 700 linear solver, 800
//   initial state, 900-999 outputs, 1000 step control, 1100 progress report, 1200 scene file.
//
// Nothing references a registrar, so an object file holding only a component and its registrar
// would be left out of a link against the static library: the executables and tests link it
// whole (eis_static_whole, src/CMakeLists.txt).
#include <algorithm>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "eis/core/component.hpp"

namespace eis {

// The registered entries of one kind (declarations, force fields, outputs), by rank.
template <class Entry>
class ComponentRegistry {
public:
  // During static initialisation, from a registrar.
  void add(int rank, std::function<Entry()> make) { pending_.push_back({rank, std::move(make)}); }

  // The entries and their ranks, in rank order. Made on the first call, in main's time: a
  // component's function may read statics of other files, not yet made while registering.
  const std::vector<Entry>& entries() { return made().entries; }
  const std::vector<int>& ranks() { return made().ranks; }

private:
  struct Pending {
    int rank;
    std::function<Entry()> make;
  };
  struct Made {
    std::vector<Entry> entries;
    std::vector<int> ranks;
  };

  const Made& made() {
    if (isMade_) return made_;
    std::sort(pending_.begin(), pending_.end(),
              [](const Pending& a, const Pending& b) { return a.rank < b.rank; });
    Made made;
    for (const Pending& p : pending_) {
      if (!made.ranks.empty() && made.ranks.back() == p.rank)
        throw std::logic_error("two components registered at rank " + std::to_string(p.rank));
      made.entries.push_back(p.make());
      made.ranks.push_back(p.rank);
    }
    made_ = std::move(made);
    isMade_ = true;
    return made_;
  }

  std::vector<Pending> pending_;
  Made made_;
  bool isMade_ = false;
};

// The components that are a declaration alone (mesh source, mass, time integrator, ...),
// registered by RegisterComponent (eis/core/component.hpp).
ComponentRegistry<const ComponentDeclaration*>& componentDeclarations();

}  // namespace eis
