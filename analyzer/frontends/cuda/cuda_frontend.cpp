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
#include "analyzer/frontends/cuda/arch_trace.h"
#include "analyzer/frontends/cuda/cuda_frontend_internal.h"
#include "analyzer/frontends/cuda/driver_job.h"
#include "analyzer/frontends/cuda/prelude_cache.h"
#include "analyzer/frontends/cuda/result_codec.h"
#include "analyzer/frontends/cuda/std_includes.h"
#include "analyzer/frontends/cuda/virtual_files.h"

namespace cudalint::cuda {

namespace detail {
namespace {

#ifndef CUDALINT_CLANG_RESOURCE_DIR
#define CUDALINT_CLANG_RESOURCE_DIR ""
#endif

// Type spellings compared without spaces: `float2 *` and `float2*` are the same key.
std::string squeeze(std::string_view s) {
  std::string out;
  for (char c : s)
    if (c != ' ') out += c;
  return out;
}

// The functions whose bodies body reuse may skip: free functions, not templates.
bool plain_function(const clang::FunctionDecl* fd) {
  return !llvm::isa<clang::CXXMethodDecl>(fd) && fd->getTemplatedKind() == clang::FunctionDecl::TK_NonTemplate &&
         !fd->isDependentContext();
}

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

// Derivation: another arch's uses from a parse without parsing again. When that arch's
// preprocessing differs from the parse's only in ArchTrace::groups inside plain functions, and
// the branch it takes instead holds tokens that can add no use, call or declaration (plain
// arithmetic on the function's scalar variables, or nothing), its uses are the parse's without
// those in the branch the parse took, with what the removed calls reached computed again.
struct Derivation {
  struct Group {
    bool ok = false;                 // in a plain function; its branch declares nothing used outside
    // The `#if` / `#else` branch adds nothing, and parses (plain_statements_parse: a branch with
    // a syntax error gets a parse of the file, which reports it).
    bool inert[2] = {false, false};
    uint32_t taken_begin = 0, taken_end = 0;  // the recording parse's branch, in the group's file
  };
  std::vector<Group> groups;  // parallel to ArchTrace::groups
  // The recording parse's functions (keys compared, never dereferenced: the AST is gone), the
  // places of their callees, uses and headers.
  std::unordered_map<const clang::FunctionDecl*, FnInfo> fns;
  std::unordered_map<const clang::FunctionDecl*, std::vector<std::pair<clang::FileID, uint32_t>>> callee_at;
  std::vector<const clang::FunctionDecl*> var_roots;
  std::vector<RawUse> raw;
  std::map<clang::FileID, HeaderInfo> headers;
  clang::FileID main;
};

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

// Walks one function (signature and body): its feature uses and the functions it refers to.
class UseVisitor : public clang::RecursiveASTVisitor<UseVisitor> {
 public:
  UseVisitor(Collector& c, const clang::FunctionDecl* fn, FnInfo& info) : c_(c), fn_(fn), info_(info) {}

  bool shouldVisitTemplateInstantiations() const { return false; }
  bool shouldVisitImplicitCode() const { return false; }

  // `if constexpr`: the discarded branch is never compiled (in a template it is not even
  // instantiated); a condition on `__CUDA_ARCH__` is how arch dispatch is written in C++17.
  bool TraverseIfStmt(clang::IfStmt* s) {
    if (s && s->isConstexpr()) {
      if (std::optional<clang::Stmt*> kept = s->getNondiscardedCase(*c_.ctx)) {
        if (s->getInit()) TraverseStmt(s->getInit());
        if (s->getConditionVariableDeclStmt()) TraverseStmt(s->getConditionVariableDeclStmt());
        TraverseStmt(s->getCond());
        if (*kept) TraverseStmt(*kept);
        return true;
      }
    }
    return clang::RecursiveASTVisitor<UseVisitor>::TraverseIfStmt(s);
  }

  // A lambda's body belongs to its call operator, a function of its own (called from where the
  // lambda is invoked, e.g. a kernel template taking it as a functor).
  bool TraverseLambdaExpr(clang::LambdaExpr* e) {
    if (e) {
      for (const clang::LambdaCapture& cap : e->captures())
        if (cap.capturesVariable() && e->isInitCapture(&cap))
          TraverseDecl(cap.getCapturedVar());
      if (clang::CXXMethodDecl* op = e->getCallOperator()) lambdas.push_back(op);
    }
    return true;
  }

  bool VisitCallExpr(clang::CallExpr* e) {
    auto* fd = llvm::dyn_cast_or_null<clang::FunctionDecl>(e->getCalleeDecl());
    if (!fd) return true;
    edge(fd, e->getBeginLoc());
    if (!c_.want_features || !c_.from_prelude(fd)) return true;
    auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(e->getCallee()->IgnoreParenImpCasts());
    std::string q = fd->getQualifiedNameAsString();
    // Overload rows are keyed by the first parameter's type: `atomicAdd(float2*)`.
    if (e->getNumArgs() > 0 && c_.table.has_overload_rows(q)) {
      const clang::Expr* a0 = e->getArg(0)->IgnoreParenImpCasts();
      clang::QualType t = a0->getType();
      if (!t.isNull() && !t->isDependentType()) {
        clang::PrintingPolicy pp(c_.ctx->getLangOpts());
        pp.SuppressTagKeyword = true;
        pp.SuppressScope = false;
        std::string ts = squeeze(t.getUnqualifiedType().getCanonicalType().getAsString(pp));
        const Feature* f = nullptr;
        for (const Feature& row : c_.table.rows())
          if (row.name.size() > q.size() + 2 && row.name.starts_with(q) && row.name[q.size()] == '(' &&
              squeeze(std::string_view(row.name).substr(q.size() + 1, row.name.size() - q.size() - 2)) == ts) {
            f = c_.table.find(row.name, c_.cuda);
            break;
          }
        // The templated overload (`atomicCAS(T*)`, the 128-bit atomics of sm_90): the scalar
        // overloads cover the builtin types, the template takes a 16-byte trivially copyable
        // class (`struct alignas(16) Pair {...}`).
        if (!f && t->isPointerType()) {
          clang::QualType pointee = t->getPointeeType();
          if (pointee->isRecordType() && !pointee->isIncompleteType() && !pointee->isDependentType() &&
              c_.ctx->getTypeSize(pointee) == 128)
            f = c_.table.find(q + "(T*)", c_.cuda);
        }
        if (f) {
          if (ref) handled_.insert(ref);
          // `atomicCAS(Pair*)` rather than the row's `atomicCAS(T*)`
          std::string spelled = f->name.ends_with("(T*)") ? fmt::format("{}({})", q, ts) : f->name;
          c_.add(f, ref ? ref->getBeginLoc() : e->getBeginLoc(), ref ? ref->getLocation() : clang::SourceLocation(),
                 spelled, fn_);
        }
      }
    }
    return true;
  }

