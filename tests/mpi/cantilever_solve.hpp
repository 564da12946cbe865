#pragma once
// A cantilever's K u = f solved by CG + GAMG with the rigid-body modes, and the solver kept with
// its hierarchy set up, for tests of the multigrid's levels (test_block_copy.cpp,
// test_set_up_memory.cpp).
#include <petscksp.h>

#include <memory>
#include <vector>

#include "eis/linalg/linear_solver.hpp"
#include "mpi_support.hpp"

namespace eis_test {

// The answer of K u = f on a cantilever (16 x 4 x 4 cells, 1,275 unknowns: four GAMG levels)
// by CG + GAMG at rtol 1e-10, and the solver, whose hierarchy stays set up.
struct CantileverSolve {
  explicit CantileverSolve(bool blockProducts, bool singleLevels = false,
                           bool truncatedFinestSmoother = true)
      : model(eis_test::cantilever({4, 1, 1}, {16, 4, 4}, 2e3)) {
    rest = model.system->createVector();
    model.system->setRestState(rest);
    f = model.field(1.0, 0.5, 0.25);
    model.system->projectResponse(f);
    u = model.system->createVector();
    eis::LinearSolverOptions options;
    options.rtol = 1e-10;
    options.blockProducts = blockProducts;
    options.singleLevels = singleLevels;
    options.truncatedFinestSmoother = truncatedFinestSmoother;
    options.preconditioner.lag = 1;
    options.constantMatrix = true;  // K alone, a linear model's (scaled by setUpAgain)
    solver = std::make_unique<eis::LinearSolver>(PETSC_COMM_WORLD, PCGAMG, rest, options);
    solver->solve(model.system->systemMatrix(0, 0, -1), f, u);
  }
  // Sets the hierarchy up a second time, from the matrix's values doubled (solver.pc-lag 1):
  // one rank's first set-up released the AIJ storage of its levels, and every set-up after it
  // keeps that storage.
  void setUpAgain() {
    const Mat K = model.system->systemMatrix(0, 0, -1);
    MatScale(K, 2.0);
    solver->solve(K, f, u);
  }
  ~CantileverSolve() {
    solver.reset();
    for (Vec* v : {&rest, &f, &u}) VecDestroy(v);
  }
  // The operators of the levels between the finest and the coarsest.
  std::vector<Mat> middleLevels() const {
    const PC pc = multigrid();
    PetscInt levels;
    PCMGGetLevels(pc, &levels);
    std::vector<Mat> operators;
    for (PetscInt level = 1; level + 1 < levels; ++level) {
      KSP smoother;
      PCMGGetSmoother(pc, level, &smoother);
      operators.emplace_back();
      KSPGetOperators(smoother, &operators.back(), nullptr);
    }
    return operators;
  }
  // The interpolations, coarsest first.
  std::vector<Mat> interpolations() const {
    const PC pc = multigrid();
    PetscInt levels;
    PCMGGetLevels(pc, &levels);
    std::vector<Mat> result(std::size_t(levels - 1));
    for (PetscInt level = 1; level < levels; ++level)
      PCMGGetInterpolation(pc, level, &result[std::size_t(level - 1)]);
    return result;
  }
  PC multigrid() const {
    PC pc;
    KSPGetPC(solver->ksp(), &pc);
    return pc;
  }
  eis_test::BoxModel model;
  Vec rest = nullptr, f = nullptr, u = nullptr;
  std::unique_ptr<eis::LinearSolver> solver;
};

}  // namespace eis_test
