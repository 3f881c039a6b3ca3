#include "analyzer/frontends/cuda/cuda_frontend.h"

#include "analyzer/core/bytes.h"
#include "analyzer/core/disk_cache.h"
#include "analyzer/core/source_file.h"

#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <set>
#include <unordered_map>

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/ASTContext.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/DiagnosticIDs.h>
#include <clang/Basic/DiagnosticLex.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/Basic/DiagnosticParse.h>
#include <clang/Basic/Version.h>
#include <clang/Driver/Compilation.h>
#include <clang/Driver/Driver.h>
#include <clang/Driver/Job.h>
#include <clang/Driver/Tool.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Frontend/MultiplexConsumer.h>
#include <clang/Lex/Lexer.h>
#include <clang/Lex/PPCallbacks.h>
#include <clang/Lex/Preprocessor.h>
#include <clang/Serialization/ASTWriter.h>
#include <clang/Serialization/InMemoryModuleCache.h>
#include <clang/Serialization/PCHContainerOperations.h>
#include <clang/Tooling/Tooling.h>
#include <fmt/format.h>
#include <llvm/Support/CrashRecoveryContext.h>
#include <llvm/Support/JSON.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/VirtualFileSystem.h>
#include <llvm/TargetParser/Host.h>
#include <llvm/Support/thread.h>

#include "analyzer/frontends/cuda/arch_macros.h"
#include "analyzer/frontends/cuda/branch_syntax.h"
#include "analyzer/frontends/cuda/coalescing.h"
#include "analyzer/frontends/cuda/ptx.h"
#include "analyzer/frontends/cuda/resource_headers.h"
#include "analyzer/frontends/cuda/arch_derivation.h"
#include "analyzer/frontends/cuda/arch_trace.h"
#include "analyzer/frontends/cuda/cuda_frontend_internal.h"
#include "analyzer/frontends/cuda/driver_job.h"
#include "analyzer/frontends/cuda/prelude_cache.h"
#include "analyzer/frontends/cuda/result_codec.h"
#include "analyzer/frontends/cuda/std_includes.h"
#include "analyzer/frontends/cuda/use_collector.h"
#include "analyzer/frontends/cuda/virtual_files.h"

namespace cudalint::cuda {

namespace detail {
namespace {

#ifndef CUDALINT_CLANG_RESOURCE_DIR
#define CUDALINT_CLANG_RESOURCE_DIR ""
#endif

// Missing includes are skipped (recorded); includes of the analysed file are remembered so that
// uses in headers can name the `#include` that brings them in.
class IncludeTracker : public clang::PPCallbacks {
 public:
  explicit IncludeTracker(std::vector<std::string>& missing) : missing_(missing) {}
  bool FileNotFound(llvm::StringRef name) override {
    if (std::find(missing_.begin(), missing_.end(), name.str()) == missing_.end()) missing_.push_back(name.str());
    return true;  // skip it: a missing torch or project header must not stop the analysis
  }

 private:
  std::vector<std::string>& missing_;
};

class Action : public clang::ASTFrontendAction {
 public:
  Action(Collector& c, std::vector<std::string>& missing, const domain::Arch& arch, ArchTrace& trace)
      : c_(c), missing_(missing), arch_(arch), trace_(trace) {}
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance&, llvm::StringRef) override {
    return std::make_unique<Consumer>(c_);
  }
  bool BeginSourceFileAction(clang::CompilerInstance& ci) override {
    ci.getPreprocessor().SetSuppressIncludeNotFoundError(true);
    ci.getPreprocessor().addPPCallbacks(std::make_unique<IncludeTracker>(missing_));
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

std::string arch_flag_name(const domain::Arch& a) {
  return fmt::format("sm_{}{}", a.sm(), a.suffix ? std::string(1, a.suffix) : std::string());
}

}  // namespace
}  // namespace detail

namespace detail {
namespace {

// Hands ToolInvocation's runner one action (as ToolInvocation does with its own).
class OneAction : public clang::tooling::FrontendActionFactory {
 public:
  explicit OneAction(std::unique_ptr<clang::FrontendAction> a) : a_(std::move(a)) {}
  std::unique_ptr<clang::FrontendAction> create() override { return std::move(a_); }

