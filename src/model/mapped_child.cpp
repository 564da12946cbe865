#include "eis/model/mapped_child.hpp"

#include <cmath>

#include "eis/core/scene.hpp"
#include "eis/model/mat3.hpp"

namespace eis {

using mat3::dot;

namespace {

std::vector<double> numbersOf(const std::string& key, const std::string& text) {
  std::vector<double> values;
  for (const std::string& token : parse::tokens(text)) {
    double x;
    if (!parse::number(token, x) || !std::isfinite(x))
      parse::reject(key, text, "'" + token + "' is not a finite number");
    values.push_back(x);
  }
  return values;
}

std::vector<Vec3> pointsOf(const std::string& key, const std::string& text) {
  const std::vector<double> values = numbersOf(key, text);
  if (values.empty() || values.size() % 3 != 0)
    parse::reject(key, text, "expected X Y Z for each point");
  std::vector<Vec3> points(values.size() / 3);
  for (std::size_t i = 0; i < points.size(); ++i)
    points[i] = {values[3 * i], values[3 * i + 1], values[3 * i + 2]};
  return points;
}

std::vector<std::int64_t> indicesOf(const std::string& key, const std::string& text) {
  std::vector<std::int64_t> indices;
  for (const std::string& token : parse::tokens(text)) {
    long long i;
    if (!parse::number(token, i) || i < 0)
      parse::reject(key, text, "'" + token + "' is not a node id (an integer >= 0)");
    indices.push_back(i);
  }
  if (indices.empty()) parse::reject(key, text, "expected at least one node id");
  return indices;
}

// "I FX FY FZ [I FX FY FZ ..]": a force on each listed child point, a repeated one's adding up.
std::map<std::int64_t, Vec3> nodalForcesOf(const std::string& key, const std::string& text) {
  const std::vector<double> values = numbersOf(key, text);
  if (values.empty() || values.size() % 4 != 0)
    parse::reject(key, text, "expected I FX FY FZ for each point");
  std::map<std::int64_t, Vec3> forces;
  for (std::size_t i = 0; i < values.size(); i += 4) {
    if (values[i] < 0 || values[i] != std::floor(values[i]))
      parse::reject(key, text, "'" + parse::text(values[i]) + "' is not a child point index");
    Vec3& f = forces.try_emplace(std::int64_t(values[i]), Vec3{0, 0, 0}).first->second;
    for (int d = 0; d < 3; ++d) f[d] += values[i + 1 + d];
  }
  return forces;
}

// "I K [I K ..]": a rest spring of stiffness K on each listed child point, adding up.
std::map<std::int64_t, double> nodeStiffnessOf(const std::string& key, const std::string& text) {
  const std::vector<double> values = numbersOf(key, text);
  if (values.empty() || values.size() % 2 != 0)
    parse::reject(key, text, "expected I K for each point");
  std::map<std::int64_t, double> stiffness;
  for (std::size_t i = 0; i < values.size(); i += 2) {
    if (values[i] < 0 || values[i] != std::floor(values[i]))
      parse::reject(key, text, "'" + parse::text(values[i]) + "' is not a child point index");
    if (values[i + 1] < 0) parse::reject(key, text, "a stiffness must be >= 0");
    stiffness[std::int64_t(values[i])] += values[i + 1];
  }
  return stiffness;
}

// "C FX FY FZ [C FX FY FZ ..]": each child point's body hexahedron (input order) and trilinear
// coordinates there.
void cellsOf(const std::string& key, const std::string& text, std::vector<std::int64_t>& cells,
             std::vector<Vec3>& coordinates) {
  const std::vector<double> values = numbersOf(key, text);
  if (values.empty() || values.size() % 4 != 0)
    parse::reject(key, text, "expected C FX FY FZ for each point");
  for (std::size_t i = 0; i < values.size(); i += 4) {
    if (values[i] < 0 || values[i] != std::floor(values[i]))
      parse::reject(key, text, "'" + parse::text(values[i]) + "' is not a cell number");
    cells.push_back(std::int64_t(values[i]));
    coordinates.push_back({values[i + 1], values[i + 2], values[i + 3]});
  }
}

}  // namespace

ChildMapping childMappingOf(const DistributedMesh& mesh, const MappedChildParameters& p) {
  switch (p.mapping) {
    case ChildMappingType::Identity: return ChildMapping::identity(mesh);
    case ChildMappingType::Subset: return ChildMapping::nodes(mesh, p.indices);
    default:
      return p.cells.empty() ? ChildMapping::barycentric(mesh, p.points)
                             : ChildMapping::inCells(mesh, p.cells, p.coordinates);
  }
}

MappedChild::MappedChild(const DistributedMesh& mesh, const MappedChildParameters& parameters)
    : mesh_(mesh), mapping_(childMappingOf(mesh, parameters)), planes_(parameters.planes) {
  if (!parameters.points.empty() && std::int64_t(parameters.points.size()) != mapping_.size())
    throw Error("mapped.points gives " + std::to_string(parameters.points.size()) +
                " points for the " + std::to_string(mapping_.size()) + " the mapping makes");
  if (parameters.vertexMass)
    mass_ = *parameters.vertexMass;
  else if (parameters.totalMass && mapping_.size() > 0)
    mass_ = *parameters.totalMass / double(mapping_.size());
  for (const std::int64_t listed :
       {parameters.nodalForces.empty() ? -1 : parameters.nodalForces.rbegin()->first,
        parameters.restStiffnessOf.empty() ? -1 : parameters.restStiffnessOf.rbegin()->first})
    if (listed >= mapping_.size())
      throw Error("mapped.nodal-forces or mapped.rest-shape-nodes names child point " +
                  std::to_string(listed) + " of " + std::to_string(mapping_.size()));
  const auto& points = mapping_.points();
  for (const auto& p : points) {
    Vec3 load;
    for (int d = 0; d < 3; ++d)
      load[d] = mass_ * parameters.gravity[d] +
                (parameters.constantForce ? (*parameters.constantForce)[d] : 0.0);
    if (const auto f = parameters.nodalForces.find(p.index); f != parameters.nodalForces.end())
      for (int d = 0; d < 3; ++d) load[d] += f->second[d];
    load_.push_back(load);
    const auto k = parameters.restStiffnessOf.find(p.index);
    restStiffness_.push_back(parameters.restStiffness +
                             (k != parameters.restStiffnessOf.end() ? k->second : 0.0));
  }
  const std::vector<std::array<double, 3>>& coords = mesh.restCoords();
  std::vector<double> restBody(3 * coords.size());
  for (std::size_t v = 0; v < coords.size(); ++v)
    for (int d = 0; d < 3; ++d) restBody[3 * v + d] = coords[v][d];
  for (const auto& p : points)
    rest_.push_back(!parameters.points.empty() ? parameters.points[std::size_t(p.index)]
                                               : mapping_.apply(p, restBody.data()));
  for (double k : restStiffness_) stiffness_.push_back({-k, 0, 0, 0, -k, 0, 0, 0, -k});
  firstOf_.assign(mesh.cells().size() + 1, 0);
  for (const auto& p : points) ++firstOf_[p.cell + 1];
  for (std::size_t c = 0; c < mesh.cells().size(); ++c) firstOf_[c + 1] += firstOf_[c];
  byCell_.resize(points.size());
  std::vector<std::size_t> next(firstOf_.begin(), firstOf_.end() - 1);
  for (std::size_t i = 0; i < points.size(); ++i) byCell_[next[points[i].cell]++] = i;
}

template <class Work>
void MappedChild::forPointsOf(CellRange range, Work&& work) const {
  for (std::size_t c = range.begin; c < range.end; ++c)
    for (std::size_t k = firstOf_[c]; k < firstOf_[c + 1]; ++k) work(c, byCell_[k]);
}

void MappedChild::addForce(const double* x, const double* v, double* f) {
  const auto& points = mapping_.points();
  for (std::size_t i = 0; i < points.size(); ++i) {
    const Vec3 xc = mapping_.apply(points[i], x);
    Vec3 fc = load_[i];
    Block& k = stiffness_[i];
    k = Block{};
    for (int d = 0; d < 3; ++d) {
      fc[d] -= restStiffness_[i] * (xc[d] - rest_[i][d]);
      k[4 * d] = -restStiffness_[i];
    }
    if (!planes_.empty()) {
      const Vec3 vc = mapping_.apply(points[i], v);
      for (const Plane& plane : planes_) {
        const Vec3& n = plane.normal;
        const double s = xc[0] * n[0] + xc[1] * n[1] + xc[2] * n[2] - plane.d;
        if (!(plane.bilateral || s < 0)) continue;
        const double pushing = -plane.stiffness * s, damping = -plane.damping * s;
        Vec3 force;
        for (int a = 0; a < 3; ++a) force[a] = n[a] * pushing - vc[a] * damping;
        const double amplitude = dot(force, force), limit = plane.maxForce * plane.maxForce;
        const double scale = limit > 0 && amplitude > limit ? std::sqrt(limit / amplitude) : 1.0;
        for (int a = 0; a < 3; ++a) {
          fc[a] += force[a] * scale;
          for (int b = 0; b < 3; ++b) k[3 * a + b] -= plane.stiffness * n[a] * n[b];
        }
      }
    }
    mapping_.addTransposed(points[i], fc, f);
  }
}

void MappedChild::addDForce(const double* dx, double* df, double kFactor) const {
  const auto& points = mapping_.points();
  for (std::size_t i = 0; i < points.size(); ++i) {
    const Vec3 dxc = mapping_.apply(points[i], dx);
    Vec3 dfc{0, 0, 0};
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b) dfc[a] += kFactor * stiffness_[i][3 * a + b] * dxc[b];
    mapping_.addTransposed(points[i], dfc, df);
  }
}