  bool VisitDeclRefExpr(clang::DeclRefExpr* e) {
    clang::ValueDecl* d = e->getDecl();
    if (auto* fd = llvm::dyn_cast_or_null<clang::FunctionDecl>(d)) edge(fd, e->getLocation());
    if (!c_.want_features || handled_.count(e) || !c_.from_prelude(d)) return true;
    if (!llvm::isa<clang::FunctionDecl>(d) && !llvm::isa<clang::EnumConstantDecl>(d) && !llvm::isa<clang::VarDecl>(d))
      return true;
    std::string q = d->getQualifiedNameAsString();
    const Feature* f = c_.table.find(q, c_.cuda);
    if (!f || f->kind == FeatureKind::Ptx) return true;
    c_.add(f, e->getBeginLoc(), e->getLocation(), q, fn_);
    return true;
  }

  bool VisitMemberExpr(clang::MemberExpr* e) {
    if (auto* md = llvm::dyn_cast_or_null<clang::FunctionDecl>(e->getMemberDecl())) edge(md, e->getMemberLoc());
    if (!c_.want_features || !c_.from_prelude(e->getMemberDecl())) return true;
    std::string q = e->getMemberDecl()->getQualifiedNameAsString();
    if (const Feature* f = c_.table.find(q, c_.cuda); f && f->kind != FeatureKind::Ptx)
      c_.add(f, e->getMemberLoc(), clang::SourceLocation(), q, fn_);
    return true;
  }

  bool VisitCXXConstructExpr(clang::CXXConstructExpr* e) {
    if (e->getConstructor()) edge(e->getConstructor(), e->getBeginLoc());
    return true;
  }

  bool VisitGCCAsmStmt(clang::GCCAsmStmt* s) {
    if (!c_.want_features) return true;
    const clang::StringLiteral* lit = s->getAsmString();
    if (!lit || lit->getCharByteWidth() != 1) return true;
    llvm::StringRef text = lit->getString();
    auto locate = [&](size_t off, size_t len, std::string name, const Feature* f) {
      // The exact place in the (possibly concatenated) literal when it is spelled in a file;
      // else the asm statement (a literal made by a macro).
      clang::SourceLocation b = s->getAsmLoc(), e;
      if (lit->getBeginLoc().isFileID() && lit->getEndLoc().isFileID()) {
        clang::SourceLocation at = lit->getLocationOfByte(static_cast<unsigned>(off), *c_.sm, c_.ctx->getLangOpts(),
                                                          c_.ctx->getTargetInfo());
        if (at.isValid()) {
          b = at;
          e = at.getLocWithOffset(static_cast<int>(len) - 1);
        }
      }
      RawUse u;
      if (!c_.place(b, u.file, u.begin)) return;
      clang::FileID ef;
      uint32_t eo = 0;
      if (e.isValid() && c_.place(e, ef, eo) && ef == u.file && eo >= u.begin) u.end = eo + 1;
      else u.end = u.begin + clang::Lexer::MeasureTokenLength(c_.sm->getFileLoc(b), *c_.sm, c_.ctx->getLangOpts());
      if (u.end <= u.begin) u.end = u.begin + 1;
      u.feature = f;
      u.spelled = std::move(name);
      u.fn = fn_;
      c_.raw.push_back(std::move(u));
    };
    for (const PtxInstruction& ins : parse_ptx(text)) {
      if (const Feature* f = c_.table.find_ptx(ins.mnemonic, c_.cuda))
        locate(ins.offset, ins.mnemonic.size(), ins.mnemonic, f);
    }
    // Special registers: `%%clusterid.x` in the asm template is `%clusterid.x` in PTX.
    for (size_t p = text.find("%%"); p != llvm::StringRef::npos; p = text.find("%%", p + 2)) {
      size_t e = p + 2;
      while (e < text.size() && (ident_char(text[e]) || text[e] == '.')) ++e;
      if (e == p + 2) continue;
      std::string reg = "%" + text.substr(p + 2, e - p - 2).str();
      if (const Feature* f = c_.table.find_ptx(reg, c_.cuda)) locate(p + 1, e - p - 1, reg, f);
    }
    return true;
  }

  // Table types: `__nv_fp8_e4m3`, `cooperative_groups::cluster_group`, and wmma fragments by
  // element type (`nvcuda::wmma::fragment<precision::tf32>`).
  bool VisitTypeLoc(clang::TypeLoc tl) {
    if (!c_.want_features || tl.isNull()) return true;
    clang::QualType t = tl.getType();
    if (t.isNull() || t->isDependentType()) return true;
    const clang::Type* ty = t.getTypePtr();
    if (!llvm::isa<clang::RecordType, clang::TypedefType, clang::TemplateSpecializationType, clang::EnumType>(ty))
      return true;
    const clang::NamedDecl* d = nullptr;
    if (auto* td = ty->getAs<clang::TypedefType>()) d = td->getDecl();
    if (!d || !c_.from_prelude(d)) d = t->getAsTagDecl();
    if (!d || !c_.from_prelude(d)) return true;
    std::string q = d->getQualifiedNameAsString();
    if (auto* spec = llvm::dyn_cast<clang::ClassTemplateSpecializationDecl>(d)) {
      if (q == "nvcuda::wmma::fragment" && spec->getTemplateArgs().size() >= 5 &&
          spec->getTemplateArgs()[4].getKind() == clang::TemplateArgument::Type) {
        clang::QualType e = spec->getTemplateArgs()[4].getAsType().getCanonicalType();
        clang::PrintingPolicy pp(c_.ctx->getLangOpts());
        pp.SuppressTagKeyword = true;
        std::string es = e.getAsString(pp);
        if (es.starts_with("nvcuda::wmma::")) es = es.substr(14);
        std::string key = "nvcuda::wmma::fragment<" + squeeze(es) + ">";
        if (const Feature* f = c_.table.find(key, c_.cuda)) c_.add(f, tl.getBeginLoc(), {}, key, fn_);
        return true;
      }
    }
    if (const Feature* f = c_.table.find(q, c_.cuda); f && f->kind != FeatureKind::Ptx)
      c_.add(f, tl.getBeginLoc(), {}, q, fn_);
    return true;
  }

