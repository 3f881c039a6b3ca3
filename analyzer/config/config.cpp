#include "analyzer/config/config.h"

#include <algorithm>
#include <exception>
#include <span>

#include <fmt/format.h>
#include <toml++/toml.h>

#include "analyzer/core/text.h"
#include "analyzer/core/toml_positions.h"

namespace cudalint::config {

namespace {

using Kind = ConfigError::Kind;

constexpr std::string_view kTopKeys[] = {
    "select",  "extend-select", "ignore",       "per-file-ignores", "exclude",
    "severity", "target-archs", "cuda-version", "max-file-size",    "graph-breaks",
};
constexpr std::string_view kGraphBreakKeys[] = {"entry-points"};


// Optimal string alignment distance, stopping early once it must exceed `limit`.
size_t edit_distance(std::string_view a, std::string_view b, size_t limit) {
  if ((a.size() > b.size() ? a.size() - b.size() : b.size() - a.size()) > limit) return limit + 1;
  std::vector<size_t> prev2(b.size() + 1), prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        cur[j] = std::min(cur[j], prev2[j - 2] + 1);
    }
    prev2.swap(prev);
    prev.swap(cur);
  }
  return prev[b.size()];
}

// User text quoted in a message: control characters escaped and long text shortened, so
// a hostile key cannot forge output lines or flood the report.
std::string shown(std::string_view s, size_t max_bytes = 80) { return text::escaped(s, max_bytes); }

std::string_view with_article(toml::node_type t) {
  switch (t) {
    case toml::node_type::table: return "a table";
    case toml::node_type::array: return "an array";
    case toml::node_type::string: return "a string";
    case toml::node_type::integer: return "an integer";
    case toml::node_type::floating_point: return "a float";
    case toml::node_type::boolean: return "a boolean";
    case toml::node_type::date: return "a date";
    case toml::node_type::time: return "a time";
    case toml::node_type::date_time: return "a date-time";
    case toml::node_type::none: break;
  }
  return "nothing";
}

std::string join(std::span<const std::string_view> names) {
  std::string out;
  for (auto n : names) {
    if (!out.empty()) out += ", ";
    out += n;
  }
  return out;
}

// \d+\.\d+(\.\d+)?
bool is_cuda_version(std::string_view s) {
  int parts = 0;
  size_t i = 0;
  while (true) {
    size_t start = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    if (i == start) return false;
    ++parts;
    if (i == s.size()) return parts >= 2;
    if (s[i] != '.' || parts == 3) return false;
    ++i;
  }
}

// One load: the file, the position map and the errors found so far.
class Loader {
 public:
  Loader(const SourceFile& file, const SelectorCheck& is_selector, bool pyproject)
      : file_(file), is_selector_(is_selector), pos_(file.text), pyproject_(pyproject) {}

  std::vector<ConfigError>& errors() { return errors_; }

  void syntax_error(const toml::parse_error& e) {
    Span span = pos_.char_at(e.source().begin);
    std::string desc(e.description());
    // toml++ writes sentences ("Error while parsing ..."); messages here start lower-case.
    if (desc.size() > 1 && desc[0] >= 'A' && desc[0] <= 'Z' && desc[1] >= 'a' && desc[1] <= 'z')
      desc[0] = static_cast<char>(desc[0] - 'A' + 'a');
    while (!desc.empty() && (desc.back() == '.' || desc.back() == ' ')) desc.pop_back();
    error(Kind::Syntax, span,
          fmt::format("invalid TOML in {} (line {}): {}", file_.path,
                      file_.lines.line_of(span.begin), shown(desc, 400)));
  }

  void overlong_key_error(uint32_t at) {
    error(Kind::Syntax, {at, at + 1},
          fmt::format("key path with more than {} dotted parts in {} (line {}); cudalint "
                      "does not read it",
                      kMaxKeyParts, file_.path, file_.lines.line_of(at)));
  }

  void section_not_table(const toml::key& key, const toml::node& value) {
    error(Kind::BadValue, key_span(key, value),
          fmt::format("`tool.cudalint` must be a table, not {}", with_article(value.type())));
  }

