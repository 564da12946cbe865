// The rigid bodies of a run (model/rigid_body.hpp): each a system of its own, stepped by the
// scene's EulerImplicitSolver after the mesh bodies, its frames written by output.frames.
#include <cstring>

#include "eis/app/simulation.hpp"
#include "eis/core/error.hpp"
#include "eis/io/frames_csv.hpp"
#include "eis/io/help.hpp"
#include "eis/io/output_file.hpp"
#include "eis/linalg/linear_solver.hpp"
#include "eis/model/physics.hpp"
#include "eis/ode/time_integrator_component.hpp"

namespace eis {

namespace {

// What a rigid body reads besides its own keys: the step, the linear solver, the outputs, the
// scene file's keys and gravity. Any other key given would act on a mesh it does not have.
bool readByRigidBody(const std::string& key) {
  for (const char* prefix : {"rigid.", "solver.", "output.", "scene."})
    if (key.compare(0, std::strlen(prefix), prefix) == 0) return true;
  return key == "load.gravity" || key == "physics.type";
}

}  // namespace

Simulation::RigidRun::~RigidRun() {
  for (Vec* u : {&x, &v, &x0, &v0}) VecDestroy(u);
}

void Simulation::checkRigidBodies(const std::vector<ObjectScene>& objects) {
  const ObjectScene* rigid = nullptr;
  for (const ObjectScene& object : objects)
    if (isRigidBody(object.scene) && !rigid) rigid = &object;
  if (!rigid) {
    if (!objects.front().scene.optionalText("output.frames").empty())
      throw Error("output.frames: the scene has no rigid body (rigid.frames)");
    return;
  }
  const std::string name = rigid->path.empty() ? "rigid.frames" : rigid->path;
  for (const char* key : {"output.final-state", "output.vtk", "output.xdmf", "output.history",
                          "output.checkpoint", "initial.state", "initial.restart"})
    if (!rigid->scene.optionalText(key).empty())
      throw Error(std::string(key) + ": the scene has rigid bodies (" + name +
                  "), which this output or input does not hold yet; output.frames writes "
                  "their frames");
  for (const ObjectScene& object : objects) {
    if (!isRigidBody(object.scene)) continue;
    const Scene& scene = object.scene;
    const std::string where = object.path.empty() ? "" : object.path + ": ";
    for (const ComponentDeclaration* component : scene.components())
      for (const ParameterDeclaration& key : component->parameters.declarations())
        if (scene.given(key.key) && !readByRigidBody(key.key))
          throw Error(where + key.key + " = " + scene.text(key.key) +
                      ": a body of rigid frames (rigid.frames) has no mesh; only its uniform "
                      "mass, gravity and fixed frames act on it yet");
    if (physicsOf(scene) != Physics::Elasticity)
      throw Error(where + "physics.type: a body of rigid frames is mechanical");
    const TimeIntegratorParameters step = readTimeIntegratorParameters(scene);
    if (step.newton == NewtonMode::Full)
      throw Error(where +
                  "solver.newton = full: not for a body of rigid frames yet (its step is "
                  "SOFA's linearized one)");
    if (step.step.scheme == TimeScheme::Trapezoidal && !step.step.firstOrder)
      throw Error(where +
                  "solver.scheme = trapezoidal: not for a body of rigid frames (a frame's "
                  "position moves by one velocity, x + h v, as in SOFA)");
    if (step.solvesConstraints)
      throw Error(where +
                  "lagrange.solver: Lagrangian constraints on rigid frames are not "
                  "supported yet");
    for (const char* key : {"interaction.springs", "interaction.polynomial-springs"})
      if (!scene.texts(key).empty())
        throw Error(where + key + ": springs on rigid frames are not supported yet");
  }
}

void Simulation::buildRigid(const ObjectScene& object) {
  auto rigid = std::make_unique<RigidRun>(object);
  // Every rank steps the whole body (a few frames) alike: no message, the same bits on any rank
  // count.
  rigid->body = std::make_unique<RigidBody>(PETSC_COMM_SELF, readRigidBodyParameters(object.scene));
  rigid->x = rigid->body->createPositions();
  rigid->v = rigid->body->createVelocities();
  EIS_CHECK(VecDuplicate(rigid->x, &rigid->x0));
  EIS_CHECK(VecDuplicate(rigid->v, &rigid->v0));
  // The mass matrix of the frames is block diagonal (3x3 blocks of inertia): no multigrid.
  LinearSolverChoice linear = linearSolverOf(readLinearSolverParameters(object.scene), true);
  if (!linear.options.direct) linear.pcType = PCJACOBI;
  rigid->integrator = makeTimeIntegrator(readTimeIntegratorParameters(object.scene), linear,
                                         PETSC_COMM_SELF, rigid->v, nullptr);
  report("euler-implicit %s: scene of rigid body %s\n%s", EIS_VERSION, object.path.c_str(),
         describe(object.scene).c_str());
  report("rigid body%s%s: %d frames on every rank, mass %g each\n", object.path.empty() ? "" : " ",
         object.path.c_str(), rigid->body->frames(),
         readRigidBodyParameters(object.scene).mass.mass);
  rigids_.push_back(std::move(rigid));
  if (const std::string path = scene().optionalText("output.frames"); !path.empty())
    prepareOutputFile("output.frames", path, FileWrite::Replaced, comm_);
}

void Simulation::saveRigids() {
  for (auto& rigid : rigids_) {
    EIS_CHECK(VecCopy(rigid->x, rigid->x0));
    EIS_CHECK(VecCopy(rigid->v, rigid->v0));
  }
}

void Simulation::advanceRigids(StepRecord& record) {
  for (auto& rigid : rigids_) {
    const StepReport report = rigid->integrator->step(*rigid->body, rigid->x, rigid->v, dt_);
    record.report.linearIterations += report.linearIterations;
    record.report.preconditionerSetups += report.preconditionerSetups;
  }
}

void Simulation::restoreRigids() {
  for (auto& rigid : rigids_) {
    EIS_CHECK(VecCopy(rigid->x0, rigid->x));
    EIS_CHECK(VecCopy(rigid->v0, rigid->v));
  }
}

void Simulation::writeFrames() {
  const std::string path = scene().optionalText("output.frames");
  if (path.empty() || rigids_.empty()) return;
  std::vector<FramesState> bodies;
  for (auto& rigid : rigids_) {
    FramesState state{rigid->path, {}, {}};
    if (commRank(comm_) == 0) {
      const PetscScalar *x, *v;
      PetscInt nx, nv;
      EIS_CHECK(VecGetLocalSize(rigid->x, &nx));
      EIS_CHECK(VecGetLocalSize(rigid->v, &nv));
      EIS_CHECK(VecGetArrayRead(rigid->x, &x));
      EIS_CHECK(VecGetArrayRead(rigid->v, &v));
      state.x.assign(x, x + nx);
      state.v.assign(v, v + nv);
      EIS_CHECK(VecRestoreArrayRead(rigid->x, &x));
      EIS_CHECK(VecRestoreArrayRead(rigid->v, &v));
    }
    bodies.push_back(std::move(state));
  }
  writeFramesCsv(path, bodies, comm_);
  report("rigid frames: %s\n", path.c_str());
}

}  // namespace eis
