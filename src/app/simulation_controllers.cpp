// The run's side of Python controllers (io/python_controllers.hpp): what a controller may read
// (a body's positions and velocities, gathered on rank 0 when asked) and write (a
// ConstantForceField's forces, totalForce or force, SOFA's ConstantForceField.inl rules; the
// root's dt, from the next step on, as SOFA's DefaultAnimationLoop::step reads dt before the
// AnimateBeginEvent); and a body's stiffness or mass matrix (app/component_matrices).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

#include "eis/app/component_matrices.hpp"
#include "eis/app/progress.hpp"
#include "eis/app/simulation.hpp"
#include "eis/core/error.hpp"
#include "eis/model/constant_force.hpp"
#include "eis/model/stiffness_factors.hpp"
#include "eis/ode/free_motion_step.hpp"

namespace eis {

class Simulation::ControllerAccessOf : public ControllerAccess {
public:
  explicit ControllerAccessOf(Simulation& run) : run_(run) {}

  // The rows in node-id order on rank 0 (empty elsewhere), `width` numbers a node on every rank:
  // 3, or 1 and 2 for SOFA's Vec1 and Vec2 states.
  std::vector<double> state(std::size_t body, bool velocity, int& width) override {
    const Body& b = *run_.bodies_.at(body);
    const NodalTable table = eis::gatherState(*b.mesh, b.x, b.v, b.initial.get());
    width = table.width / 2;
    std::vector<double> values;
    values.reserve(std::size_t(width) * table.ids.size());
    for (std::size_t i = 0; i < table.ids.size(); ++i)
      for (int d = 0; d < width; ++d)
        values.push_back(table.values[std::size_t(table.width) * i + (velocity ? width : 0) + d]);
    return values;
  }

  // forces (or SOFA's former force): 3 numbers, the force on each index; else 3 per index, each
  // index its own (a repeated index gets the sum). totalForce: 3 numbers shared equally.
  void setForce(std::size_t body, const SofaForceLoad& load, const std::string& field,
                const std::vector<double>& values) override {
    const std::string name = load.path + "." + field;
    for (double value : values)
      if (!std::isfinite(value)) throw Error(name + ": a value is not a finite number");
    ConstantForces* forces = nullptr;
    for (const auto& field : run_.bodies_.at(body)->system->forceFields())
      if (auto* found = dynamic_cast<ConstantForces*>(field.get())) forces = found;
    std::size_t index = 0;
    int seen = -1;
    if (forces)
      for (; index < forces->loads().size(); ++index)
        if (forces->loads()[index].key == load.key && ++seen == load.ordinal) break;
    if (!forces || seen != load.ordinal)
      throw Error(name + ": its force was replaced by " + load.key +
                  " from the command line or INI file; a controller writes the scene's own");
    const ConstantForces::Load& current = forces->loads()[index];
    run_.forcedBodies_.insert(body);
    if (field == "totalForce" || values.size() == 3) {
      if (values.size() != 3) throw Error(name + ": expected 3 numbers, got " + count(values));
      forces->setLoad(index, {values[0], values[1], values[2]}, field == "totalForce", {});
      return;
    }
    std::vector<std::int64_t> indices;
    if (current.selection.kind == Selection::Kind::Indices) {
      for (long long id : current.selection.indices) indices.push_back(id);
    } else if (current.selection.kind == Selection::Kind::All) {
      for (std::int64_t id = 0; id < forces->nodesPerLoad()[index]; ++id) indices.push_back(id);
    } else {
      throw Error(name + ": one force per index needs the indices written out, not a region");
    }
    if (values.size() != 3 * indices.size())
      throw Error(name + ": expected 3 numbers or 3 per index (" +
                  std::to_string(3 * indices.size()) + "), got " + count(values));
    std::map<std::int64_t, std::array<double, 3>> perNode;
    for (std::size_t i = 0; i < indices.size(); ++i)
      for (int d = 0; d < 3; ++d) perNode[indices[i]][d] += values[3 * i + std::size_t(d)];
    forces->setLoad(index, current.force, false, std::move(perNode));
  }

