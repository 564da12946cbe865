// The XML reader on tinyxml2, the parser SOFA's scene loader uses: a document SOFA reads is read
// here the same way, and one SOFA refuses is refused. tinyxml2's tree is copied into our
// Element tree so that the readers above see no tinyxml2 type and the document can be freed.
#include "eis/core/xml.hpp"

#include <tinyxml2.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "eis/core/error.hpp"
#include "eis/core/input_file.hpp"

namespace eis::xml {

const Attribute* Element::attribute(const std::string& name) const {
  for (const Attribute& a : attributes)
    if (a.name == name) return &a;
  return nullptr;
}

namespace {

// tinyxml2 keeps tabs and line breaks in attribute values; XML's normalisation (which the
// previous reader applied and the readers above were written against) makes each a space.
std::string normalised(const char* value) {
  std::string out(value);
  std::replace_if(
      out.begin(), out.end(), [](char c) { return c == '\t' || c == '\n' || c == '\r'; }, ' ');
  return out;
}

// tinyxml2 stops nesting at TINYXML2_MAX_ELEMENT_DEPTH, so this recursion is bounded.
Element copied(const tinyxml2::XMLElement& from) {
  Element e;
  e.name = from.Name();
  e.line = from.GetLineNum();
  for (const tinyxml2::XMLAttribute* a = from.FirstAttribute(); a; a = a->Next())
    e.attributes.push_back({a->Name(), normalised(a->Value()), a->GetLineNum()});
  for (const tinyxml2::XMLNode* node = from.FirstChild(); node; node = node->NextSibling()) {
    if (const tinyxml2::XMLElement* child = node->ToElement())
      e.children.push_back(copied(*child));
    else if (const tinyxml2::XMLText* text = node->ToText())
      e.text += text->Value();
  }
  return e;
}

// The element or declaration tinyxml2 names in its own message ("...: XMLElement name=b"), or "".
std::string namedIn(const char* message) {
  const std::string text = message ? message : "";
  const std::size_t at = text.rfind("name=");
  return at == std::string::npos ? "" : text.substr(at + 5);
}

// Our words for tinyxml2's error: tinyxml2's own message is a code and a line number.
std::string problem(const tinyxml2::XMLDocument& doc) {
  const std::string name = namedIn(doc.ErrorStr());
  const std::string element = name.empty() ? "an element" : "<" + printable(name, 80) + ">";
  switch (doc.ErrorID()) {
    case tinyxml2::XML_ERROR_EMPTY_DOCUMENT: return "no root element";
    case tinyxml2::XML_ERROR_MISMATCHED_ELEMENT:
      return element +
             " is not closed by its own end tag (another end tag or the end of the "
             "text comes first)";
    case tinyxml2::XML_ERROR_PARSING_ELEMENT:
      return "malformed start or end tag of " + element +
             " (expected attributes, then '>' or '/>')";
    case tinyxml2::XML_ERROR_PARSING_ATTRIBUTE:
      return "malformed attribute in " + element +
             ": a value without quotes or never closed, or an attribute given twice";
    case tinyxml2::XML_ERROR_PARSING_TEXT:
      return "text that no element follows (text after the root element?)";
    case tinyxml2::XML_ERROR_PARSING_CDATA:
      return "unterminated CDATA section (<![CDATA[ without ]]>)";
    case tinyxml2::XML_ERROR_PARSING_COMMENT: return "unterminated comment (<!-- without -->)";
    case tinyxml2::XML_ERROR_PARSING_DECLARATION:
      return "a <?...?> declaration not before the root element, or without '?>' "
             "(SOFA's XML parser, tinyxml2, reads them only before it)";
    case tinyxml2::XML_ERROR_PARSING_UNKNOWN: return "unterminated <!...> section";
    case tinyxml2::XML_ELEMENT_DEPTH_EXCEEDED:
      return "elements nested deeper than " + std::to_string(TINYXML2_MAX_ELEMENT_DEPTH) +
             " (the limit of SOFA's XML parser, tinyxml2)";
    case tinyxml2::XML_ERROR_PARSING:
      return "malformed XML: a '<' that starts no element, comment or section";
    default: return std::string("malformed XML (") + doc.ErrorName() + ")";
  }
}

}  // namespace

Element parse(const std::string& text, const std::string& source) {
  tinyxml2::XMLDocument doc;  // entities replaced, white space kept: as SOFA parses scenes
  doc.Parse(text.data(), text.size());
  if (doc.Error())
    throw Error(source + ":" + std::to_string(std::max(1, doc.ErrorLineNum())) + ": " +
                problem(doc));
  const tinyxml2::XMLElement* root = doc.RootElement();
  if (!root) throw Error(source + ":1: no root element");
  return copied(*root);
}

Element parseFile(const std::string& path) {
  const std::string problem = inputFileProblem(path);
  if (!problem.empty()) throw Error(path + ": cannot read: " + problem);
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw Error(path + ": cannot read");
  return parse(text.str(), path);
}

}  // namespace eis::xml
