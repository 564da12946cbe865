// SOFA's heat diffusion on a Vec1 state (io/sofa_diffusion.hpp), per SOFA master's source.
// TetrahedronDiffusionFEMForceField.inl: constantDiffusionCoefficient 1, tetraDiffusionCoefficient
// (one per tetrahedron, else the constant), anisotropyRatio 1, tagMechanics "meca". init finds the
// Vec3 state tagged tagMechanics (BaseContext::get, SearchUp) and, from its positions, gives each
// edge of the topology the sum over its tetrahedra of D |V| grad(N_k) . grad(N_l) (with
// anisotropy, grad(N_k) . (I + (r - 1) a a^T) grad(N_l)); addForce adds c_e (x_l - x_k) to l
// and its opposite to k: f = -L x with L the P1 Laplacian, whose rows sum to zero, so the edge sums
// are its off-diagonal entries and -L is our DiffusionFEM's K (model/diffusion_fem.cpp).
// addKToMatrix adds kFactor * K, as ours. MeshMatrixMass<Vec1,Vec3>: each tetrahedron's rest
// volume from geometryState's positions, massDensity * V / 10 on each vertex and V / 20 on each
// edge (lumped: the row sums, V / 4): our consistent and lumped P1 masses at material.capacity.
#include "sofa_diffusion.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "eis/core/error.hpp"
#include "sofa_low_dimension.hpp"
#include "sofa_selections.hpp"

