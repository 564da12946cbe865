#pragma once
// Parameters a component declares for itself, as SOFA's initData and MOOSE's validParams do:
// each has a key ("section.name"), what --help shows for its value, a meaning, a default, a unit
// where one applies, and a check of its text. Values travel as text (one string per occurrence,
// as an INI file or a command line gives them) and are converted by typed getters, so that
// --help, the config file, the command line and the start-up report all read one declaration.
#include <array>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "eis/core/error.hpp"

namespace eis {

using Texts = std::vector<std::string>;

// An enumeration value beside its name; a table of these serves parsing and printing.
template <class T>
struct Named {
  const char* name;
  T value;
};

// Strict conversions of one value's text. Every error names it: "key = text: why".
namespace parse {
[[noreturn]] void reject(const std::string& key, const std::string& text, const std::string& why);
// The whitespace- or comma-separated tokens of a value.
Texts tokens(std::string text);
// The whole token is the number ("1e5x" fails); doubles must be finite.
bool number(const std::string& token, double& value);
bool number(const std::string& token, int& value);
bool number(const std::string& token, long long& value);
// Exactly `count` reals (or integers), or any count when `count` is 0.
std::vector<double> reals(const std::string& key, const std::string& text, std::size_t count);
std::vector<int> integers(const std::string& key, const std::string& text, std::size_t count);
bool boolean(const std::string& key, const std::string& text);
// Shortest text that reads back as the same double.
std::string text(double x);

template <class T, std::size_t N>
T choice(const std::string& key, const std::string& text, const Named<T> (&names)[N]) {
  std::string expected = "expected ";
  for (const Named<T>& n : names) {
    if (text == n.name) return n.value;
    expected += std::string(&n == names ? "" : " | ") + n.name;
  }
  reject(key, text, expected);
}

template <class T, std::size_t N>
std::string nameOf(T value, const Named<T> (&names)[N]) {
  for (const Named<T>& n : names)
    if (n.value == value) return n.name;
  throw Error("unnamed enumeration value");
}
}  // namespace parse

// How a value's text is checked; throws eis::Error naming the key.
using Check = std::function<void(const std::string& key, const std::string& text)>;

// Checks for the usual kinds of value.
namespace check {
Check real();                           // any finite number
Check positive();                       // > 0
Check nonNegative();                    // >= 0
Check above(double bound);              // > bound
Check within(double low, double high);  // in (low, high)
Check integerAtLeast(int least);
Check reals(std::size_t count);  // exactly `count` finite numbers
Check positives(std::size_t count);
Check integersAtLeast(std::size_t count, int least);
Check boolean();
Check nonEmpty();
Check anyText();
template <class T, std::size_t N>
Check choice(const Named<T> (&names)[N]) {
  return [&names](const std::string& key, const std::string& text) {
    parse::choice(key, text, names);
  };
}
}  // namespace check

struct ParameterDeclaration {
  ParameterDeclaration(std::string key, std::string arg, std::string help,
                       std::optional<std::string> defaultText, std::string unit, bool repeatable,
                       Check check, std::string defaultHelp = {})
      : key(std::move(key)),
        arg(std::move(arg)),
        help(std::move(help)),
        defaultText(std::move(defaultText)),
        unit(std::move(unit)),
        repeatable(repeatable),
        check(std::move(check)),
        defaultHelp(std::move(defaultHelp)) {}

  // Whether the value names a file or a path prefix (arg "PATH" or "PREFIX"): a config file's
  // relative value starts at the config file's folder.
  bool isPath() const { return arg == "PATH" || arg == "PREFIX"; }

  std::string key;   // "section.name"
  std::string arg;   // what --help shows after '=': "E", "\"GX GY GZ\"", "lumped|consistent"
  std::string help;  // the meaning, lines separated by '\n'
  std::optional<std::string> defaultText;  // none: absent unless given
  std::string unit;                        // empty where none applies
  bool repeatable;
  Check check;
  // --help's default where the declared one cannot say it (it depends on another parameter).
  std::string defaultHelp;
};

// The parameters of one component, in the order --help lists them.
class ParameterSpec {
public:
  ParameterSpec& add(ParameterDeclaration declaration);
  const std::vector<ParameterDeclaration>& declarations() const { return declarations_; }
  const ParameterDeclaration* find(const std::string& key) const;

private:
  std::vector<ParameterDeclaration> declarations_;
};

// A component's values: the texts given for its keys, read through its declarations (a key not
// given reads as its default). The keys and texts are checked when set.
class Parameters {
public:
  Parameters() = default;
  explicit Parameters(std::shared_ptr<const ParameterSpec> spec) : spec_(std::move(spec)) {}

  // Checks the text against the key's declaration and keeps it; throws eis::Error naming the
  // key for an unknown key, a bad value, or a second value of a key that is not repeatable.
  void set(const std::string& key, const std::string& text);
  void clear(const std::string& key) { given_.erase(key); }
  bool given(const std::string& key) const { return given_.count(key) > 0; }
  bool anyGiven() const { return !given_.empty(); }

  // The value as given, or the default; an error when it has neither.
  const std::string& text(const std::string& key) const;
  // The value of a key without a default (a path, say), or "" when it was not given.
  std::string optionalText(const std::string& key) const;
  // Every occurrence of a repeatable key (none: empty, whatever the default says).
  Texts texts(const std::string& key) const;
  double real(const std::string& key) const;
  int integer(const std::string& key) const;
  bool boolean(const std::string& key) const;
  std::vector<double> reals(const std::string& key) const;
  std::array<double, 3> real3(const std::string& key) const;
  std::array<int, 3> integer3(const std::string& key) const;
  template <class T, std::size_t N>
  T choice(const std::string& key, const Named<T> (&names)[N]) const {
    return parse::choice(key, text(key), names);
  }
  // The values to print back as INI text: given or default, every occurrence; none: absent.
  Texts shown(const std::string& key) const;
  const ParameterSpec& spec() const { return *spec_; }

private:
  const ParameterDeclaration& declaration(const std::string& key) const;

  std::shared_ptr<const ParameterSpec> spec_;
  std::map<std::string, Texts> given_;
};

}  // namespace eis
