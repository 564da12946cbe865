/*
 * product_formats.c - the time of one product y = A x by a step matrix stored three ways, to
 * choose the storage of the products an iterative solve makes (solver.block-products):
 *   aij        PETSc's AIJ product (with its inode rows: three rows of a node read together),
 *   baij       PETSc's BAIJ product over a copy in 3 x 3 blocks (what solver.block-products uses),
 *   aij-blocks a 3 x 3-block loop written here that reads the AIJ arrays themselves (the matrix
 *              stored once; each block's nine values come from three rows).
 *
 * Build and run, with a matrix written by euler-implicit itself:
 *   build/bin/euler-implicit --mesh.box-cells="80 16 16" --solver.steps=1 \
 *     -ksp_view_mat binary:A.bin
 *   mpicc -O3 -march=native jobs/bench/product_formats.c $(pkg-config --cflags --libs petsc) \
 *     -lm -o product_formats
 *   ./product_formats -f A.bin [-repeats 200]
 *
 * Output, one line per format: the median time of a product over the repeats, in ms, and the
 * largest relative difference of its y from the AIJ product's.
 */
#include <petscmat.h>
#include <petsctime.h>

static int compare(const void *p, const void *q)
{
  const double x = *(const double *)p, y = *(const double *)q;
  return (x > y) - (x < y);
}

/* y = A x over the AIJ arrays of a matrix made of full 3 x 3 blocks, a block at a time. */
static void aijBlocks(PetscInt nodes, const PetscInt *ia, const PetscInt *ja, const PetscScalar *a,
                      const PetscScalar *x, PetscScalar *y)
{
  for (PetscInt i = 0; i < nodes; ++i) {
    const PetscInt start = ia[3 * i], length = ia[3 * i + 1] - start;
    const PetscScalar *r0 = a + start, *r1 = a + ia[3 * i + 1], *r2 = a + ia[3 * i + 2];
    const PetscInt *columns = ja + start;
    PetscScalar y0 = 0, y1 = 0, y2 = 0;
    for (PetscInt k = 0; k < length; k += 3) {
      const PetscScalar *xb = x + columns[k];
      y0 += r0[k] * xb[0] + r0[k + 1] * xb[1] + r0[k + 2] * xb[2];
      y1 += r1[k] * xb[0] + r1[k + 1] * xb[1] + r1[k + 2] * xb[2];
      y2 += r2[k] * xb[0] + r2[k + 1] * xb[1] + r2[k + 2] * xb[2];
    }
    y[3 * i] = y0;
    y[3 * i + 1] = y1;
    y[3 * i + 2] = y2;
  }
}

/* Median milliseconds of `repeats` products by M (or the aijBlocks loop over A when M is NULL). */
static PetscErrorCode timeProducts(Mat M, Mat A, Vec x, Vec y, PetscInt repeats, double *ms)
{
  double            *times;
  PetscLogDouble     t0, t1;
  const PetscInt    *ia, *ja;
  const PetscScalar *a, *xa;
  PetscScalar       *ya;
  PetscInt           n;
  PetscBool          done;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(repeats, &times));
  if (!M) {
    PetscCall(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &n, &ia, &ja, &done));
    PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "no row structure");
    PetscCall(MatSeqAIJGetArrayRead(A, &a));
  }
  for (PetscInt r = -3; r < repeats; ++r) { /* three products to warm the caches */
    PetscCall(PetscTime(&t0));
    if (M) PetscCall(MatMult(M, x, y));
    else {
      PetscCall(VecGetArrayRead(x, &xa));
      PetscCall(VecGetArray(y, &ya));
      aijBlocks(n / 3, ia, ja, a, xa, ya);
      PetscCall(VecRestoreArray(y, &ya));
      PetscCall(VecRestoreArrayRead(x, &xa));
    }
    PetscCall(PetscTime(&t1));
    if (r >= 0) times[r] = 1e3 * (t1 - t0);
  }
  if (!M) {
    PetscCall(MatSeqAIJRestoreArrayRead(A, &a));
    PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &n, &ia, &ja, &done));
  }
  qsort(times, (size_t)repeats, sizeof(double), compare);
  *ms = times[repeats / 2];
  PetscCall(PetscFree(times));
  PetscFunctionReturn(0);
}

int main(int argc, char **argv)
{
  char        file[PETSC_MAX_PATH_LEN];
  PetscBool   given;
  PetscInt    repeats = 200, rows, columns;
  PetscViewer viewer;
  Mat         A, B;
  Vec         x, reference, y;
  MatInfo     info;
  const char *names[] = {"aij", "baij", "aij-blocks"};

  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-f", file, sizeof file, &given));
  PetscCheck(given, PETSC_COMM_WORLD, PETSC_ERR_USER, "give the matrix file with -f FILE");
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-repeats", &repeats, NULL));
  PetscCheck(repeats > 0, PETSC_COMM_WORLD, PETSC_ERR_USER, "-repeats must be positive");
  PetscCall(PetscViewerBinaryOpen(PETSC_COMM_SELF, file, FILE_MODE_READ, &viewer));
  PetscCall(MatCreate(PETSC_COMM_SELF, &A));
  PetscCall(MatSetType(A, MATSEQAIJ));
  PetscCall(MatSetBlockSize(A, 3));
  PetscCall(MatLoad(A, viewer));
  PetscCall(PetscViewerDestroy(&viewer));
  PetscCall(MatGetSize(A, &rows, &columns));
  PetscCheck(rows == columns && rows % 3 == 0, PETSC_COMM_SELF, PETSC_ERR_USER,
             "not a square matrix of 3 x 3 blocks");
  PetscCall(MatConvert(A, MATSEQBAIJ, MAT_INITIAL_MATRIX, &B));
  PetscCall(MatGetInfo(A, MAT_LOCAL, &info));
  PetscCall(MatCreateVecs(A, &x, &reference));
  PetscCall(VecDuplicate(reference, &y));
  for (PetscInt i = 0; i < rows; ++i) PetscCall(VecSetValue(x, i, PetscCosReal(0.5 + i), INSERT_VALUES));
  PetscCall(VecAssemblyBegin(x));
  PetscCall(VecAssemblyEnd(x));
  PetscCall(MatMult(A, x, reference));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%" PetscInt_FMT " unknowns, %.0f nonzeros, %" PetscInt_FMT " repeats\n",
                        rows, info.nz_used, repeats));
  for (int f = 0; f < 3; ++f) {
    double    ms = 0, gap, size;
    PetscReal difference, norm;
    PetscCall(timeProducts(f == 0 ? A : f == 1 ? B : NULL, A, x, y, repeats, &ms));
    PetscCall(VecNorm(reference, NORM_INFINITY, &norm));
    PetscCall(VecAXPY(y, -1.0, reference));
    PetscCall(VecNorm(y, NORM_INFINITY, &difference));
    gap  = difference / norm;
    size = f == 1 ? 8.0 * info.nz_used + 4.0 * info.nz_used / 9 : 12.0 * info.nz_used;
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-10s %9.3f ms  %6.2f GB/s of values and indices  difference %.1e\n",
                          names[f], ms, size / ms / 1e6, gap));
  }
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&reference));
  PetscCall(MatDestroy(&B));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}
