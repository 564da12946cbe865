// SOFA's NonUniformHexahedronFEMForceFieldAndMass (NonUniformHexahedronFEMForceFieldAndMass.inl):
// HexahedronFEMForceFieldAndMass whose cells' stiffness and mass are condensed from the
// nbVirtualFinerLevels finer levels of its SparseGridTopology (model/nonuniform_hexahedron.hpp).
// Its own data: nbVirtualFinerLevels (0), useMass (true), totalMass (0, read only without
// useMass). Its init sets the method for large and polar only; gravity acts on each cell's
// density V / 8 a vertex times the grid's mass coefficient, as HexahedronFEMForceFieldAndMass's.
#include <cmath>
#include <string>

#include "eis/core/parameters.hpp"
#include "sofa_reader.hpp"
#include "sofa_selections.hpp"
#include "sofa_sparse_grid.hpp"

namespace eis::sofa {

namespace {

void mapNonUniformHexahedronFem(Reader& r, const SofaObject& o) {
  const std::string method = r.text(o, "method").value_or("large");
  if (method != "large" && method != "polar")
    r.reject(o, "method",
             "expected large or polar (SOFA's NonUniformHexahedronFEMForceFieldAndMass sets no "
             "other)");
  if (!r.boolean(o, "useMass", true))
    r.reject(o, "useMass", "false (a mass of totalMass shared out by cell) is not supported");
  r.refuseIfGiven(o, "totalMass", "a mass of totalMass shared out by cell is not supported");
  const double levels = r.real(o, "nbVirtualFinerLevels", 0);
  if (levels != std::floor(levels) || levels < 0 || levels > 8)
    r.reject(o, "nbVirtualFinerLevels", "expected an integer from 0 to 8");
  // SOFA then reads a sparse grid's levels it has not got.
  const SofaObject* topology = topologyOf(o.node);
  if (levels != 0 && (!topology || !isSparseGrid(topology->type)))
    r.reject(o, "nbVirtualFinerLevels", "finer levels need a SparseGridTopology");
  sofaMapping("HexahedronFEMForceFieldAndMass")(r, o);
}

}  // namespace

void mapNonUniformLevels(Reader& r, const SofaObject& grid, const SofaObject& field,
                         const SparseGrid& mesh, const std::vector<GridLevel>& finer) {
  const int levels = int(r.real(field, "nbVirtualFinerLevels", 0));
  if (levels == 0) {
    // SOFA says it uses the classical matrices (and reads a level past its last one).
    r.note(field.label() + ": no virtual finer level: HexahedronFEMForceFieldAndMass's matrices");
    return;
  }
  if (grid.type != "SparseGridTopology")
    r.reject(field, "nbVirtualFinerLevels", "on a " + grid.type + ": not supported");
  if (std::size_t(levels) > finer.size())
    r.reject(field, "nbVirtualFinerLevels",
             "more than the " + std::to_string(finer.size()) + " of " + grid.label() +
                 " (SOFA then reads past its levels)");
  const std::vector<double> factors = finerCoefficients(mesh, finer, levels);
  const std::string list = joined(factors, 0, factors.size());
  r.key("material.virtual-finer-levels", std::to_string(levels));
  r.key("material.cell-finer-stiffness-factor", list);
  r.key("mass.virtual-finer-levels", std::to_string(levels));
  r.key("mass.cell-finer-factor", list);
}

std::string refusalOf(const std::string& type, const std::string& otherwise) {
  if (type == "HexahedronCompositeFEMForceFieldAndMass")
    return "not supported: SOFA homogenises each coarse cell by a static condensation of its "
           "finer cells' 27-vertex assembled stiffness (the 8 corners held, a rigid stiffness in "
           "the empty children, homogenizationMethod, finestToCoarse, useRamification), on a "
           "SparseGridMultipleTopology's massCoefs, and its HexahedronCompositeFEMMapping "
           "interpolates with the weights that condensation leaves; "
           "NonUniformHexahedronFEMForceFieldAndMass (trilinear condensation) is supported";
  return otherwise;
}

const RegisterSofaMapping nonUniformHexahedronFem({"NonUniformHexahedronFEMForceFieldAndMass"},
                                                  mapNonUniformHexahedronFem);

}  // namespace eis::sofa
