// SOFA's index-list syntax (eis/io/sofa_index_list.hpp): ranges "A-B" and "A-B-S" as
// sofa::type::vector<unsigned int>::read expands them, against lists expanded by hand, and the
// importer reading every index field through it.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "eis/io/sofa_import.hpp"
#include "eis/io/sofa_index_list.hpp"
#include "eis/io/sofa_scene.hpp"
#include "error_of.hpp"

namespace {

using List = std::vector<long long>;

List expanded(const std::string& word) {
  List out;
  std::string why;
  EXPECT_TRUE(eis::expandSofaIndexWord(word, out, why)) << word << ": " << why;
  return out;
}

std::string refusal(const std::string& word) {
  List out;
  std::string why;
  if (eis::expandSofaIndexWord(word, out, why)) return "(accepted)";
  EXPECT_TRUE(out.empty()) << word;
  return why;
}

TEST(SofaIndexRanges, WordsExpandAsSofaReadsThem) {
  List upTo50;
  for (long long i = 0; i <= 50; ++i) upTo50.push_back(i);
  EXPECT_EQ(expanded("0-50"), upTo50);
  EXPECT_EQ(expanded("7"), (List{7}));
  EXPECT_EQ(expanded("+4"), (List{4}));  // strtoll takes a sign
  EXPECT_EQ(expanded("5-5"), (List{5}));
  EXPECT_EQ(expanded("10-2"), (List{10, 9, 8, 7, 6, 5, 4, 3, 2}));
  EXPECT_EQ(expanded("2-10-3"), (List{2, 5, 8}));
  // A step pointing away from the second bound swaps the bounds.
  EXPECT_EQ(expanded("10-2-3"), (List{2, 5, 8}));
  EXPECT_EQ(expanded("0-10--2"), (List{10, 8, 6, 4, 2, 0}));
  // Going down, the second bound ends the list even off the step.
  EXPECT_EQ(expanded("10-2--3"), (List{10, 7, 4, 2}));
  EXPECT_EQ(expanded("2-10--3"), (List{10, 7, 4, 2}));
  // A step of 0 is 1 or -1.
  EXPECT_EQ(expanded("3-1-0"), (List{3, 2, 1}));
  EXPECT_EQ(expanded("5-5-0"), (List{5}));
  EXPECT_EQ(expanded("4294967295"), (List{4294967295LL}));
}

TEST(SofaIndexRanges, MalformedWordsAreRefused) {
  EXPECT_EQ(refusal("-3"), "'-3' is negative");
  EXPECT_EQ(refusal("3--2"), "'-2' is negative");
  EXPECT_EQ(refusal("5-"), "a range with an empty bound");
  EXPECT_EQ(refusal("0-5-"), "a range with an empty step");
  EXPECT_EQ(refusal("3-5-2-1"), "step '2-1' is no integer");
  EXPECT_EQ(refusal("a-3"), "'a' is no integer");
  EXPECT_EQ(refusal("3-x"), "'x' is no integer");
  EXPECT_EQ(refusal("1.5"), "'1.5' is no integer");
  EXPECT_EQ(refusal("4294967296"), "'4294967296' is past 2^32 - 1");
  // SOFA's unsigned counter wraps below 0 here and runs on.
  EXPECT_EQ(refusal("1-0--3"), "it stands for more than 10^7 indices");
  EXPECT_EQ(refusal("0-4294967295"), "it stands for more than 10^7 indices");
}

std::vector<std::string> fixedKeys(const std::string& indices) {
  eis::SofaImportOptions options;
  options.sceneFolder = EIS_MESH_DIR;
  const eis::SofaImport out = eis::importSofaScene(
      eis::SofaScene(
          "<Node><EulerImplicitSolver/><MeshGmshLoader name='l' "
          "filename='beam_v22_ascii.msh'/><MechanicalObject src='@l'/><UniformMass totalMass='1'/>"
          "<FixedProjectiveConstraint indices='" +
              indices + "'/></Node>",
          "t.scn"),
      options);
  std::vector<std::string> found;
  for (const eis::SofaKey& k : out.objects.at(0).keys)
    if (k.key == "constraint.fixed") found.push_back(k.value);
  return found;
}

TEST(SofaIndexRanges, IndexFieldsReadRanges) {
  EXPECT_EQ(fixedKeys("1-3 7 9-8 0-6-3"), fixedKeys("1 2 3 7 9 8 0 3 6"));
  EXPECT_EQ(fixedKeys("1-3"), (std::vector<std::string>{"indices 1 2 3"}));
  const std::string error = eis_test::errorOf([] { fixedKeys("0 2-"); });
  EXPECT_NE(error.find("indices = '0 2-': '2-' is no node index nor range: a range with an "
                       "empty bound"),
            std::string::npos)
      << error;
  EXPECT_EQ(error.find('\n'), std::string::npos);
}

}  // namespace
