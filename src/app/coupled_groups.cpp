// Bodies integrated as one system (Simulation::Group): which bodies form a group, what a group
// refuses, its set-up and its step. SOFA solves every state under one ODE solver as one linear
// system, the interaction force fields between them coupling the states' blocks; a group is
// that: one CoupledSystem (model/coupled_system.hpp) over its bodies' MechanicalSystems, one
// integrator on the joined vectors.
#include <algorithm>
#include <stdexcept>

#include "eis/app/simulation.hpp"
#include "eis/app/substepping.hpp"
#include "eis/core/error.hpp"
#include "eis/linalg/linear_solver.hpp"
#include "eis/model/physics.hpp"
#include "eis/ode/time_integrator_component.hpp"

namespace eis {

namespace {

// A body's part of its group's carried vectors (TimeIntegrator::saveCarried), so that a
// checkpoint holds them body by body as it holds x and v, and a restart puts each part back.
class MemberCarried : public TimeIntegrator {
public:
  MemberCarried(TimeIntegrator& group, const CoupledSystem& system, std::size_t index, Vec like)
      : group_(group), system_(system), index_(index) {
    EIS_CHECK(VecDuplicate(like, &part_));
  }
  ~MemberCarried() override { VecDestroy(&part_); }
  StepReport step(MechanicalOperations&, Vec, Vec, double) override {
    throw std::logic_error("a body of a coupled group is stepped by its group");
  }
  void saveCarried(const SaveVector& save) const override {
    group_.saveCarried([&](const std::string& name, Vec whole) {
      system_.split(whole, index_, part_);
      save(name, part_);
    });
  }
  void saveShown(const SaveVector& save) const override {
    group_.saveShown([&](const std::string& name, Vec whole) {
      system_.split(whole, index_, part_);
      save(name, part_);
    });
  }
  void loadCarried(const LoadVector& load) override {
    group_.loadCarried([&](const std::string& name, Vec whole) {
      system_.split(whole, index_, part_);
      if (!load(name, part_)) return false;
      system_.join(part_, index_, whole);
      return true;
    });
  }

private:
  TimeIntegrator& group_;
  const CoupledSystem& system_;
  std::size_t index_;
  Vec part_ = nullptr;
};

// The keys of the one integrator, linear solver and step control a group has.
bool isSolverKey(const std::string& key) {
  for (const ComponentDeclaration* c :
       {&timeIntegratorComponent(), &linearSolverComponent(), &substeppingComponent()})
    for (const ParameterDeclaration& d : c->parameters.declarations())
      if (d.key == key) return true;
  return false;
}

std::string groupName(const std::vector<const ObjectScene*>& members, const std::string& name) {
  return name.empty() ? "body " + members.front()->path + " with interaction.springs"
                      : "solver.group = " + name;
}

// The keys of one system must agree between its bodies.
void checkSameSolver(const std::vector<const ObjectScene*>& members, const std::string& name) {
  const std::string group = groupName(members, name);
  const Scene& first = members.front()->scene;
  for (const ParameterDeclaration& d : first.spec().declarations())
    if (isSolverKey(d.key))
      for (const ObjectScene* m : members)
        if (m->scene.shown(d.key) != first.shown(d.key))
          throw Error(group + ": " + d.key + " differs between the bodies " +
                      members.front()->path + " and " + m->path +
                      ": the group is one system, stepped by one solver");
}

// What one system of several bodies cannot do yet: "" when it can.
std::string cannotCouple(const std::vector<const ObjectScene*>& members, const std::string& name) {
  const std::string group = groupName(members, name);
  const Scene& first = members.front()->scene;
  if (first.choice("solver.newton", kNewtonModes) == NewtonMode::Full)
    return group +
           ": solver.newton = full is not supported for bodies solved as one system (a group or "
           "interaction springs); the linearized step is";
  for (const ObjectScene* m : members) {
    const std::string body = m->path.empty() ? "the body" : m->path;
    if (readLinearSolverParameters(m->scene).op != OperatorMode::Assembled)
      return group +
             ": solver.operator = matrix-free is not supported for bodies solved as one "
             "system (a group or interaction springs); assembled is";
    for (const char* key :
         {"constraint.linear-movement", "constraint.prescribed-velocity", "constraint.plane",
          "constraint.line", "constraint.point", "constraint.oscillator",
          "constraint.affine-movement", "constraint.patch-test"})
      if (m->scene.given(key))
        return group + ": " + key + " of " + body +
               ": prescribed motion and node projections are not supported for bodies solved as "
               "one system (a group or interaction springs)";
    if (physicsOf(m->scene) != Physics::Elasticity)
      return group + ": " + body +
             " is not elasticity: bodies solved as one system (a group or interaction springs) "
             "are elastic";
  }
  return "";
}

}  // namespace

// A group that interaction springs do not couple is the same equations as its bodies stepped one
// by one: where one system cannot do what a body asks, they are, with a warning. Coupled by
// springs, such a group is refused.
std::vector<std::vector<std::size_t>> Simulation::formGroups(
    const std::vector<ObjectScene>& objects, std::vector<std::string>& warnings) {
  std::vector<std::vector<std::size_t>> groups;
  std::vector<std::string> names;
  for (std::size_t b = 0; b < objects.size(); ++b) {
    const std::string name = objects[b].scene.optionalText("solver.group");
    const auto found = std::find(names.begin(), names.end(), name);
    if (name.empty() || found == names.end()) {
      groups.push_back({b});
      names.push_back(name);
    } else {
      groups[std::size_t(found - names.begin())].push_back(b);
    }
  }
  std::vector<std::vector<std::size_t>> formed;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    std::vector<const ObjectScene*> members;
    bool springs = false;
    for (std::size_t b : groups[g]) {
      members.push_back(&objects[b]);
      // Bilateral pairs across bodies couple them as springs do.
      springs = springs || !objects[b].scene.texts("interaction.springs").empty() ||
                !objects[b].scene.texts("interaction.polynomial-springs").empty() ||
                !bilateralPairsAcross(objects[b].scene).empty() ||
                !objects[b].scene.texts("attach.pairs").empty();
    }
    if (members.size() == 1 && !springs) {
      formed.push_back(groups[g]);
      continue;
    }
    checkSameSolver(members, names[g]);
    const std::string why = cannotCouple(members, names[g]);
    if (why.empty()) {
      formed.push_back(groups[g]);
    } else if (springs) {
      throw Error(why);
    } else {
      warnings.push_back(why +
                         "; no interaction spring couples its bodies, so they are solved "
                         "one by one (the same equations)");
      for (std::size_t b : groups[g]) formed.push_back({b});
    }
  }
  std::sort(formed.begin(), formed.end());
  return formed;
}

