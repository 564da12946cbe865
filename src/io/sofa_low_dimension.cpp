// SOFA's Vec1 and Vec2 states (io/sofa_low_dimension.hpp), per SOFA master's source:
// VecTypes.h's set(c, x, y, z) keeps the first d of three numbers, which is how
// MechanicalObject::init takes a topology's points (getPX, getPY, getPZ) and how UniformMass
// (addForce, addGravityToV) turns the context's gravity into a Deriv. SpringForceField computes
// its force and its dF/dX = (ks - f/l) u u^T + f/l I in d dimensions: in 3D with the components
// past d zero and fixed, the same numbers, as are UniformMass's diagonal mass and a
// FixedProjectiveConstraint's zeroed rows.
#include "sofa_low_dimension.hpp"

#include <algorithm>

#include "eis/core/error.hpp"
#include "eis/core/parameters.hpp"
#include "sofa_grid.hpp"

namespace eis::sofa {

int templateDimensions(const std::string& name) {
  if (name == "Vec1" || name == "Vec1d" || name == "Vec1f") return 1;
  if (name == "Vec2" || name == "Vec2d" || name == "Vec2f") return 2;
  return 3;
}

int stateDimensions(const Reader& reader, const SofaNode* node) {
  for (; node; node = node->parent)
    for (const SofaObject& o : node->objects)
      if (o.type == "MechanicalObject")
        return templateDimensions(reader.text(o, "template").value_or("Vec3d"));
  return 3;
}

namespace {

std::string described(const std::string& tmpl, int d) {
  return "a " + tmpl + " state (points of " + std::to_string(d) +
         (d == 1 ? " coordinate)" : " coordinates)");
}

// "Type 'name'", or "Type" when it has none: an error line's subject after its place.
std::string named(const SofaObject& o) {
  return o.type + (o.name.empty() ? "" : " '" + o.name + "'");
}

}  // namespace

void checkLowDimensionBody(Reader& reader, const SofaObject& state,
                           const std::vector<const SofaObject*>& components, bool mappedChildren) {
  const std::string tmpl = reader.text(state, "template").value_or("Vec3d");
  const std::string what = described(tmpl, templateDimensions(tmpl));
  if (mappedChildren)
    throw Error(state.where + ": " + state.label() + ": a mapped child of " + what +
                " is not supported");
  for (const SofaObject* o : components)
    if (o->type != "UniformMass" && o->type != "MeshSpringForceField" &&
        o->type != "FixedProjectiveConstraint" && o->type != "FixedConstraint" &&
        o->type != "ConstantForceField")
      throw Error(o->where + ": " + named(*o) + ": not supported on " + what + ", " +
                  state.label() +
                  " (UniformMass, MeshSpringForceField, FixedProjectiveConstraint and "
                  "ConstantForceField are)");
  for (const char* field : {"position", "velocity", "rest_position", "rotation", "rx", "ry", "rz"})
    reader.refuseIfGiven(state, field,
                         "not supported on " + what +
                             ": its points are read from a RegularGridTopology only, at rest");
}

void mapLowDimensionBody(Reader& reader, const SofaObject& state, const SofaObject* grid,
                         std::vector<SofaKey>& keys) {
  const std::string tmpl = reader.text(state, "template").value_or("Vec3d");
  const int d = templateDimensions(tmpl);
  if (!grid || grid->type != "RegularGridTopology")
    reader.reject(state, "template",
                  described(tmpl, d) +
                      " takes its points from a RegularGridTopology here, and from nothing "
                      "else yet");
  const RegularGrid points = regularGrid(reader, *grid, true);
  for (int axis = d; axis < 3; ++axis)
    if (points.n[axis] > 1)
      throw Error(grid->where + ": " + named(*grid) + ": " + std::to_string(points.n[axis]) +
                  " points along " + "xyz"[axis] + ", which " + state.label() + " (" + tmpl +
                  ") drops: its points would lie on each other");
  // UniformMass: DataTypes::set(theGravity, g[0], g[1], g[2]) keeps the first d components.
  const auto gravity = std::find_if(keys.rbegin(), keys.rend(),
                                    [](const SofaKey& k) { return k.key == "load.gravity"; });
  if (gravity != keys.rend()) {
    const Texts g = parse::tokens(gravity->value);
    std::string value;
    for (std::size_t k = 0; k < g.size(); ++k)
      value += (k ? " " : "") + (k < std::size_t(d) ? g[k] : std::string("0"));
    gravity->value = value;
  }
  reader.from(state);
  // The grid's coordinates past d (a constant: one point along those axes) are dropped, after the
  // MechanicalObject's own translation and scale, which SOFA applies to the first d alone.
  reader.key("mesh.transform", d == 1 ? "scale 1 0 0" : "scale 1 1 0");
  reader.key("constraint.partial-fixed", std::string(d == 1 ? "0 1 1" : "0 0 1") + " all");
}

}  // namespace eis::sofa
