// Gmsh .msh reader, formats 2.2 and 4.1, ASCII and binary.
//
// The whole file is read into memory and parsed with a cursor. Gmsh mixes text and binary in
// one file: section names (and, in 2.2, the counts that open $Nodes and $Elements) are always
// text, while the payload of a binary file is raw values in the writer's byte order. The
// cursor's value readers therefore switch between text and raw bytes; 4.1 lists the same
// fields in the same order in both modes, so one parser serves both.
//
// Every read is bounds-checked, and every count is checked against the bytes left in the file
// before anything is allocated for it, so a truncated or garbled file ends in eis::Error.
#include "eis/mesh/gmsh_reader.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <map>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "eis/core/error.hpp"
#include "eis/core/input_file.hpp"

namespace eis {
namespace {

constexpr int kTriangle = 2;
constexpr int kTetrahedron = 4;

// Nodes per element for Gmsh's element types 1..31 (the index is the type); 0 marks a type
// this reader does not know, whose size, and so whose layout in the file, is unknown.
constexpr std::array<int, 32> kNodesPerType = {0,  2,  3,  4,  4, 8, 6,  5,  3,  6, 9,
                                               10, 27, 18, 14, 1, 8, 20, 15, 13, 9, 10,
                                               12, 15, 15, 21, 4, 5, 6,  20, 35, 56};
constexpr int kMaxNodesPerElement = 56;

int nodesPerElement(std::int64_t type) {
  return type > 0 && type < static_cast<std::int64_t>(kNodesPerType.size()) ? kNodesPerType[type]
                                                                            : 0;
}

std::string elementTypeName(int type) {
  switch (type) {
    case 1: return "line";
    case 2: return "triangle";
    case 3: return "quadrangle";
    case 4: return "tetrahedron";
    case 5: return "hexahedron";
    case 6: return "prism";
    case 7: return "pyramid";
    case 15: return "point";
    default: return "type " + std::to_string(type);
  }
}

bool isSpace(char c) {
  return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\v' || c == '\f';
}

// A short, printable excerpt of a token for error messages (binary garbage stays readable).
std::string excerpt(std::string_view token) {
  constexpr std::size_t kMaxLength = 24;
  std::string out;
  for (char c : token.substr(0, kMaxLength)) out += (c >= 32 && c < 127) ? c : '?';
  if (token.size() > kMaxLength) out += "...";
  return out;
}

std::string readWholeFile(const std::string& path) {
  if (const std::string problem = inputFileProblem(path); !problem.empty())
    throw Error("cannot read mesh file '" + path + "': " + problem);
  std::error_code ec;
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (!file) throw Error("cannot open mesh file '" + path + "': " + std::strerror(errno));
  std::string text;
  const auto size = std::filesystem::file_size(path, ec);
  if (!ec) text.reserve(size);
  std::array<char, 1 << 16> chunk;
  std::size_t got = 0;
  while ((got = std::fread(chunk.data(), 1, chunk.size(), file)) > 0)
    text.append(chunk.data(), got);
  const bool failed = std::ferror(file) != 0;
  std::fclose(file);
  if (failed) throw Error("cannot read mesh file '" + path + "': read error");
  return text;
}

// Walks the file's bytes. Errors name the file and where it went wrong: the line in an ASCII
// file, the byte offset in a binary one (line numbers mean nothing among raw bytes).
class Cursor {
public:
  Cursor(std::string path, std::string text) : path_(std::move(path)), text_(std::move(text)) {}

  void setBinaryFile(bool on) { binaryFile_ = on; }
  void setBinaryPayload(bool on) { binary_ = on; }
  void setByteSwap(bool on) { swap_ = on; }
  void setSizeWidth(int bytes) { sizeWidth_ = bytes; }
  void enterSection(std::string name) { section_ = std::move(name); }

  [[noreturn]] void fail(const std::string& what) const {
    std::string where = path_;
    if (binaryFile_) {
      where += ": byte " + std::to_string(pos_);
    } else {
      where += ":" + std::to_string(1 + std::count(text_.begin(), text_.begin() + pos_, '\n'));
    }
    if (!section_.empty()) where += ": in $" + section_;
    throw Error(where + ": " + what);
  }

