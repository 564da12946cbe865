#pragma once
// A SOFA scene graph as SOFA's XML loader builds it: nested <Node>s, each with its data (name,
// gravity, dt, ...) and its objects (every other element: the element name is the component
// type, or the `type` attribute of an <Object>), each object with its data fields as written.
// Every node and object knows where it was written ("liver.scn:12"); an attribute
// eis-source="FILE:LINE" (the Python front end writes one on each element) replaces that place
// and is not a data field.
//
// Links are resolved as SOFA's Node::findLinkDestClass does: "@/a/b" from the root, "@../x" from
// the parent node, "@./x" from the node itself, and "@x" first in the node, then in each
// ancestor in turn; at each step a child node of that name wins over an object of that name.
// "@path.field" names a data field of the object (SOFA's BaseLink::ParseString).
#include <memory>
#include <string>
#include <vector>

#include "eis/core/xml.hpp"

namespace eis {

struct SofaNode;

struct SofaObject {
  std::string type;                  // "MechanicalObject"
  std::string name;                  // its name attribute, or "" when it has none
  std::vector<xml::Attribute> data;  // every attribute but name, type (of <Object>), eis-source
  std::string where;                 // "file:line"
  const SofaNode* node = nullptr;    // the node it belongs to

  // The field as written, or nullptr.
  const std::string* field(const std::string& field) const;
  // "Type 'name' (file:line)" or "Type (file:line)": how messages name it.
  std::string label() const;
};

struct SofaNode {
  std::string name;
  std::vector<xml::Attribute> data;
  std::string where;
  const SofaNode* parent = nullptr;
  std::vector<SofaObject> objects;
  std::vector<std::unique_ptr<SofaNode>> children;

  const std::string* field(const std::string& field) const;
  // "/", "/beam", "/beam/visual": the node's path from the root.
  std::string path() const;
};

// What a link names: a node or an object, and the data field after the last '.', if any.
struct SofaLinkTarget {
  const SofaNode* node = nullptr;
  const SofaObject* object = nullptr;
  std::string field;
};

class SofaScene {
public:
  // Builds the graph from the XML text of a .scn file; `file` names it in messages. Throws
  // eis::Error "file:line: ..." for malformed XML or a root element that is not <Node>.
  SofaScene(const std::string& text, const std::string& file);

  const SofaNode& root() const { return *root_; }
  const std::string& file() const { return file_; }

  // The node or object that `link` ("@..." as written in a data field at `where`) names from
  // `node`. Throws eis::Error "where: broken link ..." when nothing answers to it.
  SofaLinkTarget resolve(const SofaNode& node, const std::string& link,
                         const std::string& where) const;

  // Every object of the scene, depth first, in the order written.
  std::vector<const SofaObject*> objects() const;

private:
  std::string file_;
  std::unique_ptr<SofaNode> root_;
};

// Whether a data value is a link ("@..." after blanks).
bool isSofaLink(const std::string& value);

}  // namespace eis
