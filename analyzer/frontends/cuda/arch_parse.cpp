// CUDA front-end: one Clang parse for one arch (arch_parse.h).
#include "analyzer/frontends/cuda/arch_parse.h"

#include <algorithm>
#include <set>

#include <clang/Basic/DiagnosticIDs.h>
#include <clang/Basic/DiagnosticLex.h>
#include <clang/Basic/DiagnosticParse.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Lex/Lexer.h>
#include <clang/Lex/PPCallbacks.h>
#include <clang/Lex/Preprocessor.h>
#include <clang/Lex/PreprocessorOptions.h>
#include <clang/Serialization/PCHContainerOperations.h>
#include <clang/Tooling/Tooling.h>
#include <fmt/format.h>
#include <llvm/Support/CrashRecoveryContext.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>

#include "analyzer/frontends/cuda/arch_derivation.h"
#include "analyzer/frontends/cuda/cuda_frontend_internal.h"
#include "analyzer/frontends/cuda/driver_job.h"
#include "analyzer/frontends/cuda/preamble.h"
#include "analyzer/frontends/cuda/prelude_cache.h"

namespace cudalint::cuda::detail {

namespace {

// The parse: the Consumer, and the preprocessor's callbacks (missing includes, arch macros).
class Action : public clang::ASTFrontendAction {
 public:
  Action(Collector& c, std::vector<std::string>& missing, const domain::Arch& arch, ArchTrace& trace)
      : c_(c), missing_(missing), arch_(arch), trace_(trace) {}
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance&, llvm::StringRef) override {
    return std::make_unique<Consumer>(c_);
  }
  bool BeginSourceFileAction(clang::CompilerInstance& ci) override {
    ci.getPreprocessor().SetSuppressIncludeNotFoundError(true);
    ci.getPreprocessor().addPPCallbacks(std::make_unique<MissingIncludes>(missing_));
    ci.getPreprocessor().addPPCallbacks(arch_tracer(ci.getPreprocessor(), arch_, trace_));
    return true;
  }

 private:
  Collector& c_;
  std::vector<std::string>& missing_;
  domain::Arch arch_;
  ArchTrace& trace_;
};

// Clang's errors, sorted out: what missing headers can explain is dropped; a real syntax error
// in the analysed file is kept.
class DiagCollector : public clang::DiagnosticConsumer {
 public:
  struct Error {
    uint32_t offset = 0, end = 0;
    std::string message;
    bool definite = false;  // lexical: no missing declaration causes it
    bool syntax = false;    // a parse or lexical error
  };
  std::vector<Error> main_errors;
  bool other_errors = false;  // semantic errors, or errors outside the analysed file
  bool unplaced_errors = false;  // errors at no place in a file (the driver's, an unreadable PCH)
  std::vector<std::string> driver_errors;