  // For verdicts about the whole file, where no position helps.
  [[noreturn]] void failFile(const std::string& what) const { throw Error(path_ + ": " + what); }

  [[noreturn]] void failTruncated() const {
    fail("truncated file: unexpected end of file" +
         (section_.empty() ? std::string() : " before $End" + section_));
  }

  // True at the end of the file, after skipping whitespace.
  bool atEnd() {
    skipSpace();
    return pos_ >= text_.size();
  }

  // The next whitespace-delimited text token.
  std::string_view word() {
    skipSpace();
    if (pos_ >= text_.size()) failTruncated();
    const std::size_t start = pos_;
    while (pos_ < text_.size() && !isSpace(text_[pos_])) ++pos_;
    return std::string_view(text_).substr(start, pos_ - start);
  }

  void expectWord(std::string_view expected) {
    const std::string_view found = word();
    if (found != expected)
      fail("expected " + std::string(expected) + ", found '" + excerpt(found) + "'");
  }

  // Moves past the end of the current line: raw payloads start right after a newline.
  void skipLine() {
    const std::size_t newline = text_.find('\n', pos_);
    if (newline == std::string::npos) failTruncated();
    pos_ = newline + 1;
  }

  // Moves to the "$End<section>" line of a section this reader does not need.
  void skipToSectionEnd() {
    const std::size_t at = text_.find("$End" + section_, pos_);
    if (at == std::string::npos) failTruncated();
    pos_ = at;
  }

  // A Gmsh "int": text, or 4 raw bytes.
  std::int64_t readInt(const char* what) {
    if (binary_) return raw<std::int32_t>();
    const std::int64_t value = parseInteger(what);
    if (value < std::numeric_limits<std::int32_t>::min() ||
        value > std::numeric_limits<std::int32_t>::max())
      fail(std::string(what) + " " + std::to_string(value) + " does not fit in an int");
    return value;
  }

