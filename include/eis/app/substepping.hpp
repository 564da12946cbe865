#pragma once
// What a run does when a step fails (its solve does not converge, Newton diverges, an element
// inverts): stop, writing the last good state, or redo the step as 2, 4, ... sub-steps of h/n
// from the same state, up to solver.max-substeps (solver.on-failure). SOFA users meet such
// "explosions" often; retrying turns many of them into a slower step instead of a lost run.
#include <petscvec.h>

#include <functional>
#include <string>

#include "eis/core/component.hpp"
#include "eis/ode/time_integrator.hpp"

namespace eis {

// solver.on-failure and solver.max-substeps: the declaration, listed in app/scene_builder.cpp.
const ComponentDeclaration& substeppingComponent();

class Substepping {
public:
  explicit Substepping(const Parameters& scene);
  ~Substepping();
  Substepping(const Substepping&) = delete;
  Substepping& operator=(const Substepping&) = delete;

  // Advances x, v by h with `step(offset, h/n)`, one call per sub-step, `offset` the time from
  // the step's start to the sub-step's (prescribed motion needs it). On a failure with retries
  // left, x and v are put back and the step is redone with twice the sub-steps, after `warn`
  // says so; otherwise the failure is rethrown with x and v as they were before the step.
  // Returns the reports summed over the sub-steps; `substeps` is how many the step took.
  StepReport advance(Vec x, Vec v, double h, const std::function<StepReport(double, double)>& step,
                     const std::function<void(const std::string&)>& warn, int& substeps);

private:
  bool retry_;
  int maxSubsteps_;
  Vec x0_ = nullptr, v0_ = nullptr;  // x and v before the step being advanced (retry only)
};

}  // namespace eis
