// SOFA's PolynomialSpringsForceField as interaction.polynomial-springs
// (model/interaction_springs.hpp), one key value a spring, held by object1's body
// (io/sofa_walk.cpp has checked that one solver integrates both objects).
#include <string>
#include <vector>

#include "sofa_reader.hpp"
#include "sofa_walk.hpp"

namespace eis::sofa {

namespace {

// PolynomialSpringsForceField.inl: spring i joins firstObjectPoints[i] of object1 to
// secondObjectPoints[i] of object2 (each object the context's state when not linked); with as
// many polynomialDegree values as springs, spring i takes the i-th polynomial (its degree's
// coefficients of polynomialStiffness, in order), else every spring the first; stiffness
// default 100, degree default 1. computeZeroLength = 1 (the default): the rest length is the
// distance at the first force evaluation, else zeroLength (one value for all, or one a
// spring). compressible false (the default): no force when shorter than the rest length.
void mapPolynomialSprings(Reader& r, const SofaObject& o) {
  const auto stateOf = [&](const char* field) {
    return o.field(field) ? linkedState(r, o, field) : contextState(o.node);
  };
  const SofaObject *first = stateOf("object1"), *second = stateOf("object2");
  const std::string target = first == second ? "self" : second->node->path();
  // recomputeIndices takes every point of an object without a list, which this importer does
  // not count.
  for (const char* field : {"firstObjectPoints", "secondObjectPoints"})
    if (r.integers(o, field).empty())
      r.reject(o, field, "every point of the object (no list) is not supported; list them");
  const std::vector<long long> points1 = r.integers(o, "firstObjectPoints"),
                               points2 = r.integers(o, "secondObjectPoints");
  if (points1.size() > points2.size())
    r.reject(o, "secondObjectPoints",
             "fewer than firstObjectPoints (SOFA then makes no spring and says it is an error)");
  std::vector<double> stiffness = r.reals(o, "polynomialStiffness");
  if (stiffness.empty()) stiffness = {100.0};
  std::vector<long long> degrees = r.integers(o, "polynomialDegree");
  if (degrees.empty()) degrees = {1};
  const bool each = degrees.size() == points1.size();
  std::vector<std::vector<double>> polynomials;
  std::size_t next = 0;
  for (long long degree : degrees) {
    if (next + std::size_t(degree) > stiffness.size())
      r.reject(o, "polynomialStiffness",
               "fewer coefficients than the degrees of polynomialDegree add up to");
    polynomials.emplace_back(stiffness.begin() + std::ptrdiff_t(next),
                             stiffness.begin() + std::ptrdiff_t(next + std::size_t(degree)));
    next += std::size_t(degree);
  }
  const bool initial = r.real(o, "computeZeroLength", 1) == 1;
  const std::vector<double> zero = r.reals(o, "zeroLength");
  if (!initial && zero.empty())
    r.reject(o, "zeroLength", "empty, with computeZeroLength other than 1");
  const std::string compressible = r.boolean(o, "compressible", false) ? "1" : "0";
  for (std::size_t i = 0; i < points1.size(); ++i) {
    if (!initial && zero.size() > 1 && i >= zero.size())
      r.reject(o, "zeroLength", "fewer values than springs");
    const double length = initial ? 0 : zero[zero.size() > 1 ? i : 0];
    std::string value =
        target + " " + std::to_string(points1[i]) + " " + std::to_string(points2[i]) + " " +
        (initial ? std::string("initial") : parse::text(length)) + " " + compressible;
    for (double c : polynomials[each ? i : 0]) value += " " + parse::text(c);
    r.key("interaction.polynomial-springs", value);
  }
}

}  // namespace

const RegisterSofaMapping polynomialSprings({"PolynomialSpringsForceField"}, mapPolynomialSprings);

}  // namespace eis::sofa
