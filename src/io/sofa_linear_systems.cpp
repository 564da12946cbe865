// SOFA's linear-system storage components, which choose how SOFA stores the assembled matrix
// and change no result of ours: we assemble our own (linalg/system_matrix.cpp).
#include "sofa_reader.hpp"

namespace eis::sofa {

namespace {

// ConstantSparsityPatternSystem.inl (Sofa/Component/LinearSystem): a MatrixLinearSystem that,
// after the first assembly, adds each contribution straight into the compressed matrix's values
// at the place its first insertion took (a hash table of the pattern), which SOFA documents as
// valid only while the pattern stays constant; the matrix and its projective constraints
// (MatrixLinearSystem::applyProjectiveConstraints) are those of MatrixLinearSystem. Our bodies
// have a constant pattern (no topological changes, no contacts), so it is accepted, and so is
// MatrixLinearSystem itself (whose matrix a Python controller may read: app/component_matrices).
// The MatrixLinearSystem switches (all true by default) that leave out a part of the matrix are
// refused.
void mapConstantSparsityPattern(Reader& r, const SofaObject& o) {
  for (const char* field :
       {"assembleStiffness", "assembleMass", "assembleDamping", "assembleGeometricStiffness",
        "applyProjectiveConstraints", "applyMappedComponents", "enableAssembly"})
    if (!r.boolean(o, field, true))
      r.reject(o, field, "a linear system that leaves out part of the matrix is not supported");
  r.note(o.label() +
         ": SOFA's storage of the assembled matrix, with a constant pattern as here: no "
         "effect on the result");
}

}  // namespace

const RegisterSofaMapping constantSparsityPattern({"ConstantSparsityPatternSystem",
                                                   "MatrixLinearSystem"},
                                                  mapConstantSparsityPattern);

}  // namespace eis::sofa
