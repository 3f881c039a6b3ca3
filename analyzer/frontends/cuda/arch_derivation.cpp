// CUDA front-end, arch derivation: what a parse records for it, and deriving (arch_derivation.h).
#include "analyzer/frontends/cuda/arch_derivation.h"

#include <algorithm>
#include <set>
#include <string>

#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Lex/Lexer.h>

#include "analyzer/frontends/cuda/branch_syntax.h"

namespace cudalint::cuda::detail {

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

void Consumer::record_derivation() {
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

bool Consumer::inert_branch(const FnScopes& sc, const ArchTrace& t, const ArchTrace::Group& g, llvm::StringRef buf,
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

}  // namespace cudalint::cuda::detail
