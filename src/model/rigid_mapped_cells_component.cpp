// The rigid-mapped-cells component: a FEM force field and a mass on the cells of the points a
// RigidMapping drives from frames (rigid.mapped-*; model/rigid_mapped_cells.hpp), read into the
// rigid body's parameters by readRigidBodyParameters.
#include <cmath>
#include <string>

#include "eis/core/component_registry.hpp"
#include "eis/model/rigid_mapped_cells.hpp"

namespace eis {

namespace {

// Cells of `corners` corners: that many integers >= 0 each.
Check cellsCheck(int corners, const std::string& cell) {
  return [corners, cell](const std::string& key, const std::string& text) {
    const std::vector<double> values = parse::reals(key, text, 0);
    if (values.empty() || values.size() % std::size_t(corners) != 0)
      parse::reject(key, text,
                    "expected " + std::to_string(corners) + " point indices for each " + cell);
    for (double v : values)
      if (v < 0 || v != std::floor(v)) parse::reject(key, text, "a point index is an integer >= 0");
  };
}

// "consistent|lumped density|total VALUE".
Check cellMassCheck() {
  return [](const std::string& key, const std::string& text) {
    const Texts t = parse::tokens(text);
    double value = 0;
    if (t.size() != 3 || (t[0] != "consistent" && t[0] != "lumped") ||
        (t[1] != "density" && t[1] != "total") || !parse::number(t[2], value) || !(value > 0))
      parse::reject(key, text, "expected consistent|lumped density|total VALUE (VALUE > 0)");
  };
}

}  // namespace

const ComponentDeclaration& rigidMappedCellsComponent() {
  static const ComponentDeclaration component{
      "rigid-mapped-cells", "body",
      "a FEM force field and a mass on the cells of rigidly mapped points (SOFA's rigidified "
      "sections)",
      ParameterSpec()
          .add({"rigid.mapped-hexahedra", "\"A B C D E F G H ..\"",
                "hexahedra on rigid.mapped-points (0-based point indices, SOFA's vertex order):\n"
                "a HexahedronFEMForceField and a MeshMatrixMass in the RigidMapping's child act\n"
                "on them, carried to the frames as J^T f, J^T K J and J^T M J",
                std::nullopt, "", false, cellsCheck(8, "hexahedron")})
          .add({"rigid.mapped-tetrahedra", "\"A B C D ..\"",
                "tetrahedra on rigid.mapped-points instead (0-based point indices): a\n"
                "TetrahedronFEMForceField and a MeshMatrixMass in the RigidMapping's child act on\n"
                "them, carried to the frames as with rigid.mapped-hexahedra",
                std::nullopt, "", false, cellsCheck(4, "tetrahedron")})
          .add({"rigid.mapped-young-modulus", "E",
                "the Young modulus of the FEM on rigid.mapped-hexahedra or -tetrahedra (the\n"
                "element a mesh body's elastic-fem takes for those cells). Absent: no FEM",
                std::nullopt, "pressure", false, check::positive()})
          .add({"rigid.mapped-poisson-ratio", "NU",
                "the Poisson ratio of that FEM (SOFA's default 0.45)", "0.45", "", false,
                check::within(-1, 0.5)})
          .add(
              {"rigid.mapped-fem-method", "small|large|polar|svd",
               "that FEM's rotation (SOFA HexahedronFEMForceField's or TetrahedronFEMForceField's\n"
               "`method`; svd on tetrahedra only)",
               "large", "", false, check::choice(kMappedFemMethods)})
          .add({"rigid.mapped-cell-mass", "\"consistent|lumped density|total VALUE\"",
                "a mass on the mapped cells (SOFA MeshMatrixMass: consistent, or lumping;\n"
                "massDensity or totalMass). Absent: none",
                std::nullopt, "", false, cellMassCheck()}),
      nullptr};
  return component;
}

RigidMappedCells readRigidMappedCells(const Parameters& scene) {
  RigidMappedCells cells;
  const bool hexahedra = scene.given("rigid.mapped-hexahedra"),
             tetrahedra = scene.given("rigid.mapped-tetrahedra");
  if (hexahedra && tetrahedra)
    throw Error(
        "rigid.mapped-hexahedra and rigid.mapped-tetrahedra: the mapped points carry cells of "
        "one kind");
  if (!hexahedra && !tetrahedra) {
    for (const char* key :
         {"rigid.mapped-young-modulus", "rigid.mapped-fem-method", "rigid.mapped-cell-mass"})
      if (scene.given(key))
        throw Error(std::string(key) +
                    " acts on rigid.mapped-hexahedra or rigid.mapped-tetrahedra, neither given");
    return cells;
  }
  cells.type = hexahedra ? CellType::Hexahedron : CellType::Tetrahedron;
  for (double v : scene.reals(hexahedra ? "rigid.mapped-hexahedra" : "rigid.mapped-tetrahedra"))
    cells.corners.push_back((long long)v);
  if (scene.given("rigid.mapped-young-modulus"))
    cells.youngModulus = scene.real("rigid.mapped-young-modulus");
  cells.poissonRatio = scene.real("rigid.mapped-poisson-ratio");
  cells.method = scene.choice("rigid.mapped-fem-method", kMappedFemMethods);
  if (hexahedra && cells.method == MappedFemMethod::Svd)
    throw Error(
        "rigid.mapped-fem-method = svd: SOFA's HexahedronFEMForceField has no method svd (small, "
        "large or polar on rigid.mapped-hexahedra)");
  if (scene.given("rigid.mapped-cell-mass")) {
    const Texts t = parse::tokens(scene.text("rigid.mapped-cell-mass"));
    cells.massType = t[0] == "lumped" ? MassType::Lumped : MassType::Consistent;
    (t[1] == "total" ? cells.totalMass : cells.density) = std::stod(t[2]);
  }
  return cells;
}

const RegisterComponent registered(465, rigidMappedCellsComponent);

}  // namespace eis
