// CUDA front-end, use collection: what one parse finds in project code (the uses of the feature
// table, the functions they lie in, what each function calls), the AST walk that finds it, and
// the bodies later archs' parses may reuse. Private to analyzer/frontends/cuda.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>

#include "analyzer/frontends/cuda/arch_trace.h"
#include "analyzer/frontends/cuda/coalescing.h"
#include "analyzer/frontends/cuda/cuda_frontend.h"
#include "analyzer/frontends/cuda/cuda_frontend_internal.h"
#include "analyzer/frontends/cuda/preamble.h"

namespace cudalint::cuda::detail {

struct RawUse {
  const Feature* feature = nullptr;
  clang::FileID file;
  uint32_t begin = 0, end = 0;
  std::string spelled;
  const clang::FunctionDecl* fn = nullptr;  // canonical declaration of the enclosing function
};

struct FnInfo {
  UseContext base = UseContext::Host;
  // A function template pattern with an instantiated definition: nvcc (EDG) then checks the
  // names it binds at definition, even in a branch `if constexpr` discards for every
  // instantiation; a template never instantiated is not checked at all.
  bool instantiated_pattern = false;
  bool kernel = false;
  std::vector<const clang::FunctionDecl*> callees;  // canonical declarations
  std::vector<clang::SourceLocation> callee_locs;    // where each is referred to (may be invalid)
};

// A later arch's parse may skip the bodies of functions whose tokens, and the declarations
// they see, cannot differ from an earlier parse's (no arch-dependent preprocessing in or
// before them outside function bodies, no project template they could instantiate): what the
// earlier parse found in them is taken instead. A function is named by the file ("" = the
// analysed file) and offset of its name.
using BodyKey = std::pair<std::string, uint32_t>;
struct ReusedBody {
  uint32_t body_begin = 0, body_end = 0;  // the body's braces, in the key's file
  UseContext base = UseContext::Host;
  bool kernel = false;
  std::vector<BodyKey> callees;  // canonical declarations
  struct Use {
    const Feature* feature = nullptr;
    std::string file;
    uint32_t begin = 0, end = 0;
    std::string spelled;
  };
  std::vector<Use> uses;
};
using BodyReuse = std::map<BodyKey, ReusedBody>;

// A header a use lies in, resolved while the SourceManager is alive: the name it was opened by
// and the offset in the analysed file of the `#include` that brings it in (none: -1).
struct HeaderInfo {
  std::string name;
  int64_t include_offset = -1;
};

struct Derivation;  // arch_derivation.h
class FnScopes;     // arch_derivation.cpp

// What one parse collects: filled by Consumer and the visitors it runs.
struct Collector {
  const FeatureTable& table;
  const std::optional<domain::CudaVersion>& cuda;
  // Valid only during the parse: the CompilerInstance that owns them is gone once
  // ToolInvocation::run returns (what later code needs from them is copied into `headers`).
  clang::SourceManager* sm = nullptr;
  clang::ASTContext* ctx = nullptr;
  clang::FileID main;
  std::vector<RawUse> raw;
  std::map<clang::FileID, HeaderInfo> headers;  // every file of `raw` other than `main`
  // Functions named in the initializer of a __device__/__constant__ variable (a table of
  // function pointers): nvcc emits them like the callees of a kernel.
  std::vector<const clang::FunctionDecl*> var_roots;
  std::unordered_map<const clang::FunctionDecl*, FnInfo> fns;
  // Used by the memory-access analysis (coalescing.h).
  bool want_accesses = false;
  bool want_features = true;
  std::vector<GlobalAccess> accesses;
  // Body reuse: this parse's preprocessing (complete when the AST is), `need_bodies` says
  // whether a later arch needs a parse of its own (then `bodies` is filled); `reuse` the bodies
  // this parse may skip, `skipped` those it did, `reuse_failed` that it must be parsed again
  // without skipping.
  const ArchTrace* trace = nullptr;
  std::function<bool(const ArchTrace&)> need_bodies;
  std::shared_ptr<BodyReuse> bodies;
  const BodyReuse* reuse = nullptr;
  std::map<const clang::FunctionDecl*, const BodyReuse::value_type*> skipped;  // by canonical declaration
  bool reuse_failed = false;
  std::shared_ptr<Derivation> derivation;  // filled with `bodies`
  // Skip the bodies of the C++ standard library's functions (Options::skip_std_bodies).
  bool skip_std = false;
  std::unordered_map<unsigned, bool> std_files;  // in_std_library's answers
  size_t std_skipped = 0;                        // bodies Clang was told to skip for it
  // Kernel templates of the analysed file that nothing here instantiates (Result::unanalysed_kernels).
  std::vector<std::string> unanalysed_kernels;
  // The in-memory file of the precompiled preamble this parse read (preamble.h), "" for none:
  // the declarations of its headers are walked too, and it stands for the analysed file.
  std::string preamble_file;
  PreambleShift preamble_shift;  // its offsets → the analysed file's

  // The file ("" = the analysed one) and offset of a declaration's name in project code.
  std::optional<BodyKey> key_of(const clang::Decl* d) const {
    clang::FileID fid;
    uint32_t off = 0;
    if (!d || !place(d->getLocation(), fid, off)) return std::nullopt;
    auto file = reuse_file_name(*sm, fid);
    if (!file) return std::nullopt;
    return BodyKey{std::move(*file), off};
  }

  Collector(const FeatureTable& t, const std::optional<domain::CudaVersion>& c) : table(t), cuda(c) {}

