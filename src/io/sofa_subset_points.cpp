// The points a SubsetMapping or IdentityMapping selects from a body's state
// (io/sofa_subset_points.hpp).
#include "sofa_subset_points.hpp"

#include <array>
#include <string>

#include "eis/core/error.hpp"
#include "eis/model/child_mapping.hpp"
#include "sofa_grid.hpp"
#include "sofa_grid_mapper.hpp"
#include "sofa_grid_mesh.hpp"
#include "sofa_mapped_child.hpp"
#include "sofa_selections.hpp"
#include "sofa_subset_topology.hpp"
#include "sofa_walk.hpp"

namespace eis::sofa {

namespace {

// The body's points as SOFA has them when the mapping initialises.
std::vector<std::array<double, 3>> bodyPoints(const Reader& r, const SofaObject& body,
                                              const SofaObject& mapping) {
  std::vector<double> xyz;
  if (const std::optional<std::vector<double>> grid = linkedGridPoints(r, body, "position")) {
    xyz = *grid;
  } else if (body.field("position") && !r.linked(body, "position")) {
    xyz = r.reals(body, "position");
  } else if (const SofaObject* grid = topologyOf(body.node);
             !body.field("position") && grid && grid->type == "RegularGridTopology") {
    for (const auto& p : regularGrid(r, *grid, true).points)
      xyz.insert(xyz.end(), p.begin(), p.end());
  } else {
    r.reject(mapping, "indices",
             "a BoxROI's selection is read on the points of " + body.label() +
                 " written in its position or given by a RegularGridTopology; not these");
  }
  std::vector<std::array<double, 3>> points;
  for (std::size_t i = 0; i + 2 < xyz.size(); i += 3)
    points.push_back({xyz[i], xyz[i + 1], xyz[i + 2]});
  return points;
}

// BoxROI's indices on the body's points.
std::vector<long long> boxIndices(const Reader& r, const SofaObject& roi, const SofaObject& body,
                                  const SofaObject& mapping) {
  r.refuseIfGiven(roi, "orientedBox", "an oriented box selecting a SubsetMapping's points");
  std::string positionField;
  if (r.linked(roi, "position", &positionField) != &body ||
      (positionField != "position" && positionField != "rest_position"))
    r.reject(roi, "position",
             "a BoxROI selecting a SubsetMapping's points must test its input's points (\"@" +
                 body.label() + ".position\")");
  const std::vector<std::array<double, 6>> boxes = alignedBoxes(r, roi);
  const std::vector<std::array<double, 3>> points = bodyPoints(r, body, mapping);
  std::vector<long long> indices;
  for (std::size_t i = 0; i < points.size(); ++i)
    if (inAlignedBoxes(boxes, points[i])) indices.push_back(static_cast<long long>(i));
  return indices;
}

// The points of a state a BarycentricMapping drives, as MechanicalObject::init leaves them when
// the mapper reads them: its position (written, or a SubsetTopology's points it links to), or,
// when that holds one point at most and its velocity too, those of the topology of its node
// (likewise written or linked).
std::vector<double> mappedStatePoints(Reader& r, const SofaObject& state) {
  for (const char* field : {"translation", "rotation", "scale3d", "dx", "dy", "dz", "rx", "ry",
                            "rz", "sx", "sy", "sz", "rest_position"})
    r.refuseIfGiven(state, field,
                    "the points a spring reaches through a BarycentricMapping are read as "
                    "written, not moved");
  const auto pointsOf = [&](const SofaObject& o) -> std::vector<double> {
    if (const auto linked = linkedSubsetPoints(r, o, "position")) {
      std::vector<double> xyz;
      for (const auto& p : *linked) xyz.insert(xyz.end(), p.begin(), p.end());
      return xyz;
    }
    if (o.field("position") && r.linked(o, "position") && !r.text(o, "position"))
      r.reject(o, "position",
               "a link to points SOFA computes (other than a SubsetTopology's) is not supported "
               "for the points a BarycentricMapping drives");
    return r.reals(o, "position");
  };
  std::vector<double> points = pointsOf(state);
  const SofaObject* topology = topologyOf(state.node);
  if (points.size() <= 3 && r.reals(state, "velocity").size() <= 3 && topology &&
      topology->node == state.node && !isSparseGrid(topology->type) &&
      topology->type.find("GridTopology") == std::string::npos && topology->field("position"))
    points = pointsOf(*topology);
  if (points.empty())
    r.reject(state, "position",
             "the points of a state a BarycentricMapping drives must be written (on it or on "
             "the topology of its node) for springs to reach them");
  if (points.size() % 3 != 0) r.reject(state, "position", "expected X Y Z for each point");
  return points;
}

// The body points and weights of each point of `state`, which `mapping` (a BarycentricMapping)
// drives from `body`, on a RegularGridTopology or a sparse grid: the cube regularGridCubes or
// sparseGridCubes finds and trilinear weights on its corners (SOFA's hexahedron order, as the
// grid's hexahedra list them).
std::vector<std::vector<std::pair<long long, double>>> gridWeights(Reader& r,
                                                                   const SofaObject& state,
                                                                   const SofaObject& mapping,
                                                                   const SofaObject& body) {
  checkMechanicalMapping(r, mapping);
  if (r.boolean(mapping, "useRestPosition", false))
    r.reject(mapping, "useRestPosition",
             "locating the points at the rest positions is not supported");
  const std::vector<double> points = mappedStatePoints(r, state);
  const SofaObject& topology = *topologyOf(body.node);
  std::vector<std::array<long long, 8>> hexahedra;
  std::string cubeText;
  if (isSparseGrid(topology.type)) {
    const SparseGrid grid = sceneSparseGrid(r, topology);
    hexahedra = grid.hexahedra;
    cubeText = sparseGridCubes(grid, points);
  } else {
    const RegularGrid grid = regularGrid(r, topology);
    if (grid.dimension() != 3)
      r.reject(mapping, "input", "a grid of fewer than two points along an axis has no cubes");
    hexahedra = grid.hexahedra;
    cubeText = regularGridCubes(grid, points);
  }
  const Texts cubes = parse::tokens(cubeText);
  std::vector<std::vector<std::pair<long long, double>>> weighted;
  for (std::size_t t = 0; t + 3 < cubes.size(); t += 4) {
    long long cube = 0;
    Vec3 f{};
    const bool read = parse::number(cubes[t], cube) && parse::number(cubes[t + 1], f[0]) &&
                      parse::number(cubes[t + 2], f[1]) && parse::number(cubes[t + 3], f[2]);
    if (!read || cube < 0 || std::size_t(cube) >= hexahedra.size())
      throw Error(mapping.where + ": BarycentricMapping: no cube for point " +
                  std::to_string(t / 4) + " of " + state.label());
    const std::array<double, 8> w = trilinearWeights(f);
    std::vector<std::pair<long long, double>> point;
    for (int k = 0; k < 8; ++k) point.push_back({hexahedra[std::size_t(cube)][k], w[k]});
    weighted.push_back(point);
  }
  return weighted;
}

}  // namespace

SelectedPoints selectedPoints(Reader& r, const SofaObject& state, const SofaObject& user,
                              const std::string& field) {
  SelectedPoints selected;
  selected.body = selectionBody(r, state, user, field);
  if (!selected.body) return selected;
  const SofaObject* mapping = nullptr;
  for (const SofaObject& o : state.node->objects)
    if (o.type == "SubsetMapping" || o.type == "IdentityMapping" ||
        o.type == "BarycentricMapping" || o.type == "RigidMapping")
      mapping = &o;
  if (mapping->type == "RigidMapping") {
    selected.rigid = true;
    return selected;
  }
  if (mapping->type == "BarycentricMapping") {
    selected.weighted = gridWeights(r, state, *mapping, *selected.body);
    return selected;
  }
  if (mapping->type == "IdentityMapping") {
    selected.all = true;
    return selected;
  }
  r.refuseIfGiven(*mapping, "resizeToModel", "resizing the child's state is not supported");
  r.refuseIfGiven(*mapping, "first", "a range of parent points is not supported: write `indices`");
  r.refuseIfGiven(*mapping, "last", "a range of parent points is not supported: write `indices`");
  std::string linkedField;
  const SofaObject* roi = r.linked(*mapping, "indices", &linkedField);
  if (roi && roi->type == "BoxROI" && linkedField == "indices") {
    selected.indices = boxIndices(r, *roi, *selected.body, *mapping);
  } else if (roi) {
    r.reject(*mapping, "indices", "a link to a BoxROI's indices or indices written are supported");
  } else {
    selected.indices = r.integers(*mapping, "indices");
  }
  if (!r.given(*mapping, "indices") && !roi)
    r.reject(*mapping, "indices",
             "empty: SOFA would match the child's points to the parent's by position; write "
             "`indices`");
  for (long long i : selected.indices)
    if (i < 0) r.reject(*mapping, "indices", "an index must be >= 0");
  return selected;
}

}  // namespace eis::sofa
