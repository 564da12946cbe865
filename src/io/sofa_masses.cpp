// SOFA's masses as the keys of our mass (model/mass.cpp).
#include "sofa_reader.hpp"

namespace eis::sofa {

namespace {

// UniformMass.inl: totalMass wins when set (vertexMass = totalMass / points), else vertexMass;
// neither set makes the component invalid in SOFA master (before its PR #3927, totalMass = 1), so
// it is an error here. indices empty = every point.
void mapUniformMass(Reader& r, const SofaObject& o) {
  r.refuseIfGiven(o, "indices", "a uniform mass on some points only is not supported");
  r.refuseIfGiven(o, "filename", "a mass file is not supported");
  r.key("mass.type", "uniform");
  if (r.given(o, "totalMass"))
    r.key("mass.total-mass", parse::text(r.real(o, "totalMass", 1.0)));
  else if (r.given(o, "vertexMass"))
    r.key("mass.vertex-mass", parse::text(r.real(o, "vertexMass", 1.0)));
  else
    r.reject(o, "totalMass", "give totalMass or vertexMass (SOFA master requires one)");
}

// DiagonalMass.inl, MeshMatrixMass.inl: massDensity 1, totalMass 1, vertexMass empty (the
// priority among them: below). MeshMatrixMass lumping (false) sums the rows: SOFA's lumped P1
// mass, our lumped mass.
void mapMeshMass(Reader& r, const SofaObject& o) {
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
    // DiagonalMass.inl (checkVertexMass): a vertexMass whose size is not the number of points
    // is dropped for the default totalMass 1 (with SOFA's warning). A volume mesh has at least 4
    // points, so fewer values are always dropped.
    if (o.type != "DiagonalMass" || r.reals(o, "vertexMass").size() >= 4)
      r.reject(o, "vertexMass",
               "masses given per vertex are not supported; give massDensity or "
               "totalMass");
    r.warn(o.label() +
           ": vertexMass has fewer values than the mesh has points; SOFA drops it for the "
           "default totalMass = 1, and so do we");
    r.key("mass.total-mass", "1");
  } else {
    r.note(o.label() + ": no mass data: totalMass = 1, SOFA's default");
    r.key("mass.total-mass", "1");
  }
}

}  // namespace

const RegisterSofaMapping uniformMass({"UniformMass"}, mapUniformMass);
const RegisterSofaMapping meshMasses({"DiagonalMass", "MeshMatrixMass"}, mapMeshMass);

}  // namespace eis::sofa