  void HandleDiagnostic(clang::DiagnosticsEngine::Level level, const clang::Diagnostic& info) override {
    clang::DiagnosticConsumer::HandleDiagnostic(level, info);
    if (level < clang::DiagnosticsEngine::Error) return;
    llvm::SmallString<160> msg;
    info.FormatDiagnostic(msg);
    unsigned id = info.getID();
    if (!info.hasSourceManager() || info.getLocation().isInvalid()) {
      // The driver's and the invocation's errors (bad flags), an unreadable PCH: the parse did
      // not see the file as asked.
      unplaced_errors = true;
      other_errors = true;
      driver_errors.push_back(msg.str().str());
      return;
    }
    if (id == clang::diag::err_pp_hash_error) return;  // `#error`: deliberate, not a syntax error
    const clang::SourceManager& sm = info.getSourceManager();
    clang::SourceLocation f = sm.getFileLoc(info.getLocation());
    unsigned cat = clang::DiagnosticIDs::getCategoryNumberForDiag(id);
    llvm::StringRef cat_name = clang::DiagnosticIDs::getCategoryNameFromID(cat);
    bool syntax = cat_name == "Lexical or Preprocessor Issue" || cat_name == "Parse Issue";
    if (f.isInvalid() || sm.getFileID(f) != sm.getMainFileID() || !syntax) {
      other_errors = true;
      return;
    }
    Error e;
    e.offset = sm.getFileOffset(f);
    e.end = e.offset + std::max(1u, clang::Lexer::MeasureTokenLength(f, sm, clang::LangOptions()));
    e.message = msg.str().str();
    e.syntax = true;
    e.definite = id == clang::diag::err_unterminated_block_comment || id == clang::diag::err_pp_unterminated_conditional ||
                 id == clang::diag::err_pp_endif_without_if || id == clang::diag::pp_err_else_without_if ||
                 id == clang::diag::pp_err_else_after_else || id == clang::diag::pp_err_elif_after_else ||
                 id == clang::diag::pp_err_elif_without_if || id == clang::diag::err_unterminated_raw_string ||
                 id == clang::diag::err_extraneous_closing_brace;
    main_errors.push_back(std::move(e));
  }
};

std::string arch_flag_name(const domain::Arch& a) {
  return fmt::format("sm_{}{}", a.sm(), a.suffix ? std::string(1, a.suffix) : std::string());
}

// __CUDA_ARCH_LIST__ as nvcc defines it: the archs' numbers, ascending, without repeats (`a`
// and `f` targets count as their number).
std::string arch_list_macro(const std::vector<domain::Arch>& archs) {
  std::set<int> nums;
  for (const auto& a : archs) nums.insert(a.sm() * 10);
  return fmt::format("{}", fmt::join(nums, ","));
}

}  // namespace

