// Helpers shared by setup_py_test.cpp and the test files split from it (setup_py_*_test.cpp).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "analyzer/frontends/python/setup_py.h"

namespace cudalint::python::test_support {

inline std::string_view at(std::string_view text, Span s) {
  if (s.begin > s.end || s.end > text.size()) return "<bad span>";
  return text.substr(s.begin, s.end - s.begin);
}

inline std::vector<std::string> values(const StrList& l) {
  std::vector<std::string> out;
  for (const auto& s : l.items) out.push_back(s.value);
  return out;
}

inline const Str* item(const StrList& l, std::string_view v) {
  for (const auto& s : l.items)
    if (s.value == v) return &s;
  return nullptr;
}

inline const EnvSetting* env(const SetupPy& s, std::string_view var, EnvSetting::Kind k) {
  for (const auto& e : s.env)
    if (e.var == var && e.kind == k) return &e;
  return nullptr;
}

using Strings = std::vector<std::string>;

}  // namespace cudalint::python::test_support
