#include "eis/io/help.hpp"

#include <algorithm>

namespace eis {

namespace {

std::string sectionOf(const std::string& key) {
  return key.substr(0, key.find('.'));
}
std::string nameOf(const std::string& key) {
  return key.substr(key.find('.') + 1);
}

std::string indented(const std::string& lines, const std::string& indent) {
  std::string result = indent;
  for (const char c : lines) result += c == '\n' ? "\n" + indent : std::string(1, c);
  return result + "\n";
}

std::string defaultOf(const ParameterDeclaration& d) {
  if (!d.defaultHelp.empty()) return d.defaultHelp;
  return d.defaultText && !d.repeatable ? *d.defaultText : "none";
}

const char* const kUsage =
    "Usage: mpiexec -n N euler-implicit [--config scene.ini | --scene scene.scn] [--quiet] "
    "[--section.key=value ...] [PETSc options]\n"
    "\n"
    "Advances a tetrahedral mesh in time with SOFA's EulerImplicitSolver, distributed over\n"
    "the MPI ranks with PETSc. Without options it runs the built-in scene: a cantilever beam\n"
    "(the default box, fixed at x = 0) under gravity.\n"
    "\n"
    "Our options start with two dashes: --section.key=value or --section.key value. A config\n"
    "file gives the same keys in INI sections, e.g. \"[mesh]\" then \"box-size = 10 1 1\"; the\n"
    "command line wins, key by key (the command-line occurrences of a repeatable key replace\n"
    "the file's). Vectors are one argument of space- or comma-separated numbers:\n"
    "--mesh.box-size=\"10 1 1\" or --mesh.box-size=10,1,1. Booleans: true/false, 1/0, yes/no,\n"
    "on/off. In a config file a comment starts with '#' or ';' at the start of a line or after\n"
    "a blank, and a relative PATH or PREFIX starts at the file's folder (on the command line, at\n"
    "the current one).\n"
    "\n"
    "Several bodies: a key NAME/section.key (--NAME/section.key=value, or key = value in an INI\n"
    "section [NAME/section]) belongs to body NAME alone; each body named so is simulated with the\n"
    "keys without a name plus its own, its own winning (the command line still winning over the\n"
    "file). README.md, \"Several bodies\", has an example.\n"
    "\n"
    "  --config FILE   read keys from the INI file FILE\n"
    "  --help          print this text and exit\n"
    "  --version       print the version and exit\n"
    "  --quiet         no per-step progress lines (the same as --output.progress-every=0)\n"
    "  --scene FILE    run the SOFA scene FILE unchanged, XML (.scn) or SofaPython3 (.py, run\n"
    "                  by python3 against our stand-in of SOFA's modules; its controllers\n"
    "                  run before and after each step; reading computed data in createScene\n"
    "                  is not supported) (the same as --scene.file=FILE;\n"
    "                  a .py scene is code, run with your rights: run only scenes you trust):\n"
    "                  its components become the keys below; the command line and the INI\n"
    "                  file win key by key. README.md, \"Coming from SOFA\", lists what maps\n"
    "                  onto which key.\n"
    "  --restart=auto|FILE  continue a run from a checkpoint (the same as --initial.restart)\n"
    "  --restart-force  load it even when another scene wrote it, or a controller's\n"
    "                   attribute was not held (--initial.restart-force=true)\n"
    "\n"
    "Exit status: 0 the run is complete; 1 an error (one line on standard error says what);\n"
    "75 stopped by SIGTERM, SIGUSR1 or SIGINT after a step, its checkpoint (output.checkpoint)\n"
    "and outputs written: --restart=auto continues it.\n"
    "\n"
    "The keys, component by component (a scene is made of these):\n";

const char* const kNotes =
    "The step, SOFA's linearized implicit Euler with its Rayleigh damping, velocity-dependent\n"
    "forces and projected constraints, is written out in docs/architecture.md (\"The step\").\n"
    "The default linear solve stops at a relative residual of 1e-8 (solver.rtol or -ksp_rtol\n"
    "changes it).\n"
    "\n"
    "PETSc options start with one dash and go to PETSc with their values, e.g.\n"
    "    -ksp_type cg -pc_type gamg -ksp_rtol 1e-10 -ksp_monitor -log_view\n"
    "The linear solver defaults to CG + GAMG for elasticity and for diffusion (assembled\n"
    "operator) and CG + Jacobi with solver.operator = matrix-free (solver.preconditioner picks\n"
    "another); any -ksp_type / -pc_type overrides it.\n"
    "PETSc options that no solver read are listed as warnings at the end of the run (as\n"
    "-options_left would), which shows a misspelt PETSc option.\n"
    "-eis_mmap_threshold BYTES (ours, 1 to 33554432, default 33554432): allocations of that\n"
    "size and more are mapped by themselves and given back to the system when freed, which a\n"
    "library PETSc loads turns off; 0 leaves it off.\n";

}  // namespace

std::string helpText(const std::vector<const ComponentDeclaration*>& components) {
  std::string help = kUsage;
  for (const ComponentDeclaration* component : components) {
    help += "\n" + component->type + " (" + component->kind + "): " + component->summary + "\n";
    for (const ParameterDeclaration& d : component->parameters.declarations()) {
      help += "  --" + d.key + "=" + d.arg + "\n";
      help += indented(d.help, "      ");
      if (!d.unit.empty()) help += indented("unit: " + d.unit, "      ");
      help += indented("default: " + defaultOf(d), "      ");
    }
  }
  return help + "\n" + kNotes;
}

std::string describe(const Scene& scene) {
  // Keys grouped by INI section, sections in the order they first appear.
  std::vector<std::string> sections;
  for (const ParameterDeclaration& d : scene.spec().declarations())
    if (std::find(sections.begin(), sections.end(), sectionOf(d.key)) == sections.end())
      sections.push_back(sectionOf(d.key));
  std::string ini;
  for (const std::string& section : sections) {
    ini += std::string(ini.empty() ? "" : "\n") + "[" + section + "]\n";
    for (const ParameterDeclaration& d : scene.spec().declarations()) {
      if (sectionOf(d.key) != section) continue;
      const Texts values = scene.shown(d.key);
      if (values.empty()) ini += "# " + nameOf(d.key) + " = (none)\n";
      for (const std::string& value : values) ini += nameOf(d.key) + " = " + value + "\n";
    }
  }
  return ini;
}

}  // namespace eis
