// Building a SOFA scene's graph from its XML: nodes, objects, their places, and <include>s
// (SOFA's XML.cpp: createNode, includeNode, recursiveMergeNode), each file found and read through
// SofaSceneFiles.
#include "sofa_scene_graph.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "eis/core/error.hpp"
#include "eis/core/input_file.hpp"
#include "eis/core/parameters.hpp"

namespace eis {

namespace {

namespace fs = std::filesystem;

// Deeper include chains than any real scene are refused: this also ends a cycle that two names
// of one file (a link) hide from the check by path.
constexpr std::size_t kMaxIncludeDepth = 32;

// Sets the field, replacing its value when the data has it already (SOFA's setAttribute).
void setField(std::vector<xml::Attribute>& data, const xml::Attribute& field) {
  for (xml::Attribute& a : data)
    if (a.name == field.name) {
      a.value = field.value;
      return;
    }
  data.push_back(field);
}

// The element's place: its eis-source attribute ("FILE:LINE") or file:line.
std::string placeOf(const xml::Element& element, const std::string& file) {
  if (const xml::Attribute* source = element.attribute("eis-source")) {
    const std::size_t colon = source->value.rfind(':');
    int line = 0;
    if (colon == std::string::npos || colon == 0 ||
        !parse::number(source->value.substr(colon + 1), line) || line < 1)
      throw Error(file + ":" + std::to_string(source->line) + ": eis-source = '" +
                  printable(source->value, 200) + "': expected FILE:LINE");
    return source->value;
  }
  return file + ":" + std::to_string(element.line);
}

std::vector<xml::Attribute> dataOf(const xml::Element& element, const char* skippedType) {
  std::vector<xml::Attribute> data;
  for (const xml::Attribute& a : element.attributes)
    if (a.name != "name" && a.name != "eis-source" && !(skippedType && a.name == skippedType))
      data.push_back(a);
  return data;
}

std::string folderOf(const std::string& file) {
  const std::string folder = fs::path(file).parent_path().string();
  return folder.empty() ? "." : folder;
}

// How an included root joins the including node: SOFA's INCLUDE_NODE_CHILD, _GROUP and _MERGE.
enum class Join { child, group, merge };

// One element built: a node, or an object when `node` is null.
struct Built {
  std::unique_ptr<SofaNode> node;
  SofaObject object;
  Join join = Join::child;
};

// SOFA's recReplaceAttribute as its ObjectElement applies it: only fields the object has.
// "name" and "type" are fields of every object in SOFA's element, so they are replaced too.
void replaceIn(SofaObject& object, const std::string& field, const std::string& value,
               const std::string* onlyNamed) {
  if (onlyNamed && object.name != *onlyNamed) return;
  if (field == "name") {
    object.name = value;
  } else if (field == "type") {
    object.type = value;
  } else {
    for (xml::Attribute& a : object.data)
      if (a.name == field) a.value = value;
  }
}

void replaceIn(SofaNode& node, const std::string& field, const std::string& value,
               const std::string* onlyNamed) {
  for (SofaObject& o : node.objects) replaceIn(o, field, value, onlyNamed);
  for (auto& child : node.children) replaceIn(*child, field, value, onlyNamed);
}

// SOFA's recursiveMergeNode: src's data set on dest, each child merged into dest's child of the
// same type and (non-empty) name, or moved to dest when there is none.
void mergeInto(SofaNode& dest, SofaNode& src) {
  for (const xml::Attribute& a : src.data) setField(dest.data, a);
  for (SofaObject& o : src.objects) {
    auto same = std::find_if(dest.objects.begin(), dest.objects.end(), [&](const SofaObject& d) {
      return !o.name.empty() && d.type == o.type && d.name == o.name;
    });
    if (same != dest.objects.end()) {
      for (const xml::Attribute& a : o.data) setField(same->data, a);
    } else {
      o.node = &dest;
      dest.objects.push_back(std::move(o));
    }
  }
  for (auto& child : src.children) {
    auto same = std::find_if(dest.children.begin(), dest.children.end(), [&](const auto& d) {
      return !child->name.empty() && d->name == child->name;
    });
    if (same != dest.children.end()) {
      mergeInto(**same, *child);
    } else {
      child->parent = &dest;
      dest.children.push_back(std::move(child));
    }
  }
}

// Builds the graph of one scene and of the files it includes.
class GraphBuilder {
public:
  GraphBuilder(const SofaSceneFiles& files, const std::string& file) : files_(files) {
    including_.push_back(fs::path(file).lexically_normal().string());
  }

