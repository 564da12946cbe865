// The rigid bodies of a run (model/rigid_body.hpp): each group that springs between frames join
// (model/rigid_group.hpp), or each body alone, a system of its own, stepped by the scene's
// EulerImplicitSolver or EulerExplicitSolver in the scene's order among the mesh bodies, its
// frames written by output.frames and read by the mesh bodies' InteractionEllipsoidForceFields.
#include <algorithm>
#include <cstring>

#include "eis/app/simulation.hpp"
#include "eis/core/error.hpp"
#include "eis/io/frames_csv.hpp"
#include "eis/io/help.hpp"
#include "eis/io/output_file.hpp"
#include "eis/linalg/linear_solver.hpp"
#include "eis/model/carried_points.hpp"
#include "eis/model/interaction_ellipsoid_force_field.hpp"
#include "eis/model/interaction_springs.hpp"
#include "eis/model/mass.hpp"
#include "eis/model/physics.hpp"
#include "eis/model/rigid_mapped_springs.hpp"
#include "eis/ode/time_integrator_component.hpp"

namespace eis {

namespace {

// What a rigid body reads besides its own keys: the step, the linear solver, the outputs, the
// scene file's keys and gravity. Any other key given would act on a mesh it does not have.
bool readByRigidBody(const std::string& key) {
  for (const char* prefix : {"rigid.", "solver.", "output.", "scene."})
    if (key.compare(0, std::strlen(prefix), prefix) == 0) return true;
  return key == "load.gravity" || key == "physics.type" || key == "interaction.springs" ||
         key == "obstacle.plane";
}

const ObjectScene* objectAt(const std::vector<ObjectScene>& objects, const std::string& path) {
  for (const ObjectScene& object : objects)
    if (object.path == path) return &object;
  return nullptr;
}

// The keys of the one step and linear solver a group of frames (and the mesh body joined to
// it) has; `what`: the springs that join them.
void checkSameSolver(const std::string& what, const ObjectScene& first, const ObjectScene& other) {
  for (const ComponentDeclaration* c : {&timeIntegratorComponent(), &linearSolverComponent()})
    for (const ParameterDeclaration& d : c->parameters.declarations())
      if (first.scene.shown(d.key) != other.scene.shown(d.key))
        throw Error(what + " between the bodies " + first.path + " and " + other.path + ": " +
                    d.key + " differs between them: they are one system, stepped by one solver");
}

// rigid.mapped-springs of a body of frames: to a mesh body that exists, from points it has.
void checkMappedSprings(const std::vector<ObjectScene>& objects, const ObjectScene& object) {
  for (const InteractionSpringSet& set : rigidMappedSpringsOf(object.scene)) {
    const std::string where = "rigid.mapped-springs of " + object.path + " to " + set.target;
    if (!object.scene.given("rigid.mapped-points"))
      throw Error(where + ": the body has no rigid.mapped-points");
    const ObjectScene* target = objectAt(objects, set.target);
    if (!target) throw Error(where + ": the target is no body");
    if (isRigidBody(target->scene))
      throw Error(where +
                  ": the target is a body of rigid frames (interaction.springs join frames)");
    if (!target->scene.optionalText("topology.changes").empty())
      throw Error(where + ": topology.changes on the mesh body are not supported there yet");
    if (readLinearSolverParameters(target->scene).op == OperatorMode::MatrixFree)
      throw Error(where +
                  ": solver.operator = matrix-free: the frames and the mesh body are solved "
                  "with an assembled matrix only");
    checkSameSolver("rigid.mapped-springs", object, *target);
  }
}

// carried.frames of a mesh body: a body of frames that exists, under the same solver.
void checkCarried(const std::vector<ObjectScene>& objects, const ObjectScene& object) {
  const std::optional<CarriedPoints> carried = carriedPointsOf(object.scene);
  if (!carried) return;
  const std::string where = "carried.frames of " + object.path + " (" + carried->frames + ")";
  if (isRigidBody(object.scene)) throw Error(where + ": the carried body is frames itself");
  const ObjectScene* frames = objectAt(objects, carried->frames);
  if (!frames || !isRigidBody(frames->scene))
    throw Error(where + ": no body of rigid frames (rigid.frames) has that path");
  if (!object.scene.optionalText("topology.changes").empty())
    throw Error(where + ": topology.changes on the carried body are not supported there yet");
  if (readLinearSolverParameters(object.scene).op == OperatorMode::MatrixFree)
    throw Error(where +
                ": solver.operator = matrix-free: the frames and the carried body are solved "
                "with an assembled matrix only");
  checkSameSolver("carried.frames", *frames, object);
}

// The mesh body a group of frames joins: the target of its members' rigid.mapped-springs or a
// body its members carry (carried.frames), one body at most; "" when none.
std::string jointMeshOf(const std::vector<ObjectScene>& objects,
                        const std::vector<std::size_t>& group) {
  std::string target;
  const auto join = [&](const std::string& mesh, const std::string& why) {
    if (!target.empty() && mesh != target)
      throw Error(why + ": the frames already join " + target +
                  "; a group of frames joined to several mesh bodies is not supported yet");
    target = mesh;
  };
  for (std::size_t member : group) {
    for (const InteractionSpringSet& set : rigidMappedSpringsOf(objects[member].scene))
      join(set.target, "rigid.mapped-springs of " + objects[member].path + " to " + set.target);
    for (const ObjectScene& object : objects)
      if (const auto carried = carriedPointsOf(object.scene);
          carried && carried->frames == objects[member].path)
        join(object.path, "carried.frames of " + object.path);
  }
  return target;
}

// SOFA's BTDLinearSolver (BTDLinearSolver.inl: Thomas' algorithm on BTDMatrix6d) keeps only the
// group's 6 x 6 blocks (i, i-1), (i, i) and (i, i+1), its frames numbered member after member:
// a direct solve where the frames' matrix has no other block, refused where it has.
void checkBlockTridiagonal(const std::vector<std::string>& paths,
                           const std::vector<RigidBodyParameters>& members,
                           const std::vector<int>& first,
                           const std::vector<RigidFrameSpring>& springs) {
  std::string why;
  const auto apart = [](int a, int b) { return a - b != 1 && b - a != 1; };
  // A frame by its member's path and its own index (a lone body's by its index alone).
  const auto name = [&](std::size_t m, int frame) {
    return (members.size() > 1 ? paths[m] + " " : std::string()) + "frame " +
           std::to_string(frame - first[m]);
  };
  const auto memberOf = [&](int frame) {
    std::size_t m = 0;
    while (m + 1 < first.size() && first[m + 1] <= frame) ++m;
    return m;
  };
  for (std::size_t m = 0; m < members.size() && why.empty(); ++m) {
    if (!members[m].mapped.cells.corners.empty())
      why = "the cells of a rigidly mapped child couple frames";
    for (const BeamParameters& beam : members[m].beams)
      for (const auto& [a, b] : beam.lines)
        if (apart(a, b) && why.empty())
          why = "a beam joins " + name(m, first[m] + a) + " and frame " + std::to_string(b);
  }
  for (const RigidFrameSpring& spring : springs)
    if (apart(spring.frame1, spring.frame2) && why.empty())
      why = "a spring joins " + name(memberOf(spring.frame1), spring.frame1) + " and " +
            name(memberOf(spring.frame2), spring.frame2);
  if (!why.empty())
    throw Error("rigid.block-tridiagonal (SOFA's BTDLinearSolver): " + why +
                ", a block of the frames' matrix away from the diagonal, which its "
                "block-tridiagonal solve would drop");
}

// SOFA's EulerExplicitSolver inverts a diagonal mass itself (accFromF) and needs a linear solver
// for any other; this step solves M a = P f with the fixed rows the identity, SOFA's a = M^-1 f
// projected only where no fixed angular unknown of a frame shares an inertia term with a free one.
void checkExplicitFrames(const std::string& where, const RigidBodyParameters& body) {
  if (!body.mapped.frameOf.empty())
    throw Error(where +
                "solver.explicit = true with rigid.mapped-points: the mapped points' mass J^T m J "
                "is not diagonal (SOFA's EulerExplicitSolver then assembles it for a linear "
                "solver), not supported yet");
  const auto& inertia = body.mass.inertia;
  const bool diagonal = inertia[1] == 0 && inertia[2] == 0 && inertia[3] == 0 && inertia[5] == 0 &&
                        inertia[6] == 0 && inertia[7] == 0;
  if (diagonal) return;
  for (const auto& fixed : body.fixed)
    if ((fixed[3] || fixed[4] || fixed[5]) && !(fixed[3] && fixed[4] && fixed[5]))
      throw Error(where +
                  "solver.explicit = true with a partly fixed rotation and an inertia matrix "
                  "that is not diagonal: SOFA projects M^-1 f, which this step's projected solve "
                  "does not reproduce");
}

}  // namespace

Simulation::RigidRun::~RigidRun() {
  for (Vec* u : {&x, &v, &x0, &v0, &jointX, &jointV}) VecDestroy(u);
}

void Simulation::checkRigidBodies(const std::vector<ObjectScene>& objects) {
  // SOFA's explicit step on a state with no mass: accFromF finds no mass and leaves a = 0.
  for (const ObjectScene& object : objects)
    if (!isRigidBody(object.scene) && object.scene.boolean("solver.explicit") &&
        readMassParameters(object.scene).type == MassType::None)
      throw Error((object.path.empty() ? std::string() : object.path + ": ") +
                  "solver.explicit = true with mass.type = none: SOFA's EulerExplicitSolver has "
                  "no mass to divide by there (it leaves the acceleration 0); not supported");
  const ObjectScene* rigid = nullptr;
  for (const ObjectScene& object : objects)
    if (isRigidBody(object.scene) && !rigid) rigid = &object;
  // The rigid.* keys act on frames: given to a body without them, they would act on nothing.
  for (const ObjectScene& object : objects)
    for (const ComponentDeclaration* component : object.scene.components())
      for (const ParameterDeclaration& key : component->parameters.declarations())
        if (!isRigidBody(object.scene) && key.key.compare(0, 6, "rigid.") == 0 &&
            object.scene.given(key.key))
          throw Error((object.path.empty() ? "" : object.path + ": ") + key.key + " = " +
                      object.scene.text(key.key) +
                      ": acts on a body of rigid frames, and this body has none (rigid.frames)");
  if (!rigid) {
    if (!objects.front().scene.optionalText("output.frames").empty())
      throw Error("output.frames: the scene has no rigid body (rigid.frames)");
    return;
  }
  const std::string name = rigid->path.empty() ? "rigid.frames" : rigid->path;
  // output.final-state writes the bodies of points beside them (their frames: output.frames).
  const bool points = std::any_of(objects.begin(), objects.end(),
                                  [](const ObjectScene& o) { return !isRigidBody(o.scene); });
  for (const char* key : {"output.final-state", "output.vtk", "output.xdmf", "output.history",
                          "output.checkpoint", "initial.state", "initial.restart"})
    if (!rigid->scene.optionalText(key).empty() &&
        !(points && std::string(key) == "output.final-state"))
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
          throw Error(
              where + key.key + " = " + scene.text(key.key) +
              ": a body of rigid frames (rigid.frames) has no mesh; only its uniform "
              "mass, gravity, fixed frames, springs, rest-shape springs and planes act on it yet");
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
    if (step.explicitStep) checkExplicitFrames(where, readRigidBodyParameters(scene));
    if (!scene.texts("interaction.polynomial-springs").empty())
      throw Error(where +
                  "interaction.polynomial-springs: polynomial springs on rigid frames are not "
                  "supported yet");
  }
  // Springs join frames to frames: a body of points at either end is refused.
  for (const ObjectScene& object : objects)
    for (const InteractionSpringSet& set : interactionSpringsOf(object.scene)) {
      if (set.target == "self") continue;
      const ObjectScene* target = objectAt(objects, set.target);
      if (!target) continue;  // named in the mesh bodies' own check
      if (isRigidBody(object.scene) != isRigidBody(target->scene))
        throw Error("interaction.springs of " +
                    (object.path.empty() ? std::string("the body") : object.path) + " to " +
                    set.target +
                    ": springs between rigid frames and a body of points are not supported yet");
      if (isRigidBody(object.scene)) checkSameSolver("interaction.springs", object, *target);
    }
  for (const ObjectScene& object : objects)
    if (isRigidBody(object.scene))
      for (const InteractionSpringSet& set : interactionSpringsOf(object.scene))
        if (set.target != "self" && !objectAt(objects, set.target))
          throw Error("interaction.springs of " + object.path + ": the target " + set.target +
                      " is no body");
  for (const ObjectScene& object : objects) {
    if (isRigidBody(object.scene)) checkMappedSprings(objects, object);
    checkCarried(objects, object);
  }
  // One mesh body a group of frames, and one group a mesh body.
  const std::vector<std::vector<std::size_t>> groups = rigidGroups(objects);
  std::vector<std::string> meshes;
  for (const std::vector<std::size_t>& group : groups)
    meshes.push_back(jointMeshOf(objects, group));
  for (std::size_t g = 0; g < groups.size(); ++g)
    for (std::size_t h = 0; h < g; ++h)
      if (!meshes[g].empty() && meshes[g] == meshes[h])
        throw Error("the mesh body " + meshes[g] + " is joined to " + objects[groups[h][0]].path +
                    " and to " + objects[groups[g][0]].path +
                    ", bodies of frames not joined to each other (by springs or carried points "
                    "from separate groups of frames): not supported yet");
}