 private:
  std::unique_ptr<clang::FrontendAction> a_;
};

}  // namespace
}  // namespace detail

namespace detail {
namespace {

// What one parse needs besides the arch.
struct ParseInput {
  std::string_view text;
  const Options& opts;
  const FeatureTable& table;
  const std::string& prelude;  // prelude_text(table), generated once by the caller
  const std::string& arch_text;  // prelude_arch_text()
  std::string file;            // the analysed file's absolute path
  bool features = true;        // may_use_features(text)
  std::string std_includes;    // leading_std_includes(text), when a PCH may hold them
};

// One Clang parse of the analysed file for one arch, and what it found.
struct ArchParse {
  ArchResult ar;
  ArchTrace trace;
  std::vector<std::string> errors, missing;
  std::vector<SyntaxError> syntax;     // at most one: the first
  std::vector<GlobalAccess> accesses;  // when asked for (`first`)
  bool used_pch = false;               // the prelude came precompiled
  bool reused_driver = false;          // the cc1 command line came from a driver job
  bool used_std_pch = false;           // that PCH held the file's standard headers
  std::shared_ptr<const BodyReuse> bodies;  // what a later arch's parse may reuse (Collector::bodies)
  size_t skipped_bodies = 0;                // bodies this parse took from an earlier one
  size_t std_skipped = 0;                   // standard library bodies it skipped (skip_std_bodies)
  std::shared_ptr<const Derivation> derivation;  // what derives other archs from it (Collector::derivation)
  std::vector<std::string> unanalysed_kernels;   // Collector::unanalysed_kernels
};

}  // namespace
}  // namespace detail

namespace detail {
namespace {

// __CUDA_ARCH_LIST__ as nvcc defines it: the archs' numbers, ascending, without repeats (`a`
// and `f` targets count as their number).
std::string arch_list_macro(const std::vector<domain::Arch>& archs) {
  std::set<int> nums;
  for (const auto& a : archs) nums.insert(a.sm() * 10);
  return fmt::format("{}", fmt::join(nums, ","));
}

// `own_stack`: the calling thread has kParseStackBytes of stack. `record`: where the parse's
// file system probes go (not shared with a parse running at the same time).
// `reuse`: bodies an earlier parse recorded, which this one skips when it can (a parse that
// finds it could not is run again without). `need_bodies`: whether a later arch will need a
// parse of its own after this one (given this parse's preprocessing).
ArchParse parse_arch(const ParseInput& in, const domain::Arch& arch, bool first, bool own_stack, Manifest* record,
                     const BodyReuse* reuse = nullptr,
                     const std::function<bool(const ArchTrace&)>& need_bodies = nullptr) {
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
  // set of headers and flags (<iostream> alone is ~300 ms of a parse, in every parse of the file).
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
  // a text made for this arch: the generic text's 58 `#if` were about 4% of a small file's parse.
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
  for (int attempt = 0; attempt < 2; ++attempt) {
    const bool with_pch = pch && attempt == 0;
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
      vf.mem->addFile(file, 0, llvm::MemoryBuffer::getMemBuffer(llvm::StringRef(text.data(), text.size()), file));
      // Either returns false on errors in user code, which still leave a usable AST.
      if (job && job->invocation) {
        auto ci = std::make_shared<clang::CompilerInvocation>(*job->invocation);
        clang::FrontendInputFile& input = ci->getFrontendOpts().Inputs[0];
        input = clang::FrontendInputFile(file, input.getKind(), input.isSystem());
        ci->getCodeGenOpts().MainFileName = llvm::sys::path::filename(file).str();
        if (c.reuse || c.skip_std) ci->getFrontendOpts().SkipFunctionBodies = true;
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

Result analyze_parsed(std::string_view path, std::string_view text, const Options& opts, const FeatureTable& table,
                      const std::string& prelude, const std::string& arch_text, Manifest* record) {
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
  if (in.features && n >= 2 && opts.parallel_archs) {
    // The newest and the oldest arch at once: with the archs between sharing one of their
    // parses (the usual case), the latency is one parse.
    size_t o = 0;
    for (size_t k = 1; k < n; ++k)
      if (archs[k].sm() < archs[o].sm()) o = k;
    if (o == r) o = r == 0 ? n - 1 : 0;
    Manifest other_probes;
    llvm::thread t(std::optional<unsigned>(kParseStackBytes), [&] {
      parses[o] = parse_arch(in, archs[o], false, true, record ? &other_probes : nullptr);
    });
    parses[r] = parse_arch(in, archs[r], true, opts.caller_has_parse_stack, record);
    t.join();
    if (record)
      for (auto& [p, probe] : other_probes) note_probe(*record, p, probe);
  } else {
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
  // An arch whose preprocessing gives the tokens a parse saw has that parse's uses: the verdicts
  // for each arch are the rules' (most files parse once or twice, not once per arch).
  std::vector<size_t> source(n);
  for (size_t k = 0; k < n; ++k) {
    source[k] = k;
    if (parses[k] || !in.features) continue;
    for (size_t j = 0; j < n; ++j)
      if (parses[j] && parses[j]->ar.parsed && same_tokens(parses[j]->trace, archs[j], archs[k])) {
        source[k] = j;
        break;
      }
    if (source[k] != k) continue;
    if (opts.derive_archs && parses[r] && parses[r]->derivation)
      derived[k] = derive(*parses[r]->derivation, parses[r]->trace, archs[r], archs[k], text);
    if (!derived[k])
      parses[k] = parse_arch(in, archs[k], false, opts.caller_has_parse_stack, record,
                             parses[r] && parses[r]->bodies ? parses[r]->bodies.get() : nullptr);
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
    ++res.clang_parses;
    if (p.used_pch) ++res.pch_parses;
    if (p.reused_driver) ++res.reused_driver_parses;
    if (p.used_std_pch) ++res.std_pch_parses;
    res.skipped_bodies += p.skipped_bodies;
    res.std_bodies_skipped += p.std_skipped;
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
  return res;
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
  if (!opts.disk_cache || !opts.unsaved.empty())
    return detail::analyze_parsed(path, text, opts, table, prelude, arch_text, nullptr);
  std::string archs, flags;
  for (const auto& a : opts.archs) archs += a.sm_name() + (a.ptx ? "+ptx;" : ";");
  for (const auto* list : {&opts.include_dirs, &opts.defines, &opts.undefines}) {
    for (const auto& v : *list) (flags += v) += '\x1f';
    flags += '\x1e';
  }
  std::string cuda = opts.cuda ? fmt::format("{}.{}", opts.cuda->major, opts.cuda->minor) : "";
  if (opts.want_accesses) cuda += "+accesses";  // a result without them answers no MEM rule
  llvm::SmallString<256> cwd;
  llvm::sys::fs::current_path(cwd);
  const std::string key = DiskCache::key(
      "cuda-result", {path, text, archs, flags, opts.std, cuda, std::string_view(cwd.data(), cwd.size()), prelude,
                      arch_text});
  if (auto entry = opts.disk_cache->load("cuda", key))
    if (auto r = detail::decode_entry(*entry, table, opts.prelude_cache)) return std::move(*r);
  detail::Manifest seen;
  Result r = detail::analyze_parsed(path, text, opts, table, prelude, arch_text, &seen);
  if (r.errors.empty())  // failures of the front-end itself are worth retrying next time
    if (auto entry = detail::encode_entry(seen, r, table, opts.prelude_cache)) opts.disk_cache->store("cuda", key, *entry);
  return r;
}

}  // namespace cudalint::cuda
