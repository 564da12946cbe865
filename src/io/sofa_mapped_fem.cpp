// SOFA's HexahedronFEMForceField (HexahedralFEMForceField) or TetrahedronFEMForceField in a child
// node that an IdentityMapping or SubsetMapping (Sofa/Component/Mapping/Linear) drives from a body
// on a RegularGridTopology, as the body's own elastic keys (io/sofa_mapped_fem.hpp).
#include "sofa_mapped_fem.hpp"

#include <cmath>
#include <map>

#include "eis/core/error.hpp"
#include "sofa_grid.hpp"
#include "sofa_mapped_child.hpp"

namespace eis::sofa {

namespace {

using Point = std::array<double, 3>;

double distance(const Point& a, const Point& b) {
  return std::sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
                   (a[2] - b[2]) * (a[2] - b[2]));
}

// The child's RegularGridTopology, whose points its MechanicalObject takes (no position of its
// own, or one linked to the grid's), as MechanicalObject::init takes them.
const SofaObject& childGrid(Reader& r, const MappedNode& child) {
  const SofaObject* grid = nullptr;
  for (const SofaObject& o : child.node->objects)
    if (o.type == "RegularGridTopology" && !grid) grid = &o;
  const SofaObject* linked = r.linked(*child.state, "position");
  if (!grid || (child.state->field("position") && linked != grid))
    throw Error(child.state->where + ": " + child.state->label() + ": a mapped child's " +
                (*child.components.front()).type +
                " is read on the child's points and cells from a RegularGridTopology of its "
                "node (no position written)");
  return *grid;
}

// Which body node each child point is. SubsetMapping::init: `indices`, else first..last, else
// each child point's nearest body point within `radius` (1e-5; the first of equal distance).
std::vector<long long> selected(Reader& r, const MappedNode& child,
                                const std::vector<Point>& points, const std::vector<Point>& body) {
  const SofaObject& mapping = *child.mapping;
  std::vector<long long> indices;
  if (mapping.type == "IdentityMapping") {
    for (std::size_t i = 0; i < points.size(); ++i) indices.push_back((long long)i);
  } else {
    r.refuseIfGiven(mapping, "first", "a range of parent points is not supported: write `indices`");
    indices = r.integers(mapping, "indices");
    if (indices.empty()) {
      const double radius = r.real(mapping, "radius", 1e-5);
      for (std::size_t i = 0; i < points.size(); ++i) {
        long long found = -1;
        double nearest = radius;
        for (std::size_t j = 0; j < body.size(); ++j)
          if (const double d = distance(points[i], body[j]); d < nearest)
            nearest = d, found = (long long)j;
        if (found < 0)
          r.reject(mapping, "indices",
                   "empty, and child point " + std::to_string(i) +
                       " is no body point within radius " + parse::text(radius));
        indices.push_back(found);
      }
    }
  }
  if (indices.size() != points.size())
    r.reject(mapping, mapping.type == "IdentityMapping" ? "input" : "indices",
             std::to_string(indices.size()) + " body nodes for the " +
                 std::to_string(points.size()) + " points of the child's grid");
  for (long long i : indices)
    if (i < 0 || std::size_t(i) >= body.size())
      r.reject(mapping, "indices", std::to_string(i) + " is no node of the body's grid");
  return indices;
}

// The keys the child's FEM force field gives, read by its registered mapping; those of a
// material per element are refused.
std::map<std::string, std::string> femKeys(Reader& r, const SofaObject& fem) {
  std::vector<SofaKey> own;
  r.into(own);
  r.from(fem);
  sofaMapping(fem.type)(r, fem);
  std::map<std::string, std::string> keys;
  for (const SofaKey& k : own) {
    if (k.key != "material.cells" && k.key != "material.model" && k.key != "material.rotation" &&
        k.key != "material.young-modulus" && k.key != "material.poisson-ratio" &&
        k.key != "material.hexahedron-element")
      throw Error(fem.where + ": " + fem.label() + ": in a mapped child, " + k.key +
                  " is not supported (one material a child)");
    keys[k.key] = k.value;
  }
  return keys;
}

// The grid's cells as the FEM force field reads them: its hexahedra, or the tetrahedra
// TetrahedronFEMForceField cuts them into (GridTopology's own cut).
std::vector<std::vector<long long>> femCells(const RegularGrid& grid, bool tetrahedral) {
  std::vector<std::vector<long long>> cells;
  if (tetrahedral)
    for (const auto& t : cutIntoTetrahedra(grid, GridCut::ForceField))
      cells.emplace_back(t.begin(), t.end());
  else
    for (const auto& h : grid.hexahedra) cells.emplace_back(h.begin(), h.end());
  return cells;
}

}  // namespace

