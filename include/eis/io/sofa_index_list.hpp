#pragma once
// SOFA's reading of the words of an index list (a data field of type vector<unsigned int>, such
// as FixedProjectiveConstraint's indices), per sofa::type::vector<unsigned int>::read in SOFA
// master's Sofa/framework/Type/src/sofa/type/vector_Integral.cpp.
#include <string>
#include <vector>

namespace eis {

// Appends the indices one word of the list stands for to `into`:
//   "7"        7
//   "A-B"      A, A+1, ..., B; or A, A-1, ..., B when B < A
//   "A-B-S"    from A towards B by steps of S (S may be negative: "10-0--2"); a step of 0 is
//              1 or -1; a step whose sign points away from B swaps A and B first, as SOFA does;
//              going down, B itself always ends the list even when it is off the step
//              ("10-2--3" is 10 7 4 2), again as SOFA does.
// Returns false, with why set, on what SOFA reports as an error (a negative or unparsable
// bound, a step that is no integer), on an empty part (which SOFA silently reads as 0), on a
// bound past 2^32 - 1, and on a word that expands past 10^7 indices (where SOFA's unsigned
// counter wraps around below 0 or above 2^32 - 1, it never stops).
bool expandSofaIndexWord(const std::string& word, std::vector<long long>& into, std::string& why);

}  // namespace eis