  std::vector<clang::CXXMethodDecl*> lambdas;

 private:
  void edge(const clang::FunctionDecl* fd, clang::SourceLocation at) {
    if (!fd) return;
    info_.callees.push_back(fd->getCanonicalDecl());
    info_.callee_locs.push_back(at);
  }

  Collector& c_;
  const clang::FunctionDecl* fn_;
  FnInfo& info_;
  std::set<const clang::DeclRefExpr*> handled_;
};

// Every function with a body in project code: kernels, device, host and template patterns.
class TopVisitor : public clang::RecursiveASTVisitor<TopVisitor> {
 public:
  explicit TopVisitor(Collector& c) : c_(c) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return false; }
  bool shouldVisitLambdaBody() const { return false; }  // lambdas are walked as functions

  bool TraverseDecl(clang::Decl* d) {
    // System headers (libstdc++, the prelude) hold no project code: skipping them is most of
    // the walk's speed.
    if (d && !llvm::isa<clang::TranslationUnitDecl>(d)) {
      clang::SourceLocation l = d->getLocation();
      if (l.isValid() && c_.sm->isInSystemHeader(c_.sm->getFileLoc(l))) return true;
    }
    return clang::RecursiveASTVisitor<TopVisitor>::TraverseDecl(d);
  }

  bool VisitFunctionDecl(clang::FunctionDecl* fd) {
    walk(fd, std::nullopt);
    return true;
  }

  bool VisitVarDecl(clang::VarDecl* vd) {
    if (!vd->hasGlobalStorage() || vd->isLocalVarDeclOrParm() || !vd->hasInit() || vd->isInvalidDecl()) return true;
    if (!vd->hasAttr<clang::CUDADeviceAttr>() && !vd->hasAttr<clang::CUDAConstantAttr>()) return true;
    if (vd->getDeclContext()->isDependentContext()) return true;
    struct Refs : clang::RecursiveASTVisitor<Refs> {
      std::vector<const clang::FunctionDecl*>& out;
      explicit Refs(std::vector<const clang::FunctionDecl*>& o) : out(o) {}
      bool VisitDeclRefExpr(clang::DeclRefExpr* e) {
        if (auto* fd = llvm::dyn_cast_or_null<clang::FunctionDecl>(e->getDecl())) out.push_back(fd->getCanonicalDecl());
        return true;
      }
    } refs(c_.var_roots);
    refs.TraverseStmt(vd->getInit());
    return true;
  }

 private:
  // `inherited`: for a lambda without CUDA attributes (Clang makes those implicitly
  // __host__ __device__), the context of the function it is written in.
  void walk(clang::FunctionDecl* fd, std::optional<UseContext> inherited) {
    if (!fd->doesThisDeclarationHaveABody() || fd->isInvalidDecl() || fd->isImplicit()) return;
    if (!done_.insert(fd).second) return;
    const clang::FunctionDecl* key = fd->getCanonicalDecl();
    FnInfo& info = c_.fns[key];
    auto explicit_attr = [&](auto* a) { return a && !a->isImplicit(); };
    bool device = fd->hasAttr<clang::CUDAGlobalAttr>() ||
                  (inherited ? explicit_attr(fd->getAttr<clang::CUDADeviceAttr>()) : fd->hasAttr<clang::CUDADeviceAttr>());
    info.kernel = info.kernel || fd->hasAttr<clang::CUDAGlobalAttr>();
    // Template patterns: only names bound at definition (non-dependent calls) are in the AST as
    // references; dependent ones are resolved per instantiation, which is walked separately.
    UseContext base = fd->isDependentContext() ? UseContext::Template
                      : device                 ? UseContext::Device
                      : inherited              ? *inherited
                                               : UseContext::Host;
    if (static_cast<int>(base) < static_cast<int>(info.base)) info.base = base;
    if (base == UseContext::Template)
      if (const clang::FunctionTemplateDecl* ft = fd->getDescribedFunctionTemplate()) {
        for (const clang::FunctionDecl* spec : ft->specializations())
          if (spec->isDefined() && spec->getTemplateSpecializationKind() != clang::TSK_ExplicitSpecialization)
            info.instantiated_pattern = true;
        clang::FileID fid;
        uint32_t off = 0;
        if (fd->hasAttr<clang::CUDAGlobalAttr>() && !info.instantiated_pattern &&
            c_.place(fd->getLocation(), fid, off) && fid == c_.main)
          c_.unanalysed_kernels.push_back(fd->getNameAsString());
      }
    UseVisitor v(c_, key, info);
    for (clang::ParmVarDecl* p : fd->parameters()) v.TraverseDecl(p);
    if (clang::TypeSourceInfo* tsi = fd->getTypeSourceInfo()) {
      if (auto ftl = tsi->getTypeLoc().getAs<clang::FunctionTypeLoc>()) v.TraverseTypeLoc(ftl.getReturnLoc());
    }
    if (auto* ctor = llvm::dyn_cast<clang::CXXConstructorDecl>(fd))
      for (clang::CXXCtorInitializer* init : ctor->inits())
        if (init->isWritten()) v.TraverseStmt(init->getInit());
    v.TraverseStmt(fd->getBody());
    UseContext mine = info.base;
    for (clang::CXXMethodDecl* op : v.lambdas) {
      walk(op, mine);
      // A lambda runs where it is invoked; one defined in a device function is taken to run
      // there (it is usually invoked right away or passed to a helper).
      FnInfo& outer = c_.fns[key];
      outer.callees.push_back(op->getCanonicalDecl());
      outer.callee_locs.push_back(op->getLocation());
    }
  }

