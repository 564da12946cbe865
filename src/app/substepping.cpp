#include "eis/app/substepping.hpp"

#include "eis/core/error.hpp"

namespace eis {

namespace {

enum class OnFailure { Stop, Retry };
constexpr Named<OnFailure> kOnFailure[] = {{"stop", OnFailure::Stop}, {"retry", OnFailure::Retry}};

}  // namespace

const ComponentDeclaration& substeppingComponent() {
  static const ComponentDeclaration component{
      "substepping", "step control", "what a failed step does: stop, or retry in sub-steps",
      ParameterSpec()
          .add(
              {"solver.on-failure", "stop|retry",
               "stop: a step whose solve fails, whose Newton iterations diverge or that inverts an\n"
               "element ends the run, after the last good state is written. retry: the step is redone\n"
               "from the same state as 2, then 4, ... sub-steps of h/n (up to solver.max-substeps),\n"
               "with a warning naming the step; the history's substeps column says how many it took.\n"
               "A failure of PETSc inside the solver itself (a PETSc error, not a solve that did not\n"
               "converge) is not retried: it ends the run as stop does",
               "stop", "", false, check::choice(kOnFailure)})
          .add(
              {"solver.max-substeps", "N",
               "the most sub-steps a retried step is split into (a power of 2 is reached first), >= 2",
               "64", "", false, check::integerAtLeast(2)}),
      nullptr};
  return component;
}

Substepping::Substepping(const Parameters& scene)
    : retry_(scene.choice("solver.on-failure", kOnFailure) == OnFailure::Retry),
      maxSubsteps_(scene.integer("solver.max-substeps")) {}

Substepping::~Substepping() {
  VecDestroy(&x0_);
  VecDestroy(&v0_);
}

StepReport Substepping::advance(Vec x, Vec v, double h,
                                const std::function<StepReport(double, double)>& step,
                                const std::function<void(const std::string&)>& warn,
                                int& substeps) {
  substeps = 1;
  if (!retry_) return step(0.0, h);
  // The state before the step, to start each retry from; the copies live from step to step.
  if (!x0_) {
    EIS_CHECK(VecDuplicate(x, &x0_));
    EIS_CHECK(VecDuplicate(v, &v0_));
  }
  EIS_CHECK(VecCopy(x, x0_));
  EIS_CHECK(VecCopy(v, v0_));
  for (int n = 1;; n *= 2) {
    try {
      StepReport total;
      total.nonlinearIterations = 0;
      for (int k = 0; k < n; ++k) {
        const StepReport part = step(k * h / n, h / n);
        total.linearIterations += part.linearIterations;
        total.nonlinearIterations += part.nonlinearIterations;
        total.preconditionerSetups += part.preconditionerSetups;
        total.residualNorm = part.residualNorm;
        total.constraintRows = part.constraintRows;
        total.constraintIterations += part.constraintIterations;
        total.constraintError = part.constraintError;
        total.freeMotionSeconds += part.freeMotionSeconds;
        total.complianceSeconds += part.complianceSeconds;
        total.gaussSeidelSeconds += part.gaussSeidelSeconds;
        total.correctionSeconds += part.correctionSeconds;
      }
      substeps = n;
      return total;
    } catch (const Error& e) {
      EIS_CHECK(VecCopy(x0_, x));
      EIS_CHECK(VecCopy(v0_, v));
      if (2 * n > maxSubsteps_ || dynamic_cast<const SolverUnusable*>(&e)) throw;
      warn(std::string(e.what()) + "; redone as " + std::to_string(2 * n) + " sub-steps");
    }
  }
}

const RegisterComponent registered(1000, substeppingComponent);

}  // namespace eis
