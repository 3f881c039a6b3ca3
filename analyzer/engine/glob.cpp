#include "analyzer/engine/glob.h"

#include <cctype>
#include <utility>

namespace cudalint {

namespace {

// Outcome of matching a pattern tail against a text tail. The two abort values prune the
// backtracking (the idea behind git's wildmatch): once the text ran out, no later start can
// help (AbortAll); once a single `*` hit a '/', only an enclosing `**/` can still help
// (AbortToDoubleStar). Without them, patterns with many stars are exponential.
enum class Wild { Match, NoMatch, AbortAll, AbortToDoubleStar };

// POSIX `[:name:]` inside a bracket expression. `known` is false for an unknown name, which
// makes the whole pattern invalid (git never matches it either).
bool posix_class_matches(std::string_view name, unsigned char c, bool& known) {
  known = true;
  if (name == "alnum") return std::isalnum(c);
  if (name == "alpha") return std::isalpha(c);
  if (name == "blank") return c == ' ' || c == '\t';
  if (name == "cntrl") return std::iscntrl(c);
  if (name == "digit") return std::isdigit(c);
  if (name == "graph") return std::isgraph(c);
  if (name == "lower") return std::islower(c);
  if (name == "print") return std::isprint(c);
  if (name == "punct") return std::ispunct(c);
  if (name == "space") return std::isspace(c);
  if (name == "upper") return std::isupper(c);
  if (name == "xdigit") return std::isxdigit(c);
  known = false;
  return false;
}

// Matches the bracket expression starting at pat[pi] == '[' against `c`. On success `pi` is
// moved past the closing ']'. Returns false with `valid` false for a malformed expression.
bool bracket_matches(std::string_view pat, size_t& pi, unsigned char c, bool& valid) {
  valid = true;
  size_t i = pi + 1;
  bool negate = i < pat.size() && (pat[i] == '!' || pat[i] == '^');
  if (negate) ++i;
  bool hit = false;
  bool first = true;  // a ']' right after `[` or `[!` is a literal
  while (true) {
    if (i >= pat.size()) { valid = false; return false; }
    unsigned char lo = static_cast<unsigned char>(pat[i]);
    if (lo == ']' && !first) break;
    first = false;
    if (lo == '[' && i + 1 < pat.size() && pat[i + 1] == ':') {
      size_t end = pat.find(":]", i + 2);
      if (end == std::string_view::npos) { valid = false; return false; }
      bool known = false;
      if (posix_class_matches(pat.substr(i + 2, end - i - 2), c, known)) hit = true;
      if (!known) { valid = false; return false; }
      i = end + 2;
      continue;
    }
    if (lo == '\\') {
      if (++i >= pat.size()) { valid = false; return false; }
      lo = static_cast<unsigned char>(pat[i]);
    }
    ++i;
    unsigned char hi = lo;
    if (i + 1 < pat.size() && pat[i] == '-' && pat[i + 1] != ']') {
      hi = static_cast<unsigned char>(pat[i + 1]);
      i += 2;
      if (hi == '\\') {
        if (i >= pat.size()) { valid = false; return false; }
        hi = static_cast<unsigned char>(pat[i++]);
      }
    }
    if (c >= lo && c <= hi) hit = true;
  }
  pi = i;  // at the closing ']'
  return hit != negate;
}

// gitignore matching of pat[pi..] against text[ti..], with `*`, `?` and classes never
// matching '/', and `**` special only as a whole path component.
Wild wild(std::string_view pat, size_t pi, std::string_view text, size_t ti) {
  for (; pi < pat.size(); ++pi, ++ti) {
    char pc = pat[pi];
    if (pc == '*') {
      size_t first = pi;
      while (pi + 1 < pat.size() && pat[pi + 1] == '*') ++pi;
      bool component = pi > first && (first == 0 || pat[first - 1] == '/') &&
                       (pi + 1 == pat.size() || pat[pi + 1] == '/');
      if (component) {
        if (pi + 1 == pat.size()) return Wild::Match;  // trailing `**`: everything below
        // `**/`: zero or more leading directories, i.e. retry the rest at each component start.
        for (size_t at = ti;;) {
          Wild r = wild(pat, pi + 2, text, at);
          if (r == Wild::Match || r == Wild::AbortAll) return r;
          size_t slash = text.find('/', at);
          if (slash == std::string_view::npos) return Wild::AbortAll;
          at = slash + 1;
        }
      }
      // A plain `*` (also `**` next to other characters): any run of non-'/' characters.
      if (pi + 1 == pat.size())
        return text.find('/', ti) == std::string_view::npos ? Wild::Match : Wild::AbortToDoubleStar;
      for (;; ++ti) {
        Wild r = wild(pat, pi + 1, text, ti);
        if (r != Wild::NoMatch) return r;
        if (ti >= text.size()) return Wild::AbortAll;
        if (text[ti] == '/') return Wild::AbortToDoubleStar;
      }
    }
    if (ti >= text.size()) return Wild::AbortAll;
    char tc = text[ti];
    switch (pc) {
      case '?':
        if (tc == '/') return Wild::NoMatch;
        break;
      case '[': {
        bool valid = true;
        bool hit = bracket_matches(pat, pi, static_cast<unsigned char>(tc), valid);
        if (!valid) return Wild::AbortAll;  // malformed pattern never matches
        if (!hit || tc == '/') return Wild::NoMatch;  // not even `[/]` crosses a separator
        break;
      }
      case '\\':
        if (pi + 1 >= pat.size()) return Wild::AbortAll;  // trailing backslash: invalid
        if (tc != pat[++pi]) return Wild::NoMatch;
        break;
      default:
        if (tc != pc) return Wild::NoMatch;
    }
  }
  return ti == text.size() ? Wild::Match : Wild::NoMatch;
}

// Git's trim rule: a run of trailing spaces goes, but `\ ` keeps its (escaped) space.
std::string_view trim_trailing_spaces(std::string_view s) {
  size_t run_start = std::string_view::npos;  // start of the current run of spaces
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == ' ') {
      if (run_start == std::string_view::npos) run_start = i;
      continue;
    }
    if (s[i] == '\\' && ++i == s.size()) return s;  // skip the escaped character
    run_start = std::string_view::npos;
  }
  return run_start == std::string_view::npos ? s : s.substr(0, run_start);
}

}  // namespace