  Collector& c_;
  std::set<const clang::FunctionDecl*> done_;
};

// Whether a later parse may skip a function's body: nothing in it could make that parse
// instantiate project code (a template of the project, a lambda) that other code does not.
class SkipCheck : public clang::RecursiveASTVisitor<SkipCheck> {
 public:
  explicit SkipCheck(const Collector& c) : c_(c) {}
  bool ok = true;

  bool VisitLambdaExpr(clang::LambdaExpr*) { return ok = false; }
  bool VisitCallExpr(clang::CallExpr* e) { return fn(e->getDirectCallee()); }
  bool VisitDeclRefExpr(clang::DeclRefExpr* e) {
    if (auto* v = llvm::dyn_cast<clang::VarTemplateSpecializationDecl>(e->getDecl()); v && project(v)) return ok = false;
    return fn(llvm::dyn_cast<clang::FunctionDecl>(e->getDecl()));
  }
  bool VisitMemberExpr(clang::MemberExpr* e) { return fn(llvm::dyn_cast<clang::FunctionDecl>(e->getMemberDecl())); }
  bool VisitCXXConstructExpr(clang::CXXConstructExpr* e) { return fn(e->getConstructor()) && type(e->getType()); }
  bool VisitVarDecl(clang::VarDecl* v) { return type(v->getType()); }

 private:
  bool project(const clang::Decl* d) const {
    clang::FileID fid;
    uint32_t off = 0;
    return c_.place(d->getLocation(), fid, off);
  }
  bool fn(const clang::FunctionDecl* f) {
    if (f && (f->getTemplateInstantiationPattern() || f->getPrimaryTemplate() || f->isDependentContext()) && project(f))
      ok = false;
    return ok;
  }
  bool type(clang::QualType t) {
    if (t.isNull()) return ok;
    const clang::CXXRecordDecl* rd = t->getBaseElementTypeUnsafe()->getAsCXXRecordDecl();
    if (rd && (llvm::isa<clang::ClassTemplateSpecializationDecl>(rd) || rd->getTemplateInstantiationPattern()) && project(rd))
      ok = false;
    return ok;
  }

  const Collector& c_;
};

// A plain function's local variables and parameters with their scopes, the names its body
// refers to, and where it declares anything else (derivation's view of a body).
class FnScopes : public clang::RecursiveASTVisitor<FnScopes> {
 public:
  struct Var {
    std::string name;
    bool scalar = false;  // a builtin type, or pointers/arrays/references to one: no operator calls
    uint32_t decl = 0, scope_begin = 0, scope_end = 0;
  };
  struct Ref {
    std::string name;
    uint32_t at = 0;
    std::optional<uint32_t> decl;  // a variable of the function: where it is declared
  };
  std::vector<Var> vars;
  std::vector<Ref> refs;
  std::vector<uint32_t> others;  // declarations other than local variables
  bool complete = true;          // everything was placed in the body's file

  FnScopes(const Collector& c, const clang::FunctionDecl* fn) : c_(c), fn_(fn) {
    clang::Stmt* body = fn->getBody();
    uint32_t body_begin = 0;
    if (!body || !c_.place(body->getBeginLoc(), fid_, body_begin)) {
      complete = false;
      return;
    }
    const auto body_end = off(body->getEndLoc());
    if (!body_end) return;
    scopes_.push_back({body_begin, *body_end + 1});
    for (const clang::ParmVarDecl* p : fn->parameters()) var(p);
    TraverseStmt(body);
  }

  // The variable `name` names at `at`: the latest declared whose scope holds `at`.
  const Var* lookup(std::string_view name, uint32_t at) const {
    const Var* best = nullptr;
    for (const Var& v : vars)
      if (v.name == name && v.decl < at && v.scope_begin <= at && at < v.scope_end && (!best || v.decl > best->decl))
        best = &v;
    return best;
  }

  bool shouldVisitImplicitCode() const { return false; }
  bool TraverseCompoundStmt(clang::CompoundStmt* s) { return scoped(s, [&] { return Base::TraverseCompoundStmt(s); }); }
  bool TraverseForStmt(clang::ForStmt* s) { return scoped(s, [&] { return Base::TraverseForStmt(s); }); }
  bool TraverseIfStmt(clang::IfStmt* s) { return scoped(s, [&] { return Base::TraverseIfStmt(s); }); }
  bool TraverseWhileStmt(clang::WhileStmt* s) { return scoped(s, [&] { return Base::TraverseWhileStmt(s); }); }
  bool TraverseSwitchStmt(clang::SwitchStmt* s) { return scoped(s, [&] { return Base::TraverseSwitchStmt(s); }); }
  bool TraverseCXXForRangeStmt(clang::CXXForRangeStmt* s) {
    return scoped(s, [&] { return Base::TraverseCXXForRangeStmt(s); });
  }

  bool VisitDecl(clang::Decl* d) {
    auto* v = llvm::dyn_cast<clang::VarDecl>(d);
    if (v && !llvm::isa<clang::ParmVarDecl>(v) && v->getDeclContext() == fn_ && v->isLocalVarDecl()) {
      var(v);
    } else if (!llvm::isa<clang::ParmVarDecl>(d)) {
      if (auto o = off(d->getLocation())) others.push_back(*o);
    }
    return true;
  }
  bool VisitDeclRefExpr(clang::DeclRefExpr* e) {
    auto at = off(e->getLocation());
    if (!at) return true;
    Ref r{e->getNameInfo().getAsString(), *at, std::nullopt};
    if (auto* v = llvm::dyn_cast<clang::VarDecl>(e->getDecl()); v && v->getDeclContext() == fn_) r.decl = off(v->getLocation());
    refs.push_back(std::move(r));
    return true;
  }

 private:
  using Base = clang::RecursiveASTVisitor<FnScopes>;

