// Reading SOFA objects' data fields as SOFA does, and the registry of the mappings that turn
// them into our keys (io/sofa_reader.hpp).
#include <algorithm>
#include <cstdlib>
#include <map>
#include <stdexcept>

#include "eis/core/error.hpp"
#include "eis/io/sofa_index_list.hpp"
#include "sofa_data_fields.hpp"
#include "sofa_reader.hpp"

namespace eis::sofa {

namespace {

// Links followed further than this are a loop.
constexpr int kMaxLinkDepth = 32;

// SOFA class name -> its mapping; filled while the mapping files' registrars are made.
std::map<std::string, SofaMapping>& mappings() {
  static std::map<std::string, SofaMapping> byType;
  return byType;
}

}  // namespace

std::string Reader::file(const SofaObject& o, const std::string& field,
                         const std::optional<std::string>& name) const {
  if (!finder_) throw std::logic_error("Reader::file: no file finder was set");
  return finder_(o, field, name);
}

RegisterSofaMapping::RegisterSofaMapping(std::initializer_list<const char*> types,
                                         SofaMapping mapping) {
  for (const char* type : types)
    if (!mappings().emplace(type, mapping).second)
      throw std::logic_error(std::string("two mappings registered for SOFA's ") + type);
}

namespace {

bool holdsTopology(const std::string& t) {
  return endsWith(t, "TopologyContainer") || endsWith(t, "GridTopology") || t == "MeshTopology" ||
         t == "SparseGridRamificationTopology" || t == "SparseGridMultipleTopology";
}

}  // namespace

const SofaObject* topologyOf(const SofaNode* node) {
  for (; node; node = node->parent) {
    const SofaObject* last = nullptr;
    for (const SofaObject& o : node->objects)
      if (holdsTopology(o.type)) last = &o;
    if (last) return last;
  }
  return nullptr;
}

SofaMapping sofaMapping(const std::string& type) {
  const auto found = mappings().find(type);
  return found == mappings().end() ? nullptr : found->second;
}

std::optional<std::string> Reader::text(const SofaObject& o, const std::string& field) const {
  const SofaObject* at = &o;
  std::string name = field;
  for (int depth = 0; depth < kMaxLinkDepth; ++depth) {
    if (const std::string* own = at->field(name)) {
      if (!isSofaLink(*own)) return *own;
      const SofaLinkTarget target = scene_.resolve(*at->node, *own, where(*at, name), at);
      checkLinkTarget(*this, *at, name, *own, target);
      if (!target.object) {
        const std::string* nodeField =
            target.node->field(target.field.empty() ? name : target.field);
        if (nodeField) return *nodeField;
        return std::nullopt;
      }
      if (!target.field.empty()) name = target.field;
      at = target.object;
      // NearestPointROI computes its outputs, which only the readers of its pairs work out
      // (io/sofa_subset_multi_mapping): another field that reads one would see nothing, or a
      // value written in the scene that SOFA overwrites.
      if (at->type == "NearestPointROI" &&
          (name == "indices1" || name == "indices2" || name == "edges" || name == "indexPairs" ||
           name == "distances"))
        throw Error(where(o, field) + ": " + o.type + (o.name.empty() ? "" : " '" + o.name + "'") +
                    ": " + field + " reads " + at->label() + "'s " + name +
                    ", which is read only as a SubsetMultiMapping's indexPairs, its child's "
                    "edges, a selection of indices or a SpringForceField's indices");
      // MeshSplittingEngine's outputs likewise, read where a SubsetMultiMapping body reads them
      // (io/sofa_split_body).
      if (at->type == "MeshSplittingEngine" &&
          (name == "indexPairs" || (name.rfind("position", 0) == 0 && name.size() > 8)))
        throw Error(where(o, field) + ": " + o.type + (o.name.empty() ? "" : " '" + o.name + "'") +
                    ": " + field + " reads " + at->label() + "'s " + name +
                    ", which is read only by a SubsetMultiMapping child that is a body of its "
                    "own and by the states it maps from");
      continue;
    }
    // Back at the object that asked, at a field it does not write: an engine's output (a
    // BoxROI's indices) computed from the very field being read, which SOFA cannot evaluate.
    if (depth > 0 && at == &o &&
        (o.type == "BoxROI" || o.type == "SphereROI" || o.type == "PlaneROI" ||
         o.type == "PairBoxROI"))
      throw Error(where(o, field) + ": " + o.type + (o.name.empty() ? "" : " '" + o.name + "'") +
                  ": the links of " + field + " form a loop: they lead back to its own " + name +
                  ", which it computes from " + field);
    const std::string* src = at->field("src");
    if (!src) return std::nullopt;
    const SofaLinkTarget target = scene_.resolve(*at->node, *src, where(*at, "src"), at);
    if (!target.object) return std::nullopt;
    at = target.object;
  }
  throw Error(where(o, field) + ": " + o.type + " '" + o.name + "': the links of " + field +
              " form a loop");
}

const SofaObject* Reader::linked(const SofaObject& o, const std::string& field,
                                 std::string* linkedField) const {
  const SofaObject* at = &o;
  std::string name = field;
  const SofaObject* found = nullptr;
  bool named = false;
  for (int depth = 0; depth < kMaxLinkDepth; ++depth) {
    const std::string* own = at->field(name);
    const std::string* link = own ? own : at->field("src");
    if (!link || !isSofaLink(*link)) break;
    const SofaLinkTarget target =
        scene_.resolve(*at->node, *link, where(*at, own ? name : "src"), at);
    if (own) checkLinkTarget(*this, *at, name, *link, target);
    if (!target.object) break;
    // src links only the fields of the same name that the source has (BaseObject::parse): a
    // field another link named ("@engine.output") goes no further than the object that has it.
    if (!own && named && knowsDataFields(target.object->type) &&
        !isDataField(target.object->type, name))
      break;
    if (own && !target.field.empty()) name = target.field, named = true;
    at = found = target.object;
  }
  if (linkedField) *linkedField = name;
  return found;
}

void Reader::forget(const SofaObject& o, const std::string& section) {
  keys_->erase(std::remove_if(keys_->begin(), keys_->end(),
                              [&](const SofaKey& k) {
                                return k.where == o.where && k.key.rfind(section, 0) == 0;
                              }),
               keys_->end());
}

bool Reader::gave(const std::string& key) const {
  return std::any_of(keys_->begin(), keys_->end(), [&](const SofaKey& k) { return k.key == key; });
}

void Reader::warnOnce(const std::string& line) const {
  if (std::find(out_.warnings.begin(), out_.warnings.end(), line) == out_.warnings.end())
    out_.warnings.push_back(line);
}

std::string Reader::gaveValue(const std::string& key) const {
  for (auto k = keys_->rbegin(); k != keys_->rend(); ++k)
    if (k->key == key) return k->value;
  return "";
}

void Reader::note(const std::string& line) {
  if (std::find(out_.notes.begin(), out_.notes.end(), line) == out_.notes.end())
    out_.notes.push_back(line);
}

std::string Reader::where(const SofaObject& o, const std::string& field) const {
  for (const xml::Attribute& a : o.data)
    if (a.name == field && o.where.rfind(scene_.file() + ":", 0) == 0)
      return scene_.file() + ":" + std::to_string(a.line);
  return o.where;
}

void Reader::reject(const SofaObject& o, const std::string& field, const std::string& why) const {
  const std::optional<std::string> value = o.field(field) ? text(o, field) : std::nullopt;
  throw Error(where(o, field) + ": " + o.type + (o.name.empty() ? "" : " '" + o.name + "'") + ": " +
              field + (value ? " = '" + printable(*value, 120) + "'" : "") + ": " + why);
}

void Reader::refuseIfGiven(const SofaObject& o, const std::string& field,
                           const std::string& why) const {
  if (o.field(field)) reject(o, field, why);
}

double Reader::real(const SofaObject& o, const std::string& field, double fallback) const {
  const std::optional<std::string> value = text(o, field);
  if (!value) return fallback;
  const Texts tokens = parse::tokens(*value);
  double x = 0;
  if (tokens.size() == 1 && !parse::number(tokens[0], x)) {
    // Data<double>::read streams the text into the value: a number followed by a sign (a
    // tolerance written "10-3") reads as its leading number, which SOFA takes without a word.
    const std::string& token = tokens[0];
    const std::size_t sign = token.find_first_of("+-", 1);
    if (sign != std::string::npos && token.find_first_of("eE") == std::string::npos &&
        parse::number(token.substr(0, sign), x)) {
      warnOnce(where(o, field) + ": " + o.type + ": " + field + " = '" + printable(token, 40) +
               "': SOFA reads " + token.substr(0, sign) + ", where its stream stops");
      return x;
    }
  }
  if (tokens.size() != 1 || !parse::number(tokens[0], x)) reject(o, field, "expected one number");
  return x;
}

double Reader::single(const SofaObject& o, const std::string& field, double fallback) const {
  const double checked = real(o, field, fallback);  // one number, or the fallback
  const std::optional<std::string> value = text(o, field);
  // strtof of the text: rounding the double again could differ in the last bit.
  return value ? double(std::strtof(parse::tokens(*value)[0].c_str(), nullptr)) : checked;
}

bool Reader::boolean(const SofaObject& o, const std::string& field, bool fallback) const {
  const std::optional<std::string> value = text(o, field);
  if (!value) return fallback;
  const Texts tokens = parse::tokens(*value);
  if (tokens.size() == 1 && (tokens[0] == "true" || tokens[0] == "1" || tokens[0] == "True"))
    return true;
  if (tokens.size() == 1 && (tokens[0] == "false" || tokens[0] == "0" || tokens[0] == "False"))
    return false;
  reject(o, field, "expected true or false (or 1 or 0)");
}

std::vector<double> Reader::reals(const SofaObject& o, const std::string& field) const {
  std::vector<double> values;
  const std::optional<std::string> value = text(o, field);
  if (!value) return values;
  for (const std::string& token : parse::tokens(*value)) {
    double x = 0;
    if (!parse::number(token, x)) reject(o, field, "'" + printable(token, 40) + "' is no number");
    values.push_back(x);
  }
  return values;
}

std::vector<long long> Reader::integers(const SofaObject& o, const std::string& field) const {
  std::vector<long long> values;
  const std::optional<std::string> value = text(o, field);
  if (!value) return values;
  for (const std::string& token : parse::tokens(*value)) {
    std::string why;
    if (!expandSofaIndexWord(token, values, why))
      reject(o, field, "'" + printable(token, 40) + "' is no node index nor range: " + why);
  }
  return values;
}

std::string objectPath(const SofaObject& o) {
  const std::string node = o.node->path();
  return (node == "/" ? "" : node) + "/" + (o.name.empty() ? o.type : o.name);
}

}  // namespace eis::sofa

namespace eis {

std::vector<std::string> sofaMappedTypes() {
  std::vector<std::string> types;
  for (const auto& [type, mapping] : sofa::mappings()) types.push_back(type);
  return types;
}

}  // namespace eis
