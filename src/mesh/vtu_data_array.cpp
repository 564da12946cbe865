#include "vtu_data_array.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#ifdef EIS_HAVE_ZLIB
#include <zlib.h>
#endif

#include "eis/core/error.hpp"

namespace eis {
namespace {

int base64Value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

bool isSpace(char c) {
  return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

// Reads one DataArray; every error names the file, the array's line and its name.
template <class T>
class ArrayReader {
public:
  ArrayReader(const xml::Element& array, const VtuLayout& layout, const std::string& path)
      : array_(array), layout_(layout) {
    const xml::Attribute* name = array.attribute("Name");
    where_ = path + ":" + std::to_string(array.line) + ": DataArray" +
             (name ? " '" + name->value + "'" : std::string());
    const xml::Attribute* type = array.attribute("type");
    if (!type) fail("has no type attribute");
    type_ = type->value;
    valueBytes_ = typeBytes(type_);
    if (valueBytes_ == 0)
      fail("type '" + type_ + "' is not a number type (Int8..Int64, UInt8..UInt64, Float32, " +
           "Float64)");
  }

  [[noreturn]] void fail(const std::string& what) const { throw Error(where_ + ": " + what); }

  std::vector<T> read(const VtuAppended& appended) {
    const xml::Attribute* format = array_.attribute("format");
    const std::string mode = format ? format->value : "ascii";
    if (mode == "ascii") return readAscii();
    std::string bytes;
    if (mode == "binary") {
      if (!decodeBase64(array_.text, bytes)) fail("binary data is not valid base64");
      return convert(payload(bytes));
    }
    if (mode != "appended") fail("format '" + mode + "' is not ascii, binary or appended");
    if (!appended.present) fail("format is appended, but the file has no <AppendedData>");
    const xml::Attribute* offsetAttribute = array_.attribute("offset");
    if (!offsetAttribute) fail("format is appended, but it has no offset");
    std::uint64_t offset = 0;
    const std::string& text = offsetAttribute->value;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), offset);
    if (ec != std::errc() || end != text.data() + text.size() || offset > appended.bytes.size())
      fail("offset '" + text + "' does not lie in the " + std::to_string(appended.bytes.size()) +
           " bytes of <AppendedData>");
    const std::string_view tail = std::string_view(appended.bytes).substr(offset);
    if (!appended.base64) return convert(payload(tail));
    if (!decodeBase64(tail, bytes)) fail("appended data at offset " + text + " is not base64");
    return convert(payload(bytes));
  }

private:
  static int typeBytes(const std::string& type) {
    if (type == "Int8" || type == "UInt8") return 1;
    if (type == "Int16" || type == "UInt16") return 2;
    if (type == "Int32" || type == "UInt32" || type == "Float32") return 4;
    if (type == "Int64" || type == "UInt64" || type == "Float64") return 8;
    return 0;
  }

  std::vector<T> readAscii() const {
    std::vector<T> values;
    const std::string& text = array_.text;
    const char* at = text.data();
    const char* end = at + text.size();
    while (true) {
      while (at < end && isSpace(*at)) ++at;
      if (at == end) break;
      const char* next = at;
      T value{};
      if (type_ == "Float32" || type_ == "Float64") {
        // Float32 text is read as a float, as a reader of the declared type reads it.
        double real = 0;
        std::from_chars_result parsed{};
        if (type_ == "Float32") {
          float single = 0;
          parsed = std::from_chars(at, end, single);
          real = single;
        } else {
          parsed = std::from_chars(at, end, real);
        }
        next = parsed.ptr;
        const std::errc ec = parsed.ec;
        if (ec != std::errc() || (next < end && !isSpace(*next))) badToken(at);
        if constexpr (std::is_integral_v<T>) {
          if (real != std::floor(real) || std::abs(real) > 9e18) badToken(at);
        }
        value = static_cast<T>(real);
      } else {
        std::int64_t integer = 0;
        const auto parsed = std::from_chars(at, end, integer);
        next = parsed.ptr;
        if (parsed.ec != std::errc() || (next < end && !isSpace(*next))) badToken(at);
        value = static_cast<T>(integer);
      }
      values.push_back(value);
      at = next;
    }
    return values;
  }

  [[noreturn]] void badToken(const char* at) const {
    const char* end = array_.text.data() + array_.text.size();
    const char* stop = at;
    while (stop < end && !isSpace(*stop) && stop - at < 24) ++stop;
    fail("'" + std::string(at, stop) + "' is not a " + type_ + " value");
  }

  std::uint64_t headerValue(std::string_view bytes, std::size_t index) const {
    const std::size_t at = index * layout_.headerBytes;
    if (bytes.size() < at + layout_.headerBytes) fail("truncated header");
    std::array<unsigned char, 8> raw{};
    std::memcpy(raw.data(), bytes.data() + at, layout_.headerBytes);
    if (layout_.bigEndian) std::reverse(raw.begin(), raw.begin() + layout_.headerBytes);
    if (layout_.headerBytes == 4) {
      std::uint32_t value;
      std::memcpy(&value, raw.data(), 4);
      return value;
    }
    std::uint64_t value;
    std::memcpy(&value, raw.data(), 8);
    return value;
  }

