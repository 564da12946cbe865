#pragma once
// The XML reader: the whole document as a tree of elements, each with its name, its attributes
// in the order written and the line of each, its children and the character data directly
// inside it. It parses with tinyxml2, SOFA's own XML parser, so that what SOFA's scene loader
// accepts is accepted and what it refuses is refused; the same reader serves ParaView's .vtu
// files. As tinyxml2 reads:
// - the five named entities and numeric character references are replaced (written as UTF-8);
//   an unknown entity or a lone '&' stays as written; '<' and '>' may stand in attribute values;
//   attributes need no white space between them (a="1"b="2"); an attribute given twice is refused;
// - CDATA sections are text as written; comments and a DOCTYPE are skipped; the <?xml ...?>
//   declaration and other <?...?> are accepted only before the root element;
// - the root is the first element: text before it and further elements after it are ignored,
//   as SOFA ignores them; text after the last element is refused;
// - elements nest at most 100 deep (tinyxml2's limit).
// Namespaces are not interpreted (a name "a:b" stays "a:b"). Raw binary data (a .vtu file's
// <AppendedData encoding="raw">) is not XML and is not read.
//
// Every error is an eis::Error naming the source and line: "liver.scn:12: ...".
#include <string>
#include <vector>

namespace eis::xml {

struct Attribute {
  std::string name;
  // Entities replaced; tabs and line breaks (written or as references) as spaces (XML's rule,
  // applied here: tinyxml2 keeps them).
  std::string value;
  int line = 0;  // the line where the attribute's name is
};

struct Element {
  std::string name;
  int line = 0;  // the line of the '<' that opens it
  std::vector<Attribute> attributes;
  std::vector<Element> children;
  // The character data directly inside this element (not its children's), entities replaced,
  // CDATA sections as written, all pieces joined, white space kept (but a piece of white space
  // alone between two tags is dropped, as tinyxml2 does).
  std::string text;

  // The attribute of that name, or nullptr.
  const Attribute* attribute(const std::string& name) const;
};

// Parses a whole document; `source` names it in error messages (a file name). Returns the root
// element.
Element parse(const std::string& text, const std::string& source);

// Reads and parses the file (refused by name when it is missing, a directory or a device).
Element parseFile(const std::string& path);

}  // namespace eis::xml