  // A Gmsh "size_t": text, or raw bytes as wide as the data-size of $MeshFormat (4.1).
  std::int64_t readSize(const char* what) {
    if (!binary_) {
      const std::int64_t parsed = parseInteger(what);
      if (parsed < 0)
        fail(std::string(what) + " must not be negative, found " + std::to_string(parsed));
      return parsed;
    }
    const std::uint64_t value = sizeWidth_ == 4 ? raw<std::uint32_t>() : raw<std::uint64_t>();
    if (value > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
      fail(std::string(what) + " is too large");
    return static_cast<std::int64_t>(value);
  }

  double readReal(const char* what) {
    if (binary_) return raw<double>();
    skipSpace();
    if (pos_ >= text_.size()) failTruncated();
    const char* begin = text_.data() + pos_;
    const char* end = text_.data() + text_.size();
    double value = 0;
    const auto [next, ec] = std::from_chars(begin, end, value);
    if (ec == std::errc::result_out_of_range)
      fail(std::string(what) + " is out of the range of double");
    expectNumberEnd(begin, next, ec == std::errc(), "a number", what);
    return value;
  }

  // The endianness marker of a binary file, read as the bytes lie.
  std::int32_t rawInt32() {
    const bool swap = swap_;
    swap_ = false;
    const auto value = raw<std::int32_t>();
    swap_ = swap;
    return value;
  }

  // A double-quoted name on the current line ($PhysicalNames).
  std::string quotedName() {
    skipSpace();
    if (pos_ >= text_.size()) failTruncated();
    if (text_[pos_] != '"') fail("expected a quoted name, found '" + excerpt(peekToken()) + "'");
    const std::size_t close = text_.find_first_of("\"\n", pos_ + 1);
    if (close == std::string::npos) failTruncated();
    if (text_[close] != '"') fail("unterminated quoted name");
    std::string name = text_.substr(pos_ + 1, close - pos_ - 1);
    pos_ = close + 1;
    return name;
  }

  // Rejects a count that cannot fit in the rest of the file, before anything is allocated for
  // it: each item takes at least `fieldsPerItem` values of 4 raw bytes, or of a digit and a
  // separator in text.
  void guardCount(std::int64_t count, std::int64_t fieldsPerItem, const char* what) const {
    const std::int64_t left = static_cast<std::int64_t>(text_.size() - pos_);
    const std::int64_t minBytes = fieldsPerItem * (binary_ ? 4 : 2);
    if (count < 0 || count > left / minBytes)
      fail("count of " + std::string(what) + " (" + std::to_string(count) + ") cannot fit in the " +
           std::to_string(left) + " bytes left (truncated or corrupt file)");
  }

private:
  void skipSpace() {
    while (pos_ < text_.size() && isSpace(text_[pos_])) ++pos_;
  }

  std::string_view peekToken() const {
    std::size_t end = pos_;
    while (end < text_.size() && !isSpace(text_[end])) ++end;
    return std::string_view(text_).substr(pos_, end - pos_);
  }

  // Integers dominate a mesh file, so the common case (at most 18 digits, which cannot
  // overflow) is parsed by hand; longer ones go to std::from_chars, which checks the range.
  std::int64_t parseInteger(const char* what) {
    skipSpace();
    if (pos_ >= text_.size()) failTruncated();
    const char* begin = text_.data() + pos_;
    const char* end = text_.data() + text_.size();
    const bool negative = *begin == '-';
    const char* digits = negative ? begin + 1 : begin;
    const char* next = digits;
    std::int64_t value = 0;
    const auto isDigit = [end](const char* c) { return c < end && unsigned(*c - '0') < 10; };
    while (next - digits < 18 && isDigit(next)) value = 10 * value + (*next++ - '0');
    if (isDigit(next)) {
      const auto [longNext, ec] = std::from_chars(begin, end, value);
      if (ec == std::errc::result_out_of_range) fail(std::string(what) + " is too large");
      expectNumberEnd(begin, longNext, ec == std::errc(), "an integer", what);
      return value;
    }
    expectNumberEnd(begin, next, next > digits, "an integer", what);
    return negative ? -value : value;
  }

  // A number must be a whole token: "12abc" is garbled, not 12.
  void expectNumberEnd(const char* begin, const char* next, bool parsed, const char* kind,
                       const char* what) {
    const char* end = text_.data() + text_.size();
    if (!parsed || next == begin || (next < end && !isSpace(*next)))
      fail("expected " + std::string(kind) + " (" + what + "), found '" + excerpt(peekToken()) +
           "'");
    pos_ = static_cast<std::size_t>(next - text_.data());
  }

  template <class T>
  T raw() {
    if (text_.size() - pos_ < sizeof(T)) failTruncated();
    std::array<char, sizeof(T)> bytes;
    std::memcpy(bytes.data(), text_.data() + pos_, sizeof(T));
    if (swap_) std::reverse(bytes.begin(), bytes.end());
    T value;
    std::memcpy(&value, bytes.data(), sizeof(T));
    pos_ += sizeof(T);
    return value;
  }

  std::string path_;
  std::string text_;
  std::size_t pos_ = 0;
  std::string section_;
  bool binaryFile_ = false;
  bool binary_ = false;
  bool swap_ = false;
  int sizeWidth_ = 8;
};

// Maps Gmsh node tags to 0-based positions: a dense table when the tags are compact (the usual
// case, and the fast one), a hash map when they are sparse.
class NodeIndex {
public:
  // Returns the position of the first node whose tag repeats an earlier one, or -1.
  std::int64_t build(const std::vector<std::int64_t>& tags) {
    const std::int64_t count = static_cast<std::int64_t>(tags.size());
    const std::int64_t maxTag = tags.empty() ? 0 : *std::max_element(tags.begin(), tags.end());
    dense_ = maxTag <= 2 * count + 1024;
    if (dense_)
      table_.assign(static_cast<std::size_t>(maxTag) + 1, -1);
    else
      map_.reserve(tags.size());
    for (std::int64_t i = 0; i < count; ++i) {
      const bool fresh = dense_ ? table_[tags[i]] < 0 : map_.emplace(tags[i], i).second;
      if (!fresh) return i;
      if (dense_) table_[tags[i]] = i;
    }
    return -1;
  }

