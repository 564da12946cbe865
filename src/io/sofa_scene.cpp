#include "eis/io/sofa_scene.hpp"

#include <functional>

#include "eis/core/error.hpp"
#include "eis/core/parameters.hpp"
#include "sofa_scene_graph.hpp"

namespace eis {

namespace {

const std::string* fieldOf(const std::vector<xml::Attribute>& data, const std::string& name) {
  for (const xml::Attribute& a : data)
    if (a.name == name) return &a.value;
  return nullptr;
}

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

SofaScene::SofaScene(const std::string& text, const std::string& file, const SofaSceneFiles& files)
    : file_(file) {
  root_ = buildSofaGraph(xml::parse(text, file), file, files);
}

SofaLinkTarget SofaScene::resolve(const SofaNode& from, const std::string& link,
                                  const std::string& where, const SofaObject* owner) const {
  const std::size_t start = link.find_first_not_of(" \t\n\r");
  const std::size_t end = link.find_last_not_of(" \t\n\r");
  const std::string written = start == std::string::npos ? "" : link.substr(start, end - start + 1);
  // SOFA resolves a data link (one naming a field) from the owner's node when the value is read
  // (AbstractDataLink::resolvePathAndGetTarget), after the whole graph is built, as here; one that
  // finds nothing leaves the field at its default without a word (BaseData::setParent keeps the
  // path and succeeds), which is refused here and said.
  bool dataLink = false;
  auto broken = [&](const std::string& why) -> Error {
    return Error(where + ": broken link '" + printable(written, 200) + "': " + why +
                 (dataLink ? " (SOFA finds nothing either, and keeps the field's default)" : ""));
  };
  if (written.empty() || written[0] != '@') throw broken("a link starts with '@'");
  if (written.find_first_of(" \t\n\r") != std::string::npos)
    throw broken("several links in one data field are not supported");
  std::string path = written.substr(1);
  // SOFA finds nothing for "@" and keeps the field's default: here, where that default would
  // hold without a word, it is refused.
  if (path.empty()) throw broken("it names no node, object or data field");
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
      dataLink = true;
    }
  }
  const SofaNode* node = &from;
  const SofaObject* object = nullptr;
  if (!path.empty() && path[0] == '[') {
    // Node::findLinkDestClass: "[k]", k <= 0, is the object k places before the owner in its
    // node (from the node's last object without an owner).
    long long k = 0;
    if (path.back() != ']' || !parse::number(path.substr(1, path.size() - 2), k) || k > 0)
      throw broken("an index-based link is [-N]");
    long long at = static_cast<long long>(from.objects.size()) - 1;
    for (std::size_t i = 0; owner && i < from.objects.size(); ++i)
      if (&from.objects[i] == owner) at = static_cast<long long>(i);
    at += k;
    if (at < 0) throw broken("fewer objects than that before it in node " + from.path());
    target.node = &from;
    target.object = &from.objects[std::size_t(at)];
    return target;
  }
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
