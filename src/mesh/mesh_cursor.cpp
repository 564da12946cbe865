#include "mesh_cursor.hpp"

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <limits>

#include "eis/core/error.hpp"
#include "eis/core/input_file.hpp"

namespace eis {
namespace {

bool isSpace(char c) {
  return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\v' || c == '\f';
}

}  // namespace

std::string readMeshFileBytes(const std::string& path) {
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

std::string excerpt(std::string_view token) {
  constexpr std::size_t kMaxLength = 24;
  std::string out;
  for (char c : token.substr(0, kMaxLength)) out += (c >= 32 && c < 127) ? c : '?';
  if (token.size() > kMaxLength) out += "...";
  return out;
}

void Cursor::fail(const std::string& what) const {
  std::string where = path_;
  if (binaryFile_) {
    where += ": byte " + std::to_string(pos_);
  } else {
    where += ":" + std::to_string(1 + std::count(text_.begin(), text_.begin() + pos_, '\n'));
  }
  if (!section_.empty()) where += ": in " + section_;
  throw Error(where + ": " + what);
}

void Cursor::failFile(const std::string& what) const {
  throw Error(path_ + ": " + what);
}

void Cursor::failTruncated() const {
  fail("truncated file: unexpected end of file" +
       (endMarker_.empty() ? std::string() : " before " + endMarker_));
}

bool Cursor::atEnd() {
  skipSpace();
  return pos_ >= text_.size();
}

std::string_view Cursor::word() {
  skipSpace();
  if (pos_ >= text_.size()) failTruncated();
  const std::size_t start = pos_;
  while (pos_ < text_.size() && !isSpace(text_[pos_])) ++pos_;
  return std::string_view(text_).substr(start, pos_ - start);
}

void Cursor::expectWord(std::string_view expected) {
  const std::string_view found = word();
  if (found != expected)
    fail("expected " + std::string(expected) + ", found '" + excerpt(found) + "'");
}

std::string_view Cursor::line() {
  if (pos_ >= text_.size()) failTruncated();
  const std::size_t newline = text_.find('\n', pos_);
  const std::size_t end = newline == std::string::npos ? text_.size() : newline;
  std::string_view found = std::string_view(text_).substr(pos_, end - pos_);
  if (!found.empty() && found.back() == '\r') found.remove_suffix(1);
  pos_ = newline == std::string::npos ? text_.size() : newline + 1;
  return found;
}

void Cursor::skipLine() {
  const std::size_t newline = text_.find('\n', pos_);
  if (newline == std::string::npos) failTruncated();
  pos_ = newline + 1;
}

void Cursor::skipTo(std::string_view marker) {
  const std::size_t at = text_.find(marker, pos_);
  if (at == std::string::npos) failTruncated();
  pos_ = at;
}

void Cursor::skipBytes(std::size_t count) {
  if (text_.size() - pos_ < count) failTruncated();
  pos_ += count;
}

std::int64_t Cursor::readInt(const char* what) {
  if (binary_) return raw<std::int32_t>();
  const std::int64_t value = parseInteger(what);
  if (value < std::numeric_limits<std::int32_t>::min() ||
      value > std::numeric_limits<std::int32_t>::max())
    fail(std::string(what) + " " + std::to_string(value) + " does not fit in an int");
  return value;
}

std::int64_t Cursor::readSize(const char* what) {
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

double Cursor::readReal(const char* what) {
  if (binary_) return raw<double>();
  return textReal(what);
}

std::int64_t Cursor::textInteger(const char* what) {
  return parseInteger(what);
}

double Cursor::textReal(const char* what) {
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

double Cursor::textFloat(const char* what) {
  skipSpace();
  if (pos_ >= text_.size()) failTruncated();
  const char* begin = text_.data() + pos_;
  const char* end = text_.data() + text_.size();
  float value = 0;
  const auto [next, ec] = std::from_chars(begin, end, value);
  if (ec == std::errc::result_out_of_range)
    fail(std::string(what) + " is out of the range of float");
  expectNumberEnd(begin, next, ec == std::errc(), "a number", what);
  return value;
}

bool Cursor::nextWordIs(std::string_view expected) const {
  std::size_t at = pos_;
  while (at < text_.size() && isSpace(text_[at])) ++at;
  if (text_.compare(at, expected.size(), expected) != 0) return false;
  const std::size_t after = at + expected.size();
  return after == text_.size() || isSpace(text_[after]);
}

std::int32_t Cursor::rawInt32Unswapped() {
  const bool swap = swap_;
  swap_ = false;
  const auto value = raw<std::int32_t>();
  swap_ = swap;
  return value;
}

std::string Cursor::quotedName() {
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

void Cursor::guardCount(std::int64_t count, std::int64_t fieldsPerItem, const char* what,
                        int rawBytes) const {
  const std::int64_t left = static_cast<std::int64_t>(text_.size() - pos_);
  const std::int64_t minBytes = fieldsPerItem * (binary_ ? rawBytes : 2);
  if (count < 0 || count > left / minBytes)
    fail("count of " + std::string(what) + " (" + std::to_string(count) + ") cannot fit in the " +
         std::to_string(left) + " bytes left (truncated or corrupt file)");
}

void Cursor::skipSpace() {
  while (pos_ < text_.size() && isSpace(text_[pos_])) ++pos_;
}

std::string_view Cursor::peekToken() const {
  std::size_t end = pos_;
  while (end < text_.size() && !isSpace(text_[end])) ++end;
  return std::string_view(text_).substr(pos_, end - pos_);
}

// Integers dominate a mesh file, so the common case (at most 18 digits, which cannot overflow)
// is parsed by hand; longer ones go to std::from_chars, which checks the range.
std::int64_t Cursor::parseInteger(const char* what) {
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
void Cursor::expectNumberEnd(const char* begin, const char* next, bool parsed, const char* kind,
                             const char* what) {
  const char* end = text_.data() + text_.size();
  if (!parsed || next == begin || (next < end && !isSpace(*next)))
    fail("expected " + std::string(kind) + " (" + what + "), found '" + excerpt(peekToken()) + "'");
  pos_ = static_cast<std::size_t>(next - text_.data());
}

}  // namespace eis