  // The position of a tag, or -1 when no node has it.
  std::int64_t find(std::int64_t tag) const {
    if (dense_)
      return tag >= 0 && tag < static_cast<std::int64_t>(table_.size()) ? table_[tag] : -1;
    const auto it = map_.find(tag);
    return it == map_.end() ? -1 : it->second;
  }

private:
  bool dense_ = true;
  std::vector<std::int64_t> table_;
  std::unordered_map<std::int64_t, std::int64_t> map_;
};

// Collects each physical group's node ids. A per-group bitmap drops repeats as they arrive, so
// a volume group holding every tetrahedron stores each node once instead of once per element.
// Bitmaps cost a bit per node and group; past a fixed budget (a file with absurdly many groups)
// a group stores every id it is given, and sorting removes the repeats at the end.
class GroupCollector {
public:
  void add(int tag, const std::int64_t* ids, int count, std::size_t nodeCount) {
    Group& group = groups_[tag];
    if (!group.started) {
      group.started = true;
      const std::size_t bytes = nodeCount / 8 + 1;
      if (bitmapBytes_ + bytes <= kBitmapBudget) {
        group.seen.assign(nodeCount, false);
        bitmapBytes_ += bytes;
      }
    }
    for (int i = 0; i < count; ++i) {
      if (!group.seen.empty()) {
        if (group.seen[ids[i]]) continue;
        group.seen[ids[i]] = true;
      }
      group.ids.push_back(ids[i]);
    }
  }

  std::map<int, std::vector<std::int64_t>> sortedGroups() {
    std::map<int, std::vector<std::int64_t>> result;
    for (auto& [tag, group] : groups_) {
      std::vector<std::int64_t>& ids = group.ids;
      std::sort(ids.begin(), ids.end());
      ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
      result[tag] = std::move(ids);
    }
    return result;
  }

private:
  static constexpr std::size_t kBitmapBudget = std::size_t(1) << 28;  // bytes
  struct Group {
    bool started = false;
    std::vector<bool> seen;
    std::vector<std::int64_t> ids;
  };
  std::map<int, Group> groups_;
  std::size_t bitmapBytes_ = 0;
};

class GmshParser {
public:
  GmshParser(const std::string& path, std::string text) : in_(path, std::move(text)) {}

  SerialMesh parse() {
    if (in_.atEnd()) in_.failFile("empty file: missing $MeshFormat");
    const std::string_view first = in_.word();
    if (first != "$MeshFormat")
      in_.fail("missing $MeshFormat (not a Gmsh mesh file?), found '" + excerpt(first) + "'");
    readMeshFormat();
    while (!in_.atEnd()) readSection();
    return finish();
  }

private:
  void readMeshFormat() {
    in_.enterSection("MeshFormat");
    const std::string_view version = in_.word();
    if (version == "2.2")
      version_ = 22;
    else if (version == "4.1")
      version_ = 41;
    else
      in_.fail("unsupported Gmsh format version '" + excerpt(version) + "' (supported: 2.2, 4.1)");
    const std::int64_t fileType = in_.readInt("file type");
    const std::int64_t dataSize = in_.readInt("data size");
    if (fileType != 0 && fileType != 1) in_.fail("file type must be 0 (ASCII) or 1 (binary)");
    // data-size is sizeof(double) in 2.2 and sizeof(size_t) in 4.1.
    const bool sizeOk = version_ == 22 ? dataSize == 8 : (dataSize == 4 || dataSize == 8);
    if (!sizeOk) in_.fail("unsupported data size " + std::to_string(dataSize));
    in_.setSizeWidth(static_cast<int>(dataSize));
    binary_ = fileType == 1;
    in_.setBinaryFile(binary_);
    if (binary_) readEndiannessMarker();
    in_.expectWord("$EndMeshFormat");
    in_.enterSection("");
  }

  // A binary file stores the int 1 in the writer's byte order.
  void readEndiannessMarker() {
    in_.skipLine();
    const std::int32_t marker = in_.rawInt32();
    if (marker == 0x01000000)
      in_.setByteSwap(true);
    else if (marker != 1)
      in_.fail("bad endianness marker " + std::to_string(marker) + " (expected 1)");
  }