void MappedChild::addKToElementMatrices(double* elementMatrices, double kFactor,
                                        CellRange range) const {
  const int n = 3 * mesh_.cells().corners();
  forPointsOf(range, [&](std::size_t c, std::size_t i) {
    Block k;
    for (int e = 0; e < 9; ++e) k[e] = kFactor * stiffness_[i][e];
    mapping_.addToElementMatrix(mapping_.points()[i], k,
                                elementMatrices + (c - range.begin) * n * n);
  });
}

void MappedChild::addMDx(const double* dx, double* out, double mFactor) const {
  if (mass_ == 0) return;
  for (const auto& p : mapping_.points()) {
    Vec3 m = mapping_.apply(p, dx);
    for (double& e : m) e *= mFactor * mass_;
    mapping_.addTransposed(p, m, out);
  }
}

void MappedChild::addMToElementMatrices(double* elementMatrices, double mFactor,
                                        CellRange range) const {
  if (mass_ == 0) return;
  const int n = 3 * mesh_.cells().corners();
  const double m = mFactor * mass_;
  const Block block{m, 0, 0, 0, m, 0, 0, 0, m};
  forPointsOf(range, [&](std::size_t c, std::size_t i) {
    mapping_.addToElementMatrix(mapping_.points()[i], block,
                                elementMatrices + (c - range.begin) * n * n);
  });
}

