// Dockerfile front-end (see dockerfile.h): the parser. Words, exec-form JSON, environments and
// the shell lexer are in dockerfile_*.cpp. Where the header is silent it follows BuildKit's
// parser. Everything is linear in the input; recursion only happens in variable expansion, where
// its depth is bounded (kMaxNesting, dockerfile_words.cpp).
#include "analyzer/frontends/dockerfile/dockerfile.h"

#include <algorithm>
#include <array>
#include <limits>
#include <unordered_map>
#include <utility>

#include <fmt/format.h>

#include "analyzer/core/source_file.h"
#include "analyzer/core/text.h"
#include "analyzer/frontends/dockerfile/dockerfile_internal.h"

namespace cudalint::docker {

using namespace detail;

namespace {

constexpr size_t kMaxShownBytes = 60;              // file text quoted in one message

constexpr std::array<std::string_view, 18> kInstructions = {
    "ADD",  "ARG",   "CMD",        "COPY",    "ENTRYPOINT", "ENV",   "EXPOSE", "FROM",   "HEALTHCHECK",
    "LABEL", "MAINTAINER", "ONBUILD", "RUN", "SHELL",      "STOPSIGNAL", "USER", "VOLUME", "WORKDIR"};

using text::iequals;
using text::lower;
using text::to_lower;
using text::to_upper;
using text::upper;

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), is_digit);
}

uint32_t u32(size_t v) { return static_cast<uint32_t>(v); }

// File text quoted in a message: bounded, printable and valid UTF-8 whatever the input.
std::string shown(std::string_view s) { return text::printable(s, kMaxShownBytes); }

// [b, e) of `m`, as its own MappedText.
MappedText slice(const MappedText& m, size_t b, size_t e) {
  MappedText r;
  r.text.assign(m.text, b, e - b);
  r.offsets.assign(m.offsets.begin() + static_cast<std::ptrdiff_t>(b),
                   m.offsets.begin() + static_cast<std::ptrdiff_t>(e));
  r.offsets.push_back(e > b ? m.offsets[e - 1] + 1 : m.offsets[b]);
  return r;
}

// ---------------------------------------------------------------------------------------------
// The parser.

class Parser {
 public:
  explicit Parser(std::string_view text) : t_(text) {}

  ParseResult run() {
    if (t_.size() >= std::numeric_limits<uint32_t>::max()) {
      error({0, 1}, "file is too large to parse");
      return std::move(r_);
    }
    if (t_.starts_with("\xEF\xBB\xBF")) pos_ = 3;
    parse_directives();
    while (pos_ < t_.size()) read_instruction();
    finish();
    return std::move(r_);
  }

 private:
  struct Line {
    size_t begin, end, next;  // content [begin, end), terminator up to `next`
  };

  Line line_at(size_t pos) const {
    size_t e = pos;
    while (e < t_.size() && t_[e] != '\n' && t_[e] != '\r') ++e;
    size_t next = e;
    if (next < t_.size()) next += (t_[next] == '\r' && next + 1 < t_.size() && t_[next + 1] == '\n') ? 2 : 1;
    return {pos, e, next};
  }

  size_t skip_space(size_t p, size_t e) const {
    while (p < e && is_space(t_[p])) ++p;
    return p;
  }

  size_t trim_end(size_t b, size_t e) const {
    while (e > b && is_space(t_[e - 1])) --e;
    return e;
  }

  void error(Span span, std::string message) { r_.errors.push_back({span, std::move(message)}); }

  Dockerfile& ast() { return r_.ast; }

