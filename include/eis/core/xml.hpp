#pragma once
// A small XML reader: the whole document as a tree of elements, each with its name, its
// attributes in the order written and the line of each, its children and the character data
// directly inside it. It reads what SOFA scenes (.scn) and ParaView files (.vtu) use: the
// <?xml ...?> declaration and other processing instructions, comments and a DOCTYPE (skipped),
// CDATA sections, both quote styles, the five named entities and numeric character references
// (written back as UTF-8). Namespaces are not interpreted (a name "a:b" stays "a:b"). Raw binary
// data (a .vtu file's <AppendedData encoding="raw">) is not XML and is not read.
//
// Every error is an eis::Error naming the source and line: "liver.scn:12: ...".
#include <string>
#include <vector>

namespace eis::xml {

struct Attribute {
  std::string name;
  std::string value;  // entities replaced; tabs and line breaks written as spaces (XML's rule)
  int line = 0;       // the line where the attribute's name is
};

struct Element {
  std::string name;
  int line = 0;  // the line of the '<' that opens it
  std::vector<Attribute> attributes;
  std::vector<Element> children;
  // The character data directly inside this element (not its children's), entities replaced,
  // CDATA sections as written, all pieces joined, white space kept.
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
