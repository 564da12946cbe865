#pragma once
// What SOFA's number and index fields become in our keys' grammar, shared by the mappings of the
// components (io/sofa_masses.cpp, io/sofa_constraints.cpp, ...). Private to the SOFA importer.
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "sofa_reader.hpp"

namespace eis::sofa {

// values[from], ..., values[from + count - 1] as "a b c".
std::string joined(const std::vector<double>& values, std::size_t from, std::size_t count);
// A Vec3 field as "X Y Z"; another count is rejected.
std::string vector3(const Reader& reader, const SofaObject& o, const std::string& field);
// "indices i j k".
std::string indexList(const std::vector<long long>& indices);
// The box selection of the points strictly between dmin and dmax along an axis normal (axis 0..2,
// sign +-1), as SOFA's `dmin < dot(normal, p) < dmax` tests: each bound moved to the next double
// inside for our inclusive box; nothing when no double lies between them.
std::optional<std::string> axisSlab(int axis, double sign, double dmin, double dmax);

// BoxROI's aligned boxes (BoxROI.inl, init): `box`, 6 numbers each, "0 0 0 1 1 1" when it is not
// written, each corner pair put in order (min > max swapped). Its orientedBox is the caller's.
std::vector<std::array<double, 6>> alignedBoxes(const Reader& reader, const SofaObject& roi);
// BoxROI::isPointInAlignedBox over the boxes: in one of them, faces included (p < min or p > max
// in no coordinate).
bool inAlignedBoxes(const std::vector<std::array<double, 6>>& boxes,
                    const std::array<double, 3>& p);

// The selections a field of indices stands for. Inline, or a link to a BoxROI's, SphereROI's,
// PlaneROI's, PairBoxROI's or ProximityROI's (a nearest selection) indices, or to the output of a
// MergeVectors of such inputs (their selections one after the other), which become our box,
// oriented-box, sphere and plane selections: BoxROI (Engine/Select, BoxROI.inl) tests p >= min and
// p <= max in each component of the positions it is given (the rest positions), min > max swapped,
// and each orientedBox (p0 p1 p2 depth) as our oriented-box does, default box "0 0 0 1 1 1" when
// neither box nor orientedBox is set; PlaneROI (PlaneROI.inl) each plane (default one of ten zeros)
// as our plane does; PairBoxROI (PairBoxROI.inl) the points in inclusiveBox and not in includedBox,
// as our pair-box does; SphereROI keeps |p - c| <= r; our selections do exactly that. A ROI's
// `position` may be absent or link to the rest_position of the MechanicalObject in the constraint's
// node (the same positions); another is refused. Absent: `fallback`. `roiField`: the ROI's output
// the field may link to (triangleIndices: the triangles whose three vertices the same selection
// picks, BaseROI's strict test, read as node selections for a surface's boundary-triangles-in).
std::vector<std::string> selectionsOf(Reader& reader, const SofaObject& o, const std::string& field,
                                      const std::vector<std::string>& fallback,
                                      const std::string& roiField = "indices");

}  // namespace eis::sofa