  // `# key=value` lines before anything else (BuildKit: only syntax, escape and check).
  void parse_directives() {
    while (pos_ < t_.size()) {
      Line l = line_at(pos_);
      size_t p = skip_space(l.begin, l.end);
      if (p >= l.end || t_[p] != '#') return;
      p = skip_space(p + 1, l.end);
      size_t kb = p;
      if (p >= l.end || !is_alpha(t_[p])) return;
      while (p < l.end && (is_alpha(t_[p]) || is_digit(t_[p]))) ++p;
      size_t ke = p;
      p = skip_space(p, l.end);
      if (p >= l.end || t_[p] != '=') return;
      size_t vb = skip_space(p + 1, l.end), ve = trim_end(vb, l.end);
      if (vb >= ve) return;
      std::string key = lower(t_.substr(kb, ke - kb));
      if (key != "syntax" && key != "escape" && key != "check") return;  // a plain comment
      std::string_view value = t_.substr(vb, ve - vb);
      Span vspan{u32(vb), u32(ve)};
      if (ast().directives.count(key)) {
        error(vspan, fmt::format("duplicate parser directive `{}`", key));
      } else if (key == "escape" && value != "\\" && value != "`") {
        error(vspan, fmt::format("invalid escape character `{}` (expected `\\` or `` ` ``)", shown(value)));
        ast().directives[key] = std::string(value);
      } else {
        if (key == "escape") ast().escape = value[0];
        ast().directives[key] = std::string(value);
      }
      pos_ = l.next;
    }
  }

  // Appends line content to `m`; true when it ends with a continuation (escape + blanks).
  bool append_line(MappedText& m, size_t b, size_t e) const {
    size_t last = e;
    while (last > b && is_blank(t_[last - 1])) --last;
    bool cont = last > b && t_[last - 1] == ast_escape();
    size_t ce = cont ? last - 1 : e;
    for (size_t k = b; k < ce; ++k) {
      m.text.push_back(t_[k]);
      m.offsets.push_back(u32(k));
    }
    return cont;
  }

  char ast_escape() const { return r_.ast.escape; }

  void read_instruction() {
    Line l = line_at(pos_);
    pos_ = l.next;
    size_t p = skip_space(l.begin, l.end);
    if (p >= l.end || t_[p] == '#') return;  // blank line or comment
    MappedText line;
    line.text.reserve(l.end - p);
    line.offsets.reserve(l.end - p + 1);
    bool cont = append_line(line, p, l.end);
    size_t span_end = trim_end(p, l.end);
    // As BuildKit: comment and blank lines inside a continuation are dropped; a continuation
    // at end of file simply ends the instruction.
    while (cont && pos_ < t_.size()) {
      Line c = line_at(pos_);
      pos_ = c.next;
      size_t q = skip_space(c.begin, c.end);
      if (q >= c.end || t_[q] == '#') continue;
      cont = append_line(line, c.begin, c.end);
      span_end = trim_end(c.begin, c.end);
    }
    line.offsets.push_back(line.text.empty() ? u32(p) : line.offsets.back() + 1);
    build_instruction(line, span_end);
  }

  void build_instruction(const MappedText& line, size_t span_end) {
    const std::string& s = line.text;
    size_t n = s.size(), k0 = 0;
    while (k0 < n && is_space(s[k0])) ++k0;
    if (k0 >= n) return;  // only continuation characters
    size_t k1 = k0;
    while (k1 < n && !is_space(s[k1])) ++k1;

    Instruction ins;
    ins.keyword = upper(std::string_view(s).substr(k0, k1 - k0));
    ins.keyword_span = line.span_of(k0, k1);
    ins.span = {ins.keyword_span.begin, std::max(u32(span_end), ins.keyword_span.end)};
    const std::string& kw = ins.keyword;
    bool known = std::find(kInstructions.begin(), kInstructions.end(), kw) != kInstructions.end();
    if (!known) {
      error(ins.keyword_span, fmt::format("unknown instruction `{}`", shown(std::string_view(s).substr(k0, k1 - k0))));
    } else if (kw == "FROM") {
      seen_from_ = true;
    } else if (kw != "ARG" && !seen_from_ && !reported_before_from_) {
      reported_before_from_ = true;
      error(ins.keyword_span, fmt::format("instruction `{}` before the first `FROM` (only `ARG` may come first)", kw));
    }

    size_t p = k1;
    while (p < n && is_space(s[p])) ++p;
    if (kw == "FROM" || kw == "RUN" || kw == "COPY" || kw == "ADD" || kw == "HEALTHCHECK") p = parse_flags(line, p, ins);
    size_t e = n;
    while (e > p && is_space(s[e - 1])) --e;
    ins.args = slice(line, p, e);

    std::vector<Span> markers;
    if (kw == "RUN" || kw == "CMD" || kw == "ENTRYPOINT" || kw == "SHELL" || kw == "ADD" || kw == "COPY" ||
        kw == "VOLUME") {
      parse_json(ins, 0);
    } else if (kw == "HEALTHCHECK") {
      // `HEALTHCHECK [flags] CMD ["curl", …]`: the exec form is the array after CMD.
      const std::string& a = ins.args.text;
      if (a.size() > 3 && iequals(std::string_view(a).substr(0, 3), "CMD") && is_space(a[3])) parse_json(ins, 3);
    }
    if (!ins.json_form && (kw == "RUN" || kw == "COPY" || kw == "ADD") &&
        ins.args.text.find("<<") != std::string::npos)
      markers = find_heredocs(ins);
    if (kw == "ENV" || kw == "LABEL") parse_name_values(ins);
    if (kw == "ARG") parse_args(ins);
    if (kw == "FROM") parse_from(ins);

    size_t end = ins.span.end;
    for (size_t h = 0; h < ins.heredocs.size(); ++h) end = read_heredoc(ins.heredocs[h], markers[h], end);
    ins.span.end = u32(std::max<size_t>(end, ins.span.end));
    ast().instructions.push_back(std::move(ins));
  }

