#include "eis/model/selection.hpp"

#include <algorithm>

#include "eis/core/error.hpp"

namespace eis {

namespace {

const char* const kGrammar =
    "all | indices I.. | box XMIN YMIN ZMIN XMAX YMAX ZMAX | sphere CX CY CZ R | group NAME|TAG";

std::vector<double> realsOf(const std::string& key, const std::string& text, const Texts& tokens,
                            std::size_t first, std::size_t count) {
  if (tokens.size() != first + count)
    parse::reject(
        key, text,
        "expected " + std::to_string(count) + " numbers after '" + tokens[first - 1] + "'");
  std::vector<double> values(count);
  for (std::size_t i = 0; i < count; ++i)
    if (!parse::number(tokens[first + i], values[i]))
      parse::reject(key, text, "'" + tokens[first + i] + "' is not a number");
  return values;
}

Selection parseSelection(const std::string& key, const std::string& text, const Texts& tokens,
                         std::size_t first) {
  if (tokens.size() <= first)
    parse::reject(key, text, std::string("expected a selection: ") + kGrammar);
  const std::string& kind = tokens[first];
  Selection s;
  if (kind == "all") {
    if (tokens.size() != first + 1) parse::reject(key, text, "nothing may follow 'all'");
  } else if (kind == "indices") {
    s.kind = Selection::Kind::Indices;
    if (tokens.size() == first + 1) parse::reject(key, text, "expected node ids after 'indices'");
    for (std::size_t i = first + 1; i < tokens.size(); ++i) {
      long long id;
      if (!parse::number(tokens[i], id) || id < 0)
        parse::reject(key, text, "'" + tokens[i] + "' is not a node id (an integer >= 0)");
      s.indices.push_back(id);
    }
  } else if (kind == "box") {
    s.kind = Selection::Kind::Box;
    s.box = Box::fromCorners(realsOf(key, text, tokens, first + 1, 6));
  } else if (kind == "sphere") {
    s.kind = Selection::Kind::Sphere;
    const auto v = realsOf(key, text, tokens, first + 1, 4);
    s.centre = {v[0], v[1], v[2]};
    s.radius = v[3];
    if (s.radius < 0) parse::reject(key, text, "the sphere's radius must be >= 0");
  } else if (kind == "group") {
    s.kind = Selection::Kind::Group;
    if (tokens.size() != first + 2) parse::reject(key, text, "expected one group name or tag");
    s.group = tokens[first + 1];
  } else {
    parse::reject(key, text, "'" + kind + "' is not a selection: expected " + kGrammar);
  }
  return s;
}

}  // namespace

Selection Selection::ofBox(const Box& box) {
  Selection s;
  s.kind = Kind::Box;
  s.box = box;
  return s;
}

Selection Selection::ofGroup(const std::string& nameOrTag) {
  Selection s;
  s.kind = Kind::Group;
  s.group = nameOrTag;
  return s;
}

SelectionValue parseSelectionValue(const std::string& key, const std::string& text,
                                   std::size_t numbers) {
  const Texts tokens = parse::tokens(text);
  SelectionValue value;
  value.numbers.resize(numbers);
  for (std::size_t i = 0; i < numbers; ++i)
    if (i >= tokens.size() || !parse::number(tokens[i], value.numbers[i]))
      parse::reject(key, text,
                    "expected " + std::to_string(numbers) + " numbers, then a selection");
  value.selection = parseSelection(key, text, tokens, numbers);
  return value;
}

Check selectionValueCheck(std::size_t numbers) {
  return [numbers](const std::string& key, const std::string& text) {
    parseSelectionValue(key, text, numbers);
  };
}

SelectedNodes selectNodes(const DistributedMesh& mesh, const Selection& selection,
                          const std::string& key) {
  SelectedNodes nodes;
  const auto& coords = mesh.restCoords();
  const PetscInt n = PetscInt(coords.size());
  switch (selection.kind) {
    case Selection::Kind::All:
      for (PetscInt v = 0; v < n; ++v) nodes.vertices.push_back(v);
      break;
    case Selection::Kind::Indices: {
      std::vector<std::int64_t> ids = selection.indices;
      std::sort(ids.begin(), ids.end());
      ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
      for (PetscInt v = 0; v < n; ++v)
        if (std::binary_search(ids.begin(), ids.end(), mesh.nodeIds()[v]))
          nodes.vertices.push_back(v);
      std::int64_t found = 0;
      for (auto v : nodes.vertices) found += mesh.owned()[v];
      EIS_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, &found, 1, MPI_INT64_T, MPI_SUM, mesh.comm()));
      if (found != std::int64_t(ids.size()))
        throw Error(key + ": " + std::to_string(std::int64_t(ids.size()) - found) +
                    " of the indices name no node of a tetrahedron (ids are 0-based)");
      break;
    }
    case Selection::Kind::Box:
      for (PetscInt v = 0; v < n; ++v)
        if (selection.box.contains(coords[v])) nodes.vertices.push_back(v);
      break;
    case Selection::Kind::Sphere:
      for (PetscInt v = 0; v < n; ++v) {
        double r2 = 0;
        for (int d = 0; d < 3; ++d)
          r2 += (coords[v][d] - selection.centre[d]) * (coords[v][d] - selection.centre[d]);
        if (r2 <= selection.radius * selection.radius) nodes.vertices.push_back(v);
      }
      break;
    case Selection::Kind::Group:
      try {
        nodes.vertices = mesh.groupVertices(mesh.findGroup(selection.group));
      } catch (const Error& e) {
        throw Error(key + ": " + e.what());
      }
      break;
  }
  for (auto v : nodes.vertices) nodes.count += mesh.owned()[v];
  EIS_CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, &nodes.count, 1, MPI_INT64_T, MPI_SUM, mesh.comm()));
  return nodes;
}

}  // namespace eis
