// CUDA front-end: analyze(), the entry point: which archs need a parse of their own (the others
// share one or are derived from one), the parses combined into a Result, and the on-disk cache of
// results around them. The concerns it uses have files of their own: one parse for one arch
// (arch_parse), its AST walk (use_collector), what its preprocessor did with the arch macros
// (arch_trace), derived archs (arch_derivation), the prelude's text and its precompiled form
// (prelude_text, prelude_cache), Clang's driver and flags (driver_job), the in-memory file system
// (virtual_files), the standard headers (std_includes) and the cache's entries (result_codec).
#include "analyzer/frontends/cuda/cuda_frontend.h"

#include <algorithm>
#include <optional>

#include <fmt/format.h>
#include <llvm/ADT/SmallString.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/thread.h>

#include "analyzer/core/disk_cache.h"
#include "analyzer/frontends/cuda/arch_derivation.h"
#include "analyzer/frontends/cuda/arch_parse.h"
#include "analyzer/frontends/cuda/arch_trace.h"
#include "analyzer/frontends/cuda/cuda_frontend_internal.h"
#include "analyzer/frontends/cuda/driver_job.h"
#include "analyzer/frontends/cuda/prelude_cache.h"
#include "analyzer/frontends/cuda/result_codec.h"
#include "analyzer/frontends/cuda/std_includes.h"
#include "analyzer/frontends/cuda/virtual_files.h"

#ifndef CUDALINT_CLANG_RESOURCE_DIR
#define CUDALINT_CLANG_RESOURCE_DIR ""
#endif