  // Leading `--name=value` words (quotes removed); a lone `--` ends them.
  size_t parse_flags(const MappedText& line, size_t p, Instruction& ins) const {
    const std::string& s = line.text;
    while (p + 1 < s.size() && s[p] == '-' && s[p + 1] == '-') {
      size_t e = word_end(s, p, ast_escape());
      std::string_view raw = std::string_view(s).substr(p, e - p);
      if (raw == "--") {
        p = e;
      } else {
        std::string word = unquote(raw.substr(2), ast_escape());
        size_t eq = word.find('=');
        Flag f;
        f.name = word.substr(0, eq);
        if (eq != std::string::npos) f.value = word.substr(eq + 1);
        f.span = line.span_of(p, e);
        ins.flags.push_back(std::move(f));
        p = e;
      }
      while (p < s.size() && is_space(s[p])) ++p;
      if (raw == "--") break;
    }
    return p;
  }

  void parse_json(Instruction& ins, size_t from) {
    std::string_view a = std::string_view(ins.args.text).substr(from);
    size_t lead = 0;
    while (lead < a.size() && is_space(a[lead])) ++lead;
    if (lead >= a.size() || a[lead] != '[') return;
    std::vector<std::string> values;
    std::vector<Range> ranges;
    if (!parse_json_string_array(a, values, ranges)) return;  // shell form, like Docker
    ins.json_form = true;
    ins.json_args = std::move(values);
    for (auto [b, e] : ranges) ins.json_arg_spans.push_back(ins.args.span_of(from + b, from + e));
  }

  // Words of the form `[n]<<[-]WORD` (BuildKit: WORD has no `<`); quotes in WORD stop expansion.
  std::vector<Span> find_heredocs(Instruction& ins) const {
    std::vector<Span> markers;
    std::string_view a = ins.args.text;
    for (auto [b, e] : split_words(a, ast_escape())) {
      std::string_view w = a.substr(b, e - b);
      size_t j = 0;
      while (j < w.size() && is_digit(w[j])) ++j;
      if (w.substr(j, 2) != "<<") continue;
      j += 2;
      bool chomp = j < w.size() && w[j] == '-';
      if (chomp) ++j;
      std::string_view rest = w.substr(j);
      if (rest.empty() || rest.find('<') != std::string_view::npos) continue;
      std::string name = unquote(rest, ast_escape());
      if (name.empty()) continue;
      Heredoc h;
      h.delimiter = std::move(name);
      h.strip_tabs = chomp;
      h.quoted = rest.find_first_of("'\"") != std::string_view::npos;
      ins.heredocs.push_back(std::move(h));
      markers.push_back(ins.args.span_of(b, e));
    }
    return markers;
  }