  std::unique_ptr<SofaNode> root(const xml::Element& element, const std::string& file) {
    if (element.name != "Node" && element.name != "include")
      throw Error(file + ":" + std::to_string(element.line) + ": the root element is <" +
                  element.name + ">; a SOFA scene's is <Node>");
    Built built = build(element, file);
    if (!built.node)
      throw Error(built.object.where + ": the root element is <" + built.object.type +
                  ">; a SOFA scene's is <Node>");
    return std::move(built.node);
  }

private:
  Built build(const xml::Element& element, const std::string& file) {
    if (element.name == "include") return include(element, file);
    if (element.name != "Node")
      if (std::optional<xml::Element> expanded = templateOf(element, file))
        return include(*expanded, file);
    Built built;
    if (element.name == "Node") {
      built.node = node(element, file);
    } else {
      built.object = object(element, file);
    }
    return built;
  }

  std::unique_ptr<SofaNode> node(const xml::Element& element, const std::string& file) {
    auto node = std::make_unique<SofaNode>();
    node->where = placeOf(element, file);
    const xml::Attribute* name = element.attribute("name");
    node->name = name ? name->value : "";
    node->data = dataOf(element, nullptr);
    for (const xml::Element& child : element.children) add(*node, build(child, file));
    return node;
  }

  SofaObject object(const xml::Element& element, const std::string& file) {
    SofaObject object;
    object.where = placeOf(element, file);
    const bool generic = element.name == "Object";
    const xml::Attribute* type = generic ? element.attribute("type") : nullptr;
    if (generic && !type) throw Error(object.where + ": <Object> without a type attribute");
    object.type = type ? type->value : element.name;
    const xml::Attribute* objectName = element.attribute("name");
    object.name = objectName ? objectName->value : "";
    object.data = dataOf(element, generic ? "type" : nullptr);
    if (!element.children.empty())
      throw Error(placeOf(element.children.front(), file) + ": <" + element.children.front().name +
                  "> inside " + object.label() + ": only a <Node> holds other elements");
    return object;
  }

  // SOFA's object templates (XML.cpp's createNode): an element that stands for a component
  // (<Object type=...>, or one without a type attribute) whose type no component has, and for
  // which Objects/TYPE.xml is found, is an <include href="Objects/TYPE.xml"> with its other
  // attributes (they rename the template's root and set its objects' fields). None of this
  // build's types has a template (the templates stand for components SOFA no longer has).
  std::optional<xml::Element> templateOf(const xml::Element& element, const std::string& file) {
    const bool generic = element.name == "Object";
    const xml::Attribute* type = element.attribute("type");
    if (!generic && type) return std::nullopt;
    if (generic && !type) return std::nullopt;  // refused by object() with its place
    const std::string name = "Objects/" + (generic ? type->value : element.name) + ".xml";
    if (!find(name, file, placeOf(element, file))) return std::nullopt;
    xml::Element include = element;
    include.name = "include";
    include.attributes.erase(
        std::remove_if(include.attributes.begin(), include.attributes.end(),
                       [](const xml::Attribute& a) { return a.name == "type"; }),
        include.attributes.end());
    include.attributes.push_back({"href", name, element.line});
    return include;
  }

  // The child joins `node` as the include that gave it asks (a plain element: as a child).
  void add(SofaNode& node, Built built) {
    if (built.join == Join::merge) {
      if (built.node) {
        mergeInto(node, *built.node);
      } else {
        for (const xml::Attribute& a : built.object.data) setField(node.data, a);
      }
    } else if (built.join == Join::group) {
      if (!built.node) return;  // an object named "Group" has no children to give, as in SOFA
      for (SofaObject& o : built.node->objects) {
        o.node = &node;
        node.objects.push_back(std::move(o));
      }
      for (auto& child : built.node->children) {
        child->parent = &node;
        node.children.push_back(std::move(child));
      }
    } else if (built.node) {
      built.node->parent = &node;
      node.children.push_back(std::move(built.node));
    } else {
      built.object.node = &node;
      node.objects.push_back(std::move(built.object));
    }
  }