Simulation::Group::~Group() {
  for (Vec* u : {&x, &v, &restCoordinates}) VecDestroy(u);
}

void Simulation::buildGroup(Group& group) {
  std::vector<CoupledSystem::Member> members;
  for (Body* body : group.bodies)
    members.push_back({body->system.get(), body->path, interactionSpringsOf(body->scene),
                       bilateralPairsAcross(body->scene), attachSetsOf(body->scene)});
  group.system = std::make_unique<CoupledSystem>(std::move(members), comm_);
  CoupledSystem& system = *group.system;
  group.x = system.createVector();
  group.v = system.createVector();
  const bool rest = std::all_of(group.bodies.begin(), group.bodies.end(),
                                [](const Body* body) { return body->restCoordinates; });
  if (rest) {
    // The near-nullspace of the joined coordinates.
    group.restCoordinates = system.createVector();
    for (std::size_t b = 0; b < group.bodies.size(); ++b)
      system.join(group.bodies[b]->restCoordinates, b, group.restCoordinates);
  }
  const Scene& scene = group.bodies.front()->scene;
  group.integrator = makeTimeIntegrator(readTimeIntegratorParameters(scene),
                                        linearSolverFor(scene, system.constantMatrix()), comm_,
                                        group.x, group.restCoordinates);
  group.substepping = std::make_unique<Substepping>(scene);
  std::string paths;
  for (std::size_t b = 0; b < group.bodies.size(); ++b) {
    Body& body = *group.bodies[b];
    body.integrator = std::make_unique<MemberCarried>(*group.integrator, system, b, body.x);
    paths += (b ? ", " : "") + (body.path.empty() ? std::string("the body") : body.path);
  }
  report("group%s%s: %s solved as one system, %zu interaction springs%s\n",
         group.name.empty() ? "" : " ", group.name.c_str(), paths.c_str(), system.numSprings(),
         system.numAttachedPairs()
             ? (", " + std::to_string(system.numAttachedPairs()) + " attached pairs").c_str()
             : "");
  for (const std::string& warning : system.warnings())
    report("euler-implicit: warning: group %s: %s\n", group.name.c_str(), warning.c_str());
}

StepReport Simulation::advanceGroup(Group& group, int step, double clock, int& substeps) {
  CoupledSystem& system = *group.system;
  const auto toBodies = [&] {
    for (std::size_t b = 0; b < group.bodies.size(); ++b) {
      system.split(group.x, b, group.bodies[b]->x);
      system.split(group.v, b, group.bodies[b]->v);
    }
  };
  for (std::size_t b = 0; b < group.bodies.size(); ++b) {
    system.join(group.bodies[b]->x, b, group.x);
    system.join(group.bodies[b]->v, b, group.v);
  }
  try {
    const StepReport report = group.substepping->advance(
        group.x, group.v, dt_,
        [&](double offset, double h) {
          // Prescribed motion is refused in a group; the time is for fields that change from
          // step to step (a pulsed pressure).
          for (Body* body : group.bodies) body->system->setTime(clock + offset, dt_);
          const StepReport stepReport = group.integrator->step(system, group.x, group.v, h);
          system.projectMotion(group.x, group.v);
          toBodies();
          for (Body* body : group.bodies) body->system->checkState(body->x, body->v);
          return stepReport;
        },
        [&](const std::string& warning) {
          this->report("euler-implicit: warning: %sgroup %s: %s\n", stepName(step).c_str(),
                       group.name.c_str(), warning.c_str());
        },
        substeps);
    return report;
  } catch (const Error&) {
    toBodies();  // the state before the step, which the substepping put back
    throw;
  }
}

}  // namespace eis
