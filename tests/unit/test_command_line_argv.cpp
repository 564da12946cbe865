// The forms of argv that io/command_line.cpp reads through Boost.Program_options beyond those of
// test_command_line.cpp: separate values that start with a dash, PETSc's options among ours,
// "--", flags followed by a token, values missing before another option, and repeated flags.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "eis/app/scene_builder.hpp"
#include "eis/io/command_line.hpp"
#include "error_of.hpp"

namespace {

using Args = std::vector<std::string>;

// parseArguments on {"euler-implicit", args...}.
eis::CommandLine parse(const Args& args) {
  std::vector<const char*> argv{"euler-implicit"};
  for (const std::string& a : args) argv.push_back(a.c_str());
  return eis::parseArguments(static_cast<int>(argv.size()), argv.data());
}

std::string errorOf(const Args& args) {
  return eis_test::errorOf([&] { parse(args); });
}

// A path key's value: empty when absent.
std::string path(const eis::Scene& s, const std::string& key) {
  const Args values = s.texts(key);
  return values.empty() ? "" : values.front();
}

// A separate value is ours whatever it starts with but "--": a dash, a negative number, nothing.
TEST(CommandLineArgv, SeparateValuesMayStartWithADash) {
  const eis::CommandLine cl = parse({"--output.vtk", "-out", "--output.history", "",
                                     "--soft/load.gravity", "-1,0,0", "--solver.steps", "-0"});
  EXPECT_TRUE(cl.petscArgs.empty());
  EXPECT_EQ(path(cl.scene, "output.vtk"), "-out");
  EXPECT_EQ(path(cl.scene, "output.history"), "");
  EXPECT_EQ(cl.scene.integer("solver.steps"), 0);
  ASSERT_EQ(cl.objects.size(), 1u);
  EXPECT_EQ(cl.objects[0].scene.text("load.gravity"), "-1,0,0");
  EXPECT_EQ(errorOf({"--solver.dt", "-1"}), "solver.dt = -1: must be > 0");
  EXPECT_EQ(errorOf({"--solver.dt", "-ksp_type"}),
            "solver.dt = -ksp_type: '-ksp_type' is not a finite number");
}

// PETSc's options keep their order and values wherever they stand among ours.
TEST(CommandLineArgv, PetscOptionsBetweenOurs) {
  const eis::CommandLine cl =
      parse({"--solver.dt", "0.5", "-ksp_type", "cg", "--solver.steps=3", "-log_view",
             "--mesh.refine", "1", "-pc_type", "gamg", "-ksp_view", "-ksp_rtol", "-.5"});
  EXPECT_EQ(cl.petscArgs, (Args{"-ksp_type", "cg", "-log_view", "-pc_type", "gamg", "-ksp_view",
                                "-ksp_rtol", "-.5"}));
  EXPECT_EQ(cl.scene.real("solver.dt"), 0.5);
  EXPECT_EQ(cl.scene.integer("solver.steps"), 3);
  EXPECT_EQ(cl.scene.integer("mesh.refine"), 1);
  // A PETSc option's value is never ours, even one that names a key: no "--" is a value.
  EXPECT_EQ(parse({"-log_view", "--solver.steps", "2"}).petscArgs, Args{"-log_view"});
  EXPECT_EQ(parse({"-options_file", "petsc.opts", "-ksp_monitor", "--version"}).petscArgs,
            (Args{"-options_file", "petsc.opts", "-ksp_monitor"}));
}

// "--" ends nothing: it is an unknown option, with or without a value, as is an empty name.
TEST(CommandLineArgv, DoubleDashIsAnUnknownOption) {
  EXPECT_EQ(errorOf({"--", "-ksp_type", "cg"}), "unknown option --");
  EXPECT_EQ(errorOf({"--solver.steps=1", "--", "x"}), "unknown option --");
  EXPECT_EQ(errorOf({"--=1"}), "unknown option --");
}

// A flag takes no separate value: what follows it is read on its own.
TEST(CommandLineArgv, FlagsLeaveTheNextArgument) {
  EXPECT_EQ(errorOf({"--help", "x"}),
            "unexpected argument 'x' (ours start with --, PETSc's with -)");
  EXPECT_EQ(errorOf({"--version", "-1"}),
            "unexpected argument '-1' (ours start with --, PETSc's with -)");
  EXPECT_EQ(parse({"--version", "-malloc_debug"}).petscArgs, Args{"-malloc_debug"});
  EXPECT_EQ(errorOf({"--help="}), "--help: takes no value");
  EXPECT_EQ(errorOf({"--help", "--help"}), "--help: given more than once");
}

// A value is missing when another of our options follows, not taken from it.
TEST(CommandLineArgv, AValueIsMissingBeforeAnotherOption) {
  EXPECT_EQ(errorOf({"--solver.dt", "--solver.steps=3"}), "--solver.dt: missing value");
  EXPECT_EQ(errorOf({"--config", "--help"}), "--config: missing value");
  EXPECT_EQ(errorOf({"--soft/solver.dt", "--solver.steps", "3"}),
            "--soft/solver.dt: missing value");
  EXPECT_EQ(errorOf({"--soft/solver.dt"}), "--soft/solver.dt: missing value");
  EXPECT_EQ(errorOf({"--mesh.refine", "1", "--solver.dt"}), "--solver.dt: missing value");
}

// Names are matched whole and case counts; the nearest key is named.
TEST(CommandLineArgv, NamesAreNeitherAbbreviatedNorCaseFolded) {
  EXPECT_EQ(errorOf({"--Solver.dt=1"}), "unknown option --Solver.dt (did you mean --solver.dt?)");
  EXPECT_EQ(errorOf({"--confi", "a.ini"}), "unknown option --confi (did you mean --config?)");
  EXPECT_EQ(errorOf({"--soft/confi", "a.ini"}), "unknown option --soft/confi");
  EXPECT_EQ(errorOf({"--solver.foo"}), "unknown option --solver.foo");
}

}  // namespace
