#include "analyzer/model/docker_invocation.h"

#include <algorithm>

namespace cudalint::model::invocation {

namespace {

using docker::Environment;
using docker::KeyValue;
using docker::ShellCommand;
using docker::Var;

bool name_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool name_char(char c) { return name_start(c) || (c >= '0' && c <= '9'); }

// Names `$X` / `${X...}` refers to (possibly with duplicates).
std::vector<std::string_view> referenced_names(std::string_view raw) {
  std::vector<std::string_view> names;
  for (size_t i = 0; i + 1 < raw.size(); ++i) {
    if (raw[i] != '$') continue;
    size_t b = i + 1;
    if (raw[b] == '{') ++b;
    size_t e = b;
    while (e < raw.size() && name_char(raw[e])) ++e;
    if (e > b && name_start(raw[b])) names.push_back(raw.substr(b, e - b));
    i = e > i + 1 ? e - 1 : i;
  }
  return names;
}

// Command substitution and backquotes run at build time: their result is never known here.
bool runs_commands(std::string_view raw) {
  return raw.find("$(") != std::string_view::npos || raw.find('`') != std::string_view::npos;
}

bool is_wrapper(std::string_view w) { return w == "env" || w == "sudo" || w == "time" || w == "exec" || w == "nice"; }

std::string_view basename(std::string_view w) {
  auto slash = w.rfind('/');
  return slash == std::string_view::npos ? w : w.substr(slash + 1);
}

// Whitespace-separated words of a shell-form COPY/ADD with their file spans.
std::vector<docker::ShellWord> plain_words(const docker::MappedText& m) {
  std::vector<docker::ShellWord> out;
  const std::string& t = m.text;
  size_t i = 0;
  while (i < t.size()) {
    while (i < t.size() && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r')) ++i;
    size_t b = i;
    while (i < t.size() && !(t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r')) ++i;
    if (i > b) out.push_back({t.substr(b, i - b), m.span_of(b, i)});
  }
  return out;
}

}  // namespace

void apply_definitions(const docker::Dockerfile& df, size_t k, StageEnv& env, const Environment& globals) {
  if (k >= df.instructions.size()) return;
  const docker::Instruction& ins = df.instructions[k];
  if (ins.keyword == "ENV") {
    // Every pair of one ENV sees the environment from before the instruction.
    struct Update {
      std::string key;
      Var var;
      bool conditional;
    };
    std::vector<Update> updates;
    for (const KeyValue& kv : ins.pairs) {
      if (!kv.has_value || kv.key.empty()) continue;
      Var v;
      v.value = docker::expand(kv.raw_value, env.vars, df.escape, v.known);
      v.instruction = k;
      v.value_span = kv.value_span;
      v.key_span = kv.key_span;
      updates.push_back({kv.key, std::move(v), refers_to_conditional(kv.raw_value, env)});
    }
    for (auto& u : updates) {
      if (u.conditional) env.conditional.insert(u.key);
      else env.conditional.erase(u.key);
      env.vars[u.key] = std::move(u.var);
    }
  } else if (ins.keyword == "ARG") {
    for (const KeyValue& kv : ins.pairs) {
      if (kv.key.empty()) continue;
      auto it = env.vars.find(kv.key);
      if (it != env.vars.end() && !it->second.from_arg) continue;  // ENV wins over ARG
      Var v;
      v.from_arg = true;
      v.instruction = k;
      v.key_span = kv.key_span;
      if (kv.has_value) {
        v.value = docker::expand(kv.raw_value, env.vars, df.escape, v.known);
        v.value_span = kv.value_span;
      } else if (it != env.vars.end()) {
        continue;  // declared again without value (here or in a parent stage): keeps its value
      } else if (auto g = globals.find(kv.key); g != globals.end()) {
        v = g->second;  // a redeclared global ARG takes the global default
      } else {
        v.known = false;  // only --build-arg can give it a value
        v.value_span = {kv.key_span.end, kv.key_span.end};
      }
      env.conditional.insert(kv.key);
      env.vars[kv.key] = std::move(v);
    }
  }
}

bool refers_to_conditional(std::string_view raw, const StageEnv& env) {
  for (std::string_view n : referenced_names(raw)) {
    auto it = env.vars.find(std::string(n));
    if (it != env.vars.end() && (it->second.from_arg || env.conditional.count(it->first))) return true;
  }
  return false;
}

std::string resolve_path(std::string_view base, std::string_view path) {
  std::string joined;
  if (path.starts_with('/')) {
    joined = path;
  } else {
    if (base.empty()) return "";
    joined.reserve(base.size() + 1 + path.size());
    joined.append(base).append("/").append(path);
  }
  std::vector<std::string_view> parts;
  std::string_view rest = joined;
  while (!rest.empty()) {
    size_t slash = rest.find('/');
    std::string_view part = rest.substr(0, slash);
    rest = slash == std::string_view::npos ? std::string_view() : rest.substr(slash + 1);
    if (part.empty() || part == ".") continue;
    if (part == "..") {
      if (!parts.empty()) parts.pop_back();  // "/.." is "/"
      continue;
    }
    parts.push_back(part);
  }
  std::string out;
  for (std::string_view p : parts) out.append("/").append(p);
  return out.empty() ? "/" : out;
}

std::string apply_workdir(const docker::Dockerfile& df, size_t k, const StageEnv& env, const std::string& workdir) {
  const docker::Instruction& ins = df.instructions[k];
  std::string_view raw = ins.args.text;
  while (!raw.empty() && (raw.front() == ' ' || raw.front() == '\t')) raw.remove_prefix(1);
  while (!raw.empty() && (raw.back() == ' ' || raw.back() == '\t' || raw.back() == '\n' || raw.back() == '\r'))
    raw.remove_suffix(1);
  if (raw.empty()) return workdir;  // an error for Docker; nothing changes here
  bool known = true;
  std::string dir = docker::expand(raw, env.vars, df.escape, known);
  if (!known) return "";
  return resolve_path(workdir, dir);
}

std::optional<CopyFact> copy_fact(const std::string& path, const docker::Dockerfile& df, size_t k,
                                  const StageEnv& env, const std::string& workdir) {
  const docker::Instruction& ins = df.instructions[k];
  bool add = ins.keyword == "ADD";
  if (!add && ins.keyword != "COPY") return std::nullopt;
  std::vector<std::string> words;
  if (ins.json_form) {
    words = ins.json_args;
  } else {
    for (auto& w : plain_words(ins.args)) words.push_back(std::move(w.text));
  }
  if (words.size() < 2) return std::nullopt;
  auto expanded = [&](const std::string& w, bool& known) {
    known = true;
    if (w.find('$') == std::string::npos) return w;
    return docker::expand(w, env.vars, df.escape, known);
  };
  CopyFact cf;
  cf.instruction = k;
  cf.where = {path, ins.span};
  size_t written_sources = words.size() - 1;
  for (size_t i = 0; i + 1 < words.size(); ++i) {
    const std::string& w = words[i];
    if (w.starts_with("<<")) continue;  // a heredoc: a file written inline, not from the context
    bool known = true;
    std::string s = expanded(w, known);
    if (!known) s = w;
    if (add && (s.find("://") != std::string::npos || s.starts_with("git@"))) continue;  // fetched, not copied
    cf.sources.push_back(std::move(s));
  }
  if (cf.sources.empty()) return std::nullopt;
  bool known = true;
  std::string dest = expanded(words.back(), known);
  cf.dest_is_directory = written_sources > 1 || dest.ends_with('/') || dest == "." || dest == ".." ||
                         dest.ends_with("/.") || dest.ends_with("/..");
  cf.dest = known && !dest.empty() ? resolve_path(workdir, dest) : "";
  for (const auto& f : ins.flags) {
    if (f.name != "from") continue;
    bool fk = true;
    std::string v = expanded(f.value, fk);
    cf.from_stage = fk ? v : f.value;
  }
  return cf;
}

// ---------------------------------------------------------------------------------------------
// ShellSession

bool ShellSession::exported_in_stage(const std::string& name) const { return stage_.vars.count(name) > 0; }

std::optional<ShellSession::Value> ShellSession::lookup(std::string_view name, const ShellCommand* c) const {
  std::string key(name);
  if (c && !c->words.empty() && c->words[0].text != "export") {
    for (auto it = c->assignments.rbegin(); it != c->assignments.rend(); ++it)
      if (it->key == key) {
        Value v = assigned(*it, nullptr);
        v.exported = true;
        return v;
      }
  }
  if (auto it = shell_.find(key); it != shell_.end()) {
    if (it->second.unset) return std::nullopt;
    return it->second;
  }
  if (auto it = stage_.vars.find(key); it != stage_.vars.end()) {
    const Var& var = it->second;
    Value v;
    v.value = var.value;
    v.known = var.known;
    v.conditional = var.from_arg || stage_.conditional.count(key) > 0;
    v.span = var.value_span.end > var.value_span.begin ? var.value_span : var.key_span;
    v.exported = true;
    return v;
  }
  return std::nullopt;
}

std::optional<std::string> ShellSession::expand(std::string_view raw, const ShellCommand* c, bool& conditional) const {
  if (runs_commands(raw)) return std::nullopt;
  Environment mini;
  for (std::string_view n : referenced_names(raw)) {
    auto v = lookup(n, c);
    if (!v) continue;  // unset here: maybe set in the base image (PATH): the expansion is unknown
    conditional = conditional || v->conditional;
    Var var;
    var.value = v->value;
    var.known = v->known;
    mini.emplace(std::string(n), std::move(var));
  }
  bool known = true;
  std::string out = docker::expand(raw, mini, '\\', known);
  if (!known) return std::nullopt;
  return out;
}

ShellSession::Value ShellSession::assigned(const KeyValue& kv, const ShellCommand* c) const {
  Value v;
  v.span = kv.has_value && kv.value_span.end > kv.value_span.begin ? kv.value_span : kv.key_span;
  if (kv.raw_value.find_first_of("$`") == std::string::npos) {
    v.value = kv.value;  // quotes already removed
    return v;
  }
  bool cond = false;
  auto e = expand(kv.raw_value, c, cond);
  v.known = e.has_value();
  if (e) v.value = std::move(*e);
  v.conditional = cond;
  return v;
}

std::optional<std::string> ShellSession::expand_word(std::string_view text, const ShellCommand& c) const {
  if (text.find_first_of("$`") == std::string_view::npos) return std::string(text);
  bool cond = false;
  return expand(text, &c, cond);
}

bool ShellSession::word_is_conditional(std::string_view text, const ShellCommand& c) const {
  if (text.find('$') == std::string_view::npos) return false;
  bool cond = false;
  expand(text, &c, cond);
  return cond;
}

std::string ShellSession::resolve_word(std::string_view text, const ShellCommand& c) const {
  auto e = expand_word(text, c);
  if (!e || e->empty() || e->starts_with('~')) return "";
  return resolve_path(cwd_, *e);
}

void ShellSession::change_dir(std::string_view target, const ShellCommand& c) {
  std::string prev = cwd_;
  if (target.empty()) {  // `cd`: $HOME
    auto home = lookup("HOME", &c);
    cwd_ = home && home->known && home->value.starts_with('/') ? resolve_path("/", home->value) : "";
  } else if (target == "-") {
    cwd_ = oldpwd_;
  } else {
    cwd_ = resolve_word(target, c);
  }
  oldpwd_ = std::move(prev);
}

void ShellSession::after(const ShellCommand& c) {
  if (c.words.empty()) {
    // `X=v` alone sets a shell variable; it reaches later commands' environment only when X
    // is already exported.
    for (const auto& kv : c.assignments) {
      Value v = assigned(kv, nullptr);
      auto it = shell_.find(kv.key);
      v.exported = it != shell_.end() ? (it->second.exported && !it->second.unset) : exported_in_stage(kv.key);
      shell_[kv.key] = std::move(v);
    }
    return;
  }
  std::string_view cmd = c.words[0].text;
  if (cmd == "export") {
    for (const auto& kv : c.assignments) {
      Value v = assigned(kv, nullptr);
      v.exported = true;
      shell_[kv.key] = std::move(v);
    }
    for (size_t i = 1; i < c.words.size(); ++i) {  // `export X`: a shell variable becomes visible
      if (c.words[i].text.starts_with('-')) continue;
      auto it = shell_.find(c.words[i].text);
      if (it != shell_.end() && !it->second.unset) it->second.exported = true;
    }
  } else if (cmd == "unset") {
    for (size_t i = 1; i < c.words.size(); ++i) {
      if (c.words[i].text.starts_with('-')) continue;
      Value gone;
      gone.unset = true;
      shell_[c.words[i].text] = std::move(gone);
    }
  } else if (cmd == "cd" || cmd == "pushd") {
    size_t i = 1;
    while (i < c.words.size() && c.words[i].text.size() > 1 && c.words[i].text.starts_with('-')) ++i;
    std::string_view target = i < c.words.size() ? std::string_view(c.words[i].text) : std::string_view();
    if (cmd == "pushd") {
      if (target.empty()) {
        cwd_ = "";  // swaps the top two directories: not followed
        return;
      }
      if (dirs_.size() < 4096) dirs_.push_back(cwd_);
    }
    change_dir(target, c);
  } else if (cmd == "popd") {
    if (dirs_.empty()) {
      cwd_ = "";
      return;
    }
    oldpwd_ = cwd_;
    cwd_ = std::move(dirs_.back());
    dirs_.pop_back();
  }
}

void ShellSession::visible_env(const ShellCommand& c, VarList& out, std::vector<std::string>& unknown,
                               size_t& budget) const {
  if (budget == 0) return;
  std::map<std::string, Value> vis;
  for (const auto& [name, var] : stage_.vars) {
    if (budget == 0) break;
    --budget;
    Value v;
    v.value = var.value;
    v.known = var.known;
    v.conditional = var.from_arg || stage_.conditional.count(name) > 0;
    v.span = var.value_span.end > var.value_span.begin ? var.value_span : var.key_span;
    vis.emplace(name, std::move(v));
  }
  for (const auto& [name, v] : shell_) {
    if (v.unset) vis.erase(name);
    else if (v.exported) vis[name] = v;
  }
  if (!c.words.empty() && c.words[0].text != "export")
    for (const auto& kv : c.assignments) vis[kv.key] = assigned(kv, nullptr);
  for (auto& [name, v] : vis) {
    if (!v.known) {
      unknown.push_back(name);
      continue;
    }
    out.emplace_back(name, Fact<std::string>{std::move(v.value), Origin{path_, v.span}, v.conditional});
  }
}

// ---------------------------------------------------------------------------------------------
// CMake

Span define_value_span(std::string_view file_text, Span word, std::string_view value) {
  if (word.end > file_text.size() || word.begin >= word.end) return word;
  std::string_view raw = file_text.substr(word.begin, word.end - word.begin);
  size_t eq = raw.find('=');
  if (eq == std::string_view::npos) return word;
  uint32_t vb = word.begin + static_cast<uint32_t>(eq) + 1;
  std::string_view rv = raw.substr(eq + 1);
  if (rv == value) return {vb, word.end};
  if (rv.size() == value.size() + 2 && (rv[0] == '"' || rv[0] == '\'') && rv.back() == rv[0] &&
      rv.substr(1, value.size()) == value)
    return {vb + 1, word.end - 1};
  // `"-DX=v"`: the whole word is quoted.
  if ((raw[0] == '"' || raw[0] == '\'') && raw.back() == raw[0] && rv.size() == value.size() + 1 &&
      rv.substr(0, value.size()) == value)
    return {vb, word.end - 1};
  return {vb, word.end};
}

std::optional<CMakeStep> cmake_step(const std::string& path, std::string_view file_text, size_t instruction,
                                    const ShellCommand& c, const ShellSession& sh) {
  const auto& w = c.words;
  size_t i = 0;
  while (i < w.size() && is_wrapper(w[i].text)) {
    ++i;
    while (i < w.size() && w[i - 1].text == "env" && w[i].text.starts_with('-')) ++i;
  }
  if (i >= w.size()) return std::nullopt;
  std::string_view name = basename(w[i].text);
  if (name != "cmake" && name != "cmake3") return std::nullopt;
  for (size_t k = i + 1; k < w.size(); ++k) {
    std::string_view a = w[k].text;
    if (a == "--build" || a == "--install" || a == "-E" || a == "-P" || a == "--version" || a == "-version" ||
        a == "--help" || a == "-h" || a == "--workflow" || a == "--find-package" || a == "--system-information" ||
        a == "-N" || a.starts_with("--help-"))
      return std::nullopt;
  }
  CMakeStep st;
  st.instruction = instruction;
  st.where = {path, {w[i].span.begin, std::max(w[i].span.end, w.back().span.end)}};
  for (size_t k = i; k < w.size() && st.command.size() < 200; ++k) {
    if (k > i) st.command += ' ';
    st.command += w[k].text;
  }
  if (st.command.size() > 200) st.command.resize(200);
  st.cwd = sh.cwd();

  std::optional<std::string> source, build, positional;
  auto define = [&](std::string_view text, Span span) {
    size_t eq = text.find('=');
    if (eq == std::string_view::npos || eq == 0) return;  // `-DX` alone: not a definition
    std::string_view nm = text.substr(0, eq);
    if (auto colon = nm.find(':'); colon != std::string_view::npos) nm = nm.substr(0, colon);
    if (nm.empty()) return;
    std::string_view value = text.substr(eq + 1);
    auto e = sh.expand_word(value, c);
    if (!e) {
      st.unknown_defines.emplace_back(nm);
      return;
    }
    Fact<std::string> f{*e, Origin{path, define_value_span(file_text, span, value)}, sh.word_is_conditional(value, c)};
    st.defines.emplace_back(std::string(nm), std::move(f));
  };
  for (size_t k = i + 1; k < w.size(); ++k) {
    std::string_view a = w[k].text;
    bool has_next = k + 1 < w.size();
    if (a == "-S" || a == "-B" || a == "-H") {
      if (!has_next) break;
      (a == "-B" ? build : source) = w[k + 1].text;
      ++k;
    } else if (a.size() > 2 && (a.starts_with("-S") || a.starts_with("-H"))) {
      source = std::string(a.substr(2));
    } else if (a.size() > 2 && a.starts_with("-B")) {
      build = std::string(a.substr(2));
    } else if (a == "-D") {
      if (!has_next) break;
      // The definition's word starts at the name: its span is still where the value is found.
      define(w[k + 1].text, w[k + 1].span);
      ++k;
    } else if (a.size() > 2 && a.starts_with("-D")) {
      Span s = w[k].span;
      define(a.substr(2), s);
    } else if (a == "-G" || a == "-T" || a == "-A" || a == "-C" || a == "-U" || a == "--toolchain" ||
               a == "--install-prefix" || a == "--graphviz" || a == "--preset" || a == "--log-level" ||
               a == "--trace-redirect" || a == "--debug-find-pkg" || a == "--debug-find-var") {
      ++k;  // an option with a separate value
    } else if (a.starts_with('-')) {
      continue;
    } else if (!positional) {
      positional = std::string(a);
    }
  }
  if (source) st.source_dir = sh.resolve_word(*source, c);
  else if (positional) st.source_dir = sh.resolve_word(*positional, c);
  else st.source_dir = st.cwd;
  if (build) {
    std::string b = sh.resolve_word(*build, c);
    if (!b.empty()) st.build_dir = std::move(b);
  } else if (!st.cwd.empty()) {
    st.build_dir = st.cwd;
  }
  return st;
}

}  // namespace cudalint::model::invocation
