// SOFA's QuadBendingSprings (SolidMechanics/Spring/QuadBendingSprings.inl, a SpringForceField)
// and QuadularBendingSprings (QuadularBendingSprings.inl) as the keys of our
// quad-bending-springs (model/quad_bending_springs.cpp): on the quadrangles of a flat grid
// (GridTopology::updateQuads, io/sofa_grid), or on those a Hexa2QuadTopologicalMapping makes of
// the body's hexahedra (io/sofa_boundary_faces). A body may then also have
// TriangularBendingSprings (triangular-bending-springs' keys).
#include <array>
#include <string>
#include <vector>

#include "eis/core/parameters.hpp"
#include "eis/model/quad_bending_springs.hpp"
#include "sofa_boundary_faces.hpp"
#include "sofa_grid.hpp"
#include "sofa_reader.hpp"

namespace eis::sofa {

namespace {

bool isGrid(const std::string& type) {
  return type == "RegularGridTopology" || type == "GridTopology" ||
         type == "CylinderGridTopology" || type == "SphereGridTopology";
}

// The grid whose quadrangles `o` reads: its topology, or a QuadSetTopologyContainer that takes a
// grid's quads (src="@grid" or quads="@grid.quads", in the grid's order); nullptr when neither.
const SofaObject* quadGrid(Reader& r, const SofaObject& o) {
  const SofaObject* topology = o.field("topology") ? r.linked(o, "topology") : topologyOf(o.node);
  if (topology && topology->type == "QuadSetTopologyContainer")
    if (const SofaObject* source = r.linked(*topology, "quads"); source && isGrid(source->type))
      return source;
  return topology && isGrid(topology->type) ? topology : nullptr;
}

// A flat grid's quadrangles for `o`: refused on a grid of another dimension.
std::vector<std::array<long long, 4>> flatGridQuads(Reader& r, const SofaObject& o,
                                                    const SofaObject& topology) {
  const RegularGrid grid = regularGrid(r, topology);
  if (grid.dimension() != 2)
    r.reject(o, "stiffness",
             "supported on the quadrangles of a grid of one point along an axis; " +
                 topology.label() + " is a grid of " + std::to_string(grid.dimension()) +
                 "D cells");
  return grid.quads;
}

// The springs join vertices that share no cell, so they have no element matrix: the step's
// operator is matrix-free, as SOFA's CGLinearSolver's (a GraphScatteredMatrix) is.
void matrixFree(Reader& r, const SofaObject& o) {
  if (r.gave("solver.operator")) return;
  r.key("solver.operator", "matrix-free");
  r.note(o.type + ": the step's matrix is matrix-free (its springs lie in no cell)");
}

// The quadrangles as quad-bending.quadrangles, and how many springs SOFA's pairing makes of them.
void quadrangles(Reader& r, const SofaObject& o, const std::vector<std::array<long long, 4>>& quads,
                 bool quadular) {
  std::string ids;
  std::vector<QuadIds> list;
  for (const auto& q : quads) {
    for (long long v : q) ids += (ids.empty() ? "" : " ") + std::to_string(v);
    list.push_back({q[0], q[1], q[2], q[3]});
  }
  r.key("quad-bending.quadrangles", ids);
  const std::size_t springs = quadular ? quadularPairs(list).size() : quadBendingPairs(list).size();
  r.note(o.label() + ": " + std::to_string(springs) + " springs across " +
         std::to_string(quads.size()) + " quadrangles");
}

// The quadrangles of a Hexa2QuadTopologicalMapping: a grid's written out in SOFA's order, a
// HexahedronSetTopologyContainer's the body's boundary (mesh/boundary_faces).
void mappedQuadrangles(Reader& r, const SofaObject& o) {
  if (const auto grid = gridBoundaryQuads(r, o))
    quadrangles(r, o, *grid, o.type == "QuadularBendingSprings");
  else
    r.key("quad-bending.faces", quadFacesOf(r, o, "stiffness"));
}

void stiffnessAndDamping(Reader& r, const SofaObject& o, double ks, double kd) {
  if (r.real(o, "rayleighStiffness", 0) != 0)
    r.reject(o, "rayleighStiffness", "a force field's own Rayleigh damping is not supported");
  if (ks < 0) r.reject(o, "stiffness", "must be >= 0");
  if (kd < 0) r.reject(o, "damping", "must be >= 0");
  if (r.gave("quad-bending.stiffness"))
    r.reject(o, "stiffness",
             "a second QuadBendingSprings or QuadularBendingSprings on one body is not supported");
  r.key("quad-bending.stiffness", parse::text(ks));
  r.key("quad-bending.damping", parse::text(kd));
}

// QuadBendingSprings::init: the springs of its topology's quadrangles, each with the first
// value of SpringForceField's stiffness (100) and damping (5); rest length the distance at
// init. Each added spring rewrites SpringForceField's per-spring lists from its own values
// (updateTopologyIndicesFromSprings_springAdded), so lengths, elongationOnly and enabled written
// in the scene are overwritten, not used: ignored here too, with a warning. Its own springs
// (spring, fileSprings; indices1/2, whose first entries would survive) are refused; localRange
// drops some: refused.
void mapQuadBendingSprings(Reader& r, const SofaObject& o) {
  for (const char* field :
       {"spring", "indices1", "indices2", "springsIndices1", "springsIndices2", "fileSprings"})
    r.refuseIfGiven(o, field,
                    "springs of SpringForceField's own beside the bending springs are "
                    "not supported");
  for (const char* field : {"lengths", "length", "elongationOnly", "enabled"})
    if (r.given(o, field))
      r.warn(o.label() + ": " + field +
             " ignored: SOFA overwrites it with the bending springs' own values");
  const std::vector<long long> range = r.integers(o, "localRange");
  if (!range.empty() && (range.size() != 2 || range[0] >= 0 || range[1] >= 0))
    r.reject(o, "localRange", "a range of the springs is not supported (-1 -1 is)");
  const std::vector<double> ks = r.reals(o, "stiffness"), kd = r.reals(o, "damping");
  stiffnessAndDamping(r, o, ks.empty() ? 100.0 : ks[0], kd.empty() ? 5.0 : kd[0]);
  r.key("quad-bending.law", "quad");

  if (const SofaObject* grid = quadGrid(r, o)) {
    quadrangles(r, o, flatGridQuads(r, o, *grid), false);
  } else {
    if (!filledByHexa2Quad(r, o))
      r.reject(o, "stiffness",
               "supported on the quadrangles of a grid of one point along an axis, or on those a "
               "Hexa2QuadTopologicalMapping makes of the body's hexahedra");
    mappedQuadrangles(r, o);
  }
  matrixFree(r, o);
}

// QuadularBendingSprings.inl: stiffness 100000, damping 1, two springs across each edge two
// quadrangles share, TriangularBendingSprings' law; here on a flat grid's quadrangles or a
// Hexa2QuadTopologicalMapping's.
void mapQuadularBendingSprings(Reader& r, const SofaObject& o) {
  stiffnessAndDamping(r, o, r.real(o, "stiffness", 100000.0), r.real(o, "damping", 1.0));
  r.key("quad-bending.law", "quadular");
  const SofaObject* grid = quadGrid(r, o);
  if (grid && regularGrid(r, *grid).dimension() == 2)
    quadrangles(r, o, flatGridQuads(r, o, *grid), true);
  else
    mappedQuadrangles(r, o);
  matrixFree(r, o);
}

}  // namespace

const RegisterSofaMapping quadBendingSprings({"QuadBendingSprings"}, mapQuadBendingSprings);
const RegisterSofaMapping quadularBendingSprings({"QuadularBendingSprings"},
                                                 mapQuadularBendingSprings);

}  // namespace eis::sofa
