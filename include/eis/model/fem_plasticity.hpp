#pragma once
// The plasticity of SOFA's TetrahedronFEMForceField (plasticMaxThreshold, plasticYieldThreshold,
// plasticCreep; after Mueller and Gross, "Interactive Virtual Materials", GI 2004), applied by
// the corotational element (model/corotational_fem.hpp) to each element's strain at every force
// evaluation.
//
// SOFA's strain is its J^T D: the Voigt strain (engineering shears, xx yy zz xy yz zx) of the
// corotated displacement rest minus current, times 6 V, since its J holds the unscaled
// cofactors. Each element keeps a plastic strain P, zero at first. With E that scaled strain:
//   if |E - P| > yield:  P += creep (E - P)
//   if |P| > max:        P *= max / |P|
// and the force is that of E - P; |.| is the 2-norm of the six components. The tangent stays
// the elastic one, and so do SOFA's energy and von Mises stress. Here P is kept in strain units
// (divided by 6 |V|) and the two norms scaled back, so the thresholds keep SOFA's units.
#include "eis/model/isotropic_elasticity.hpp"

namespace eis {

struct Plasticity {
  double maxThreshold = 0;       // plasticMaxThreshold: 0 turns plasticity off
  double yieldThreshold = 1e-4;  // plasticYieldThreshold
  double creep = 0.9;            // plasticCreep
  bool enabled() const { return maxThreshold > 0; }
};

// Updates one element's plastic strain from its total strain (both in strain units; scale is
// 6 |V|, SOFA's factor) and returns the elastic strain total - plastic the force takes.
Voigt plasticUpdate(const Plasticity& plasticity, double scale, const Voigt& total, Voigt& plastic);

}  // namespace eis
