// SOFA's NonUniformHexahedronFEMForceFieldAndMass (NonUniformHexahedronFEMForceFieldAndMass.inl):
// HexahedronFEMForceFieldAndMass whose cells' stiffness and mass are condensed from the
// nbVirtualFinerLevels finer levels of its SparseGridTopology (model/nonuniform_hexahedron.hpp).
// Its own data: nbVirtualFinerLevels (0), useMass (true), totalMass (0, read only without
// useMass). Its init sets the method for large and polar only; gravity acts on each cell's
// density V / 8 a vertex times the grid's mass coefficient, as HexahedronFEMForceFieldAndMass's.
// Without useMass its init gives every point the mass totalMass / (its hexahedra), and its
// addMDx, addForce (gravity) and addGravityToV use those alone, neither the density, the grid's
// mass coefficients nor lumpedMass: our uniform mass sized by mass.total-mass-by-cells. Its
// addMToMatrix and buildMassMatrix still add the element masses, so an assembling solver would
// solve with another mass than the one its CG multiplies by: refused.
//
// SOFA's HexahedronCompositeFEMForceFieldAndMass (HexahedronCompositeFEMForceFieldAndMass.inl)
// derives from it and homogenises the finer cells by static condensation instead
// (model/composite_hexahedron.hpp): its computeMechanicalMatricesRecursively, the default
// (finestToCoarse false; homogenizationMethod is read nowhere) on a SparseGridTopology, where
// useRamification changes nothing; on a ramified grid (SparseGridMultipleTopology) its ramified
// one where that assembles as the plain one does (ramifiedFinerCoefficients).
// completeInterpolation and the draw fields only matter to HexahedronCompositeFEMMapping and
// drawing.
#include <cmath>
#include <string>

#include "eis/core/error.hpp"
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
  const double levels = r.real(o, "nbVirtualFinerLevels", 0);
  if (levels != std::floor(levels) || levels < 0 || levels > 8)
    r.reject(o, "nbVirtualFinerLevels", "expected an integer from 0 to 8");
  // SOFA then reads a sparse grid's levels it has not got.
  const SofaObject* topology = topologyOf(o.node);
  if (levels != 0 && (!topology || !isSparseGrid(topology->type)))
    r.reject(o, "nbVirtualFinerLevels", "finer levels need a SparseGridTopology");
  if (r.boolean(o, "useMass", true)) {
    if (r.given(o, "totalMass"))
      r.note(o.label() +
             ": totalMass: SOFA reads it only without useMass; the density sizes the "
             "mass");
    sofaMapping("HexahedronFEMForceFieldAndMass")(r, o);
    return;
  }
  if (r.gaveValue("solver.linear") == "direct")
    r.reject(o, "useMass",
             "false with a direct solver: SOFA's addMToMatrix assembles the element masses, not "
             "the totalMass its CG multiplies by (addMDx): not reproduced");
  const double total = r.real(o, "totalMass", 0);
  if (!(total > 0))
    r.reject(o, "totalMass", "expected > 0 without useMass (SOFA's default 0 leaves no mass)");
  sofaMapping("HexahedronFEMForceField")(r, o);
  r.key("mass.type", "uniform");
  r.key("mass.total-mass-by-cells", parse::text(total));
}

void mapCompositeHexahedronFem(Reader& r, const SofaObject& o) {
  if (r.real(o, "homogenizationMethod", 0) != 0)
    r.note(o.label() + ": homogenizationMethod: SOFA reads it nowhere; static condensation");
  if (r.boolean(o, "finestToCoarse", false))
    r.reject(o, "finestToCoarse",
             "true (the finest cells condensed at once onto the coarse one) is not supported");
  mapNonUniformHexahedronFem(r, o);
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
  // A ramified grid's levels: only where they assemble as a plain grid's do (where
  // HexahedronCompositeFEMForceFieldAndMass's ramified homogenisation is its plain one).
  const bool ramified = grid.type != "SparseGridTopology";
  if (ramified && field.type != "HexahedronCompositeFEMForceFieldAndMass")
    r.reject(field, "nbVirtualFinerLevels", "on a " + grid.type + ": not supported");
  // Without useRamification SOFA reads the levels' _hierarchicalCubeMap, which keeps one child
  // of a split cell's pieces.
  if (ramified && !r.boolean(field, "useRamification", true))
    r.reject(field, "useRamification", "false on a " + grid.type + ": not supported");
  const std::size_t available = !ramified               ? finer.size()
                                : mesh.ramified.empty() ? 0
                                                        : mesh.ramified.size() - 1;
  if (std::size_t(levels) > available)
    r.reject(field, "nbVirtualFinerLevels",
             "more than the " + std::to_string(available) + " of " + grid.label() +
                 " (SOFA then reads past its levels)");
  std::vector<double> factors;
  try {
    factors =
        ramified ? ramifiedFinerCoefficients(mesh, levels) : finerCoefficients(mesh, finer, levels);
  } catch (const Error& e) {
    r.reject(field, "nbVirtualFinerLevels", grid.label() + ": " + e.what());
  }
  const std::string list = joined(factors, 0, factors.size());
  r.key("material.virtual-finer-levels", std::to_string(levels));
  r.key("material.cell-finer-stiffness-factor", list);
  // Without useMass the mass is not condensed.
  const bool mass = r.boolean(field, "useMass", true);
  if (mass) {
    r.key("mass.virtual-finer-levels", std::to_string(levels));
    r.key("mass.cell-finer-factor", list);
  }
  if (field.type == "HexahedronCompositeFEMForceFieldAndMass") {
    r.key("material.finer-homogenisation", "static");
    if (mass) r.key("mass.finer-homogenisation", "static");
  }
}

const RegisterSofaMapping nonUniformHexahedronFem({"NonUniformHexahedronFEMForceFieldAndMass"},
                                                  mapNonUniformHexahedronFem);
const RegisterSofaMapping compositeHexahedronFem({"HexahedronCompositeFEMForceFieldAndMass"},
                                                 mapCompositeHexahedronFem);

}  // namespace eis::sofa