  std::optional<uint32_t> off(clang::SourceLocation loc) {
    clang::FileID f;
    uint32_t o = 0;
    if (!c_.place(loc, f, o) || f != fid_) {
      complete = false;
      return std::nullopt;
    }
    return o;
  }
  template <class F>
  bool scoped(clang::Stmt* s, F&& traverse) {
    if (!s) return true;
    auto b = off(s->getBeginLoc()), e = off(s->getEndLoc());
    if (!b || !e) return traverse();
    scopes_.push_back({*b, *e + 1});
    bool r = traverse();
    scopes_.pop_back();
    return r;
  }
  static bool scalar(clang::QualType t) {
    if (t.isNull()) return false;
    t = t.getNonReferenceType();
    for (int depth = 0; depth < 16; ++depth) {
      if (t->isDependentType()) return false;
      if (const clang::Type* e = t->getArrayElementTypeNoTypeQual(); e && t->isArrayType()) {
        t = clang::QualType(e, 0);
        continue;
      }
      if (t->isPointerType()) {
        t = t->getPointeeType();
        continue;
      }
      return t->isBuiltinType() && !t->isEnumeralType();
    }
    return false;
  }
  void var(const clang::VarDecl* v) {
    auto at = off(v->getLocation());
    if (!at || scopes_.empty()) return;
    vars.push_back({v->getNameAsString(), scalar(v->getType()), *at, scopes_.back().first, scopes_.back().second});
  }

  const Collector& c_;
  const clang::FunctionDecl* fn_;
  clang::FileID fid_;
  std::vector<std::pair<uint32_t, uint32_t>> scopes_;
};

class Consumer : public clang::ASTConsumer {
 public:
  explicit Consumer(Collector& c) : c_(c) {}
  // Before the parse: shouldSkipFunctionBody needs the source manager too.
  void Initialize(clang::ASTContext& ctx) override {
    c_.ctx = &ctx;
    c_.sm = &ctx.getSourceManager();
    c_.main = c_.sm->getMainFileID();
  }
  void HandleTranslationUnit(clang::ASTContext& ctx) override {
    // The prelude is found by name (is_prelude): SourceManager::translateFile would load every
    // source location entry of the PCH to find it (2% of a run's CPU).
    if (c_.want_features) {
      // The declarations of this parse: those read from a PCH (the prelude) are not loaded.
      TopVisitor v(c_);
      for (clang::Decl* d : ctx.getTranslationUnitDecl()->noload_decls()) v.TraverseDecl(d);
      if (c_.reuse) {
        reuse_bodies();
      } else if (c_.need_bodies && c_.trace && c_.need_bodies(*c_.trace)) {
        record_bodies();
        record_derivation();
      }
    }
    if (c_.want_accesses) c_.accesses = global_accesses(ctx);
    resolve_headers();
  }

  bool shouldSkipFunctionBody(clang::Decl* d) override {
    if (!c_.sm) return false;
    if (c_.skip_std && in_std_library(*c_.sm, d->getLocation(), c_.std_files)) {
      ++c_.std_skipped;
      return true;
    }
    if (!c_.reuse) return false;
    auto* fd = llvm::dyn_cast<clang::FunctionDecl>(d);
    if (!fd || !plain_function(fd)) return false;
    auto key = c_.key_of(fd);
    if (!key) return false;
    auto it = c_.reuse->find(*key);
    if (it == c_.reuse->end()) return false;
    c_.skipped[fd->getCanonicalDecl()] = &*it;
    return true;
  }

 private:
  // The functions a later arch's parse may skip, with what this parse found in them. None when
  // arch-dependent preprocessing lies outside function bodies (the declarations every body sees
  // may differ) or defines macros.
  void record_bodies() {
    const ArchTrace& t = *c_.trace;
    if (!t.spans_complete()) return;
    struct Candidate {
      const clang::FunctionDecl* def;
      BodyKey key;
      uint32_t begin, body_begin, body_end;
      bool ok;
    };
    std::vector<Candidate> all;
    std::map<BodyKey, size_t> by_key;
    for (const auto& [canon, info] : c_.fns) {
      const clang::FunctionDecl* def = nullptr;
      if (!canon->hasBody(def) || !def || !def->getBody()) continue;
      auto key = c_.key_of(def);
      clang::FileID bf, ef, df;
      uint32_t bb = 0, be = 0, db = 0;
      if (!key || !c_.place(def->getBody()->getBeginLoc(), bf, bb) || !c_.place(def->getBody()->getEndLoc(), ef, be) ||
          !c_.place(def->getBeginLoc(), df, db) || bf != ef || bf != df || be < bb || db > bb)
        return;  // a body we cannot place (a macro writes it...): reuse nothing
      bool ok = self_contained(def, info);
      auto [it, fresh] = by_key.emplace(*key, all.size());
      if (!fresh) {  // two functions named at one place (a macro): neither is skipped
        all[it->second].ok = false;
        ok = false;
      }
      all.push_back({def, *key, db, bb, be + 1, ok});
    }
    // Arch-dependent spans: each must lie in a body, whose function is then parsed again.
    for (const auto& sp : t.arch_spans) {
      bool inside = false;
      for (Candidate& cd : all) {
        if (cd.key.first != sp.file || sp.begin >= cd.body_end || sp.end <= cd.begin) continue;
        cd.ok = false;
        inside = inside || (sp.begin >= cd.body_begin && sp.end <= cd.body_end);
      }
      if (!inside) return;
    }
    auto out = std::make_shared<BodyReuse>();
    std::map<const clang::FunctionDecl*, ReusedBody*> by_fn;
    for (const Candidate& cd : all) {
      if (!cd.ok) continue;
      const clang::FunctionDecl* canon = cd.def->getCanonicalDecl();
      const FnInfo& info = c_.fns.at(canon);
      ReusedBody& rb = (*out)[cd.key];
      rb.body_begin = cd.body_begin;
      rb.body_end = cd.body_end;
      rb.base = info.base;
      rb.kernel = info.kernel;
      for (const clang::FunctionDecl* callee : info.callees)
        if (auto k = c_.key_of(callee)) rb.callees.push_back(std::move(*k));
      by_fn[canon] = &rb;
    }
    for (const RawUse& r : c_.raw) {
      auto it = by_fn.find(r.fn);
      if (it == by_fn.end()) continue;
      auto file = reuse_file_name(*c_.sm, r.file);
      if (!file) return;
      it->second->uses.push_back({r.feature, std::move(*file), r.begin, r.end, r.spelled});
    }
    c_.bodies = std::move(out);
  }