ArchParse parse_arch(const ParseInput& in, const domain::Arch& arch, bool first, bool own_stack, Manifest* record,
                     const BodyReuse* reuse, const std::function<bool(const ArchTrace&)>& need_bodies) {
  const Options& opts = in.opts;
  const std::string_view text = in.text;
  const std::string& prelude = in.prelude;
  const std::string& file = in.file;
  const FeatureTable& table = in.table;
  const bool features = in.features;
  ArchParse out;
  ArchResult& ar = out.ar;
  ar.arch = arch;
  const int sm = arch.sm();
  std::vector<std::string> args = common_args(opts);
  // The prelude precompiled for these flags, when a cache is given (cheaper than parsing its
  // text for every file and arch). Macros given after a PCH take effect after its text: when a
  // project's -D/-U names an identifier of the prelude, the prelude is parsed as text after
  // them, as nvcc would see the CUDA headers.
  // A file whose leading includes name standard headers gets a PCH that holds them too, one per
  // set of headers and flags (<iostream> alone is a large part of every parse of the file).
  // They come right after the prelude, as in the file, where nothing but includes precede them.
  PchBytes pch;
  std::string std_prelude;  // the prelude text that PCH was built from
  if (opts.prelude_cache && !opts.prelude_cache->prelude_names(table, opts.defines) &&
      !opts.prelude_cache->prelude_names(table, opts.undefines)) {
    if (!in.std_includes.empty() && opts.prelude_cache->admit_std_set(in.std_includes)) {
      std_prelude = prelude + "\n// ---- the analysed file's standard headers ----\n" + in.std_includes;
      pch = opts.prelude_cache->get(pch_key(std_prelude, args, opts), [&] { return build_prelude_pch(args, std_prelude, opts); },
                                    opts.precompile_prelude);
      if (!pch) std_prelude.clear();
    }
    if (!pch)
      pch = opts.prelude_cache->get(pch_key(prelude, args, opts), [&] { return build_prelude_pch(args, prelude, opts); },
                                    opts.precompile_prelude);
  }
  const std::string& pch_prelude = std_prelude.empty() ? prelude : std_prelude;
  // The arch, as nvcc defines it: `__CUDA_ARCH__`, and for arch-specific (`a`) and family (`f`)
  // targets their macros (`a` implies the family).
  // Unless the project's own -D/-U name an arch macro, the <nv/target> queries come decided in
  // a text made for this arch: no parse evaluates the generic text's `#if`s.
  const auto names_arch_macro = [](const std::vector<std::string>& macros) {
    return std::any_of(macros.begin(), macros.end(), [](const std::string& m) { return m.starts_with("__CUDA_ARCH"); });
  };
  const bool arch_in_text = !names_arch_macro(opts.defines) && !names_arch_macro(opts.undefines);
  std::string own_arch_text;
  const std::string& arch_text = !arch_in_text ? in.arch_text
                                 : opts.prelude_cache ? opts.prelude_cache->arch_text(arch)
                                                      : (own_arch_text = prelude_arch_text_for(arch));
  args.push_back("-U__CUDA_ARCH__");
  args.push_back(fmt::format("-D__CUDA_ARCH__={}", sm * 10));
  // nvcc defines the build's whole arch list too (one invocation compiles every -gencode arch, as
  // torch's extension builder runs it); code reads it in constexpr functions (`{__CUDA_ARCH_LIST__}`),
  // and without it the templates that use them are never instantiated.
  args.push_back("-D__CUDA_ARCH_LIST__=" + arch_list_macro(opts.archs));
  if (arch.suffix == 'a') {
    args.push_back(fmt::format("-D__CUDA_ARCH_FEAT_SM{}_ALL=1", sm));
    args.push_back(fmt::format("-D__CUDA_ARCH_SPECIFIC__={}", sm * 10));
  }
  if (arch.suffix == 'a' || arch.suffix == 'f') args.push_back(fmt::format("-D__CUDA_ARCH_FAMILY_SPECIFIC__={}", sm * 10));
  if (opts.cuda) {
    args.push_back(fmt::format("-D__CUDACC_VER_MAJOR__={}", opts.cuda->major));
    args.push_back(fmt::format("-D__CUDACC_VER_MINOR__={}", opts.cuda->minor));
  }
  for (const auto& d : opts.defines) args.push_back("-D" + d);
  for (const auto& d : opts.undefines) args.push_back("-U" + d);
  for (const auto& d : opts.include_dirs) args.push_back("-I" + d);

  std::optional<Collector> copt;
  std::optional<DiagCollector> dopt;
  ArchTrace& trace = out.trace;
  std::vector<std::string> missing;
  bool ran = false, finished = false;
  // Attempts: with the file's preamble (Options::preamble), with the PCH, with neither; each
  // next one only after a failure to read what the one before it used.
  std::shared_ptr<const Preamble> pre;
  const size_t pre_size = opts.preamble && opts.prelude_cache && pch && !reuse ? preamble_size(text) : 0;
  std::string blanked;  // the text with its preamble blanked
  for (int attempt = pre_size ? 0 : 1; attempt < 3; ++attempt) {
    const bool with_pch = pch && attempt <= 1;
    const std::string& used_prelude = with_pch ? pch_prelude : prelude;  // with a PCH: the text it holds
    std::vector<std::string> full = args;
    full.push_back(with_pch ? "-include-pch" : "-include");
    full.push_back(std::string(with_pch ? kPchPath : kPreludePath));
    full.push_back("-include");
    full.push_back(std::string(kArchPath));
    // The driver's cc1 command line for these flags, made once per run (the file is the only
    // part that differs between files; the driver's look-ups are replayed into `record`, so a
    // cached result depends on them as before).
    std::shared_ptr<const DriverJob> job;
    if (opts.prelude_cache) {
      llvm::SmallString<256> cwd;
      (void)llvm::sys::fs::current_path(cwd);  // the driver writes it into the cc1 flags
      std::string key(cwd.str());
      // The flags decide the arch text too: the arch's macros and the project's -D/-U are in them.
      for (const auto& a : full) (key += '\x1f') += a;
      if (with_pch && !std_prelude.empty()) (key += '\x1e') += in.std_includes;  // another PCH, another prelude
      if (opts.extended_lambda) key += "\x1d<functional>";  // another prelude
      job = opts.prelude_cache->driver_job(key, [&] {
        std::vector<std::string> a = full;
        a.push_back(std::string(kDriverInput));
        return make_driver_job(a, used_prelude, with_pch ? pch.get() : nullptr, arch_text, opts.clang_resource_dir);
      });
    }
    pre.reset();
    if (attempt == 0 && job && job->invocation) {
      // The PCH it is chained on: its size too (a preamble kept on disk may outlive that PCH).
      // A group's is the same for each of its files (drop_preambles finds it by the group's name).
      const bool shared = !opts.preamble_group.empty();
      std::string key = fmt::format("{}\x1f{}\x1f{:x}\x1f{}", shared ? opts.preamble_group : file, arch.sm_name(),
                                    std::hash<std::string>{}(used_prelude), pch->size());
      for (const auto& a : full) (key += '\x1f') += a;
      if (!std_prelude.empty()) (key += '\x1e') += in.std_includes;
      for (const auto& [u, t] : opts.unsaved)
        if (u != file) key += fmt::format("\x1d{}\x1d{}", u, content_hash(t));
      // Its tokens, not its text: an edit of the comments or blank lines before the code keeps it.
      (key += '\x1c') += preamble_signature(text.substr(0, pre_size));
      pre = opts.prelude_cache->preamble(
          key, [&] { return build_preamble(*job, opts.clang_resource_dir, opts.unsaved, file, text, pre_size, arch, shared,
                                        own_stack);
          },
          !shared);
    }
    PchBytes pre_pch = pre ? pre->load_pch() : nullptr;
    if (!pre_pch) pre.reset();
    if (attempt == 0 && !pre) continue;
    if (pre) blanked = blank_preamble(text, pre_size);
    if (job) {
      std::vector<std::string> cc1 = {full.front(), "-cc1"};
      cc1.insert(cc1.end(), job->cc1.begin(), job->cc1.end());
      cc1[2 + job->input_at] = file;
      cc1[2 + job->main_file_name_at] = llvm::sys::path::filename(file).str();
      full = std::move(cc1);
      if (record)
        for (const auto& [p, probe] : job->probes) note_probe(*record, p, probe);
    } else {
      full.push_back(file);
    }
    copt.emplace(table, opts.cuda);
    Collector& c = *copt;
    c.want_accesses = first && in.opts.want_accesses;
    c.want_features = features;
    // Bodies are skipped only with a driver job's invocation (its front-end options are ours).
    c.reuse = job && job->invocation ? reuse : nullptr;
    c.skip_std = job && job->invocation && opts.skip_std_bodies;
    c.need_bodies = need_bodies;
    c.trace = &trace;
    if (pre) {  // nothing derives from or reuses a parse of part of the text
      c.preamble_file = pre->path;
      // Built from a text with other comments or blank lines: its places move to this one's.
      if (std::string_view now = text.substr(0, pre_size); pre->text != now)
        c.preamble_shift = PreambleShift(pre->text, now);
      c.reuse = nullptr;
      c.need_bodies = nullptr;
    }
    dopt.emplace();
    DiagCollector& diags = *dopt;
    missing.clear();
    trace = {};
    ran = false;
    // Clang recurses deeply on deeply nested input: a thread with a large stack keeps that from
    // overflowing the caller's.
    llvm::CrashRecoveryContext crc;
    auto parse = [&] {
      VirtualFiles vf(opts.clang_resource_dir, used_prelude, with_pch ? pch.get() : nullptr, record, &arch_text, job ? job->files : nullptr);
      for (const auto& [p, t] : opts.unsaved)
        if (llvm::sys::path::is_absolute(p) && p != file)
          vf.mem->addFile(p, 0, llvm::MemoryBuffer::getMemBuffer(t, p));
      const std::string_view parsed = pre ? std::string_view(blanked) : text;
      vf.mem->addFile(file, 0, llvm::MemoryBuffer::getMemBuffer(llvm::StringRef(parsed.data(), parsed.size()), file));
      if (pre) {
        vf.mem->addFile(kPreamblePchPath, 0,
                        llvm::MemoryBuffer::getMemBuffer(llvm::StringRef(pre_pch->data(), pre_pch->size()),
                                                         kPreamblePchPath, false));
        vf.mem->addFile(pre->path, 0, llvm::MemoryBuffer::getMemBuffer(pre->text, pre->path));
      }
      // Either returns false on errors in user code, which still leave a usable AST.
      if (job && job->invocation) {
        std::shared_ptr<clang::CompilerInvocation> ci = invocation_for(*job, file);
        if (c.reuse || c.skip_std) ci->getFrontendOpts().SkipFunctionBodies = true;
        if (pre) {  // the preamble holds the prelude's PCH and the arch text too
          clang::PreprocessorOptions& pp = ci->getPreprocessorOpts();
          pp.ImplicitPCHInclude = std::string(kPreamblePchPath);
          pp.AllowPCHWithCompilerErrors = true;
          std::erase(pp.Includes, std::string(kArchPath));
        }
        OneAction(std::make_unique<Action>(c, missing, arch, trace))
            .runInvocation(std::move(ci), vf.files.get(), std::make_shared<clang::PCHContainerOperations>(), &diags);
      } else {
        clang::tooling::ToolInvocation inv(full, std::make_unique<Action>(c, missing, arch, trace), vf.files.get(),
                                           std::make_shared<clang::PCHContainerOperations>());
        inv.setDiagnosticConsumer(&diags);
        inv.run();
      }
      c.sm = nullptr;  // owned by the CompilerInstance, destroyed by run()
      c.ctx = nullptr;
      ran = true;
    };
    finished = own_stack ? crc.RunSafely(parse) : crc.RunSafelyOnThread(parse, kParseStackBytes);
    out.used_pch = with_pch;
    out.used_std_pch = with_pch && !std_prelude.empty();
    out.reused_driver = job != nullptr;
    out.used_preamble = pre != nullptr;
    // A PCH the parse could not load (an error without a place in any file): parse the text.
    if (!with_pch || (finished && ran && !diags.unplaced_errors)) break;
  }
  Collector& c = *copt;
  DiagCollector& diags = *dopt;
  if (!finished || !ran) {
    out.errors.push_back(fmt::format("the CUDA front-end could not parse this file for {}", arch_flag_name(arch)));
    return out;
  }
  if (!diags.driver_errors.empty())
    out.errors.push_back(fmt::format("the CUDA front-end could not run for {}: {}", arch_flag_name(arch),
                                     diags.driver_errors.front()));
  ar.parsed = diags.driver_errors.empty();
  // Preprocessing that differed from the recording parse's outside the bodies this one parsed.
  if (c.reuse && c.reuse_failed) return parse_arch(in, arch, first, own_stack, record, nullptr, need_bodies);
  if (pre) {
    merge_preamble_trace(pre->trace, c.preamble_shift, trace);
    std::vector<std::string> all = pre->missing;
    for (auto& m : missing)
      if (std::find(all.begin(), all.end(), m) == all.end()) all.push_back(std::move(m));
    missing = std::move(all);
    if (pre->errors) diags.other_errors = true;
    if (record)
      for (const auto& [p, probe] : pre->probes) note_probe(*record, p, probe);
  }
  out.skipped_bodies = c.skipped.size();
  out.unanalysed_kernels = c.unanalysed_kernels;
  out.std_skipped = c.std_skipped;
  out.missing = missing;
  // A syntax error missing declarations cannot explain: a lexical one always; a parse error
  // only when every include was found and nothing else went wrong.
  const bool clean = missing.empty() && !diags.other_errors;
  // Bodies are reused only from a parse without errors (an error can hide code).
  if (c.bodies && clean && diags.main_errors.empty() && ar.parsed) out.bodies = std::move(c.bodies);
  for (const auto& e : diags.main_errors) {
    if (!(e.definite || (e.syntax && clean))) continue;
    out.syntax = {{e.offset, std::min<uint32_t>(e.end, static_cast<uint32_t>(text.size())), e.message}};
    break;  // the first one; the rest usually cascade
  }

  build_uses(c.fns, c.var_roots, c.raw, c.headers, c.main, text, nullptr, nullptr, ar);
  if (c.derivation && out.bodies) {  // the same conditions: a parse without errors
    Derivation& d = *c.derivation;
    d.fns = std::move(c.fns);
    d.var_roots = std::move(c.var_roots);
    d.raw = std::move(c.raw);
    d.headers = std::move(c.headers);
    d.main = c.main;
    out.derivation = std::move(c.derivation);
  }
  if (c.want_accesses) out.accesses = std::move(c.accesses);
  return out;
}

}  // namespace cudalint::cuda::detail