  // Reads one heredoc body from the following lines; returns the new end of the instruction.
  size_t read_heredoc(Heredoc& h, Span marker, size_t end) {
    size_t body_begin = pos_, body_end = pos_;
    bool any = false;
    while (pos_ < t_.size()) {
      Line l = line_at(pos_);
      pos_ = l.next;
      std::string_view content = t_.substr(l.begin, l.end - l.begin);
      if (h.strip_tabs) content.remove_prefix(std::min(content.find_first_not_of('\t'), content.size()));
      if (content == h.delimiter) {
        h.body_span = {u32(body_begin), u32(any ? body_end : body_begin)};
        return l.end;
      }
      if (any) h.body += '\n';
      h.body.append(content);
      any = true;
      body_end = l.end;
    }
    // Unterminated: the body runs to the end of the file (an empty one sits at the instruction's end).
    h.body_span = any ? Span{u32(body_begin), u32(body_end)} : Span{u32(end), u32(end)};
    error(marker, fmt::format("unterminated heredoc `{}`: no line `{}` ends it", shown(h.delimiter), shown(h.delimiter)));
    return any ? body_end : end;
  }

  // A pair's value: quotes removed, escapes applied; an unclosed quote is an error.
  void set_value(const Instruction& ins, KeyValue& kv, size_t b, size_t e) {
    std::string_view raw = std::string_view(ins.args.text).substr(b, e - b);
    std::optional<size_t> open;
    kv.value = unquote(raw, ast_escape(), &open);
    kv.raw_value = std::string(raw);
    kv.has_value = true;
    kv.value_span = ins.args.span_of(b, e);
    if (open)
      error(ins.args.span_of(b + *open, e),
            fmt::format("unterminated quote in the value of `{}` in `{}`", shown(kv.key), ins.keyword));
  }

  KeyValue key_of(const Instruction& ins, size_t b, size_t e) const {
    KeyValue kv;
    kv.key = unquote(std::string_view(ins.args.text).substr(b, e - b), ast_escape());
    kv.key_span = ins.args.span_of(b, e);
    kv.value_span = {kv.key_span.end, kv.key_span.end};
    return kv;
  }

  // ENV and LABEL: `k=v k2="v 2"`, or the legacy `k rest of line`.
  void parse_name_values(Instruction& ins) {
    std::string_view a = ins.args.text;
    auto words = split_words(a, ast_escape());
    if (words.empty()) {
      error(ins.keyword_span, fmt::format("missing `name=value` pair after `{}`", ins.keyword));
      return;
    }
    auto [fb, fe] = words.front();
    if (a.substr(fb, fe - fb).find('=') == std::string_view::npos) {
      auto ws = split_whitespace(a);
      KeyValue kv = key_of(ins, ws[0].first, ws[0].second);
      size_t vb = ws[0].second;
      while (vb < a.size() && is_space(a[vb])) ++vb;
      if (vb >= a.size()) {
        error(kv.key_span, fmt::format("missing value for `{}` in `{}`", shown(kv.key), ins.keyword));
        kv.value_span = {kv.key_span.end, kv.key_span.end};
      } else {
        set_value(ins, kv, vb, a.size());
      }
      ins.pairs.push_back(std::move(kv));
      return;
    }
    drop_trailing_comment(a, words, 1);
    for (auto [b, e] : words) {
      size_t eq = a.substr(b, e - b).find('=');
      if (eq == std::string_view::npos) {
        error(ins.args.span_of(b, e),
              fmt::format("missing `=` in `{}` (expected `name=value` in `{}`)", shown(a.substr(b, e - b)), ins.keyword));
        continue;
      }
      KeyValue kv = key_of(ins, b, b + eq);
      if (eq == 0) error(ins.args.span_of(b, e), fmt::format("empty name in `{}`", shown(a.substr(b, e - b))));
      set_value(ins, kv, b + eq + 1, e);
      ins.pairs.push_back(std::move(kv));
    }
  }

  // ARG: `X`, `X=default`, several per line.
  void parse_args(Instruction& ins) {
    std::string_view a = ins.args.text;
    auto words = split_words(a, ast_escape());
    if (words.empty()) error(ins.keyword_span, "missing name after `ARG`");
    drop_trailing_comment(a, words, 1);
    for (auto [b, e] : words) {
      size_t eq = a.substr(b, e - b).find('=');
      KeyValue kv = key_of(ins, b, eq == std::string_view::npos ? e : b + eq);
      if (kv.key.empty()) error(ins.args.span_of(b, e), fmt::format("empty name in `{}`", shown(a.substr(b, e - b))));
      if (eq != std::string_view::npos) set_value(ins, kv, b + eq + 1, e);
      ins.pairs.push_back(std::move(kv));
    }
  }

