// Tests of the XML reader: the tree, attributes in order with their lines, what is skipped
// (declaration, comments, processing instructions, DOCTYPE), CDATA, entities and character
// references, and malformed documents ending in an eis::Error that names source and line.
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

TEST(Xml, TextCdataCommentsAndInstructionsInside) {
  const Element root = parse(
      "<!DOCTYPE a [ <!ENTITY x \"y>\"> ]>\n"
      "<a>1 2<!-- not 3 --> &amp; <![CDATA[<raw> & ]]><?pi skipped?><b>inner</b> 4</a>",
      "t");
  EXPECT_EQ(root.text, "1 2 & <raw> &  4");
  ASSERT_EQ(root.children.size(), 1u);
  EXPECT_EQ(root.children[0].text, "inner");
}

TEST(Xml, ByteOrderMarkAndTrailingComments) {
  const Element root = parse("\xEF\xBB\xBF<a/>\n<!-- end -->\n<?pi?>\n", "t");
  EXPECT_EQ(root.name, "a");
}

TEST(Xml, MalformedDocumentsNameSourceAndLine) {
  EXPECT_EQ(errorOf(""), "a.scn:1: no root element");
  EXPECT_EQ(errorOf("<a>\n<b>\n</a>"), "a.scn:3: </a> closes <b> opened at line 2");
  EXPECT_EQ(errorOf("<a>\n\n<b>"), "a.scn:3: <b> is never closed");
  EXPECT_EQ(errorOf("<a x=\"1\" x=\"2\"/>"), "a.scn:1: attribute x given twice in <a>");
  EXPECT_EQ(errorOf("<a\n x=1/>"), "a.scn:2: expected a quoted value for attribute x");
  EXPECT_EQ(errorOf("<a x=\"1\ny/>"), "a.scn:1: unterminated value of attribute x");
  EXPECT_EQ(errorOf("<a x=\"&foo;\"/>"), "a.scn:1: unknown entity &foo;");
  EXPECT_EQ(errorOf("<a x=\"a & b\"/>"), "a.scn:1: '&' that starts no entity (write &amp;)");
  EXPECT_EQ(errorOf("<a x=\"&#0;\"/>"), "a.scn:1: character reference &#0; is no character");
  EXPECT_EQ(errorOf("<a x=\"&#xZ;\"/>"), "a.scn:1: bad character reference &#xZ;");
  EXPECT_EQ(errorOf("<a x='<'/>"), "a.scn:1: '<' inside the value of attribute x (write &lt;)");
  EXPECT_EQ(errorOf("\n<!-- open"), "a.scn:2: unterminated comment (<!-- without -->)");
  EXPECT_EQ(errorOf("<a/>\n<b/>"), "a.scn:2: content after the root element </a>");
  EXPECT_EQ(errorOf("text<a/>"), "a.scn:1: text outside the root element");
  EXPECT_EQ(errorOf("<a x=\"1\"y=\"2\"/>"), "a.scn:1: expected white space, '>' or '/>' in <a");
  EXPECT_EQ(errorOf("<a>\n<![CDATA[x</a>"), "a.scn:2: unterminated CDATA section");
  EXPECT_EQ(errorOf("<a>< b/></a>"), "a.scn:1: '<' that starts no element (write &lt;)");
}

TEST(Xml, DeepNestingIsRefusedNotACrash) {
  std::string text;
  for (int i = 0; i < 600; ++i) text += "<a>";
  EXPECT_EQ(errorOf(text), "a.scn:1: elements nested deeper than 512");
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