double MappedChild::potentialEnergy(const double* x) const {
  double energy = 0;
  const auto& points = mapping_.points();
  for (std::size_t i = 0; i < points.size(); ++i) {
    const Vec3 xc = mapping_.apply(points[i], x);
    for (int d = 0; d < 3; ++d) {
      const double u = xc[d] - rest_[i][d];
      energy += 0.5 * restStiffness_[i] * u * u;
    }
    for (const Plane& plane : planes_) {
      const double s = dot(xc, plane.normal) - plane.d;
      if (plane.bilateral || s < 0) energy += 0.5 * plane.stiffness * s * s;
    }
  }
  return energy;
}

double MappedChild::externalPotential(const double* x) const {
  double potential = 0;
  const auto& points = mapping_.points();
  for (std::size_t i = 0; i < points.size(); ++i)
    potential -= dot(load_[i], mapping_.apply(points[i], x));
  return potential;
}

MappedChildParameters readMappedChildParameters(const Parameters& scene) {
  MappedChildParameters p;
  p.mapping = scene.choice("mapped.mapping", kChildMappingTypes);
  if (scene.given("mapped.indices"))
    p.indices = indicesOf("mapped.indices", scene.text("mapped.indices"));
  if (scene.given("mapped.points"))
    p.points = pointsOf("mapped.points", scene.text("mapped.points"));
  if (scene.given("mapped.cells"))
    cellsOf("mapped.cells", scene.text("mapped.cells"), p.cells, p.coordinates);
  if (scene.given("mapped.vertex-mass")) p.vertexMass = scene.real("mapped.vertex-mass");
  if (scene.given("mapped.total-mass")) p.totalMass = scene.real("mapped.total-mass");
  p.gravity = scene.real3("mapped.gravity");
  if (scene.given("mapped.constant-force")) p.constantForce = scene.real3("mapped.constant-force");
  if (scene.given("mapped.nodal-forces"))
    p.nodalForces = nodalForcesOf("mapped.nodal-forces", scene.text("mapped.nodal-forces"));
  if (scene.given("mapped.rest-shape-nodes"))
    p.restStiffnessOf =
        nodeStiffnessOf("mapped.rest-shape-nodes", scene.text("mapped.rest-shape-nodes"));
  for (const std::string& text : scene.texts("mapped.plane"))
    p.planes.push_back(parsePlane("mapped.plane", text));
  p.restStiffness = scene.real("mapped.rest-shape-stiffness");
  return p;
}