  void setState(std::size_t body, bool velocity, const std::vector<double>& values) override {
    run_.setState(body, velocity, values.data(), values.size(), false);
  }

  // SOFA reads localStiffnessFactor again only where updateStiffness is set (handleEvent at
  // AnimateBeginEvent); elsewhere a write changes nothing, which is said once.
  void setStiffnessFactors(std::size_t body, const SofaStiffnessFactors& field,
                           const std::vector<double>& factors) override {
    const std::string name = field.path + ".localStiffnessFactor";
    Body& b = *run_.bodies_.at(body);
    if (b.topology)
      throw Error(name +
                  ": a body with topology.changes renumbers its tetrahedra, which the "
                  "factors are indexed by; a controller cannot write them there");
    if (!field.updateStiffness) {
      if (run_.unappliedFactors_.insert(field.path).second)
        run_.report(
            "%s: written by a controller with no effect: SOFA reads it again only with "
            "updateStiffness=true\n",
            name.c_str());
      return;
    }
    setCellStiffnessFactors(name, b.scene, *b.mesh, b.system->forceFields(), factors);
    run_.writtenFactors_[body] = factors;
  }

  std::vector<double> matrix(std::size_t body, const std::string& kind) override {
    const Body& b = *run_.bodies_.at(body);
    if (kind == "system") return systemMatrix(*b.mesh, *b.system, lastSolve(b));
    return componentMatrix(*b.mesh, *b.system, kind == "mass");
  }

  // Each body's M, read as assembleMMatrix reads it, times its solve's mFactor, moved to its
  // place after the bodies before it.
  std::vector<double> massSystemMatrix(const std::vector<std::size_t>& bodies) override {
    std::vector<double> out{0.0};
    double factor = 0;
    for (std::size_t body : bodies) {
      const Body& b = *run_.bodies_.at(body);
      const EulerImplicitSolver& solver = implicitStepOf(b);
      if (!solver.lastOperator())
        throw Error("no linear system has been solved yet (it is read after a step)");
      if (factor != 0 && solver.lastMassFactor() != factor)
        throw Error(
            "the bodies' solves scale the mass by different factors, where SOFA's one "
            "solver gives one");
      factor = solver.lastMassFactor();
      const std::vector<double> mass = componentMatrix(*b.mesh, *b.system, true);
      if (mass.empty()) continue;
      const double offset = out[0];
      for (std::size_t k = 1; k + 2 < mass.size(); k += 3)
        out.insert(out.end(), {offset + mass[k], offset + mass[k + 1], factor * mass[k + 2]});
      out[0] += mass[0];
    }
    if (commRank(run_.comm_) != 0) return {};
    return out;
  }

  std::vector<double> systemVector(std::size_t body, bool solution) override {
    const Body& b = *run_.bodies_.at(body);
    const EulerImplicitSolver& solver = lastSolve(b);
    const Vec vector = solution ? solver.lastSolution() : solver.lastRhs();
    if (!vector || !solver.lastOperator())
      throw Error(solver.lastOperator() ? "the right-hand side is not kept with "
                                          "solver.compute-residual (it computes the residual there)"
                                        : "no linear system has been solved yet (it is read after "
                                          "a step)");
    return nodalVector(*b.mesh, vector);
  }

  std::vector<double> constraintProblem(const std::string& kind) override {
    const FreeMotionStep* found = problem();
    if (!found) throw Error("no constraint problem has been solved yet (it is read after a step)");
    if (kind == "lambda") return found->forces();
    if (kind == "dfree") return found->freeViolation();
    std::vector<double> out = {double(found->forces().size())};
    out.insert(out.end(), found->compliance().begin(), found->compliance().end());
    return out;
  }

