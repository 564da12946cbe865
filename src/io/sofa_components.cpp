// SOFA's masses, force fields and projective constraints as our keys. Each mapping names the
// SOFA master source it follows and the defaults found there.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>

#include "eis/core/error.hpp"
#include "sofa_data_fields.hpp"
#include "sofa_reader.hpp"

namespace eis::sofa {

namespace {

// Links followed further than this are a loop.
constexpr int kMaxLinkDepth = 32;

std::string joined(const std::vector<double>& values, std::size_t from, std::size_t count) {
  std::string text;
  for (std::size_t i = from; i < from + count; ++i)
    text += (i == from ? "" : " ") + parse::text(values[i]);
  return text;
}

// A Vec3 field as "X Y Z".
std::string vector3(const Reader& reader, const SofaObject& o, const std::string& field) {
  const std::vector<double> v = reader.reals(o, field);
  if (v.size() != 3) reader.reject(o, field, "expected 3 numbers");
  return joined(v, 0, 3);
}

std::string indexList(const std::vector<long long>& indices) {
  std::string text = "indices";
  for (long long i : indices) text += " " + std::to_string(i);
  return text;
}

// The selections a field of indices stands for. Inline, or a link to a BoxROI's or SphereROI's
// indices, which become our box and sphere selections: BoxROI (Engine/Select, BoxROI.inl) tests
// p >= min and p <= max in each component of the positions it is given (the rest positions),
// min > max swapped, default box "0 0 0 1 1 1" when neither box nor orientedBox is set;
// SphereROI keeps |p - c| <= r; our selections do exactly that. Absent: `fallback`.
std::vector<std::string> selectionsOf(const Reader& reader, const SofaObject& o,
                                      const std::string& field,
                                      const std::vector<std::string>& fallback) {
  std::string linkedField;
  if (const SofaObject* roi = reader.linked(o, field, &linkedField);
      roi && linkedField == "indices" && (roi->type == "BoxROI" || roi->type == "SphereROI")) {
    std::vector<std::string> selections;
    if (roi->type == "BoxROI") {
      reader.refuseIfGiven(*roi, "orientedBox", "oriented boxes are not supported yet");
      std::vector<double> boxes = reader.reals(*roi, "box");
      if (!reader.given(*roi, "box")) boxes = {0, 0, 0, 1, 1, 1};
      if (boxes.empty() || boxes.size() % 6 != 0)
        reader.reject(*roi, "box", "expected 6 numbers per box");
      for (std::size_t b = 0; b < boxes.size(); b += 6)
        selections.push_back("box " + joined(boxes, b, 6));
    } else {
      const std::vector<double> centers = reader.reals(*roi, "centers");
      const std::vector<double> radii = reader.reals(*roi, "radii");
      if (centers.empty() || centers.size() % 3 != 0 || radii.size() != centers.size() / 3)
        reader.reject(*roi, "centers", "expected 3 numbers per center and one radius each");
      for (std::size_t s = 0; s < radii.size(); ++s)
        selections.push_back("sphere " + joined(centers, 3 * s, 3) + " " + parse::text(radii[s]));
    }
    reader.refuseIfGiven(*roi, "position", "a BoxROI or SphereROI tests the rest positions here");
    return selections;
  }
  if (!reader.given(o, field)) return fallback;
  const std::vector<long long> indices = reader.integers(o, field);
  if (indices.empty()) return {};
  return {indexList(indices)};
}

}  // namespace

std::optional<std::string> Reader::text(const SofaObject& o, const std::string& field) const {
  const SofaObject* at = &o;
  std::string name = field;
  for (int depth = 0; depth < kMaxLinkDepth; ++depth) {
    if (const std::string* own = at->field(name)) {
      if (!isSofaLink(*own)) return *own;
      const SofaLinkTarget target = scene_.resolve(*at->node, *own, where(*at, name), at);
      checkLinkTarget(*this, *at, name, *own, target);
      if (!target.object) {
        const std::string* nodeField =
            target.node->field(target.field.empty() ? name : target.field);
        if (nodeField) return *nodeField;
        return std::nullopt;
      }
      if (!target.field.empty()) name = target.field;
      at = target.object;
      continue;
    }
    // Back at the object that asked, at a field it does not write: an engine's output (a
    // BoxROI's indices) computed from the very field being read, which SOFA cannot evaluate.
    if (depth > 0 && at == &o && (o.type == "BoxROI" || o.type == "SphereROI"))
      throw Error(where(o, field) + ": " + o.type + (o.name.empty() ? "" : " '" + o.name + "'") +
                  ": the links of " + field + " form a loop: they lead back to its own " + name +
                  ", which it computes from " + field);
    const std::string* src = at->field("src");
    if (!src) return std::nullopt;
    const SofaLinkTarget target = scene_.resolve(*at->node, *src, where(*at, "src"), at);
    if (!target.object) return std::nullopt;
    at = target.object;
  }
  throw Error(where(o, field) + ": " + o.type + " '" + o.name + "': the links of " + field +
              " form a loop");
}

const SofaObject* Reader::linked(const SofaObject& o, const std::string& field,
                                 std::string* linkedField) const {
  const SofaObject* at = &o;
  std::string name = field;
  const SofaObject* found = nullptr;
  for (int depth = 0; depth < kMaxLinkDepth; ++depth) {
    const std::string* own = at->field(name);
    const std::string* link = own ? own : at->field("src");
    if (!link || !isSofaLink(*link)) break;
    const SofaLinkTarget target =
        scene_.resolve(*at->node, *link, where(*at, own ? name : "src"), at);
    if (own) checkLinkTarget(*this, *at, name, *link, target);
    if (!target.object) break;
    if (own && !target.field.empty()) name = target.field;
    at = found = target.object;
  }
  if (linkedField) *linkedField = name;
  return found;
}

bool Reader::gave(const std::string& key) const {
  return std::any_of(keys_->begin(), keys_->end(), [&](const SofaKey& k) { return k.key == key; });
}

void Reader::warnOnce(const std::string& line) {
  if (std::find(out_.warnings.begin(), out_.warnings.end(), line) == out_.warnings.end())
    out_.warnings.push_back(line);
}

std::string Reader::gaveValue(const std::string& key) const {
  for (auto k = keys_->rbegin(); k != keys_->rend(); ++k)
    if (k->key == key) return k->value;
  return "";
}

void Reader::note(const std::string& line) {
  if (std::find(out_.notes.begin(), out_.notes.end(), line) == out_.notes.end())
    out_.notes.push_back(line);
}

std::string Reader::where(const SofaObject& o, const std::string& field) const {
  for (const xml::Attribute& a : o.data)
    if (a.name == field && o.where.rfind(scene_.file() + ":", 0) == 0)
      return scene_.file() + ":" + std::to_string(a.line);
  return o.where;
}

void Reader::reject(const SofaObject& o, const std::string& field, const std::string& why) const {
  const std::optional<std::string> value = o.field(field) ? text(o, field) : std::nullopt;
  throw Error(where(o, field) + ": " + o.type + (o.name.empty() ? "" : " '" + o.name + "'") + ": " +
              field + (value ? " = '" + printable(*value, 120) + "'" : "") + ": " + why);
}

void Reader::refuseIfGiven(const SofaObject& o, const std::string& field,
                           const std::string& why) const {
  if (o.field(field)) reject(o, field, why);
}

double Reader::real(const SofaObject& o, const std::string& field, double fallback) const {
  const std::optional<std::string> value = text(o, field);
  if (!value) return fallback;
  const Texts tokens = parse::tokens(*value);
  double x = 0;
  if (tokens.size() != 1 || !parse::number(tokens[0], x)) reject(o, field, "expected one number");
  return x;
}

double Reader::single(const SofaObject& o, const std::string& field, double fallback) const {
  const double checked = real(o, field, fallback);  // one number, or the fallback
  const std::optional<std::string> value = text(o, field);
  // strtof of the text: rounding the double again could differ in the last bit.
  return value ? double(std::strtof(parse::tokens(*value)[0].c_str(), nullptr)) : checked;
}

bool Reader::boolean(const SofaObject& o, const std::string& field, bool fallback) const {
  const std::optional<std::string> value = text(o, field);
  if (!value) return fallback;
  const Texts tokens = parse::tokens(*value);
  if (tokens.size() == 1 && (tokens[0] == "true" || tokens[0] == "1" || tokens[0] == "True"))
    return true;
  if (tokens.size() == 1 && (tokens[0] == "false" || tokens[0] == "0" || tokens[0] == "False"))
    return false;
  reject(o, field, "expected true or false (or 1 or 0)");
}

std::vector<double> Reader::reals(const SofaObject& o, const std::string& field) const {
  std::vector<double> values;
  const std::optional<std::string> value = text(o, field);
  if (!value) return values;
  for (const std::string& token : parse::tokens(*value)) {
    double x = 0;
    if (!parse::number(token, x)) reject(o, field, "'" + printable(token, 40) + "' is no number");
    values.push_back(x);
  }
  return values;
}

std::vector<long long> Reader::integers(const SofaObject& o, const std::string& field) const {
  std::vector<long long> values;
  const std::optional<std::string> value = text(o, field);
  if (!value) return values;
  for (const std::string& token : parse::tokens(*value)) {
    long long i = 0;
    if (!parse::number(token, i) || i < 0)
      reject(o, field, "'" + printable(token, 40) + "' is no node index");
    values.push_back(i);
  }
  return values;
}

bool mapMass(Reader& r, const SofaObject& o) {
  // DiagonalMass.inl, MeshMatrixMass.inl: massDensity 1, totalMass 1, vertexMass empty (the
  // priority among them: below). MeshMatrixMass lumping (false) sums the rows: SOFA's lumped P1
  // mass, our lumped mass. UniformMass.inl: totalMass wins when set (vertexMass = totalMass /
  // points), else vertexMass; neither set makes the component invalid in SOFA master (before its PR
  // #3927, totalMass = 1), so it is an error here. indices empty = every point.
  if (o.type == "UniformMass") {
    r.refuseIfGiven(o, "indices", "a uniform mass on some points only is not supported");
    r.refuseIfGiven(o, "filename", "a mass file is not supported");
    r.key("mass.type", "uniform");
    if (r.given(o, "totalMass"))
      r.key("mass.total-mass", parse::text(r.real(o, "totalMass", 1.0)));
    else if (r.given(o, "vertexMass"))
      r.key("mass.vertex-mass", parse::text(r.real(o, "vertexMass", 1.0)));
    else
      r.reject(o, "totalMass", "give totalMass or vertexMass (SOFA master requires one)");
    return true;
  }
  if (o.type != "DiagonalMass" && o.type != "MeshMatrixMass") return false;
  const bool lumped = o.type == "DiagonalMass" || r.boolean(o, "lumping", false);
  r.key("mass.type", lumped ? "lumped" : "consistent");
  r.refuseIfGiven(o, "filename", "a mass file is not supported");
  // DiagonalMass.inl and MeshMatrixMass.inl (docs/sofa-hyperelastic.md, "DiagonalMass and
  // MeshMatrixMass"): totalMass when set (it wins over the others, with a warning), else
  // massDensity, else vertexMass; none set is totalMass = 1.
  if (r.given(o, "totalMass")) {
    if (r.given(o, "massDensity") || r.given(o, "vertexMass"))
      r.warn(o.label() +
             ": totalMass is given with massDensity or vertexMass; totalMass wins, "
             "as in SOFA");
    r.key("mass.total-mass", parse::text(r.real(o, "totalMass", 1.0)));
  } else if (r.given(o, "massDensity")) {
    const std::vector<double> density = r.reals(o, "massDensity");
    if (density.size() != 1)
      r.reject(o, "massDensity", "one density per element is not supported yet");
    r.key("material.density", parse::text(density[0]));
  } else if (r.given(o, "vertexMass")) {
    r.reject(o, "vertexMass",
             "masses given per vertex are not supported; give massDensity or "
             "totalMass");
  } else {
    r.note(o.label() + ": no mass data: totalMass = 1, SOFA's default");
    r.key("mass.total-mass", "1");
  }
  return true;
}

bool mapForceField(Reader& r, const SofaObject& o) {
  if (o.type == "TetrahedronFEMForceField" || o.type == "TetrahedralCorotationalFEMForceField") {
    // BaseLinearElasticityFEMForceField.inl: poissonRatio 0.45, youngModulus 5000 (a list: one
    // per element, else the first); TetrahedronFEMForceField.inl and
    // TetrahedralCorotationalFEMForceField.inl: method "large".
    const std::string method = r.text(o, "method").value_or("large");
    if (method == "small") {
      r.key("material.model", "linear");
    } else if (method == "large" || method == "polar" ||
               (method == "svd" && o.type == "TetrahedronFEMForceField")) {
      r.key("material.model", "corotational");
      r.key("material.rotation", method);
    } else {
      r.reject(o, "method",
               o.type == "TetrahedronFEMForceField" ? "expected small, large, polar or svd"
                                                    : "expected small, large or polar");
    }
    // TetrahedronFEMForceField reads both as lists, element i taking list[i] where there is one,
    // else list[0] (material.cell-* keys follow that rule); TetrahedralCorotational's are reals.
    const bool lists = o.type == "TetrahedronFEMForceField";
    const std::vector<std::pair<const char*, double>> fields = {{"youngModulus", 5000.0},
                                                                {"poissonRatio", 0.45}};
    for (const auto& [field, fallback] : fields) {
      const std::vector<double> values = r.reals(o, field);
      const bool young = std::string(field) == "youngModulus";
      if (values.size() > 1 && !lists) r.reject(o, field, "expected one number");
      if (values.size() > 1) {
        std::string list;
        for (double v : values) list += (list.empty() ? "" : " ") + parse::text(v);
        r.key(young ? "material.cell-young-modulus" : "material.cell-poisson-ratio", list);
      } else {
        r.key(young ? "material.young-modulus" : "material.poisson-ratio",
              parse::text(values.empty() ? fallback : values[0]));
      }
    }
    // TetrahedronFEMForceField::computeMaterialStiffness: element i's modulus times
    // localStiffnessFactor[i M / N] (TetrahedralCorotationalFEMForceField's: refused).
    const std::vector<double> factors = r.reals(o, "localStiffnessFactor");
    if (!lists)
      r.refuseIfGiven(o, "localStiffnessFactor", "per-element stiffness factors are not supported");
    else if (!factors.empty())
      r.key("material.cell-stiffness-factor", joined(factors, 0, factors.size()));
    if (r.real(o, "plasticMaxThreshold", 0) != 0)
      r.reject(o, "plasticMaxThreshold", "plasticity is not supported");
    return true;
  }
  if (o.type == "TetrahedronHyperelasticityFEMForceField") {
    // TetrahedronHyperelasticityFEMForceField.inl: materialName ArrudaBoyce, ParameterSet copied
    // as is, [0] mu and [1] lambda for three of these, [0] mu and [1] the bulk modulus k0 for
    // ArrudaBoyce, ours k0 = lambda + 2 mu/3 (docs/sofa-hyperelastic.md).
    const std::string name = r.text(o, "materialName").value_or("ArrudaBoyce");
    const std::vector<std::pair<std::string, std::string>> models = {
        {"StVenantKirchhoff", "stvk"},
        {"NeoHookean", "neohookean"},
        {"StableNeoHookean", "stable-neohookean"},
        {"ArrudaBoyce", "arruda-boyce"}};
    std::string model;
    for (const auto& [sofaName, ours] : models)
      if (name == sofaName) model = ours;
    if (model.empty())
      r.reject(o, "materialName",
               name +
                   " is not implemented; ArrudaBoyce, StVenantKirchhoff, NeoHookean and "
                   "StableNeoHookean are");
    const std::vector<double> parameters = r.reals(o, "ParameterSet");
    if (parameters.size() != 2)
      r.reject(o, "ParameterSet",
               model == "arruda-boyce" ? "expected the two parameters mu and k0"
                                       : "expected the two Lame parameters mu and lambda");
    r.refuseIfGiven(o, "AnisotropyDirections", "anisotropic materials are not supported");
    r.refuseIfGiven(o, "ParameterFile", "a parameter file is not supported");
    r.key("material.model", model);
    const double second =
        model == "arruda-boyce" ? parameters[1] - 2.0 * parameters[0] / 3.0 : parameters[1];
    r.key("material.lame", parse::text(parameters[0]) + " " + parse::text(second));
    return true;
  }
  if (o.type == "MeshSpringForceField") {
    // MeshSpringForceField.inl: stiffness and damping (default 0) are aliases of every kind's
    // (linesStiffness, tetrahedraStiffness, ...), and each edge gets one spring: ours, along
    // the edges of the tetrahedra, with the same ks = stiffness / L0, kd = damping / L0.
    for (const char* field :
         {"linesStiffness", "linesDamping", "trianglesStiffness", "trianglesDamping",
          "quadsStiffness", "quadsDamping", "tetrahedraStiffness", "tetrahedraDamping",
          "cubesStiffness", "cubesDamping"})
      r.refuseIfGiven(o, field, "stiffness per kind of spring is not supported yet");
    if (r.boolean(o, "noCompression", false))
      r.reject(o, "noCompression", "springs that only pull are not supported");
    if (r.given(o, "stiffness")) r.key("springs.stiffness", parse::text(r.real(o, "stiffness", 0)));
    if (r.given(o, "damping")) r.key("springs.damping", parse::text(r.real(o, "damping", 0)));
    return true;
  }
  if (o.type == "RestShapeSpringsForceField") {
    // RestShapeSpringsForceField.inl: stiffness empty -> 100; point i of `points` takes
    // stiffness[i] where there is one, else stiffness[0]; points empty = every point;
    // activeDirections all 1; no external_rest_shape: its own rest positions.
    r.refuseIfGiven(o, "external_rest_shape", "springs to another object's rest shape");
    r.refuseIfGiven(o, "external_points", "springs to another object's rest shape");
    r.refuseIfGiven(o, "angularStiffness", "angular springs (rigid bodies) are not supported");
    for (double d : r.reals(o, "activeDirections"))
      if (d == 0) r.reject(o, "activeDirections", "springs in some directions only");
    std::vector<double> stiffness = r.reals(o, "stiffness");
    if (stiffness.empty()) stiffness = {100.0};
    const std::vector<long long> points = r.integers(o, "points");
    if (stiffness.size() > 1) {
      if (points.empty())
        r.reject(o, "stiffness", "one stiffness per point needs `points` written out");
      std::string nodes;
      for (std::size_t i = 0; i < points.size(); ++i)
        nodes += (i ? " " : "") + std::to_string(points[i]) + " " +
                 parse::text(stiffness[i < stiffness.size() ? i : 0]);
      r.key("springs.rest-shape-nodes", nodes);
    } else {
      r.key("springs.rest-shape",
            parse::text(stiffness[0]) + " " + (points.empty() ? "all" : indexList(points)));
    }
    return true;
  }
  if (o.type == "ConstantForceField") {
    // ConstantForceField.inl (SOFA master; its `force` was removed, so it is an unknown data
    // field here, io/sofa_data_fields): indices not set or empty = every point; forces wins over
    // totalForce (shared equally among the indices); one force in forces is the same on every
    // index (computeForceFromSingleForce), else one per index (their counts must agree); none
    // set: an invalid component, no force.
    if (r.boolean(o, "indexFromEnd", false))
      r.reject(o, "indexFromEnd", "indices counted from the end are not supported");
    const std::vector<std::string> where = selectionsOf(r, o, "indices", {"all"});
    if (where.size() != 1)
      r.reject(o, "indices", "several boxes or spheres for one force are not supported yet");
    if (r.given(o, "forces") && r.reals(o, "forces").size() == 3) {
      r.key("load.constant-force", vector3(r, o, "forces") + " " + where[0]);
    } else if (r.given(o, "forces")) {
      const std::vector<double> forces = r.reals(o, "forces");
      const std::vector<long long> indices = r.integers(o, "indices");
      if (where[0].rfind("indices", 0) != 0)
        r.reject(o, "forces", "one force per point needs `indices` written out");
      if (forces.size() != 3 * indices.size())
        r.reject(o, "forces", "expected 3 numbers (one force for every index) or 3 per index");
      std::string nodal;
      for (std::size_t i = 0; i < indices.size(); ++i)
        nodal += (i ? " " : "") + std::to_string(indices[i]) + " " + joined(forces, 3 * i, 3);
      r.key("load.nodal-forces", nodal);
    } else if (r.given(o, "totalForce")) {
      r.key("load.total-force", vector3(r, o, "totalForce") + " " + where[0]);
    }
    return true;
  }
  return false;
}

// FixedPlaneProjectiveConstraint.inl: projectResponse takes dir (dir . dx) off each selected
// node's dx, which for a unit axis fixes that axis; the nodes are `indices` and, when dmin !=
// dmax, those whose position at init has dmin < p . dir < dmax (isPointInPlane, strict: the
// bounds are moved to the next doubles inside). projectMatrix clears the nodes' whole rows
// instead, so an assembled direct solve in SOFA does not take the same step: refused.
bool mapFixedPlane(Reader& r, const SofaObject& o) {
  const std::vector<double> dir = r.reals(o, "direction");
  if (dir.size() != 3) r.reject(o, "direction", "expected 3 numbers");
  int axis = -1;
  for (int k = 0; k < 3; ++k)
    if (std::abs(dir[k]) == 1 && dir[(k + 1) % 3] == 0 && dir[(k + 2) % 3] == 0) axis = k;
  if (axis < 0)
    r.reject(o, "direction",
             "a unit axis (1 0 0, 0 -1 0, ...) is supported; another direction needs a projection "
             "along it, not implemented");
  if (r.gaveValue("solver.linear") == "direct")
    r.reject(o, "direction",
             "with a direct solver SOFA clears the nodes' whole rows (projectMatrix) but projects "
             "one direction of the response (projectResponse): not reproduced");
  const std::string flags = axis == 0 ? "1 0 0 " : axis == 1 ? "0 1 0 " : "0 0 1 ";
  for (const std::string& s : selectionsOf(r, o, "indices", {}))
    r.key("constraint.partial-fixed", flags + s);
  const double dmin = r.real(o, "dmin", 0), dmax = r.real(o, "dmax", 0);
  if (dmin == dmax) return true;
  const double sign = dir[axis];
  const double low = std::nextafter(sign > 0 ? dmin : -dmax, HUGE_VAL);
  const double high = std::nextafter(sign > 0 ? dmax : -dmin, -HUGE_VAL);
  if (low > high) return true;
  std::array<double, 6> box{-1e308, -1e308, -1e308, 1e308, 1e308, 1e308};
  box[axis] = low;
  box[3 + axis] = high;
  std::string text = "box";
  for (double b : box) text += " " + parse::text(b);
  r.key("constraint.partial-fixed", flags + text);
  return true;
}

bool mapConstraint(Reader& r, const SofaObject& o) {
  if (o.type == "FixedPlaneProjectiveConstraint" || o.type == "FixedPlaneConstraint")
    return mapFixedPlane(r, o);
  // FixedProjectiveConstraint.inl: indices defaults to {0}, fixAll false.
  const bool fixed = o.type == "FixedProjectiveConstraint" || o.type == "FixedConstraint";
  const bool partial =
      o.type == "PartialFixedProjectiveConstraint" || o.type == "PartialFixedConstraint";
  if (fixed || partial) {
    const std::vector<std::string> selections = r.boolean(o, "fixAll", false)
                                                    ? std::vector<std::string>{"all"}
                                                    : selectionsOf(r, o, "indices", {"indices 0"});
    // PartialFixedProjectiveConstraint.inl: fixedDirections "1 1 1".
    std::string flags;
    if (partial) {
      std::vector<double> directions = r.reals(o, "fixedDirections");
      if (!r.given(o, "fixedDirections")) directions = {1, 1, 1};
      if (directions.size() != 3) r.reject(o, "fixedDirections", "expected 3 flags");
      for (double d : directions) flags += (d != 0 ? "1 " : "0 ");
    }
    for (const std::string& s : selections)
      r.key(partial ? "constraint.partial-fixed" : "constraint.fixed", flags + s);
    return true;
  }
  if (o.type == "LinearMovementProjectiveConstraint" || o.type == "LinearMovementConstraint") {
    // LinearMovementProjectiveConstraint.inl (SOFA master): indices {0}, relativeMovements
    // true. findKeyTimes acts only while the time lies in [first key time, last key time), and
    // DefaultAnimationLoop projects before it advances the clock: constraint.linear-movement's
    // default rule, sofa, does both.
    if (!r.boolean(o, "relativeMovements", true))
      r.reject(o, "relativeMovements", "absolute movements are not supported yet");
    const std::vector<double> times = r.reals(o, "keyTimes");
    const std::vector<double> moves = r.reals(o, "movements");
    if (times.empty() || moves.size() != 3 * times.size())
      r.reject(o, "movements", "expected one displacement (3 numbers) per key time");
    std::string frames;
    for (std::size_t i = 0; i < times.size(); ++i)
      frames += parse::text(times[i]) + " " + joined(moves, 3 * i, 3) + " ";
    for (const std::string& s : selectionsOf(r, o, "indices", {"indices 0"}))
      r.key("constraint.linear-movement", frames + ": " + s);
    return true;
  }
  return false;
}

}  // namespace eis::sofa
