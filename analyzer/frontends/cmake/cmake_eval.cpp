// CMake front-end, evaluator half (see cmake.h; the parser is in cmake.cpp).
//
// The model: every variable the project does not set itself might come from the command line,
// the environment or a module we do not run, so it is *unknown*: it expands to "" and makes what
// it reaches uncertain, and conditions on it are undecidable. Undecidable `if` branches are all
// evaluated, with everything they set marked conditional. Work is bounded everywhere (commands,
// call depth, block nesting, value sizes), so hostile input never hangs or exhausts the stack.
#include <algorithm>
#include <cstdlib>
#include <map>
#include <memory>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#include "analyzer/core/source_file.h"
#include "analyzer/frontends/cmake/cmake.h"

namespace cudalint::cmake {

namespace {

constexpr size_t kMaxCommands = 100000;       // evaluated commands (and loop iterations) per project
constexpr int kMaxDepth = 64;                 // include / add_subdirectory / function / macro nesting
constexpr int kMaxNesting = 256;              // recursive block evaluation, to bound the stack
constexpr int kMaxCondParens = 64;            // nested parentheses in one condition
constexpr size_t kMaxValueBytes = 1u << 20;   // one expanded value
constexpr uint64_t kMaxWorkBytes = 64ull << 20;   // bytes produced by all expansions together
constexpr size_t kMaxShownBytes = 60;         // text quoted in one message

enum Taint : uint8_t { kTorchLibs = 1, kTorchCxxFlags = 2 };

struct Var {
  std::string value;
  bool uncertain = false;  // set conditionally, or derived from something unknown
  uint8_t taint = 0;       // which torch variables it was built from
};

struct Entry {
  enum class State : uint8_t { Known, Unknown, Unset } state = State::Known;
  Var var;
};
using Scope = std::unordered_map<std::string, Entry>;

enum class Tri { False, True, Unknown };
enum class Flow { Normal, Break, Return, Stop };

struct MacroArgs {
  std::unordered_map<std::string, Var> map;  // `${name}` replaced textually in the body
};

struct Ctx {
  const MacroArgs* macro = nullptr;
  // return()/break() take effect only at the conditional depth their frame started at; an
  // ignored one makes the rest of the frame conditional through *_extra.
  int return_base = 0;
  int* return_extra = nullptr;
  int loop_base = -1;
  int* loop_extra = nullptr;
};

struct Unit {
  std::string abs, display, dir;
  std::vector<Command> cmds;
  std::vector<uint32_t> next;  // if/elseif/else: the next branch or the endif
  std::vector<uint32_t> end;   // block openers: the matching end (cmds.size() when missing)
};

struct Callable {
  bool macro = false;
  std::vector<std::string> params;
  const Unit* unit = nullptr;
  size_t body_b = 0, body_e = 0;
};

// An expanded argument: one list element of an unquoted argument, or a whole quoted one.
struct Arg {
  std::string text;
  bool quoted = false;
  bool uncertain = false;
  bool plain = false;  // unquoted and without `$`: a name exactly as written
  uint8_t taint = 0;
  size_t src = 0;      // index of the Argument it came from
};

// The stand-in for an unquoted argument that expanded to nothing but used unknown values.
bool is_placeholder(const Arg& a) { return !a.quoted && a.uncertain && a.text.empty(); }

struct Expanded {
  std::string text;
  bool uncertain = false;
  uint8_t taint = 0;
};

// Where a variable write happened, for the facts it carries.
struct Site {
  const Unit* u = nullptr;
  const Command* c = nullptr;
  size_t name_arg = 0;
  size_t vb = 0, ve = 0;  // Argument indices of the value written
  const Ctx* ctx = nullptr;
};

constexpr size_t npos = static_cast<size_t>(-1);

bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }
char to_upper(char c) { return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c; }
char to_lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = to_upper(c);
  return out;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = to_lower(c);
  return out;
}

bool is_identifier(std::string_view s) {
  if (s.empty() || !(is_alpha(s[0]) || s[0] == '_')) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return is_alpha(c) || is_digit(c) || c == '_'; });
}

// Text quoted in a message: bounded, printable, valid UTF-8.
std::string shown(std::string_view s) {
  std::string out;
  size_t i = 0;
  while (i < s.size() && out.size() < kMaxShownBytes) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      out += (c < 0x20 || c == 0x7f) ? '?' : static_cast<char>(c);
      ++i;
      continue;
    }
    size_t len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
    std::string_view seq = s.substr(i, len);
    if (seq.size() == len && !first_invalid_utf8(seq)) {
      out.append(seq);
      i += len;
    } else {
      out += '?';
      ++i;
    }
  }
  if (i < s.size()) out += "...";
  return out;
}

void append_escape(char d, std::string& out) {
  switch (d) {
    case 't': out += '\t'; break;
    case 'n': out += '\n'; break;
    case 'r': out += '\r'; break;
    case ';': out += "\\;"; break;  // encodes itself; stops list splitting
    default:
      if (is_alpha(d) || is_digit(d)) out += '\\';
      out += d;
  }
}

// CMake list splitting: `;` separates except inside `[...]` or as `\;` (which becomes `;`).
std::vector<std::string> split_list(std::string_view s, bool keep_empty) {
  std::vector<std::string> out;
  std::string cur;
  int square = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '\\' && i + 1 < s.size() && s[i + 1] == ';') {
      if (square == 0) {
        cur += ';';
      } else {
        cur += "\\;";
      }
      ++i;
      continue;
    }
    if (c == '[') ++square;
    if (c == ']' && square > 0) --square;
    if (c == ';' && square == 0) {
      if (keep_empty || !cur.empty()) out.push_back(std::move(cur));
      cur.clear();
      continue;
    }
    cur += c;
  }
  // An empty string is the empty list; otherwise the last element counts like the others.
  if (keep_empty ? !s.empty() : !cur.empty()) out.push_back(std::move(cur));
  return out;
}

std::string join(const std::vector<std::string>& v, std::string_view sep) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) out += sep;
    out += v[i];
  }
  return out;
}

