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
//
// <include href="FILE" .../> is replaced by FILE's root element as SOFA's XML loader
// (simulation/common/xml/XML.cpp, includeNode) does: FILE is looked for in the including file's
// folder, then in each data path; the include's `name` renames that root; a root named "Group"
// or "_Group_" gives its objects and child nodes to the including node instead of being added
// itself, one named "_Merge_" is merged into the including node (its data set there, each child
// merged into the child of the same type and name, or added); every other attribute A="V"
// replaces the value of A in each object below that has A, and N__A="V" only in the objects named
// N (SOFA applies these to objects, not to nodes). What was included keeps its place in FILE
// ("parts/beam.scn:3"). An include of a file being included (a cycle) or of no file is an error.
//
// SOFA's object templates: an element that stands for a component (<TYPE .../> without a type
// attribute, or <Object type="TYPE" .../>) for which a file Objects/TYPE.xml is found (the
// scene's folder, then the data paths) is an include of that file with the element's other
// attributes, as SOFA's loader does for a type no component has (the templates SOFA ships,
// BoxConstraint, PlaneConstraint, ..., stand for components it no longer has).
#include <functional>
#include <memory>
#include <optional>
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

// Where the files a scene includes are found, and how they are read.
struct SofaSceneFiles {
  // Searched in order after the including file's own folder (scene.data-path).
  std::vector<std::string> dataPaths;
  // The text of the file at `path`, or nullopt when there is no readable file there. Unset:
  // sofaSceneFileText. sceneFromSofa reads on rank 0 and gives the other ranks those texts, so
  // that every rank builds the same graph.
  std::function<std::optional<std::string>(const std::string& path)> read;
};

// The file's text, or nullopt when it is missing, a directory or a device. Throws eis::Error
// "path: cannot read" when it is there but reading fails.
std::optional<std::string> sofaSceneFileText(const std::string& path);

class SofaScene {
public:
  // Builds the graph from the XML text of a .scn file; `file` names it in messages and its
  // folder is where included files are looked for first. Throws eis::Error "file:line: ..." for
  // malformed XML, a root element that is not <Node>, or an include that fails.
  SofaScene(const std::string& text, const std::string& file, const SofaSceneFiles& files = {});

  const SofaNode& root() const { return *root_; }
  const std::string& file() const { return file_; }

  // The node or object that `link` ("@..." as written in a data field at `where`) names from
  // `node`. `owner`, the object whose field holds the link, is where an index-based link
  // ("@[-1]": the object before it in its node, SOFA's relative index) counts from; without
  // one, from the node's last object. Throws eis::Error "where: broken link ..." when nothing
  // answers to it.
  SofaLinkTarget resolve(const SofaNode& node, const std::string& link, const std::string& where,
                         const SofaObject* owner = nullptr) const;

  // Every object of the scene, depth first, in the order written.
  std::vector<const SofaObject*> objects() const;

private:
  std::string file_;
  std::unique_ptr<SofaNode> root_;
};

// Whether a data value is a link ("@..." after blanks).
bool isSofaLink(const std::string& value);

}  // namespace eis