bool readsTetrahedra(const MappedNode& child) {
  const std::string& type = child.components.front()->type;
  return type == "TetrahedronFEMForceField" || type == "TetrahedralCorotationalFEMForceField" ||
         type == "FastTetrahedralCorotationalForceField" ||
         type == "TetrahedronHyperelasticityFEMForceField";
}

bool carriesOnlyFem(const MappedNode& child) {
  return child.components.size() == 1 &&
         (child.components.front()->type == "HexahedronFEMForceField" ||
          child.components.front()->type == "HexahedralFEMForceField" || readsTetrahedra(child));
}

void mapMappedFems(Reader& r, const SofaObject& bodyGrid,
                   const std::vector<const MappedNode*>& children, std::vector<SofaKey>& keys) {
  const RegularGrid body = regularGrid(r, bodyGrid);
  const bool tetrahedral = readsTetrahedra(*children.front());
  const std::vector<std::vector<long long>> bodyCells = femCells(body, tetrahedral);
  std::map<std::vector<long long>, std::size_t> cellOf;
  for (std::size_t c = 0; c < bodyCells.size(); ++c) cellOf[bodyCells[c]] = c;
  std::vector<double> young(bodyCells.size(), 0.0);
  // The body's mesh (io/sofa_grid_mesh) must be those cells: not its hexahedra, nor tetrahedra
  // a Hexa2TetraTopologicalMapping cuts otherwise.
  if (tetrahedral) {
    std::string cut;
    for (const auto& t : bodyCells)
      for (long long v : t) cut += (cut.empty() ? "" : " ") + std::to_string(v);
    if (r.gaveValue("mesh.tetrahedra") != cut) {
      const SofaObject& fem = *children.front()->components.front();
      throw Error(fem.where + ": " + fem.label() + ": reads the tetrahedra of " + bodyGrid.label() +
                  " cut as TetrahedronFEMForceField cuts them, and the " +
                  "body's components read its cells otherwise; a body of two meshes is not " +
                  "supported");
    }
  }
  std::map<std::string, std::string> shared;  // every key but the modulus, the same for all
  const MappedNode* first = nullptr;
  double mismatch = 0;
  for (const MappedNode* child : children) {
    const SofaObject& fem = *child->components.front();
    if (readsTetrahedra(*child) && fem.type != "TetrahedronFEMForceField")
      throw Error(fem.where + ": " + fem.label() + ": in a mapped child of a body on " +
                  bodyGrid.label() + ", of the tetrahedral FEM force fields only " +
                  "TetrahedronFEMForceField (which cuts the grid itself) is carried");
    if (child->mapping->type != "IdentityMapping" && child->mapping->type != "SubsetMapping")
      throw Error(fem.where + ": " + fem.label() + ": in a child of " + child->mapping->label() +
                  ": a FEM force field is carried only through IdentityMapping or SubsetMapping "
                  "(its cells would span several cells of the body)");
    checkMechanicalMapping(r, *child->mapping);
    const SofaObject& grid = childGrid(r, *child);
    const RegularGrid own = regularGrid(r, grid);
    const std::vector<long long> nodes = selected(r, *child, own.points, body.points);
    // The element is the body's, on its rest points: the child's must be the same points.
    const double radius = r.real(*child->mapping, "radius", 1e-5);
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      const double d = distance(own.points[i], body.points[std::size_t(nodes[i])]);
      if (d >= radius)
        r.reject(*child->state, "position",
                 "child point " + std::to_string(i) + " lies " + parse::text(d) +
                     " from the body node it follows: a child FEM is carried only on the "
                     "body's own rest cells");
      mismatch = std::max(mismatch, d);
    }
    std::map<std::string, std::string> material = femKeys(r, fem);
    const double modulus = std::stod(material["material.young-modulus"]);
    material.erase("material.young-modulus");
    if (!first) {
      shared = material, first = child;
    } else if (material != shared) {
      throw Error(fem.where + ": " + fem.label() + ": its method, Poisson's ratio or element " +
                  "differ from " + first->components.front()->label() + "'s, in the same " +
                  "body: their stiffnesses do not add up per element");
    }
    const std::vector<std::vector<long long>> cells = femCells(own, readsTetrahedra(*child));
    const std::string kind = readsTetrahedra(*child) ? "tetrahedron" : "hexahedron";
    for (std::size_t h = 0; h < cells.size(); ++h) {
      std::vector<long long> corners;
      for (long long v : cells[h]) corners.push_back(nodes[std::size_t(v)]);
      const auto cell = cellOf.find(corners);
      if (cell == cellOf.end())
        throw Error(fem.where + ": " + fem.label() + ": " + kind + " " + std::to_string(h) +
                    " of the child's grid is not, corner by corner, a " + kind + " of " +
                    bodyGrid.label() + ": its stiffness would couple nodes of several cells");
      young[cell->second] += modulus;
    }
  }
  r.into(keys);
  r.from(*first->components.front());
  std::string list;
  for (double e : young) list += (list.empty() ? "" : " ") + parse::text(e);
  for (const auto& [key, value] : shared) r.key(key, value);
  r.key("material.cell-young-modulus", list);
  r.note(std::to_string(children.size()) + " mapped child FEM force field(s) on " +
         bodyGrid.label() + "'s " + (tetrahedral ? "tetrahedra" : "hexahedra") +
         "; child and body rest points differ by at most " + parse::text(mismatch));
}

