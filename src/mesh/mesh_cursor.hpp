#pragma once
// The tokenizer every mesh reader walks its file with. Private to src/mesh.
//
// The whole file is read into memory and parsed with a cursor. Mesh files mix text and binary:
// section names and counts are text, while the payload of a binary file is raw values. The
// cursor's value readers therefore switch between text and raw bytes, so one parser serves
// both modes wherever a format lists the same fields in the same order.
//
// Every read is bounds-checked, and every count is checked against the bytes left in the file
// before anything is allocated for it, so a truncated or garbled file ends in eis::Error.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace eis {

// The bytes of a mesh file, after inputFileProblem's check; eis::Error naming the file when it
// cannot be read.
std::string readMeshFileBytes(const std::string& path);

// A short, printable excerpt of a token for error messages (binary garbage stays readable).
std::string excerpt(std::string_view token);

// Walks the file's bytes. Errors name the file and where it went wrong: the line in a text
// file, the byte offset in a binary one (line numbers mean nothing among raw bytes), and the
// section being read.
class Cursor {
public:
  Cursor(std::string path, std::string text) : path_(std::move(path)), text_(std::move(text)) {}

  void setBinaryFile(bool on) { binaryFile_ = on; }
  void setBinaryPayload(bool on) { binary_ = on; }
  bool binaryPayload() const { return binary_; }
  void setByteSwap(bool on) { swap_ = on; }
  void setSizeWidth(int bytes) { sizeWidth_ = bytes; }
  // `label` is what errors say is being read ("$Nodes", "POINTS"); `endMarker` the token that
  // closes it, named when the file ends before it ("" when nothing closes it).
  void enterSection(std::string label, std::string endMarker) {
    section_ = std::move(label);
    endMarker_ = std::move(endMarker);
  }
  void leaveSection() { enterSection("", ""); }

  const std::string& path() const { return path_; }
  std::size_t position() const { return pos_; }
  std::size_t size() const { return text_.size(); }
  std::string_view rest() const { return std::string_view(text_).substr(pos_); }

  [[noreturn]] void fail(const std::string& what) const;
  // For verdicts about the whole file, where no position helps.
  [[noreturn]] void failFile(const std::string& what) const;
  [[noreturn]] void failTruncated() const;

  // True at the end of the file, after skipping whitespace.
  bool atEnd();
  // The next whitespace-delimited text token.
  std::string_view word();
  void expectWord(std::string_view expected);
  // The rest of the current line, without its line break; the cursor moves past it.
  std::string_view line();
  // Moves past the end of the current line: raw payloads start right after a newline.
  void skipLine();
  // Moves to the next occurrence of `marker` (the end of a section this reader does not need).
  void skipTo(std::string_view marker);
  // Moves by `count` bytes, which must lie in the file.
  void skipBytes(std::size_t count);

  // A 32-bit integer: text, or 4 raw bytes.
  std::int64_t readInt(const char* what);
  // A non-negative size: text, or raw bytes as wide as setSizeWidth says.
  std::int64_t readSize(const char* what);
  // A double: text, or 8 raw bytes.
  double readReal(const char* what);
  // A whole text integer, whatever the payload mode.
  std::int64_t textInteger(const char* what);
  // A text number, whatever the payload mode.
  double textReal(const char* what);
  // A text number parsed as a float (a file that declares its values float), as a double.
  double textFloat(const char* what);
  // Whether the next text token is `expected`; the cursor does not move.
  bool nextWordIs(std::string_view expected) const;

  // A raw value in the file's byte order (setByteSwap).
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

  // The endianness marker of a binary file, read as the bytes lie.
  std::int32_t rawInt32Unswapped();

  // A double-quoted name on the current line.
  std::string quotedName();

  // Rejects a count that cannot fit in the rest of the file, before anything is allocated for
  // it: each item takes at least `fieldsPerItem` values of `rawBytes` raw bytes (4 unless told),
  // or of a digit and a separator in text.
  void guardCount(std::int64_t count, std::int64_t fieldsPerItem, const char* what,
                  int rawBytes = 4) const;

private:
  void skipSpace();
  std::string_view peekToken() const;
  std::int64_t parseInteger(const char* what);
  void expectNumberEnd(const char* begin, const char* next, bool parsed, const char* kind,
                       const char* what);

  std::string path_;
  std::string text_;
  std::size_t pos_ = 0;
  std::string section_;
  std::string endMarker_;
  bool binaryFile_ = false;
  bool binary_ = false;
  bool swap_ = false;
  int sizeWidth_ = 8;
};

}  // namespace eis
