// SOFA's TriangularFEMForceField and TriangleFEMForceField as the keys of our triangular-fem
// (model/triangular_fem.cpp), and its TriangularBendingSprings as triangular-bending-springs'
// (model/triangular_bending_springs.cpp); on a body of triangles, or on the boundary triangles
// of a body of tetrahedra that a Tetra2TriangleTopologicalMapping gives their node
// (io/sofa_boundary_faces: membrane.faces, bending.faces), or of a Quad2TriangleTopologicalMapping
// of the quadrangles a Hexa2QuadTopologicalMapping makes of hexahedra.
#include <optional>
#include <string>
#include <vector>

#include "eis/core/parameters.hpp"
#include "sofa_boundary_faces.hpp"
#include "sofa_reader.hpp"

namespace eis::sofa {

namespace {

// TriangularFEMForceField.inl: method large (setMethod warns of another name and takes large;
// here it is refused), youngModulus 5000 and poissonRatio 0.45 as BaseLinearElasticityFEMForceField
// reads them (one value: a list per element is refused). The frames and rest shapes given as
// data (rotatedInitialElements, initialTransformation) replace the rest positions': refused.
// TriangleFEMForceField.inl: the same, and thickness 1, planeStrain false; initialPoints (rest
// positions of its own) refused.
void mapTriangularFem(Reader& r, const SofaObject& o) {
  const std::optional<std::string> faces = triangleFacesOf(r, o, "youngModulus");
  if (!faces) return;
  if (r.real(o, "rayleighStiffness", 0) != 0)
    r.reject(o, "rayleighStiffness", "a force field's own Rayleigh damping is not supported");
  const bool triangle = o.type == "TriangleFEMForceField";
  if (triangle) {
    r.refuseIfGiven(o, "initialPoints",
                    "rest positions of the force field's own are not supported");
    const double thickness = r.real(o, "thickness", 1);
    if (thickness <= 0) r.reject(o, "thickness", "must be > 0");
    r.key("membrane.element", "triangle");
    r.key("membrane.thickness", parse::text(thickness));
    r.key("membrane.plane-strain", r.boolean(o, "planeStrain", false) ? "true" : "false");
  } else {
    for (const char* field : {"rotatedInitialElements", "initialTransformation"})
      r.refuseIfGiven(o, field, "rest frames given as data are not supported");
  }
  // A flat grid whose quads a mass integrates is a body of quads (io/sofa_grid_mesh.cpp): the
  // FEM reads GridTopology's triangles, two of each quad.
  const SofaObject* topology = o.field("topology") ? nullptr : topologyOf(o.node);
  const bool cutQuads =
      *faces == "cells" && topology && r.gave("mesh.quadrangles") &&
      (topology->type == "RegularGridTopology" || topology->type == "GridTopology");
  r.key("membrane.faces", cutQuads ? "cut-quadrangles" : *faces);
  const std::string method = r.text(o, "method").value_or("large");
  if (method != "large" && method != "small") r.reject(o, "method", "expected large or small");
  r.key("membrane.method", method);
  const std::vector<std::pair<const char*, double>> fields = {{"youngModulus", 5000.0},
                                                              {"poissonRatio", 0.45}};
  for (const auto& [field, fallback] : fields) {
    const std::vector<double> values = r.reals(o, field);
    if (values.size() > 1) r.reject(o, field, "one value per element is not supported");
    r.key(
        std::string(field) == "youngModulus" ? "membrane.young-modulus" : "membrane.poisson-ratio",
        parse::text(values.empty() ? fallback : values[0]));
  }
}

// TriangularBendingSprings.inl: stiffness 100000, damping 1 (setKs and setKd warn of a negative
// value; here it is refused).
void mapTriangularBendingSprings(Reader& r, const SofaObject& o) {
  const std::optional<std::string> faces = triangleFacesOf(r, o, "stiffness");
  if (!faces) return;
  if (r.real(o, "rayleighStiffness", 0) != 0)
    r.reject(o, "rayleighStiffness", "a force field's own Rayleigh damping is not supported");
  const double ks = r.real(o, "stiffness", 100000.0), kd = r.real(o, "damping", 1.0);
  if (ks < 0) r.reject(o, "stiffness", "must be >= 0");
  if (kd < 0) r.reject(o, "damping", "must be >= 0");
  r.key("bending.faces", *faces);
  // The springs join vertices that share no cell, so they have no element matrix: the step's
  // operator is matrix-free, as SOFA's CGLinearSolver's (a GraphScatteredMatrix) is.
  if (!r.gave("solver.operator")) {
    r.key("solver.operator", "matrix-free");
    r.note(
        "TriangularBendingSprings: the step's matrix is matrix-free (its springs lie in no "
        "cell)");
  }
  r.key("bending.stiffness", parse::text(ks));
  r.key("bending.damping", parse::text(kd));
}

}  // namespace

const RegisterSofaMapping bendingSprings({"TriangularBendingSprings"}, mapTriangularBendingSprings);
const RegisterSofaMapping triangularFem({"TriangularFEMForceField", "TriangleFEMForceField"},
                                        mapTriangularFem);

}  // namespace eis::sofa