void mapSharedTopologyFem(Reader& r, const SofaObject& bodyState,
                          const std::vector<const MappedNode*>& children) {
  const MappedNode& child = *children.front();
  const SofaObject& fem = *child.components.front();
  const char* cells = readsTetrahedra(child) ? "tetrahedra" : "hexahedra";
  const std::string why =
      std::string(
          ": a mapped child's FEM force field is carried from a body on no grid only as "
          "the body's own: under an IdentityMapping, on a topology of its node that "
          "reads the body's ") +
      cells +
      " and points (src or links to the body's topology or loader), with no position "
      "of its own";
  if (children.size() > 1)
    throw Error(children[1]->components.front()->where + ": " +
                children[1]->components.front()->label() + ": " + bodyState.label() +
                " has a second mapped child FEM force field (the first: " + fem.label() +
                "): one a body on no grid is supported");
  if (child.mapping->type != "IdentityMapping")
    throw Error(fem.where + ": " + fem.label() + ": in a child of " + child.mapping->label() + why);
  checkMechanicalMapping(r, *child.mapping);
  // MechanicalObject::init takes the points of its node's own topology (Node::Local): the child's
  // must be a topology of its node, its points and cells those of the body's topology.
  const SofaObject* own = nullptr;
  for (const SofaObject& o : child.node->objects)
    if (o.type == "MeshTopology" || o.type == "TetrahedronSetTopologyContainer" ||
        o.type == "HexahedronSetTopologyContainer")
      own = &o;
  const SofaObject* body = topologyOf(bodyState.node);
  const auto holder = [&r](const SofaObject& topology, const char* field) {
    const SofaObject* linked = r.linked(topology, field);
    return linked ? linked : r.given(topology, field) ? &topology : nullptr;
  };
  if (!own || !body || body->node != bodyState.node)
    throw Error(fem.where + ": " + fem.label() + why);
  for (const char* field : {"position", cells}) {
    const SofaObject* mine = holder(*own, field);
    if (!mine || mine != holder(*body, field))
      r.reject(*own, field,
               std::string("not the body's (") + body->label() + "'s " + field + ")" + why);
  }
  for (const char* field : {"position", "rest_position", "translation", "rotation", "scale3d",
                            "scale", "dx", "dy", "dz", "rx", "ry", "rz", "sx", "sy", "sz"})
    r.refuseIfGiven(*child.state, field,
                    "a mapped child's FEM force field is carried on the points of the child's "
                    "topology, the body's");
  // The body's rest points must be its topology's too.
  r.refuseIfGiven(bodyState, "rest_position",
                  "beside a mapped child's FEM force field on the body's topology");
  if (bodyState.field("position") && r.linked(bodyState, "position") != holder(*body, "position"))
    r.reject(bodyState, "position",
             "not the points of " + body->label() +
                 ", on which a mapped child's FEM force field reads its rest shape");
  r.from(fem);
  sofaMapping(fem.type)(r, fem);
  r.note(fem.label() + " in mapped child " + child.node->path() +
         ": the body's own FEM (J = I on the same cells and rest points)");
}

}  // namespace eis::sofa
