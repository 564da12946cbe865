// partition-surface: how much surface METIS leaves on each part of a mesh, measured without
// solving anything, on one process.
//
// For each part count it partitions the cells as euler-implicit does (eis::partitionCells, the
// mesh layer's one METIS call, which DistributedMesh makes too), gives every node the owner
// euler-implicit gives it (eis::balancedVertexOwners, which DistributedMesh applies too), and
// counts per part the owned unknowns, the ghost unknowns, the matrix halo and the parts it talks
// to. These counts are the communication side of the scaling
// model in docs/scaling-model.md. An HDF5 mesh (mesh.convert's) is partitioned by PTScotch across
// the ranks that read it, so for one the tool runs under mpiexec, distributes it as euler-implicit
// does (gathered_partition.hpp) and reports that one partition, a part per rank.
//
//   partition-surface [--mesh.box-cells="nx ny nz"] [--mesh.box-size="Lx Ly Lz"]
//                     [--mesh.cell-type=tetrahedron|hexahedron] [--mesh.file=mesh.msh] [--parts="2
//                     4 8 16 32 64"] [--dofs-per-node=3]
//                     [--ranks-per-node=32]
//   mpiexec -n P partition-surface --mesh.file=mesh.h5 [--dofs-per-node=3] [--ranks-per-node=32]
#include <boost/program_options.hpp>

#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <new>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "eis/core/error.hpp"
#include "eis/mesh/box_mesh.hpp"
#include "eis/mesh/mesh_file.hpp"
#include "eis/mesh/mesh_source.hpp"
#include "eis/mesh/metis_partition.hpp"
#include "eis/mesh/vertex_owners.hpp"
#include "gathered_partition.hpp"

