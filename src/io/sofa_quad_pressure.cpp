// SOFA's QuadPressureForceField as load.face-traction (model/face_traction.cpp).
#include <cmath>

#include "sofa_reader.hpp"
#include "sofa_selections.hpp"

namespace eis::sofa {

namespace {

// QuadPressureForceField.inl: pressure (a vector) 0 0 0, quadList empty, normal 0 0 0, dmin =
// dmax = 0. init selects the quads whose four rest positions have dmin < p . normal < dmax
// (selectQuadsAlongPlane, when dmin != dmax), then a non-empty quadList replaces that selection
// (selectQuadsFromString sets the map of quads anew); each selected quad's vertices get
// pressure * Quad::area(rest positions) / 4, at every addForce; addDForce and
// buildStiffnessMatrix add nothing. Its topology's quads are read here as every distinct face of
// the body's hexahedra (a HexahedronSetTopologyContainer's createQuadArray, a grid's quads), so
// quadList is read from a ROI's quadIndices, whose strict test keeps the quads with four
// vertices in it (BaseROI.inl): the quads of a node selection whatever their numbering. A
// numbered list is refused.
void mapQuadPressure(Reader& r, const SofaObject& o) {
  std::vector<double> pressure = r.reals(o, "pressure");
  if (pressure.empty()) pressure = {0, 0, 0};
  if (pressure.size() != 3) r.reject(o, "pressure", "expected 3 numbers");
  const SofaObject* topology = o.field("topology") ? r.linked(o, "topology") : topologyOf(o.node);
  if (!r.gave("mesh.hexahedra") || !topology ||
      (topology->type != "HexahedronSetTopologyContainer" &&
       topology->type != "RegularGridTopology" && topology->type != "GridTopology"))
    r.reject(o, "quadList",
             "its quads are read as the faces of a body of hexahedra (a "
             "HexahedronSetTopologyContainer's or a grid's), and " +
                 (topology ? topology->label() : std::string("no topology")) + " is not one");
  if (topology->field("quads"))
    r.reject(o, "quadList", "the quads written in " + topology->label() + " are not supported");
  std::vector<std::string> selections;
  if (o.field("quadList")) {
    std::string linkedField;
    const SofaObject* roi = r.linked(o, "quadList", &linkedField);
    if (!roi || linkedField != "quadIndices")
      r.reject(o, "quadList",
               "quads by number are not supported; link a BoxROI's, SphereROI's or PlaneROI's "
               "quadIndices");
    selections = selectionsOf(r, o, "quadList", {}, "quadIndices");
    // A quad with its vertices in two of a ROI's shapes is one of its quadIndices.
    if (selections.size() > 1)
      r.reject(o, "quadList", "the quads of more than one ROI shape are not supported");
  }
  const double dmin = r.real(o, "dmin", 0), dmax = r.real(o, "dmax", 0);
  if (!o.field("quadList") && dmin != dmax) {
    const std::vector<double> normal = r.reals(o, "normal");
    int axis = -1;
    for (int k = 0; normal.size() == 3 && k < 3; ++k)
      if (std::abs(normal[k]) == 1 && normal[(k + 1) % 3] == 0 && normal[(k + 2) % 3] == 0)
        axis = k;
    if (axis < 0)
      r.reject(o, "normal", "a unit axis (1 0 0, 0 -1 0, ...) is supported with dmin and dmax");
    const std::optional<std::string> slab = axisSlab(axis, normal[axis], dmin, dmax);
    if (!slab) return;
    selections.push_back(*slab);
  }
  if (pressure == std::vector<double>{0, 0, 0}) return;
  for (const std::string& s : selections)
    r.key("load.face-traction", joined(pressure, 0, 3) + " " + s);
}

}  // namespace

const RegisterSofaMapping quadPressure({"QuadPressureForceField"}, mapQuadPressure);

}  // namespace eis::sofa
