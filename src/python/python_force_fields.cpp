#include "python_force_fields.hpp"

#include <pybind11/numpy.h>

#include <algorithm>
#include <memory>
#include <string>
#include <utility>

namespace py = pybind11;

namespace eis::python {

namespace {

using Array = py::array_t<double, py::array::c_style | py::array::forcecast>;

// A copy of `nodes` rows of `dofs` values as a numpy array.
Array rows(std::size_t nodes, int dofs, const double* values) {
  Array out({py::ssize_t(nodes), py::ssize_t(dofs)});
  std::copy_n(values, nodes * std::size_t(dofs), out.mutable_data());
  return out;
}

// The failure line the wrapper raised (eis_force_fields.FieldFailure), else Python's own text.
std::string failureOf(py::error_already_set& e) {
  std::string line = py::str(e.value());
  if (line.empty()) line = e.what();
  return line;
}

// Copies the field's answer into `out`, refusing an array of another shape.
std::string copyRows(const py::handle& answer, std::size_t nodes, int dofs, double* out,
                     const char* what) {
  const Array values = Array::ensure(answer);
  if (!values || values.ndim() != 2 || std::size_t(values.shape(0)) != nodes ||
      values.shape(1) != dofs)
    return std::string(what) + " gave an array that is not " + std::to_string(nodes) + " x " +
           std::to_string(dofs);
  std::copy_n(values.data(), nodes * std::size_t(dofs), out);
  return {};
}

class PythonCallbacks : public NodalForceCallbacks {
public:
  explicit PythonCallbacks(py::object calls)
      : calls_(std::move(calls)), stiffness_(calls_.attr("has_stiffness").cast<bool>()) {}
  ~PythonCallbacks() override {
    py::gil_scoped_acquire locked;
    calls_ = py::object();
  }

  std::string addForce(std::size_t nodes, int dofs, const double* x, const double* v,
                       double* f) override {
    py::gil_scoped_acquire locked;
    try {
      return copyRows(calls_.attr("add_force")(rows(nodes, dofs, x), rows(nodes, dofs, v)), nodes,
                      dofs, f, "addForce");
    } catch (py::error_already_set& e) {
      return failureOf(e);
    }
  }

  std::string addDForce(std::size_t nodes, int dofs, const double* dx, double* df,
                        double kFactor) override {
    py::gil_scoped_acquire locked;
    try {
      return copyRows(calls_.attr("add_dforce")(rows(nodes, dofs, dx), kFactor), nodes, dofs, df,
                      "addDForce");
    } catch (py::error_already_set& e) {
      return failureOf(e);
    }
  }

  bool hasStiffness() const override { return stiffness_; }

  std::string stiffness(std::size_t nodes, int dofs, std::vector<Entry>& entries) override {
    py::gil_scoped_acquire locked;
    try {
      const Array triplets = Array::ensure(calls_.attr("stiffness")(nodes, dofs));
      if (!triplets || triplets.ndim() != 2 || triplets.shape(1) != 3)
        return "addKToMatrix: the entries are not rows (i, j, value)";
      const auto t = triplets.unchecked<2>();
      for (py::ssize_t i = 0; i < t.shape(0); ++i)
        entries.push_back({std::int64_t(t(i, 0)), std::int64_t(t(i, 1)), t(i, 2)});
      return {};
    } catch (py::error_already_set& e) {
      return failureOf(e);
    }
  }

private:
  py::object calls_;
  bool stiffness_;
};

}  // namespace

ForceFieldLookup::ForceFieldLookup(py::object lookup) {
  if (lookup.is_none()) return;
  auto shared = std::make_shared<py::object>(std::move(lookup));
  setGatheredForceFieldMaker(
      [shared](const std::string& path) -> std::unique_ptr<NodalForceCallbacks> {
        py::gil_scoped_acquire locked;
        py::object calls = (*shared)(path);
        if (calls.is_none()) return nullptr;
        return std::make_unique<PythonCallbacks>(std::move(calls));
      });
}

ForceFieldLookup::~ForceFieldLookup() {
  setGatheredForceFieldMaker(nullptr);
}

}  // namespace eis::python