  // Reads the cudalint settings of `section` ([tool.cudalint] or the whole file).
  void read(const toml::table& section, Config& cfg) {
    for (auto&& [key, value] : section) {
      std::string_view k = key.str();
      if (k == "select") {
        if (auto v = strings(k, value, true)) cfg.select = std::move(*v);
      } else if (k == "extend-select") {
        if (auto v = strings(k, value, true)) cfg.extend_select = std::move(*v);
      } else if (k == "ignore") {
        if (auto v = strings(k, value, true)) cfg.ignore = std::move(*v);
      } else if (k == "exclude") {
        if (auto v = strings(k, value, false)) cfg.exclude = std::move(*v);
      } else if (k == "per-file-ignores") {
        per_file_ignores(value, cfg);
      } else if (k == "severity") {
        severities(value, cfg);
      } else if (k == "target-archs") {
        if (auto* s = value.as_string()) {
          cfg.target_archs = Located<std::string>{s->get(), origin(value)};
        } else {
          type_error(k, value, "a string in TORCH_CUDA_ARCH_LIST syntax");
        }
      } else if (k == "cuda-version") {
        cuda_version(value, cfg);
      } else if (k == "max-file-size") {
        max_file_size(value, cfg);
      } else if (k == "graph-breaks") {
        graph_breaks(value, cfg);
      } else {
        unknown_key(key, value, kTopKeys, pyproject_ ? "[tool.cudalint]" : file_.path,
                    !pyproject_ && k == "tool");
      }
    }
    // Tables iterate in key order; file order is what users expect to see.
    std::stable_sort(cfg.per_file_ignores.begin(), cfg.per_file_ignores.end(),
                     [](const PerFileIgnore& a, const PerFileIgnore& b) {
                       return a.origin.span.begin < b.origin.span.begin;
                     });
  }

 private:
  Origin origin(Span s) const { return {file_.path, s}; }
  Origin origin(const toml::node& n) const { return origin(pos_.span(n.source())); }
  // A key's own bytes when toml++ knows them, else its value's.
  Span key_span(const toml::key& k, const toml::node& v) const {
    return k.source().begin.line != 0 ? pos_.span(k.source()) : pos_.span(v.source());
  }
  std::string_view raw(const toml::node& n) const {
    Span s = pos_.span(n.source());
    return std::string_view(file_.text).substr(s.begin, s.end - s.begin);
  }

  void error(Kind kind, Span span, std::string message) {
    errors_.push_back({origin(span), std::move(message), kind});
  }
  void error(Kind kind, const toml::node& at, std::string message) {
    error(kind, pos_.span(at.source()), std::move(message));
  }

  void type_error(std::string_view name, const toml::node& v, std::string_view expected) {
    error(Kind::BadValue, v,
          fmt::format("`{}` must be {}, not {}", name, expected, with_article(v.type())));
  }

  void unknown_key(const toml::key& key, const toml::node& value,
                   std::span<const std::string_view> known, std::string_view where,
                   bool tool_in_cudalint_toml) {
    std::string_view k = key.str();
    std::string msg = fmt::format("unknown key `{}` in {} (known: {})", shown(k), where, join(known));
    // Closest known key within two edits; the first in `known` wins a tie.
    std::string_view best;
    size_t best_d = 3;
    for (auto cand : known) {
      size_t d = edit_distance(k, cand, 2);
      if (d < best_d) { best_d = d; best = cand; }
    }
    if (!best.empty()) {
      msg += fmt::format("; did you mean `{}`?", best);
    } else if (tool_in_cudalint_toml) {
      msg += "; in cudalint.toml the settings are top-level keys, without [tool.cudalint]";
    }
    error(Kind::UnknownKey, key_span(key, value), std::move(msg));
  }

  // An array of strings; `selectors` also checks each with `is_selector`. Returns the
  // valid items, or nullopt when `v` is not an array at all.
  std::optional<std::vector<Located<std::string>>> strings(std::string_view name,
                                                           const toml::node& v,
                                                           bool selectors) {
    const toml::array* arr = v.as_array();
    if (!arr) {
      std::string msg = fmt::format("`{}` must be an array of strings, not {}", name,
                                    with_article(v.type()));
      if (v.is_string()) msg += fmt::format(" (write `[{}]`)", shown(raw(v)));
      error(Kind::BadValue, v, std::move(msg));
      return std::nullopt;
    }
    std::vector<Located<std::string>> out;
    size_t index = 0;
    for (const toml::node& item : *arr) {
      ++index;
      const auto* s = item.as_string();
      if (!s) {
        error(Kind::BadValue, item,
              fmt::format("`{}` must be an array of strings, but item {} is {}", name, index,
                          with_article(item.type())));
        continue;
      }
      const std::string& text = s->get();
      if (selectors && !valid_selector(text, name, item)) continue;
      if (!selectors && text.empty()) {
        error(Kind::BadValue, item, fmt::format("empty glob in `{}`", name));
        continue;
      }
      out.push_back({text, origin(item)});
    }
    return out;
  }

