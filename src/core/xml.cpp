#include "eis/core/xml.hpp"

#include <algorithm>
#include <cstring>
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

// Deeper nesting than any real scene or data file: refused rather than exhausting the stack.
constexpr int kMaxDepth = 512;

bool isSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

bool isNameStart(char c) {
  const unsigned char u = static_cast<unsigned char>(c);
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':' || u >= 0x80;
}

bool isNameChar(char c) {
  return isNameStart(c) || (c >= '0' && c <= '9') || c == '-' || c == '.';
}

void appendUtf8(std::string& out, unsigned long code) {
  if (code < 0x80) {
    out += char(code);
  } else if (code < 0x800) {
    out += char(0xc0 | (code >> 6));
    out += char(0x80 | (code & 0x3f));
  } else if (code < 0x10000) {
    out += char(0xe0 | (code >> 12));
    out += char(0x80 | ((code >> 6) & 0x3f));
    out += char(0x80 | (code & 0x3f));
  } else {
    out += char(0xf0 | (code >> 18));
    out += char(0x80 | ((code >> 12) & 0x3f));
    out += char(0x80 | ((code >> 6) & 0x3f));
    out += char(0x80 | (code & 0x3f));
  }
}

class Parser {
public:
  Parser(const std::string& text, const std::string& source) : text_(text), source_(source) {
    if (text_.compare(0, 3, "\xEF\xBB\xBF") == 0) pos_ = 3;
  }

  Element document() {
    skipMisc(true);
    if (atEnd()) fail("no root element");
    if (!startsWith("<") || !isNameStart(peek(1))) fail("expected the root element");
    Element root = element(0);
    skipMisc(false);
    if (!atEnd()) fail("content after the root element </" + root.name + ">");
    return root;
  }

private:
  [[noreturn]] void fail(const std::string& why) const { failAt(line_, why); }
  [[noreturn]] void failAt(int line, const std::string& why) const {
    throw Error(source_ + ":" + std::to_string(line) + ": " + why);
  }

  bool atEnd() const { return pos_ >= text_.size(); }
  char peek(std::size_t ahead = 0) const {
    return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0';
  }
  bool startsWith(const char* s) const { return text_.compare(pos_, std::strlen(s), s) == 0; }
  void advance(std::size_t n = 1) {
    for (std::size_t i = 0; i < n && pos_ < text_.size(); ++i, ++pos_)
      if (text_[pos_] == '\n') ++line_;
  }
  void skipSpace() {
    while (!atEnd() && isSpace(peek())) advance();
  }
  // Moves past `end`, failing with `what` (opened at `line`) when the text ends first.
  std::string until(const char* end, const std::string& what, int line) {
    const std::size_t found = text_.find(end, pos_);
    if (found == std::string::npos) failAt(line, "unterminated " + what);
    std::string inside = text_.substr(pos_, found - pos_);
    advance(found - pos_ + std::strlen(end));
    return inside;
  }

  // Comments, processing instructions, white space and (before the root) one DOCTYPE.
  void skipMisc(bool beforeRoot) {
    for (;;) {
      skipSpace();
      if (startsWith("<!--")) {
        comment();
      } else if (startsWith("<?")) {
        processingInstruction();
      } else if (beforeRoot && startsWith("<!DOCTYPE")) {
        doctype();
      } else {
        if (!atEnd() && peek() != '<') fail("text outside the root element");
        return;
      }
    }
  }

  void comment() {
    const int line = line_;
    advance(4);
    const std::string inside = until("-->", "comment (<!-- without -->)", line);
    if (inside.find("--") != std::string::npos) failAt(line, "'--' inside a comment");
  }

  void processingInstruction() {
    const int line = line_;
    advance(2);
    until("?>", "processing instruction (<? without ?>)", line);
  }

  // Skipped whole, internal subset included ("[...]", where '>' may appear inside quotes).
  void doctype() {
    const int line = line_;
    int brackets = 0;
    char quote = '\0';
    advance(9);
    for (; !atEnd(); advance()) {
      const char c = peek();
      if (quote) {
        if (c == quote) quote = '\0';
      } else if (c == '"' || c == '\'') {
        quote = c;
      } else if (c == '[') {
        ++brackets;
      } else if (c == ']') {
        --brackets;
      } else if (c == '>' && brackets <= 0) {
        advance();
        return;
      }
    }
    failAt(line, "unterminated DOCTYPE");
  }

  std::string name(const std::string& what) {
    if (!isNameStart(peek())) fail("expected " + what);
    const std::size_t start = pos_;
    while (!atEnd() && isNameChar(peek())) advance();
    return text_.substr(start, pos_ - start);
  }