void Simulation::markJointBodies(const std::vector<ObjectScene>& objects) {
  // Coupled by its springs to itself alone: the joint solves those springs instead.
  const auto selfSpringsOnly = [&](const Body& body) {
    const auto group = std::find_if(groups_.begin(), groups_.end(), [&](const auto& g) {
      return std::find(g->bodies.begin(), g->bodies.end(), &body) != g->bodies.end();
    });
    const std::vector<InteractionSpringSet> sets = interactionSpringsOf(body.scene);
    return group != groups_.end() && (*group)->bodies.size() == 1 &&
           body.scene.texts("interaction.polynomial-springs").empty() &&
           body.scene.texts("attach.pairs").empty() &&
           std::all_of(sets.begin(), sets.end(),
                       [](const InteractionSpringSet& set) { return set.target == "self"; });
  };
  for (const std::vector<std::size_t>& group : rigidGroups(objects)) {
    const std::string target = jointMeshOf(objects, group);
    for (auto& body : bodies_)
      if (!target.empty() && body->path == target) {
        if (body->coupled && !selfSpringsOnly(*body))
          throw Error("the mesh body " + target + ", joined to the frames of " +
                      objects[group[0]].path +
                      " (rigid.mapped-springs or carried.frames), is in a coupled group with "
                      "other bodies (solver.group, interaction.springs or attach.pairs); not "
                      "supported yet");
        body->coupled = false;
        body->joint = true;
      }
  }
}