  std::vector<double> constraintMatrix(std::size_t body) override {
    const Body& b = *run_.bodies_.at(body);
    if (b.coupled)
      throw Error(
          "the constraint matrix of a body of a coupled group (solver.group) is not "
          "supported: the group's constraint rows are its bodies' together");
    const FreeMotionStep* found = problem();
    if (found != dynamic_cast<const FreeMotionStep*>(b.integrator.get())) found = nullptr;
    return eis::constraintMatrix(
        *b.mesh, found ? found->jacobian() : std::vector<FreeMotionStep::JacobianEntry>{});
  }

  // In an event: from the next step (SOFA reads dt before AnimateBeginEvent). Between steps (a
  // main loop's turn): from the next step, which is the one about to start.
  void setDt(double dt) override {
    if (!idle_) {
      run_.nextDt_ = dt;
      return;
    }
    run_.dt_ = dt;
    run_.dtChanged_ = true;
  }
  bool idle_ = false;

private:
  // The step that solved the run's constraint problem (null before it has), refusing several:
  // SOFA builds one problem, its rows numbered across the scene.
  const FreeMotionStep* problem() const {
    const FreeMotionStep* found = nullptr;
    const auto look = [&](const TimeIntegrator* integrator) {
      const auto* step = dynamic_cast<const FreeMotionStep*>(integrator);
      if (!step || step->forces().empty()) return;
      if (found)
        throw Error(
            "the run solves several constraint problems (one per ODE solver), where SOFA "
            "builds one W; reading them as one is not supported");
      found = step;
    };
    for (const auto& b : run_.bodies_) look(b->integrator.get());
    for (const auto& g : run_.groups_) look(g->integrator.get());
    return found;
  }
  // The body's own linearized implicit Euler step, whose last linear system a controller reads.
  static const EulerImplicitSolver& lastSolve(const Body& b) {
    const auto* solver = dynamic_cast<const EulerImplicitSolver*>(b.integrator.get());
    if (!solver || b.coupled)
      throw Error(
          "the body's linear system is read from its own linearized implicit Euler "
          "step only (not Newton's, nor a coupled group's)");
    return *solver;
  }
  // The linearized implicit Euler step that solves the body: its own, or its coupled group's.
  const EulerImplicitSolver& implicitStepOf(const Body& b) const {
    const TimeIntegrator* integrator = b.integrator.get();
    if (b.coupled)
      for (const auto& group : run_.groups_)
        if (std::find(group->bodies.begin(), group->bodies.end(), &b) != group->bodies.end())
          integrator = group->integrator.get();
    const auto* solver = dynamic_cast<const EulerImplicitSolver*>(integrator);
    if (!solver)
      throw Error(
          "a mass-only linear system is read where a linearized implicit Euler step solves "
          "its bodies (not Newton's)");
    return *solver;
  }
  static std::string count(const std::vector<double>& values) {
    return std::to_string(values.size());
  }
  Simulation& run_;
};

void Simulation::attachControllers(const SofaControl& control,
                                   std::unique_ptr<PythonControllers> started) {
  if (!started && control.controllers.empty() && control.mainLoop.empty()) return;
  for (const std::string& controller : control.controllers)
    report("%s: runs on rank 0 before and after each step\n", controller.c_str());
  if (!control.mainLoop.empty()) {
    // The script's animate calls are the steps: as many as it makes, none counted ahead.
    mainLoop_ = true;
    steps_ = std::numeric_limits<int>::max();
    progress_ = std::make_unique<Progress>(scene().integer("output.progress-every"), 0);
    report("%s: its Python main loop drives the steps (Sofa.Simulation.animate)\n",
           control.file.c_str());
  }
  controllers_ = started ? std::move(started) : std::make_unique<PythonControllers>(control, comm_);
  if (restartControllers_.stored) restoreControllers();
}

// The controllers' own state as the checkpoint holds it; then, when the run that wrote it went
// on with the step's AnimateEndEvent, that event again, with the root's dt as it was then (the
// event settles it again), so that what the controllers do in it happens in this run too.
void Simulation::restoreControllers() {
  const std::string where = "initial.restart = " + restartPath_ + ": ";
  if (mainLoop_)
    throw Error(where +
                "the checkpoint holds the Python controllers' own state, which a script's own "
                "main loop does not take (restart with euler-implicit --scene)");
  const bool force = scene().boolean("initial.restart-force");
  if (restartControllers_.pending == 2) {
    const std::string what =
        where + "written after step " + std::to_string(step_ + 1) +
        "'s AnimateBeginEvent, whose step then failed: the controllers' state holds what they "
        "did in it, which the restart's step " +
        std::to_string(step_ + 1) + " would do again";
    if (!force) throw Error(what + " (--restart-force restarts with it)");
    report("euler-implicit: warning: %s; restarted with it (--restart-force)\n", what.c_str());
  }
  try {
    controllers_->restoreState(restartControllers_.state, force);
  } catch (const Error& e) {
    throw Error(where + e.what());
  }
  if (restartControllers_.pending != 1) return;
  if (restartDt_.stored) {
    dt_ = restartDt_.dt;
    nextDt_ = restartDt_.next;
    rootDt_ = restartDt_.root;
  }
  ControllerAccessOf access(*this);
  try {
    controllers_->event(false, step_, time_, dt_, access, true);
  } catch (const Error& e) {
    throw Error(where + "step " + std::to_string(step_) +
                "'s AnimateEndEvent, sent again: " + e.what());
  }
  settleDt();
}

// animate(root, dt) takes dt for its step only, the root's dt unchanged (SOFA's
// DefaultAnimationLoop::step; 0 is the root's).
bool Simulation::mainLoopTurn(int step) {
  ControllerAccessOf access(*this);
  access.idle_ = true;
  double stepDt = 0;
  if (!controllers_->idle(step - 1, time_, dt_, access, stepDt)) return false;
  takeStepDt(stepDt);
  return true;
}

void Simulation::takeStepDt(double stepDt) {
  if (stepDt > 0 && stepDt != dt_) {
    rootDt_ = dt_;
    dt_ = stepDt;
    dtChanged_ = true;
  }
}

void Simulation::settleDt() {
  if (nextDt_ > 0 || rootDt_ > 0) {
    dt_ = nextDt_ > 0 ? nextDt_ : rootDt_;
    nextDt_ = rootDt_ = 0;
    dtChanged_ = true;
  }
}

void Simulation::controllerEvent(bool begin, int step, double time) {
  ControllerAccessOf access(*this);
  controllers_->event(begin, step, time, dt_, access);
  if (!begin) settleDt();
}

void Simulation::beginSteps() {
  steps_ = std::numeric_limits<int>::max();
  progress_ = std::make_unique<Progress>(scene().integer("output.progress-every"), 0);
  startLoop();
}

void Simulation::beginStep(double dt) {
  if (!(dt >= 0) || std::isinf(dt)) throw Error("dt must be a number >= 0 (0: the root's)");
  takeStepDt(dt);
}

void Simulation::setState(std::size_t body, bool velocity, const double* values, std::size_t count,
                          bool owned) {
  const Body& b = *bodies_.at(body);
  const DistributedMesh& mesh = *b.mesh;
  const std::size_t half = std::size_t(mesh.dofsPerNode());
  std::size_t ownedCount = 0;
  for (unsigned char o : mesh.owned()) ownedCount += o ? 1 : 0;
  const std::size_t rows =
      owned ? ownedCount : std::size_t(mesh.numGlobalVertices()) + mesh.unusedNodeIds().size();
  if (count != rows * half)
    throw Error("expected " + std::to_string(rows * half) + " numbers (" + std::to_string(half) +
                " per " + (owned ? "node this rank owns" : "node") + "), got " +
                std::to_string(count));
  Vec vector = velocity ? b.v : b.x;
  PetscScalar* xs;
  EIS_CHECK(VecGetArray(vector, &xs));
  std::size_t row = 0;
  for (std::size_t n = 0; n < mesh.numLocalVertices(); ++n) {
    if (!mesh.owned()[n]) continue;
    const std::size_t from = owned ? row++ : std::size_t(mesh.nodeIds()[n]);
    for (std::size_t d = 0; d < half; ++d)
      xs[mesh.ownedOffset(PetscInt(n)) + PetscInt(d)] = values[from * half + d];
  }
  EIS_CHECK(VecRestoreArray(vector, &xs));
}

namespace {

ConstantForces* constantForcesOf(const MechanicalSystem& system) {
  ConstantForces* forces = nullptr;
  for (const auto& field : system.forceFields())
    if (auto* found = dynamic_cast<ConstantForces*>(field.get())) forces = found;
  return forces;
}

}  // namespace

std::string Simulation::loadsText(const Body& body) {
  const ConstantForces* forces = constantForcesOf(*body.system);
  if (!forces) return "";
  std::string text;
  char number[32];
  const auto add = [&](double value) {
    std::snprintf(number, sizeof number, " %.17g", value);
    text += number;
  };
  for (std::size_t i = 0; i < forces->loads().size(); ++i) {
    const ConstantForces::Load& load = forces->loads()[i];
    text += std::to_string(i) + (load.total ? " 1" : " 0");
    for (double value : load.force) add(value);
    text += " " + std::to_string(load.perNode.size());
    for (const auto& [id, force] : load.perNode) {
      text += " " + std::to_string(id);
      for (double value : force) add(value);
    }
    text += "\n";
  }
  return text;
}

void Simulation::restoreLoads(std::size_t body, const std::string& text, const std::string& where) {
  ConstantForces* forces = constantForcesOf(*bodies_.at(body)->system);
  std::istringstream lines(text);
  std::string line;
  std::size_t count = 0;
  for (; std::getline(lines, line); ++count) {
    std::istringstream in(line);
    std::size_t index = 0, nodes = 0;
    int total = 0;
    std::array<double, 3> force{};
    in >> index >> total >> force[0] >> force[1] >> force[2] >> nodes;
    std::map<std::int64_t, std::array<double, 3>> perNode;
    for (std::size_t k = 0; k < nodes && in; ++k) {
      std::int64_t id = 0;
      in >> id;
      in >> perNode[id][0] >> perNode[id][1] >> perNode[id][2];
    }
    std::string rest;
    if (!forces || !in || (in >> rest) || index != count || index >= forces->loads().size())
      throw Error(where + ": attribute controller_forces does not fit the body's " +
                  (forces ? std::to_string(forces->loads().size()) : std::string("no")) +
                  " ConstantForceField loads");
    forces->setLoad(index, force, total != 0, std::move(perNode));
  }
  if (!forces || count != forces->loads().size())
    throw Error(where +
                ": attribute controller_forces does not fit the body's ConstantForceField "
                "loads");
  forcedBodies_.insert(body);
}

std::string Simulation::factorsText(std::size_t body) const {
  const auto found = writtenFactors_.find(body);
  if (found == writtenFactors_.end()) return "";
  std::string text = std::to_string(found->second.size());
  char number[32];
  for (double factor : found->second) {
    std::snprintf(number, sizeof number, " %.17g", factor);
    text += number;
  }
  return text;
}

void Simulation::restoreFactors(std::size_t body, const std::string& text,
                                const std::string& where) {
  std::istringstream in(text);
  std::size_t count = 0;
  in >> count;
  std::vector<double> factors(in ? count : 0);
  for (double& factor : factors) in >> factor;
  std::string rest;
  if (!in || (in >> rest))
    throw Error(where +
                ": attribute controller_stiffness_factors is not a count and as many "
                "factors");
  Body& b = *bodies_.at(body);
  setCellStiffnessFactors(where + ": controller_stiffness_factors", b.scene, *b.mesh,
                          b.system->forceFields(), factors);
  writtenFactors_[body] = std::move(factors);
}

std::unique_ptr<ControllerAccess> Simulation::controllerAccess(bool inEvent) {
  auto access = std::make_unique<ControllerAccessOf>(*this);
  access->idle_ = !inEvent;
  return access;
}

}  // namespace eis
