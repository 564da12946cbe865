// The force fields written in Python under euler-implicit --scene FILE.py: the callbacks of
// model/gathered_force_field computed by the controllers' python3 on rank 0 (io/
// python_controllers.hpp). Each call is one request carrying the gathered arrays as raw doubles
// and answered with the result's, broadcast to every rank: the same bits as the script's own
// process computes (python3 scene.py), on any number of ranks.
#include <cstdio>

#include "eis/core/error.hpp"

#include "eis/io/python_controllers.hpp"

namespace eis {

namespace {

class RemoteCallbacks : public NodalForceCallbacks {
public:
  RemoteCallbacks(PythonControllers& python, std::string path, bool stiffness)
      : python_(python), path_(std::move(path)), stiffness_(stiffness) {}

  std::string addForce(std::size_t nodes, int dofs, const double* x, const double* v,
                       double* f) override {
    const std::size_t size = nodes * std::size_t(dofs);
    numbers_.assign(x, x + size);
    numbers_.insert(numbers_.end(), v, v + size);
    return answer("force " + std::to_string(nodes) + " " + std::to_string(dofs) + " " + path_, size,
                  f, "addForce");
  }

  std::string addDForce(std::size_t nodes, int dofs, const double* dx, double* df,
                        double kFactor) override {
    const std::size_t size = nodes * std::size_t(dofs);
    char factor[32];
    std::snprintf(factor, sizeof factor, "%.17g", kFactor);
    numbers_.assign(dx, dx + size);
    return answer(
        "dforce " + std::to_string(nodes) + " " + std::to_string(dofs) + " " + factor + " " + path_,
        size, df, "addDForce");
  }

  bool hasStiffness() const override { return stiffness_; }

  std::string stiffness(std::size_t nodes, int dofs, std::vector<Entry>& entries) override {
    numbers_.clear();
    std::string failure = python_.call(
        "stiffness " + std::to_string(nodes) + " " + std::to_string(dofs) + " " + path_, numbers_,
        out_, path_ + " addKToMatrix");
    if (!failure.empty()) return failure;
    if (out_.size() % 3 != 0)
      return path_ + ": addKToMatrix: the entries are not rows (i, j, value)";
    for (std::size_t i = 0; i < out_.size(); i += 3)
      entries.push_back({std::int64_t(out_[i]), std::int64_t(out_[i + 1]), out_[i + 2]});
    return {};
  }

private:
  // The request `line` with numbers_, its answer of `size` numbers added to `out`.
  std::string answer(const std::string& line, std::size_t size, double* out, const char* method) {
    std::string failure = python_.call(line, numbers_, out_, path_ + " " + method);
    if (!failure.empty()) return failure;
    if (out_.size() != size)
      return path_ + ": " + method + " gave " + std::to_string(out_.size()) + " numbers for the " +
             std::to_string(size) + " unknowns of the body";
    for (std::size_t i = 0; i < size; ++i) out[i] += out_[i];
    return {};
  }

  PythonControllers& python_;
  std::string path_;
  bool stiffness_;
  std::vector<double> numbers_, out_;
};

}  // namespace

std::unique_ptr<NodalForceCallbacks> PythonControllers::forceField(const std::string& path) {
  std::vector<double> out;
  const std::string failure = call("field " + path, {}, out, path + " (finding the force field)");
  if (!failure.empty()) throw Error(failure);  // the same line on every rank
  if (out.empty()) return nullptr;
  return std::make_unique<RemoteCallbacks>(*this, path, out[0] != 0);
}

}  // namespace eis
