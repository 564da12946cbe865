// The up-front size check of mesh/mesh_source.cpp uses this build's index widths: PetscInt's
// (32 bits, or 64 with cmake -DEIS_PETSC64=ON) for the unknowns, METIS's idx_t for the cells.
// The limits are written out here from the widths alone, so a check that keeps a 32-bit limit
// in the 64-bit build (or the reverse) fails one side of its boundary.
#include <gtest/gtest.h>

#include <petscsys.h>

#include <string>

#include "eis/app/scene_builder.hpp"
#include "eis/mesh/mesh_source.hpp"
#include "eis/mesh/metis_partition.hpp"

namespace {

constexpr double kUnlimitedMemory = 1e300;

double petscIntLimit() {
  return sizeof(PetscInt) == 8 ? 9223372036854775807.0 : 2147483647.0;
}
double metisCellLimit() {
  return sizeof(idx_t) == 8 ? 2305843009213693951.0 : 536870911.0;
}

std::string failure(double nodes, double tets, int dofs, int refine = 0,
                    double memory = kUnlimitedMemory) {
  eis::Scene scene = eis::defaultScene();
  scene.set("mesh.refine", std::to_string(refine));
  return eis::meshSizeFailure(eis::readMeshSourceParameters(scene), nodes, tets, dofs, memory, 1);
}

TEST(MeshSizeLimits, UnknownsStopAtThisBuildsPetscInt) {
  EXPECT_EQ(failure(petscIntLimit(), 1, 1), "");
  if (sizeof(PetscInt) == 4) {
    const std::string refused = failure(petscIntLimit() + 1, 1, 1);
    EXPECT_NE(refused.find("32-bit indices stop at 2.147e+09"), std::string::npos) << refused;
    EXPECT_NE(refused.find("-DEIS_PETSC64=ON"), std::string::npos) << refused;
  } else {
    EXPECT_EQ(failure(2147483648.0, 1, 1), "");
    const std::string refused = failure(petscIntLimit() * 2, 1, 1);
    EXPECT_NE(refused.find("64-bit indices stop at 9.223e+18"), std::string::npos) << refused;
  }
}

// The default box (21 x 5 x 5 nodes) refined 12 times: about 1.08e14 unknowns, past 2^31 only.
TEST(MeshSizeLimits, RefinementPast32BitsOnlyThe64BitBuildAccepts) {
  const std::string refused = failure(525, 2400, 3, 12);
  if (sizeof(PetscInt) == 4)
    EXPECT_NE(refused.find("about 1.082e+14 unknowns"), std::string::npos) << refused;
  else
    EXPECT_EQ(refused, "");
}

TEST(MeshSizeLimits, CellsStopAtMetisIdxTWhicheverPetsc) {
  EXPECT_EQ(failure(4, metisCellLimit(), 1), "");
  const std::string refused = failure(4, metisCellLimit() + 1, 1);
  EXPECT_NE(refused.find("partition at most"), std::string::npos) << refused;
}

TEST(MeshSizeLimits, TwoKiBPerUnknownOnEachRank) {
  EXPECT_EQ(failure(1000, 10, 3, 0, 2048.0 * 3000), "");
  const std::string refused = failure(1000, 10, 3, 0, 2048.0 * 3000 - 1);
  EXPECT_NE(refused.find("GiB per rank"), std::string::npos) << refused;
}

}  // namespace
