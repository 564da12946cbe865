#include "eis/mesh/mesh_source.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>

#include "eis/core/error.hpp"
#include "eis/core/input_file.hpp"
#include "eis/core/memory.hpp"
#include "eis/core/scene.hpp"
#include "eis/core/tetra_geometry.hpp"
#include "eis/mesh/box_mesh.hpp"
#include "eis/mesh/hdf5_mesh.hpp"
#include "eis/mesh/mesh_file.hpp"
#include "eis/mesh/mesh_transform.hpp"
#include "eis/mesh/metis_partition.hpp"

namespace eis {

namespace {

// A list of numbers in groups of `group` (integers >= 0 when `ids`), at least one group.
Check inlineNumbers(std::size_t group, bool ids) {
  return [group, ids](const std::string& key, const std::string& text) {
    const Texts tokens = parse::tokens(text);
    if (tokens.empty() || tokens.size() % group != 0)
      parse::reject(key, text, "expected groups of " + std::to_string(group) + " numbers");
    for (const std::string& token : tokens) {
      long long id = 0;
      double x = 0;
      if (ids ? !parse::number(token, id) || id < 0 : !parse::number(token, x))
        parse::reject(key, text,
                      "'" + token + "' is not " + (ids ? "a node id" : "a finite number"));
    }
  };
}

// The inline keys of the cells of dimension 2 and 1, after mesh.tetrahedra and mesh.hexahedra.
constexpr struct {
  const char* key;
  CellType type;
} kLowerCellKeys[] = {{"mesh.triangles", CellType::Triangle},
                      {"mesh.quadrangles", CellType::Quadrangle},
                      {"mesh.edges", CellType::Edge}};

constexpr Named<CellType> kFileCellTypes[] = {{"tetrahedron", CellType::Tetrahedron},
                                              {"hexahedron", CellType::Hexahedron},
                                              {"triangle", CellType::Triangle},
                                              {"quadrangle", CellType::Quadrangle},
                                              {"edge", CellType::Edge}};

}  // namespace

const ComponentDeclaration& meshSourceComponent() {
  static const ComponentDeclaration component{
      "mesh", "mesh source", "a mesh file of tetrahedra (Gmsh, VTK), or the built-in box",
      ParameterSpec()
          .add(
              {"mesh.file", "PATH",
               "mesh of tetrahedra: Gmsh .msh (1.0, 2.2 or 4.1, ASCII or binary; 2.0 and 2.1, ASCII),\n"
               "legacy VTK .vtk (ASCII or BINARY unstructured grid) or XML VTK .vtu (ascii, binary or\n"
               "appended arrays);\n"
               "another extension is read by its first bytes. Node ids are 0-based positions in the file's\n"
               "node list ($Nodes, $NOD, POINTS); tetrahedra keep the file's vertex order, triangles are kept\n"
               "for surface loads (without volume cells, the triangles, else the quadrangles, else the\n"
               "lines are the body's cells), other elements are ignored. A .h5 file (or one whose first bytes say\n"
               "HDF5) is a mesh written by mesh.convert: every rank reads a slice, PTScotch partitions it\n"
               "in parallel, and no rank ever holds the whole mesh. Absent: the built-in box.",
               std::nullopt, "", false, check::anyText()})
          .add(
              {"mesh.convert", "OUT.h5",
               "write the mesh (mesh.file, the inline mesh or the box, after mesh.transform) once to\n"
               "OUT.h5 in PETSc's DMPlex HDF5 format, with its node ids, tags, physical groups and\n"
               "triangles, and stop without running; a run with mesh.file = OUT.h5 then reads it in\n"
               "parallel (README, \"Meshes\")",
               std::nullopt, "", false, check::nonEmpty()})
          .add({"mesh.nodes", "\"X Y Z ..\"",
                "an inline mesh's node coordinates, three per node (SOFA MeshTopology or\n"
                "MechanicalObject `position` written in the scene), with mesh.tetrahedra or\n"
                "mesh.hexahedra; instead of mesh.file and the box. Alone (no cell key), a body of\n"
                "points without cells (SOFA's MechanicalObject of points alone): each point its\n"
                "own cell, the points dealt to the ranks in contiguous blocks",
                std::nullopt, "length", false, inlineNumbers(3, false)})
          .add({"mesh.tetrahedra", "\"A B C D ..\"",
                "an inline mesh's tetrahedra, four 0-based node ids each (SOFA `tetrahedra`), in\n"
                "that vertex order",
                std::nullopt, "", false, inlineNumbers(4, true)})
          .add({"mesh.hexahedra", "\"A B C D E F G H ..\"",
                "an inline mesh's hexahedra, eight 0-based node ids each (SOFA `hexahedra`), in\n"
                "SOFA's (and VTK's) vertex order: the face z = 0 counter-clockwise seen from +z,\n"
                "then the face z = 1 in the same order",
                std::nullopt, "", false, inlineNumbers(8, true)})
          .add({"mesh.triangles", "\"A B C ..\"",
                "an inline body of triangles, three 0-based node ids each (SOFA `triangles`), in\n"
                "that vertex order: a membrane in 3D space",
                std::nullopt, "", false, inlineNumbers(3, true)})
          .add({"mesh.quadrangles", "\"A B C D ..\"",
                "an inline body of quadrangles, four 0-based node ids each (SOFA `quads`),\n"
                "counter-clockwise around each",
                std::nullopt, "", false, inlineNumbers(4, true)})
          .add({"mesh.edges", "\"A B ..\"",
                "an inline body of edges, two 0-based node ids each (SOFA `edges`): a line of\n"
                "springs or cables",
                std::nullopt, "", false, inlineNumbers(2, true)})
          .add({"mesh.box-size", "\"LX LY LZ\"", "size of the built-in box, origin at 0; each > 0",
                "10 1 1", "length", false,
                [](const std::string& key, const std::string& text) {
                  check::positives(3)(key, text);
                  // A volume past a double's range makes every cell's measure infinite.
                  const std::vector<double> size = parse::reals(key, text, 3);
                  if (!std::isfinite(size[0] * size[1] * size[2]))
                    parse::reject(key, text, "the box's volume overflows a double");
                }})
          .add(
              {"mesh.box-cells", "\"NX NY NZ\"",
               "cells per axis of the built-in box, each >= 1; with mesh.cell-type = tetrahedron each\n"
               "hexahedron is split into 6 tetrahedra",
               "20 4 4", "", false, check::integersAtLeast(3, 1)})
          .add(
              {"mesh.cell-type", "tetrahedron|hexahedron",
               "the built-in box's cells: hexahedra in SOFA's vertex order (RegularGridTopology's),\n"
               "or each split into 6 tetrahedra",
               "tetrahedron", "", false, check::choice(kCellTypes)})
          .add(
              {"mesh.transform", "\"OP X Y Z\"",
               "one operation on the rest positions, before partitioning (file or box); repeat the key\n"
               "for more, applied in the order given. 'scale SX SY SZ' multiplies each coordinate (factors\n"
               "non-zero); 'translate TX TY TZ' adds; 'rotate RX RY RZ' turns by Euler angles in degrees as\n"
               "SOFA does (Quat::createQuaterFromEuler): R = Rz(RZ) Ry(RY) Rx(RX), about the fixed x axis\n"
               "first, then y, then z, counter-clockwise seen from each axis' positive end; 'matrix M00\n"
               "M01 M02 M03 M10 .. M23' maps x to M (x, 1), a 4x4 affine matrix written row by row (its\n"
               "fourth row 0 0 0 1 may follow). SOFA's MeshLoader and MechanicalObject each apply their\n"
               "scale3d, then rotation, then translation; a MeshLoader's transformation matrix replaces\n"
               "its three.",
               std::nullopt, "", true, meshTransformCheck()})
          .add(
              {"mesh.file-cells", "tetrahedron|hexahedron|triangle|quadrangle|edge",
               "the type of cells mesh.file must give (a file's volume cells win over its triangles,\n"
               "triangles over quadrangles, quadrangles over lines); a file whose cells are of\n"
               "another type is refused. SOFA's importer sets it where a triangle, quad or edge\n"
               "container reads a loader, which takes only those cells of the file",
               std::nullopt, "", false, check::choice(kFileCellTypes)})
          .add({"mesh.refine", "N", "uniform refinements of the mesh after distribution, >= 0", "0",
                "", false, check::integerAtLeast(0)}),
      [](Scene& scene) {
        if (scene.given("mesh.nodes") && scene.given("mesh.file"))
          throw Error("mesh.file and an inline mesh (mesh.nodes) are given: give one");
        int cellKeys = scene.given("mesh.tetrahedra") + scene.given("mesh.hexahedra");
        for (const auto& lower : kLowerCellKeys) cellKeys += scene.given(lower.key);
        if (cellKeys > 1)
          throw Error(
              "mesh.tetrahedra, mesh.hexahedra, mesh.triangles, mesh.quadrangles, mesh.edges: "
              "more than one is given, and a mesh has cells of one type");
        if (scene.given("mesh.cell-type") &&
            (scene.given("mesh.file") || scene.given("mesh.nodes")))
          throw Error(
              "mesh.cell-type is the built-in box's; a mesh file or an inline mesh says its own");
      }};
  return component;
}

namespace {

// Zero when a cell is flat: a tetrahedron's volume, or for a hexahedron the volume its edges
// from vertex 0 (to 1, 3 and 4) span, which a flat or folded corner makes zero; a triangle's or
// a quadrangle's area at vertex 0, an edge's length.
double cornerVolume(const SerialMesh& mesh, const std::int64_t* v, CellType type) {
  const auto& p = mesh.nodes;
  if (type == CellType::Edge) return edgeLength(p[v[0]], p[v[1]]);
  if (type == CellType::Triangle) return triangleArea(p[v[0]], p[v[1]], p[v[2]]);
  if (type == CellType::Quadrangle) return triangleArea(p[v[0]], p[v[1]], p[v[3]]);
  const bool tetrahedron = type == CellType::Tetrahedron;
  return TetraShape(mesh.nodes[v[0]], mesh.nodes[v[1]], mesh.nodes[v[tetrahedron ? 2 : 3]],
                    mesh.nodes[v[tetrahedron ? 3 : 4]])
      .volume;
}

// The mesh written in the keys: nodes as given, tetrahedra or hexahedra by 0-based node id.
SerialMesh inlineMesh(const MeshSourceParameters& source) {
  const bool hexahedra = source.hexahedra.has_value();
  const char* key = hexahedra ? "mesh.hexahedra" : "mesh.tetrahedra";
  std::optional<std::string> cellIds = hexahedra ? source.hexahedra : source.tetrahedra;
  CellType type = hexahedra ? CellType::Hexahedron : CellType::Tetrahedron;
  if (source.lowerCells) {
    type = source.lowerCells->first;
    cellIds = source.lowerCells->second;
    for (const auto& lower : kLowerCellKeys)
      if (lower.type == type) key = lower.key;
  }
  if (!source.nodes)
    throw Error(
        "an inline mesh needs mesh.nodes with its cells (mesh.tetrahedra, mesh.hexahedra, "
        "mesh.triangles, mesh.quadrangles or mesh.edges), or alone for a body of points");
  SerialMesh mesh;
  mesh.cells = SerialCells(cellIds ? type : CellType::Point);
  const std::vector<double> xyz = parse::reals("mesh.nodes", *source.nodes, 0);
  for (std::size_t i = 0; i < xyz.size(); i += 3)
    mesh.nodes.push_back({xyz[i], xyz[i + 1], xyz[i + 2]});
  if (!cellIds) {  // a body of points: each point is its own cell
    for (std::size_t n = 0; n < mesh.nodes.size(); ++n) mesh.cells.push_back({std::int64_t(n)});
    mesh.cellTags.assign(mesh.nodes.size(), 0);
    return mesh;
  }
  const std::string& ids = *cellIds;
  const Texts tokens = parse::tokens(ids);
  const int corners = cornersOf(type);
  for (std::size_t i = 0; i < tokens.size(); i += std::size_t(corners)) {
    std::vector<std::int64_t> cell(std::size_t(corners), 0);
    for (int a = 0; a < corners; ++a) {
      long long id = -1;
      if (!parse::number(tokens[i + a], id) || id < 0 ||
          id >= static_cast<long long>(mesh.nodes.size()))
        parse::reject(key, ids,
                      "'" + tokens[i + a] + "' is no node id (0 to " +
                          std::to_string(mesh.nodes.size() - 1) + ")");
      cell[a] = id;
    }
    if (cornerVolume(mesh, cell.data(), type) == 0)
      parse::reject(key, ids,
                    nameOf(type) + " " + std::to_string(i / corners) + " has zero " +
                        (dimensionOf(type) == 3   ? "volume"
                         : dimensionOf(type) == 2 ? "area"
                                                  : "length"));
    mesh.cells.push_back(cell);
    mesh.cellTags.push_back(0);
  }
  return mesh;
}

SerialMesh readOrBuild(const MeshSourceParameters& source) {
  SerialMesh mesh = source.file && !source.file->empty() ? readMeshFile(*source.file)
                    : source.isInline()
                        ? inlineMesh(source)
                        : makeBoxMesh(source.boxSize, source.boxCells, source.cellType);
  if (source.file && source.fileCells && mesh.cells.type() != *source.fileCells)
    throw Error("mesh.file = " + *source.file + ": its cells are " +
                pluralNameOf(mesh.cells.type()) + ", and mesh.file-cells asks for " +
                pluralNameOf(*source.fileCells) +
                " (a SOFA container of those reading this file would drop the others: not "
                "supported)");
  for (const MeshTransform& transform : source.transforms) {
    // A zero scale factor flattens volume cells; a membrane in a plane of its own (SOFA's
    // scale3d="100 100 0" on a sheet in z = 0) keeps its area unless a cell flattens.
    const bool flattening = transform.kind == MeshTransform::Kind::kScale &&
                            std::count(transform.values.begin(), transform.values.end(), 0.0) > 0;
    const std::string text = "mesh.transform = scale " + parse::text(transform.values[0]) + " " +
                             parse::text(transform.values[1]) + " " +
                             parse::text(transform.values[2]);
    if (flattening && dimensionOf(mesh.cells.type()) == 3)
      throw Error(text + ": a scale factor of 0 flattens the mesh's " +
                  pluralNameOf(mesh.cells.type()));
    applyMeshTransform(transform, mesh.nodes);
    if (flattening && mesh.cells.type() != CellType::Point)  // a point has no measure to lose
      for (std::size_t c = 0; c < mesh.cells.size(); ++c)
        if (cornerVolume(mesh, mesh.cells[c].begin(), mesh.cells.type()) == 0)
          throw Error(text + ": flattens " + nameOf(mesh.cells.type()) + " " + std::to_string(c));
  }
  return mesh;
}

}  // namespace

// The input mesh's `nodes` and `cells` are doubles: the box's products may not fit in an
// integer. Refinement multiplies the cells by 8 and, for a large mesh, the nodes by about 8.
std::string meshSizeFailure(const MeshSourceParameters& source, double nodes, double cells,
                            int dofsPerNode, double memoryPerRank, int ranks) {
  const std::string what = source.file    ? "mesh.file = " + *source.file
                           : source.nodes ? std::string("the inline mesh")
                                          : "mesh.box-cells = " + source.boxCellsText;
  const auto figure = [](double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.4g", value);
    return std::string(text);
  };
  // METIS partitions the input on rank 0 with idx_t arrays of 4 (8) vertex slots per tetrahedron
  // (hexahedron) (Debian's METIS: 32-bit idx_t, whichever PETSc is used).
  const CellType type = source.hexahedra                     ? CellType::Hexahedron
                        : source.lowerCells                  ? source.lowerCells->first
                        : source.nodes && !source.tetrahedra ? CellType::Point
                                                             : source.cellType;
  const double metisCells = double(std::numeric_limits<idx_t>::max() / cornersOf(type));
  if (cells > metisCells)
    return what + " gives " + figure(cells) + " " + pluralNameOf(type) + "; METIS's " +
           std::to_string(8 * sizeof(idx_t)) + "-bit arrays partition at most " +
           figure(metisCells) + ": partition a coarser mesh and refine it (mesh.refine)";
  const int refine = source.refine;
  const double growth = std::pow(8.0, refine);
  const double unknowns = dofsPerNode * nodes * growth;
  // PETSC_MAX_INT is this build's: 2^31 - 1, or 2^63 - 1 with cmake -DEIS_PETSC64=ON.
  if (unknowns > double(PETSC_MAX_INT))
    return what + " with mesh.refine = " + std::to_string(refine) + " gives about " +
           figure(unknowns) + " unknowns; this PETSc's " + std::to_string(8 * sizeof(PetscInt)) +
           "-bit indices stop at " + figure(double(PETSC_MAX_INT)) +
           " (a build with cmake -DEIS_PETSC64=ON goes further)";
  // 2 KiB per unknown is the least a run took in the benchmarks (docs/performance.md).
  const double perRank = 2048 * unknowns / ranks;
  if (perRank > memoryPerRank)
    return what + " with mesh.refine = " + std::to_string(refine) + " gives about " +
           figure(unknowns) + " unknowns, at least " + figure(perRank / 1073741824.0) +
           " GiB per rank on " + std::to_string(ranks) +
           " ranks; the machines (or Slurm's --mem, or the control group's limit) give " +
           figure(memoryPerRank / 1073741824.0) + " GiB per rank";
  return "";
}

SerialMesh loadSerialMesh(const MeshSourceParameters& source, int dofsPerNode, MPI_Comm comm,
                          std::vector<std::string>& warnings) {
  int rank;
  EIS_CHECK_MPI(MPI_Comm_rank(comm, &rank));
  const double memoryPerRank = memoryPerRankBytes(comm);
  SerialMesh mesh;
  std::string failure;
  if (!source.file && !source.isInline()) {
    const auto [nx, ny, nz] = source.boxCells;
    const bool split = source.cellType == CellType::Tetrahedron;
    failure = meshSizeFailure(source, (nx + 1.0) * (ny + 1.0) * (nz + 1.0),
                              (split ? 6.0 : 1.0) * nx * ny * nz, dofsPerNode, memoryPerRank,
                              commSize(comm));
  }
  throwIfAnyRankFailed(failure, comm);
  if (rank == 0) {
    try {
      mesh = readOrBuild(source);
      // A file's counts are known once it is read (the box was checked before it was built).
      if (source.file || source.nodes)
        failure = meshSizeFailure(source, double(mesh.nodes.size()), double(mesh.cells.size()),
                                  dofsPerNode, memoryPerRank, commSize(comm));
      std::string skipped;
      for (const auto& [type, count] : mesh.skippedElements)
        skipped += (skipped.empty() ? "" : ", ") + std::to_string(count) + " " + type;
      if (!skipped.empty())
        warnings.push_back("ignored elements that are neither tetrahedra nor triangles: " +
                           skipped);
      std::int64_t inverted = 0;
      if (mesh.cells.type() == CellType::Tetrahedron)
        for (const auto t : mesh.cells)
          inverted +=
              TetraShape(mesh.nodes[t[0]], mesh.nodes[t[1]], mesh.nodes[t[2]], mesh.nodes[t[3]])
                  .signedVolume < 0;
      if (inverted > 0)
        warnings.push_back(
            std::to_string(inverted) +
            " tetrahedra are negatively oriented; kept as listed (absolute volume, as SOFA)");
    } catch (const Error& e) {
      failure = e.what();
    }
  }
  throwIfAnyRankFailed(failure, comm);
  return mesh;
}

bool isHdf5MeshFile(const std::string& file, MPI_Comm comm) {
  const std::string extension = std::filesystem::path(file).extension().string();
  return extension == ".h5" || extension == ".hdf5" || isHdf5File(file, comm);
}

bool meshFileIsHdf5(const MeshSourceParameters& source, MPI_Comm comm) {
  return source.file && isHdf5MeshFile(*source.file, comm);
}

Hdf5MeshInput hdf5MeshInput(const MeshSourceParameters& source, int dofsPerNode, MPI_Comm comm) {
  if (!source.file) throw Error("mesh.file: no converted mesh is given");
  Hdf5MeshInput input{*source.file, source.transforms};
  const Hdf5MeshSize size = checkHdf5Mesh(comm, input.path);
  throwIfAnyRankFailed(meshSizeFailure(source, double(size.nodes), double(size.cells), dofsPerNode,
                                       memoryPerRankBytes(comm), commSize(comm)),
                       comm);
  return input;
}

std::string convertMesh(const MeshSourceParameters& source, MPI_Comm comm,
                        std::vector<std::string>& warnings) {
  if (!source.convert) throw Error("mesh.convert: no path is given");
  const std::string& path = *source.convert;
  // The mesh replaces PATH by a rename: a device or a folder there (/dev/full) would be replaced
  // (as root) or fail only after the whole conversion. A link is replaced, not followed.
  std::string problem;
  if (commRank(comm) == 0) {
    std::error_code ec;
    const std::filesystem::file_status status = std::filesystem::symlink_status(path, ec);
    if (!ec && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status) &&
        !std::filesystem::is_symlink(status))
      problem = "mesh.convert = " + printable(path, 200) +
                ": exists and is not a regular file (a folder, a device, a pipe or a socket)";
  }
  throwIfAnyRankFailed(problem, comm);
  if (meshFileIsHdf5(source, comm))
    throw Error("mesh.convert = " + path + ": mesh.file = " + *source.file +
                " is converted already; give a Gmsh or VTK file, an inline mesh or the box");
  if (source.nodes && !source.tetrahedra && !source.hexahedra && !source.lowerCells)
    throw Error("mesh.convert = " + path +
                ": mesh.nodes alone is a body of points, which has no cells to write (the HDF5 "
                "input partitions cells); run it from its inline keys");
  const SerialMesh mesh = loadSerialMesh(source, 3, comm, warnings);
  writeHdf5Mesh(comm, mesh, path);
  return "mesh.convert: wrote " + path + " (" + std::to_string(mesh.nodes.size()) + " nodes, " +
         std::to_string(mesh.cells.size()) + " " + pluralNameOf(mesh.cells.type()) + ")";
}