  // SOFA's findFileFromFile: `name` as it is when absolute, else in the folder of `fromFile`,
  // then in each data path. The path found and the file's text, or nullopt.
  std::optional<std::pair<std::string, std::string>> find(const std::string& name,
                                                          const std::string& fromFile,
                                                          const std::string& where) const {
    std::vector<std::string> folders;
    if (!fs::path(name).is_absolute()) {
      folders.push_back(folderOf(fromFile));
      folders.insert(folders.end(), files_.dataPaths.begin(), files_.dataPaths.end());
    }
    for (const std::string& folder : folders.empty() ? std::vector<std::string>{""} : folders) {
      const std::string path = (fs::path(folder) / name).lexically_normal().string();
      try {
        std::optional<std::string> text = files_.read ? files_.read(path) : sofaSceneFileText(path);
        if (text) return std::make_pair(path, std::move(*text));
      } catch (const Error& e) {
        throw Error(where + ": " + e.what());
      }
    }
    return std::nullopt;
  }

  Built include(const xml::Element& element, const std::string& file) {
    const std::string where = placeOf(element, file);
    const xml::Attribute* href = element.attribute("href");
    if (!href || href->value.empty())
      throw Error(where + ": <include> without the file to include (href)");
    const std::string shown = "<include href=\"" + printable(href->value, 200) + "\">";
    auto found = find(href->value, file, where);
    if (!found)
      throw Error(where + ": " + shown + ": no such file in " + folderOf(file) +
                  (files_.dataPaths.empty() ? "" : " or any scene.data-path"));
    const std::string& path = found->first;
    if (std::find(including_.begin(), including_.end(), path) != including_.end()) {
      std::string chain;
      for (const std::string& f : including_) chain += f + " -> ";
      throw Error(where + ": " + shown + ": " + path + " includes itself (" + chain + path + ")");
    }
    if (including_.size() > kMaxIncludeDepth)
      throw Error(where + ": " + shown + ": includes nested deeper than " +
                  std::to_string(kMaxIncludeDepth));
    including_.push_back(path);
    Built built = build(xml::parse(found->second, path), path);
    including_.pop_back();
    joinByName(built);
    // The include's attributes in the order written, as SOFA applies them.
    for (const xml::Attribute& a : element.attributes) {
      if (a.name == "href" || a.name == "eis-source") continue;
      if (a.name == "name") {
        (built.node ? built.node->name : built.object.name) = a.value;
        joinByName(built);
        continue;
      }
      const std::size_t separator = a.name.find("__");
      const std::string only = separator == std::string::npos ? "" : a.name.substr(0, separator);
      const std::string field =
          separator == std::string::npos ? a.name : a.name.substr(separator + 2);
      const std::string* onlyNamed = separator == std::string::npos ? nullptr : &only;
      if (built.node) {
        replaceIn(*built.node, field, a.value, onlyNamed);
      } else {
        replaceIn(built.object, field, a.value, onlyNamed);
      }
    }
    return built;
  }

  // SOFA's special root names; another name leaves the join as it was.
  static void joinByName(Built& built) {
    const std::string& name = built.node ? built.node->name : built.object.name;
    if (name == "Group" || name == "_Group_") built.join = Join::group;
    if (name == "_Merge_") built.join = Join::merge;
  }

  const SofaSceneFiles& files_;
  std::vector<std::string> including_;  // the scene, then each file being included, in order
};

}  // namespace

std::optional<std::string> sofaSceneFileText(const std::string& path) {
  if (!inputFileProblem(path).empty()) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in.is_open() || in.bad()) throw Error(path + ": cannot read");
  return text.str();
}

std::unique_ptr<SofaNode> buildSofaGraph(const xml::Element& root, const std::string& file,
                                         const SofaSceneFiles& files) {
  return GraphBuilder(files, file).root(root, file);
}

}  // namespace eis
