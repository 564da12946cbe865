#include "eis/model/cell_materials.hpp"

#include <mpi.h>

#include <algorithm>
#include <map>

#include "eis/core/error.hpp"

namespace eis {

RegionMaterial parseRegionMaterial(const std::string& key, const std::string& text) {
  const Texts tokens = parse::tokens(text);
  if (tokens.size() != 3)
    parse::reject(key, text, "expected \"GROUP E NU\" (a physical group, E > 0, NU in (-1, 0.5))");
  RegionMaterial region{tokens[0], 0, 0, text};
  if (!parse::number(tokens[1], region.youngModulus) || !(region.youngModulus > 0))
    parse::reject(key, text, "'" + tokens[1] + "' is not a Young's modulus (a number > 0)");
  if (!parse::number(tokens[2], region.poissonRatio) || !(region.poissonRatio > -1) ||
      !(region.poissonRatio < 0.5))
    parse::reject(key, text, "'" + tokens[2] + "' is not a Poisson's ratio (in (-1, 0.5))");
  return region;
}

double valueInElement(const std::vector<double>& list, std::int64_t element) {
  return std::int64_t(list.size()) > element ? list[std::size_t(element)] : list[0];
}

namespace {

// The number of tetrahedra of the input mesh (over all ranks).
std::int64_t inputCellCount(const DistributedMesh& mesh) {
  std::int64_t local = 0, global = 0;
  for (std::int64_t id : mesh.inputCellIds()) local = std::max(local, id + 1);
  EIS_CHECK_MPI(MPI_Allreduce(&local, &global, 1, MPI_INT64_T, MPI_MAX, mesh.comm()));
  return global;
}

void warnOnLength(const std::string& key, std::size_t length, std::int64_t cells,
                  std::vector<std::string>& warnings) {
  if (std::int64_t(length) == cells) return;
  warnings.push_back(key + " has " + std::to_string(length) + " values for " +
                     std::to_string(cells) + " tetrahedra: " +
                     (std::int64_t(length) < cells
                          ? "the tetrahedra past its end take its first value (SOFA's rule)"
                          : "the values past the tetrahedron count are not used"));
}

// The cells of each region get its material; every region's group must hold tetrahedra.
void applyRegions(const DistributedMesh& mesh, const std::vector<RegionMaterial>& regions,
                  std::vector<LameParameters>& lame) {
  std::map<int, std::string> seen;
  for (const RegionMaterial& region : regions) {
    const std::string& text = region.text;
    int tag = 0;
    try {
      tag = mesh.findGroup(region.group);
    } catch (const Error& e) {
      throw Error("material.region = '" + text + "': " + e.what());
    }
    if (!seen.emplace(tag, text).second)
      throw Error("material.region: group " + region.group + " is given twice ('" + seen[tag] +
                  "' and '" + text + "')");
    const LameParameters material = lameParameters(region.youngModulus, region.poissonRatio);
    long long local = 0, global = 0;
    for (std::size_t c = 0; c < lame.size(); ++c)
      if (mesh.cellTags()[c] == tag) {
        lame[c] = material;
        ++local;
      }
    EIS_CHECK_MPI(MPI_Allreduce(&local, &global, 1, MPI_LONG_LONG, MPI_SUM, mesh.comm()));
    if (global == 0)
      throw Error("material.region = '" + text + "': group " + region.group +
                  " has no tetrahedra (a region's material applies to volume cells)");
  }
}

}  // namespace

std::vector<LameParameters> cellMaterials(const DistributedMesh& mesh,
                                          const CellMaterialParameters& materials,
                                          std::vector<std::string>& warnings) {
  const std::size_t n = mesh.cells().size();
  const LameParameters uniform =
      materials.lame ? LameParameters{(*materials.lame)[1], (*materials.lame)[0]}
                     : lameParameters(materials.youngModulus, materials.poissonRatio);
  std::vector<LameParameters> lame(n, uniform);
  const bool factorList = materials.cellStiffnessFactor.has_value();
  if (materials.cellYoungModulus || materials.cellPoissonRatio || factorList) {
    const std::int64_t cells = inputCellCount(mesh);
    std::vector<double> young{materials.youngModulus};
    std::vector<double> poisson{materials.poissonRatio};
    if (materials.cellYoungModulus) {
      young = *materials.cellYoungModulus;
      warnOnLength("material.cell-young-modulus", young.size(), cells, warnings);
    }
    if (materials.cellPoissonRatio) {
      poisson = *materials.cellPoissonRatio;
      warnOnLength("material.cell-poisson-ratio", poisson.size(), cells, warnings);
    }
    // TetrahedronFEMForceField::computeMaterialStiffness: factor [i M / N] times the element's
    // modulus; M factors spread evenly over the N tetrahedra.
    const std::vector<double> factors =
        factorList ? *materials.cellStiffnessFactor : std::vector<double>{};
    for (std::size_t c = 0; c < n; ++c) {
      const std::int64_t id = mesh.inputCellIds()[c];
      double modulus = valueInElement(young, id);
      if (factorList)
        modulus = factors[std::size_t(id * std::int64_t(factors.size()) / cells)] * modulus;
      lame[c] = lameParameters(modulus, valueInElement(poisson, id));
    }
  }
  applyRegions(mesh, materials.regions, lame);
  return lame;
}

}  // namespace eis
