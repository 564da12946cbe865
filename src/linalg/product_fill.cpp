#include "eis/linalg/product_fill.hpp"

#include <memory>
#include <string>

#include "eis/core/error.hpp"
#include "eis/linalg/composed_object.hpp"

namespace eis {

namespace {

// The name A's type's own product set-up is composed with on A.
constexpr const char* kOwnSetUpName = "eis_own_product_set_up";

struct OwnSetUp {
  PetscErrorCode (*setUp)(Mat) = nullptr;
};

// A product's set-up (MatProductSetFromOptions), reached through its first matrix's operation
// table, or through the function PETSc looks up on it when the two matrices' set-ups differ,
// which ours makes them do.
PetscErrorCode lessReservedProduct(Mat C) {
  Mat A = nullptr, B = nullptr;
  MatProductType type;
  OwnSetUp* own = nullptr;
  PetscFunctionBeginUser;
  PetscCall(MatProductGetMats(C, &A, &B, nullptr));
  PetscCall(MatProductGetType(C, &type));
  if (A) PetscCall(queryComposed(reinterpret_cast<PetscObject>(A), kOwnSetUpName, &own));
  const bool first = own != nullptr;
  if (!own && B) PetscCall(queryComposed(reinterpret_cast<PetscObject>(B), kOwnSetUpName, &own));
  PetscCheck(own && own->setUp, PETSC_COMM_SELF, PETSC_ERR_PLIB,
             "a product's matrix lost its own product set-up");
  if (first && (type == MATPRODUCT_AB || type == MATPRODUCT_PtAP))
    PetscCall(MatProductSetFill(C, kProductFill));
  PetscCall(own->setUp(C));
  PetscFunctionReturn(0);
}

}  // namespace

void reserveLessForProducts(Mat A) {
  const char* type = nullptr;
  EIS_CHECK(MatGetType(A, &type));
  PetscBool aij = PETSC_FALSE;
  EIS_CHECK(
      PetscObjectTypeCompareAny(reinterpret_cast<PetscObject>(A), &aij, MATSEQAIJ, MATMPIAIJ, ""));
  OwnSetUp* done = nullptr;
  EIS_CHECK(queryComposed(reinterpret_cast<PetscObject>(A), kOwnSetUpName, &done));
  if (!aij || done) return;
  auto own = std::make_unique<OwnSetUp>();
  EIS_CHECK(MatGetOperation(A, MATOP_PRODUCTSETFROMOPTIONS,
                            reinterpret_cast<void (**)(void)>(&own->setUp)));
  if (!own->setUp) return;
  composeOwned(reinterpret_cast<PetscObject>(A), kOwnSetUpName, std::move(own));
  setOperation(A, MATOP_PRODUCTSETFROMOPTIONS, lessReservedProduct);
  const std::string name = std::string("MatProductSetFromOptions_") + type + "_" + type + "_C";
  EIS_CHECK(PetscObjectComposeFunction(reinterpret_cast<PetscObject>(A), name.c_str(),
                                       lessReservedProduct));
}

}  // namespace eis
