#pragma once
// SOFA's QuadBendingSprings (SolidMechanics/Spring/QuadBendingSprings.inl), and its
// QuadularBendingSprings (so that a body may have them beside triangular-bending-springs), as the
// component quad-bending-springs: springs across the edges that quadrangles share, on a list of
// quadrangles every rank knows (a flat grid's, or the boundary quadrangles of a body of hexahedra),
// of any number of ranks (model/boundary_bending_springs lends the far vertex).
//
// QuadBendingSprings::init walks the quadrangles q in order and, in each, its edges
// (q0 q1), (q1 q2), (q2 q3), (q3 q0), each with the pair of its vertices' neighbours off the
// edge, (q3 q2), (q0 q3), (q1 q0), (q2 q1). The edge is sorted, and its pair swapped with it, so
// that the pair's first vertex lies beside the edge's lower vertex. The first quadrangle to meet
// an edge records its pair (e f); each later one, with pair (c d), adds the springs (c, e) and
// (d, f), unless a spring between the same two vertices, either way round, was added before.
// A spring's rest length is its vertices' rest distance; its law SpringForceField's:
//   F = ks (l - L0) + kd (v_b - v_a).u on (a, b) = (c, e), tangent ((ks - F/l) u u^T + F/l I),
// no force below 1e-9, the damping explicit (SpringForceField assembles no damping matrix).
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "eis/model/force_field.hpp"
#include "eis/model/triangular_fem.hpp"

namespace eis {

using QuadIds = std::array<std::int64_t, 4>;
using SpringIds = std::array<std::int64_t, 2>;

// QuadBendingSprings' springs (m1, m2) of `quads` (node ids), in the order SOFA adds them.
std::vector<SpringIds> quadBendingPairs(const std::vector<QuadIds>& quads);
// QuadularBendingSprings' (model/boundary_bending_springs): across each edge exactly two
// quadrangles hold, (t1[k1], t2[k2 + 3]) and (t1[k1 + 3], t2[k2]), t2 the first to hold it, its
// edge k joining its vertices k + 1 and k + 2; ordered by the first quadrangle and edge.
std::vector<SpringIds> quadularPairs(const std::vector<QuadIds>& quads);

enum class QuadBendingLaw { Quad, Quadular };
inline constexpr Named<QuadBendingLaw> kQuadBendingLaws[] = {
    {"quad", QuadBendingLaw::Quad}, {"quadular", QuadBendingLaw::Quadular}};

struct QuadBendingSpringsParameters {
  std::optional<double> stiffness;   // quad-bending.stiffness
  double damping;                    // quad-bending.damping
  QuadBendingLaw law;                // quad-bending.law
  BodyFaces faces;                   // quad-bending.faces, without quad-bending.quadrangles
  std::vector<QuadIds> quadrangles;  // quad-bending.quadrangles
};
QuadBendingSpringsParameters readQuadBendingSpringsParameters(const Parameters& scene);
// nullptr without quad-bending.stiffness. Collective.
std::unique_ptr<ForceField> makeQuadBendingSprings(const ModelContext& context,
                                                   const QuadBendingSpringsParameters& parameters);

}  // namespace eis
