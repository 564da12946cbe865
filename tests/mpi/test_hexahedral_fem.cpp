// SOFA's HexahedralFEMForceField (material.hexahedron-element = hexahedral-fem) on 1, 2 and 3
// ranks: a hexahedral cantilever, large and polar, ends where it ends on one rank; and the
// element differs from HexahedronFEMForceField's (the test could not pass by running the other).
#include <gtest/gtest.h>

#include "mpi_support.hpp"

namespace {

class HexahedralFem : public eis_test::TightSolvesTest {};

eis_test::SceneFields hexahedralCantilever(eis::RotationMethod rotation, const char* element) {
  eis_test::SceneFields scene = eis_test::cantilever({4, 1, 1}, {8, 2, 2}, 2e3);
  scene.cellType = eis::CellType::Hexahedron;
  scene.material = eis::MaterialModel::Corotational;
  scene.rotation = rotation;
  scene.steps = 8;
  scene.dt = 0.02;
  scene.extra = {{"material.hexahedron-element", element}};
  return scene;
}

TEST_F(HexahedralFem, AnyRankCountAgreesWithOne) {
  for (auto rotation : {eis::RotationMethod::Large, eis::RotationMethod::Polar}) {
    const eis_test::SceneFields scene = hexahedralCantilever(rotation, "hexahedral-fem");
    EXPECT_LT(eis_test::disagreement(eis_test::serialReference(scene), eis_test::run(scene), scene),
              1e-10);
  }
}

// A box of 0.5 x 0.5 x 0.5 cells: cubes, where both elements have the trilinear stiffness, but
// HexahedralFEMForceField's rounded to single precision and applied to absolute coordinates (up
// to 4 here): its rest is off by about 1e-7 K0 |x|, and the two agree to about 1e-5 of the
// deflection (1.8e-5 measured), not to 1e-12.
TEST_F(HexahedralFem, OnCubesItIsHexahedronFemToSinglePrecision) {
  const eis_test::SceneFields closed =
      hexahedralCantilever(eis::RotationMethod::Large, "hexahedral-fem");
  const eis_test::SceneFields gauss =
      hexahedralCantilever(eis::RotationMethod::Large, "hexahedron-fem");
  const double gap = eis_test::disagreement(eis_test::run(gauss), eis_test::run(closed), gauss);
  EXPECT_LT(gap, 1e-4);
  EXPECT_GT(gap, 1e-12);
}

}  // namespace
