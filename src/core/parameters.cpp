#include "eis/core/parameters.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <sstream>
#include <system_error>
#include <type_traits>

namespace eis {

namespace parse {

void reject(const std::string& key, const std::string& text, const std::string& why) {
  // The value as typed, but never a control byte or a megabyte of it in the error line.
  throw Error(key + " = " + (text.empty() ? "\"\"" : printable(text, 80)) + ": " + why);
}

Texts tokens(std::string text) {
  std::replace(text.begin(), text.end(), ',', ' ');
  std::istringstream in(text);
  Texts result;
  for (std::string token; in >> token;) result.push_back(token);
  return result;
}

namespace {
template <class T>
bool convert(const std::string& token, T& value) {
  const char* end = token.data() + token.size();
  const auto [ptr, ec] = std::from_chars(token.data(), end, value);
  if (ec != std::errc() || ptr != end) return false;
  if constexpr (std::is_floating_point_v<T>) return std::isfinite(value);
  return true;
}

// Why an integer token that convert() refused was refused: a well-formed integer past int's
// range is named as such, not as something other than an integer.
std::string notAnInteger(const std::string& token) {
  long long wide;
  const char* end = token.data() + token.size();
  const auto [ptr, ec] = std::from_chars(token.data(), end, wide);
  const bool digits = ptr == end && (ec == std::errc() || ec == std::errc::result_out_of_range);
  if (!digits) return "' is not an integer";
  return "' is out of range: integers here lie between " +
         std::to_string(std::numeric_limits<int>::min()) + " and " +
         std::to_string(std::numeric_limits<int>::max());
}

template <class T>
std::vector<T> list(const std::string& key, const std::string& text, std::size_t count) {
  constexpr bool real = std::is_floating_point_v<T>;
  const Texts words = tokens(text);
  if (count != 0 && words.size() != count)
    reject(key, text,
           "expected " + std::to_string(count) + (real ? " number" : " integer") +
               (count == 1 ? "" : "s") + ", got " + std::to_string(words.size()));
  std::vector<T> result(words.size());
  for (std::size_t i = 0; i < words.size(); ++i)
    if (!convert(words[i], result[i]))
      reject(key, text,
             "'" + printable(words[i], 40) +
                 (real ? "' is not a finite number" : notAnInteger(words[i])));
  return result;
}
}  // namespace

bool number(const std::string& token, double& value) {
  return convert(token, value);
}
bool number(const std::string& token, int& value) {
  return convert(token, value);
}
bool number(const std::string& token, long long& value) {
  return convert(token, value);
}

std::vector<double> reals(const std::string& key, const std::string& text, std::size_t count) {
  return list<double>(key, text, count);
}

std::vector<int> integers(const std::string& key, const std::string& text, std::size_t count) {
  return list<int>(key, text, count);
}

bool boolean(const std::string& key, const std::string& text) {
  std::string word = text;
  std::transform(word.begin(), word.end(), word.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (const char* yes : {"true", "1", "yes", "on"})
    if (word == yes) return true;
  for (const char* no : {"false", "0", "no", "off"})
    if (word == no) return false;
  reject(key, text, "expected true | false | 1 | 0 | yes | no | on | off");
}

std::string text(double x) {
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, x);
  return std::string(buffer, result.ptr);
}

}  // namespace parse

namespace check {

namespace {
// A check of one number against a condition, with the condition's wording.
Check bounded(std::function<bool(double)> ok, std::string why) {
  return
      [ok = std::move(ok), why = std::move(why)](const std::string& key, const std::string& text) {
        if (!ok(parse::reals(key, text, 1)[0])) parse::reject(key, text, why);
      };
}
}  // namespace

Check real() {
  return [](const std::string& key, const std::string& text) { parse::reals(key, text, 1); };
}
Check positive() {
  return bounded([](double x) { return x > 0; }, "must be > 0");
}
Check nonNegative() {
  return bounded([](double x) { return x >= 0; }, "must be >= 0");
}
Check above(double bound) {
  return bounded([bound](double x) { return x > bound; }, "must be > " + parse::text(bound));
}
Check within(double low, double high) {
  return bounded([low, high](double x) { return x > low && x < high; },
                 "must be in (" + parse::text(low) + ", " + parse::text(high) + ")");
}
Check integerAtLeast(int least) {
  return [least](const std::string& key, const std::string& text) {
    if (parse::integers(key, text, 1)[0] < least)
      parse::reject(key, text, "must be >= " + std::to_string(least));
  };
}
Check reals(std::size_t count) {
  return
      [count](const std::string& key, const std::string& text) { parse::reals(key, text, count); };
}
Check positives(std::size_t count) {
  return [count](const std::string& key, const std::string& text) {
    const auto values = parse::reals(key, text, count);
    if (std::any_of(values.begin(), values.end(), [](double x) { return !(x > 0); }))
      parse::reject(key, text, "each must be > 0");
  };
}
Check integersAtLeast(std::size_t count, int least) {
  return [count, least](const std::string& key, const std::string& text) {
    const auto values = parse::integers(key, text, count);
    if (std::any_of(values.begin(), values.end(), [least](int n) { return n < least; }))
      parse::reject(key, text, "each must be >= " + std::to_string(least));
  };
}
Check boolean() {
  return [](const std::string& key, const std::string& text) { parse::boolean(key, text); };
}
Check nonEmpty() {
  return [](const std::string& key, const std::string& text) {
    if (text.empty()) parse::reject(key, text, "must not be empty");
  };
}
Check anyText() {
  return [](const std::string&, const std::string&) {};
}

}  // namespace check

ParameterSpec& ParameterSpec::add(ParameterDeclaration declaration) {
  if (find(declaration.key)) throw Error("parameter " + declaration.key + " declared twice");
  declarations_.push_back(std::move(declaration));
  return *this;
}

const ParameterDeclaration* ParameterSpec::find(const std::string& key) const {
  for (const auto& d : declarations_)
    if (d.key == key) return &d;
  return nullptr;
}

const ParameterDeclaration& Parameters::declaration(const std::string& key) const {
  const ParameterDeclaration* d = spec_ ? spec_->find(key) : nullptr;
  if (!d) throw Error("unknown parameter " + key);
  return *d;
}

void Parameters::set(const std::string& key, const std::string& text) {
  const ParameterDeclaration& d = declaration(key);
  d.check(key, text);
  Texts& values = given_[key];
  if (!d.repeatable && !values.empty()) throw Error(key + ": given more than once");
  values.push_back(text);
}

const std::string& Parameters::text(const std::string& key) const {
  const ParameterDeclaration& d = declaration(key);
  if (auto it = given_.find(key); it != given_.end()) return it->second.front();
  if (!d.defaultText) throw Error(key + ": no value given and no default");
  return *d.defaultText;
}

std::string Parameters::optionalText(const std::string& key) const {
  declaration(key);
  auto it = given_.find(key);
  return it == given_.end() ? std::string() : it->second.front();
}

Texts Parameters::texts(const std::string& key) const {
  declaration(key);
  auto it = given_.find(key);
  return it == given_.end() ? Texts{} : it->second;
}

double Parameters::real(const std::string& key) const {
  return parse::reals(key, text(key), 1)[0];
}

int Parameters::integer(const std::string& key) const {
  return parse::integers(key, text(key), 1)[0];
}

bool Parameters::boolean(const std::string& key) const {
  return parse::boolean(key, text(key));
}

std::vector<double> Parameters::reals(const std::string& key) const {
  return parse::reals(key, text(key), 0);
}

std::array<double, 3> Parameters::real3(const std::string& key) const {
  const auto v = parse::reals(key, text(key), 3);
  return {v[0], v[1], v[2]};
}

std::array<int, 3> Parameters::integer3(const std::string& key) const {
  const auto v = parse::integers(key, text(key), 3);
  return {v[0], v[1], v[2]};
}

Texts Parameters::shown(const std::string& key) const {
  const ParameterDeclaration& d = declaration(key);
  if (auto it = given_.find(key); it != given_.end()) return it->second;
  if (d.repeatable || !d.defaultText) return {};
  return {*d.defaultText};
}

}  // namespace eis