bool parse_glob(std::string_view line, GlobPattern& out) {
  if (line.empty() || line[0] == '#') return false;
  line = trim_trailing_spaces(line);
  GlobPattern g;
  if (!line.empty() && line[0] == '!') {
    g.negated = true;
    line.remove_prefix(1);
  }
  if (!line.empty() && line.back() == '/') {
    // Only a real separator: in `foo\/` the slash is escaped (and the pattern then anchored).
    size_t backslashes = 0;
    for (size_t i = line.size() - 1; i > 0 && line[i - 1] == '\\'; --i) ++backslashes;
    if (backslashes % 2 == 0) {
      g.dir_only = true;
      line.remove_suffix(1);
    }
  }
  if (line.empty()) return false;
  g.anchored = line.find('/') != std::string_view::npos;
  g.pattern = std::string(line);
  out = std::move(g);
  return true;
}

bool glob_matches(const GlobPattern& p, std::string_view rel_path, bool is_dir) {
  if (p.dir_only && !is_dir) return false;
  std::string_view pat = p.pattern;
  if (!p.anchored) {
    // No slash: the pattern is tried against the last component only, at any depth.
    auto slash = rel_path.find_last_of('/');
    std::string_view name = slash == std::string_view::npos ? rel_path : rel_path.substr(slash + 1);
    return wild(pat, 0, name, 0) == Wild::Match;
  }
  if (!pat.empty() && pat[0] == '/') pat.remove_prefix(1);  // the leading anchor itself
  return wild(pat, 0, rel_path, 0) == Wild::Match;
}

IgnoreList::IgnoreList(std::string base_dir, std::vector<GlobPattern> patterns)
    : base_dir_(std::move(base_dir)), patterns_(std::move(patterns)) {
  while (base_dir_.size() > 1 && base_dir_.back() == '/') base_dir_.pop_back();
}

IgnoreList IgnoreList::from_gitignore_text(std::string base_dir, std::string_view text) {
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);  // git skips a UTF-8 BOM
  std::vector<GlobPattern> pats;
  while (!text.empty()) {
    size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);  // CRLF files
    GlobPattern g;
    if (parse_glob(line, g)) pats.push_back(std::move(g));
  }
  return IgnoreList(std::move(base_dir), std::move(pats));
}

int IgnoreList::match(std::string_view abs_path, bool is_dir) const {
  std::string_view rel;
  if (base_dir_ == "/") {
    if (abs_path.size() < 2 || abs_path[0] != '/') return -1;
    rel = abs_path.substr(1);
  } else {
    if (abs_path.size() <= base_dir_.size() + 1 || !abs_path.starts_with(base_dir_) ||
        abs_path[base_dir_.size()] != '/')
      return -1;  // outside the base dir, or the base dir itself
    rel = abs_path.substr(base_dir_.size() + 1);
  }
  while (!rel.empty() && rel.back() == '/') rel.remove_suffix(1);
  if (rel.empty()) return -1;
  // Last match wins, so scan backwards and stop at the first hit.
  for (auto it = patterns_.rbegin(); it != patterns_.rend(); ++it)
    if (glob_matches(*it, rel, is_dir)) return it->negated ? 0 : 1;
  return -1;
}

}  // namespace cudalint
