#pragma once
// SOFA's TransformPosition engine (Component/Engine/Transform) between a grid and the
// MechanicalObject whose position is its output_position, read as mesh.transform operations on
// the grid's points. Private to io/sofa_import.cpp.
#include <functional>
#include <string>

#include "sofa_reader.hpp"

namespace eis::sofa {

// The mesh.transform keys of TransformPosition::doUpdate's method: translation, rotation,
// scale (about `origin`), scaleTranslation, scaleRotationTranslation, affine (`matrix`) and
// fromFile (`filename`, its path from `findFile`, called only for that method: a .tfm, .trm,
// .xfm or .txt file read as SOFA reads it). projectOnPlane (SOFA's default method), random, an
// unknown method, fixedIndices, a matrix that is not affine (fourth row other than 0 0 0 1) and
// whatever SOFA's file readers report as an error are refused by name.
void mapTransformPosition(Reader& reader, const SofaObject& engine,
                          const std::function<std::string()>& findFile);

}  // namespace eis::sofa
