// mapped-pressure (SOFA SurfacePressureForceField on a mapped child's faces;
// model/mapped_pressure.cpp) on 1, 2 and 3 ranks: the matrix-free product's tangent against
// centred differences of the force, with faces whose points lie in cells of different ranks, and
// a pulsed run on any rank count against one.
#include <gtest/gtest.h>

#include "eis/model/mechanical_system.hpp"
#include "mpi_support.hpp"

namespace {

using Model = eis_test::BoxModel;

// Child points spread along a 4 x 1 x 1 box (so that on 2 and 3 ranks a face joins points of
// several ranks' cells), two triangles and, where asked, a quadrangle.
std::vector<std::pair<std::string, std::string>> pressureKeys(bool quads) {
  std::vector<std::pair<std::string, std::string>> keys = {
      {"mapped.mapping", "barycentric"},
      {"mapped.points", "0.3 0.2 0.7  3.6 0.6 0.3  1.9 0.3 0.4  2.75 0.65 0.85  1.1 0.8 0.6"},
      {"mapped.triangles", "0 1 4  1 2 4"},
      {"mapped.pressure", "400"}};
  if (quads) keys.push_back({"mapped.quads", "0 2 3 4"});
  return keys;
}

class MappedPressureRuns : public eis_test::TightSolvesTest {};

// The tangent (SOFA's p/6 [c-b]x, [a-c]x, [b-a]x carried by J^T K_c J) through addMBKv against
// centred differences of the force, the body's FEM included.
TEST_F(MappedPressureRuns, TangentEqualsFiniteDifferencesOfTheForce) {
  for (auto type : {eis::CellType::Tetrahedron, eis::CellType::Hexahedron}) {
    SCOPED_TRACE(int(type));
    eis_test::SceneFields scene = eis_test::cantilever({4, 1, 1}, {8, 2, 2}, 2e3);
    scene.cellType = type;
    scene.op = eis::OperatorMode::MatrixFree;
    for (const auto& [key, value] : pressureKeys(false)) scene.extra.push_back({key, value});
    Model m(scene);
    EXPECT_LT(m.productTangentGap(1e-6), 1e-7);
  }
}

// A pulsed pressure on triangles and a quadrangle gives the same answer on any rank count.
TEST_F(MappedPressureRuns, AnyRankCountAgreesWithOne) {
  eis_test::SceneFields scene = eis_test::cantilever({4, 1, 1}, {8, 2, 2}, 2e3);
  scene.steps = 10;
  scene.op = eis::OperatorMode::MatrixFree;
  for (const auto& [key, value] : pressureKeys(true))
    scene.extra.push_back(
        key == "mapped.pressure"
            ? std::pair<std::string, std::string>{"mapped.pressure-pulse", "400 8000 -100"}
            : std::pair<std::string, std::string>{key, value});
  const eis::NodalTable state = eis_test::run(scene), one = eis_test::serialReference(scene);
  EXPECT_LT(eis_test::disagreement(one, state, scene), 1e-9);
}

}  // namespace