std::unique_ptr<ForceField> makeMappedChild(const ModelContext& context,
                                            const MappedChildParameters& parameters) {
  if (parameters.mapping == ChildMappingType::None) return nullptr;
  return std::make_unique<MappedChild>(context.mesh, parameters);
}

namespace {

// mapped.mapping needs the points (barycentric) or the indices (subset); a mass is given one way.
void resolveMappedChild(Scene& scene) {
  const auto mapping = scene.choice("mapped.mapping", kChildMappingTypes);
  const bool indices = scene.given("mapped.indices"), points = scene.given("mapped.points");
  if (mapping == ChildMappingType::Subset && !indices)
    throw Error("mapped.mapping = subset needs mapped.indices");
  if (mapping == ChildMappingType::Barycentric && !points)
    throw Error("mapped.mapping = barycentric needs mapped.points");
  if (scene.given("mapped.cells") &&
      (mapping == ChildMappingType::Identity || mapping == ChildMappingType::Subset))
    throw Error("mapped.cells is for mapped.mapping = barycentric");
  if (scene.given("mapped.vertex-mass") && scene.given("mapped.total-mass"))
    throw Error("mapped.vertex-mass and mapped.total-mass exclude each other");
}

ForceFieldComponent mappedChildComponent() {
  const auto numbers = [](const std::string& key, const std::string& text) {
    key == "mapped.points" ? (void)pointsOf(key, text) : (void)indicesOf(key, text);
  };
  return {
      {"mapped-child", "force field",
       "points that follow the body through a mapping, with their mass and loads (SOFA "
       "IdentityMapping, SubsetMapping, BarycentricMapping in a child node)",
       ParameterSpec()
           .add({"mapped.mapping", "none|identity|subset|barycentric",
                 "how the child's points follow the body: x_c = J x. identity: point i is node\n"
                 "i; subset: point i is node mapped.indices[i]; barycentric: the points\n"
                 "mapped.points, each in the cell SOFA's BarycentricMapping picks (the one it\n"
                 "lies deepest in, else the nearest centre), with its cell's barycentric or\n"
                 "trilinear weights. Its forces reach the body as J^T f, its stiffness and mass\n"
                 "as J^T K J and J^T M J",
                 "none", "", false, check::choice(kChildMappingTypes)})
           .add({"mapped.indices", "\"I [I ..]\"",
                 "the body node ids (0-based input order) of the child's points (subset)",
                 std::nullopt, "", false, numbers})
           .add({"mapped.points", "\"X Y Z [X Y Z ..]\"",
                 "the child's points at rest, the rest positions of\n"
                 "mapped.rest-shape-stiffness; barycentric: they also fix J (required);\n"
                 "identity and subset: one a child point (default: the body's rest positions\n"
                 "at its nodes)",
                 std::nullopt, "length", false, numbers})
           .add({"mapped.cells", "\"C FX FY FZ [C FX FY FZ ..]\"",
                 "barycentric: each child point's body hexahedron C (0-based input order) and its\n"
                 "trilinear coordinates there, instead of locating mapped.points (SOFA's\n"
                 "BarycentricMapperRegularGridTopology, which picks the cube by the grid's index)",
                 std::nullopt, "", false,
                 [](const std::string& key, const std::string& text) {
                   std::vector<std::int64_t> cells;
                   std::vector<Vec3> coordinates;
                   cellsOf(key, text, cells, coordinates);
                 }})
           .add({"mapped.vertex-mass", "M",
                 "the mass of every child point (SOFA UniformMass vertexMass)", std::nullopt,
                 "mass", false, check::positive()})
           .add({"mapped.total-mass", "M",
                 "the child's mass, shared equally by its points (SOFA UniformMass totalMass)",
                 std::nullopt, "mass", false, check::positive()})
           .add({"mapped.gravity", "\"GX GY GZ\"",
                 "the gravity the child's mass weighs in: f_c = m g (SOFA's one gravity: give\n"
                 "load.gravity's value)",
                 "0 -9.81 0", "length/time^2", false, check::reals(3)})
           .add({"mapped.constant-force", "\"FX FY FZ\"",
                 "a force on every child point (SOFA ConstantForceField `force`)", std::nullopt,
                 "force", false, check::reals(3)})
           .add({"mapped.nodal-forces", "\"I FX FY FZ [I FX FY FZ ..]\"",
                 "a force on each listed child point, I its 0-based index in the child\n"
                 "(SOFA ConstantForceField `indices` and `forces`); repeated points add up",
                 std::nullopt, "force", false,
                 [](const std::string& key, const std::string& text) { nodalForcesOf(key, text); }})
           .add({"mapped.plane", "\"NX NY NZ D [K [C [FMAX]]] [bilateral]\"",
                 "a penalty plane acting on the child's points, as obstacle.plane on nodes (SOFA\n"
                 "PlaneForceField in the child). Repeatable.",
                 std::nullopt, "", true,
                 [](const std::string& key, const std::string& text) { parsePlane(key, text); }})
           .add({"mapped.rest-shape-stiffness", "K",
                 "a spring of stiffness K from each child point to its rest position, f_c =\n"
                 "-K (x_c - x_c,rest) (SOFA RestShapeSpringsForceField in the child); 0: none",
                 "0", "force/length", false, check::nonNegative()})
           .add({"mapped.rest-shape-nodes", "\"I K [I K ..]\"",
                 "a rest spring of its own stiffness K on each listed child point (SOFA\n"
                 "RestShapeSpringsForceField `points` and `stiffness`); springs on one point\n"
                 "add up, to mapped.rest-shape-stiffness too",
                 std::nullopt, "force/length", false,
                 [](const std::string& key, const std::string& text) {
                   nodeStiffnessOf(key, text);
                 }}),
       resolveMappedChild},
      Physics::Elasticity,
      forceFieldMaker(readMappedChildParameters, makeMappedChild)};
}

}  // namespace

// Force fields take ranks 400-499 (core/component_registry.hpp): the child's forces are summed
// after the body's own.
const RegisterForceField registered(493, mappedChildComponent);

}  // namespace eis
