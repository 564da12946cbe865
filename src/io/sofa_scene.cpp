#include "eis/io/sofa_scene.hpp"

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

const std::string* fieldOf(const std::vector<xml::Attribute>& data, const std::string& name) {
  for (const xml::Attribute& a : data)
    if (a.name == name) return &a.value;
  return nullptr;
}

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
    // SOFA looks for a template where the element stands for a component (<Object type=...>, or
    // an element without a type attribute, which SOFA otherwise drops).
    if (generic || !element.attribute("type")) refuseTemplate(element, object, file);
    const xml::Attribute* objectName = element.attribute("name");
    object.name = objectName ? objectName->value : "";
    object.data = dataOf(element, generic ? "type" : nullptr);
    if (!element.children.empty())
      throw Error(placeOf(element.children.front(), file) + ": <" +
                  element.children.front().name + "> inside " + object.label() +
                  ": only a <Node> holds other elements");
    return object;
  }

  void refuseTemplate(const xml::Element& element, const SofaObject& object,
                      const std::string& file) {
    if (const auto found = find("Objects/" + object.type + ".xml", file, object.where))
      throw Error(object.where + ": <" + element.name + ">: where SOFA has no component " +
                  object.type + ", it expands the object template " + found->first +
                  ", which is not supported here: write the template's content into the scene");
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

const SofaObject* objectNamed(const SofaNode& node, const std::string& name) {
  for (const SofaObject& o : node.objects)
    if (o.name == name) return &o;
  return nullptr;
}

const SofaNode* childNamed(const SofaNode& node, const std::string& name) {
  for (const auto& child : node.children)
    if (child->name == name) return child.get();
  return nullptr;
}

}  // namespace

const std::string* SofaObject::field(const std::string& name) const {
  return fieldOf(data, name);
}

std::string SofaObject::label() const {
  return type + (name.empty() ? "" : " '" + name + "'") + " (" + where + ")";
}

const std::string* SofaNode::field(const std::string& name) const {
  return fieldOf(data, name);
}

std::string SofaNode::path() const {
  if (!parent) return "/";
  const std::string above = parent->path();
  return above + (above == "/" ? "" : "/") + name;
}

bool isSofaLink(const std::string& value) {
  const std::size_t first = value.find_first_not_of(" \t\n\r");
  return first != std::string::npos && value[first] == '@';
}

std::optional<std::string> sofaSceneFileText(const std::string& path) {
  if (!inputFileProblem(path).empty()) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in.is_open() || in.bad()) throw Error(path + ": cannot read");
  return text.str();
}

SofaScene::SofaScene(const std::string& text, const std::string& file,
                     const SofaSceneFiles& files)
    : file_(file) {
  root_ = GraphBuilder(files, file).root(xml::parse(text, file), file);
}

SofaLinkTarget SofaScene::resolve(const SofaNode& from, const std::string& link,
                                  const std::string& where) const {
  const std::size_t start = link.find_first_not_of(" \t\n\r");
  const std::size_t end = link.find_last_not_of(" \t\n\r");
  const std::string written = start == std::string::npos ? "" : link.substr(start, end - start + 1);
  auto broken = [&](const std::string& why) -> Error {
    return Error(where + ": broken link '" + printable(written, 200) + "': " + why);
  };
  if (written.empty() || written[0] != '@') throw broken("a link starts with '@'");
  if (written.find_first_of(" \t\n\r") != std::string::npos)
    throw broken("several links in one data field are not supported");
  std::string path = written.substr(1);
  SofaLinkTarget target;
  // The data field: after the last '.' of the last segment, unless that segment is "." or "..".
  const std::size_t slash = path.rfind('/');
  const std::size_t segment = slash == std::string::npos ? 0 : slash + 1;
  const std::string last = path.substr(segment);
  if (last != "." && last != "..") {
    const std::size_t dot = path.rfind('.');
    if (dot != std::string::npos && dot >= segment) {
      target.field = path.substr(dot + 1);
      path.resize(dot);
      if (target.field.empty()) throw broken("no data field after '.'");
    }
  }
  const SofaNode* node = &from;
  const SofaObject* object = nullptr;
  bool based = false;
  std::size_t pos = 0;
  if (!path.empty() && path[0] == '/') {
    node = root_.get();
    pos = 1;
    based = true;
  }
  while (pos < path.size()) {
    std::size_t next = path.find('/', pos);
    if (next == std::string::npos) next = path.size();
    const std::string name = path.substr(pos, next - pos);
    pos = next + 1;
    if (name.empty() || name == ".") {
      based = based || name == ".";
      continue;
    }
    if (object) throw broken("'" + name + "' after the object " + object->name);
    if (name == "..") {
      if (!node->parent) throw broken("the root node has no parent");
      node = node->parent;
      based = true;
      continue;
    }
    for (;;) {
      if (const SofaNode* child = childNamed(*node, name)) {
        node = child;
        break;
      }
      if ((object = objectNamed(*node, name))) break;
      if (based || !node->parent)
        throw broken("no node or object named '" + name + "' in node " + node->path() +
                     (based ? "" : " or above it"));
      node = node->parent;
    }
    based = true;
  }
  target.node = node;
  target.object = object;
  return target;
}

std::vector<const SofaObject*> SofaScene::objects() const {
  std::vector<const SofaObject*> all;
  std::function<void(const SofaNode&)> visit = [&](const SofaNode& node) {
    for (const SofaObject& o : node.objects) all.push_back(&o);
    for (const auto& child : node.children) visit(*child);
  };
  visit(*root_);
  return all;
}

}  // namespace eis