  // At '&': appends what the reference stands for.
  void reference(std::string& out) {
    const std::size_t semicolon = text_.find(';', pos_);
    if (semicolon == std::string::npos || semicolon - pos_ > 12)
      fail("'&' that starts no entity (write &amp;)");
    const std::string entity = text_.substr(pos_ + 1, semicolon - pos_ - 1);
    if (entity == "lt") {
      out += '<';
    } else if (entity == "gt") {
      out += '>';
    } else if (entity == "amp") {
      out += '&';
    } else if (entity == "quot") {
      out += '"';
    } else if (entity == "apos") {
      out += '\'';
    } else if (entity.size() > 1 && entity[0] == '#') {
      const bool hex = entity[1] == 'x';
      const std::string digits = entity.substr(hex ? 2 : 1);
      const char* allowed = hex ? "0123456789abcdefABCDEF" : "0123456789";
      if (digits.empty() || digits.find_first_not_of(allowed) != std::string::npos)
        fail("bad character reference &" + printable(entity) + ";");
      const unsigned long code = std::stoul(digits, nullptr, hex ? 16 : 10);
      if (code == 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff))
        fail("character reference &" + entity + "; is no character");
      appendUtf8(out, code);
    } else {
      fail("unknown entity &" + printable(entity) + ";");
    }
    advance(semicolon - pos_ + 1);
  }

  Attribute attribute() {
    Attribute a;
    a.line = line_;
    a.name = name("an attribute name");
    skipSpace();
    if (peek() != '=') fail("expected '=' after attribute " + a.name);
    advance();
    skipSpace();
    const char quote = peek();
    if (quote != '"' && quote != '\'') fail("expected a quoted value for attribute " + a.name);
    const int line = line_;
    advance();
    for (;;) {
      if (atEnd()) failAt(line, "unterminated value of attribute " + a.name);
      const char c = peek();
      if (c == quote) break;
      if (c == '<') fail("'<' inside the value of attribute " + a.name + " (write &lt;)");
      if (c == '&') {
        reference(a.value);
        continue;
      }
      a.value += isSpace(c) ? ' ' : c;
      advance();
    }
    advance();
    return a;
  }

  // At '<' followed by a name.
  Element element(int depth) {
    if (depth > kMaxDepth) fail("elements nested deeper than " + std::to_string(kMaxDepth));
    Element e;
    e.line = line_;
    advance();
    e.name = name("an element name");
    for (;;) {
      const bool spaced = isSpace(peek());
      skipSpace();
      if (atEnd()) failAt(e.line, "unterminated start tag <" + e.name);
      if (startsWith("/>")) {
        advance(2);
        return e;
      }
      if (peek() == '>') {
        advance();
        break;
      }
      if (!spaced) fail("expected white space, '>' or '/>' in <" + e.name);
      Attribute a = attribute();
      if (e.attribute(a.name)) fail("attribute " + a.name + " given twice in <" + e.name + ">");
      e.attributes.push_back(std::move(a));
    }
    content(e, depth);
    return e;
  }

  // The inside of `e`, up to and including its end tag.
  void content(Element& e, int depth) {
    for (;;) {
      if (atEnd()) failAt(e.line, "<" + e.name + "> is never closed");
      const char c = peek();
      if (c == '&') {
        reference(e.text);
      } else if (c != '<') {
        const std::size_t end = std::min(text_.find_first_of("<&", pos_), text_.size());
        e.text.append(text_, pos_, end - pos_);
        advance(end - pos_);
      } else if (startsWith("</")) {
        advance(2);
        const std::string closing = name("an element name after '</'");
        if (closing != e.name)
          fail("</" + closing + "> closes <" + e.name + "> opened at line " +
               std::to_string(e.line));
        skipSpace();
        if (peek() != '>') fail("expected '>' after </" + closing);
        advance();
        return;
      } else if (startsWith("<!--")) {
        comment();
      } else if (startsWith("<![CDATA[")) {
        const int line = line_;
        advance(9);
        e.text += until("]]>", "CDATA section", line);
      } else if (startsWith("<?")) {
        processingInstruction();
      } else if (isNameStart(peek(1))) {
        e.children.push_back(element(depth + 1));
      } else {
        fail("'<' that starts no element (write &lt;)");
      }
    }
  }

  const std::string& text_;
  const std::string& source_;
  std::size_t pos_ = 0;
  int line_ = 1;
};

}  // namespace

Element parse(const std::string& text, const std::string& source) {
  return Parser(text, source).document();
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
