// CMake front-end, evaluator internals: compiler flags (cmake_flags.h).
#include "analyzer/frontends/cmake/cmake_flags.h"

#include <algorithm>
#include <iterator>

#include "analyzer/frontends/cmake/cmake_text.h"

namespace cudalint::cmake::detail {

std::string strip_genex(std::string_view s, bool* dropped) {
  struct G {
    std::string head, body;
    bool in_body = false, head_genex = false;
  };
  std::vector<G> st;
  std::string out;
  auto sink = [&]() -> std::string& { return st.empty() ? out : st.back().in_body ? st.back().body : st.back().head; };
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '$' && i + 1 < s.size() && s[i + 1] == '<') {
      st.emplace_back();
      ++i;
      continue;
    }
    if (st.empty()) {
      out += c;
      continue;
    }
    G& g = st.back();
    if (!g.in_body && c == ':') {
      g.in_body = true;
      continue;
    }
    if (c == '>') {
      G done = std::move(st.back());
      st.pop_back();
      static constexpr std::string_view kPass[] = {"1",          "BUILD_INTERFACE", "INSTALL_INTERFACE",
                                                   "LINK_ONLY",  "COMPILE_ONLY",    "BUILD_LOCAL_INTERFACE",
                                                   "HOST_LINK", "DEVICE_LINK"};
      bool pass = done.in_body && (done.head_genex || std::find(std::begin(kPass), std::end(kPass), done.head) !=
                                                          std::end(kPass));
      bool in_head = !st.empty() && !st.back().in_body;  // a condition's part, not text
      if (in_head) st.back().head_genex = true;
      if (pass) sink() += done.body;
      else if (dropped && !in_head) *dropped = true;
      continue;
    }
    sink() += c;
  }
  while (!st.empty()) {  // unterminated: keep it as written
    G g = std::move(st.back());
    st.pop_back();
    sink() += "$<" + g.head + (g.in_body ? ":" + g.body : "");
  }
  return out;
}

// Flags that take their value as the next word when not written with `=`.
static bool takes_next(std::string_view t) {
  return t == "-gencode" || t == "--generate-code" || t == "-arch" || t == "--gpu-architecture" || t == "-D";
}

std::vector<Tok> flag_units(const std::vector<std::pair<std::string, size_t>>& pieces) {
  std::vector<Tok> words;
  for (const auto& [text, src] : pieces) {
    std::string s = strip_genex(text);
    std::string cur;
    auto flush = [&] {
      std::string_view w = cur;
      if (w.starts_with("SHELL:")) w.remove_prefix(6);
      for (std::string_view p : {"-Xcompiler=", "--compiler-options="})
        if (w.starts_with(p)) {
          w.remove_prefix(p.size());
          size_t b = 0;
          while (b <= w.size()) {
            size_t e = w.find(',', b);
            if (e == std::string_view::npos) e = w.size();
            if (e > b) words.push_back({std::string(w.substr(b, e - b)), src});
            b = e + 1;
          }
          w = {};
        }
      if (!w.empty()) words.push_back({std::string(w), src});
      cur.clear();
    };
    for (size_t i = 0; i < s.size(); ++i) {
      char c = s[i];
      if (c == '\\' && i + 1 < s.size() && s[i + 1] == ';') continue;
      if (is_space(c) || c == ';') {
        flush();
      } else {
        cur += c;
      }
    }
    flush();
  }
  std::vector<Tok> out;
  for (size_t i = 0; i < words.size(); ++i) {
    if (takes_next(words[i].text) && i + 1 < words.size()) {
      out.push_back({words[i].text + " " + words[i + 1].text, words[i].src});
      ++i;
    } else {
      out.push_back(words[i]);
    }
  }
  return out;
}

bool is_arch_flag(std::string_view t) {
  for (std::string_view p : {"-gencode", "--generate-code", "-arch", "--gpu-architecture"})
    if (t.starts_with(p) && (t.size() == p.size() || t[p.size()] == '=' || t[p.size()] == ' ')) return true;
  return false;
}

std::optional<std::string> abi_value(std::string_view t, bool need_dash) {
  if (t.starts_with("-D") || t.starts_with("/D")) {
    t.remove_prefix(2);
    while (!t.empty() && t[0] == ' ') t.remove_prefix(1);
  } else if (need_dash) {
    return std::nullopt;
  }
  if (!t.starts_with(kAbiMacro) || t.size() != kAbiMacro.size() + 2 || t[kAbiMacro.size()] != '=') return std::nullopt;
  char v = t.back();
  if (v != '0' && v != '1') return std::nullopt;
  return std::string(1, v);
}

}  // namespace cudalint::cmake::detail
