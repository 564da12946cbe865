// What SOFA's index and vector fields become in our keys' grammar (io/sofa_selections.hpp).
#include "sofa_selections.hpp"

namespace eis::sofa {

std::string joined(const std::vector<double>& values, std::size_t from, std::size_t count) {
  std::string text;
  for (std::size_t i = from; i < from + count; ++i)
    text += (i == from ? "" : " ") + parse::text(values[i]);
  return text;
}

std::string vector3(const Reader& reader, const SofaObject& o, const std::string& field) {
  const std::vector<double> v = reader.reals(o, field);
  if (v.size() != 3) reader.reject(o, field, "expected 3 numbers");
  return joined(v, 0, 3);
}

std::string indexList(const std::vector<long long>& indices) {
  std::string text = "indices";
  for (long long i : indices) text += " " + std::to_string(i);
  return text;
}

std::vector<std::string> selectionsOf(const Reader& reader, const SofaObject& o,
                                      const std::string& field,
                                      const std::vector<std::string>& fallback) {
  std::string linkedField;
  if (const SofaObject* roi = reader.linked(o, field, &linkedField);
      roi && linkedField == "indices" && (roi->type == "BoxROI" || roi->type == "SphereROI")) {
    std::vector<std::string> selections;
    if (roi->type == "BoxROI") {
      reader.refuseIfGiven(*roi, "orientedBox", "oriented boxes are not supported yet");
      std::vector<double> boxes = reader.reals(*roi, "box");
      if (!reader.given(*roi, "box")) boxes = {0, 0, 0, 1, 1, 1};
      if (boxes.empty() || boxes.size() % 6 != 0)
        reader.reject(*roi, "box", "expected 6 numbers per box");
      for (std::size_t b = 0; b < boxes.size(); b += 6)
        selections.push_back("box " + joined(boxes, b, 6));
    } else {
      const std::vector<double> centers = reader.reals(*roi, "centers");
      const std::vector<double> radii = reader.reals(*roi, "radii");
      if (centers.empty() || centers.size() % 3 != 0 || radii.size() != centers.size() / 3)
        reader.reject(*roi, "centers", "expected 3 numbers per center and one radius each");
      for (std::size_t s = 0; s < radii.size(); ++s)
        selections.push_back("sphere " + joined(centers, 3 * s, 3) + " " + parse::text(radii[s]));
    }
    reader.refuseIfGiven(*roi, "position", "a BoxROI or SphereROI tests the rest positions here");
    return selections;
  }
  if (!reader.given(o, field)) return fallback;
  const std::vector<long long> indices = reader.integers(o, field);
  if (indices.empty()) return {};
  return {indexList(indices)};
}

}  // namespace eis::sofa