  // Whether a function (its definition `def`) is one whose body another arch's parse may skip
  // or derive: a plain function, not constexpr, with no deduced result, that instantiates no
  // project code (SkipCheck). Asked by record_bodies and record_derivation: the walk runs once.
  bool self_contained(const clang::FunctionDecl* def, const FnInfo& info) {
    if (!plain_function(def) || def->isConstexpr() || def->getReturnType()->getContainedDeducedType() ||
        info.instantiated_pattern)
      return false;
    auto [it, fresh] = self_contained_.try_emplace(def, false);
    if (fresh) {
      SkipCheck check(c_);
      check.TraverseStmt(def->getBody());
      it->second = check.ok;
    }
    return it->second;
  }
  std::map<const clang::FunctionDecl*, bool> self_contained_;

  // What deriving another arch from this parse needs (Derivation): for each simple arch group,
  // whether its function allows it and which of its branches add nothing.
  void record_derivation() {
    const ArchTrace& t = *c_.trace;
    if (!t.spans_complete() || t.groups.empty()) return;
    auto d = std::make_shared<Derivation>();
    d->groups.resize(t.groups.size());
    // The function whose body holds each group: the innermost one.
    struct Body {
      const clang::FunctionDecl* def;
      clang::FileID fid;
      uint32_t begin, end;
    };
    std::vector<Body> bodies;
    for (const auto& [canon, info] : c_.fns) {
      const clang::FunctionDecl* def = nullptr;
      if (!canon->hasBody(def) || !def || !def->getBody()) continue;
      clang::FileID bf, ef;
      uint32_t bb = 0, be = 0;
      if (c_.place(def->getBody()->getBeginLoc(), bf, bb) && c_.place(def->getBody()->getEndLoc(), ef, be) && bf == ef &&
          be >= bb)
        bodies.push_back({def, bf, bb, be + 1});
    }
    std::map<const clang::FunctionDecl*, std::unique_ptr<FnScopes>> scopes;
    for (size_t i = 0; i < t.groups.size(); ++i) {
      const ArchTrace::Group& g = t.groups[i];
      Derivation::Group& dg = d->groups[i];
      if (g.cond >= t.conds.size()) return;
      const Body* in = nullptr;
      for (const Body& b : bodies)
        if (b.fid == g.fid && b.begin <= g.begin && g.end <= b.end && (!in || b.end - b.begin < in->end - in->begin))
          in = &b;
      const int taken = t.conds[g.cond].value ? 0 : g.has_else ? 1 : -1;
      if (taken >= 0) {
        dg.taken_begin = g.branch_begin[taken];
        dg.taken_end = g.branch_end[taken];
      }
      if (!in) continue;
      const clang::FunctionDecl* def = in->def;
      if (!self_contained(def, c_.fns.at(def->getCanonicalDecl()))) continue;
      auto& sc = scopes[def];
      if (!sc) sc = std::make_unique<FnScopes>(c_, def);
      if (!sc->complete) continue;
      // Nothing declared in this parse's branch but local variables, none used outside it.
      const uint32_t tb = dg.taken_begin, te = dg.taken_end;
      auto in_taken = [&](uint32_t off) { return off >= tb && off < te; };
      if (std::any_of(sc->others.begin(), sc->others.end(), in_taken)) continue;
      if (std::any_of(sc->refs.begin(), sc->refs.end(),
                      [&](const FnScopes::Ref& r) { return r.decl && in_taken(*r.decl) && !in_taken(r.at); }))
        continue;
      dg.ok = true;
      bool invalid = false;
      llvm::StringRef buf = c_.sm->getBufferData(g.fid, &invalid);
      if (invalid) return;
      for (int b = 0; b < 2; ++b) {
        if (b == 1 && !g.has_else) {
          dg.inert[b] = true;
          continue;
        }
        if (b == taken) continue;  // its own branch: never asked
        dg.inert[b] = inert_branch(*sc, t, g, buf, g.branch_begin[b], g.branch_end[b]) &&
                      plain_statements_parse(std::string_view(buf.data() + g.branch_begin[b],
                                                              g.branch_end[b] - g.branch_begin[b]));
      }
    }
    if (std::none_of(d->groups.begin(), d->groups.end(), [](const Derivation::Group& g) { return g.ok; })) return;
    for (const auto& [fn, info] : c_.fns) {
      auto& at = d->callee_at[fn];
      at.reserve(info.callee_locs.size());
      for (clang::SourceLocation l : info.callee_locs) {
        clang::FileID f;
        uint32_t o = 0;
        if (l.isValid() && c_.place(l, f, o)) at.emplace_back(f, o);
        else at.emplace_back(clang::FileID(), 0);
      }
    }
    c_.derivation = std::move(d);
  }