  // FROM [--platform=…] image [AS name]
  void parse_from(Instruction& ins) {
    std::string_view a = ins.args.text;
    auto words = split_whitespace(a);
    if (words.empty()) {
      error(ins.keyword_span, "missing image name after `FROM`");
      return;
    }
    drop_trailing_comment(a, words, 1);
    auto [ib, ie] = words[0];
    ins.from_image = std::string(a.substr(ib, ie - ib));
    ins.from_image_span = ins.args.span_of(ib, ie);
    if (words.size() == 1) return;
    std::string_view second = a.substr(words[1].first, words[1].second - words[1].first);
    if (iequals(second, "AS") && words.size() == 3) {
      ins.from_alias = std::string(a.substr(words[2].first, words[2].second - words[2].first));
    } else if (iequals(second, "AS") && words.size() == 2) {
      error(ins.args.span_of(words[1].first, words[1].second), "missing stage name after `AS` in `FROM`");
    } else {
      size_t b = iequals(second, "AS") ? words[3].first : words[1].first;
      error(ins.args.span_of(b, words.back().second),
            fmt::format("unexpected `{}` in `FROM` (expected `FROM image [AS name]`)",
                        shown(a.substr(b, words.back().second - b))));
    }
  }

  void finish();

  std::string_view t_;
  size_t pos_ = 0;
  bool seen_from_ = false;
  bool reported_before_from_ = false;
  ParseResult r_;
};

void Parser::finish() {
  Dockerfile& df = ast();
  auto& ins = df.instructions;
  if (ins.empty()) {
    Span where{0, 0};
    if (!t_.empty()) {
      size_t b = t_.starts_with("\xEF\xBB\xBF") ? 3 : 0;
      Line l = line_at(b);
      size_t e = trim_end(b, l.end);
      where = e > b ? Span{u32(b), u32(e)} : b < t_.size() ? Span{u32(b), u32(b + 1)} : Span{0, u32(t_.size())};
    }
    error(where, "Dockerfile has no instructions");
    return;
  }
  for (size_t i = 0; i < ins.size(); ++i) {
    if (ins[i].keyword == "FROM") {
      Stage st;
      st.index = df.stages.size();
      st.name = ins[i].from_alias;
      st.from_instruction = i;
      if (!df.stages.empty()) df.stages.back().end_instruction = i;
      df.stages.push_back(std::move(st));
    } else if (df.stages.empty() && ins[i].keyword == "ARG") {
      df.global_args.push_back(i);
    }
  }
  if (df.stages.empty()) {
    if (df.global_args.size() == ins.size())
      error(ins[0].keyword_span, "missing `FROM` instruction (the Dockerfile only declares `ARG`s)");
    return;
  }
  df.stages.back().end_instruction = ins.size();
  Environment globals = global_env(df, ins.size());
  std::unordered_map<std::string, size_t> by_name;  // lower-cased alias -> latest stage
  for (Stage& st : df.stages) {
    bool known = true;
    st.base_image = expand(ins[st.from_instruction].from_image, globals, df.escape, known);
    st.base_image_known = known;
    // Docker resolves stage names after expansion, case-insensitively.
    if (auto it = by_name.find(lower(st.base_image)); it != by_name.end()) {
      st.parent_stage = it->second;
    } else if (all_digits(st.base_image) && st.base_image.size() < 10) {
      size_t idx = std::stoul(st.base_image);
      if (idx < st.index) st.parent_stage = idx;
    }
    if (!st.name.empty()) by_name[lower(st.name)] = st.index;
  }
}

}  // namespace

Span MappedText::span_of(size_t b, size_t e) const {
  if (offsets.empty()) return {};
  size_t last = offsets.size() - 1;
  b = std::min(b, last);
  e = std::min(std::max(e, b), last);
  if (e == b) {
    uint32_t at = b > 0 ? offsets[b - 1] + 1 : offsets[0];
    return {at, at};
  }
  return {offsets[b], std::max(offsets[b], offsets[e - 1] + 1)};
}

ParseResult parse(std::string_view text) { return Parser(text).run(); }

}  // namespace cudalint::docker