std::vector<std::vector<std::size_t>> Simulation::rigidGroups(
    const std::vector<ObjectScene>& objects) {
  // Each rigid body's group, joined along its springs (union by the smaller index).
  std::vector<std::size_t> group(objects.size());
  for (std::size_t i = 0; i < objects.size(); ++i) group[i] = i;
  const auto root = [&](std::size_t i) {
    while (group[i] != i) i = group[i];
    return i;
  };
  for (std::size_t i = 0; i < objects.size(); ++i) {
    if (!isRigidBody(objects[i].scene)) continue;
    for (const InteractionSpringSet& set : interactionSpringsOf(objects[i].scene))
      for (std::size_t j = 0; j < objects.size(); ++j)
        if (objects[j].path == set.target) {
          const std::size_t a = root(i), b = root(j);
          group[std::max(a, b)] = std::min(a, b);
        }
  }
  std::vector<std::vector<std::size_t>> groups;
  std::vector<std::size_t> first;
  for (std::size_t i = 0; i < objects.size(); ++i) {
    if (!isRigidBody(objects[i].scene)) continue;
    const std::size_t r = root(i);
    const auto at = std::find(first.begin(), first.end(), r);
    if (at == first.end()) {
      first.push_back(r);
      groups.push_back({i});
    } else {
      groups[std::size_t(at - first.begin())].push_back(i);
    }
  }
  return groups;
}