// True constants of if(<constant>); false ones below. Numbers count by value.
std::optional<double> as_number(std::string_view s) {
  if (s.empty()) return std::nullopt;
  std::string tmp(s);
  char* end = nullptr;
  double d = std::strtod(tmp.c_str(), &end);
  if (end == tmp.c_str() || *end != '\0') return std::nullopt;
  for (char c : tmp)  // strtod also takes "inf", "nan" and hex, which CMake users never mean
    if (!(is_digit(c) || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E')) return std::nullopt;
  return d;
}

bool is_true_constant(std::string_view s) {
  std::string u = upper(s);
  if (u == "1" || u == "ON" || u == "YES" || u == "TRUE" || u == "Y") return true;
  auto d = as_number(s);
  return d && *d != 0;
}

bool is_false_constant(std::string_view s) {
  std::string u = upper(s);
  return u.empty() || u == "0" || u == "OFF" || u == "NO" || u == "FALSE" || u == "N" || u == "IGNORE" ||
         u == "NOTFOUND" || u.ends_with("-NOTFOUND");
}

// cmSystemTools-style version comparison: numeric components, missing ones are 0.
int version_compare(std::string_view a, std::string_view b) {
  size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    unsigned long long x = 0, y = 0;
    while (i < a.size() && is_digit(a[i])) x = std::min<unsigned long long>(x * 10 + (a[i++] - '0'), 1ull << 60);
    while (j < b.size() && is_digit(b[j])) y = std::min<unsigned long long>(y * 10 + (b[j++] - '0'), 1ull << 60);
    if (x != y) return x < y ? -1 : 1;
    while (i < a.size() && a[i] != '.') ++i;
    while (j < b.size() && b[j] != '.') ++j;
    if (i < a.size()) ++i;
    if (j < b.size()) ++j;
  }
  return 0;
}

Tri tri_not(Tri v) { return v == Tri::Unknown ? v : v == Tri::True ? Tri::False : Tri::True; }
Tri tri_and(Tri a, Tri b) {
  if (a == Tri::False || b == Tri::False) return Tri::False;
  return a == Tri::True && b == Tri::True ? Tri::True : Tri::Unknown;
}
Tri tri_or(Tri a, Tri b) {
  if (a == Tri::True || b == Tri::True) return Tri::True;
  return a == Tri::False && b == Tri::False ? Tri::False : Tri::Unknown;
}
Tri tri(bool b) { return b ? Tri::True : Tri::False; }

std::string dirname(std::string_view p) {
  auto s = p.find_last_of('/');
  if (s == std::string_view::npos) return ".";
  return s == 0 ? "/" : std::string(p.substr(0, s));
}

// Collapses `.`, `..` and repeated `/` (lexically, as CMake's CollapseFullPath does).
std::string normalize(std::string_view p) {
  bool abs = p.starts_with('/');
  std::vector<std::string_view> parts;
  size_t i = 0;
  while (i <= p.size()) {
    size_t j = p.find('/', i);
    if (j == std::string_view::npos) j = p.size();
    std::string_view part = p.substr(i, j - i);
    if (part == "..") {
      if (!parts.empty() && parts.back() != "..") parts.pop_back();
      else if (!abs) parts.push_back(part);
    } else if (!part.empty() && part != ".") {
      parts.push_back(part);
    }
    i = j + 1;
  }
  std::string out = abs ? "/" : "";
  for (size_t k = 0; k < parts.size(); ++k) {
    if (k) out += '/';
    out += parts[k];
  }
  return out.empty() ? "." : out;
}

std::string join_path(std::string_view dir, std::string_view rel) {
  if (rel.starts_with('/')) return normalize(rel);
  return normalize(std::string(dir) + "/" + std::string(rel));
}

// ---- Compiler flags ----------------------------------------------------------------------

// Removes generator expressions, keeping the content of conditional ones
// (`$<$<COMPILE_LANGUAGE:CUDA>:-gencode ...>`, `$<BUILD_INTERFACE:...>`), dropping the rest.
std::string strip_genex(std::string_view s) {
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
      if (!st.empty() && !st.back().in_body) st.back().head_genex = true;
      if (pass) sink() += done.body;
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

struct Tok {
  std::string text;
  size_t src = npos;  // Argument index, when known
};

// Flags that take their value as the next word when not written with `=`.
bool takes_next(std::string_view t) {
  return t == "-gencode" || t == "--generate-code" || t == "-arch" || t == "--gpu-architecture" || t == "-D";
}

// Compiler flags of several pieces of text (one per argument): generator expressions removed,
// split at whitespace and `;`, `SHELL:` and `-Xcompiler=` unwrapped, `-gencode X` joined.
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

constexpr std::string_view kAbiMacro = "_GLIBCXX_USE_CXX11_ABI";

// "0"/"1" for `_GLIBCXX_USE_CXX11_ABI=0` (with `-D`/`/D` required for flags).
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

bool is_cuda_flags_var(std::string_view n) { return n == "CMAKE_CUDA_FLAGS" || n.starts_with("CMAKE_CUDA_FLAGS_"); }
bool is_cxx_flags_var(std::string_view n) { return n == "CMAKE_CXX_FLAGS" || n.starts_with("CMAKE_CXX_FLAGS_"); }

uint8_t name_taint(std::string_view n) {
  if (n == "TORCH_LIBRARIES" || n == "TORCH_LIBRARY") return kTorchLibs;
  if (n == "TORCH_CXX_FLAGS") return kTorchCxxFlags;
  return 0;
}

// ---- The evaluator -----------------------------------------------------------------------

class Evaluator {
 public:
  Evaluator(const FileLoader& load, const DisplayPath& display) : load_(load), display_(display) {}

  EvalResult run(const std::string& top) {
    std::string abs = normalize(top);
    const Unit* u = unit_for(abs);
    if (!u) {
      res_.errors.push_back({{display_(abs), {0, 0}}, fmt::format("cannot read the top-level file `{}`", shown(abs))});
      return std::move(res_);
    }
    scopes_.emplace_back();
    std::string dir = dirname(abs);
    for (const char* n : {"CMAKE_SOURCE_DIR", "CMAKE_CURRENT_SOURCE_DIR", "CMAKE_CURRENT_LIST_DIR", "PROJECT_SOURCE_DIR"})
      put(n, {dir});
    put("CMAKE_CURRENT_LIST_FILE", {abs});
    src_dir_ = dir;
    list_dir_ = dir;
    int extra = 0;
    Ctx ctx;
    ctx.return_extra = &extra;
    enter(*u);
    exec_range(*u, 0, u->cmds.size(), ctx);
    return std::move(res_);
  }

 private:
  // ---- files ---------------------------------------------------------------------------

  const Unit* unit_for(const std::string& abs) {
    auto it = units_.find(abs);
    if (it != units_.end()) return it->second.get();
    std::optional<std::string_view> text = load_(abs);
    if (!text) {
      units_.emplace(abs, nullptr);
      return nullptr;
    }
    auto u = std::make_unique<Unit>();
    u->abs = abs;
    u->display = display_(abs);
    u->dir = dirname(abs);
    ParseResult pr = parse(*text);
    for (auto& e : pr.errors) res_.errors.push_back({{u->display, e.span}, std::move(e.message)});
    u->cmds = std::move(pr.file.commands);
    structure(*u);
    const Unit* p = u.get();
    units_.emplace(abs, std::move(u));
    return p;
  }

  void enter(const Unit& u) {
    if (read_.insert(u.abs).second) res_.files_read.push_back(u.abs);
  }

  static int opener_kind(std::string_view n) {
    static constexpr std::string_view kOpen[] = {"if", "foreach", "while", "function", "macro", "block"};
    for (int k = 0; k < 6; ++k)
      if (n == kOpen[k]) return k;
    return -1;
  }
  static int ender_kind(std::string_view n) {
    static constexpr std::string_view kEnd[] = {"endif", "endforeach", "endwhile", "endfunction", "endmacro", "endblock"};
    for (int k = 0; k < 6; ++k)
      if (n == kEnd[k]) return k;
    return -1;
  }

  // Matches block openers with their ends (and if-branches) once per file, iteratively.
  void structure(Unit& u) {
    static constexpr std::string_view kOpen[] = {"if", "foreach", "while", "function", "macro", "block"};
    static constexpr std::string_view kEnd[] = {"endif", "endforeach", "endwhile", "endfunction", "endmacro", "endblock"};
    size_t n = u.cmds.size();
    u.next.assign(n, static_cast<uint32_t>(n));
    u.end.assign(n, static_cast<uint32_t>(n));
    struct Open {
      int kind;
      size_t at, last;
    };
    std::vector<Open> st;
    auto err = [&](size_t i, std::string m) { res_.errors.push_back({{u.display, u.cmds[i].name_span}, std::move(m)}); };
    for (size_t i = 0; i < n; ++i) {
      const std::string& name = u.cmds[i].name;
      if (int k = opener_kind(name); k >= 0) {
        st.push_back({k, i, i});
      } else if (name == "elseif" || name == "else") {
        if (st.empty() || st.back().kind != 0) {
          err(i, fmt::format("`{}` without a matching `if`", name));
          continue;
        }
        u.next[st.back().last] = static_cast<uint32_t>(i);
        st.back().last = i;
      } else if (int k = ender_kind(name); k >= 0) {
        auto match = std::find_if(st.rbegin(), st.rend(), [&](const Open& o) { return o.kind == k; });
        if (match == st.rend()) {
          err(i, fmt::format("`{}` without a matching `{}`", name, kOpen[k]));
          continue;
        }
        while (!st.empty()) {
          Open o = st.back();
          st.pop_back();
          u.next[o.last] = static_cast<uint32_t>(i);
          u.end[o.at] = static_cast<uint32_t>(i);
          if (o.kind == k) break;
          err(o.at, fmt::format("`{}` is not closed before `{}`: missing `{}`", kOpen[o.kind], name, kEnd[o.kind]));
        }
      }
    }
    for (const Open& o : st)
      err(o.at, fmt::format("`{}` is never closed: missing `{}`", kOpen[o.kind], kEnd[o.kind]));
  }

  // ---- variables -----------------------------------------------------------------------

  // The binding of `name` seen from scope `top` down, or null.
  const Entry* find_entry(const std::string& name, size_t top) const {
    for (size_t k = top + 1; k-- > 0;) {
      auto it = scopes_[k].find(name);
      if (it != scopes_[k].end()) return &it->second;
    }
    return nullptr;
  }

  // The value of `name` (normal variable, else cache), or null when unknown.
  const Var* resolve(const std::string& name, size_t top) const {
    const Entry* e = find_entry(name, top);
    if (e && e->state == Entry::State::Known) return &e->var;
    if (e && e->state == Entry::State::Unknown) return nullptr;
    auto c = cache_.find(name);
    return c == cache_.end() ? nullptr : &c->second;
  }
  const Var* resolve(const std::string& name) const { return resolve(name, scopes_.size() - 1); }

  void put(const std::string& name, Var v) { scopes_.back()[name] = Entry{Entry::State::Known, std::move(v)}; }

  void set_unknown(const std::string& name) {
    if (!name.empty()) scopes_.back()[name] = Entry{Entry::State::Unknown, {}};
  }

  // set() in the current scope (or the parent's), recording the facts the write carries.
  void set_var(const std::string& name, Var v, const Site* site, bool parent = false) {
    if (name.empty()) return;
    v.uncertain = v.uncertain || cond_depth_ > 0;
    if (parent && scopes_.size() < 2) return;  // PARENT_SCOPE at the top level does nothing
    size_t top = parent ? scopes_.size() - 2 : scopes_.size() - 1;
    std::optional<Var> before;
    if (const Var* b = resolve(name, top)) before = *b;
    if (parent) {
      // The current scope keeps its own value: copy what it sees before the parent changes.
      if (!scopes_.back().count(name)) {
        const Entry* e = find_entry(name, top);
        scopes_.back()[name] = e ? *e : Entry{Entry::State::Unset, {}};
      }
    }
    charge(v.value.size());  // `list(APPEND)` on a long list rewrites all of it
    if (site) note_write(name, before ? &*before : nullptr, v, *site);
    scopes_[top][name] = Entry{Entry::State::Known, std::move(v)};
  }

  void unset_var(const std::string& name, bool parent) {
    if (parent && scopes_.size() < 2) return;
    size_t top = parent ? scopes_.size() - 2 : scopes_.size() - 1;
    if (parent && !scopes_.back().count(name)) {
      const Entry* e = find_entry(name, top);
      scopes_.back()[name] = e ? *e : Entry{Entry::State::Unset, {}};
    }
    // Under an undecidable condition the variable may or may not be unset afterwards.
    scopes_[top][name] = Entry{cond_depth_ > 0 ? Entry::State::Unknown : Entry::State::Unset, {}};
  }

  // ---- expansion -----------------------------------------------------------------------

  // Work is counted where values are built, written and read as lists; evaluation stops at the
  // next command once it passes the budget (const: conditions read lists too).
  void charge(size_t bytes) const { work_ += bytes; }
  bool over_budget() const { return work_ > kMaxWorkBytes; }
  std::vector<std::string> split_charged(const std::string& value, bool keep_empty) const {
    charge(value.size());
    return split_list(value, keep_empty);
  }

  void append_ref(int kind, const std::string& name, const Ctx& ctx, bool certain_only, Expanded& out,
                  std::string& dst) {
    const Var* v = nullptr;
    std::optional<Var> env_v;
    bool known = true;
    if (kind == 0) {
      out.taint |= name_taint(name);
      if (ctx.macro) {
        auto it = ctx.macro->map.find(name);
        if (it != ctx.macro->map.end()) v = &it->second;
      }
      if (!v) v = resolve(name);
      known = v != nullptr;
    } else if (kind == 1) {
      auto it = env_.find(name);
      if (it == env_.end()) known = false;
      else if (it->second) v = &*it->second;  // otherwise explicitly unset: empty, and certain
    } else {
      auto it = cache_.find(name);
      if (it == cache_.end()) known = false;
      else v = &it->second;
    }
    if (!known) {
      out.uncertain = true;
      return;
    }
    if (!v) return;
    out.uncertain = out.uncertain || v->uncertain;
    out.taint |= v->taint;
    if (certain_only && v->uncertain) return;
    if (dst.size() + v->value.size() > kMaxValueBytes) {
      out.uncertain = true;
      return;
    }
    dst += v->value;
    charge(v->value.size());
  }

  // Variable references and escapes of a quoted/unquoted argument as written. Iterative, so
  // `${a${b${c...}}}` of any depth costs no stack.
  Expanded expand(std::string_view raw, bool quoted, const Ctx& ctx, bool certain_only = false) {
    Expanded out;
    struct Ref {
      int kind;  // 0 `${`, 1 `$ENV{`, 2 `$CACHE{`
      std::string name;
    };
    std::vector<Ref> st;
    auto sink = [&]() -> std::string& { return st.empty() ? out.text : st.back().name; };
    size_t n = raw.size();
    for (size_t i = 0; i < n;) {
      char c = raw[i];
      if (c == '\\' && i + 1 < n) {
        char d = raw[i + 1];
        if (quoted && d == '\n') {
          i += 2;
        } else if (quoted && d == '\r' && i + 2 < n && raw[i + 2] == '\n') {
          i += 3;
        } else {
          append_escape(d, sink());
          i += 2;
        }
        continue;
      }
      if (quoted && c == '\r' && i + 1 < n && raw[i + 1] == '\n') {
        sink() += '\n';
        i += 2;
        continue;
      }
      if (c == '$') {
        std::string_view rest = raw.substr(i + 1);
        int kind = rest.starts_with('{') ? 0 : rest.starts_with("ENV{") ? 1 : rest.starts_with("CACHE{") ? 2 : -1;
        if (kind >= 0) {
          st.push_back({kind, {}});
          i += kind == 0 ? 2 : kind == 1 ? 5 : 7;
          continue;
        }
      }
      if (c == '}' && !st.empty()) {
        Ref r = std::move(st.back());
        st.pop_back();
        append_ref(r.kind, r.name, ctx, certain_only, out, sink());
        ++i;
        continue;
      }
      std::string& s = sink();
      if (s.size() >= kMaxValueBytes) {
        out.uncertain = true;
        break;
      }
      s += c;
      ++i;
    }
    while (!st.empty()) {  // an unterminated reference stays as written
      Ref r = std::move(st.back());
      st.pop_back();
      std::string lit = (r.kind == 0 ? "${" : r.kind == 1 ? "$ENV{" : "$CACHE{") + r.name;
      sink() += lit;
    }
    charge(out.text.size());
    return out;
  }

  Expanded expand_one(const Argument& a, const Ctx& ctx, bool certain_only = false) {
    if (a.kind == Argument::Kind::Bracket) return {a.text, false, 0};
    return expand(a.raw, a.kind == Argument::Kind::Quoted, ctx, certain_only);
  }

  // Arguments as a command sees them: unquoted ones split into list elements (empty ones
  // dropped, unless `keep_unknown` and the argument used something unknown).
  std::vector<Arg> expand_args(const Command& c, const Ctx& ctx, size_t from = 0, bool keep_unknown = false) {
    std::vector<Arg> out;
    for (size_t k = from; k < c.args.size(); ++k) {
      const Argument& a = c.args[k];
      if (a.kind == Argument::Kind::Bracket) {
        out.push_back({a.text, true, false, false, 0, k});
        continue;
      }
      Expanded e = expand(a.raw, a.kind == Argument::Kind::Quoted, ctx);
      if (a.kind == Argument::Kind::Quoted) {
        out.push_back({std::move(e.text), true, e.uncertain, false, e.taint, k});
        continue;
      }
      bool plain = a.raw.find('$') == std::string::npos;
      auto elems = split_list(e.text, false);
      if (elems.empty() && keep_unknown && e.uncertain) out.push_back({"", false, true, false, e.taint, k});
      for (auto& el : elems) out.push_back({std::move(el), false, e.uncertain, plain, e.taint, k});
    }
    return out;
  }

  // ---- facts ---------------------------------------------------------------------------

  Span span_of(const Command& c, size_t b, size_t e, size_t fallback) const {
    if (b < e && e <= c.args.size()) return {c.args[b].span.begin, c.args[e - 1].span.end};
    if (fallback < c.args.size()) return c.args[fallback].span;
    return c.name_span;
  }

  bool fresh(std::string_view kind, const std::string& target, const Value& v) {
    return seen_
        .insert(fmt::format("{}\x1f{}\x1f{}\x1f{}\x1f{}\x1f{}\x1f{}", kind, target, v.value, v.origin.path,
                            v.origin.span.begin, v.origin.span.end, v.conditional))
        .second;
  }
  void add(std::vector<Value>& to, std::string_view kind, Value v) {
    if (fresh(kind, "", v)) to.push_back(std::move(v));
  }
  void add(std::vector<TargetFact>& to, std::string_view kind, std::string target, Value v) {
    if (fresh(kind, target, v)) to.push_back({std::move(target), std::move(v)});
  }
  // The first value wins, unless it was conditional and this one is not.
  static void first(std::optional<Value>& slot, Value v) {
    if (!slot || (slot->conditional && !v.conditional)) slot = std::move(v);
  }

  Value value_at(const Unit& u, Span s, std::string v, bool conditional) const {
    return Value{std::move(v), Origin{u.display, s}, conditional || cond_depth_ > 0};
  }

  // The argument in [vb, ve) that wrote `needle`, else all of them.
  Span locate(const Command& c, size_t vb, size_t ve, size_t fallback, std::string_view needle) const {
    for (std::string_view n : {needle, needle.substr(needle.find(' ') == std::string_view::npos ? 0 : needle.find(' ') + 1)})
      for (size_t k = vb; k < ve && k < c.args.size(); ++k)
        if (!n.empty() && c.args[k].raw.find(n) != std::string::npos) return c.args[k].span;
    return span_of(c, vb, ve, fallback);
  }

  // Flags in command arguments [b, e) (target_compile_options & co).
  void flags_from_args(const Unit& u, const Command& c, size_t b, size_t e, const Ctx& ctx, const std::string& target,
                       bool arch, bool abi) {
    static constexpr std::string_view kKeywords[] = {"PRIVATE", "PUBLIC", "INTERFACE", "BEFORE"};
    std::vector<std::pair<std::string, size_t>> pieces, certain;
    for (size_t k = b; k < e && k < c.args.size(); ++k) {
      const Argument& a = c.args[k];
      if (a.kind == Argument::Kind::Unquoted &&
          std::find(std::begin(kKeywords), std::end(kKeywords), a.raw) != std::end(kKeywords))
        continue;
      Expanded x = expand_one(a, ctx);
      if (x.taint & kTorchCxxFlags)
        add(res_.facts.torch_cxx_flags_uses, "tcf", value_at(u, a.span, a.raw, false));
      pieces.emplace_back(std::move(x.text), k);
      certain.emplace_back(expand_one(a, ctx, true).text, k);
    }
    std::unordered_set<std::string> sure;
    for (Tok& t : flag_units(certain)) sure.insert(std::move(t.text));
    for (const Tok& t : flag_units(pieces)) {
      bool cond = !sure.count(t.text);
      Span sp = t.src < c.args.size() ? c.args[t.src].span : c.name_span;
      if (arch && is_arch_flag(t.text)) add(res_.facts.cuda_arch_flags, "arch", value_at(u, sp, t.text, cond));
      if (abi)
        if (auto v = abi_value(t.text, true)) add(res_.facts.abi_defines, "abi", target, value_at(u, sp, *v, cond));
    }
  }

  // Definitions (`NAME=VALUE`, `-D` optional) in command arguments [b, e).
  void defines_from_args(const Unit& u, const Command& c, size_t b, size_t e, const Ctx& ctx, const std::string& target,
                         bool need_dash) {
    for (size_t k = b; k < e && k < c.args.size(); ++k) {
      const Argument& a = c.args[k];
      Expanded x = expand_one(a, ctx);
      if (a.raw.find(kAbiMacro) == std::string::npos && x.text.find(kAbiMacro) == std::string::npos) continue;
      std::string certain = expand_one(a, ctx, true).text;
      for (const std::string& el : split_list(strip_genex(x.text), false)) {
        std::string_view d = el;
        while (!d.empty() && is_space(d.front())) d.remove_prefix(1);
        while (!d.empty() && is_space(d.back())) d.remove_suffix(1);
        if (auto v = abi_value(d, need_dash))
          add(res_.facts.abi_defines, "abi", target, value_at(u, a.span, *v, certain.find(d) == std::string::npos));
      }
    }
  }

  // Facts carried by writing `after` to variable `name` (`before` is what it replaced).
  void note_write(const std::string& name, const Var* before, const Var& after, const Site& s) {
    const Unit& u = *s.u;
    const Command& c = *s.c;
    bool cond = after.uncertain;
    if (name == "CMAKE_CUDA_ARCHITECTURES")
      add(res_.facts.cmake_cuda_architectures, "cca", value_at(u, span_of(c, s.vb, s.ve, s.name_arg), after.value, cond));
    if (name == "TORCH_CUDA_ARCH_LIST")
      add(res_.facts.torch_cuda_arch_list, "tcal", value_at(u, span_of(c, s.vb, s.ve, s.name_arg), after.value, cond));
    if (name == "CUDA_NVCC_FLAGS" || name.starts_with("CUDA_NVCC_FLAGS_"))
      add(res_.facts.legacy_find_cuda, "legacy", value_at(u, span_of(c, s.name_arg, s.name_arg + 1, s.name_arg), name, false));
    bool cuda = is_cuda_flags_var(name), cxx = is_cxx_flags_var(name);
    if (!cuda && !cxx) return;
    if ((after.taint & kTorchCxxFlags) && !(before && (before->taint & kTorchCxxFlags))) {
      Span sp = locate(c, s.vb, s.ve, s.name_arg, "TORCH_CXX_FLAGS");
      std::string raw;
      for (size_t k = s.vb; k < s.ve && k < c.args.size(); ++k)
        if (c.args[k].span.begin >= sp.begin && c.args[k].span.end <= sp.end) raw += (raw.empty() ? "" : " ") + c.args[k].raw;
      add(res_.facts.torch_cxx_flags_uses, "tcf", value_at(u, sp, raw.empty() ? name : raw, false));
    }
    // Tokenising is work too: a value that doubles on every write must hit the budget.
    charge(after.value.size() + (before ? before->value.size() : 0));
    if (over_budget()) return;
    // Only the flags this write added: `set(F "${F} -x")` must not report F's old flags again.
    std::unordered_multiset<std::string> old;
    if (before)
      for (auto& t : flag_units({{before->value, npos}})) old.insert(std::move(t.text));
    std::vector<std::pair<std::string, size_t>> certain;
    for (size_t k = s.vb; k < s.ve && k < c.args.size(); ++k)
      certain.emplace_back(expand_one(c.args[k], *s.ctx, true).text, k);
    std::unordered_set<std::string> sure;
    for (Tok& t : flag_units(certain)) sure.insert(std::move(t.text));
    for (const Tok& t : flag_units({{after.value, npos}})) {
      if (auto it = old.find(t.text); it != old.end()) {
        old.erase(it);
        continue;
      }
      bool tc = !sure.count(t.text);
      if (cuda && is_arch_flag(t.text))
        add(res_.facts.cuda_arch_flags, "arch", value_at(u, locate(c, s.vb, s.ve, s.name_arg, t.text), t.text, tc));
      if (auto v = abi_value(t.text, true))
        add(res_.facts.abi_defines, "abi", "", value_at(u, locate(c, s.vb, s.ve, s.name_arg, kAbiMacro), *v, tc));
    }
  }

  // ---- conditions ----------------------------------------------------------------------

  class Cond {
   public:
    Cond(const Evaluator& ev, const std::vector<Arg>& t) : ev_(ev), t_(t) {}
    Tri run() {
      Tri v = or_();
      return bad_ || p_ != t_.size() ? Tri::Unknown : v;
    }

   private:
    bool kw(size_t i, std::string_view k) const { return i < t_.size() && !t_[i].quoted && t_[i].text == k; }
    bool unary(size_t i) const {
      static constexpr std::string_view k[] = {"EXISTS",      "COMMAND",     "DEFINED",     "POLICY",
                                               "TARGET",      "TEST",        "IS_DIRECTORY", "IS_SYMLINK",
                                               "IS_ABSOLUTE", "IS_READABLE", "IS_WRITABLE", "IS_EXECUTABLE"};
      return i < t_.size() && !t_[i].quoted && std::find(std::begin(k), std::end(k), t_[i].text) != std::end(k);
    }
    bool binary(size_t i) const {
      static constexpr std::string_view k[] = {
          "EQUAL",         "LESS",          "LESS_EQUAL",          "GREATER",          "GREATER_EQUAL",
          "STREQUAL",      "STRLESS",       "STRLESS_EQUAL",       "STRGREATER",       "STRGREATER_EQUAL",
          "VERSION_EQUAL", "VERSION_LESS",  "VERSION_LESS_EQUAL",  "VERSION_GREATER",  "VERSION_GREATER_EQUAL",
          "MATCHES",       "IN_LIST",       "PATH_EQUAL",          "IS_NEWER_THAN"};
      return i < t_.size() && !t_[i].quoted && std::find(std::begin(k), std::end(k), t_[i].text) != std::end(k);
    }

    Tri or_() {
      Tri v = and_();
      while (!bad_ && kw(p_, "OR")) {
        ++p_;
        v = tri_or(v, and_());
      }
      return v;
    }
    Tri and_() {
      Tri v = not_();
      while (!bad_ && kw(p_, "AND")) {
        ++p_;
        v = tri_and(v, not_());
      }
      return v;
    }
    Tri not_() {
      size_t n = 0;
      while (kw(p_, "NOT")) ++p_, ++n;  // counted, not recursed
      Tri v = primary();
      return n % 2 ? tri_not(v) : v;
    }
    Tri primary() {
      if (p_ >= t_.size()) {
        bad_ = true;
        return Tri::Unknown;
      }
      if (kw(p_, "(")) {
        if (++depth_ > kMaxCondParens) {
          bad_ = true;
          p_ = t_.size();
          return Tri::Unknown;
        }
        ++p_;
        Tri v = or_();
        if (kw(p_, ")")) ++p_;
        else bad_ = true;
        --depth_;
        return v;
      }
      if (unary(p_) && p_ + 1 < t_.size()) {
        const Arg& op = t_[p_];
        const Arg& a = t_[p_ + 1];
        p_ += 2;
        return ev_.unary_op(op.text, a);
      }
      const Arg& a = t_[p_++];
      if (binary(p_)) {
        if (p_ + 1 >= t_.size()) {
          bad_ = true;
          return Tri::Unknown;
        }
        const Arg& op = t_[p_];
        const Arg& b = t_[p_ + 1];
        p_ += 2;
        return ev_.binary_op(a, op.text, b);
      }
      return ev_.truth(a);
    }

    const Evaluator& ev_;
    const std::vector<Arg>& t_;
    size_t p_ = 0;
    int depth_ = 0;
    bool bad_ = false;
  };

  // if(<arg>) alone.
  Tri truth(const Arg& a) const {
    if (a.uncertain) return Tri::Unknown;
    if (is_true_constant(a.text)) return Tri::True;
    if (is_false_constant(a.text)) return Tri::False;
    if (auto d = as_number(a.text)) return tri(*d != 0);
    if (a.quoted) return Tri::False;  // CMP0054: a quoted string is never a variable name
    const Var* v = resolve(a.text);
    if (v) return v->uncertain ? Tri::Unknown : tri(!is_false_constant(v->value));
    // Named as written, it may come from the command line; built from variables, it is a
    // string that names no variable.
    return a.plain ? Tri::Unknown : Tri::False;
  }

  // An operand of a binary test, auto-dereferenced like CMake does; nullopt when unknown.
  std::optional<std::string> operand(const Arg& a, bool left) const {
    if (a.uncertain) return std::nullopt;
    if (a.quoted) return a.text;
    if (const Var* v = resolve(a.text)) {
      if (v->uncertain) return std::nullopt;
      return v->value;
    }
    const Entry* e = find_entry(a.text, scopes_.size() - 1);
    if (e && e->state == Entry::State::Unknown) return std::nullopt;
    // An undefined upper-case name on the left is almost always a variable set outside (a
    // cache entry from the command line); on the right, or in lower case, it is a literal.
    bool upper_case = std::any_of(a.text.begin(), a.text.end(), [](char ch) { return ch >= 'A' && ch <= 'Z'; });
    if (a.plain && (left ? is_identifier(a.text) && upper_case : a.text.starts_with("CMAKE_"))) return std::nullopt;
    return a.text;
  }

  Tri unary_op(const std::string& op, const Arg& a) const {
    if (op == "DEFINED") {
      std::string_view n = a.text;
      if (n.starts_with("ENV{") && n.ends_with('}')) {
        auto it = env_.find(std::string(n.substr(4, n.size() - 5)));
        if (it == env_.end()) return Tri::Unknown;
        return tri(it->second.has_value());
      }
      if (n.starts_with("CACHE{") && n.ends_with('}'))
        return cache_.count(std::string(n.substr(6, n.size() - 7))) ? Tri::True : Tri::Unknown;
      if (a.uncertain) return Tri::Unknown;
      return resolve(a.text) ? Tri::True : Tri::Unknown;
    }
    if (op == "COMMAND") return callables_.count(lower(a.text)) ? Tri::True : Tri::Unknown;
    if (op == "IS_ABSOLUTE") {
      if (a.uncertain) return Tri::Unknown;
      std::string_view p = a.text;
      return tri(p.starts_with('/') || p.starts_with('~') || (p.size() > 2 && p[1] == ':' && (p[2] == '/' || p[2] == '\\')));
    }
    return Tri::Unknown;  // the file system, targets, tests and policies are not modelled
  }

  Tri binary_op(const Arg& a, const std::string& op, const Arg& b) const {
    if (op == "MATCHES" || op == "PATH_EQUAL" || op == "IS_NEWER_THAN") return Tri::Unknown;
    if (op == "IN_LIST") {
      auto x = operand(a, true);
      const Var* list = b.uncertain ? nullptr : resolve(b.text);
      if (!x || !list || list->uncertain) return Tri::Unknown;
      auto items = split_charged(list->value, true);
      return tri(std::find(items.begin(), items.end(), *x) != items.end());
    }
    auto x = operand(a, true), y = operand(b, false);
    if (!x || !y) return Tri::Unknown;
    if (op.starts_with("VERSION_")) {
      int c = version_compare(*x, *y);
      std::string_view r = std::string_view(op).substr(8);
      return tri(r == "EQUAL" ? c == 0 : r == "LESS" ? c < 0 : r == "GREATER" ? c > 0 : r == "LESS_EQUAL" ? c <= 0 : c >= 0);
    }
    if (op.starts_with("STR")) {
      int c = x->compare(*y);
      std::string_view r = std::string_view(op).substr(3);
      return tri(r == "EQUAL" ? c == 0 : r == "LESS" ? c < 0 : r == "GREATER" ? c > 0 : r == "LESS_EQUAL" ? c <= 0 : c >= 0);
    }
    // Numeric tests: a value that is not a number compares false, as in CMake.
    auto num = [](const std::string& s) -> std::optional<double> {
      char* end = nullptr;
      double d = std::strtod(s.c_str(), &end);
      if (end == s.c_str()) return std::nullopt;
      return d;
    };
    auto m = num(*x), n = num(*y);
    if (!m || !n) return Tri::False;
    return tri(op == "EQUAL" ? *m == *n : op == "LESS" ? *m < *n : op == "GREATER" ? *m > *n : op == "LESS_EQUAL" ? *m <= *n : *m >= *n);
  }

  Tri condition(const Command& c, const Ctx& ctx) {
    auto args = expand_args(c, ctx, 0, true);
    if (args.empty()) return Tri::False;
    return Cond(*this, args).run();
  }

  // ---- control flow --------------------------------------------------------------------

  void limit_error(const Unit& u, Span s, std::string msg) {
    if (limit_sites_.insert(fmt::format("{}\x1f{}", u.abs, s.begin)).second) res_.errors.push_back({{u.display, s}, std::move(msg)});
  }

  Flow exec_range(const Unit& u, size_t b, size_t e, Ctx& ctx) {
    if (nesting_ >= kMaxNesting) {
      if (b < u.cmds.size())
        limit_error(u, u.cmds[b].name_span, fmt::format("nesting limit reached: blocks and calls deeper than {} are not evaluated", kMaxNesting));
      return Flow::Normal;
    }
    ++nesting_;
    Flow f = Flow::Normal;
    for (size_t i = b; i < e && i < u.cmds.size();) {
      const Command& c = u.cmds[i];
      where_ = {u.display, c.name_span};
      if (!stopped_ && over_budget()) {
        stopped_ = true;
        res_.errors.push_back({where_, "evaluation stopped: the values it built and read grew past 64 MiB"});
      }
      if (stopped_) {
        f = Flow::Stop;
        break;
      }
      if (++commands_ > kMaxCommands) {
        stopped_ = true;
        res_.errors.push_back({where_, fmt::format("evaluation stopped after {} commands: the project is too large "
                                                   "or loops without end", kMaxCommands)});
        f = Flow::Stop;
        break;
      }
      const std::string& n = c.name;
      size_t after = i + 1;
      if (opener_kind(n) >= 0) after = static_cast<size_t>(u.end[i]) + 1;
      if (n == "if") f = exec_if(u, i, ctx);
      else if (n == "foreach") f = exec_foreach(u, i, ctx);
      else if (n == "while") f = exec_while(u, i, ctx);
      else if (n == "function" || n == "macro") define(u, i, ctx);
      else if (n == "block") f = exec_block(u, i, ctx);
      else f = exec_command(u, c, ctx);
      if (f != Flow::Normal) break;
      i = after;
    }
    --nesting_;
    return f;
  }

  Flow exec_if(const Unit& u, size_t i, Ctx& ctx) {
    bool prior_unknown = false;
    size_t end = u.end[i];
    for (size_t k = i; k < end && k < u.cmds.size(); k = u.next[k]) {
      const Command& c = u.cmds[k];
      Tri t = c.name == "else" ? Tri::True : condition(c, ctx);
      if (t == Tri::False) continue;
      bool cond = prior_unknown || t == Tri::Unknown;
      cond_depth_ += cond;
      Flow f = exec_range(u, k + 1, u.next[k], ctx);
      cond_depth_ -= cond;
      if (f != Flow::Normal) return f;
      if (t == Tri::True) break;
      prior_unknown = true;
    }
    return Flow::Normal;
  }

  Flow exec_loop_body(const Unit& u, size_t b, size_t e, Ctx& ctx, bool& broke) {
    Flow f = exec_range(u, b, e, ctx);
    if (f == Flow::Break) broke = true;
    return f == Flow::Break ? Flow::Normal : f;
  }

  Flow exec_foreach(const Unit& u, size_t i, Ctx& ctx) {
    const Command& c = u.cmds[i];
    auto args = expand_args(c, ctx, 0, true);
    if (args.empty()) return Flow::Normal;
    std::string var = args[0].text;
    std::vector<Arg> items;
    bool unsure = false;
    auto kw = [&](size_t k, std::string_view w) { return k < args.size() && !args[k].quoted && args[k].text == w; };
    if (kw(1, "RANGE")) {
      std::vector<long long> nums;
      for (size_t k = 2; k < args.size() && k < 5; ++k) {
        auto d = as_number(args[k].text);
        if (!d || args[k].uncertain || args[k].text.find('.') != std::string::npos) unsure = true;
        else nums.push_back(static_cast<long long>(*d));
      }
      if (!unsure && !nums.empty()) {
        long long lo = nums.size() == 1 ? 0 : nums[0], hi = nums.size() == 1 ? nums[0] : nums[1];
        long long step = nums.size() == 3 ? nums[2] : 1;
        if (step <= 0 || hi - lo > static_cast<long long>(kMaxCommands)) unsure = true;
        else
          for (long long v = lo; v <= hi; v += step) items.push_back({std::to_string(v)});
      }
    } else if (kw(1, "IN")) {
      int mode = 0;  // 1 LISTS, 2 ITEMS, 3 ZIP_LISTS
      for (size_t k = 2; k < args.size(); ++k) {
        if (kw(k, "LISTS")) mode = 1;
        else if (kw(k, "ITEMS")) mode = 2;
        else if (kw(k, "ZIP_LISTS")) mode = 3;
        else if (mode == 2) items.push_back(args[k]);
        else if (mode == 3) unsure = true;
        else if (mode == 1) {
          const Var* l = args[k].uncertain ? nullptr : resolve(args[k].text);
          if (!l) {
            unsure = true;
            continue;
          }
          for (auto& el : split_charged(l->value, false)) items.push_back({std::move(el), false, l->uncertain});
        }
      }
    } else {
      items.assign(args.begin() + 1, args.end());
    }
    for (const Arg& a : items) unsure = unsure || a.uncertain;
    items.erase(std::remove_if(items.begin(), items.end(), is_placeholder), items.end());
    // Loop variables are restored afterwards.
    std::optional<Entry> saved;
    if (auto it = scopes_.back().find(var); it != scopes_.back().end()) saved = it->second;
    int extra = 0;
    cond_depth_ += unsure;
    Ctx lc = ctx;
    lc.loop_base = cond_depth_;
    lc.loop_extra = &extra;
    Flow f = Flow::Normal;
    bool broke = false;
    size_t b = i + 1, e = u.end[i];
    if (items.empty() && unsure) {
      set_unknown(var);
      f = exec_loop_body(u, b, e, lc, broke);
    }
    for (const Arg& a : items) {
      if (f != Flow::Normal || broke) break;
      if (++commands_ > kMaxCommands) {  // iterations count too: an empty body must not spin
        stopped_ = true;
        res_.errors.push_back({{u.display, c.name_span}, fmt::format("evaluation stopped after {} commands: the "
                                                                     "project is too large or loops without end", kMaxCommands)});
        f = Flow::Stop;
        break;
      }
      put(var, {a.text, a.uncertain || cond_depth_ > 0, a.taint});
      f = exec_loop_body(u, b, e, lc, broke);
    }
    cond_depth_ -= extra + unsure;
    if (saved) scopes_.back()[var] = *saved;
    else scopes_.back().erase(var);
    return f;
  }

  Flow exec_while(const Unit& u, size_t i, Ctx& ctx) {
    if (condition(u.cmds[i], ctx) == Tri::False) return Flow::Normal;
    // Bounded: the body runs once, and what it does is conditional.
    int extra = 0;
    ++cond_depth_;
    Ctx lc = ctx;
    lc.loop_base = cond_depth_;
    lc.loop_extra = &extra;
    bool broke = false;
    Flow f = exec_loop_body(u, i + 1, u.end[i], lc, broke);
    cond_depth_ -= extra + 1;
    return f;
  }

  Flow exec_block(const Unit& u, size_t i, Ctx& ctx) {
    auto args = expand_args(u.cmds[i], ctx);
    bool scope = true;
    std::vector<std::string> propagate;
    for (size_t k = 0; k < args.size(); ++k) {
      if (args[k].text == "SCOPE_FOR") {
        scope = false;
        for (size_t j = k + 1; j < args.size() && (args[j].text == "POLICIES" || args[j].text == "VARIABLES"); ++j)
          scope = scope || args[j].text == "VARIABLES";
      } else if (args[k].text == "PROPAGATE") {
        for (size_t j = k + 1; j < args.size(); ++j) propagate.push_back(args[j].text);
        break;
      }
    }
    if (!scope) return exec_range(u, i + 1, u.end[i], ctx);
    scopes_.emplace_back();
    Flow f = exec_range(u, i + 1, u.end[i], ctx);
    std::vector<std::pair<std::string, std::optional<Var>>> out;
    for (const auto& n : propagate) {
      const Var* v = resolve(n);
      out.emplace_back(n, v ? std::optional<Var>(*v) : std::nullopt);
    }
    scopes_.pop_back();
    for (auto& [n, v] : out) {
      if (v) put(n, std::move(*v));
      else unset_var(n, false);
    }
    return f;
  }

  void define(const Unit& u, size_t i, const Ctx& ctx) {
    auto args = expand_args(u.cmds[i], ctx);
    if (args.empty() || args[0].text.empty()) return;
    Callable def;
    def.macro = u.cmds[i].name == "macro";
    for (size_t k = 1; k < args.size(); ++k) def.params.push_back(args[k].text);
    def.unit = &u;
    def.body_b = i + 1;
    def.body_e = u.end[i];
    callables_[lower(args[0].text)] = std::move(def);
  }

  Flow call(const Unit& u, const Command& c, const Callable& def, Ctx& ctx) {
    if (depth_ >= kMaxDepth) {
      limit_error(u, c.name_span, fmt::format("call depth limit reached: `{}` is called {} levels deep (recursion?), "
                                              "the call is not evaluated", shown(c.name), kMaxDepth));
      return Flow::Normal;
    }
    auto args = expand_args(c, ctx);
    bool unsure = cond_depth_ > 0;
    std::vector<std::string> texts;
    uint8_t taint = 0;
    for (const auto& a : args) {
      texts.push_back(a.text);
      unsure = unsure || a.uncertain;
      taint |= a.taint;
    }
    std::vector<std::string> rest(texts.begin() + static_cast<long>(std::min(texts.size(), def.params.size())), texts.end());
    std::vector<std::pair<std::string, Var>> bind;
    bind.emplace_back("ARGC", Var{std::to_string(texts.size()), unsure});
    bind.emplace_back("ARGV", Var{join(texts, ";"), unsure, taint});
    bind.emplace_back("ARGN", Var{join(rest, ";"), unsure, taint});
    for (size_t k = 0; k < args.size(); ++k) bind.emplace_back(fmt::format("ARGV{}", k), Var{args[k].text, unsure || args[k].uncertain, args[k].taint});
    for (size_t k = 0; k < def.params.size() && k < args.size(); ++k)
      bind.emplace_back(def.params[k], Var{args[k].text, unsure || args[k].uncertain, args[k].taint});
    ++depth_;
    Flow f;
    if (def.macro) {
      MacroArgs ma;
      for (auto& [n, v] : bind) ma.map[n] = std::move(v);
      Ctx mc = ctx;  // return() and break() act on the caller, as the body is pasted there
      mc.macro = &ma;
      f = exec_range(*def.unit, def.body_b, def.body_e, mc);
    } else {
      scopes_.emplace_back();
      for (auto& [n, v] : bind) put(n, std::move(v));
      for (size_t k = args.size(); k < def.params.size(); ++k) scopes_.back()[def.params[k]] = Entry{Entry::State::Unset, {}};
      int extra = 0;
      Ctx fc;
      fc.return_base = cond_depth_;
      fc.return_extra = &extra;
      f = exec_range(*def.unit, def.body_b, def.body_e, fc);
      cond_depth_ -= extra;
      scopes_.pop_back();
      if (f != Flow::Stop) f = Flow::Normal;
    }
    --depth_;
    return f;
  }

  // Runs another file in the current scope (include) or a new one (add_subdirectory).
  Flow run_file(const Unit& u, const Command& c, Span at, const Unit& file, bool subdir) {
    if (depth_ >= kMaxDepth) {
      limit_error(u, at, fmt::format("include depth limit reached: `{}` is nested {} levels deep (an include loop?), "
                                     "it is not evaluated", shown(file.display), kMaxDepth));
      return Flow::Normal;
    }
    (void)c;
    enter(file);
    ++depth_;
    std::string saved_src = src_dir_, saved_list = list_dir_;
    std::optional<Entry> saved_dir, saved_file;
    if (subdir) {
      scopes_.emplace_back();
      src_dir_ = file.dir;
      put("CMAKE_CURRENT_SOURCE_DIR", {file.dir});
      set_unknown("CMAKE_CURRENT_BINARY_DIR");
    } else {
      if (auto it = scopes_.back().find("CMAKE_CURRENT_LIST_DIR"); it != scopes_.back().end()) saved_dir = it->second;
      if (auto it = scopes_.back().find("CMAKE_CURRENT_LIST_FILE"); it != scopes_.back().end()) saved_file = it->second;
    }
    list_dir_ = file.dir;
    put("CMAKE_CURRENT_LIST_DIR", {file.dir});
    put("CMAKE_CURRENT_LIST_FILE", {file.abs});
    int extra = 0;
    Ctx fc;
    fc.return_base = cond_depth_;
    fc.return_extra = &extra;
    Flow f = exec_range(file, 0, file.cmds.size(), fc);
    cond_depth_ -= extra;
    if (subdir) {
      scopes_.pop_back();
    } else {
      if (saved_dir) scopes_.back()["CMAKE_CURRENT_LIST_DIR"] = *saved_dir;
      if (saved_file) scopes_.back()["CMAKE_CURRENT_LIST_FILE"] = *saved_file;
    }
    src_dir_ = saved_src;
    list_dir_ = saved_list;
    --depth_;
    return f == Flow::Stop ? f : Flow::Normal;
  }

  Flow do_include(const Unit& u, const Command& c, const Ctx& ctx) {
    auto args = expand_args(c, ctx);
    if (args.empty()) return Flow::Normal;
    const Arg& a = args[0];
    bool optional = false;
    for (size_t k = 1; k < args.size(); ++k) {
      if (args[k].text == "OPTIONAL") optional = true;
      if (args[k].text == "RESULT_VARIABLE" && k + 1 < args.size()) set_unknown(args[k + 1].text);
    }
    Span at = c.args[a.src].span;
    std::string name = a.text;
    if (name.empty()) return Flow::Normal;
    bool module = name.find('/') == std::string::npos && !name.ends_with(".cmake");
    std::vector<std::string> tries;
    if (!name.starts_with('/'))
      if (const Var* mp = resolve("CMAKE_MODULE_PATH"))
        for (const auto& d : split_charged(mp->value, false))
          if (d.starts_with('/')) tries.push_back(join_path(d, name + ".cmake"));
    if (!module) {
      tries.push_back(join_path(src_dir_, name));
      tries.push_back(join_path(list_dir_, name));
    }
    for (const auto& p : tries)
      if (const Unit* f = unit_for(p)) return run_file(u, c, at, *f, false);
    // Modules that ship with CMake (CheckLanguage, FetchContent, ...) are not modelled.
    if (!module && !optional && !a.uncertain)
      res_.errors.push_back({{u.display, at}, fmt::format("cannot read the included file `{}`", shown(tries.empty() ? name : tries.front()))});
    return Flow::Normal;
  }

  Flow do_add_subdirectory(const Unit& u, const Command& c, const Ctx& ctx) {
    auto args = expand_args(c, ctx);
    if (args.empty() || args[0].text.empty()) return Flow::Normal;
    std::string dir = join_path(src_dir_, args[0].text);
    std::string file = dir + "/CMakeLists.txt";
    Span at = c.args[args[0].src].span;
    if (const Unit* f = unit_for(file)) return run_file(u, c, at, *f, true);
    if (!args[0].uncertain)
      res_.errors.push_back({{u.display, at}, fmt::format("cannot read `{}` for add_subdirectory", shown(file))});
    return Flow::Normal;
  }

  // ---- commands ------------------------------------------------------------------------

  static bool kw(const std::vector<Arg>& a, size_t k, std::string_view w) {
    return k < a.size() && !a[k].quoted && a[k].text == w;
  }

  // Joins Args [b, e) into one value.
  static Var value_of(const std::vector<Arg>& a, size_t b, size_t e) {
    Var v;
    std::vector<std::string> parts;
    bool any = false;
    for (size_t k = b; k < e && k < a.size(); ++k) {
      v.uncertain = v.uncertain || a[k].uncertain;
      v.taint |= a[k].taint;
      if (!a[k].quoted && a[k].text.empty() && a[k].uncertain) continue;  // an unknown placeholder
      parts.push_back(a[k].text);
      any = true;
    }
    if (any) v.value = join(parts, ";");
    return v;
  }

  Site site(const Unit& u, const Command& c, const std::vector<Arg>& a, size_t name_k, size_t vb, size_t ve,
            const Ctx& ctx) const {
    Site s{&u, &c, name_k < a.size() ? a[name_k].src : npos, npos, npos, &ctx};
    if (vb < ve && ve <= a.size()) {
      s.vb = a[vb].src;
      s.ve = a[ve - 1].src + 1;
    } else {
      s.vb = s.ve = 0;
    }
    return s;
  }

  Flow do_set(const Unit& u, const Command& c, const Ctx& ctx) {
    auto a = expand_args(c, ctx, 0, true);
    if (a.empty() || a[0].text.empty()) return Flow::Normal;
    const std::string& name = a[0].text;
    if (name.starts_with("ENV{") && name.ends_with('}')) {
      std::string env = name.substr(4, name.size() - 5);
      if (a.size() < 2) {  // set(ENV{X}) unsets; under an undecidable condition X becomes unknown
        if (cond_depth_ > 0) env_.erase(env);
        else env_[env] = std::nullopt;
        return Flow::Normal;
      }
      Var v{a[1].text, a[1].uncertain || cond_depth_ > 0, a[1].taint};
      if (env == "TORCH_CUDA_ARCH_LIST")
        add(res_.facts.torch_cuda_arch_list, "tcal", value_at(u, c.args[a[1].src].span, v.value, v.uncertain));
      env_[env] = std::move(v);
      return Flow::Normal;
    }
    size_t n = a.size();
    if (kw(a, n - 1, "PARENT_SCOPE") && n >= 2) {
      if (n == 2) unset_var(name, true);
      else {
        Site s = site(u, c, a, 0, 1, n - 1, ctx);
        set_var(name, value_of(a, 1, n - 1), &s, true);
      }
      return Flow::Normal;
    }
    size_t cache = npos;
    for (size_t k = 1; k < n; ++k)
      if (kw(a, k, "CACHE")) {
        cache = k;
        break;
      }
    if (cache != npos) {
      bool force = kw(a, n - 1, "FORCE") || kw(a, cache + 1, "INTERNAL");
      if (cache_.count(name) && !force) return Flow::Normal;  // the first cache set wins
      Var v = value_of(a, 1, cache);
      v.uncertain = v.uncertain || cond_depth_ > 0;
      std::optional<Var> before;
      if (const Var* b = resolve(name)) before = *b;
      Site s = site(u, c, a, 0, 1, cache, ctx);
      note_write(name, before ? &*before : nullptr, v, s);
      cache_[name] = std::move(v);
      return Flow::Normal;
    }
    if (n == 1) {
      unset_var(name, false);
      return Flow::Normal;
    }
    Site s = site(u, c, a, 0, 1, n, ctx);
    set_var(name, value_of(a, 1, n), &s);
    return Flow::Normal;
  }

  Flow do_unset(const Command& c, const Ctx& ctx) {
    auto a = expand_args(c, ctx);
    if (a.empty()) return Flow::Normal;
    const std::string& name = a[0].text;
    if (name.starts_with("ENV{") && name.ends_with('}')) {
      std::string env = name.substr(4, name.size() - 5);
      if (cond_depth_ > 0) env_.erase(env);
      else env_[env] = std::nullopt;
    } else if (kw(a, 1, "CACHE")) {
      cache_.erase(name);
    } else {
      unset_var(name, kw(a, 1, "PARENT_SCOPE"));
    }
    return Flow::Normal;
  }

  Flow do_option(const Command& c, const Ctx& ctx) {
    auto a = expand_args(c, ctx);
    if (a.empty()) return Flow::Normal;
    const Entry* e = find_entry(a[0].text, scopes_.size() - 1);
    if ((e && e->state == Entry::State::Known) || cache_.count(a[0].text)) return Flow::Normal;  // CMP0077
    Var v{a.size() > 2 && is_true_constant(a[2].text) ? "ON" : "OFF", cond_depth_ > 0 || (a.size() > 2 && a[2].uncertain)};
    cache_[a[0].text] = std::move(v);
    return Flow::Normal;
  }

  // A list variable for in-place list()/string() edits: empty when never set.
  Var current(const std::string& name) const {
    if (const Var* v = resolve(name)) return *v;
    const Entry* e = find_entry(name, scopes_.size() - 1);
    return Var{"", e && e->state == Entry::State::Unknown, 0};
  }

  Flow do_list(const Unit& u, const Command& c, const Ctx& ctx) {
    auto a = expand_args(c, ctx, 0, true);
    if (a.size() < 2) return Flow::Normal;
    const std::string op = a[0].text;
    const std::string& name = a[1].text;
    Var cur = current(name);
    auto items = split_charged(cur.value, true);
    if (cur.value.empty()) items.clear();
    auto write = [&](std::vector<std::string> v, size_t vb, size_t ve, bool extra_unsure, uint8_t taint) {
      Var nv{join(v, ";"), cur.uncertain || extra_unsure, static_cast<uint8_t>(cur.taint | taint)};
      for (size_t k = vb; k < ve && k < a.size(); ++k) {
        nv.uncertain = nv.uncertain || a[k].uncertain;
        nv.taint |= a[k].taint;
      }
      Site s = site(u, c, a, 1, vb, ve, ctx);
      set_var(name, std::move(nv), &s);
    };
    if (op == "APPEND" || op == "PREPEND" || op == "INSERT") {
      size_t from = op == "INSERT" ? 3 : 2;
      std::vector<std::string> add_items;
      bool unknown_items = false;  // they still taint the list and make it uncertain
      for (size_t k = from; k < a.size(); ++k)
        if (is_placeholder(a[k])) unknown_items = true;
        else add_items.push_back(a[k].text);
      if (op == "APPEND") items.insert(items.end(), add_items.begin(), add_items.end());
      else if (op == "PREPEND") items.insert(items.begin(), add_items.begin(), add_items.end());
      else {
        auto idx = a.size() > 2 ? as_number(a[2].text) : std::nullopt;
        if (!idx) {
          set_unknown(name);
          return Flow::Normal;
        }
        long long i = static_cast<long long>(*idx);
        if (i < 0) i += static_cast<long long>(items.size());
        i = std::clamp<long long>(i, 0, static_cast<long long>(items.size()));
        items.insert(items.begin() + i, add_items.begin(), add_items.end());
      }
      if (add_items.empty() && !unknown_items) return Flow::Normal;
      write(std::move(items), from, a.size(), false, 0);
    } else if (op == "REMOVE_ITEM") {
      std::vector<std::string> out;
      bool unsure = false;
      for (size_t k = 2; k < a.size(); ++k) unsure = unsure || a[k].uncertain;
      for (auto& it : items)
        if (std::none_of(a.begin() + 2, a.end(), [&](const Arg& r) { return !is_placeholder(r) && r.text == it; }))
          out.push_back(std::move(it));
      write(std::move(out), 2, a.size(), unsure, 0);
    } else if (op == "REMOVE_DUPLICATES" || op == "SORT" || op == "REVERSE") {
      if (op == "REVERSE") std::reverse(items.begin(), items.end());
      else if (op == "SORT") std::sort(items.begin(), items.end());
      else {
        std::vector<std::string> out;
        std::unordered_set<std::string> seen;
        for (auto& it : items)
          if (seen.insert(it).second) out.push_back(std::move(it));
        items = std::move(out);
      }
      put(name, {join(items, ";"), cur.uncertain || cond_depth_ > 0, cur.taint});
    } else if (op == "LENGTH" && a.size() > 2) {
      put(a[2].text, {std::to_string(items.size()), cur.uncertain || cond_depth_ > 0});
    } else if (op == "JOIN" && a.size() > 3) {
      put(a[3].text, {join(items, a[2].text), cur.uncertain || cond_depth_ > 0, cur.taint});
    } else if (op == "FIND" && a.size() > 3) {
      auto it = std::find(items.begin(), items.end(), a[2].text);
      put(a[3].text, {it == items.end() ? "-1" : std::to_string(it - items.begin()), cur.uncertain || cond_depth_ > 0});
    } else if (op == "GET" && a.size() > 3) {
      std::vector<std::string> out;
      bool ok = true;
      for (size_t k = 2; k + 1 < a.size(); ++k) {
        auto idx = as_number(a[k].text);
        long long i = idx ? static_cast<long long>(*idx) : 0;
        if (idx && i < 0) i += static_cast<long long>(items.size());
        if (!idx || i < 0 || i >= static_cast<long long>(items.size())) ok = false;
        else out.push_back(items[static_cast<size_t>(i)]);
      }
      if (ok) put(a.back().text, {join(out, ";"), cur.uncertain || cond_depth_ > 0, cur.taint});
      else set_unknown(a.back().text);
    } else {
      // SUBLIST, TRANSFORM, FILTER, POP_*, REMOVE_AT, ...: the list and any output are unknown.
      set_unknown(name);
      if (a.size() > 2) set_unknown(a.back().text);
    }
    return Flow::Normal;
  }

  Flow do_string(const Unit& u, const Command& c, const Ctx& ctx) {
    auto a = expand_args(c, ctx);
    if (a.empty()) return Flow::Normal;
    const std::string op = a[0].text;
    auto concat = [&](size_t b, Var& v) {
      for (size_t k = b; k < a.size(); ++k) {
        v.value += a[k].text;
        v.uncertain = v.uncertain || a[k].uncertain;
        v.taint |= a[k].taint;
      }
    };
    if ((op == "APPEND" || op == "PREPEND") && a.size() >= 2) {
      const std::string& name = a[1].text;
      Var cur = current(name);
      Var add;
      concat(2, add);
      Var nv{op == "APPEND" ? cur.value + add.value : add.value + cur.value, cur.uncertain || add.uncertain,
             static_cast<uint8_t>(cur.taint | add.taint)};
      Site s = site(u, c, a, 1, 2, a.size(), ctx);
      set_var(name, std::move(nv), &s);
    } else if (op == "REPLACE" && a.size() >= 4) {
      Var in;
      concat(4, in);
      const std::string& from = a[1].text;
      std::string out;
      if (from.empty()) {
        out = in.value;
      } else {
        size_t p = 0;
        for (size_t q; (q = in.value.find(from, p)) != std::string::npos; p = q + from.size())
          out.append(in.value, p, q - p).append(a[2].text);
        out.append(in.value, p);
      }
      if (out.size() > kMaxValueBytes) out.resize(kMaxValueBytes), in.uncertain = true;
      charge(out.size());
      Site s = site(u, c, a, 3, 4, a.size(), ctx);
      set_var(a[3].text, {std::move(out), in.uncertain || a[1].uncertain || a[2].uncertain, in.taint}, &s);
    } else if ((op == "TOLOWER" || op == "TOUPPER" || op == "STRIP") && a.size() >= 3) {
      std::string v = a[1].text;
      if (op == "TOLOWER") v = lower(v);
      else if (op == "TOUPPER") v = upper(v);
      else {
        size_t b = 0, e = v.size();
        while (b < e && is_space(v[b])) ++b;
        while (e > b && is_space(v[e - 1])) --e;
        v = v.substr(b, e - b);
      }
      Site s = site(u, c, a, 2, 1, 2, ctx);
      set_var(a[2].text, {std::move(v), a[1].uncertain, a[1].taint}, &s);
    } else if (op == "CONCAT" && a.size() >= 2) {
      Var v;
      concat(2, v);
      Site s = site(u, c, a, 1, 2, a.size(), ctx);
      set_var(a[1].text, std::move(v), &s);
    } else if (op == "JOIN" && a.size() >= 3) {
      std::vector<std::string> parts;
      Var v;
      for (size_t k = 3; k < a.size(); ++k) {
        parts.push_back(a[k].text);
        v.uncertain = v.uncertain || a[k].uncertain;
        v.taint |= a[k].taint;
      }
      v.value = join(parts, a[1].text);
      Site s = site(u, c, a, 2, 3, a.size(), ctx);
      set_var(a[2].text, std::move(v), &s);
    } else if (op == "LENGTH" && a.size() >= 3) {
      put(a[2].text, {std::to_string(a[1].text.size()), a[1].uncertain || cond_depth_ > 0});
    } else if (op == "REGEX" && a.size() >= 4) {
      set_unknown(a[1].text == "REPLACE" && a.size() >= 5 ? a[4].text : a[3].text);
    } else if (a.size() >= 2) {
      // FIND, SUBSTRING, COMPARE, hashes, TIMESTAMP, ...: the output variable is unknown.
      static constexpr std::string_view kOutSecond[] = {"MD5", "SHA1", "SHA224", "SHA256", "SHA384", "SHA512",
                                                        "TIMESTAMP", "UUID", "JSON"};
      if (std::find(std::begin(kOutSecond), std::end(kOutSecond), op) != std::end(kOutSecond)) set_unknown(a[1].text);
      else set_unknown(a.back().text);
    }
    return Flow::Normal;
  }

  Flow do_parse_arguments(const Command& c, const Ctx& ctx) {
    auto a = expand_args(c, ctx);
    std::vector<std::string> inputs;
    bool unsure = cond_depth_ > 0;
    size_t p = 0;
    if (kw(a, 0, "PARSE_ARGV")) {
      if (a.size() < 6) return Flow::Normal;
      auto n = as_number(a[1].text);
      const Var* argc = resolve("ARGC");
      if (!n || !argc || !as_number(argc->value)) {
        unsure = true;
      } else {
        for (long long k = static_cast<long long>(*n); k < static_cast<long long>(*as_number(argc->value)); ++k) {
          const Var* v = resolve(fmt::format("ARGV{}", k));
          if (!v) unsure = true;
          else inputs.push_back(v->value), unsure = unsure || v->uncertain;
        }
      }
      p = 2;
    } else {
      if (a.size() < 4) return Flow::Normal;
      for (size_t k = 4; k < a.size(); ++k) inputs.push_back(a[k].text), unsure = unsure || a[k].uncertain;
    }
    const std::string prefix = a[p].text + "_";
    auto opts = split_list(a[p + 1].text, false), one = split_list(a[p + 2].text, false),
         multi = split_list(a[p + 3].text, false);
    auto in = [](const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); };
    std::map<std::string, std::vector<std::string>> vals;
    std::set<std::string> seen;
    std::vector<std::string> unparsed, missing;
    std::string cur;
    bool cur_one = false;
    for (const auto& x : inputs) {
      if (in(opts, x) || in(one, x) || in(multi, x)) {
        if (!cur.empty() && vals[cur].empty()) missing.push_back(cur);
        cur.clear();
        if (in(opts, x)) {
          seen.insert(x);
          continue;
        }
        cur = x;
        cur_one = in(one, x);
        seen.insert(x);
        vals[x].clear();
        continue;
      }
      if (cur.empty()) {
        unparsed.push_back(x);
        continue;
      }
      vals[cur].push_back(x);
      if (cur_one) cur.clear();
    }
    if (!cur.empty() && vals[cur].empty()) missing.push_back(cur);
    for (const auto& o : opts) put(prefix + o, {seen.count(o) ? "TRUE" : "FALSE", unsure});
    for (const auto* group : {&one, &multi})
      for (const auto& k : *group) {
        if (vals.count(k) && !vals[k].empty()) put(prefix + k, {join(vals[k], ";"), unsure});
        else if (unsure) set_unknown(prefix + k);
        else scopes_.back()[prefix + k] = Entry{Entry::State::Unset, {}};
      }
    if (!unparsed.empty() || unsure) put(prefix + "UNPARSED_ARGUMENTS", {join(unparsed, ";"), unsure});
    if (!missing.empty()) put(prefix + "KEYWORDS_MISSING_VALUES", {join(missing, ";"), unsure});
    return Flow::Normal;
  }

  void do_project(const Unit& u, const Command& c, const Ctx& ctx) {
    auto a = expand_args(c, ctx);
    if (a.empty()) return;
    put("PROJECT_NAME", {a[0].text, a[0].uncertain || cond_depth_ > 0});
    put("PROJECT_SOURCE_DIR", {src_dir_});
    put(a[0].text + "_SOURCE_DIR", {src_dir_});
    if (!resolve("CMAKE_PROJECT_NAME")) put("CMAKE_PROJECT_NAME", {a[0].text, a[0].uncertain});
    bool keywords = false, langs = true;
    for (size_t k = 1; k < a.size(); ++k) {
      const std::string& t = a[k].text;
      if (t == "VERSION" || t == "DESCRIPTION" || t == "HOMEPAGE_URL") {
        if (t == "VERSION" && k + 1 < a.size()) put("PROJECT_VERSION", {a[k + 1].text, a[k + 1].uncertain});
        keywords = true;
        langs = false;
        ++k;
      } else if (t == "LANGUAGES") {
        keywords = langs = true;
      } else if (langs && t == "CUDA") {
        first(res_.facts.cuda_language, value_at(u, c.args[a[k].src].span, "CUDA", a[k].uncertain));
      }
    }
    (void)keywords;
  }

  void do_find_package(const Unit& u, const Command& c, const Ctx& ctx) {
    auto a = expand_args(c, ctx);
    if (a.empty()) return;
    const std::string& pkg = a[0].text;
    Span at = c.args[a[0].src].span;
    if (pkg == "Torch") first(res_.facts.find_package_torch, value_at(u, at, "Torch", false));
    if (pkg == "CUDA") add(res_.facts.legacy_find_cuda, "legacy", value_at(u, at, "find_package(CUDA)", false));
    if (pkg == "CUDAToolkit" && a.size() > 1 && !a[1].text.empty() && is_digit(a[1].text[0])) {
      std::string v = a[1].text.substr(0, a[1].text.find("..."));
      first(res_.facts.cuda_toolkit_version, value_at(u, c.args[a[1].src].span, v, a[1].uncertain));
    }
    set_unknown(pkg + "_FOUND");
  }

  // set_property(TARGET ...) / set_target_properties / set_property(DIRECTORY ...) values.
  void property(const Unit& u, const Command& c, const std::vector<std::string>& targets, const std::string& prop,
                const std::vector<Arg>& a, size_t vb, size_t ve, const Ctx& ctx, bool is_target) {
    if (vb > ve || ve > a.size()) return;
    size_t rb = vb < ve ? a[vb].src : 0, re = vb < ve ? a[ve - 1].src + 1 : 0;
    if (prop == "CUDA_ARCHITECTURES" && is_target) {
      Var v = value_of(a, vb, ve);
      for (const auto& t : targets)
        add(res_.facts.target_cuda_architectures, "tca", t, value_at(u, span_of(c, rb, re, 0), v.value, v.uncertain));
    } else if (prop == "COMPILE_DEFINITIONS") {
      for (const auto& t : targets) defines_from_args(u, c, rb, re, ctx, t, false);
    } else if (prop == "COMPILE_OPTIONS" || prop == "COMPILE_FLAGS") {
      for (const auto& t : targets) flags_from_args(u, c, rb, re, ctx, t, true, true);
    }
  }

  void do_set_property(const Unit& u, const Command& c, const Ctx& ctx) {
    auto a = expand_args(c, ctx);
    if (a.empty()) return;
    bool target = kw(a, 0, "TARGET"), dir = kw(a, 0, "DIRECTORY");
    if (!target && !dir) return;
    std::vector<std::string> targets;
    size_t k = 1;
    for (; k < a.size() && !kw(a, k, "PROPERTY"); ++k)
      if (target && !kw(a, k, "APPEND") && !kw(a, k, "APPEND_STRING")) targets.push_back(a[k].text);
    if (dir) targets = {""};
    if (k + 1 >= a.size()) return;
    property(u, c, targets, a[k + 1].text, a, k + 2, a.size(), ctx, target);
  }

  void do_set_target_properties(const Unit& u, const Command& c, const Ctx& ctx) {
    auto a = expand_args(c, ctx);
    size_t k = 0;
    std::vector<std::string> targets;
    for (; k < a.size() && !kw(a, k, "PROPERTIES"); ++k) targets.push_back(a[k].text);
    for (k = k + 1; k + 1 < a.size(); k += 2) property(u, c, targets, a[k].text, a, k + 1, k + 2, ctx, true);
  }

  void do_link(const Unit& u, const Command& c, const Ctx& ctx) {
    if (c.args.empty()) return;
    std::string target = expand_one(c.args[0], ctx).text;
    static constexpr std::string_view kKeywords[] = {"PRIVATE", "PUBLIC", "INTERFACE", "LINK_PRIVATE",
                                                     "LINK_PUBLIC", "LINK_INTERFACE_LIBRARIES", "debug", "optimized",
                                                     "general"};
    for (size_t k = 1; k < c.args.size(); ++k) {
      const Argument& arg = c.args[k];
      if (arg.kind == Argument::Kind::Unquoted &&
          std::find(std::begin(kKeywords), std::end(kKeywords), arg.raw) != std::end(kKeywords))
        continue;
      Expanded x = expand_one(arg, ctx);
      bool torch = (x.taint & kTorchLibs) != 0;
      for (const auto& el : split_list(strip_genex(x.text), false)) torch = torch || el == "torch" || el == "Torch::Torch";
      if (torch && linked_.insert(target).second)
        res_.facts.torch_linked_targets.push_back({target, value_at(u, arg.span, arg.raw, false)});
    }
  }

  Flow exec_command(const Unit& u, const Command& c, Ctx& ctx) {
    const std::string& n = c.name;
    if (auto it = callables_.find(n); it != callables_.end()) {
      Callable def = it->second;  // a copy: the body may redefine the command
      return call(u, c, def, ctx);
    }
    if (n == "set") return do_set(u, c, ctx);
    if (n == "unset") return do_unset(c, ctx);
    if (n == "option") return do_option(c, ctx);
    if (n == "list") return do_list(u, c, ctx);
    if (n == "string") return do_string(u, c, ctx);
    if (n == "include") return do_include(u, c, ctx);
    if (n == "add_subdirectory") return do_add_subdirectory(u, c, ctx);
    if (n == "cmake_parse_arguments") return do_parse_arguments(c, ctx);
    if (n == "return" || n == "break") {
      bool ret = n == "return";
      int base = ret ? ctx.return_base : ctx.loop_base;
      int* extra = ret ? ctx.return_extra : ctx.loop_extra;
      if (base < 0) return Flow::Normal;  // break() outside a loop
      if (cond_depth_ == base) return ret ? Flow::Return : Flow::Break;
      // Maybe taken: whatever follows in this frame only maybe runs.
      if (extra && *extra == 0) {
        *extra = 1;
        ++cond_depth_;
      }
      return Flow::Normal;
    }
    if (n == "project") do_project(u, c, ctx);
    else if (n == "enable_language") {
      auto a = expand_args(c, ctx);
      for (const auto& x : a)
        if (x.text == "CUDA") first(res_.facts.cuda_language, value_at(u, c.args[x.src].span, "CUDA", x.uncertain));
    } else if (n == "cmake_minimum_required") {
      auto a = expand_args(c, ctx);
      for (size_t k = 0; k + 1 < a.size(); ++k)
        if (kw(a, k, "VERSION")) {
          std::string v = a[k + 1].text.substr(0, a[k + 1].text.find("..."));
          first(res_.facts.cmake_minimum_required, value_at(u, c.args[a[k + 1].src].span, v, a[k + 1].uncertain));
          break;
        }
    } else if (n == "find_package") {
      do_find_package(u, c, ctx);
    } else if (n == "set_property") {
      do_set_property(u, c, ctx);
    } else if (n == "set_target_properties") {
      do_set_target_properties(u, c, ctx);
    } else if (n == "target_compile_definitions" && !c.args.empty()) {
      defines_from_args(u, c, 1, c.args.size(), ctx, expand_one(c.args[0], ctx).text, false);
    } else if (n == "add_compile_definitions") {
      defines_from_args(u, c, 0, c.args.size(), ctx, "", false);
    } else if (n == "add_definitions") {
      flags_from_args(u, c, 0, c.args.size(), ctx, "", false, true);
      for (size_t k = 0; k < c.args.size(); ++k)
        if (expand_one(c.args[k], ctx).taint & kTorchCxxFlags)
          add(res_.facts.torch_cxx_flags_uses, "tcf", value_at(u, c.args[k].span, c.args[k].raw, false));
    } else if (n == "target_compile_options" && !c.args.empty()) {
      flags_from_args(u, c, 1, c.args.size(), ctx, expand_one(c.args[0], ctx).text, true, true);
    } else if (n == "add_compile_options") {
      flags_from_args(u, c, 0, c.args.size(), ctx, "", true, true);
    } else if (n == "target_link_libraries") {
      do_link(u, c, ctx);
    } else if (n == "cuda_add_library" || n == "cuda_add_executable" || n == "cuda_compile" || n == "cuda_compile_ptx" ||
               n == "cuda_wrap_srcs" || n == "cuda_include_directories" || n == "cuda_add_cufft_to_target" ||
               n == "cuda_add_cublas_to_target") {
      add(res_.facts.legacy_find_cuda, "legacy", value_at(u, c.name_span, n, false));
      if (n == "cuda_compile" || n == "cuda_compile_ptx" || n == "cuda_wrap_srcs") unknown_outputs(c, ctx, {0});
    } else {
      unknown_writes(c, ctx);
    }
    return Flow::Normal;
  }

  void unknown_outputs(const Command& c, const Ctx& ctx, std::initializer_list<size_t> which) {
    auto a = expand_args(c, ctx);
    for (size_t k : which)
      if (k < a.size()) set_unknown(a[k].text);
  }

  // Commands whose output variables we cannot compute: those variables become unknown.
  void unknown_writes(const Command& c, const Ctx& ctx) {
    const std::string& n = c.name;
    static constexpr std::string_view kFirst[] = {
        "get_filename_component", "get_target_property", "get_property", "get_directory_property",
        "get_source_file_property", "get_cmake_property", "find_program", "find_library", "find_path", "find_file",
        "try_compile", "site_name", "cuda_select_nvcc_arch_flags", "separate_arguments", "configure_file"};
    if (n == "configure_file") return;
    if (std::find(std::begin(kFirst), std::end(kFirst), n) != std::end(kFirst)) {
      if (n == "separate_arguments") return do_separate_arguments(c, ctx);
      return unknown_outputs(c, ctx, {0});
    }
    if (n == "try_run") return unknown_outputs(c, ctx, {0, 1});
    if (n == "math" || n == "aux_source_directory" || n == "cmake_host_system_information") return unknown_outputs(c, ctx, {1});
    if (n.starts_with("check_")) {
      auto a = expand_args(c, ctx);
      if (a.size() >= 2) set_unknown(a[1].text), set_unknown(a.back().text);
      return;
    }
    if (n == "file") {
      auto a = expand_args(c, ctx);
      if (a.size() < 2) return;
      const std::string& op = a[0].text;
      if (op == "GLOB" || op == "GLOB_RECURSE" || op == "RELATIVE_PATH") set_unknown(a[1].text);
      else if (a.size() >= 3 && op != "WRITE" && op != "APPEND" && op != "MAKE_DIRECTORY" && op != "COPY" &&
               op != "INSTALL" && op != "REMOVE" && op != "REMOVE_RECURSE" && op != "DOWNLOAD" && op != "UPLOAD" &&
               op != "TOUCH" && op != "GENERATE" && op != "CONFIGURE")
        set_unknown(a[2].text);
      return;
    }
    if (n == "execute_process" || n == "cmake_path") {
      auto a = expand_args(c, ctx);
      for (size_t k = 0; k + 1 < a.size(); ++k)
        if (a[k].text.ends_with("_VARIABLE")) set_unknown(a[k + 1].text);
      if (n == "cmake_path" && a.size() >= 3 && (a[0].text == "GET" || a[0].text == "RELATIVE_PATH")) set_unknown(a.back().text);
    }
  }

  void do_separate_arguments(const Command& c, const Ctx& ctx) {
    auto a = expand_args(c, ctx);
    if (a.empty()) return;
    Var src;
    if (a.size() == 1) {
      if (const Var* v = resolve(a[0].text)) src = *v;
      else return set_unknown(a[0].text);
    } else if (a.size() >= 3) {
      src = {a[2].text, a[2].uncertain, a[2].taint};
    } else {
      return put(a[0].text, {"", cond_depth_ > 0});
    }
    std::vector<std::string> words;
    std::string cur;
    for (char ch : src.value) {
      if (is_space(ch)) {
        if (!cur.empty()) words.push_back(std::move(cur));
        cur.clear();
      } else {
        cur += ch;
      }
    }
    if (!cur.empty()) words.push_back(std::move(cur));
    put(a[0].text, {join(words, ";"), src.uncertain || cond_depth_ > 0, src.taint});
  }

  const FileLoader& load_;
  const DisplayPath& display_;
  EvalResult res_;
  std::map<std::string, std::unique_ptr<Unit>> units_;
  std::set<std::string> read_;
  std::vector<Scope> scopes_;
  std::unordered_map<std::string, Var> cache_;
  std::unordered_map<std::string, std::optional<Var>> env_;  // nullopt: unset by the project
  std::unordered_map<std::string, Callable> callables_;
  std::unordered_set<std::string> seen_;
  std::set<std::string> linked_;
  std::set<std::string> limit_sites_;
  std::string src_dir_, list_dir_;
  Origin where_;
  size_t commands_ = 0;
  mutable uint64_t work_ = 0;
  int cond_depth_ = 0;
  int depth_ = 0;
  int nesting_ = 0;
  bool stopped_ = false;
};

}  // namespace

EvalResult evaluate(const std::string& top_level_abs_path, const FileLoader& load, const DisplayPath& display) {
  return Evaluator(load, display).run(top_level_abs_path);
}

}  // namespace cudalint::cmake