  void readSection() {
    const std::string_view word = in_.word();
    if (word.size() < 2 || word[0] != '$' || word.substr(0, 4) == "$End")
      in_.fail("expected a section such as $Nodes, found '" + excerpt(word) + "'");
    const std::string name(word.substr(1));
    in_.enterSection(name);
    if (name == "PhysicalNames")
      readPhysicalNames();
    else if (name == "Entities" && version_ == 41)
      readEntities();
    else if (name == "Nodes")
      readNodes();
    else if (name == "Elements")
      readElements();
    else
      in_.skipToSectionEnd();  // $Comments, $Periodic, $NodeData, ...: nothing needed here
    in_.expectWord("$End" + name);
    in_.enterSection("");
  }

  // Binary payloads start after the newline that ends the text before them.
  void beginPayload() {
    if (!binary_) return;
    in_.skipLine();
    in_.setBinaryPayload(true);
  }

  void endPayload() { in_.setBinaryPayload(false); }

  void readPhysicalNames() {
    const std::int64_t count = in_.readInt("number of physical names");
    in_.guardCount(count, 3, "physical names");
    for (std::int64_t i = 0; i < count; ++i) {
      in_.readInt("physical dimension");
      const auto tag = static_cast<int>(in_.readInt("physical tag"));
      mesh_.groupNames[in_.quotedName()] = tag;
    }
  }

  // 4.1: which physical groups each geometric entity belongs to; elements inherit them.
  void readEntities() {
    beginPayload();
    std::array<std::int64_t, 4> counts{};
    for (auto& count : counts) count = in_.readSize("number of entities");
    for (int dim = 0; dim < 4; ++dim) {
      in_.guardCount(counts[dim], dim == 0 ? 5 : 9, "entities");
      for (std::int64_t i = 0; i < counts[dim]; ++i) readEntity(dim);
    }
    endPayload();
  }

  void readEntity(int dim) {
    const auto tag = static_cast<int>(in_.readInt("entity tag"));
    const int boxValues = dim == 0 ? 3 : 6;  // a point's coordinates, or a bounding box
    for (int i = 0; i < boxValues; ++i) in_.readReal("entity bounding box");
    const std::int64_t physicalCount = in_.readSize("number of physical tags");
    in_.guardCount(physicalCount, 1, "physical tags");
    std::vector<int> physicals(static_cast<std::size_t>(physicalCount));
    for (int& physical : physicals) physical = static_cast<int>(in_.readInt("physical tag"));
    entityPhysicals_[{dim, tag}] = std::move(physicals);
    if (dim == 0) return;
    const std::int64_t boundaryCount = in_.readSize("number of bounding entities");
    in_.guardCount(boundaryCount, 1, "bounding entities");
    for (std::int64_t i = 0; i < boundaryCount; ++i) in_.readInt("bounding entity tag");
  }

  void readNodes() {
    if (haveNodes_) in_.fail("second $Nodes section");
    haveNodes_ = true;
    if (version_ == 22)
      readNodes22();
    else
      readNodes41();
    const std::int64_t repeated = index_.build(nodeTags_);
    if (repeated >= 0)
      in_.fail("node " + std::to_string(repeated) + " repeats the tag " +
               std::to_string(nodeTags_[repeated]) + " of an earlier node");
  }

  void readNodes22() {
    const std::int64_t count = in_.readInt("number of nodes");
    beginPayload();
    in_.guardCount(count, 4, "nodes");
    nodeTags_.reserve(static_cast<std::size_t>(count));
    mesh_.nodes.reserve(static_cast<std::size_t>(count));
    for (std::int64_t i = 0; i < count; ++i) {
      nodeTags_.push_back(in_.readInt("node tag"));
      addNode(readPoint());
    }
    endPayload();
  }