  // The array's data bytes, after its header (and, compressed, after inflating its blocks).
  std::string payload(std::string_view bytes) const {
    if (!layout_.compressed) {
      const std::uint64_t size = headerValue(bytes, 0);
      if (size > bytes.size() - layout_.headerBytes)
        fail("header announces " + std::to_string(size) + " bytes, only " +
             std::to_string(bytes.size() - layout_.headerBytes) + " follow (truncated file)");
      return std::string(bytes.substr(layout_.headerBytes, size));
    }
#ifdef EIS_HAVE_ZLIB
    const std::uint64_t blocks = headerValue(bytes, 0);
    const std::uint64_t blockSize = headerValue(bytes, 1);
    const std::uint64_t lastSize = headerValue(bytes, 2);
    if (blocks > bytes.size() / layout_.headerBytes) fail("truncated compression header");
    std::size_t at = (3 + blocks) * layout_.headerBytes;
    std::string data;
    for (std::uint64_t b = 0; b < blocks; ++b) {
      const std::uint64_t compressed = headerValue(bytes, 3 + b);
      const std::uint64_t size = (b + 1 == blocks && lastSize != 0) ? lastSize : blockSize;
      if (at > bytes.size() || compressed > bytes.size() - at)
        fail("compressed block " + std::to_string(b) + " runs past the end of the data");
      // zlib inflates at most about 1032 to 1: a larger size is a corrupt header, refused
      // before it is allocated.
      if (size > 1032 * compressed + 64)
        fail("compressed block " + std::to_string(b) + " of " + std::to_string(compressed) +
             " bytes cannot inflate to " + std::to_string(size) + " (corrupt header)");
      std::string block(size, '\0');
      uLongf got = static_cast<uLongf>(size);
      const int status = uncompress(reinterpret_cast<Bytef*>(block.data()), &got,
                                    reinterpret_cast<const Bytef*>(bytes.data() + at),
                                    static_cast<uLong>(compressed));
      if (status != Z_OK || got != size)
        fail("compressed block " + std::to_string(b) + " does not inflate to its " +
             std::to_string(size) + " bytes (zlib status " + std::to_string(status) + ")");
      data += block;
      at += compressed;
    }
    return data;
#else
    fail("is zlib-compressed, and this build has no zlib (rebuild with zlib's headers installed)");
#endif
  }

  template <class Raw>
  T rawValue(const char* at) const {
    std::array<char, sizeof(Raw)> bytes;
    std::memcpy(bytes.data(), at, sizeof(Raw));
    if (layout_.bigEndian) std::reverse(bytes.begin(), bytes.end());
    Raw value;
    std::memcpy(&value, bytes.data(), sizeof(Raw));
    if constexpr (std::is_integral_v<T> && std::is_floating_point_v<Raw>) {
      if (value != std::floor(value) || std::abs(value) > 9e18)
        fail("holds a value that is not an integer id");
    }
    if constexpr (std::is_same_v<Raw, std::uint64_t>) {
      if (value > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
        fail("holds a value past 2^63");
    }
    return static_cast<T>(value);
  }

  std::vector<T> convert(const std::string& data) const {
    if (data.size() % valueBytes_ != 0)
      fail(std::to_string(data.size()) + " bytes are not a whole number of " + type_ + " values");
    std::vector<T> values(data.size() / valueBytes_);
    for (std::size_t i = 0; i < values.size(); ++i) {
      const char* at = data.data() + i * valueBytes_;
      if (type_ == "Int8")
        values[i] = rawValue<std::int8_t>(at);
      else if (type_ == "UInt8")
        values[i] = rawValue<std::uint8_t>(at);
      else if (type_ == "Int16")
        values[i] = rawValue<std::int16_t>(at);
      else if (type_ == "UInt16")
        values[i] = rawValue<std::uint16_t>(at);
      else if (type_ == "Int32")
        values[i] = rawValue<std::int32_t>(at);
      else if (type_ == "UInt32")
        values[i] = rawValue<std::uint32_t>(at);
      else if (type_ == "Int64")
        values[i] = rawValue<std::int64_t>(at);
      else if (type_ == "UInt64")
        values[i] = rawValue<std::uint64_t>(at);
      else if (type_ == "Float32")
        values[i] = rawValue<float>(at);
      else
        values[i] = rawValue<double>(at);
    }
    return values;
  }

  const xml::Element& array_;
  const VtuLayout& layout_;
  std::string where_;
  std::string type_;
  int valueBytes_ = 0;
};

}  // namespace

bool decodeBase64(std::string_view text, std::string& bytes) {
  bytes.clear();
  bytes.reserve(text.size() / 4 * 3);
  std::array<int, 4> group{};
  int filled = 0, padding = 0;
  for (char c : text) {
    if (isSpace(c)) continue;
    if (c == '=') {
      if (filled < 2) return false;
      group[filled++] = 0;
      ++padding;
    } else {
      const int value = base64Value(c);
      if (value < 0 || padding > 0) return false;
      group[filled++] = value;
    }
    if (filled < 4) continue;
    const unsigned triple = (unsigned(group[0]) << 18) | (unsigned(group[1]) << 12) |
                            (unsigned(group[2]) << 6) | unsigned(group[3]);
    const char decoded[3] = {char(triple >> 16), char(triple >> 8), char(triple)};
    bytes.append(decoded, 3 - padding);
    filled = 0;
    padding = 0;
  }
  return filled == 0;
}

template <class T>
std::vector<T> readDataArray(const xml::Element& array, const VtuLayout& layout,
                             const VtuAppended& appended, const std::string& path) {
  ArrayReader<T> reader(array, layout, path);
  return reader.read(appended);
}

template std::vector<double> readDataArray(const xml::Element&, const VtuLayout&,
                                           const VtuAppended&, const std::string&);
template std::vector<std::int64_t> readDataArray(const xml::Element&, const VtuLayout&,
                                                 const VtuAppended&, const std::string&);

}  // namespace eis
