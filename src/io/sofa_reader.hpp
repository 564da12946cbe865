#pragma once
// What the SOFA importer's parts share: reading an object's data fields as SOFA does (links
// followed, src="@object" copying the fields the object does not set, SOFA's defaults), and
// collecting the keys; the registry of the mappings from SOFA classes to keys. Private to the
// SOFA importer (io/sofa_*.cpp).
#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "eis/io/sofa_import.hpp"

namespace eis::sofa {

class Reader {
public:
  Reader(const SofaScene& scene, SofaImport& out) : scene_(scene), out_(out) {}

  const SofaScene& scene() const { return scene_; }
  // The field's text as SOFA reads it: written on the object, or (when it is a link) the linked
  // object's field, or the src object's; nothing when none gives it.
  std::optional<std::string> text(const SofaObject& o, const std::string& field) const;
  // Where the field was written (the object's place when it was not).
  std::string where(const SofaObject& o, const std::string& field) const;
  // The object a field links to ("@loader.position", or src="@loader"), or nullptr when the
  // field is no link. A link to a node, or to another object's field that is itself a link, is
  // followed to the object that holds the value.
  const SofaObject* linked(const SofaObject& o, const std::string& field,
                           std::string* linkedField = nullptr) const;

  double real(const SofaObject& o, const std::string& field, double fallback) const;
  // A legacy attribute that SOFA reads with BaseObjectDescription::getAttributeAsFloat (strtof:
  // single precision), such as MechanicalObject's dx or RegularGridTopology's xmin.
  double single(const SofaObject& o, const std::string& field, double fallback) const;
  bool boolean(const SofaObject& o, const std::string& field, bool fallback) const;
  std::vector<double> reals(const SofaObject& o, const std::string& field) const;
  // An index list as SOFA reads a vector<unsigned int>: its words are indices or ranges
  // ("0-50", "10-0--2"; eis/io/sofa_index_list.hpp).
  std::vector<long long> integers(const SofaObject& o, const std::string& field) const;
  bool given(const SofaObject& o, const std::string& field) const { return bool(text(o, field)); }

  // The file `name` that `field` of `o` names (a loader's filename, a grid's surface), found as
  // the importer finds files, in the scene's folder, then each scene.data-path: the finder
  // importSofaScene sets (io/sofa_import.cpp), which rejects a missing one naming the field.
  using FileFinder = std::function<std::string(const SofaObject& o, const std::string& field,
                                               const std::optional<std::string>& name)>;
  void findFilesWith(FileFinder finder) { finder_ = std::move(finder); }
  std::string file(const SofaObject& o, const std::string& field,
                   const std::optional<std::string>& name) const;
  std::string file(const SofaObject& o, const std::string& field) const {
    return file(o, field, text(o, field));
  }

  // The body the keys that follow are for, and the object they come from (their errors name
  // its place).
  void into(std::vector<SofaKey>& keys) { keys_ = &keys; }
  void from(const SofaObject& o) { current_ = o.where; }
  void key(const std::string& key, const std::string& value) {
    keys_->push_back({key, value, current_});
  }
  // Forgets the current body's keys of a section ("lagrange.") that `o` gave (a component SOFA
  // never calls).
  void forget(const SofaObject& o, const std::string& section);
  // Whether the current body has the key already; its last value ("" when none).
  bool gave(const std::string& key) const;
  std::string gaveValue(const std::string& key) const;
  // A start-up line, said once however many bodies give it.
  void note(const std::string& line);
  void warn(const std::string& line) { out_.warnings.push_back(line); }
  // A warning said once, however many bodies or links lead to it.
  void warnOnce(const std::string& line) const;  // out_ is a reference: const reads may warn
  // "file:line: Type 'name': field = 'value': why".
  [[noreturn]] void reject(const SofaObject& o, const std::string& field,
                           const std::string& why) const;
  // A SOFA data field that would change the result and has no key yet.
  void refuseIfGiven(const SofaObject& o, const std::string& field, const std::string& why) const;

private:
  const SofaScene& scene_;
  SofaImport& out_;
  std::vector<SofaKey>* keys_ = nullptr;
  std::string current_;
  FileFinder finder_;
};

// How the objects of one SOFA class become our keys: it reads their data fields through the
// reader, with SOFA's defaults, into keys, and rejects (Reader::reject) what it cannot map. Each
// is written in the file of its component family (io/sofa_masses.cpp, io/sofa_elastic_fem.cpp,
// ...), beside the SOFA master source it follows, and registered there with the SOFA class names
// it maps: a static RegisterSofaMapping object at the end of the file.
using SofaMapping = void (*)(Reader& reader, const SofaObject& o);

struct RegisterSofaMapping {
  // A name registered twice is a programming error: std::logic_error at start-up.
  RegisterSofaMapping(std::initializer_list<const char*> types, SofaMapping mapping);
};

// Whether `text` ends with `tail` (a SOFA type's family: "...Mass", "...Mapping").
inline bool endsWith(const std::string& text, const std::string& tail) {
  return text.size() >= tail.size() &&
         text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

// The topology a component of `node` works on: its node's (a node keeps one, the last one added:
// a TetrahedronSetTopologyContainer after the grid it is cut from), else the nearest ancestor's;
// nullptr when none.
const SofaObject* topologyOf(const SofaNode* node);

// SOFA's hexahedral FEM force fields (HexahedronFEMForceField, HexahedralFEMForceField and their
// AndMass forms), which read their topology's hexahedra.
inline bool readsHexahedra(const std::string& type) {
  return type == "HexahedronFEMForceField" || type == "HexahedronFEMForceFieldAndMass" ||
         type == "HexahedralFEMForceField" || type == "HexahedralFEMForceFieldAndMass" ||
         type == "ParallelHexahedronFEMForceField" ||
         type == "NonUniformHexahedronFEMForceFieldAndMass" ||
         type == "HexahedronCompositeFEMForceFieldAndMass";
}

// An object's path as a Python controller names it: "/beam/pull"; an unnamed object by its type.
std::string objectPath(const SofaObject& o);

// The mapping registered for a SOFA class name (a mass, force field or projective constraint
// acting on a body), or nullptr when none is.
SofaMapping sofaMapping(const std::string& type);

}  // namespace eis::sofa
