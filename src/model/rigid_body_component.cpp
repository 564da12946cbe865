// The rigid-body component: a body of rigid frames (SOFA's MechanicalObject<Rigid3d>) with its
// UniformMass and its fixed frames, declared and read here (model/rigid_body.hpp).
#include <cmath>
#include <string>

#include "eis/core/component_registry.hpp"
#include "eis/model/rigid_body.hpp"

namespace eis {

namespace {

// Whole frames: a positive multiple of `size` reals.
Check multipleOf(std::size_t size) {
  return [size](const std::string& key, const std::string& text) {
    const std::vector<double> values = parse::reals(key, text, 0);
    if (values.empty() || values.size() % size != 0)
      parse::reject(key, text, "expected " + std::to_string(size) + " numbers per frame");
  };
}

// SOFA's RigidMass text: the mass, then optionally the volume and the inertia matrix's 9 entries.
Check rigidMassCheck() {
  return [](const std::string& key, const std::string& text) {
    const std::vector<double> values = parse::reals(key, text, 0);
    if (values.size() != 1 && values.size() != 2 && values.size() != 11)
      parse::reject(key, text, "expected M, M VOLUME, or M VOLUME and the 9 inertia entries");
    if (!(values[0] >= 0)) parse::reject(key, text, "the mass must be >= 0");
  };
}

// "all" or frame indices.
Check framesCheck(std::size_t flags) {
  return [flags](const std::string& key, const std::string& text) {
    Texts tokens = parse::tokens(text);
    if (tokens.size() < flags + 1)
      parse::reject(
          key, text,
          flags ? "expected 6 flags, then all or frame indices" : "expected all or frame indices");
    for (std::size_t i = 0; i < flags; ++i)
      if (tokens[i] != "0" && tokens[i] != "1") parse::reject(key, text, "a flag is 0 or 1");
    if (tokens.size() == flags + 1 && tokens[flags] == "all") return;
    for (std::size_t i = flags; i < tokens.size(); ++i) {
      int index = 0;
      if (!parse::number(tokens[i], index) || index < 0)
        parse::reject(key, text, "a frame index is an integer >= 0");
    }
  };
}

// "F LX LY LZ ..": a frame index (an integer >= 0) and three coordinates a point.
Check mappedPointsCheck() {
  return [](const std::string& key, const std::string& text) {
    const std::vector<double> values = parse::reals(key, text, 0);
    if (values.empty() || values.size() % 4 != 0)
      parse::reject(key, text, "expected F LX LY LZ for each point");
    for (std::size_t i = 0; i < values.size(); i += 4)
      if (values[i] < 0 || values[i] != std::floor(values[i]))
        parse::reject(key, text, "a frame index is an integer >= 0");
  };
}

// "I FX FY FZ ..": a point index (an integer >= 0) and a force a point.
Check mappedForcesCheck() {
  return [](const std::string& key, const std::string& text) {
    const std::vector<double> values = parse::reals(key, text, 0);
    if (values.empty() || values.size() % 4 != 0)
      parse::reject(key, text, "expected I FX FY FZ for each point");
    for (std::size_t i = 0; i < values.size(); i += 4)
      if (values[i] < 0 || values[i] != std::floor(values[i]))
        parse::reject(key, text, "a point index is an integer >= 0");
  };
}

// "I FX FY FZ TX TY TZ ..": a frame index (an integer >= 0), a force and a torque a frame.
Check frameForcesCheck() {
  return [](const std::string& key, const std::string& text) {
    const std::vector<double> values = parse::reals(key, text, 0);
    if (values.empty() || values.size() % 7 != 0)
      parse::reject(key, text, "expected I FX FY FZ TX TY TZ for each frame");
    for (std::size_t i = 0; i < values.size(); i += 7)
      if (values[i] < 0 || values[i] != std::floor(values[i]))
        parse::reject(key, text, "a frame index is an integer >= 0");
  };
}

// "K KA all | I J ..": two stiffnesses >= 0, then all or frame indices.
Check restShapeCheck() {
  return [](const std::string& key, const std::string& text) {
    const Texts tokens = parse::tokens(text);
    double k = 0, ka = 0;
    if (tokens.size() < 3 || !parse::number(tokens[0], k) || !parse::number(tokens[1], ka) ||
        !(k >= 0) || !(ka >= 0))
      parse::reject(key, text, "expected K KA (both >= 0), then all or frame indices");
    if (tokens.size() == 3 && tokens[2] == "all") return;
    for (std::size_t i = 2; i < tokens.size(); ++i) {
      int index = 0;
      if (!parse::number(tokens[i], index) || index < 0)
        parse::reject(key, text, "a frame index is an integer >= 0");
    }
  };
}

// "E NU R RI A B [A B ..]": the beams' material and section, then pairs of distinct frames.
Check beamCheck() {
  return [](const std::string& key, const std::string& text) {
    const std::vector<double> values = parse::reals(key, text, 0);
    if (values.size() < 6 || values.size() % 2 != 0)
      parse::reject(key, text, "expected E NU R RI, then pairs of frame indices A B");
    try {
      circularSection(values[0], values[1], values[2], values[3]);
    } catch (const Error& e) {
      parse::reject(key, text, e.what());
    }
    for (std::size_t i = 4; i < values.size(); i += 2) {
      for (std::size_t j : {i, i + 1})
        if (values[j] < 0 || values[j] != std::floor(values[j]))
          parse::reject(key, text, "a frame index is an integer >= 0");
      if (values[i] == values[i + 1]) parse::reject(key, text, "a beam joins two frames");
    }
  };
}

constexpr Named<RigidGeometricStiffness> kGeometric[] = {
    {"none", RigidGeometricStiffness::None},
    {"exact", RigidGeometricStiffness::Exact},
    {"stabilized", RigidGeometricStiffness::Stabilized}};

}  // namespace

const ComponentDeclaration& rigidBodyComponent() {
  static const ComponentDeclaration component{
      "rigid-body", "body", "rigid frames (SOFA MechanicalObject<Rigid3d>) and their uniform mass",
      ParameterSpec()
          .add({"rigid.frames", "\"X Y Z QX QY QZ QW ..\"",
                "a body of rigid frames instead of a mesh: each frame's centre and orientation\n"
                "quaternion (SOFA's Rigid3d position); its unknowns are 6 per frame, the linear\n"
                "then the angular velocity in the world frame",
                std::nullopt, "length", false, multipleOf(kRigidCoordSize)})
          .add({"rigid.velocities", "\"VX VY VZ WX WY WZ ..\"",
                "each frame's starting linear and angular velocity. Absent: at rest", std::nullopt,
                "", false, multipleOf(kRigidDerivSize)})
          .add({"rigid.mass", "\"M [VOLUME [I11 I12 .. I33]]\"",
                "each frame's mass (SOFA UniformMass `vertexMass` of a Rigid3d state: the mass,\n"
                "the volume, the inertia matrix per unit mass, row by row; not given: volume 1,\n"
                "identity). The matrix acts on the angular velocity as given, never turned with\n"
                "the frame, and no gyroscopic force acts, as in SOFA. 0: none (the frames of a\n"
                "Rigid3d state with no UniformMass, whose mass is their mapped points')",
                "1", "", false, rigidMassCheck()})
          .add({"rigid.total-mass", "M",
                "the frames' total mass, shared equally (SOFA `totalMass`: it wins over\n"
                "rigid.mass's mass and keeps its inertia matrix)",
                std::nullopt, "mass", false, check::positive()})
          .add({"rigid.fixed", "\"all | I J ..\"",
                "frames that never move (SOFA FixedProjectiveConstraint on a Rigid3d state).\n"
                "Repeatable.",
                std::nullopt, "", true, framesCheck(0)})
          .add({"rigid.partial-fixed", "\"F1 .. F6 all | I J ..\"",
                "frames fixed along the unknowns whose flag is 1 (vx vy vz wx wy wz; SOFA\n"
                "PartialFixedProjectiveConstraint `fixedDirections`). Repeatable.",
                std::nullopt, "", true, framesCheck(kRigidDerivSize)})
          .add({"rigid.rest-shape", "\"K KA all | I J ..\"",
                "springs pulling frames back to their starting centre (stiffness K) and\n"
                "orientation (KA, on the rotation vector of q q0^-1), as SOFA\n"
                "RestShapeSpringsForceField on a Rigid3d state. Repeatable.",
                std::nullopt, "", true, restShapeCheck()})
          .add({"rigid.forces", "\"I FX FY FZ TX TY TZ ..\"",
                "a constant force and torque (world frame) on each listed frame, I its 0-based\n"
                "index (SOFA ConstantForceField on a Rigid3d state, or on a Rigid3d child that\n"
                "an IdentityMapping drives from it); repeated frames add up. Repeatable.",
                std::nullopt, "", true, frameForcesCheck()})
          .add({"rigid.beam", "\"E NU R RI A B [A B ..]\"",
                "beams joining frames A and B, pair by pair (SOFA BeamFEMForceField on a Rigid3d\n"
                "state, its method large): Young's modulus E, Poisson's ratio NU (in [0, 0.5)), a\n"
                "circular section of radius R (> 0) and inner radius RI (in [0, R)); the\n"
                "Euler-Bernoulli element turned with frame A. Repeatable.",
                std::nullopt, "", true, beamCheck()})
          .add({"rigid.block-tridiagonal", "true|false",
                "the frames' linear solver is SOFA's BTDLinearSolver, which keeps only the 6 x 6\n"
                "blocks next to the diagonal: exact, and solved directly here, where the frames'\n"
                "matrix has no other block; a run where beams or springs join frames that are\n"
                "not consecutive (numbered body after body), or cells of a mapped child couple\n"
                "them, is refused",
                std::string("false"), "", false, check::boolean()})
          .add({"rigid.mapped-points", "\"F LX LY LZ ..\"",
                "points a RigidMapping drives from the frames (SOFA: a child node under\n"
                "RigidMapping): each its frame F and its coordinates in that frame; they move\n"
                "with it, x = c + R(q) l, and bring their mass and forces to it",
                std::nullopt, "length", false, mappedPointsCheck()})
          .add({"rigid.mapped-mass", "M",
                "the mass of every mapped point (SOFA UniformMass in the child); it weighs\n"
                "M load.gravity",
                "0", "mass", false, check::nonNegative()})
          .add({"rigid.mapped-forces", "\"I FX FY FZ ..\"",
                "a constant force on each listed mapped point, I its 0-based index (SOFA\n"
                "ConstantForceField in the child); repeated points add up",
                std::nullopt, "force", false, mappedForcesCheck()})
          .add({"rigid.mapped-plane", "\"NX NY NZ D [K [C [FMAX]]] [bilateral]\"",
                "a penalty plane acting on the mapped points, as obstacle.plane on nodes (SOFA\n"
                "PlaneForceField in the child). Repeatable.",
                std::nullopt, "", true,
                [](const std::string& key, const std::string& text) { parsePlane(key, text); }})
          .add({"rigid.mapped-geometric-stiffness", "none|exact|stabilized",
                "the mapping's geometric stiffness on each frame's angular unknowns, the sum of\n"
                "[f]x [R l]x over its points, f a point's total force: none, that block (not\n"
                "symmetric: the solvers for nonsymmetric systems are chosen), or that block\n"
                "symmetrized with its positive eigenvalues set to 0 (SOFA RigidMapping\n"
                "geometricStiffness 0, 1, 2)",
                std::string("none"), "", false, check::choice(kGeometric)}),
      nullptr};
  return component;
}

bool isRigidBody(const Parameters& scene) {
  return scene.given("rigid.frames");
}

RigidBodyParameters readRigidBodyParameters(const Parameters& scene) {
  RigidBodyParameters p;
  p.frames = scene.reals("rigid.frames");
  if (scene.given("rigid.velocities")) p.velocities = scene.reals("rigid.velocities");
  const std::vector<double> mass = scene.reals("rigid.mass");
  p.mass.mass = mass[0];
  if (mass.size() > 1) p.mass.volume = mass[1];
  if (mass.size() == 11)
    for (int i = 0; i < 9; ++i) p.mass.inertia[i] = mass[2 + i];
  const std::size_t frames = p.frames.size() / kRigidCoordSize;
  if (scene.given("rigid.total-mass"))
    p.mass.mass = scene.real("rigid.total-mass") / double(frames);
  p.gravity = scene.real3("load.gravity");
  const auto fix = [&](const std::string& key, const std::string& text, std::size_t flags) {
    const Texts tokens = parse::tokens(text);
    std::array<bool, kRigidDerivSize> directions;
    for (std::size_t d = 0; d < kRigidDerivSize; ++d)
      directions[d] = flags ? tokens[d] == "1" : true;
    if (p.fixed.empty()) p.fixed.assign(frames, {false, false, false, false, false, false});
    const auto apply = [&](std::size_t frame) {
      for (std::size_t d = 0; d < kRigidDerivSize; ++d)
        p.fixed[frame][d] = p.fixed[frame][d] || directions[d];
    };
    if (tokens.size() == flags + 1 && tokens[flags] == "all") {
      for (std::size_t frame = 0; frame < frames; ++frame) apply(frame);
      return;
    }
    for (std::size_t i = flags; i < tokens.size(); ++i) {
      const std::size_t frame = std::stoul(tokens[i]);
      if (frame >= frames)
        throw Error(key + " = " + text + ": frame " + tokens[i] + " of " + std::to_string(frames) +
                    " frames");
      apply(frame);
    }
  };
  if (scene.given("rigid.mapped-points")) {
    const std::vector<double> values = scene.reals("rigid.mapped-points");
    RigidMappedPoints& mapped = p.mapped;
    for (std::size_t i = 0; i < values.size(); i += 4) {
      mapped.frameOf.push_back(int(values[i]));
      mapped.local.push_back({values[i + 1], values[i + 2], values[i + 3]});
    }
    mapped.forces.assign(mapped.frameOf.size(), {0, 0, 0});
    mapped.mass = scene.real("rigid.mapped-mass");
    for (const std::string& text : scene.texts("rigid.mapped-plane"))
      mapped.planes.push_back(parsePlane("rigid.mapped-plane", text));
    if (scene.given("rigid.mapped-forces")) {
      const std::vector<double> forces = scene.reals("rigid.mapped-forces");
      for (std::size_t i = 0; i < forces.size(); i += 4) {
        const std::size_t point = std::size_t(forces[i]);
        if (point >= mapped.forces.size())
          throw Error("rigid.mapped-forces: point " + std::to_string(point) + " of " +
                      std::to_string(mapped.forces.size()) + " mapped points");
        for (int d = 0; d < 3; ++d) mapped.forces[point][d] += forces[i + 1 + std::size_t(d)];
      }
    }
    mapped.cells = readRigidMappedCells(scene);
    mapped.geometric = scene.choice("rigid.mapped-geometric-stiffness", kGeometric);
  } else if (scene.given("rigid.mapped-forces") || scene.given("rigid.mapped-mass") ||
             scene.given("rigid.mapped-plane") || scene.given("rigid.mapped-hexahedra") ||
             scene.given("rigid.mapped-tetrahedra") ||
             scene.given("rigid.mapped-geometric-stiffness")) {
    throw Error(
        "rigid.mapped-mass, rigid.mapped-forces, rigid.mapped-plane, rigid.mapped-hexahedra, "
        "rigid.mapped-tetrahedra and rigid.mapped-geometric-stiffness act on "
        "rigid.mapped-points, not given");
  }
  // The planes (obstacle.plane) push the frames' centres.
  for (const std::string& text : scene.texts("obstacle.plane"))
    p.planes.push_back(parsePlane("obstacle.plane", text));
  for (const std::string& text : scene.texts("rigid.rest-shape")) {
    const Texts tokens = parse::tokens(text);
    RigidRestSprings springs;
    springs.stiffness = std::stod(tokens[0]);
    springs.angularStiffness = std::stod(tokens[1]);
    if (tokens[2] != "all")
      for (std::size_t i = 2; i < tokens.size(); ++i)
        springs.frames.push_back(std::stoi(tokens[i]));
    p.restSprings.push_back(springs);
  }
  for (const std::string& text : scene.texts("rigid.forces")) {
    const std::vector<double> values = parse::reals("rigid.forces", text, 0);
    if (p.forces.empty()) p.forces.assign(frames * kRigidDerivSize, 0.0);
    for (std::size_t i = 0; i < values.size(); i += 7) {
      const std::size_t frame = std::size_t(values[i]);
      if (frame >= frames)
        throw Error("rigid.forces = " + text + ": frame " + std::to_string(frame) + " of " +
                    std::to_string(frames) + " frames");
      for (std::size_t d = 0; d < kRigidDerivSize; ++d)
        p.forces[frame * kRigidDerivSize + d] += values[i + 1 + d];
    }
  }
  for (const std::string& text : scene.texts("rigid.beam")) {
    const std::vector<double> values = parse::reals("rigid.beam", text, 0);
    BeamParameters beam;
    beam.youngModulus = values[0];
    beam.poissonRatio = values[1];
    beam.radius = values[2];
    beam.radiusInner = values[3];
    for (std::size_t i = 4; i < values.size(); i += 2) {
      if (values[i] >= double(frames) || values[i + 1] >= double(frames))
        throw Error("rigid.beam = " + text + ": a frame past the last of " +
                    std::to_string(frames) + " frames");
      beam.lines.push_back({int(values[i]), int(values[i + 1])});
    }
    p.beams.push_back(beam);
  }
  for (const std::string& text : scene.texts("rigid.fixed")) fix("rigid.fixed", text, 0);
  for (const std::string& text : scene.texts("rigid.partial-fixed"))
    fix("rigid.partial-fixed", text, kRigidDerivSize);
  return p;
}

const RegisterComponent registered(150, rigidBodyComponent);

}  // namespace eis
