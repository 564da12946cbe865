// SOFA's DeformableOnRigidFrameMapping (DeformableOnRigidFrameMapping.inl) with a
// BarycentricMapping child under PlaneForceFields (io/sofa_carried_points.hpp). The mapping puts
// each node u of its input1 state, given in the frame's coordinates, at c + R u in its output
// state (apply: the frame `index` of input2, no repartition); the child's points are
// interpolated between those (SOFA's sparse grid mapper, on the body's grid), so each sits at
// c + R sum_j b_j u_j: the body's carried.points, the frame its carried.frames, and the child's
// PlaneForceFields its carried.plane.
#include "sofa_carried_points.hpp"

#include <algorithm>

#include "eis/core/error.hpp"
#include "eis/model/child_mapping.hpp"
#include "sofa_grid_mapper.hpp"
#include "sofa_mapped_child.hpp"
#include "sofa_rigid.hpp"

namespace eis::sofa {

namespace {

const SofaObject* frameMappingOf(const SofaObject& state) {
  for (const SofaObject& o : state.node->objects)
    if (o.type == "DeformableOnRigidFrameMapping") return &o;
  return nullptr;
}

// The text of every field of a topology, for comparing two.
std::vector<std::pair<std::string, std::string>> fieldsOf(const SofaObject& o) {
  std::vector<std::pair<std::string, std::string>> fields;
  for (const auto& a : o.data)
    if (a.name != "name") fields.emplace_back(a.name, a.value);
  std::sort(fields.begin(), fields.end());
  return fields;
}

}  // namespace

const SofaObject* carriedBody(const Reader& r, const SofaObject& frameMapping) {
  return frameMapping.field("input1") ? linkedState(r, frameMapping, "input1") : nullptr;
}

CarriedNode carriedNode(const Reader& r, const std::vector<Body>& bodies, const MappedNode& child,
                        const SofaObject& state) {
  const SofaObject* mapping = frameMappingOf(state);
  if (!mapping) return {};
  const auto bodyOf = [&](const SofaObject* s) {
    return std::any_of(bodies.begin(), bodies.end(), [&](const Body& b) { return b.state == s; });
  };
  for (const char* field : {"input1", "input2"})
    if (!mapping->field(field))
      throw Error(mapping->where + ": " + mapping->label() + ": " + field +
                  " not given: SOFA's Multi2Mapping reads the states it links");
  const SofaObject* points = carriedBody(r, *mapping);
  const SofaObject* frames = linkedState(r, *mapping, "input2");
  if (mapping->field("output") && linkedState(r, *mapping, "output") != &state)
    r.reject(*mapping, "output", "not " + state.label() + ", the MechanicalObject of its node");
  if (!bodyOf(points) || isRigidTemplate(r.text(*points, "template").value_or("Vec3d")))
    throw Error(mapping->where + ": " + mapping->label() + ": its input1 " + points->label() +
                " is not a body of points (one a mapping drives is not supported)");
  if (!bodyOf(frames) || !isRigidTemplate(r.text(*frames, "template").value_or("Vec3d")))
    throw Error(mapping->where + ": " + mapping->label() + ": its input2 " + frames->label() +
                " is not a body of Rigid3d frames");
  return {child, mapping, frames};
}

void mapCarriedNode(Reader& r, const CarriedNode& carried, const SofaObject& bodyGrid,
                    const SparseGrid& sparse, const std::string& objFile,
                    std::vector<SofaKey>& keys) {
  const SofaObject& mapping = *carried.frameMapping;
  const MappedNode& child = carried.child;
  checkMechanicalMapping(r, mapping);
  checkMechanicalMapping(r, *child.mapping);
  if (!r.reals(mapping, "repartition").empty())
    r.reject(mapping, "repartition", "points spread over several frames are not supported");
  if (r.boolean(mapping, "indexFromEnd", false))
    r.reject(mapping, "indexFromEnd", "write the frame's index from the start");
  if (r.boolean(*child.mapping, "useRestPosition", false))
    r.reject(*child.mapping, "useRestPosition",
             "locating the points at the rest positions is not supported");
  // The child's mapper reads the topology of the mapping's node: the body's grid, or one that is
  // the same (the example scene writes the body's SparseGridTopology again).
  if (const SofaObject* own = topologyOf(mapping.node);
      own && own != &bodyGrid &&
      (own->type != bodyGrid.type || fieldsOf(*own) != fieldsOf(bodyGrid)))
    throw Error(own->where + ": " + own->label() + ": in " + mapping.node->path() +
                ", the node of " + mapping.label() + ": not the body's grid " + bodyGrid.label() +
                "; the carried points are located in the body's grid's cubes");
  const long long index =
      r.integers(mapping, "index").empty() ? 0 : r.integers(mapping, "index").front();
  if (index < 0) r.reject(mapping, "index", "expected a frame's index >= 0");
  r.from(mapping);
  r.key("carried.frames", carried.frames->node->path() + " " + std::to_string(index));
  // BarycentricMapperSparseGridTopology: each point's cube and trilinear coordinates, its weights
  // on the cube's corners (the body's node ids).
  const std::vector<double> points = childPoints(r, *child.state, objFile, true);
  if (sparse.hexahedra.empty())
    throw Error(child.mapping->where + ": the body's grid keeps no cube to find the points in");
  std::string text;
  for (const GridCube& cell : sparseGridCells(sparse, points)) {
    const std::array<double, 8> weights = trilinearWeights(cell.f);
    std::string point;
    for (std::size_t k = 0; k < 8; ++k)
      point += (k ? "/" : "") + std::to_string(sparse.hexahedra[std::size_t(cell.cube)][k]) + ":" +
               parse::text(weights[k]);
    text += (text.empty() ? "" : " ") + point;
  }
  r.from(*child.mapping);
  r.key("carried.points", text);
  for (const SofaObject* o : child.components) {
    if (o->type != "PlaneForceField")
      throw Error(o->where + ": " + o->label() + ": in " + child.node->path() +
                  ", points a frame carries (" + mapping.label() +
                  "): only PlaneForceField is carried there");
    std::vector<SofaKey> own;
    r.into(own);
    r.from(*o);
    sofaMapping(o->type)(r, *o);
    r.into(keys);
    for (const SofaKey& k : own)
      if (k.key == "obstacle.plane") r.key("carried.plane", k.value);
  }
}

}  // namespace eis::sofa
