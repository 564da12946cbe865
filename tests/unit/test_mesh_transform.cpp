// Tests of mesh.transform: SOFA's Euler-angle rotation against rotations worked out by hand,
// an affine matrix (SOFA MeshLoader's transformation) against a point moved by hand,
// compositions, the order of operations, and the key's grammar.
#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

#include "eis/core/error.hpp"
#include "eis/mesh/mesh_transform.hpp"

namespace {

using Point = std::array<double, 3>;

void expectNear(const Point& found, const Point& expected) {
  for (int c = 0; c < 3; ++c) EXPECT_NEAR(found[c], expected[c], 1e-15) << "component " << c;
}

Point transformed(const std::vector<std::string>& operations, Point point) {
  std::vector<Point> points = {point};
  for (const std::string& text : operations)
    eis::applyMeshTransform(eis::parseMeshTransform("mesh.transform", text), points);
  return points[0];
}

// 90 degrees about each axis, counter-clockwise seen from the axis' positive end.
TEST(MeshTransform, QuarterTurnsAboutEachAxis) {
  expectNear(eis::rotateEulerDegrees({90, 0, 0}, {0, 1, 0}), {0, 0, 1});
  expectNear(eis::rotateEulerDegrees({90, 0, 0}, {0, 0, 1}), {0, -1, 0});
  expectNear(eis::rotateEulerDegrees({90, 0, 0}, {1, 0, 0}), {1, 0, 0});
  expectNear(eis::rotateEulerDegrees({0, 90, 0}, {0, 0, 1}), {1, 0, 0});
  expectNear(eis::rotateEulerDegrees({0, 90, 0}, {1, 0, 0}), {0, 0, -1});
  expectNear(eis::rotateEulerDegrees({0, 0, 90}, {1, 0, 0}), {0, 1, 0});
  expectNear(eis::rotateEulerDegrees({0, 0, 90}, {0, 1, 0}), {-1, 0, 0});
  expectNear(eis::rotateEulerDegrees({0, 0, 180}, {1, 2, 3}), {-1, -2, 3});
  EXPECT_EQ(eis::rotateEulerDegrees({0, 0, 0}, {1, 2, 3}), (Point{1, 2, 3}));
}

// Several angles in one operation: x first, then y, then z, about the fixed axes
// (R = Rz Ry Rx). (0, 1, 0) turns to (0, 0, 1) about x, then to (1, 0, 0) about y; the other
// order would give (0, 1, 0) -> (0, 1, 0) -> (0, 0, 1).
TEST(MeshTransform, EulerAnglesTurnAboutXThenYThenZ) {
  expectNear(eis::rotateEulerDegrees({90, 90, 0}, {0, 1, 0}), {1, 0, 0});
  expectNear(eis::rotateEulerDegrees({0, 90, 90}, {0, 0, 1}), {0, 1, 0});
  expectNear(eis::rotateEulerDegrees({90, 0, 90}, {0, 0, 1}), {1, 0, 0});
  // The same as three operations in that order.
  const Point p = {0.3, -1.7, 2.9};
  expectNear(transformed({"rotate 30 -45 60"}, p),
             transformed({"rotate 30 0 0", "rotate 0 -45 0", "rotate 0 0 60"}, p));
  // A rotation keeps lengths.
  const Point q = eis::rotateEulerDegrees({17, 29, 113}, p);
  EXPECT_NEAR(q[0] * q[0] + q[1] * q[1] + q[2] * q[2], p[0] * p[0] + p[1] * p[1] + p[2] * p[2],
              1e-13);
}

TEST(MeshTransform, OperationsApplyInTheOrderGiven) {
  EXPECT_EQ(transformed({"scale 2 3 4", "translate 1 1 1"}, {1, 1, 1}), (Point{3, 4, 5}));
  EXPECT_EQ(transformed({"translate 1 1 1", "scale 2 3 4"}, {1, 1, 1}), (Point{4, 6, 8}));
  expectNear(transformed({"translate 1 0 0", "rotate 0 0 90"}, {0, 0, 0}), {0, 1, 0});
  expectNear(transformed({"rotate 0 0 90", "translate 1 0 0"}, {0, 0, 0}), {1, 0, 0});
  // SOFA's MeshLoader and MechanicalObject order: scale, then rotation, then translation.
  expectNear(transformed({"scale 2 1 1", "rotate 0 0 90", "translate 0 0 5"}, {1, 0, 0}),
             {0, 2, 5});
}

// A matrix row by row, x' = M (x, 1): by hand, (1, 2, 3) goes to (0 - 2 + 0 + 5, 2 + 0 + 0 + 0,
// 0 + 0 + 1.5 - 1) = (3, 2, 0.5), bit for bit; the fourth row may be written, as 0 0 0 1.
TEST(MeshTransform, AnAffineMatrixRowByRow) {
  EXPECT_EQ(transformed({"matrix 0 -1 0 5  2 0 0 0  0 0 0.5 -1"}, {1, 2, 3}), (Point{3, 2, 0.5}));
  EXPECT_EQ(transformed({"matrix 0 -1 0 5  2 0 0 0  0 0 0.5 -1  0 0 0 1"}, {1, 2, 3}),
            (Point{3, 2, 0.5}));
  // After a translation, in the order given.
  EXPECT_EQ(transformed({"translate 1 0 0", "matrix 0 -1 0 5  2 0 0 0  0 0 0.5 -1"}, {1, 2, 3}),
            (Point{3, 4, 0.5}));
}

TEST(MeshTransform, Grammar) {
  for (const std::string bad :
       {"spin 1 2 3", "rotate 1 2", "translate 1 2 x", "translate 1 2 3 4", "", "scale nan 1 1",
        "matrix 1 0 0 0 0 1 0 0 0 0 1", "matrix 1 0 0 0 0 1 0 0 0 0 1 0 0 0 1 1",
        "matrix 1 0 0 0 0 1 0 0 0 0 1 x"}) {
    SCOPED_TRACE(bad);
    EXPECT_THROW(eis::parseMeshTransform("mesh.transform", bad), eis::Error);
  }
  try {
    eis::parseMeshTransform("mesh.transform", "spin 1 2 3");
  } catch (const eis::Error& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("mesh.transform"), std::string::npos) << message;
    EXPECT_NE(message.find("'rotate RX RY RZ' (degrees)"), std::string::npos) << message;
  }
  const eis::MeshTransform t = eis::parseMeshTransform("mesh.transform", "scale -1,2,0.5");
  EXPECT_EQ(t.kind, eis::MeshTransform::Kind::kScale);
  EXPECT_EQ(t.values, (Point{-1, 2, 0.5}));
}

}  // namespace
