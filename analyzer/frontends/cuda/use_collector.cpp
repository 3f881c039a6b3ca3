// CUDA front-end, use collection: the AST walk of one parse and body reuse (use_collector.h).
#include "analyzer/frontends/cuda/use_collector.h"

#include <algorithm>
#include <tuple>

#include <clang/AST/RecursiveASTVisitor.h>
#include <fmt/format.h>

#include "analyzer/frontends/cuda/ptx.h"
#include "analyzer/frontends/cuda/std_includes.h"

namespace cudalint::cuda::detail {

namespace {

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

  // Statements (function bodies, initializers) are walked by UseVisitor: here only the classes
  // declared in them are looked for, whose methods are functions of their own. Lambdas are
  // walked as functions from where they are written, so their bodies are not entered.
  bool TraverseStmt(clang::Stmt* s, DataRecursionQueue* = nullptr) {
    std::vector<clang::Stmt*> work{s};
    while (!work.empty()) {
      clang::Stmt* st = work.back();
      work.pop_back();
      if (!st || llvm::isa<clang::LambdaExpr>(st)) continue;
      if (auto* ds = llvm::dyn_cast<clang::DeclStmt>(st)) {
        for (clang::Decl* d : ds->decls()) {
          if (llvm::isa<clang::TagDecl>(d)) TraverseDecl(d);
          else if (auto* vd = llvm::dyn_cast<clang::VarDecl>(d)) work.push_back(vd->getInit());
        }
        continue;
      }
      for (clang::Stmt* c : st->children()) work.push_back(c);
    }
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
    // A pattern nothing instantiates (a class template's member, whose instantiations are
    // walked on their own, or a function template without one): nvcc checks nothing in it, and
    // nothing emitted calls it. Its body is not walked (with a preamble, not even read).
    if (base == UseContext::Template && !info.instantiated_pattern) return;
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

}  // namespace

void Consumer::HandleTranslationUnit(clang::ASTContext& ctx) {
  // The prelude is found by name (is_prelude): SourceManager::translateFile would load every
  // source location entry of the PCH to find it.
  const std::vector<clang::Decl*> decls = walked_decls(ctx, !c_.preamble_file.empty());
  if (c_.want_features) {
    TopVisitor v(c_);
    for (clang::Decl* d : decls) v.TraverseDecl(d);
    if (c_.reuse) {
      reuse_bodies();
    } else if (c_.need_bodies && c_.trace && c_.need_bodies(*c_.trace)) {
      record_bodies();
      record_derivation();
    }
  }
  if (c_.want_accesses) c_.accesses = global_accesses(ctx, decls);
  resolve_headers();
}

bool Consumer::shouldSkipFunctionBody(clang::Decl* d) {
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

void Consumer::record_bodies() {
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

bool Consumer::self_contained(const clang::FunctionDecl* def, const FnInfo& info) {
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

void Consumer::reuse_bodies() {
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

void Consumer::resolve_headers() {
  const clang::SourceManager& sm = *c_.sm;
  for (const RawUse& r : c_.raw) {
    if (r.file == c_.main || c_.headers.count(r.file)) continue;
    HeaderInfo& h = c_.headers[r.file];
    // Named as its include reached it (`dir/./../x.cuh`), which depends on the spelling and on
    // which include the file manager met first: lexically normalised.
    if (auto fe = sm.getFileEntryRefForID(r.file)) {
      llvm::SmallString<256> name(fe->getName());
      llvm::sys::path::remove_dots(name, /*remove_dot_dot=*/true);
      h.name = name.str().str();
    }
    // A preamble's file holds the analysed file's first bytes (its offsets moved by
    // preamble_shift). The walk up stops there: the PCH names that file included by the main one.
    auto is_preamble = [&](clang::FileID id) {
      auto fe = c_.preamble_file.empty() ? std::nullopt : sm.getFileEntryRefForID(id);
      return fe && fe->getName() == c_.preamble_file;
    };
    clang::FileID f = r.file;
    clang::SourceLocation inc;
    for (int depth = 0; depth < 200 && f.isValid() && f != c_.main && !is_preamble(f); ++depth) {
      clang::SourceLocation up = sm.getIncludeLoc(f);
      if (up.isInvalid()) break;
      inc = up;
      f = sm.getFileID(inc);
    }
    if (f == c_.main && inc.isValid()) h.include_offset = sm.getFileOffset(inc);
    else if (is_preamble(f) && inc.isValid()) h.include_offset = c_.preamble_shift(sm.getFileOffset(inc));
  }
}

std::vector<clang::Decl*> walked_decls(clang::ASTContext& ctx, bool with_preamble) {
  std::vector<clang::Decl*> out;
  clang::TranslationUnitDecl* tu = ctx.getTranslationUnitDecl();
  if (!with_preamble) {  // read from a PCH (the prelude): not loaded
    for (clang::Decl* d : tu->noload_decls()) out.push_back(d);
    return out;
  }
  const clang::SourceManager& sm = ctx.getSourceManager();
  for (clang::Decl* d : tu->decls()) {
    if (d->isFromASTFile()) {
      clang::SourceLocation l = d->getLocation();
      if (l.isInvalid() || sm.isInSystemHeader(sm.getFileLoc(l))) continue;
    }
    out.push_back(d);
  }
  return out;
}

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

}  // namespace cudalint::cuda::detail
