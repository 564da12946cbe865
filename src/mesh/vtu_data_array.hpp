#pragma once
// The values of one <DataArray> of a .vtu file, whatever its format: ascii (text in the
// element), binary (base64 in the element) or appended (at an offset in <AppendedData>, raw or
// base64), uncompressed or zlib-compressed. Private to src/mesh.
//
// A binary or appended array is a header of header_type integers, then the data: uncompressed,
// the header is the data's byte count; compressed, it is (blocks, block size, size of the last
// block, compressed size of each block) and the blocks follow. VTK base64-encodes the header and
// the data separately (each padded); the decoder reads padded pieces one after the other, so it
// takes both that and one piece for the whole.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "eis/core/xml.hpp"

namespace eis {

// What <VTKFile> says about every array in the file.
struct VtuLayout {
  bool bigEndian = false;
  int headerBytes = 4;  // header_type UInt32 (VTK's default) or UInt64
  bool compressed = false;
};

// The content of <AppendedData> after its '_' marker.
struct VtuAppended {
  std::string bytes;
  bool base64 = false;
  bool present = false;
};

// The values of `array` converted to T (double or std::int64_t); `path` names the file in errors,
// with the array's line and name.
template <class T>
std::vector<T> readDataArray(const xml::Element& array, const VtuLayout& layout,
                             const VtuAppended& appended, const std::string& path);

// Base64 text (white space ignored) as bytes; padded pieces may follow one another. Returns
// false on a character that is not base64.
bool decodeBase64(std::string_view text, std::string& bytes);

}  // namespace eis
