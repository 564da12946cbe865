// SOFA's SurfacePressureForceField in a mapped child (SOFA master's
// SurfacePressureForceField.inl on the child's state), as the mapped-pressure keys
// (model/mapped_pressure.hpp). Its faces are its topology's (the `topology` link, else the
// nearest up its node), which must be the child's own: a MeshTopology holding triangles and
// quads written in the scene or taken from the MeshOBJLoader that gives the child's points.
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "eis/core/error.hpp"
#include "sofa_mapped_child.hpp"

namespace eis::sofa {

namespace {

struct Faces {
  std::vector<std::array<long long, 3>> triangles;
  std::vector<std::array<long long, 4>> quads;
};

// MeshOBJLoader::readOBJ's faces (`f` and `l` lines alike): two corners make an edge, four a
// quadrangle unless `triangulate`, any other count the fan (0, j-1, j); MeshLoader::addTriangle
// and addQuad reverse each one under flipNormals.
Faces objFaces(Reader& r, const SofaObject& loader, const std::string& file) {
  const bool triangulate = r.boolean(loader, "triangulate", false),
             flip = r.boolean(loader, "flipNormals", false);
  Faces faces;
  const Surface surface = readObj(file);
  for (const std::vector<long long>& f : surface.facets) {
    if (f.size() == 2) continue;
    if (f.size() == 4 && !triangulate) {
      faces.quads.push_back(flip ? std::array<long long, 4>{f[3], f[2], f[1], f[0]}
                                 : std::array<long long, 4>{f[0], f[1], f[2], f[3]});
      continue;
    }
    for (std::size_t j = 2; j < f.size(); ++j)
      faces.triangles.push_back(flip ? std::array<long long, 3>{f[j], f[j - 1], f[0]}
                                     : std::array<long long, 3>{f[0], f[j - 1], f[j]});
  }
  return faces;
}

// N indices a face from a list written in the scene.
template <std::size_t N>
std::vector<std::array<long long, N>> writtenFaces(Reader& r, const SofaObject& topology,
                                                   const char* field) {
  const std::vector<long long> ids = r.integers(topology, field);
  if (ids.size() % N != 0)
    r.reject(topology, field, "expected " + std::to_string(N) + " indices a face");
  std::vector<std::array<long long, N>> faces(ids.size() / N);
  for (std::size_t i = 0; i < ids.size(); ++i) faces[i / N][i % N] = ids[i];
  return faces;
}

// The faces of the pressure's topology, checked to be the child's own and to name its points.
Faces childFaces(Reader& r, const SofaObject& o, const MappedNode& child,
                 const std::string& objFile, std::size_t points) {
  const SofaObject* topology = o.field("topology") ? r.linked(o, "topology") : topologyOf(o.node);
  if (!topology || topology->node != child.node)
    r.reject(o, "topology",
             "its faces must be a topology of its own node " + child.node->path() +
                 " (SOFA takes the nearest, which would be the body's)");
  if (topology->type != "MeshTopology")
    r.reject(o, "topology",
             "the faces of a " + topology->type + " are not supported here; use a MeshTopology");
  const SofaObject* pointsLoader = r.linked(*child.state, "position");
  Faces faces;
  const SofaObject* triangles = r.linked(*topology, "triangles");
  const SofaObject* quads = r.linked(*topology, "quads");
  if (triangles || quads) {
    if (triangles != quads || triangles != pointsLoader || triangles->type != "MeshOBJLoader" ||
        objFile.empty())
      r.reject(*topology, triangles ? "triangles" : "quads",
               "a mapped child's faces are read as written or from the MeshOBJLoader that gives "
               "its points");
    faces = objFaces(r, *triangles, objFile);
  } else {
    faces.triangles = writtenFaces<3>(r, *topology, "triangles");
    faces.quads = writtenFaces<4>(r, *topology, "quads");
  }
  for (const auto& t : faces.triangles)
    for (long long i : t)
      if (i < 0 || std::size_t(i) >= points)
        r.reject(*topology, "triangles",
                 "a triangle names point " + std::to_string(i) + " of the child's " +
                     std::to_string(points));
  for (const auto& q : faces.quads)
    for (long long i : q)
      if (i < 0 || std::size_t(i) >= points)
        r.reject(*topology, "quads",
                 "a quadrangle names point " + std::to_string(i) + " of the child's " +
                     std::to_string(points));
  return faces;
}

// The faces `indices` select of `all` (every one when empty), as "a b c ..".
template <std::size_t N>
std::string selected(Reader& r, const SofaObject& o, const char* field,
                     const std::vector<std::array<long long, N>>& all) {
  std::vector<long long> indices = r.integers(o, field);
  if (indices.empty())
    for (std::size_t i = 0; i < all.size(); ++i) indices.push_back((long long)i);
  std::string text;
  for (long long i : indices) {
    if (i < 0 || std::size_t(i) >= all.size())
      r.reject(o, field,
               "face " + std::to_string(i) + " of the topology's " + std::to_string(all.size()));
    for (long long v : all[std::size_t(i)]) text += (text.empty() ? "" : " ") + std::to_string(v);
  }
  return text;
}

}  // namespace

// SurfacePressureForceField.inl: pressure 0, triangleIndices and quadIndices empty (every face),
// min = max = 0 (no box), pulseMode false, pressureSpeed 0 (|pressure| in pulse mode, set in
// init), pressureLowerBound 0, volumeConservationMode false, useTangentStiffness true,
// mainDirection 0.
void mapMappedChildPressure(Reader& r, const SofaObject& o, const MappedNode& child,
                            const std::string& objFile, std::size_t points) {
  if (r.boolean(o, "volumeConservationMode", false))
    r.reject(o, "volumeConservationMode", "a pressure following the volume is not supported");
  if (!r.boolean(o, "useTangentStiffness", true))
    r.reject(o, "useTangentStiffness", "a pressure without its tangent is not supported");
  for (double d : r.reals(o, "mainDirection"))
    if (d != 0) r.reject(o, "mainDirection", "a pressure scaled by a direction is not supported");
  for (const char* field : {"min", "max"})
    for (double d : r.reals(o, field))
      if (d != 0)
        r.reject(o, field,
                 "a box on a mapped child's faces (tested at its positions) is not "
                 "supported");
  const Faces faces = childFaces(r, o, child, objFile, points);
  // Faces listed by index are pressed whatever the box; without a list, every face is.
  const std::string triangles = selected(r, o, "triangleIndices", faces.triangles),
                    quads = selected(r, o, "quadIndices", faces.quads);
  const double pressure = r.real(o, "pressure", 0);
  std::string law, value;
  if (r.boolean(o, "pulseMode", false)) {
    double speed = r.real(o, "pressureSpeed", 0);
    if (speed < 0) r.reject(o, "pressureSpeed", "a negative speed is not supported");
    if (speed == 0) speed = std::fabs(pressure);
    // No speed: the pressure stays 0.
    if (speed == 0) return;
    law = "mapped.pressure-pulse";
    value = parse::text(pressure) + " " + parse::text(speed) + " " +
            parse::text(r.real(o, "pressureLowerBound", 0));
  } else {
    if (pressure == 0) return;
    law = "mapped.pressure";
    value = parse::text(pressure);
  }
  if (triangles.empty() && quads.empty()) {
    r.warn(o.where + ": " + o.label() + ": no face to press");
    return;
  }
  if (r.gave("mapped.pressure") || r.gave("mapped.pressure-pulse"))
    r.reject(o, "pressure", "a second pressure on one mapped child is not supported");
  r.key(law, value);
  if (!triangles.empty()) r.key("mapped.triangles", triangles);
  if (!quads.empty()) r.key("mapped.quads", quads);
}

}  // namespace eis::sofa
