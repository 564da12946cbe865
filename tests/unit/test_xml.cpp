// Tests of the XML reader: the tree, attributes in order with their lines, what is skipped
// (declaration, comments, DOCTYPE), CDATA, entities and character references, what SOFA's parser
// (tinyxml2) accepts beyond strict XML, and malformed documents ending in an eis::Error that
// names source and line.
#include <gtest/gtest.h>

#include <string>

#include "eis/core/error.hpp"
#include "eis/core/xml.hpp"

namespace {

using eis::xml::Element;
using eis::xml::parse;

// The message of the error parsing `text` raises ("" when it parses).
std::string errorOf(const std::string& text) {
  try {
    parse(text, "a.scn");
  } catch (const eis::Error& e) {
    return e.what();
  }
  return "";
}

TEST(Xml, TreeWithAttributesInOrderAndLines) {
  const Element root = parse(
      "<?xml version=\"1.0\"?>\n"
      "<!-- a scene -->\n"
      "<Node name=\"root\" dt='0.01'\n"
      "      gravity=\"0 -9.81 0\">\n"
      "  <EulerImplicitSolver/>\n"
      "  <Node name=\"child\">\n"
      "    <MechanicalObject template=\"Vec3d\" />\n"
      "  </Node>\n"
      "</Node>\n",
      "a.scn");
  EXPECT_EQ(root.name, "Node");
  EXPECT_EQ(root.line, 3);
  ASSERT_EQ(root.attributes.size(), 3u);
  EXPECT_EQ(root.attributes[0].name, "name");
  EXPECT_EQ(root.attributes[1].name, "dt");
  EXPECT_EQ(root.attributes[1].value, "0.01");
  EXPECT_EQ(root.attributes[1].line, 3);
  EXPECT_EQ(root.attributes[2].line, 4);
  ASSERT_NE(root.attribute("gravity"), nullptr);
  EXPECT_EQ(root.attribute("gravity")->value, "0 -9.81 0");
  EXPECT_EQ(root.attribute("missing"), nullptr);
  ASSERT_EQ(root.children.size(), 2u);
  EXPECT_EQ(root.children[0].name, "EulerImplicitSolver");
  EXPECT_EQ(root.children[0].line, 5);
  EXPECT_TRUE(root.children[0].attributes.empty());
  const Element& child = root.children[1];
  EXPECT_EQ(child.line, 6);
  ASSERT_EQ(child.children.size(), 1u);
  EXPECT_EQ(child.children[0].name, "MechanicalObject");
  EXPECT_EQ(child.children[0].line, 7);
}

TEST(Xml, EntitiesCharacterReferencesAndWhiteSpaceInValues) {
  const Element root = parse(
      "<a v=\"&lt;&gt;&amp;&quot;&apos;\" w='&#65;&#x42;&#xe9;&#x20AC;' x=\"1\t2\n3\"/>", "t");
  EXPECT_EQ(root.attribute("v")->value, "<>&\"'");
  EXPECT_EQ(root.attribute("w")->value, "AB\xC3\xA9\xE2\x82\xAC");
  EXPECT_EQ(root.attribute("x")->value, "1 2 3");
  EXPECT_EQ(parse("<a v='say \"hi\"'/>", "t").attribute("v")->value, "say \"hi\"");
}

TEST(Xml, TextCdataAndCommentsInside) {
  // tinyxml2 reads <?...?> only before the root (the old reader skipped it anywhere), and a
  // DOCTYPE's internal subset only up to its first '>': the rest is text before the root,
  // which it ignores.
  const Element root = parse(
      "<!DOCTYPE a [ <!ENTITY x \"y>\"> ]>\n"
      "<a>1 2<!-- not 3 --> &amp; <![CDATA[<raw> & ]]><b>inner</b> 4</a>",
      "t");
  EXPECT_EQ(root.text, "1 2 & <raw> &  4");
  ASSERT_EQ(root.children.size(), 1u);
  EXPECT_EQ(root.children[0].text, "inner");
  // White space alone between tags is no text for tinyxml2.
  EXPECT_EQ(parse("<a>\n  <b/>\n</a>", "t").text, "");
  EXPECT_EQ(parse("<a> x </a>", "t").text, " x ");
}

TEST(Xml, ByteOrderMarkDeclarationAndTrailingComments) {
  const Element root = parse("\xEF\xBB\xBF<?xml version=\"1.0\"?>\n<a/>\n<!-- end -->\n", "t");
  EXPECT_EQ(root.name, "a");
}

// SOFA reads scenes with tinyxml2, which accepts what strict XML refuses: a scene SOFA runs must
// be read here as SOFA reads it.
TEST(Xml, WhatSofasParserAcceptsBeyondStrictXml) {
  const Element root = parse("<a x=\"i<3 && j>2\" y=\"1\"z='2' u=\"&foo;\" v=\"a&b;c\"/>", "t");
  EXPECT_EQ(root.attribute("x")->value, "i<3 && j>2");
  ASSERT_EQ(root.attributes.size(), 5u);
  EXPECT_EQ(root.attributes[1].name, "y");
  EXPECT_EQ(root.attribute("y")->value, "1");
  EXPECT_EQ(root.attribute("z")->value, "2");
  EXPECT_EQ(root.attribute("u")->value, "&foo;");  // an unknown entity stays as written
  EXPECT_EQ(root.attribute("v")->value, "a&b;c");
  EXPECT_EQ(parse("<a>x &foo; & y</a>", "t").text, "x &foo; & y");
  // The first element is the root; text before it and elements after it are ignored.
  const Element first = parse("text<a/>\n<b/>", "t");
  EXPECT_EQ(first.name, "a");
  EXPECT_TRUE(first.children.empty());
  EXPECT_EQ(parse("<a>< b/></a>", "t").children.at(0).name, "b");
  const Element references = parse("<a x=\"&#0;\" y=\"&#xZ;\"/>", "t");
  EXPECT_EQ(references.attribute("x")->value, "");  // &#0; stands for nothing
  EXPECT_EQ(references.attribute("y")->value, "&#xZ;");
}

TEST(Xml, LinesOfElementsAndAttributesAcrossLineEndings) {
  const Element root = parse("<a>\r\n<b\r\n  x=\"1\"\r\n\r\n y=\"2\"/>\r\n</a>", "t");
  ASSERT_EQ(root.children.size(), 1u);
  EXPECT_EQ(root.children[0].line, 2);
  EXPECT_EQ(root.children[0].attributes.at(0).line, 3);
  EXPECT_EQ(root.children[0].attributes.at(1).line, 5);
}

// What the old reader refused and tinyxml2 accepts (unknown entities, a lone '&', bad character
// references, '<' in values, attributes without space, elements after the root, text before it,
// "< b") is in WhatSofasParserAcceptsBeyondStrictXml.
TEST(Xml, MalformedDocumentsNameSourceAndLine) {
  EXPECT_EQ(errorOf(""), "a.scn:1: no root element");
  EXPECT_EQ(errorOf("\n<!-- only -->\n"), "a.scn:1: no root element");
  // tinyxml2 names the element left open, at its line.
  EXPECT_EQ(errorOf("<a>\n<b>\n</a>"),
            "a.scn:2: <b> is not closed by its own end tag (another end tag or the end of the "
            "text comes first)");
  EXPECT_EQ(errorOf("<a>\n\n<b>"),
            "a.scn:3: <b> is not closed by its own end tag (another end tag or the end of the "
            "text comes first)");
  const std::string badAttribute =
      ": malformed attribute in <a>: a value without quotes or never closed, or an attribute "
      "given twice";
  EXPECT_EQ(errorOf("<a x=\"1\" x=\"2\"/>"), "a.scn:1" + badAttribute);
  EXPECT_EQ(errorOf("<a\n x=1/>"), "a.scn:2" + badAttribute);
  EXPECT_EQ(errorOf("<a x=\"1\ny/>"), "a.scn:1" + badAttribute);
  EXPECT_EQ(errorOf("\n<!-- open"), "a.scn:2: unterminated comment (<!-- without -->)");
  EXPECT_EQ(errorOf("<a/>\ntext"),
            "a.scn:2: text that no element follows (text after the root "
            "element?)");
  EXPECT_EQ(errorOf("<a>\n<![CDATA[x</a>"),
            "a.scn:2: unterminated CDATA section (<![CDATA[ without ]]>)");
  EXPECT_EQ(errorOf("<a>\n<?pi?></a>"),
            "a.scn:2: a <?...?> declaration not before the root element, or without '?>' "
            "(SOFA's XML parser, tinyxml2, reads them only before it)");
  EXPECT_EQ(errorOf("<a x=\"1\" / >"),
            "a.scn:1: malformed start or end tag of an element (expected attributes, then '>' or "
            "'/>')");
  EXPECT_EQ(errorOf("\n<1a/>"),
            "a.scn:2: malformed XML: a '<' that starts no element, comment or section");
}

TEST(Xml, DeepNestingIsRefusedNotACrash) {
  std::string text;
  for (int i = 0; i < 600; ++i) text += "<a>";
  EXPECT_EQ(errorOf(text),
            "a.scn:1: elements nested deeper than 100 (the limit of SOFA's XML parser, tinyxml2)");
}

TEST(Xml, MissingFileIsNamed) {
  try {
    eis::xml::parseFile("no-such-dir/none.scn");
    FAIL() << "no error";
  } catch (const eis::Error& e) {
    EXPECT_EQ(std::string(e.what()), "no-such-dir/none.scn: cannot read: no such file");
  }
}

}  // namespace