namespace eis::sofa {

namespace {

constexpr const char* kForceField = "TetrahedronDiffusionFEMForceField";

// The constraints mapped as on a Vec3 state (io/sofa_constraints), u their one coordinate.
bool isConstraint(const std::string& type) {
  return type == "FixedProjectiveConstraint" || type == "FixedConstraint" ||
         type == "LinearMovementProjectiveConstraint" || type == "LinearMovementConstraint";
}

const SofaObject* componentOf(const Body& body, const std::string& type) {
  for (const SofaObject* o : body.components)
    if (o->type == type) return o;
  return nullptr;
}

bool hasTag(const Reader& reader, const SofaObject& o, const std::string& tag) {
  const Texts tags = parse::tokens(reader.text(o, "tags").value_or(""));
  return std::find(tags.begin(), tags.end(), tag) != tags.end();
}

// BaseContext::get(MechanicalState<Vec3>*, tag, SearchUp): the first Vec3 state with the tag in
// the node, then in each node above.
const SofaObject* taggedGeometry(const Reader& reader, const SofaObject& forceField) {
  const std::string tag = reader.text(forceField, "tagMechanics").value_or("meca");
  for (const SofaNode* node = forceField.node; node; node = node->parent)
    for (const SofaObject& o : node->objects)
      if (o.type == "MechanicalObject" &&
          templateDimensions(reader.text(o, "template").value_or("Vec3d")) == 3 &&
          reader.text(o, "template").value_or("Vec3d").rfind("Rigid", 0) != 0 &&
          hasTag(reader, o, tag))
        return &o;
  return nullptr;
}

bool isTetrahedronContainer(const std::string& type) {
  return type == "TetrahedronSetTopologyContainer" || type == "MeshTopology";
}

// The topology a component reads: its `topology` link, else the nearest container up from its
// node (BaseContext::getMeshTopologyLink).
const SofaObject* topologyOf(const Reader& reader, const SofaObject& o) {
  if (o.field("topology")) return reader.linked(o, "topology");
  for (const SofaNode* node = o.node; node; node = node->parent)
    for (const SofaObject& t : node->objects)
      if (isTetrahedronContainer(t.type)) return &t;
  return nullptr;
}

// Whether two containers hold the same cells: the same object, or one copying the other (src).
bool sameCells(const Reader& reader, const SofaObject* a, const SofaObject* b) {
  if (!a || !b) return false;
  if (a == b) return true;
  const SofaObject* sa = a->field("src") ? reader.linked(*a, "src") : nullptr;
  const SofaObject* sb = b->field("src") ? reader.linked(*b, "src") : nullptr;
  return sa == b || sb == a || (sa && sa == sb);
}

// The numbers of a MeshOBJLoader's `v` lines, in file order.
std::vector<double> objVertexNumbers(const std::string& path) {
  std::ifstream file(path);
  if (!file) throw Error("cannot read " + path);
  std::vector<double> numbers;
  std::string line;
  while (std::getline(file, line)) {
    std::istringstream values(line);
    std::string token;
    values >> token;
    double x;
    if (token == "v")
      while (values >> x) numbers.push_back(x);
  }
  return numbers;
}

void mapForceField(Reader& r, const SofaObject& o) {
  if (r.real(o, "anisotropyRatio", 1.0) != 1.0)
    r.reject(o, "anisotropyRatio", "anisotropic diffusion is not supported yet");
  double conductivity = r.real(o, "constantDiffusionCoefficient", 1.0);
  if (r.given(o, "tetraDiffusionCoefficient")) {
    const std::vector<double> perCell = r.reals(o, "tetraDiffusionCoefficient");
    if (perCell.empty() ||
        std::any_of(perCell.begin(), perCell.end(), [&](double d) { return d != perCell.front(); }))
      r.reject(o, "tetraDiffusionCoefficient",
               "a diffusion coefficient per tetrahedron is not supported yet (one value for "
               "all is)");
    conductivity = perCell.front();
  }
  if (!(conductivity > 0))
    r.reject(o, "constantDiffusionCoefficient", "a diffusion coefficient must be > 0 here");
  r.key("material.conductivity", parse::text(conductivity));
}

// MeshMatrixMass.inl: totalMass wins, then massDensity, then vertexMass; none is totalMass = 1.
void mapMass(Reader& r, const SofaObject& o) {
  for (const char* field : {"totalMass", "vertexMass", "filename"})
    r.refuseIfGiven(o, field, "on a Vec1 state only a massDensity is supported");
  if (!r.given(o, "massDensity"))
    r.reject(o, "massDensity",
             "give it: SOFA's default is totalMass = 1, not supported on a Vec1 state");
  const std::vector<double> density = r.reals(o, "massDensity");
  if (density.size() != 1 || !(density[0] > 0))
    r.reject(o, "massDensity", "one density > 0 is supported (not one per element)");
  r.key("mass.type", r.boolean(o, "lumping", false) ? "lumped" : "consistent");
  r.key("material.capacity", parse::text(density[0]));
}

}  // namespace

bool isDiffusionBody(const Reader& reader, const Body& body) {
  const SofaObject* forceField = componentOf(body, kForceField);
  if (!forceField) return false;
  const std::string tmpl = reader.text(*body.state, "template").value_or("Vec3d");
  if (templateDimensions(tmpl) != 1)
    reader.reject(*body.state, "template",
                  forceField->label() + " acts on it: supported on a Vec1 state only");
  return true;
}

const SofaObject* temperatureGeometry(const Reader& reader, const SofaObject& state) {
  for (const SofaObject& o : state.node->objects)
    if (o.type == kForceField) return taggedGeometry(reader, o);
  return nullptr;
}

const SofaObject& diffusionGeometry(Reader& reader, const Body& body) {
  const SofaObject& state = *body.state;
  if (!body.mapped.empty())
    throw Error(state.where + ": " + state.label() +
                ": a mapped child of a Vec1 temperature state is not supported");
  for (const SofaObject* o : body.components)
    if (o->type != kForceField && o->type != "MeshMatrixMass" && !isConstraint(o->type))
      throw Error(o->where + ": " + o->label() + ": not supported on the Vec1 temperature state " +
                  state.label() + " (" + kForceField +
                  ", MeshMatrixMass, FixedProjectiveConstraint and "
                  "LinearMovementProjectiveConstraint are)");
  const SofaObject& forceField = *componentOf(body, kForceField);
  const SofaObject* geometry = taggedGeometry(reader, forceField);
  if (!geometry)
    reader.reject(forceField, "tagMechanics",
                  "no Vec3 MechanicalObject with this tag in its node or above: SOFA's "
                  "force field has no geometry");
  const SofaObject* mass = componentOf(body, "MeshMatrixMass");
  if (!mass)
    throw Error(state.where + ": " + state.label() +
                ": a Vec1 temperature state needs a MeshMatrixMass (its heat capacity)");
  // The mass's volumes are those of its geometryState's rest positions: the geometry's own, or
  // a state whose position links the geometry's (its points at init).
  const SofaObject* massGeometry =
      mass->field("geometryState") ? linkedState(reader, *mass, "geometryState") : nullptr;
  const std::string* copied = massGeometry ? massGeometry->field("position") : nullptr;
  const bool samePoints =
      massGeometry == geometry ||
      (massGeometry && copied && isSofaLink(*copied) && !massGeometry->field("rest_position") &&
       reader.scene()
               .resolve(*massGeometry->node, *copied, reader.where(*massGeometry, "position"),
                        massGeometry)
               .object == geometry);
  if (!samePoints)
    reader.reject(*mass, "geometryState",
                  "must name " + geometry->label() +
                      ", the diffusion's geometry (tagMechanics), or a state whose position "
                      "links its");
  // The cells are those of the geometry's node's container (the mesh read from the geometry):
  // the force field and the mass must read them.
  const SofaObject* cells = nullptr;
  for (const SofaObject& t : geometry->node->objects)
    if (isTetrahedronContainer(t.type)) cells = &t;
  for (const SofaObject* o : {&forceField, mass})
    if (!sameCells(reader, topologyOf(reader, *o), cells))
      reader.reject(*o, "topology",
                    "must be the tetrahedra of " + geometry->label() +
                        "'s node, the diffusion's geometry (another topology is not supported)");
  return *geometry;
}

void mapDiffusionBody(Reader& reader, const Body& body, const std::string& objFile,
                      std::vector<SofaKey>& keys) {
  const SofaObject& state = *body.state;
  // MeshMatrixMass<Vec1>::addForce adds m g with g's first component (DataTypes::set).
  for (auto k = keys.begin(); k != keys.end();)
    if (k->key == "load.gravity") {
      if (parse::reals("load.gravity", k->value, 3)[0] != 0)
        throw Error(k->where + ": gravity along x acts on the Vec1 temperature " + state.label() +
                    " through its mass (a heat source): not supported");
      k = keys.erase(k);
    } else {
      ++k;
    }
  reader.from(state);
  reader.key("physics.type", "diffusion");
  for (const char* field : {"velocity", "rest_position", "translation", "rotation", "scale3d"})
    reader.refuseIfGiven(state, field, "not supported on a Vec1 temperature state");
  std::vector<double> values;
  if (!objFile.empty()) {
    values = objVertexNumbers(objFile);
    // SOFA passes a loader's 3D points to Vec1 values through their text, three a point.
    if (std::any_of(values.begin(), values.end(), [](double u) { return u != 0; }))
      reader.reject(state, "position",
                    "Vec1 values linked to a MeshOBJLoader's points are supported only when "
                    "they are all zero");
    values.clear();
  } else if (state.field("position")) {
    if (!reader.text(state, "position"))
      reader.reject(state, "position",
                    "a link to values SOFA computes is not supported here (but to a "
                    "MeshOBJLoader's); write the values");
    values = reader.reals(state, "position");
  }
  if (std::any_of(values.begin(), values.end(), [](double u) { return u != 0; }))
    reader.key("initial.values", joined(values, 0, values.size()));
  for (const SofaObject* o : body.components) {
    reader.from(*o);
    if (o->type == "MeshMatrixMass")
      mapMass(reader, *o);
    else
      sofaMapping(o->type)(reader, *o);
  }
}

// Reached only from mapDiffusionBody: isDiffusionBody refuses the force field on another state.
const RegisterSofaMapping diffusionForceField({kForceField}, mapForceField);

}  // namespace eis::sofa
