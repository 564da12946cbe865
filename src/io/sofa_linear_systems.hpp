#pragma once
// The linear systems a CompositeLinearSystem assembles only for what reads them
// (io/sofa_linear_systems.cpp). Private to io/sofa_import.cpp.
#include "eis/io/sofa_import.hpp"
#include "sofa_reader.hpp"

namespace eis::sofa {

// Fills out.readerSystems from the scene's MatrixLinearSystems that a CompositeLinearSystem
// assembles beside the one it solves with some switch false, once out.objects holds every body,
// and takes them out of the bodies' matrices.systems (the body's solve does not assemble them).
void readerSystems(Reader& r, SofaImport& out);

}  // namespace eis::sofa
