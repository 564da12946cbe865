#include "sofa_generate_mesh.hpp"

#include <cmath>
#include <initializer_list>

#include "eis/core/error.hpp"
#include "eis/core/parameters.hpp"
#include "sofa_data_fields.hpp"
#include "sofa_tetra_stuffing.hpp"

namespace eis::sofa {

bool isMeshGenerator(const std::string& type) {
  return type == "GenerateGrid" || type == "GenerateCylinder" || type == "StringMeshCreator" ||
         type == "MeshTetraStuffing";
}

namespace {

void add(std::vector<long long>& cells, std::initializer_list<long long> ids) {
  cells.insert(cells.end(), ids);
}

}  // namespace

GeneratedMesh generateGrid(const double min[3], const double max[3], long long rx, long long ry,
                           long long rz, const std::string& kind) {
  GeneratedMesh mesh;
  const double dx = (max[0] - min[0]) / double(rx), dy = (max[1] - min[1]) / double(ry),
               dz = rz == 0 ? 0.0 : (max[2] - min[2]) / double(rz);
  for (long long k = 0; k <= rz; ++k)
    for (long long j = 0; j <= ry; ++j)
      for (long long i = 0; i <= rx; ++i)
        mesh.points.insert(mesh.points.end(), {double(i) * dx + min[0], double(j) * dy + min[1],
                                               double(k) * dz + min[2]});
  const long long row = rx + 1, layer = (rx + 1) * (ry + 1);
  if (rz == 0) {
    for (long long i = 0; i < rx; ++i)
      for (long long j = 0; j < ry; ++j) {
        const long long q[4] = {i + j * row, i + 1 + j * row, i + 1 + (j + 1) * row,
                                i + (j + 1) * row};
        if (kind == "quads")
          add(mesh.cells, {q[0], q[1], q[2], q[3]});
        else if (kind == "triangles")
          add(mesh.cells, {q[0], q[1], q[3], q[3], q[1], q[2]});
      }
    return mesh;
  }
  for (long long i = 0; i < rx; ++i)
    for (long long j = 0; j < ry; ++j)
      for (long long k = 0; k < rz; ++k) {
        const long long b = i + j * row + k * layer;
        const long long h[8] = {b,         b + 1,         b + 1 + row,         b + row,
                                b + layer, b + 1 + layer, b + 1 + row + layer, b + row + layer};
        if (kind == "hexahedra") {
          mesh.cells.insert(mesh.cells.end(), h, h + 8);
        } else if (kind == "tetrahedra") {
          add(mesh.cells, {h[0], h[5], h[1], h[6], h[0], h[1], h[3], h[6], h[1], h[3], h[6], h[2],
                           h[6], h[3], h[0], h[7], h[6], h[7], h[0], h[5], h[7], h[5], h[4], h[0]});
        }
      }
  return mesh;
}

GeneratedMesh generateCylinderTetrahedra(double radius, double height, const double origin[3],
                                         long long rt, long long rr, long long rz) {
  GeneratedMesh mesh;
  const double pi = 3.14159265358979323846;
  for (long long i = 0; i < rz; ++i) {
    const double z = double(i) * height / double(rz - 1);
    mesh.points.insert(mesh.points.end(), {0.0 + origin[0], 0.0 + origin[1], z + origin[2]});
    for (long long j = 1; j <= rr; ++j) {
      const double r = double(j) * radius / double(rr);
      for (long long k = 0; k < rt; ++k) {
        const double theta = double(k * 2) * pi / double(rt);
        mesh.points.insert(mesh.points.end(), {r * std::cos(theta) + origin[0],
                                               r * std::sin(theta) + origin[1], z + origin[2]});
      }
    }
  }
  const long long level = rt * rr + 1;
  for (long long i = 1; i < rz; ++i) {
    long long center = i * level;
    for (long long k = 1, previous = rt; k <= rt; previous = k++) {
      const long long p[6] = {center,         center + previous,         center + k,
                              center - level, center + previous - level, center + k - level};
      add(mesh.cells, {p[1], p[0], p[2], p[3], p[1], p[2], p[4], p[3], p[3], p[4], p[5], p[2]});
    }
    for (long long j = 1; j < rr; ++j, center += rt)
      for (long long k = 1, previous = rt; k <= rt; previous = k++) {
        const long long h[8] = {center + k,
                                center + previous,
                                center + k + rt,
                                center + previous + rt,
                                center + k - level,
                                center + previous - level,
                                center + k + rt - level,
                                center + previous + rt - level};
        add(mesh.cells, {h[0], h[5], h[4], h[7], h[0], h[1], h[5], h[3], h[5], h[0], h[3], h[7],
                         h[0], h[3], h[7], h[2], h[7], h[0], h[2], h[4], h[6], h[7], h[2], h[4]});
      }
  }
  return mesh;
}

namespace {

std::vector<double> three(Reader& reader, const SofaObject& o, const char* field) {
  std::vector<double> v = reader.reals(o, field);
  if (!reader.given(o, field)) v.assign(3, 0.0);
  if (v.size() != 3) reader.reject(o, field, "expected three numbers");
  return v;
}

long long count(Reader& reader, const SofaObject& o, const char* field, long long fallback,
                long long least, const char* why) {
  if (!reader.given(o, field)) return fallback;
  const std::vector<long long> v = reader.integers(o, field);
  if (v.size() != 1 || v[0] < least) reader.reject(o, field, why);
  return v[0];
}

GeneratedMesh generate(Reader& reader, const SofaObject& engine, const std::string& kind) {
  const std::string tmpl = reader.text(engine, "template").value_or("Vec3d");
  if (tmpl != "Vec3d" && tmpl != "Vec3")
    reader.reject(engine, "template", "only Vec3d (3D points) is supported");
  // StringMeshCreator::doLoad: `resolution` points from (0, 0, 0) to (1, 0, 0), edges i, i + 1.
  if (engine.type == "StringMeshCreator") {
    if (kind != "edges") reader.reject(engine, kind, "empty: a StringMeshCreator makes edges only");
    const long long n = count(reader, engine, "resolution", 2, 2,
                              "expected a whole number >= 2 (SOFA divides by it minus 1)");
    GeneratedMesh mesh;
    for (long long i = 0; i < n; ++i)
      mesh.points.insert(mesh.points.end(), {double(i) * (1. / double(n - 1)), 0.0, 0.0});
    for (long long i = 1; i < n; ++i) mesh.cells.insert(mesh.cells.end(), {i - 1, i});
    return mesh;
  }
  if (engine.type == "GenerateGrid") {
    const std::vector<double> min = three(reader, engine, "min"),
                              max = three(reader, engine, "max");
    std::vector<long long> res = reader.integers(engine, "resolution");
    if (!reader.given(engine, "resolution")) res = {3, 3, 3};
    if (res.size() != 3 || res[0] < 0 || res[1] < 0 || res[2] < 0)
      reader.reject(engine, "resolution", "expected 3 whole numbers >= 0 (cubes along x, y, z)");
    // GenerateGrid::doUpdate: no cube along x or y is an error, and SOFA makes one.
    for (int a = 0; a < 2; ++a)
      if (res[a] == 0) {
        reader.warn(engine.label() + ": resolution " + (a ? "y" : "x") +
                    " = 0: SOFA makes it 1 (with an error message), and so does the import");
        res[a] = 1;
      }
    const bool flat = res[2] == 0;
    if (flat != (kind == "triangles" || kind == "quads"))
      reader.reject(engine, kind,
                    flat ? "empty: a resolution of 0 along z makes a flat grid (triangles, quads)"
                         : "empty: a grid with cubes along z makes tetrahedra and hexahedra");
    return generateGrid(min.data(), max.data(), res[0], res[1], res[2], kind);
  }
  if (kind != "tetrahedra")
    reader.reject(engine, kind,
                  "not supported yet (of GenerateCylinder's outputs, tetrahedra and "
                  "output_position are)");
  if (reader.given(engine, "BezierTetrahedronDegree") &&
      reader.integers(engine, "BezierTetrahedronDegree").at(0) > 1)
    reader.reject(engine, "BezierTetrahedronDegree",
                  "Bezier control points are not supported (they are appended to the points)");
  const std::vector<double> origin = three(reader, engine, "origin");
  const long long rt = count(reader, engine, "resCircumferential", 6, 3,
                             "expected a whole number >= 3 (points around a ring)");
  const long long rr = count(reader, engine, "resRadial", 3, 1,
                             "expected a whole number >= 1 (rings about the axis)");
  const long long rz = count(reader, engine, "resHeight", 5, 2,
                             "expected a whole number >= 2 (levels; SOFA divides by it minus 1)");
  return generateCylinderTetrahedra(reader.real(engine, "radius", 0.2),
                                    reader.real(engine, "height", 1.0), origin.data(), rt, rr, rz);
}

}  // namespace

void mapGeneratedMesh(Reader& reader, const SofaObject& engine, const SofaObject& topology,
                      const std::string* movedField) {
  checkDataFields(reader, engine, false);
  if (engine.type == "MeshTetraStuffing") {
    mapTetraStuffing(reader, engine, topology, movedField);
    return;
  }
  std::string positionField;
  if (movedField)
    positionField = *movedField;
  else
    reader.linked(topology, "position", &positionField);
  const bool cylinder = engine.type == "GenerateCylinder";
  const bool string = engine.type == "StringMeshCreator";
  if (positionField != "output_position" && positionField != "position" &&
      !(cylinder && positionField == "output_TetrahedraPosition"))
    reader.reject(topology, "position",
                  "expected a link to " + engine.label() + "'s output_position" +
                      (cylinder ? " (output_TrianglesPosition is not supported yet)" : ""));
  std::string kind;
  for (const char* field : {"tetrahedra", "hexahedra", "triangles", "quads", "edges"}) {
    std::string linkedField;
    const SofaObject* source = reader.linked(topology, field, &linkedField);
    if (!source) continue;
    if (source != &engine)
      reader.reject(topology, field,
                    "its points come from " + engine.label() + ", its cells from elsewhere");
    if (!kind.empty())
      reader.reject(topology, field, "beside " + kind + ": a body's mesh holds cells of one type");
    if (linkedField != field)
      reader.reject(topology, field, "expected a link to " + engine.label() + "'s " + field);
    kind = field;
  }
  if (kind.empty())
    reader.reject(topology, "position",
                  "points from " + engine.label() + " without its cells (link " +
                      (string ? "edges" : "tetrahedra, hexahedra, triangles or quads") +
                      " to the engine's)");
  const GeneratedMesh mesh = generate(reader, engine, kind);
  std::string nodes, cells;
  for (double x : mesh.points) nodes += (nodes.empty() ? "" : " ") + parse::text(x);
  for (long long id : mesh.cells) cells += (cells.empty() ? "" : " ") + std::to_string(id);
  reader.key("mesh.nodes", nodes);
  reader.key(kind == "quads" ? "mesh.quadrangles" : "mesh." + kind, cells);
}

}  // namespace eis::sofa