  // Whether the text [begin, end) of a group's branch in `fn` (scopes `sc`) can add nothing
  // to a parse: no directive, macro, call, member (but the builtin variables' x/y/z), name of
  // anything but a scalar variable of the function visible there (or declared in the branch by
  // a builtin type, and not used after the group), no keyword outside a small set.
  bool inert_branch(const FnScopes& sc, const ArchTrace& t, const ArchTrace::Group& g, llvm::StringRef buf,
                    uint32_t begin, uint32_t end) const {
    static constexpr std::string_view kBuiltinVars[] = {"blockDim", "blockIdx", "gridDim", "threadIdx"};
    if (end < begin || end > buf.size()) return false;
    const std::string text(buf.substr(begin, end - begin));  // the lexer wants a terminating NUL
    clang::Lexer lex(c_.sm->getLocForStartOfFile(g.fid), c_.ctx->getLangOpts(), text.c_str(), text.c_str(),
                     text.c_str() + text.size());
    std::set<std::string, std::less<>> declared;
    enum class Prev { None, Type, Declarator, Name, BuiltinVar, Dot, Other } prev = Prev::None;
    clang::Token tok;
    for (;;) {
      lex.LexFromRawLexer(tok);
      if (tok.is(clang::tok::eof)) break;
      if (tok.is(clang::tok::raw_identifier)) {
        std::string_view id(tok.getRawIdentifier().data(), tok.getRawIdentifier().size());
        const clang::IdentifierInfo& ii = c_.ctx->Idents.get(tok.getRawIdentifier());
        if (ii.hadMacroDefinition()) return false;
        if (prev == Prev::Dot) return false;  // handled below for the builtin variables
        if (plain_keyword(id)) {
          prev = plain_type_keyword(id) ? Prev::Type : Prev::Other;
          continue;
        }
        if (prev == Prev::Type || prev == Prev::Declarator) {  // `float v`, `int* p`: declares a scalar
          declared.emplace(id);
          prev = Prev::Name;
          continue;
        }
        if (declared.count(id)) {
          prev = Prev::Name;
          continue;
        }
        if (const FnScopes::Var* var = sc.lookup(id, g.begin)) {
          if (!var->scalar) return false;
          for (const auto& o : t.groups)  // declared in an arch group: another arch may declare it otherwise
            if (o.fid == g.fid && var->decl >= o.begin && var->decl < o.end) return false;
          prev = Prev::Name;
          continue;
        }
        if (std::find(std::begin(kBuiltinVars), std::end(kBuiltinVars), id) != std::end(kBuiltinVars) &&
            !c_.table.find(id, c_.cuda)) {
          prev = Prev::BuiltinVar;
          continue;
        }
        return false;
      }
      if (tok.is(clang::tok::period)) {
        if (prev != Prev::BuiltinVar) return false;
        clang::Token m;
        lex.LexFromRawLexer(m);
        if (m.isNot(clang::tok::raw_identifier)) return false;
        llvm::StringRef f = m.getRawIdentifier();
        if (f != "x" && f != "y" && f != "z") return false;
        prev = Prev::Other;
        continue;
      }
      switch (tok.getKind()) {
        case clang::tok::numeric_constant:
        case clang::tok::char_constant:
        case clang::tok::string_literal:
        case clang::tok::comment:
          prev = Prev::Other;
          continue;
        case clang::tok::l_paren:
          if (prev == Prev::Name || prev == Prev::BuiltinVar) return false;  // a call
          prev = Prev::Other;
          continue;
        case clang::tok::star:
        case clang::tok::amp:
          prev = prev == Prev::Type || prev == Prev::Declarator ? Prev::Declarator : Prev::Other;
          continue;
        case clang::tok::hash:
        case clang::tok::hashhash:
        case clang::tok::hashat:
        case clang::tok::arrow:
        case clang::tok::arrowstar:
        case clang::tok::periodstar:
        case clang::tok::coloncolon:
        case clang::tok::unknown:
          return false;
        default:
          prev = Prev::Other;
          continue;
      }
    }
    // Names the branch declares stay declared after it: none may be used there.
    for (const FnScopes::Ref& r : sc.refs)
      if (r.at >= g.end && declared.count(r.name)) return false;
    return true;
  }

  // After a parse that skipped bodies: checks that its preprocessing differed from the
  // recording parse's only in bodies it parsed, then takes the skipped bodies' findings.
  void reuse_bodies() {
    const ArchTrace& t = *c_.trace;
    if (!t.spans_complete()) {
      c_.reuse_failed = true;
      return;
    }
    // Canonical declarations of this parse by key: the functions walked and those skipped.
    std::map<BodyKey, const clang::FunctionDecl*> decls;
    for (const auto& [fd, info] : c_.fns)
      if (auto k = c_.key_of(fd)) decls.emplace(std::move(*k), fd);
    for (const auto& [fd, entry] : c_.skipped) {
      auto key = c_.key_of(fd);  // the canonical declaration's, as callees are named
      if (!key) {
        c_.reuse_failed = true;
        return;
      }
      const auto& [def_key, rb] = *entry;  // the definition's
      for (const auto& sp : t.arch_spans)
        if (def_key.first == sp.file && sp.begin < rb.body_end && sp.end > rb.body_begin) {
          c_.reuse_failed = true;
          return;
        }
      decls.emplace(std::move(*key), fd);
    }
    std::map<std::string, clang::FileID, std::less<>> files;
    clang::SourceManager& sm = *c_.sm;
    for (const auto& [fd, entry] : c_.skipped) {
      const ReusedBody& rb = entry->second;
      FnInfo& info = c_.fns[fd];
      info.base = rb.base;
      info.kernel = rb.kernel;
      for (const BodyKey& k : rb.callees)
        if (auto it = decls.find(k); it != decls.end()) {
          info.callees.push_back(it->second);
          info.callee_locs.emplace_back();
        }
      for (const ReusedBody::Use& u : rb.uses) {
        clang::FileID fid = c_.main;
        if (!u.file.empty()) {
          auto [it, fresh] = files.try_emplace(u.file);
          if (fresh)
            if (auto fe = sm.getFileManager().getOptionalFileRef(u.file)) it->second = sm.translateFile(*fe);
          fid = it->second;
        }
        if (fid.isInvalid()) {
          c_.reuse_failed = true;
          return;
        }
        c_.raw.push_back({u.feature, fid, u.begin, u.end, u.spelled, fd});
      }
    }
  }

  void resolve_headers() {
    const clang::SourceManager& sm = *c_.sm;
    for (const RawUse& r : c_.raw) {
      if (r.file == c_.main || c_.headers.count(r.file)) continue;
      HeaderInfo& h = c_.headers[r.file];
      if (auto fe = sm.getFileEntryRefForID(r.file)) h.name = fe->getName().str();
      clang::FileID f = r.file;
      clang::SourceLocation inc;
      for (int depth = 0; depth < 200 && f.isValid() && f != c_.main; ++depth) {
        inc = sm.getIncludeLoc(f);
        if (inc.isInvalid()) break;
        f = sm.getFileID(inc);
      }
      if (f == c_.main && inc.isValid()) h.include_offset = sm.getFileOffset(inc);
    }
  }