void Simulation::buildRigid(const std::vector<ObjectScene>& objects,
                            const std::vector<std::size_t>& places) {
  std::vector<const ObjectScene*> members;
  for (std::size_t place : places) members.push_back(&objects[place]);
  auto rigid = std::make_unique<RigidRun>(*members.front());
  rigid->places = places;
  // The springs from the members' mapped points to a mesh body (one, checkRigidBodies), if any.
  std::vector<PointNodeSpring> jointSprings;
  for (std::size_t m = 0; m < members.size(); ++m)
    for (const InteractionSpringSet& set : rigidMappedSpringsOf(members[m]->scene)) {
      for (auto& body : bodies_)
        if (body->path == set.target) rigid->mesh = body.get();
      for (const InteractionSpring& spring : set.springs)
        jointSprings.push_back({m, std::size_t(spring.node1), spring.node2, spring});
    }
  // The points of a mesh body a member's frame carries (checkRigidBodies: that body alone).
  JointCarried carried;
  for (std::size_t m = 0; m < members.size(); ++m)
    for (auto& body : bodies_)
      if (const auto points = carriedPointsOf(body->scene);
          points && points->frames == members[m]->path) {
        rigid->mesh = body.get();
        carried = {m, points->frame, points->points, points->planes};
      }
  // The mesh body's springs to itself, solved in the joint (markJointBodies).
  std::vector<MeshSpring> meshSprings;
  if (rigid->mesh)
    for (const InteractionSpringSet& set : interactionSpringsOf(rigid->mesh->scene))
      for (const InteractionSpring& spring : set.springs) meshSprings.push_back({spring});
  // Every rank steps the whole group (a few frames) alike: no message, the same bits on any rank
  // count. Joined to a mesh body, the group lives on the run's communicator, rank 0 holding it.
  const MPI_Comm comm = rigid->mesh ? comm_ : PETSC_COMM_SELF;
  std::vector<std::unique_ptr<RigidBody>> bodies;
  std::vector<RigidBodyParameters> parameters;
  std::vector<int> first;
  int frames = 0;
  for (const ObjectScene* member : members) {
    rigid->paths.push_back(member->path);
    parameters.push_back(readRigidBodyParameters(member->scene));
    bodies.push_back(std::make_unique<RigidBody>(comm, parameters.back()));
    first.push_back(frames);
    frames += bodies.back()->frames();
  }
  // Each member's springs, their frames numbered across the group.
  std::vector<RigidFrameSpring> springs;
  for (std::size_t m = 0; m < members.size(); ++m)
    for (const InteractionSpringSet& set : interactionSpringsOf(members[m]->scene)) {
      std::size_t target = m;
      for (std::size_t t = 0; t < members.size() && set.target != "self"; ++t)
        if (members[t]->path == set.target) target = t;
      for (const InteractionSpring& spring : set.springs) {
        if (!spring.points1.empty() || !spring.points2.empty())
          throw Error("interaction.springs of " + members[m]->path +
                      ": a weighted end (i:w/..) between rigid frames is not supported");
        for (const auto& [body, frame] : {std::pair{m, spring.node1}, {target, spring.node2}})
          if (frame >= bodies[body]->frames())
            throw Error("interaction.springs of " + members[m]->path + ": frame " +
                        std::to_string(frame) + " of " + std::to_string(bodies[body]->frames()) +
                        " frames of " + members[body]->path);
        springs.push_back(
            {first[m] + int(spring.node1), first[target] + int(spring.node2), spring});
      }
    }
  for (const ObjectScene* member : members)
    if (member->scene.boolean("rigid.block-tridiagonal")) {
      checkBlockTridiagonal(rigid->paths, parameters, first, springs);
      break;
    }
  const std::size_t springCount = springs.size();
  rigid->body = std::make_unique<RigidGroup>(std::move(bodies), std::move(springs));
  rigid->x = rigid->body->createPositions();
  rigid->v = rigid->body->createVelocities();
  EIS_CHECK(VecDuplicate(rigid->x, &rigid->x0));
  EIS_CHECK(VecDuplicate(rigid->v, &rigid->v0));
  // The mass matrix of the frames is block diagonal (3x3 blocks of inertia): no multigrid.
  LinearSolverChoice linear = linearSolverFor(rigid->scene, rigid->mesh == nullptr);
  if (!linear.options.direct) linear.pcType = PCJACOBI;
  if (rigid->mesh) {
    rigid->joint =
        std::make_unique<JointSystem>(*rigid->body, *rigid->mesh->system, std::move(jointSprings),
                                      std::move(meshSprings), std::move(carried));
    rigid->jointX = rigid->joint->createPositions(rigid->x, rigid->mesh->x);
    rigid->jointV = rigid->joint->createVector();
  }
  rigid->integrator = makeTimeIntegrator(readTimeIntegratorParameters(rigid->scene), linear, comm,
                                         rigid->mesh ? rigid->jointV : rigid->v, nullptr);
  for (std::size_t m = 0; m < members.size(); ++m) {
    const ObjectScene& object = *members[m];
    report("euler-implicit %s: scene of rigid body %s\n%s", EIS_VERSION, object.path.c_str(),
           describe(object.scene).c_str());
    report("rigid body%s%s: %d frames on %s, mass %g each\n", object.path.empty() ? "" : " ",
           object.path.c_str(), rigid->body->framesOf(m), rigid->mesh ? "rank 0" : "every rank",
           readRigidBodyParameters(object.scene).mass.mass);
  }
  if (members.size() > 1 || springCount > 0)
    report("rigid group of %zu bodies: one system, %zu springs between frames\n", members.size(),
           springCount);
  if (rigid->mesh)
    report(
        "rigid group with body %s: one system, %zu springs from mapped points to its nodes, %zu "
        "between its nodes, %zu points carried by a frame\n",
        rigid->mesh->path.c_str(), rigid->joint->springs(), rigid->joint->meshSprings(),
        rigid->joint->carriedPoints());
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

// A group joined to a mesh body steps with it: their states joined, stepped, split back, the
// body's prescribed motion and state check as its own step has them.
void Simulation::advanceRigid(RigidRun& rigid, StepRecord& record, double clock) {
  StepReport report;
  if (rigid.mesh) {
    Body& mesh = *rigid.mesh;
    mesh.system->setTime(clock, dt_);
    rigid.joint->join(rigid.x, mesh.x, rigid.jointX, true);
    rigid.joint->join(rigid.v, mesh.v, rigid.jointV, false);
    report = rigid.integrator->step(*rigid.joint, rigid.jointX, rigid.jointV, dt_);
    rigid.joint->split(rigid.jointX, rigid.x, mesh.x, true);
    rigid.joint->split(rigid.jointV, rigid.v, mesh.v, false);
    mesh.system->projectMotion(mesh.x, mesh.v);
    mesh.system->checkState(mesh.x, mesh.v);
  } else {
    report = rigid.integrator->step(*rigid.body, rigid.x, rigid.v, dt_);
  }
  record.report.linearIterations += report.linearIterations;
  record.report.preconditionerSetups += report.preconditionerSetups;
}

void Simulation::linkFrames() {
  for (auto& body : bodies_)
    for (const auto& field : body->system->forceFields()) {
      auto* ellipsoid = dynamic_cast<InteractionEllipsoidForceField*>(field.get());
      if (!ellipsoid) continue;
      const std::string& path = ellipsoid->parameters().frameBody;
      const int index = ellipsoid->parameters().frameIndex;
      const std::string where = (body->path.empty() ? std::string() : body->path + ": ") +
                                "interaction.ellipsoid-frame = " + path + " " +
                                std::to_string(index);
      const LinearSolverChoice linear =
          linearSolverOf(readLinearSolverParameters(body->scene), body->system->constantMatrix());
      if (linear.op == OperatorMode::Assembled)
        throw Error(where +
                    ": SOFA's InteractionEllipsoidForceField has no stiffness matrix (no "
                    "addKToMatrix): its body runs matrix-free only (solver.operator = "
                    "matrix-free, as under SOFA's CGLinearSolver)");
      RigidRun* run = nullptr;
      std::size_t member = 0;
      for (auto& rigid : rigids_)
        for (std::size_t m = 0; m < rigid->paths.size(); ++m)
          if (rigid->paths[m] == path) run = rigid.get(), member = m;
      if (!run) throw Error(where + ": no body of rigid frames has that path");
      if (run->mesh)
        throw Error(where + ": that body's frames step with the mesh body " + run->mesh->path +
                    " (rigid.mapped-springs) and live on rank 0 alone; a field reading them "
                    "is not supported there");
      if (index >= run->body->framesOf(member))
        throw Error(where + ": the body has " + std::to_string(run->body->framesOf(member)) +
                    " frames");
      const PetscInt first = kRigidCoordSize * (run->body->firstFrame(member) + index);
      ellipsoid->linkFrame([run, first] {
        const PetscScalar* x = nullptr;
        EIS_CHECK(VecGetArrayRead(run->x, &x));
        std::array<double, 7> pose;
        std::copy(x + first, x + first + 7, pose.begin());
        EIS_CHECK(VecRestoreArrayRead(run->x, &x));
        return pose;
      });
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
  // Each member under its path, in the scene's order of bodies.
  std::vector<std::pair<std::size_t, FramesState>> placed;
  for (auto& rigid : rigids_) {
    const PetscScalar *x = nullptr, *v = nullptr;
    if (commRank(comm_) == 0) {
      EIS_CHECK(VecGetArrayRead(rigid->x, &x));
      EIS_CHECK(VecGetArrayRead(rigid->v, &v));
    }
    for (std::size_t m = 0; m < rigid->paths.size(); ++m) {
      FramesState state{rigid->paths[m], {}, {}};
      if (x) {
        const std::size_t first = std::size_t(rigid->body->firstFrame(m)),
                          count = std::size_t(rigid->body->framesOf(m));
        state.x.assign(x + kRigidCoordSize * first, x + kRigidCoordSize * (first + count));
        state.v.assign(v + kRigidDerivSize * first, v + kRigidDerivSize * (first + count));
      }
      placed.emplace_back(rigid->places[m], std::move(state));
    }
    if (x) {
      EIS_CHECK(VecRestoreArrayRead(rigid->x, &x));
      EIS_CHECK(VecRestoreArrayRead(rigid->v, &v));
    }
  }
  std::sort(placed.begin(), placed.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<FramesState> bodies;
  for (auto& [place, state] : placed) bodies.push_back(std::move(state));
  writeFramesCsv(path, bodies, comm_);
  report("rigid frames: %s\n", path.c_str());
}

}  // namespace eis