  bool valid_selector(const std::string& text, std::string_view name, const toml::node& at) {
    if (text.empty()) {
      error(Kind::BadValue, at, fmt::format("empty rule selector in `{}`", name));
      return false;
    }
    if (is_selector_ && is_selector_(text)) return true;
    error(Kind::BadValue, at, fmt::format("unknown rule selector `{}` in `{}`", shown(text), name));
    return false;
  }

  void per_file_ignores(const toml::node& v, Config& cfg) {
    const toml::table* t = v.as_table();
    if (!t) return type_error("per-file-ignores", v, "a table of glob = [selectors]");
    for (auto&& [key, value] : *t) {
      std::string glob(key.str());
      if (glob.empty()) {
        error(Kind::BadValue, key_span(key, value), "empty glob in `per-file-ignores`");
        continue;
      }
      // Messages quote the name in backticks: "`per-file-ignores` entry `tests/*` must ...".
      std::string name = fmt::format("per-file-ignores` entry `{}", shown(glob));
      auto sels = strings(name, value, true);
      if (!sels) continue;
      PerFileIgnore p;
      p.glob = std::move(glob);
      for (auto& s : *sels) p.selectors.push_back(std::move(s.value));
      // The whole entry, `"glob" = [...]`.
      p.origin = origin(Span{key_span(key, value).begin, pos_.span(value.source()).end});
      cfg.per_file_ignores.push_back(std::move(p));
    }
  }

  void severities(const toml::node& v, Config& cfg) {
    const toml::table* t = v.as_table();
    if (!t) return type_error("severity", v, "a table of selector = \"error\" | \"warning\" | \"info\"");
    for (auto&& [key, value] : *t) {
      std::string sel(key.str());
      if (sel.empty() || !is_selector_ || !is_selector_(sel)) {
        error(Kind::BadValue, key_span(key, value),
              sel.empty() ? std::string("empty rule selector in `severity`")
                          : fmt::format("unknown rule selector `{}` in `severity`", shown(sel)));
        continue;
      }
      const auto* s = value.as_string();
      if (!s) {
        error(Kind::BadValue, value,
              fmt::format("severity for `{}` must be \"error\", \"warning\" or \"info\", not {}",
                          sel, with_article(value.type())));
        continue;
      }
      Severity sev{};
      if (!parse_severity(s->get(), sev)) {
        error(Kind::BadValue, value,
              fmt::format("invalid severity `{}` for `{}` (expected \"error\", \"warning\" or \"info\")",
                          shown(s->get()), sel));
        continue;
      }
      cfg.severity[sel] = Located<Severity>{sev, origin(value)};
    }
  }

  void cuda_version(const toml::node& v, Config& cfg) {
    const auto* s = v.as_string();
    if (!s) {
      std::string msg = fmt::format("`cuda-version` must be a string such as \"12.4\", not {}",
                                    with_article(v.type()));
      // An unquoted 12.10 would be read as the float 12.1.
      if (v.is_number()) msg += fmt::format(" (write `\"{}\"` with quotes)", shown(raw(v)));
      return error(Kind::BadValue, v, std::move(msg));
    }
    if (!is_cuda_version(s->get()))
      return error(Kind::BadValue, v,
                   fmt::format("invalid `cuda-version` `{}` (expected MAJOR.MINOR or "
                               "MAJOR.MINOR.PATCH, such as \"12.4\")",
                               shown(s->get())));
    cfg.cuda_version = Located<std::string>{s->get(), origin(v)};
  }

  void max_file_size(const toml::node& v, Config& cfg) {
    const auto* n = v.as_integer();
    if (!n) return type_error("max-file-size", v, "a positive integer (bytes)");
    if (n->get() <= 0)
      return error(Kind::BadValue, v,
                   fmt::format("`max-file-size` must be a positive integer (bytes), not {}", n->get()));
    cfg.max_file_size = Located<uint64_t>{static_cast<uint64_t>(n->get()), origin(v)};
  }

