// CMake front-end, evaluator: the commands that compute variables (set, unset, option, list,
// string, cmake_parse_arguments, separate_arguments) and those whose outputs we cannot compute.
#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "analyzer/frontends/cmake/cmake_evaluator.h"

namespace cudalint::cmake::detail {

bool Evaluator::kw(const std::vector<Arg>& a, size_t k, std::string_view w) {
  return k < a.size() && !a[k].quoted && a[k].text == w;
}

// Joins Args [b, e) into one value.
Var Evaluator::value_of(const std::vector<Arg>& a, size_t b, size_t e) {
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

Site Evaluator::site(const Unit& u, const Command& c, const std::vector<Arg>& a, size_t name_k, size_t vb, size_t ve,
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

Flow Evaluator::do_set(const Unit& u, const Command& c, const Ctx& ctx) {
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
    if (tracks_origin(name)) v.origin = new_origin({u.display, span_of(c, s.vb, s.ve, s.name_arg)});
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

Flow Evaluator::do_unset(const Command& c, const Ctx& ctx) {
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

Flow Evaluator::do_option(const Command& c, const Ctx& ctx) {
  auto a = expand_args(c, ctx);
  if (a.empty()) return Flow::Normal;
  const Entry* e = find_entry(a[0].text, scopes_.size() - 1);
  if ((e && e->state == Entry::State::Known) || cache_.count(a[0].text)) return Flow::Normal;  // CMP0077
  Var v{a.size() > 2 && is_true_constant(a[2].text) ? "ON" : "OFF", cond_depth_ > 0 || (a.size() > 2 && a[2].uncertain)};
  cache_[a[0].text] = std::move(v);
  return Flow::Normal;
}

// A list variable for in-place list()/string() edits: empty when never set.
Var Evaluator::current(const std::string& name) const {
  if (const Var* v = resolve(name)) return *v;
  const Entry* e = find_entry(name, scopes_.size() - 1);
  return Var{"", e && e->state == Entry::State::Unknown, 0};
}

Flow Evaluator::do_list(const Unit& u, const Command& c, const Ctx& ctx) {
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

Flow Evaluator::do_string(const Unit& u, const Command& c, const Ctx& ctx) {
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

Flow Evaluator::do_parse_arguments(const Command& c, const Ctx& ctx) {
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

void Evaluator::unknown_outputs(const Command& c, const Ctx& ctx, std::initializer_list<size_t> which) {
  auto a = expand_args(c, ctx);
  for (size_t k : which)
    if (k < a.size()) set_unknown(a[k].text);
}

// Commands whose output variables we cannot compute: those variables become unknown.
void Evaluator::unknown_writes(const Unit& u, const Command& c, const Ctx& ctx) {
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
    if (op == "GLOB" || op == "GLOB_RECURSE") return do_file_glob(u, c, ctx);
    if (op == "RELATIVE_PATH") set_unknown(a[1].text);
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

void Evaluator::do_separate_arguments(const Command& c, const Ctx& ctx) {
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

}  // namespace cudalint::cmake::detail