 private:
  Collector& c_;
};

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

// An arch's uses from one parse's functions and raw uses: kernels and what they reach are
// emitted. `removed`: callee edges (function, index) and `removed_use` uses to leave out (a
// derived arch's, Derivation).
void build_uses(const std::unordered_map<const clang::FunctionDecl*, FnInfo>& fns,
                const std::vector<const clang::FunctionDecl*>& var_roots, const std::vector<RawUse>& raw,
                const std::map<clang::FileID, HeaderInfo>& headers, clang::FileID main, std::string_view text,
                const std::function<bool(const clang::FunctionDecl*, size_t)>& removed,
                const std::function<bool(const RawUse&)>& removed_use, ArchResult& ar) {
  // Contexts: kernels and what they reach are emitted; other device functions only parsed.
  std::set<const clang::FunctionDecl*> emitted;
  std::vector<const clang::FunctionDecl*> work;
  for (const auto& [fn, info] : fns)
    if (info.kernel && info.base != UseContext::Template) work.push_back(fn);
  for (const clang::FunctionDecl* fn : var_roots) work.push_back(fn);
  while (!work.empty()) {
    const clang::FunctionDecl* fn = work.back();
    work.pop_back();
    if (!emitted.insert(fn).second) continue;
    if (auto it = fns.find(fn); it != fns.end())
      for (size_t i = 0; i < it->second.callees.size(); ++i) {
        const auto* callee = it->second.callees[i];
        if (removed && removed(fn, i)) continue;
        if (!emitted.count(callee)) work.push_back(callee);
      }
  }
  // Per (feature, file, offset): the strongest context (Emitted first).
  std::map<std::tuple<std::string, uint32_t, const Feature*>, FeatureUse> uses;
  for (const RawUse& r : raw) {
    if (removed_use && removed_use(r)) continue;
    UseContext ctx = UseContext::Host;
    bool instantiated = false;
    if (auto it = fns.find(r.fn); it != fns.end()) {
      ctx = it->second.base;
      instantiated = it->second.instantiated_pattern;
    }
    if (emitted.count(r.fn) && ctx != UseContext::Template) ctx = UseContext::Emitted;
    // The names an instantiated template binds at definition are checked like device code.
    if (ctx == UseContext::Template && instantiated) ctx = UseContext::Device;
    FeatureUse u;
    u.feature = r.feature;
    u.begin = r.begin;
    u.end = r.end;
    u.spelled = r.spelled;
    u.context = ctx;
    if (r.file != main) {
      // The header as opened, and the line of the analysed file's `#include` that brings it in
      // (resolved during the parse: c.sm is dangling here).
      auto h = headers.find(r.file);
      if (h == headers.end()) continue;
      u.file = h->second.name;
      if (h->second.include_offset >= 0 && static_cast<size_t>(h->second.include_offset) <= text.size()) {
        uint32_t off = static_cast<uint32_t>(h->second.include_offset);
        size_t lb = text.rfind('\n', off == 0 ? 0 : off - 1);
        lb = lb == std::string_view::npos || off == 0 ? 0 : lb + 1;
        size_t le = text.find('\n', off);
        if (le == std::string_view::npos) le = text.size();
        while (le > lb && (text[le - 1] == '\r' || text[le - 1] == ' ')) --le;
        while (lb < le && (text[lb] == ' ' || text[lb] == '\t')) ++lb;
        u.include_begin = static_cast<uint32_t>(lb);
        u.include_end = static_cast<uint32_t>(std::max(le, lb + 1));
      }
      if (u.file.empty()) continue;
    }
    auto key = std::make_tuple(u.file, u.begin, u.feature);
    auto it = uses.find(key);
    if (it == uses.end()) uses.emplace(key, std::move(u));
    else if (static_cast<int>(ctx) < static_cast<int>(it->second.context)) it->second.context = ctx;
  }
  for (auto& [k, u] : uses) ar.uses.push_back(std::move(u));
  std::sort(ar.uses.begin(), ar.uses.end(), [](const FeatureUse& a, const FeatureUse& b) {
    return std::tie(a.file, a.begin, a.feature->name) < std::tie(b.file, b.begin, b.feature->name);
  });
}

// The uses of arch `k` from the parse for `r` that recorded `d` and left `t`, when k's
// preprocessing differs from r's only in groups whose other branch adds nothing (Derivation);
// none otherwise (then k needs a parse).
std::optional<ArchResult> derive(const Derivation& d, const ArchTrace& t, const domain::Arch& r, const domain::Arch& k,
                                 std::string_view text) {
  if (!t.spans_complete() || d.groups.size() != t.groups.size()) return std::nullopt;
  for (const auto& name : t.expanded)
    if (arch_macro(name, r) != arch_macro(name, k)) return std::nullopt;
  for (const auto& [name, defined] : t.ifdefs)
    if (auto m = arch_macro(name, k); !m || m->defined != defined) return std::nullopt;
  std::vector<char> of_group(t.conds.size(), 0);
  for (const auto& g : t.groups)
    if (g.cond < of_group.size()) of_group[g.cond] = 1;
  for (size_t i = 0; i < t.conds.size(); ++i)
    if (!of_group[i] && !cond_holds_for(t.conds[i], k)) return std::nullopt;
  struct Range {
    clang::FileID fid;
    uint32_t begin, end;
  };
  std::vector<Range> gone;  // the branches r took and k does not
  for (size_t i = 0; i < t.groups.size(); ++i) {
    const ArchTrace::Group& g = t.groups[i];
    const ArchTrace::Cond& c = t.conds[g.cond];
    auto v = eval_condition(c.text, [&](std::string_view id) { return cond_ident(c, id, k); });
    if (!v) return std::nullopt;
    const bool takes_if = *v != 0;
    if (takes_if == c.value) continue;
    const Derivation::Group& dg = d.groups[i];
    if (!dg.ok || !dg.inert[takes_if ? 0 : 1]) return std::nullopt;
    if (dg.taken_end > dg.taken_begin) gone.push_back({g.fid, dg.taken_begin, dg.taken_end});
  }
  auto is_gone = [&](clang::FileID f, uint32_t off) {
    return std::any_of(gone.begin(), gone.end(), [&](const Range& x) { return x.fid == f && off >= x.begin && off < x.end; });
  };
  ArchResult ar;
  ar.arch = k;
  ar.parsed = true;
  build_uses(
      d.fns, d.var_roots, d.raw, d.headers, d.main, text,
      [&](const clang::FunctionDecl* fn, size_t i) {
        auto it = d.callee_at.find(fn);
        return it != d.callee_at.end() && i < it->second.size() && is_gone(it->second[i].first, it->second[i].second);
      },
      [&](const RawUse& u) { return is_gone(u.file, u.begin); }, ar);
  return ar;
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
