// Where a run starts: every body at rest, or at the rows initial.state gives it, or at a
// checkpoint's state (initial.restart, or initial.state naming one) with its step and time.
#include <algorithm>

#include "eis/app/simulation.hpp"
#include "eis/core/error.hpp"
#include "eis/core/input_file.hpp"
#include "eis/io/checkpoint_output.hpp"
#include "eis/io/checkpoint_scene.hpp"
#include "eis/io/initial_values.hpp"

namespace eis {

namespace {

// "/a (27 nodes), /b (64 nodes)": the bodies as an error message lists them.
std::string listed(const std::vector<CheckpointBody>& bodies) {
  std::string text;
  for (const CheckpointBody& body : bodies)
    text += (text.empty() ? "" : ", ") +
            (body.path.empty() ? std::string("the one body of a run of one") : body.path) + " (" +
            std::to_string(body.nodes) + " nodes)";
  return text;
}

// The features whose state carries from step to step outside the checkpoint: a restart would
// start it afresh and silently differ from the uninterrupted run. "" when the scene has none.
std::string stateNotInCheckpoint(const Parameters& scene) {
  const std::string plastic = "material.plastic-max-threshold";
  if (scene.given(plastic) && scene.real(plastic) > 0)
    return plastic + " = " + scene.text(plastic) +
           ": plasticity's per-element plastic strains are not in the checkpoint";
  if (scene.given("load.edge-pressure"))
    for (const std::string& text : scene.texts("load.edge-pressure"))
      if (const Texts words = parse::tokens(text); !words.empty() && words[0] == "follower")
        return "load.edge-pressure = " + text +
               ": a follower load's direction comes from the previous step's positions, which "
               "are not in the checkpoint";
  if (scene.given("lagrange.distance"))
    for (const std::string& text : scene.texts("lagrange.distance")) {
      const Texts words = parse::tokens(text);
      if (words.size() >= 2 && words[words.size() - 2] == "geometric-stiffness" &&
          words.back() != "none")
        return "lagrange.distance = " + text +
               ": the geometric stiffness reads the last step's multipliers, which are not in "
               "the checkpoint";
    }
  if (scene.given("mapped.composite-loads"))
    return std::string("mapped.composite-loads: HexahedronCompositeFEMMapping's forces turn by ") +
           "the cells' frames of the step before, which are not in the checkpoint";
  if (scene.given("lagrange.bilateral"))
    for (const std::string& text : scene.texts("lagrange.bilateral")) {
      const Texts words = parse::tokens(text);
      const auto points = std::find(words.begin(), words.end(), "points");
      if (std::find(points, words.end(), "moving") != words.end())
        return "lagrange.bilateral = " + text +
               ": moving points project one step late, from a state not in the checkpoint";
    }
  return "";
}

}  // namespace

// The checkpoint, if any, is chosen first: a restart takes every body's state from it, and
// initial.state applies only to a fresh start.
void Simulation::setInitialStates() {
  const std::string restart = restartCheckpoint(
      scene(), comm_, [&](const std::string& path) { return checkpointProblem(path); },
      [&](const std::string& warning) {
        report("euler-implicit: warning: %s\n", warning.c_str());
      });
  for (const auto& body : bodies_)
    if (const std::string unsaved = stateNotInCheckpoint(body->scene);
        !restart.empty() && !unsaved.empty())
      throw Error("initial.restart = " + restart + ": " +
                  (body->path.empty() ? "" : "body " + body->path + ": ") + unsaved +
                  ", so a restart would differ from the run that wrote it (start afresh instead)");
  const std::string initial = scene().optionalText("initial.state");
  const bool checkpoint = !restart.empty() || (!initial.empty() && isHdf5File(initial, comm_));
  std::vector<NodalTable> tables;
  if (!initial.empty() && !checkpoint) {
    if (bodies_.size() == 1)
      tables.push_back(readStateCsv(initial, physicsOf(scene()), comm_));
    else
      tables = readObjectStates(initial);
  }
  for (std::size_t b = 0; b < bodies_.size(); ++b)
    setInitialState(*bodies_[b], tables.empty() ? nullptr : &tables[b], initial);
  if (!restart.empty()) {
    readCheckpoint("initial.restart", restart, true);
    resumed_ = true;
  } else if (checkpoint) {
    readCheckpoint("initial.state", initial, true);
  }
}

// At rest, or the scene's initial state; fixed nodes never move, so their velocity is zero
// from the start, and SOFA-rule motions take it as their x0 and project it at t = 0.
void Simulation::setInitialState(Body& body, const NodalTable* table, const std::string& path) {
  body.system->setRestState(body.x);
  EIS_CHECK(VecZeroEntries(body.v));
  if (table) {
    body.initial = std::make_unique<NodalTable>(*table);
    applyState(*body.initial, path, *body.mesh, body.x, body.v);
  }
  applyInitialValues(body.scene, *body.mesh, body.x, body.v);
  body.system->projectResponse(body.v);
  body.system->setTime(time_, dt_);
  body.system->startMotion(body.x, body.v);
}

// The file holds the bodies' rows in its `object` column: each body takes its own, and rows of
// an object the scene does not have mean the file belongs to another scene.
std::vector<NodalTable> Simulation::readObjectStates(const std::string& path) {
  std::vector<ObjectState> objects = readObjectStatesCsv(path, physicsOf(scene()), comm_);
  const auto named = [&](const std::string& object) {
    return std::find_if(objects.begin(), objects.end(),
                        [&](const ObjectState& state) { return state.path == object; });
  };
  std::string scenePaths, filePaths;
  for (const auto& body : bodies_) scenePaths += (scenePaths.empty() ? "" : ", ") + body->path;
  for (const ObjectState& object : objects)
    filePaths += (filePaths.empty() ? "" : ", ") + object.path;
  for (const ObjectState& object : objects)
    if (std::none_of(bodies_.begin(), bodies_.end(),
                     [&](const auto& body) { return body->path == object.path; }))
      throw Error("initial.state = " + path + ": rows of object " + object.path +
                  ", which is no body of this scene (its bodies: " + scenePaths + ")");
  std::vector<NodalTable> tables;
  for (const auto& body : bodies_) {
    const auto it = named(body->path);
    if (it == objects.end())
      throw Error("initial.state = " + path + ": no rows of body " + body->path +
                  " (the file's objects: " + filePaths + ")");
    tables.push_back(std::move(it->state));
  }
  return tables;
}

std::string Simulation::bodiesDiffer(const std::vector<CheckpointBody>& file) const {
  std::vector<CheckpointBody> ours;
  // The scene records are compared by readCheckpoint, key by key.
  for (const auto& body : bodies_)
    ours.push_back(
        {body->path, naturalNodeCount(*body->mesh), body->mesh->dofsPerNode(), "", "", ""});
  if (file.size() != ours.size())
    return "the checkpoint holds " + std::to_string(file.size()) + " bodies (" + listed(file) +
           "), the scene " + std::to_string(ours.size()) + " (" + listed(ours) + ")";
  for (std::size_t k = 0; k < ours.size(); ++k) {
    if (file[k].path != ours[k].path)
      return "body " + std::to_string(k + 1) + " is " + listed({file[k]}) +
             " in the checkpoint but " + listed({ours[k]}) + " in the scene";
    // One body of a run of one: the reader's own check says it, as it always has.
    if (ours[k].path.empty()) continue;
    if (file[k].nodes != ours[k].nodes || file[k].dofs != ours[k].dofs)
      return "body " + ours[k].path + " has " + std::to_string(file[k].nodes) + " nodes of " +
             std::to_string(file[k].dofs) + " unknowns in the checkpoint, " +
             std::to_string(ours[k].nodes) + " of " + std::to_string(ours[k].dofs) +
             " in the scene (another mesh or physics?)";
  }
  return "";
}

void Simulation::readCheckpoint(const std::string& key, const std::string& path, bool apply) {
  CheckpointReader reader(key, path, comm_);
  if (const std::string differ = bodiesDiffer(reader.bodies()); !differ.empty())
    throw Error(key + " = " + path + ": " + differ);
  // A restart continues the run that wrote the checkpoint: one of another scene (another
  // material, another chain's run in the same folder) is refused, unless initial.restart-force,
  // once select() has said whether it is another mesh. Only when loading: --restart=auto's
  // search skips damaged files, and an older checkpoint of the same prefix is of the same
  // scene, so the newest readable one is refused by name. initial.state takes any run's state.
  const bool restart = apply && key == "initial.restart";
  const bool force = scene().boolean("initial.restart-force");
  // What a controller changed that an older build's checkpoint does not hold (a force, stiffness
  // factors, the root's dt, since added to format 1): the scene's values would return and the
  // run silently differ from the one that wrote it.
  if (restart && !reader.changed().empty())
    throw Error(key + " = " + path + ": a Python controller changed " + reader.changed() +
                " during the run that wrote it, which the checkpoint does not hold, so a "
                "restart would differ from that run (start afresh instead)");
  // A dt a controller set for the steps after the checkpoint makes the next step's matrix
  // another: the run that wrote it started that solve's projected guess afresh (KSPGuess's rule,
  // with the preconditioner set up again), so the pairs of the old matrix are not handed back.
  const ControllerDt& dt = reader.controllerDt();
  const double nextDt = dt.next > 0 ? dt.next : dt.root > 0 ? dt.root : dt.dt;
  const bool newMatrix = restart && dt.stored && nextDt != dt.dt;
  bool unrecorded = false;
  for (std::size_t b = 0; b < bodies_.size(); ++b) {
    Body& body = *bodies_[b];
    reader.select(b, *body.mesh, body.x);
    const std::string& recorded = reader.bodies()[b].scene;
    unrecorded = unrecorded || (restart && recorded.empty());
    const std::string differ =
        !restart || recorded.empty()
            ? ""
            : checkpointSceneDifference(recorded, checkpointSceneText(body.scene));
    if (!differ.empty()) {
      const std::string what = key + " = " + path + ": written by another scene: " +
                               (body.path.empty() ? "" : "body " + body.path + ": ") + differ;
      if (!force) throw Error(what + " (--restart-force loads it anyway)");
      report("euler-implicit: warning: %s; loaded anyway (--restart-force)\n", what.c_str());
    }
    Vec scratch = nullptr;
    bool whole = false;
    try {
      if (!apply) EIS_CHECK(VecDuplicate(body.x, &scratch));
      whole = reader.load("positions", apply ? body.x : scratch) &&
              reader.load("velocities", apply ? body.v : scratch);
      // The integrator's vectors are not touched when only checking (the callback ignores
      // them); Newton's "have a previous velocity" flag is set, but the load that follows sets
      // it again.
      body.integrator->loadCarried([&](const std::string& name, Vec vector) {
        if (newMatrix && name.find(".projection.") != std::string::npos) return false;
        return reader.load(name, apply ? vector : scratch);
      });
    } catch (const Error&) {
      VecDestroy(&scratch);
      throw;
    }
    if (scratch) EIS_CHECK(VecDestroy(&scratch));
    if (!whole)
      throw Error(key + " = " + path + ": the checkpoint has no positions or no velocities" +
                  (body.path.empty() ? std::string() : " of body " + body.path));
    if (apply) body.initial = std::make_unique<NodalTable>(reader.unusedNodes());
    const std::string where = key + " = " + path + (body.path.empty() ? "" : ": body " + body.path);
    if (restart && !reader.bodies()[b].forces.empty())
      restoreLoads(b, reader.bodies()[b].forces, where);
    if (restart && !reader.bodies()[b].factors.empty())
      restoreFactors(b, reader.bodies()[b].factors, where);
  }
  if (unrecorded)
    report(
        "euler-implicit: warning: %s = %s: written before checkpoints recorded their scene; "
        "not checked against this one\n",
        key.c_str(), path.c_str());
  if (!apply) return;
  startStep_ = step_ = reader.clock().step;
  startTime_ = time_ = reader.clock().time;
  clock_ = startClock_ = reader.clock().clock;
  // The dt a controller left: the run that wrote it went on with the step's end event, which
  // settles a dt set during the step (settleDt); the restart starts after it.
  if (restart) {
    restartPath_ = path;
    restartControllers_ = reader.controllerRecord();
    restartDt_ = dt;
  }
  if (restart && dt.stored) {
    dt_ = dt.dt;
    nextDt_ = dt.next;
    rootDt_ = dt.root;
    dtChanged_ = true;
    settleDt();
  }
  report("%s: %s, step %d, t = %g\n", key.c_str(), path.c_str(), step_, time_);
}

// The checkpoint is opened and checked by the reader a load uses, and every dataset a load
// reads is read once, into a scratch vector: a damaged file is found before it has changed x,
// v or the integrator.
std::string Simulation::checkpointProblem(const std::string& path) {
  std::string problem;
  try {
    readCheckpoint("initial.restart", path, false);
  } catch (const Error& e) {
    problem = e.what();
  }
  // The reader's checks are collective already; a dataset that fails to load on some ranks
  // only is made everyone's verdict here.
  try {
    throwIfAnyRankFailed(problem, comm_);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace eis