  void graph_breaks(const toml::node& v, Config& cfg) {
    const toml::table* t = v.as_table();
    if (!t) return type_error("graph-breaks", v, "a table");
    for (auto&& [key, value] : *t) {
      if (key.str() == "entry-points") {
        if (auto e = strings("graph-breaks.entry-points", value, false)) {
          // Globs over dotted names (`pkg.mod.Class.method`, `pkg.mod:func`): an empty one,
          // one with a path separator or space, or an unclosed `[` would silently match nothing.
          std::erase_if(*e, [&](const Located<std::string>& g) {
            std::string_view why;
            size_t open = g.value.find('[');
            if (g.value.empty()) why = "is empty";
            else if (g.value.find_first_of("/\\ \t") != std::string::npos)
              why = "is not a dotted name (write `pkg.module.function`, or `pkg.module:Class.method`)";
            else if (std::count(g.value.begin(), g.value.end(), ':') > 1) why = "has more than one `:`";
            else if (open != std::string::npos && g.value.find(']', open + 1) == std::string::npos)
              why = "has an unclosed `[`";
            if (why.empty()) return false;
            errors_.push_back({g.origin,
                               fmt::format("`graph-breaks.entry-points` entry `{}` {}", shown(g.value), why),
                               Kind::BadValue});
            return true;
          });
          cfg.graph_break_entry_points = std::move(*e);
        }
      } else {
        unknown_key(key, value, kGraphBreakKeys,
                    pyproject_ ? "[tool.cudalint.graph-breaks]" : "[graph-breaks]", false);
      }
    }
  }

  const SourceFile& file_;
  const SelectorCheck& is_selector_;
  PositionMap pos_;
  bool pyproject_;
  std::vector<ConfigError> errors_;
};

LoadResult load(const SourceFile& file, const std::string& fs_dir, const SelectorCheck& is_selector) {
  LoadResult result;
  const bool pyproject = file.kind == FileKind::PyProject;
  Loader loader(file, is_selector, pyproject);
  auto finish = [&] {
    std::stable_sort(loader.errors().begin(), loader.errors().end(),
                     [](const ConfigError& a, const ConfigError& b) {
                       return a.where.span.begin < b.where.span.begin;
                     });
    result.errors = std::move(loader.errors());
    return std::move(result);
  };

  if (auto at = overlong_key_path(file.text)) {
    loader.overlong_key_error(*at);
    return finish();
  }
  toml::table root;
  try {
    root = toml::parse(std::string_view(file.text), std::string_view(file.path));
  } catch (const toml::parse_error& e) {
    loader.syntax_error(e);
    return finish();
  }

  const toml::table* section = &root;
  if (pyproject) {
    const toml::table* tool = root["tool"].as_table();
    if (!tool) return finish();
    for (auto&& [key, value] : *tool) {
      if (key.str() != "cudalint") continue;
      section = value.as_table();
      if (!section) {
        loader.section_not_table(key, value);
        return finish();
      }
    }
    // Not configured here; other tools' sections are not ours to check.
    if (section == &root) return finish();
  }

  Config cfg;
  cfg.path = file.path;
  cfg.dir = fs_dir;
  loader.read(*section, cfg);
  result.config = std::move(cfg);
  return finish();
}

}  // namespace

LoadResult load_config(const SourceFile& file, const std::string& fs_dir,
                       const SelectorCheck& is_selector) {
  // The contract is "never throws": anything unexpected (allocation failure, a bug in a
  // dependency) becomes a config error, which fails the run instead of crashing it.
  try {
    return load(file, fs_dir, is_selector);
  } catch (const std::exception& e) {
    LoadResult r;
    r.errors.push_back({Origin{file.path, {0, 0}},
                        fmt::format("cannot read configuration {}: {}", file.path, e.what()),
                        Kind::Syntax});
    return r;
  } catch (...) {
    LoadResult r;
    r.errors.push_back({Origin{file.path, {0, 0}},
                        fmt::format("cannot read configuration {}: unknown error", file.path),
                        Kind::Syntax});
    return r;
  }
}

}  // namespace cudalint::config