MeshSourceParameters readMeshSourceParameters(const Parameters& scene) {
  MeshSourceParameters source;
  auto optional = [&scene](const char* key) {
    return scene.given(key) ? std::optional<std::string>(scene.text(key)) : std::nullopt;
  };
  source.file = optional("mesh.file");
  source.convert = optional("mesh.convert");
  source.nodes = optional("mesh.nodes");
  source.tetrahedra = optional("mesh.tetrahedra");
  source.hexahedra = optional("mesh.hexahedra");
  for (const auto& lower : kLowerCellKeys)
    if (scene.given(lower.key)) source.lowerCells = {{lower.type, scene.text(lower.key)}};
  source.boxSize = scene.real3("mesh.box-size");
  source.boxCells = scene.integer3("mesh.box-cells");
  source.boxCellsText = scene.text("mesh.box-cells");
  source.cellType = scene.choice("mesh.cell-type", kCellTypes);
  for (const std::string& text : scene.texts("mesh.transform"))
    source.transforms.push_back(parseMeshTransform("mesh.transform", text));
  if (scene.given("mesh.file-cells"))
    source.fileCells = scene.choice("mesh.file-cells", kFileCellTypes);
  source.refine = scene.integer("mesh.refine");
  return source;
}

const RegisterComponent registered(100, meshSourceComponent);

}  // namespace eis