  // 4.1: blocks per entity, each listing its node tags and then their coordinates.
  void readNodes41() {
    beginPayload();
    const std::int64_t blocks = in_.readSize("number of node blocks");
    const std::int64_t total = in_.readSize("number of nodes");
    in_.readSize("minimum node tag");
    in_.readSize("maximum node tag");
    in_.guardCount(blocks, 4, "node blocks");
    in_.guardCount(total, 4, "nodes");
    nodeTags_.reserve(static_cast<std::size_t>(total));
    mesh_.nodes.reserve(static_cast<std::size_t>(total));
    for (std::int64_t b = 0; b < blocks; ++b) {
      const std::int64_t dim = in_.readInt("entity dimension");
      in_.readInt("entity tag");
      const std::int64_t parametric = in_.readInt("parametric flag");
      const std::int64_t count = in_.readSize("number of nodes in block");
      if (dim < 0 || dim > 3) in_.fail("entity dimension " + std::to_string(dim) + " is not 0..3");
      if (parametric != 0 && parametric != 1) in_.fail("parametric flag must be 0 or 1");
      if (count > total - static_cast<std::int64_t>(nodeTags_.size()))
        in_.fail("node blocks hold more nodes than the " + std::to_string(total) + " announced");
      // Parametric nodes carry dim extra coordinates (u, v, w) after x, y, z.
      const int extra = parametric ? static_cast<int>(dim) : 0;
      for (std::int64_t i = 0; i < count; ++i) nodeTags_.push_back(in_.readSize("node tag"));
      for (std::int64_t i = 0; i < count; ++i) {
        addNode(readPoint());
        for (int e = 0; e < extra; ++e) in_.readReal("parametric coordinate");
      }
    }
    if (static_cast<std::int64_t>(nodeTags_.size()) != total)
      in_.fail("node blocks hold " + std::to_string(nodeTags_.size()) + " nodes, not the " +
               std::to_string(total) + " announced");
    endPayload();
  }

  std::array<double, 3> readPoint() {
    std::array<double, 3> point;
    point[0] = in_.readReal("x coordinate");
    point[1] = in_.readReal("y coordinate");
    point[2] = in_.readReal("z coordinate");
    return point;
  }

  // The node's tag is already in nodeTags_, at the node's position.
  void addNode(const std::array<double, 3>& point) {
    const std::size_t position = mesh_.nodes.size();
    if (nodeTags_[position] < 1) in_.fail(nodeName(position) + ": node tags must be positive");
    if (!std::isfinite(point[0]) || !std::isfinite(point[1]) || !std::isfinite(point[2]))
      in_.fail(nodeName(position) + " has a coordinate that is not finite (NaN or infinite)");
    mesh_.nodes.push_back(point);
  }

  std::string nodeName(std::size_t position) const {
    return "node " + std::to_string(position) + " (tag " + std::to_string(nodeTags_[position]) +
           ")";
  }

  void readElements() {
    if (!haveNodes_) in_.fail("$Elements before $Nodes");
    if (haveElements_) in_.fail("second $Elements section");
    haveElements_ = true;
    if (version_ == 41)
      readElements41();
    else if (binary_)
      readElements22Binary();
    else
      readElements22Ascii();
  }

  // 2.2 ASCII: one line per element, "tag type ntags tags... nodes...".
  void readElements22Ascii() {
    const std::int64_t count = in_.readInt("number of elements");
    in_.guardCount(count, 4, "elements");
    for (std::int64_t i = 0; i < count; ++i) {
      const std::int64_t tag = in_.readInt("element tag");
      const std::int64_t type = in_.readInt("element type");
      const std::int64_t tagCount = in_.readInt("number of tags");
      in_.guardCount(tagCount, 1, "element tags");
      readElement22Body(tag, type, tagCount);
    }
  }

  // 2.2 binary: blocks opened by (type, count, ntags), then per element: tag, tags, nodes.
  void readElements22Binary() {
    const std::int64_t count = in_.readInt("number of elements");
    beginPayload();
    in_.guardCount(count, 2, "elements");
    for (std::int64_t done = 0; done < count;) {
      const std::int64_t type = in_.readInt("element type");
      const std::int64_t blockCount = in_.readInt("number of elements in block");
      const std::int64_t tagCount = in_.readInt("number of tags");
      const int nodeCount = checkedNodeCount(type);
      if (blockCount < 1 || blockCount > count - done)
        in_.fail("element block of " + std::to_string(blockCount) + " elements overruns the " +
                 std::to_string(count) + " announced");
      in_.guardCount(tagCount, 1, "element tags");
      in_.guardCount(blockCount, 1 + tagCount + nodeCount, "elements");
      for (std::int64_t i = 0; i < blockCount; ++i)
        readElement22Body(in_.readInt("element tag"), type, tagCount);
      done += blockCount;
    }
    endPayload();
  }