namespace {

namespace po = boost::program_options;
using eis::CompactMesh;
using eis::Error;

const char* const kUsage =
    "Usage: partition-surface [--key=value ...]\n"
    "Partitions the mesh with METIS as euler-implicit does, once per part count, and prints per\n"
    "part the owned unknowns (shared nodes owned as euler-implicit balances them), ghost\n"
    "unknowns, matrix halo and neighbour parts. Serial; no solve.\n"
    "  --mesh.box-cells=\"nx ny nz\"   cells of the built-in box, 6 tetrahedra each (20 4 4)\n"
    "  --mesh.box-size=\"Lx Ly Lz\"    size of the built-in box (10 1 1)\n"
    "  --mesh.cell-type=T            the box's cells: tetrahedron (6 a cell) or hexahedron\n"
    "                                (tetrahedron); a file's cells are the file's\n"
    "  --mesh.file=mesh.msh          a mesh file (.msh, .vtk, .vtu) instead of the box; a file\n"
    "                                mesh.convert wrote (HDF5) is partitioned by PTScotch across\n"
    "                                the ranks reading it, as euler-implicit does: run\n"
    "                                mpiexec -n P partition-surface --mesh.file=mesh.h5 for its\n"
    "                                partition into P parts (--parts does not apply)\n"
    "  --parts=\"2 4 ...\"             part counts, each >= 2 (2 4 8 16 32 64)\n"
    "  --dofs-per-node=N             unknowns per node: 3 elasticity, 1 diffusion (3)\n"
    "  --ranks-per-node=R            MPI ranks per cluster node, part r on node r / R (32)\n"
    "  --help                        print this text and exit\n";

struct Options {
  std::string meshFile;  // empty: the built-in box
  std::array<double, 3> boxSize{10, 1, 1};
  std::array<int, 3> boxCells{20, 4, 4};
  eis::CellType boxType = eis::CellType::Tetrahedron;
  std::vector<int> parts{2, 4, 8, 16, 32, 64};
  bool partsGiven = false;
  int dofsPerNode = 3;
  int ranksPerNode = 32;  // MPI ranks per cluster node, for the off-node halo
};

// ---------------------------------------------------------------------------------------------
// Options

// The numbers of a value such as "20 4 4" or "2,4,8"; the whole of each token must be the number.
template <class T>
std::vector<T> numbers(const std::string& key, const std::string& value) {
  std::string text = value;
  std::replace(text.begin(), text.end(), ',', ' ');
  std::istringstream in(text);
  std::vector<T> result;
  for (std::string token; in >> token;) {
    T number{};
    const char* end = token.data() + token.size();
    const auto [ptr, ec] = std::from_chars(token.data(), end, number);
    bool ok = ec == std::errc() && ptr == end;
    if constexpr (std::is_floating_point_v<T>) ok = ok && std::isfinite(number);
    if (!ok)
      throw Error(key + " = " + value + ": '" + token + "' is not " +
                  (std::is_floating_point_v<T> ? "a finite number" : "an integer"));
    result.push_back(number);
  }
  return result;
}

template <class T>
std::array<T, 3> threePositive(const std::string& key, const std::string& value) {
  const std::vector<T> v = numbers<T>(key, value);
  if (v.size() != 3) throw Error(key + " = " + value + ": expected 3 numbers");
  if (std::any_of(v.begin(), v.end(), [](T x) { return !(x > 0); }))
    throw Error(key + " = " + value + ": each must be > 0");
  return {v[0], v[1], v[2]};
}

std::vector<int> partCounts(const std::string& value) {
  std::vector<int> parts = numbers<int>("parts", value);
  if (parts.empty()) throw Error("parts = \"" + value + "\": expected at least one part count");
  for (int p : parts)
    if (p < 2)
      throw Error("parts = " + value + ": " + std::to_string(p) +
                  " is less than 2 (one part has no surface to measure)");
  return parts;
}

int positiveInteger(const std::string& key, const std::string& value) {
  const std::vector<int> n = numbers<int>(key, value);
  if (n.size() != 1 || n[0] < 1) throw Error(key + " = " + value + ": expected one integer >= 1");
  return n[0];
}

// Fills `options` from the command line; returns false when --help was asked for.
bool parseCommandLine(int argc, char** argv, Options& options) {
  po::options_description keys;
  keys.add_options()("help", "")("mesh.file", po::value<std::string>())(
      "mesh.box-size", po::value<std::string>())("mesh.box-cells", po::value<std::string>())(
      "mesh.cell-type", po::value<std::string>())("parts", po::value<std::string>())(
      "dofs-per-node", po::value<std::string>())("ranks-per-node", po::value<std::string>());
  po::variables_map vm;
  try {
    // No positional arguments: a word without "--" is an error, not silently ignored.
    po::store(po::command_line_parser(argc, argv)
                  .options(keys)
                  .positional(po::positional_options_description())
                  .run(),
              vm);
  } catch (const po::too_many_positional_options_error&) {
    throw Error("unexpected argument: options take the form --key=value (see --help)");
  } catch (const po::error& e) {
    throw Error(e.what());
  }
  if (vm.count("help")) return false;
  auto given = [&](const char* key) { return vm.count(key) > 0; };
  auto value = [&](const char* key) { return vm[key].as<std::string>(); };
  if (given("mesh.file")) options.meshFile = value("mesh.file");
  if (given("mesh.box-size"))
    options.boxSize = threePositive<double>("mesh.box-size", value("mesh.box-size"));
  if (given("mesh.box-cells"))
    options.boxCells = threePositive<int>("mesh.box-cells", value("mesh.box-cells"));
  if (given("mesh.cell-type")) {
    const std::string type = value("mesh.cell-type");
    if (type != "tetrahedron" && type != "hexahedron")
      throw Error("mesh.cell-type = " + type + ": expected tetrahedron or hexahedron");
    options.boxType = type == "hexahedron" ? eis::CellType::Hexahedron : eis::CellType::Tetrahedron;
  }
  if (given("parts")) options.parts = partCounts(value("parts"));
  options.partsGiven = given("parts");
  if (given("dofs-per-node"))
    options.dofsPerNode = positiveInteger("dofs-per-node", value("dofs-per-node"));
  if (given("ranks-per-node"))
    options.ranksPerNode = positiveInteger("ranks-per-node", value("ranks-per-node"));
  if (!options.meshFile.empty() &&
      (given("mesh.box-size") || given("mesh.box-cells") || given("mesh.cell-type")))
    throw Error(
        "mesh.file and mesh.box-size/box-cells/cell-type exclude each other: give one mesh");
  return true;
}

// ---------------------------------------------------------------------------------------------
// Mesh and partition

// The cells as METIS reads them: eis::compactMesh numbers the nodes that some tetrahedron uses as
// DistributedMesh does, so METIS sees the same mesh and returns the same partition.
CompactMesh loadMesh(const Options& options, std::string& description) {
  if (!options.meshFile.empty()) {
    description = options.meshFile;
    return eis::compactMesh(eis::readMeshFile(options.meshFile));
  }
  const auto [nx, ny, nz] = options.boxCells;
  // eis::compactMesh has the same limit, but the box would fill the memory before it got there.
  const bool hexahedra = options.boxType == eis::CellType::Hexahedron;
  const std::int64_t cells = (hexahedra ? 1 : 6) * std::int64_t(nx) * ny * nz;
  if (cells > std::numeric_limits<idx_t>::max() / eis::cornersOf(options.boxType))
    throw Error("mesh.box-cells: " + std::to_string(cells) + " " +
                eis::pluralNameOf(options.boxType) +
                ", more than METIS's 32-bit indices can number");
  description = "box " + std::to_string(nx) + " x " + std::to_string(ny) + " x " +
                std::to_string(nz) + " cells";
  return eis::compactMesh(eis::makeBoxMesh(options.boxSize, options.boxCells, options.boxType));
}

// ---------------------------------------------------------------------------------------------
// Surface counts. A (part, node) pair is packed into one integer so that a sort removes repeats.

std::uint64_t pack(idx_t part, idx_t node) {
  return (std::uint64_t(part) << 32) | std::uint32_t(node);
}
idx_t partOf(std::uint64_t key) {
  return idx_t(key >> 32);
}
idx_t nodeOf(std::uint64_t key) {
  return idx_t(key & 0xffffffffu);
}

void sortUnique(std::vector<std::uint64_t>& keys) {
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
}

// (part, node) for each node that a part's cells touch and another part owns: the ghost copies
// DMPlex gives the part (DMGlobalToLocal fills them for force and residual evaluation).
std::vector<std::uint64_t> ghostPairs(const CompactMesh& mesh, const std::vector<idx_t>& part,
                                      const std::vector<idx_t>& owner) {
  std::vector<std::uint64_t> pairs;
  const int corners = eis::cornersOf(mesh.type);
  for (idx_t c = 0; c < mesh.numCells(); ++c)
    for (int k = 0; k < corners; ++k) {
      const idx_t node = mesh.cells[std::size_t(corners) * c + k];
      if (owner[node] != part[c]) pairs.push_back(pack(part[c], node));
    }
  sortUnique(pairs);
  return pairs;
}

// (part, node) for each node that shares a cell with a node the part owns and is owned by another
// part: the off-rank columns of the part's matrix rows, which every MatMult receives.
std::vector<std::uint64_t> haloPairs(const CompactMesh& mesh, const std::vector<idx_t>& owner) {
  std::vector<std::uint64_t> pairs;
  const int corners = eis::cornersOf(mesh.type);
  for (idx_t c = 0; c < mesh.numCells(); ++c) {
    const idx_t* v = &mesh.cells[std::size_t(corners) * c];
    for (int a = 0; a < corners; ++a)
      for (int b = 0; b < corners; ++b)
        if (owner[v[a]] != owner[v[b]]) pairs.push_back(pack(owner[v[a]], v[b]));
  }
  sortUnique(pairs);
  return pairs;
}

// What one part holds and exchanges, in nodes (unknowns are these times the dofs per node).
struct PartSurface {
  std::int64_t owned = 0;       // nodes it owns
  std::int64_t ghosts = 0;      // nodes its cells touch that another part owns
  std::int64_t halo = 0;        // off-part nodes coupled to its owned nodes (MatMult receives)
  std::int64_t neighbours = 0;  // parts it exchanges MatMult halo values with, either way
};

struct Surface {
  std::vector<PartSurface> parts;
  // The most halo nodes that the parts on one cluster node receive from other cluster nodes:
  // what one node's network link carries per MatMult.
  std::int64_t offNodeHaloMax = 0;
};

// Part r runs on cluster node r / ranksPerNode, as mpiexec places consecutive ranks by default.
Surface measureSurface(const CompactMesh& mesh, const std::vector<idx_t>& part,
                       const std::vector<idx_t>& owner, int parts, int ranksPerNode) {
  Surface surface;
  surface.parts.resize(parts);
  for (idx_t o : owner) ++surface.parts[o].owned;
  for (auto key : ghostPairs(mesh, part, owner)) ++surface.parts[partOf(key)].ghosts;

  // A part receives its halo from the nodes' owners, and those owners send to it: both are
  // partners. Each unordered pair of partners is counted once, for both of them.
  std::vector<std::uint64_t> partners;
  std::vector<std::int64_t> offNodeHalo((parts + ranksPerNode - 1) / ranksPerNode, 0);
  for (auto key : haloPairs(mesh, owner)) {
    const idx_t receiver = partOf(key), sender = owner[nodeOf(key)];
    ++surface.parts[receiver].halo;
    partners.push_back(pack(std::min(receiver, sender), std::max(receiver, sender)));
    if (receiver / ranksPerNode != sender / ranksPerNode) ++offNodeHalo[receiver / ranksPerNode];
  }
  sortUnique(partners);
  for (auto key : partners) {
    ++surface.parts[partOf(key)].neighbours;
    ++surface.parts[nodeOf(key)].neighbours;
  }
  surface.offNodeHaloMax = *std::max_element(offNodeHalo.begin(), offNodeHalo.end());
  return surface;
}

// ---------------------------------------------------------------------------------------------
// Report

struct Spread {
  double min, mean, max;
};

Spread spread(const std::vector<PartSurface>& parts, std::int64_t PartSurface::*field,
              double scale) {
  Spread s{std::numeric_limits<double>::max(), 0, 0};
  for (const auto& part : parts) {
    const double value = double(part.*field) * scale;
    s.min = std::min(s.min, value);
    s.max = std::max(s.max, value);
    s.mean += value / double(parts.size());
  }
  return s;
}

// The largest (nodes counted by `field`) / (owned nodes) over the parts; infinite when a part
// owns no node.
double worstRatio(const std::vector<PartSurface>& parts, std::int64_t PartSurface::*field) {
  double worst = 0;
  for (const auto& part : parts)
    worst = std::max(worst, part.owned > 0 ? double(part.*field) / double(part.owned)
                                           : std::numeric_limits<double>::infinity());
  return worst;
}

void printHeader(const std::string& mesh, const CompactMesh& cells, const Options& options) {
  std::printf(
      "partition-surface: %s, %lld %s, %lld nodes, %d unknowns per node, "
      "%d ranks per cluster node, shared nodes owned as euler-implicit balances them\n",
      mesh.c_str(), static_cast<long long>(cells.numCells()), eis::pluralNameOf(cells.type).c_str(),
      static_cast<long long>(cells.numNodes()), options.dofsPerNode, options.ranksPerNode);
  std::printf(
      "                  | owned unknowns per part         | ghost unknowns per part  | "
      "matrix halo unknowns     | neighbours      |           ghost/  halo/  off-node  "
      "METIS\n");
  std::printf(
      "parts    unknowns |      min    mean     max max/mean |      min    mean     max | "
      "     min    mean     max |  min mean   max |  edge cut  owned  owned  halo max  "
      "  [s]\n");
  std::fflush(stdout);
}

void printRow(int parts, std::int64_t unknowns, const Surface& surface, double dofs,
              std::int64_t edgeCut, double seconds) {
  const Spread owned = spread(surface.parts, &PartSurface::owned, dofs);
  const Spread ghosts = spread(surface.parts, &PartSurface::ghosts, dofs);
  const Spread halo = spread(surface.parts, &PartSurface::halo, dofs);
  const Spread neighbours = spread(surface.parts, &PartSurface::neighbours, 1);
  std::printf(
      "%5d %11lld | %8.0f%8.0f%8.0f %8.4f | %8.0f%8.0f%8.0f | %8.0f%8.0f%8.0f | "
      "%4.0f %4.1f %5.0f | %9s %6.4f %6.4f %9.0f %6.1f\n",
      parts, static_cast<long long>(unknowns), owned.min, owned.mean, owned.max,
      owned.max / owned.mean, ghosts.min, ghosts.mean, ghosts.max, halo.min, halo.mean, halo.max,
      neighbours.min, neighbours.mean, neighbours.max,
      edgeCut < 0 ? "n/a" : std::to_string(edgeCut).c_str(),
      worstRatio(surface.parts, &PartSurface::ghosts),
      worstRatio(surface.parts, &PartSurface::halo), double(surface.offNodeHaloMax) * dofs,
      seconds);
  std::fflush(stdout);
}

void printLegend() {
  std::puts(
      "Legend: owned: a node shared by several parts belongs to one of the parts whose cells\n"
      "  touch it, chosen to even out the owned counts (eis::balancedVertexOwners, the owners\n"
      "  euler-implicit gives DMPlex); euler-implicit runs part r on rank r. max/mean: the most\n"
      "  owned unknowns of a part over the mean. ghost: a node the part's cells touch but another\n"
      "  part owns (DMPlex's ghost copies, filled by DMGlobalToLocal). matrix halo: a node owned\n"
      "  elsewhere that shares a cell with a node the part owns (the off-rank columns of its rows:\n"
      "  what each MatMult receives). neighbours: parts it exchanges MatMult halo values with, in\n"
      "  either direction. ghost/owned, halo/owned: the largest ratio over the parts. off-node\n"
      "  halo max: with parts r*R..r*R+R-1 on cluster node r (R ranks per node), the matrix halo\n"
      "  unknowns a cluster node's parts receive from other cluster nodes, most over the nodes (0\n"
      "  while parts <= R). edge cut: METIS's count of faces between cells of different parts\n"
      "  (n/a for an HDF5 mesh: PTScotch's partition, shared nodes owned as\n"
      "  mesh/parallel_vertex_owners balances them). [s]: partition, owner choice and counting\n"
      "  time. Unknowns = nodes x unknowns per node.");
}

// An HDF5 mesh: one row, for the partition across the ranks of `comm`, counted on rank 0.
void runHdf5(const Options& options, MPI_Comm comm) {
  const int parts = eis::commSize(comm);
  if (options.partsGiven || parts < 2)
    throw Error("mesh.file = " + options.meshFile +
                ": an HDF5 mesh is partitioned across the ranks that read it; run mpiexec -n P "
                "partition-surface for its partition into P >= 2 parts (--parts does not apply)");
  const auto start = std::chrono::steady_clock::now();
  const eis::GatheredPartition gathered = eis::gatherHdf5Partition(comm, options.meshFile);
  if (eis::commRank(comm) != 0) return;
  printHeader(options.meshFile, gathered.mesh, options);
  const Surface surface =
      measureSurface(gathered.mesh, gathered.part, gathered.owner, parts, options.ranksPerNode);
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
  printRow(parts, std::int64_t(gathered.mesh.numNodes()) * options.dofsPerNode, surface,
           options.dofsPerNode, -1, elapsed.count());
  printLegend();
}

// One row per part count: partition, count, print.
void run(const Options& options, MPI_Comm comm) {
  if (!options.meshFile.empty() && eis::isHdf5MeshFile(options.meshFile, comm))
    return runHdf5(options, comm);
  if (eis::commSize(comm) > 1)
    throw Error(
        "partition-surface partitions the box or a Gmsh/VTK mesh with METIS on one "
        "process: run it under mpiexec only with an HDF5 mesh (mesh.convert's)");
  std::string description;
  const CompactMesh mesh = loadMesh(options, description);
  for (int parts : options.parts)
    if (parts > mesh.numCells())
      throw Error("parts: " + std::to_string(parts) + " parts but the mesh has only " +
                  std::to_string(mesh.numCells()) + " " + eis::pluralNameOf(mesh.type));
  printHeader(description, mesh, options);
  const std::int64_t unknowns = std::int64_t(mesh.numNodes()) * options.dofsPerNode;
  for (int parts : options.parts) {
    const auto start = std::chrono::steady_clock::now();
    const eis::CellPartition partition = eis::partitionCells(mesh, parts);
    const std::vector<idx_t> owner = eis::balancedVertexOwners(mesh, partition.part, parts);
    const Surface surface =
        measureSurface(mesh, partition.part, owner, parts, options.ranksPerNode);
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    printRow(parts, unknowns, surface, options.dofsPerNode, partition.edgeCut, elapsed.count());
  }
  printLegend();
}

}  // namespace

// MPI and PETSc are started for the HDF5 path (and the test for it); errors are the same on every
// rank and rank 0 prints them.
int main(int argc, char** argv) {
  if (PetscInitializeNoArguments() != 0) return 1;
  int status = 1;
  {
    const eis::PetscErrorCapture capture;
    const bool printer = eis::commRank(PETSC_COMM_WORLD) == 0;
    try {
      Options options;
      if (!parseCommandLine(argc, argv, options)) {
        if (printer) std::fputs(kUsage, stdout);
      } else {
        run(options, PETSC_COMM_WORLD);
      }
      status = 0;
    } catch (const Error& e) {
      if (printer) std::fprintf(stderr, "partition-surface: error: %s\n", e.what());
    } catch (const std::bad_alloc&) {
      if (printer)
        std::fprintf(stderr, "partition-surface: error: out of memory (try a smaller mesh)\n");
    }
  }
  return PetscFinalize() == 0 ? status : 1;
}