namespace cudalint::cuda {

namespace detail {
namespace {

// Names the analysed text uses that could matter: a feature's name, inline asm, or a project
// include (whose macros and helpers may use features).
bool may_use_features(std::string_view text, const FeatureTable& table) {
  if (text.find("#include \"") != std::string_view::npos || text.find("#include\"") != std::string_view::npos)
    return true;
  size_t i = 0, n = text.size();
  while (i < n) {
    if (!ident_char(text[i])) {
      ++i;
      continue;
    }
    size_t b = i;
    while (i < n && ident_char(text[i])) ++i;
    std::string_view w = text.substr(b, i - b);
    if (w == "asm" || w == "__asm__" || w == "__asm" || table.names_identifier(w)) return true;
  }
  return false;
}

// `newest_key`: what names this file's newest-arch parse in PreludeCache::keep_newest_parse (an
// editor's first pass keeps it there, the full run after it takes it); empty: none is kept.
Result analyze_parsed(std::string_view path, std::string_view text, const Options& opts, const FeatureTable& table,
                      const std::string& prelude, const std::string& arch_text, Manifest* record,
                      const std::string& newest_key = {}) {
  Result res;
  // An absolute path: the in-memory file system and relative includes need one.
  llvm::SmallString<256> abs(path.begin(), path.end());
  if (abs.empty()) abs = "/cudalint/input.cu";
  if (!llvm::sys::path::is_absolute(abs)) llvm::sys::fs::make_absolute(abs);
  // A file that names no feature, has no inline asm and includes no project header cannot have
  // a use: one parse (for syntax errors and memory accesses) serves every arch.
  const ParseInput in{text, opts, table, prelude, arch_text, abs.str().str(), may_use_features(text, table),
                      opts.prelude_cache ? std_includes_of(text, abs.str(), opts) : std::string()};
  const std::vector<domain::Arch>& archs = opts.archs;
  const size_t n = archs.size();
  if (n == 0) return res;

  // The first parse is the newest arch's: its memory accesses are the MEM rules' (the code that
  // runs on the newest GPUs), and an older arch usually differs from it only in fallback
  // branches a derivation can take away (Derivation).
  size_t r = 0;
  for (size_t k = 1; k < n; ++k)
    if (archs[k].sm() > archs[r].sm()) r = k;
  std::vector<std::optional<ArchParse>> parses(n);
  std::vector<std::optional<ArchResult>> derived(n);
  // Two parses at once: `other` on a thread of its own (its file probes noted after), `here` on
  // this one. Each gets whether its thread has a parse-sized stack and where its probes go.
  const auto two_at_once = [&](const auto& other, const auto& here) {
    Manifest other_probes;
    llvm::thread t(std::optional<unsigned>(kParseStackBytes), [&] { other(true, record ? &other_probes : nullptr); });
    here(opts.caller_has_parse_stack, record);
    t.join();
    if (record)
      for (auto& [p, probe] : other_probes) note_probe(*record, p, probe);
  };
  // The first pass's parse of the newest arch, when the run over every arch follows it.
  std::shared_ptr<const ArchParse> kept;
  if (!newest_key.empty() && !opts.newest_arch_only && opts.prelude_cache)
    kept = opts.prelude_cache->take_newest_parse(newest_key);
  if (kept) parses[r] = *kept;
  if (in.features && n >= 2 && opts.parallel_archs) {
    // The newest and the oldest arch at once: with the archs between sharing one of their
    // parses (the usual case), the latency is one parse.
    size_t o = 0;
    for (size_t k = 1; k < n; ++k)
      if (archs[k].sm() < archs[o].sm()) o = k;
    if (o == r) o = r == 0 ? n - 1 : 0;
    if (opts.newest_arch_only) {
      parses[r] = parse_arch(in, archs[r], true, opts.caller_has_parse_stack, record);
    } else if (kept) {
      // The oldest arch, and beside it an arch whose tokens the newest parse's arch conditions
      // tell from both the newest's and the oldest's (it will most likely need a parse of its
      // own). Without such an arch the oldest goes alone: the archs between usually share its
      // parse or the newest's, and a second parse at once would be wasted.
      size_t m = n;
      if (!(opts.derive_archs && kept->derivation))
        for (size_t k = 0; k < n && m == n; ++k)
          if (k != r && k != o && !same_tokens(kept->trace, archs[r], archs[k]) &&
              !alike_under(kept->trace, archs[o], archs[k]))
            m = k;
      if (m == n) {
        parses[o] = parse_arch(in, archs[o], false, opts.caller_has_parse_stack, record);
      } else {
        two_at_once([&](bool own_stack, Manifest* probes) { parses[m] = parse_arch(in, archs[m], false, own_stack, probes); },
                    [&](bool own_stack, Manifest* probes) { parses[o] = parse_arch(in, archs[o], false, own_stack, probes); });
      }
    } else {
      two_at_once([&](bool own_stack, Manifest* probes) { parses[o] = parse_arch(in, archs[o], false, own_stack, probes); },
                  [&](bool own_stack, Manifest* probes) { parses[r] = parse_arch(in, archs[r], true, own_stack, probes); });
    }
  } else if (!kept) {
    // Whether another arch will need a parse of its own: the first then records which bodies
    // that parse may skip, and what would derive it without one.
    auto need_bodies = [&](const ArchTrace& t) {
      if (!opts.reuse_bodies || !in.features) return false;
      for (size_t k = 0; k < n; ++k)
        if (k != r && !same_tokens(t, archs[r], archs[k])) return true;
      return false;
    };
    parses[r] = parse_arch(in, archs[r], true, opts.caller_has_parse_stack, record, nullptr, need_bodies);
  }
  if (opts.newest_arch_only && !newest_key.empty() && opts.prelude_cache && parses[r])
    opts.prelude_cache->keep_newest_parse(newest_key, std::make_shared<const ArchParse>(*parses[r]));
  // An arch whose preprocessing gives the tokens a parse saw has that parse's uses: the verdicts
  // for each arch are the rules' (most files parse once or twice, not once per arch). In arch
  // order, each of the others shares a parse, is derived, or gets a parse of its own; with
  // parallel_archs two such parses run at once (an arch that would have shared the other's
  // tokens then has the same uses from a parse of its own).
  std::vector<size_t> source(n);
  for (size_t k = 0; k < n; ++k) source[k] = k;
  std::vector<char> decided(n, 0);
  const BodyReuse* reuse = parses[r] && parses[r]->bodies ? parses[r]->bodies.get() : nullptr;
  for (;;) {
    std::vector<size_t> own;
    for (size_t k = 0; k < n && own.size() < (opts.parallel_archs ? 2u : 1u); ++k) {
      if (decided[k]) continue;
      decided[k] = 1;
      if (parses[k] || !in.features || opts.newest_arch_only) continue;
      for (size_t j = 0; j < n; ++j)
        if (parses[j] && parses[j]->ar.parsed && same_tokens(parses[j]->trace, archs[j], archs[k])) {
          source[k] = j;
          break;
        }
      if (source[k] != k) continue;
      if (opts.derive_archs && parses[r] && parses[r]->derivation)
        derived[k] = derive(*parses[r]->derivation, parses[r]->trace, archs[r], archs[k], text);
      if (!derived[k]) own.push_back(k);
    }
    if (own.empty()) break;
    if (own.size() == 1) {
      parses[own[0]] = parse_arch(in, archs[own[0]], false, opts.caller_has_parse_stack, record, reuse);
      continue;
    }
    two_at_once(
        [&](bool own_stack, Manifest* probes) { parses[own[1]] = parse_arch(in, archs[own[1]], false, own_stack, probes, reuse); },
        [&](bool own_stack, Manifest* probes) { parses[own[0]] = parse_arch(in, archs[own[0]], false, own_stack, probes, reuse); });
  }

  // In arch order, as one parse after the other would have found them.
  res.per_arch.resize(n);
  for (size_t k = 0; k < n; ++k) {
    ArchResult& ar = res.per_arch[k];
    ar.arch = archs[k];
    if (!parses[k] && !in.features) {
      ar.parsed = true;  // nothing to find
    } else if (derived[k]) {
      ar = std::move(*derived[k]);
      ++res.derived_archs;
    } else if (source[k] != k) {
      ar.parsed = parses[source[k]]->ar.parsed;
      ar.uses = parses[source[k]]->ar.uses;
    }
  }
  for (size_t k = 0; k < n; ++k) {
    if (!parses[k]) continue;
    ArchParse& p = *parses[k];
    if (!(kept && k == r)) {  // the first pass counted the parse it kept
      ++res.clang_parses;
      if (p.used_pch) ++res.pch_parses;
      if (p.reused_driver) ++res.reused_driver_parses;
      if (p.used_std_pch) ++res.std_pch_parses;
      if (p.used_preamble) ++res.preamble_parses;
      res.skipped_bodies += p.skipped_bodies;
      res.std_bodies_skipped += p.std_skipped;
    }
    res.per_arch[k].parsed = p.ar.parsed;
    res.per_arch[k].uses = std::move(p.ar.uses);
    for (auto& e : p.errors) res.errors.push_back(std::move(e));
    for (auto& m : p.missing)
      if (std::find(res.missing_includes.begin(), res.missing_includes.end(), m) == res.missing_includes.end())
        res.missing_includes.push_back(std::move(m));
    if (!p.syntax.empty() && (res.syntax_errors.empty() || p.syntax.front().begin < res.syntax_errors.front().begin))
      res.syntax_errors = std::move(p.syntax);
    if (k == r) res.accesses = std::move(p.accesses);
    for (auto& name : p.unanalysed_kernels)
      if (std::find(res.unanalysed_kernels.begin(), res.unanalysed_kernels.end(), name) == res.unanalysed_kernels.end())
        res.unanalysed_kernels.push_back(std::move(name));
  }
  if (opts.newest_arch_only) {
    ArchResult newest = std::move(res.per_arch[r]);
    res.per_arch = {std::move(newest)};
  }
  return res;
}

// The key of what a parse of `text` gives, but for the files it reads: the file, its text, archs,
// flags, standard, toolkit, whether memory accesses are collected (a result without them answers
// no MEM rule), the working directory and the prelude; `more`, when given, is part of it too.
std::string result_key(std::string_view kind, std::string_view path, std::string_view text, const Options& opts,
                       const std::string& prelude, const std::string& arch_text, std::string_view more = {}) {
  std::string archs, flags;
  for (const auto& a : opts.archs) archs += a.sm_name() + (a.ptx ? "+ptx;" : ";");
  for (const auto* list : {&opts.include_dirs, &opts.defines, &opts.undefines}) {
    for (const auto& v : *list) (flags += v) += '\x1f';
    flags += '\x1e';
  }
  std::string cuda = opts.cuda ? fmt::format("{}.{}", opts.cuda->major, opts.cuda->minor) : "";
  if (opts.want_accesses) cuda += "+accesses";
  llvm::SmallString<256> cwd;
  llvm::sys::fs::current_path(cwd);
  const std::string_view dir(cwd.data(), cwd.size());
  if (more.empty()) return DiskCache::key(kind, {path, text, archs, flags, opts.std, cuda, dir, prelude, arch_text});
  return DiskCache::key(kind, {path, text, archs, flags, opts.std, cuda, dir, prelude, arch_text, more});
}

}  // namespace
}  // namespace detail

std::string default_clang_resource_dir() { return CUDALINT_CLANG_RESOURCE_DIR; }

std::pair<std::string, std::string> precompile_default_prelude(const FeatureTable& table) {
  const std::string prelude = prelude_text(table);
  const std::vector<std::string> args = detail::common_args(Options{});
  auto pch = detail::build_prelude_pch(args, prelude, Options{});
  return {detail::pch_key(prelude, args, Options{}), pch ? std::string(*pch) : std::string()};
}

Result analyze(std::string_view path, std::string_view text, const Options& opts, const FeatureTable& table) {
  // Editor buffers of other files are not on disk: such parses are not cached.
  // Generating the prelude costs as much as a small file's parse setup: once per cache.
  std::string own_prelude;
  const std::string* base_prelude =
      opts.prelude_cache ? &opts.prelude_cache->prelude(table) : &(own_prelude = prelude_text(table));
  // Under nvcc's `--expt-extended-lambda`, cuda_runtime.h (which nvcc includes before the file)
  // includes these: code that names std::function or std::tuple without including them compiles.
  if (opts.extended_lambda) {
    if (base_prelude != &own_prelude) own_prelude = *base_prelude;
    own_prelude += "\n// ---- nvcc --expt-extended-lambda: cuda_runtime.h includes these ----\n"
                   "#include <functional>\n#include <utility>\n";
    base_prelude = &own_prelude;
  }
  const std::string& prelude = *base_prelude;
  std::string own_arch_text;
  const std::string& arch_text =
      opts.prelude_cache ? opts.prelude_cache->generic_arch_text() : (own_arch_text = prelude_arch_text());
  // An editor's runs (buffers unsaved, no disk cache): the first pass keeps its parse of the
  // newest arch for the full run after it, under a key of everything that parse read but files
  // on disk (the full run follows it at once).
  const bool editor = !opts.disk_cache || !opts.unsaved.empty() || opts.newest_arch_only;
  if (editor && opts.archs.size() > 1 && opts.prelude_cache &&
      (opts.newest_arch_only || opts.prelude_cache->has_newest_parses())) {
    std::string more;
    for (const auto& [p, t] : opts.unsaved) (((more += p) += '\x1f') += t) += '\x1e';
    more += fmt::format("{}{}{}{}", opts.parallel_archs ? "+parallel" : "", opts.extended_lambda ? "+lambda" : "",
                        opts.reuse_bodies ? "+reuse" : "", opts.derive_archs ? "+derive" : "");
    const std::string key = detail::result_key("cuda-newest-parse", path, text, opts, prelude, arch_text, more);
    return detail::analyze_parsed(path, text, opts, table, prelude, arch_text, nullptr, key);
  }
  if (editor) return detail::analyze_parsed(path, text, opts, table, prelude, arch_text, nullptr);
  const std::string key = detail::result_key("cuda-result", path, text, opts, prelude, arch_text);
  if (auto entry = opts.disk_cache->load("cuda", key))
    if (auto r = detail::decode_entry(*entry, table, opts.prelude_cache)) return std::move(*r);
  detail::Manifest seen;
  Result r = detail::analyze_parsed(path, text, opts, table, prelude, arch_text, &seen);
  if (r.errors.empty())  // failures of the front-end itself are worth retrying next time
    if (auto entry = detail::encode_entry(seen, r, table, opts.prelude_cache)) opts.disk_cache->store("cuda", key, *entry);
  return r;
}

}  // namespace cudalint::cuda
