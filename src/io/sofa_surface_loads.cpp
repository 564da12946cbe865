// SOFA's pressure loads as load.pressure and load.surface-traction. Their triangle indices mean
// the mesh file's triangles only when the topology holds the loader's triangles as the file
// lists them: a MeshTopology that takes them from a MeshGmshLoader or MeshVTKLoader without
// createSubelements (MeshTopology::getTriangles builds the tetrahedra's faces only when it has no
// triangles). A TetrahedronSetTopologyContainer numbers the faces it creates for every
// tetrahedron (TetrahedronSetTopologyContainer::createTriangleSetArray, interior faces included,
// in its own orientation), and finds no loader triangle list it can keep for an interior face
// (createTrianglesInTetrahedronArray): that case is refused, as is a mesh written in the scene.
#include <cmath>

#include "eis/core/error.hpp"
#include "sofa_boundary_faces.hpp"
#include "sofa_reader.hpp"
#include "sofa_selections.hpp"

namespace eis::sofa {

namespace {

std::string joined(const std::vector<double>& values) {
  std::string text;
  for (double v : values) text += (text.empty() ? "" : " ") + parse::text(v);
  return text;
}

std::string triangleList(const std::vector<long long>& indices) {
  std::string text = "triangles";
  for (long long i : indices) text += " " + std::to_string(i);
  return text;
}

// The topology the field reads (its `topology` link, else the nearest one up its nodes, as
// BaseContext::getMeshTopologyLink finds it), checked to number the file's triangles.
void requireFileTriangles(const Reader& r, const SofaObject& o, const std::string& field) {
  const SofaObject* topology = o.field("topology") ? r.linked(o, "topology") : nullptr;
  for (const SofaNode* node = o.node; node && !topology; node = node->parent)
    for (const SofaObject& candidate : node->objects)
      if (!topology && (candidate.type == "MeshTopology" ||
                        candidate.type == "TetrahedronSetTopologyContainer" ||
                        candidate.type == "TriangleSetTopologyContainer"))
        topology = &candidate;
  if (!topology) r.reject(o, field, "no topology gives its triangles");
  if (topology->type != "MeshTopology")
    r.reject(o, field,
             "the triangles of a " + topology->type +
                 " are the faces SOFA creates for every tetrahedron, not the mesh file's; use a "
                 "MeshTopology with the loader's triangles");
  const SofaObject* loader = r.linked(*topology, "triangles");
  if (!loader) loader = r.linked(*topology, "tetrahedra");
  if (!loader || (loader->type != "MeshGmshLoader" && loader->type != "MeshVTKLoader"))
    r.reject(o, field, "its triangles must be the mesh file's: a MeshTopology reading a loader");
  if (r.boolean(*loader, "createSubelements", false))
    r.reject(*loader, "createSubelements",
             "the loader's sub-elements renumber the triangles a pressure load names");
}

// SurfacePressureForceField.inl: pressure 0, min = max = 0 (no box: every triangle),
// triangleIndices empty (then every triangle in the box, tested on the current positions),
// quadIndices empty, pulseMode false, volumeConservationMode false, useTangentStiffness true,
// mainDirection 0 (no scaling); pressureLowerBound (0) and pressureSpeed (0: |pressure|, set in
// init) act only in pulseMode, load.pressure-pulse (computePulseModePressure), defaultVolume
// only in volumeConservationMode.
void mapSurfacePressure(Reader& r, const SofaObject& o) {
  const bool pulse = r.boolean(o, "pulseMode", false);
  if (r.boolean(o, "volumeConservationMode", false))
    r.reject(o, "volumeConservationMode", "a pressure following the volume is not supported");
  if (!r.boolean(o, "useTangentStiffness", true))
    r.reject(o, "useTangentStiffness", "a pressure without its tangent is not supported");
  if (!r.integers(o, "quadIndices").empty())
    r.reject(o, "quadIndices", "pressure on quadrangles is not supported");
  for (double d : r.reals(o, "mainDirection"))
    if (d != 0) r.reject(o, "mainDirection", "a pressure scaled by a direction is not supported");
  const double pressure = r.real(o, "pressure", 0);
  const std::vector<long long> indices = r.integers(o, "triangleIndices");
  std::vector<double> min = r.reals(o, "min"), max = r.reals(o, "max");
  if (min.empty()) min = {0, 0, 0};
  if (max.empty()) max = {0, 0, 0};
  if (min.size() != 3) r.reject(o, "min", "expected 3 numbers");
  if (max.size() != 3) r.reject(o, "max", "expected 3 numbers");
  const bool noBox = min == std::vector<double>{0, 0, 0} && max == min;
  requireFileTriangles(r, o, indices.empty() ? "min" : "triangleIndices");
  const std::string surface = !indices.empty() ? triangleList(indices)
                              : noBox          ? "all"
                                               : "box " + joined(min) + " " + joined(max);
  if (pulse) {
    double speed = r.real(o, "pressureSpeed", 0);
    if (speed < 0) r.reject(o, "pressureSpeed", "a negative speed is not supported");
    if (speed == 0) speed = std::fabs(pressure);
    // No speed: the pressure stays 0.
    if (speed != 0)
      r.key("load.pressure-pulse", parse::text(pressure) + " " + parse::text(speed) + " " +
                                       parse::text(r.real(o, "pressureLowerBound", 0)) + " " +
                                       surface);
  } else if (pressure != 0) {
    r.key("load.pressure", parse::text(pressure) + " " + surface);
  }
}

// TrianglePressureForceField.inl: pressure (a vector) 0, triangleList empty (no triangle),
// useConstantForce true (pressure times the rest area, K = 0; false uses cauchyStress at
// the current positions, with no tangent). On the triangles of a Tetra2TriangleTopologicalMapping
// (io/sofa_boundary_faces) the list indexes the body's boundary triangles: inline, or a
// BoxROI's, SphereROI's or PlaneROI's triangleIndices (io/sofa_selections).
void mapTrianglePressure(Reader& r, const SofaObject& o) {
  if (!r.boolean(o, "useConstantForce", true))
    r.reject(o, "useConstantForce", "a Cauchy stress on the current area is not supported");
  std::vector<double> pressure = r.reals(o, "pressure");
  if (pressure.empty()) pressure = {0, 0, 0};
  if (pressure.size() != 3) r.reject(o, "pressure", "expected 3 numbers");
  const std::optional<std::string> faces = triangleFacesOf(r, o, "triangleList");
  if (!faces) return;
  if (*faces != "cells") {
    const std::vector<std::string> selections =
        selectionsOf(r, o, "triangleList", {}, "triangleIndices");
    if (selections.size() > 1)
      r.reject(o, "triangleList", "the triangles of more than one ROI shape are not supported");
    if (selections.empty() || pressure == std::vector<double>{0, 0, 0}) return;
    const std::string& s = selections[0];
    const std::string surface = s.rfind("indices ", 0) == 0 ? "boundary-triangles" + s.substr(7)
                                                            : "boundary-triangles-in " + s;
    r.key("load.surface-traction", joined(pressure) + " " + surface);
    return;
  }
  // A ROI's triangleIndices on a TetrahedronSetTopologyContainer: of the triangles it creates for
  // every tetrahedron, interior ones included, those with three vertices in the ROI.
  if (const SofaObject* roi = r.linked(o, "triangleList")) {
    const SofaObject* topology = o.field("topology") ? r.linked(o, "topology") : topologyOf(o.node);
    if (!r.gave("mesh.tetrahedra") || !topology ||
        topology->type != "TetrahedronSetTopologyContainer" || topology->field("triangles"))
      r.reject(o, "triangleList",
               "the triangles of " + roi->label() +
                   " are read only from a TetrahedronSetTopologyContainer's tetrahedra");
    const std::vector<std::string> selections =
        selectionsOf(r, o, "triangleList", {}, "triangleIndices");
    if (selections.size() > 1)
      r.reject(o, "triangleList", "the triangles of more than one ROI shape are not supported");
    if (selections.empty() || pressure == std::vector<double>{0, 0, 0}) return;
    r.key("load.face-traction", joined(pressure) + " " + selections[0]);
    return;
  }
  const std::vector<long long> indices = r.integers(o, "triangleList");
  if (indices.empty() || pressure == std::vector<double>{0, 0, 0}) return;
  requireFileTriangles(r, o, "triangleList");
  r.key("load.surface-traction", joined(pressure) + " " + triangleList(indices));
}

}  // namespace

const RegisterSofaMapping surfacePressure({"SurfacePressureForceField"}, mapSurfacePressure);
const RegisterSofaMapping trianglePressure({"TrianglePressureForceField"}, mapTrianglePressure);

}  // namespace eis::sofa
