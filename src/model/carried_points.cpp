// The carried-points component: points of a mesh body carried by a frame
// (model/carried_points.hpp), declared and read here.
#include "eis/model/carried_points.hpp"

#include "eis/core/component_registry.hpp"
#include "eis/core/error.hpp"

namespace eis {

namespace {

// "PATH [FRAME]".
std::pair<std::string, std::size_t> parseFrames(const std::string& key, const std::string& text) {
  const Texts tokens = parse::tokens(text);
  if (tokens.empty() || tokens.size() > 2 || tokens[0].rfind('/', 0) != 0)
    parse::reject(key, text, "expected PATH (a body of frames' node path /NAME) [FRAME]");
  long long frame = 0;
  if (tokens.size() == 2 && (!parse::number(tokens[1], frame) || frame < 0))
    parse::reject(key, text, "FRAME is an integer >= 0");
  return {tokens[0], std::size_t(frame)};
}

// "n:w/n:w/.. n:w/..": a point a word, its nodes and weights joined by '/'.
std::vector<CarriedPoint> parsePoints(const std::string& key, const std::string& text) {
  std::vector<CarriedPoint> points;
  for (const std::string& word : parse::tokens(text)) {
    CarriedPoint point;
    std::size_t start = 0;
    while (start <= word.size()) {
      const std::size_t end = std::min(word.find('/', start), word.size());
      const std::string part = word.substr(start, end - start);
      const std::size_t colon = part.find(':');
      long long node = -1;
      double weight = 0;
      if (colon == std::string::npos || !parse::number(part.substr(0, colon), node) || node < 0 ||
          !parse::number(part.substr(colon + 1), weight))
        parse::reject(key, text,
                      "point " + std::to_string(points.size()) + ": '" + part +
                          "' is not NODE:WEIGHT (a node id >= 0 and a number)");
      point.weights.emplace_back(node, weight);
      start = end + 1;
    }
    points.push_back(std::move(point));
  }
  if (points.empty()) parse::reject(key, text, "no point");
  return points;
}

void resolveCarried(Scene& scene) {
  if (scene.given("carried.points") && !scene.given("carried.frames"))
    throw Error("carried.points needs carried.frames, the frame that carries them");
  if (!scene.texts("carried.plane").empty() && !scene.given("carried.points"))
    throw Error("carried.plane acts on carried.points, which are not given");
}

}  // namespace

const ComponentDeclaration& carriedPointsComponent() {
  static const ComponentDeclaration component{
      "carried-points", "force field",
      "points of the body that a rigid frame carries, under planes (SOFA "
      "DeformableOnRigidFrameMapping, a BarycentricMapping child, PlaneForceField)",
      ParameterSpec()
          .add({"carried.frames", "\"PATH [FRAME]\"",
                "the body of frames (its node path /NAME) whose frame FRAME (0) carries this\n"
                "body: the body's positions are in that frame's coordinates, and its points\n"
                "carried.points are at c + R u (SOFA DeformableOnRigidFrameMapping input2,\n"
                "index). The frames and this body are then one system, stepped by one solver",
                std::nullopt, "", false,
                [](const std::string& key, const std::string& text) { parseFrames(key, text); }})
          .add({"carried.points", "\"n:w/n:w/.. ...\"",
                "the carried points, a word each: the body's nodes n (ids) and weights w whose\n"
                "sum u = sum w u_n the frame carries to c + R u (SOFA BarycentricMapping of the\n"
                "carried nodes)",
                std::nullopt, "", false,
                [](const std::string& key, const std::string& text) { parsePoints(key, text); }})
          .add({"carried.plane", "\"NX NY NZ D [K [C [FMAX]]] [bilateral]\"",
                "a plane acting on the carried points, as obstacle.plane on nodes (SOFA\n"
                "PlaneForceField in the BarycentricMapping child). Repeatable",
                std::nullopt, "", true,
                [](const std::string& key, const std::string& text) { parsePlane(key, text); }}),
      resolveCarried};
  return component;
}

std::optional<CarriedPoints> carriedPointsOf(const Parameters& scene) {
  if (!scene.given("carried.frames")) return std::nullopt;
  CarriedPoints carried;
  std::tie(carried.frames, carried.frame) =
      parseFrames("carried.frames", scene.text("carried.frames"));
  if (scene.given("carried.points"))
    carried.points = parsePoints("carried.points", scene.text("carried.points"));
  for (const std::string& text : scene.texts("carried.plane"))
    carried.planes.push_back(parsePlane("carried.plane", text));
  return carried;
}

const RegisterComponent registered(467, carriedPointsComponent);

}  // namespace eis