  // Whether a declaration comes from the prelude (a CUDA API), not from the project.
  bool from_prelude(const clang::Decl* d) const {
    if (!d) return false;
    clang::SourceLocation l = sm->getSpellingLoc(d->getLocation());
    return l.isValid() && is_prelude(sm->getFileID(l));
  }

  // The prelude parsed as text has a FileID of this parse; read from a PCH, it is one of the
  // PCH's: found by name either way, once per FileID.
  bool is_prelude(clang::FileID fid) const {
    if (fid.isInvalid() || fid == main) return false;
    auto [it, fresh] = prelude_ids.try_emplace(fid.getHashValue(), false);
    if (fresh)
      if (auto fe = sm->getFileEntryRefForID(fid)) it->second = std::string_view(fe->getName()) == kPreludePath;
    return it->second;
  }
  mutable std::unordered_map<unsigned, bool> prelude_ids;

  // Where a use is reported: the file location (macro expansions: where the macro is used) in
  // a project file, never in system headers or the prelude.
  bool place(clang::SourceLocation loc, clang::FileID& fid, uint32_t& off) const {
    if (loc.isInvalid()) return false;
    clang::SourceLocation f = sm->getFileLoc(loc);
    if (f.isInvalid()) return false;
    fid = sm->getFileID(f);
    if (fid.isInvalid() || is_prelude(fid)) return false;
    if (fid != main && sm->isInSystemHeader(f)) return false;
    off = sm->getFileOffset(f);
    return true;
  }

  void add(const Feature* f, clang::SourceLocation b, clang::SourceLocation e, std::string spelled,
           const clang::FunctionDecl* fn) {
    if (!f) return;
    RawUse u;
    if (!place(b, u.file, u.begin)) return;
    clang::FileID ef;
    uint32_t eo = 0;
    if (e.isValid() && place(e, ef, eo) && ef == u.file && eo >= u.begin) {
      clang::SourceLocation fe = sm->getFileLoc(e);
      u.end = eo + clang::Lexer::MeasureTokenLength(fe, *sm, ctx->getLangOpts());
    } else {
      u.end = u.begin + clang::Lexer::MeasureTokenLength(sm->getFileLoc(b), *sm, ctx->getLangOpts());
    }
    if (u.end <= u.begin) u.end = u.begin + 1;
    u.feature = f;
    u.spelled = std::move(spelled);
    u.fn = fn;
    raw.push_back(std::move(u));
  }
};

// The AST consumer of one parse: fills the Collector with the uses in project code and the
// functions they lie in, records what later archs may reuse or derive from this parse, or reuses
// what an earlier parse recorded (record_derivation and inert_branch: arch_derivation.cpp).
class Consumer : public clang::ASTConsumer {
 public:
  explicit Consumer(Collector& c) : c_(c) {}
  // Before the parse: shouldSkipFunctionBody needs the source manager too.
  void Initialize(clang::ASTContext& ctx) override {
    c_.ctx = &ctx;
    c_.sm = &ctx.getSourceManager();
    c_.main = c_.sm->getMainFileID();
  }
  void HandleTranslationUnit(clang::ASTContext& ctx) override;
  bool shouldSkipFunctionBody(clang::Decl* d) override;

 private:
  // The functions a later arch's parse may skip, with what this parse found in them. None when
  // arch-dependent preprocessing lies outside function bodies (the declarations every body sees
  // may differ) or defines macros.
  void record_bodies();

  // Whether a function (its definition `def`) is one whose body another arch's parse may skip
  // or derive: a plain function, not constexpr, with no deduced result, that instantiates no
  // project code (SkipCheck). Asked by record_bodies and record_derivation: the walk runs once.
  bool self_contained(const clang::FunctionDecl* def, const FnInfo& info);
  std::map<const clang::FunctionDecl*, bool> self_contained_;

  // What deriving another arch from this parse needs (Derivation): for each simple arch group,
  // whether its function allows it and which of its branches add nothing.
  void record_derivation();

  // Whether the text [begin, end) of a group's branch in `fn` (scopes `sc`) can add nothing
  // to a parse: no directive, macro, call, member (but the builtin variables' x/y/z), name of
  // anything but a scalar variable of the function visible there (or declared in the branch by
  // a builtin type, and not used after the group), no keyword outside a small set.
  bool inert_branch(const FnScopes& sc, const ArchTrace& t, const ArchTrace::Group& g, llvm::StringRef buf,
                    uint32_t begin, uint32_t end) const;

  // After a parse that skipped bodies: checks that its preprocessing differed from the
  // recording parse's only in bodies it parsed, then takes the skipped bodies' findings.
  void reuse_bodies();

  // Names the headers the uses lie in (Collector::headers) while the SourceManager is alive.
  void resolve_headers();

  Collector& c_;
};

// The translation unit's top-level declarations to walk: this parse's, and with a precompiled
// preamble (`with_preamble`) those of its project headers too (a PCH's system headers and prelude
// hold no project code).
std::vector<clang::Decl*> walked_decls(clang::ASTContext& ctx, bool with_preamble);

// An arch's uses from one parse's functions and raw uses: kernels and what they reach are
// emitted. `removed`: callee edges (function, index) and `removed_use` uses to leave out (a
// derived arch's, Derivation).
void build_uses(const std::unordered_map<const clang::FunctionDecl*, FnInfo>& fns,
                const std::vector<const clang::FunctionDecl*>& var_roots, const std::vector<RawUse>& raw,
                const std::map<clang::FileID, HeaderInfo>& headers, clang::FileID main, std::string_view text,
                const std::function<bool(const clang::FunctionDecl*, size_t)>& removed,
                const std::function<bool(const RawUse&)>& removed_use, ArchResult& ar);

}  // namespace cudalint::cuda::detail