  // In 2.2 the first of an element's tags is its physical group (0: none).
  void readElement22Body(std::int64_t tag, std::int64_t type, std::int64_t tagCount) {
    const int nodeCount = checkedNodeCount(type);
    int physical = 0;
    for (std::int64_t t = 0; t < tagCount; ++t) {
      const auto value = static_cast<int>(in_.readInt("element tag value"));
      if (t == 0) physical = value;
    }
    physicalScratch_.clear();
    if (physical != 0) physicalScratch_.push_back(physical);
    for (int j = 0; j < nodeCount; ++j) nodeBuffer_[j] = in_.readInt("element node tag");
    addElement(static_cast<int>(type), tag, nodeCount, physicalScratch_);
  }

  // 4.1: blocks per entity, "entityDim entityTag type count", then per element: tag, nodes.
  void readElements41() {
    beginPayload();
    const std::int64_t blocks = in_.readSize("number of element blocks");
    const std::int64_t total = in_.readSize("number of elements");
    in_.readSize("minimum element tag");
    in_.readSize("maximum element tag");
    in_.guardCount(blocks, 4, "element blocks");
    in_.guardCount(total, 2, "elements");
    std::int64_t done = 0;
    for (std::int64_t b = 0; b < blocks; ++b) {
      const auto dim = static_cast<int>(in_.readInt("entity dimension"));
      const auto entity = static_cast<int>(in_.readInt("entity tag"));
      const std::int64_t type = in_.readInt("element type");
      const std::int64_t count = in_.readSize("number of elements in block");
      const int nodeCount = checkedNodeCount(type);
      if (count > total - done)
        in_.fail("element blocks hold more elements than the " + std::to_string(total) +
                 " announced");
      in_.guardCount(count, 1 + nodeCount, "elements");
      const auto found = entityPhysicals_.find({dim, entity});
      const std::vector<int>& physicals =
          found == entityPhysicals_.end() ? noPhysicals_ : found->second;
      for (std::int64_t i = 0; i < count; ++i) {
        const std::int64_t tag = in_.readSize("element tag");
        for (int j = 0; j < nodeCount; ++j) nodeBuffer_[j] = in_.readSize("element node tag");
        addElement(static_cast<int>(type), tag, nodeCount, physicals);
      }
      done += count;
    }
    if (done != total)
      in_.fail("element blocks hold " + std::to_string(done) + " elements, not the " +
               std::to_string(total) + " announced");
    endPayload();
  }

  int checkedNodeCount(std::int64_t type) const {
    const int count = nodesPerElement(type);
    if (count == 0) in_.fail("unsupported element type " + std::to_string(type));
    return count;
  }

  // Turns the node tags in nodeBuffer_ into positions, keeps tetrahedra and triangles, counts
  // the others that no physical group holds, and adds the nodes to every physical group the element
  // belongs to.
  void addElement(int type, std::int64_t tag, int nodeCount, const std::vector<int>& physicals) {
    for (int j = 0; j < nodeCount; ++j) {
      const std::int64_t id = index_.find(nodeBuffer_[j]);
      if (id < 0)
        in_.fail("element " + std::to_string(elementCount_) + " (tag " + std::to_string(tag) +
                 "): node tag " + std::to_string(nodeBuffer_[j]) +
                 " is out of range (no node has this tag)");
      nodeBuffer_[j] = id;
    }
    // An element of another type is ignored, unless a physical group holds it: then it is a
    // selection of nodes (a clamped face), not something the mesh lost.
    const bool grouped = std::any_of(physicals.begin(), physicals.end(), [](int p) { return p; });
    const int firstPhysical = physicals.empty() ? 0 : physicals.front();
    if (type == kTetrahedron) {
      addTetrahedron(tag, firstPhysical);
    } else if (type == kTriangle) {
      mesh_.triangles.push_back({nodeBuffer_[0], nodeBuffer_[1], nodeBuffer_[2]});
      mesh_.triangleTags.push_back(firstPhysical);
    } else if (!grouped)
      ++skippedByType_[type];
    for (int physical : physicals)
      if (physical != 0) groups_.add(physical, nodeBuffer_.data(), nodeCount, mesh_.nodes.size());
    ++elementCount_;
  }

