// topology.changes (io/topology_changes.hpp): SOFA's TopologicalChangeProcessor. At the start of
// a step (SOFA's AnimateBeginEvent, before the solve) the due removals are applied to the
// body's cells in SOFA's numbering (mesh/cell_removal.hpp), and the body is rebuilt on what is
// left, as an inline mesh of its rest positions: mesh, partition, mass, force fields,
// constraint and matrix, as SOFA's topology handlers leave them (DiagonalMass loses the removed
// cells' share, UniformMass keeps its vertex mass, TetrahedronFEMForceField and its corotational
// form, HexahedronFEMForceField and HexahedralFEMForceField lose the cells);
// position and velocity follow the nodes to their new numbers.
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <set>
#include <sstream>

#include "eis/app/scene_builder.hpp"
#include "eis/app/simulation.hpp"
#include "eis/core/error.hpp"
#include "eis/core/mpi_chunks.hpp"
#include "eis/io/state_csv.hpp"
#include "eis/mesh/cell_removal.hpp"
#include "eis/mesh/mesh_source.hpp"
#include "eis/model/mass.hpp"
#include "eis/model/physics.hpp"

namespace eis {

namespace {

// The keys a body with topology changes may give: what a rebuild from its rest positions
// reproduces. Any other is refused at set-up, by name.
bool allowedWithChanges(const std::string& key) {
  static const char* const prefixes[] = {"mesh.",
                                         "physics.",
                                         "mass.type",
                                         "mass.vertex-mass",
                                         "mass.total-mass",
                                         "material.",
                                         "load.gravity",
                                         "damping.",
                                         "solver.",
                                         "constraint.fixed",
                                         "constraint.partial-fixed",
                                         "constraint.linear-movement-rule",
                                         "initial.state",
                                         "initial.positions",
                                         "initial.velocities",
                                         "lagrange.",
                                         "output.final-state",
                                         "output.every",
                                         "output.progress-every",
                                         "scene.",
                                         "topology."};
  static const std::set<std::string> refused = {"mesh.refine",
                                                "mesh.convert",
                                                "mesh.triangles",
                                                "mesh.quadrangles",
                                                "mesh.edges",
                                                "material.region",
                                                "material.cell-young-modulus",
                                                "material.cell-poisson-ratio",
                                                "material.cell-stiffness-factor",
                                                "material.virtual-finer-levels",
                                                "material.cell-finer-stiffness-factor",
                                                "solver.group",
                                                "constraint.fixed-group"};
  if (refused.count(key)) return false;
  for (const char* prefix : prefixes)
    if (key.rfind(prefix, 0) == 0) return true;
  return false;
}

// A selection's "indices I J .." renamed to the nodes' new numbers, the removed ones dropped;
// "" when none is left (the key is then cleared: it fixes nothing, as SOFA's empty indices).
std::string renumberedSelection(const std::string& value, const std::vector<std::int64_t>& newOf) {
  std::istringstream words(value);
  std::vector<std::string> tokens;
  for (std::string w; words >> w;) tokens.push_back(w);
  std::string out;
  bool inIndices = false, any = false;
  for (const std::string& token : tokens) {
    if (token == "indices") {
      inIndices = true;
      out += (out.empty() ? "" : " ") + token;
      continue;
    }
    if (inIndices) {
      const std::int64_t old = std::stoll(token);
      if (old < 0 || old >= std::int64_t(newOf.size()) || newOf[std::size_t(old)] < 0) continue;
      out += " " + std::to_string(newOf[std::size_t(old)]);
      any = true;
      continue;
    }
    out += (out.empty() ? "" : " ") + token;
  }
  return inIndices && !any ? "" : out;
}

std::string broadcastText(std::string text, MPI_Comm comm) {
  std::int64_t size = std::int64_t(text.size());
  EIS_CHECK_MPI(MPI_Bcast(&size, 1, MPI_INT64_T, 0, comm));
  text.resize(std::size_t(size));
  broadcastInPieces(text.data(), size, MPI_CHAR, 0, comm);
  return text;
}

void broadcastTable(NodalTable& table, MPI_Comm comm) {
  std::int64_t sizes[2] = {std::int64_t(table.ids.size()), table.width};
  EIS_CHECK_MPI(MPI_Bcast(sizes, 2, MPI_INT64_T, 0, comm));
  table.width = int(sizes[1]);
  table.ids.resize(std::size_t(sizes[0]));
  table.values.resize(std::size_t(sizes[0] * sizes[1]));
  broadcastInPieces(table.ids.data(), sizes[0], MPI_INT64_T, 0, comm);
  broadcastInPieces(table.values.data(), sizes[0] * sizes[1], MPI_DOUBLE, 0, comm);
}

// The cells (`corners` points each) and points after every removal of `event`, applied in the
// file's order.
CellRemoval applyEvent(const TopologyEvent& event, std::vector<std::int64_t> cells, int corners,
                       std::int64_t points, const std::string& where) {
  CellRemoval all{std::move(cells), {}, {}};
  all.oldPoint.resize(std::size_t(points));
  for (std::int64_t p = 0; p < points; ++p) all.oldPoint[std::size_t(p)] = p;
  for (const auto& removal : event.removals) {
    CellRemoval step;
    try {
      step = removeCells(all.cells, corners, std::int64_t(all.oldPoint.size()), removal);
    } catch (const Error& e) {
      throw Error(where + ": " + e.what());
    }
    for (std::int64_t& p : step.oldPoint) p = all.oldPoint[std::size_t(p)];
    all.cells = std::move(step.cells);
    all.oldPoint = std::move(step.oldPoint);
  }
  return all;
}

std::string eventWhere(const Scene& scene, const TopologyEvent& event) {
  return "topology.changes = " + scene.text("topology.changes") + ":" + std::to_string(event.line) +
         " (T= " +
         [&] {
           char t[32];
           std::snprintf(t, sizeof t, "%g", event.time);
           return std::string(t);
         }() +
         ")";
}

}  // namespace

void Simulation::prepareTopologyChanges() {
  for (auto& owned : bodies_) {
    Body& body = *owned;
    if (!body.scene.given("topology.changes")) continue;
    const std::string prefix = "topology.changes" + (body.path.empty() ? "" : " of " + body.path);
    // A checkpoint's step and time are known here (setInitialStates); its mesh would be the
    // one of the last change, which a checkpoint does not record.
    if (step_ != 0)
      throw Error(prefix + ": a run that starts from a checkpoint (step " + std::to_string(step_) +
                  ") is not supported with topology changes");
    std::vector<TopologyEvent> events =
        readTopologyChanges(body.scene.text("topology.changes"), comm_);
    // The first step an event falls at, with SOFA's clock: a run that ends before it changes
    // nothing, and what the changes cannot carry is refused only when the run reaches one.
    TopologySchedule probe(events);
    const TopologyEvent* first = nullptr;
    int firstStep = step_ + 1;
    for (double clock = time_; firstStep <= steps_; ++firstStep, clock += dt_)
      if ((first = probe.due(clock))) break;
    if (!first) {
      report("note: %s: no event falls within the run's %d steps; nothing changes\n",
             prefix.c_str(), steps_);
      continue;
    }
    const std::string until = " (its first event, " + eventWhere(body.scene, *first) +
                              ", falls at step " + std::to_string(firstStep) +
                              ": a run of at most " + std::to_string(firstStep - 1) +
                              " steps ends before it)";
    for (const ParameterDeclaration& d : body.scene.spec().declarations())
      if (body.scene.given(d.key) && !allowedWithChanges(d.key))
        throw Error(prefix + ": " + d.key +
                    " is not supported on a body whose cells are removed during the run" + until);
    for (const char* key : {"constraint.fixed", "constraint.partial-fixed"})
      if (body.scene.given(key) && body.scene.text(key).find("group") != std::string::npos)
        throw Error(prefix + ": " + key + " = " + body.scene.text(key) +
                    ": a physical group is not carried through topology changes" + until);
    if (physicsOf(body.scene) != Physics::Elasticity)
      throw Error(prefix + ": physics.type = diffusion is not supported with topology changes" +
                  until);
    if (body.coupled)
      throw Error(prefix + ": a body of a coupled group is not supported with topology changes" +
                  until);
    if (body.mesh->cellType() != CellType::Tetrahedron &&
        body.mesh->cellType() != CellType::Hexahedron)
      throw Error(prefix +
                  ": the body's cells are neither tetrahedra nor hexahedra; only the removal of "
                  "those is supported (SOFA's of triangles and quadrangles is not yet)" +
                  until);
    // MeshMatrixMass (consistent) takes a removed cell's mass off at its current volume unless
    // computeMassOnRest (false by default), which a rebuild from the rest shape would not.
    if (body.scene.text("mass.type") != "lumped" && body.scene.text("mass.type") != "uniform")
      throw Error(prefix + ": mass.type = " + body.scene.text("mass.type") +
                  " is not supported with topology changes (lumped, SOFA's DiagonalMass, and "
                  "uniform, its UniformMass, are)" +
                  until);
    // SOFA's masses keep their density (DiagonalMass, MeshMatrixMass: the removed cells' share
    // goes) or their vertex mass (UniformMass, without preserveTotalMass) through a removal: a
    // total mass becomes the density or vertex mass it gives now, so that no rebuild shares it
    // out again.
    const double coefficient =
        massCoefficientOf(readMassParameters(body.scene), Physics::Elasticity, *body.mesh);
    const std::string kept =
        body.scene.text("mass.type") == "uniform" ? "mass.vertex-mass" : "material.density";
    char value[32];
    std::snprintf(value, sizeof value, "%.17g", coefficient);
    body.scene.clear("mass.total-mass");
    body.scene.clear("mass.total-mass-by-cells");
    body.scene.clear(kept);
    body.scene.set(kept, value);
    body.topology = std::make_unique<TopologySchedule>(std::move(events));
    // The run's events applied in advance on rank 0, so that an event asking what is not
    // supported, a cell listed twice, or a removal that would leave the body without cells
    // fails here rather than mid-run.
    std::vector<std::string> warnings;
    const SerialMesh serial =
        loadSerialMesh(readMeshSourceParameters(body.scene), 3, comm_, warnings);
    std::string failure;
    if (commRank(comm_) == 0) {
      TopologySchedule dry(body.topology->events());
      std::vector<std::int64_t> cells = serial.cells.flat();
      std::int64_t points = std::int64_t(serial.nodes.size());
      double clock = time_;
      try {
        for (int step = step_ + 1; step <= steps_; ++step, clock += dt_) {
          const TopologyEvent* event = dry.due(clock);
          if (!event) continue;
          const std::string before = " (it falls at step " + std::to_string(step) +
                                     ": a run of at most " + std::to_string(step - 1) +
                                     " steps ends before it)";
          if (!event->unsupported.empty())
            throw Error(event->unsupported +
                        " is not supported; only REMOVE= of tetrahedra or hexahedra is" + before);
          CellRemoval left = applyEvent(*event, std::move(cells), serial.cells.corners(), points,
                                        eventWhere(body.scene, *event));
          if (left.cells.empty())
            throw Error(eventWhere(body.scene, *event) + ": removes the last cell of " +
                        (body.path.empty() ? "the body" : body.path) +
                        "; a body without cells is not supported" + before);
          cells = std::move(left.cells);
          points = std::int64_t(left.oldPoint.size());
        }
      } catch (const Error& e) {
        failure = e.what();
      }
    }
    throwIfAnyRankFailed(failure, comm_);
  }
}

void Simulation::applyTopologyChanges(double clock) {
  for (auto& owned : bodies_) {
    Body& body = *owned;
    if (!body.topology) continue;
    const TopologyEvent* event = body.topology->due(clock);
    if (!event) continue;
    // The state as it is, in the input's numbering, on rank 0; the cells and rest positions
    // the body was built from.
    NodalTable state = eis::gatherState(*body.mesh, body.x, body.v, body.initial.get());
    std::vector<std::string> warnings;
    const SerialMesh serial =
        loadSerialMesh(readMeshSourceParameters(body.scene), 3, comm_, warnings);
    std::string nodes, cells, failure;
    NodalTable carried;
    carried.width = state.width;
    std::vector<std::int64_t> newOf;
    if (commRank(comm_) == 0) {
      try {
        const CellRemoval left =
            applyEvent(*event, serial.cells.flat(), serial.cells.corners(),
                       std::int64_t(serial.nodes.size()), eventWhere(body.scene, *event));
        std::ostringstream n, c;
        n.precision(17);
        newOf.assign(serial.nodes.size(), -1);
        for (std::size_t i = 0; i < left.oldPoint.size(); ++i) {
          const std::int64_t old = left.oldPoint[i];
          newOf[std::size_t(old)] = std::int64_t(i);
          const auto& p = serial.nodes[std::size_t(old)];
          n << (i ? " " : "") << p[0] << ' ' << p[1] << ' ' << p[2];
          carried.ids.push_back(std::int64_t(i));
          const double* row = state.find(old);
          carried.values.insert(carried.values.end(), row, row + state.width);
        }
        for (std::size_t i = 0; i < left.cells.size(); ++i) c << (i ? " " : "") << left.cells[i];
        nodes = n.str();
        cells = c.str();
      } catch (const Error& e) {
        failure = e.what();
      }
    }
    throwIfAnyRankFailed(failure, comm_);
    nodes = broadcastText(std::move(nodes), comm_);
    cells = broadcastText(std::move(cells), comm_);
    broadcastTable(carried, comm_);
    std::int64_t points = std::int64_t(newOf.size());
    EIS_CHECK_MPI(MPI_Bcast(&points, 1, MPI_INT64_T, 0, comm_));
    newOf.resize(std::size_t(points));
    broadcastInPieces(newOf.data(), points, MPI_INT64_T, 0, comm_);

    // The body's scene on the reduced mesh: an inline mesh of the rest positions (moved as the
    // file's were), its fixed indices renamed as SOFA's TopologySubsetIndices renames them.
    for (const char* key : {"mesh.file", "mesh.transform", "mesh.file-cells", "mesh.box-size",
                            "mesh.box-cells", "mesh.cell-type"})
      body.scene.clear(key);
    const char* cellKey =
        serial.cells.type() == CellType::Hexahedron ? "mesh.hexahedra" : "mesh.tetrahedra";
    body.scene.clear("mesh.nodes");
    body.scene.clear(cellKey);
    body.scene.set("mesh.nodes", nodes);
    body.scene.set(cellKey, cells);
    for (const char* key : {"constraint.fixed", "constraint.partial-fixed"}) {
      if (!body.scene.given(key)) continue;
      const std::string value = renumberedSelection(body.scene.text(key), newOf);
      body.scene.clear(key);
      if (!value.empty()) body.scene.set(key, value);
    }
    report("topology change%s%s at t = %.17g (%s): rebuilt on what is left\n",
           body.path.empty() ? "" : " of ", body.path.c_str(), clock,
           eventWhere(body.scene, *event).c_str());
    for (Vec* u : {&body.x, &body.v, &body.restCoordinates, &body.x0, &body.v0}) VecDestroy(u);
    body.integrator.reset();
    body.system.reset();
    body.mesh.reset();
    std::vector<std::vector<std::string>> meshWarnings(1);
    std::vector<std::unique_ptr<DistributedMesh>> meshes =
        buildMeshes({&body.scene}, comm_, meshWarnings);
    buildBody(body, std::move(meshes.front()), meshWarnings.front());
    body.system->setRestState(body.x);
    EIS_CHECK(VecZeroEntries(body.v));
    body.initial = std::make_unique<NodalTable>(std::move(carried));
    applyState(*body.initial, "the state carried through the topology change", *body.mesh, body.x,
               body.v);
    body.system->setTime(clock, dt_);
  }
}

}  // namespace eis
