#pragma once
// The engine's side of force fields written in Python (model/gathered_force_field): the
// callbacks that call a field's Python wrapper (src/io/python/eis_force_fields.py, FieldCalls)
// from inside a step, the interpreter's lock taken for each call.
#include <pybind11/pybind11.h>

#include "eis/model/gathered_force_field.hpp"

namespace eis::python {

// While it lives, the fields named by python.force-field are `lookup(path)` (a FieldCalls, or
// None for a path that names none): set around the making of a simulation.
class ForceFieldLookup {
public:
  explicit ForceFieldLookup(pybind11::object lookup);
  ~ForceFieldLookup();
  ForceFieldLookup(const ForceFieldLookup&) = delete;
  ForceFieldLookup& operator=(const ForceFieldLookup&) = delete;
};

}  // namespace eis::python