  void addTetrahedron(std::int64_t tag, int physical) {
    const std::array<std::int64_t, 4> tet = {nodeBuffer_[0], nodeBuffer_[1], nodeBuffer_[2],
                                             nodeBuffer_[3]};
    const std::string problem = degeneracy(tet);
    if (!problem.empty())
      in_.fail("tetrahedron " + std::to_string(mesh_.tets.size()) + " (element tag " +
               std::to_string(tag) + ") is degenerate: " + problem);
    mesh_.tets.push_back(tet);
    mesh_.tetTags.push_back(physical);
  }

  // Empty for a usable tetrahedron; otherwise what is wrong with it. Orientation is not
  // checked: negatively oriented tetrahedra are the caller's to count.
  std::string degeneracy(const std::array<std::int64_t, 4>& tet) const {
    for (int a = 0; a < 4; ++a)
      for (int b = a + 1; b < 4; ++b)
        if (tet[a] == tet[b]) return "node " + std::to_string(tet[a]) + " is repeated";
    std::array<std::array<double, 3>, 4> p;
    for (int a = 0; a < 4; ++a) p[a] = mesh_.nodes[tet[a]];
    double longest = 0;
    for (int a = 0; a < 4; ++a)
      for (int b = a + 1; b < 4; ++b)
        longest =
            std::max(longest, std::hypot(p[b][0] - p[a][0], p[b][1] - p[a][1], p[b][2] - p[a][2]));
    // The edges in units of the longest one, so the test does not depend on the mesh's units
    // and neither 1e-200 nor 1e200 coordinates under- or overflow.
    const auto edge = [&](int b) {
      return std::array<double, 3>{(p[b][0] - p[0][0]) / longest, (p[b][1] - p[0][1]) / longest,
                                   (p[b][2] - p[0][2]) / longest};
    };
    const auto e1 = edge(1), e2 = edge(2), e3 = edge(3);
    const double relativeSixVolume = e1[0] * (e2[1] * e3[2] - e2[2] * e3[1]) -
                                     e1[1] * (e2[0] * e3[2] - e2[2] * e3[0]) +
                                     e1[2] * (e2[0] * e3[1] - e2[1] * e3[0]);
    if (!std::isfinite(longest))
      return "its edges are too long for double precision (coordinates near 1e308)";
    if (std::abs(relativeSixVolume) <= 1e-12)
      return "zero volume (6V / longest edge^3 = " + std::to_string(relativeSixVolume) + ")";
    return {};
  }

  SerialMesh finish() {
    if (mesh_.tets.empty()) in_.failFile("no tetrahedra (element type 4) in the mesh");
    for (const auto& [type, count] : skippedByType_)
      mesh_.skippedElements[elementTypeName(type)] = count;
    mesh_.groupNodes = groups_.sortedGroups();
    return std::move(mesh_);
  }

  Cursor in_;
  int version_ = 0;  // 22 or 41
  bool binary_ = false;
  bool haveNodes_ = false;
  bool haveElements_ = false;
  SerialMesh mesh_;
  std::vector<std::int64_t> nodeTags_;  // Gmsh tag of each node, by position
  NodeIndex index_;
  std::map<std::pair<int, int>, std::vector<int>> entityPhysicals_;  // (dim, entity) -> tags
  const std::vector<int> noPhysicals_;
  std::vector<int> physicalScratch_;
  std::array<std::int64_t, kMaxNodesPerElement> nodeBuffer_{};
  std::map<int, std::int64_t> skippedByType_;
  GroupCollector groups_;
  std::int64_t elementCount_ = 0;  // elements read so far, for messages
};

}  // namespace

SerialMesh readGmsh(const std::string& path) {
  GmshParser parser(path, readWholeFile(path));
  return parser.parse();
}

}  // namespace eis
