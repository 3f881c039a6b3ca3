#include "analyzer/frontends/cuda/coalescing.h"

#include <array>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ExprCXX.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>

#include "analyzer/frontends/cuda/coalescing_internal.h"
#include "analyzer/frontends/cuda/lane_value.h"

namespace cudalint::cuda {

namespace {

using LV = LaneValue;
using coalescing::Shape;
using coalescing::strip;

// A pointer expression resolved to a kernel's pointer parameter and a byte offset from it.
struct Located {
  std::string ptr;
  LV bytes;
};

struct Env {
  std::map<const clang::ValueDecl*, LV> values;          // bound parameters
  std::map<const clang::ValueDecl*, Located> global_ptrs;  // pointer params → kernel pointer
  int depth = 0;
  // The lanes that run here: under `if (lane == 0)` / `if (threadIdx.x == 0)` one lane, so an
  // access is one lane's, whatever its index.
  uint32_t active = 0xffffffffu;
  // The call in the analysed file through which a helper from a header is reached: its accesses
  // are reported there.
  const clang::Expr* site = nullptr;
};

std::string callee_name(const clang::CallExpr* call) {
  const clang::FunctionDecl* fd = call->getDirectCallee();
  return fd && fd->getIdentifier() ? fd->getName().str() : std::string();
}

// The `__ld*` / `__st*` cache-hint wrappers: an access at the address of their first argument.
bool is_load_wrapper(const std::string& n) {
  return n == "__ldg" || n == "__ldca" || n == "__ldcg" || n == "__ldcs" || n == "__ldlu" || n == "__ldcv";
}
bool is_store_wrapper(const std::string& n) { return n == "__stcg" || n == "__stcs" || n == "__stwb" || n == "__stwt"; }

class Analyzer {
 public:
  explicit Analyzer(clang::ASTContext& ctx) : ctx_(ctx), sm_(ctx.getSourceManager()) {}

  std::vector<GlobalAccess> out;
  std::map<std::string, std::optional<Shape>> shapes;  // launch block shapes, by kernel name
  std::map<std::string, std::vector<std::optional<int64_t>>> arguments;  // constant launch arguments

  void kernel(const clang::FunctionDecl* fd) {
    Env env;
    auto it = shapes.find(fd->getNameAsString());
    block_ = it != shapes.end() ? it->second : std::nullopt;
    // An integer parameter that every launch in this file passes as the same constant has it.
    if (auto at = arguments.find(fd->getNameAsString()); at != arguments.end())
      for (unsigned i = 0; i < fd->getNumParams() && i < at->second.size(); ++i)
        if (at->second[i] && fd->getParamDecl(i)->getType()->isIntegerType())
          env.values[fd->getParamDecl(i)] = LV::constant(static_cast<double>(*at->second[i]));
    for (const clang::ParmVarDecl* p : fd->parameters())
      if (p->getType()->isPointerType()) env.global_ptrs[p] = Located{p->getNameAsString(), LV::constant(0)};
    kernel_name_ = fd->getNameAsString();
    scan(fd);
    walk(fd->getBody(), env);
  }

 private:
  clang::ASTContext& ctx_;
  clang::SourceManager& sm_;
  std::string kernel_name_;
  std::optional<Shape> block_;  // the kernel's block shape, when every launch in the file gives it
  std::set<std::tuple<uint32_t, uint64_t, bool>> seen_;
  std::set<const clang::Expr*> stores_, handled_;
  std::set<const clang::Expr*> address_only_;  // `&p[i]`: an address computed, nothing loaded
  // Every assignment, compound assignment and increment of a variable in the bodies walked.
  std::map<const clang::VarDecl*, std::vector<const clang::Expr*>> mods_;
  std::map<const clang::VarDecl*, std::tuple<int64_t, int64_t, int64_t>> ranges_;  // counters: first, last, step
  std::set<const clang::FunctionDecl*> scanned_;
  std::set<const clang::VarDecl*> evaluating_;

  void scan(const clang::FunctionDecl* fd) {
    if (!fd->getBody() || !scanned_.insert(fd).second) return;
    scan_stmt(fd->getBody());
  }
  void scan_stmt(const clang::Stmt* s) {
    if (!s) return;
    auto var_of = [](const clang::Expr* e) -> const clang::VarDecl* {
      auto* dr = llvm::dyn_cast<clang::DeclRefExpr>(e->IgnoreParenImpCasts());
      return dr ? llvm::dyn_cast<clang::VarDecl>(dr->getDecl()) : nullptr;
    };
    if (auto* fs = llvm::dyn_cast<clang::ForStmt>(s)) counter(fs);
    if (auto* bo = llvm::dyn_cast<clang::BinaryOperator>(s); bo && bo->isAssignmentOp()) {
      if (const clang::VarDecl* vd = var_of(bo->getLHS())) mods_[vd].push_back(bo);
    } else if (auto* uo = llvm::dyn_cast<clang::UnaryOperator>(s); uo && uo->isIncrementDecrementOp()) {
      if (const clang::VarDecl* vd = var_of(uo->getSubExpr())) mods_[vd].push_back(uo);
    }
    for (const clang::Stmt* c : s->children()) scan_stmt(c);
  }

  // `for (int d = 0; d < 3; ++d)`: a counter from a constant to a constant bound by steps of one.
  void counter(const clang::ForStmt* fs) {
    auto* ds = llvm::dyn_cast_or_null<clang::DeclStmt>(fs->getInit());
    auto* cond = llvm::dyn_cast_or_null<clang::BinaryOperator>(fs->getCond());
    if (!ds || !ds->isSingleDecl() || !cond || !fs->getInc()) return;
    auto* vd = llvm::dyn_cast<clang::VarDecl>(ds->getSingleDecl());
    if (!vd || !vd->getInit() || !vd->getType()->isIntegerType()) return;
    auto constant = [&](const clang::Expr* e) { return coalescing::constant_int(e, ctx_); };
    auto* lhs = llvm::dyn_cast<clang::DeclRefExpr>(cond->getLHS()->IgnoreParenImpCasts());
    auto lo = constant(vd->getInit()), hi = constant(cond->getRHS());
    if (!lhs || lhs->getDecl() != vd || !lo || !hi) return;
    int64_t last = cond->getOpcode() == clang::BO_LT ? *hi - 1 : cond->getOpcode() == clang::BO_LE ? *hi : *lo - 1;
    // `++d`, `d++` or `d += s` with a constant s > 0.
    int64_t step = 0;
    const clang::Expr* inc = fs->getInc()->IgnoreParenImpCasts();
    if (auto* uo = llvm::dyn_cast<clang::UnaryOperator>(inc); uo && uo->isIncrementOp()) step = 1;
    if (auto* ca = llvm::dyn_cast<clang::CompoundAssignOperator>(inc); ca && ca->getOpcode() == clang::BO_AddAssign)
      if (auto s = constant(ca->getRHS()); s && *s > 0) step = *s;
    if (step == 0 || last < *lo || last - *lo > 4096) return;
    last = *lo + (last - *lo) / step * step;
    ranges_[vd] = {*lo, last, step};
  }

  bool span_of(const clang::Expr* e, uint32_t& b, uint32_t& en) const {
    clang::SourceLocation s = sm_.getFileLoc(e->getBeginLoc()), t = sm_.getFileLoc(e->getEndLoc());
    if (s.isInvalid() || sm_.getFileID(s) != sm_.getMainFileID()) return false;
    b = sm_.getFileOffset(s);
    en = std::max(b + 1, sm_.getFileOffset(t) + 1);
    return true;
  }

  // An expression as written, for naming a runtime value (empty when long or from a macro).
  std::string spelling(const clang::Expr* e) const {
    clang::SourceRange r = e->getSourceRange();
    if (r.getBegin().isMacroID() || r.getEnd().isMacroID()) return {};
    llvm::StringRef text = clang::Lexer::getSourceText(clang::CharSourceRange::getTokenRange(r), sm_, ctx_.getLangOpts());
    return text.size() <= 40 && text.find('\n') == llvm::StringRef::npos ? text.str() : std::string();
  }

  uint32_t size_of(clang::QualType t) const {
    if (t.isNull() || t->isIncompleteType() || t->isDependentType() || t->containsErrors() || t->isUndeducedType() ||
        t->isPlaceholderType() || t->isFunctionType() || t->isVoidType())
      return 0;
    // The layout of an invalid record (one whose declaration had errors) cannot be computed.
    if (const clang::RecordDecl* rd = t->getAsRecordDecl(); rd && rd->isInvalidDecl()) return 0;
    return static_cast<uint32_t>(ctx_.getTypeSizeInChars(t).getQuantity());
  }

  uint32_t pointee_size(const clang::Expr* e) const {
    clang::QualType t = e->getType();
    if (const auto* pt = t->getAs<clang::PointerType>()) return size_of(pt->getPointeeType());
    return 0;
  }

  // ---- values -------------------------------------------------------------------------

  LV eval(const clang::Expr* e, const Env& env, int guard = 0) {
    if (!e || guard > 64) return LV::unknown();
    e = strip(e);
    if (auto* il = llvm::dyn_cast<clang::IntegerLiteral>(e)) return LV::constant(static_cast<double>(il->getValue().getSExtValue()));
    if (auto* cl = llvm::dyn_cast<clang::CharacterLiteral>(e)) return LV::constant(cl->getValue());
    if (auto* bl = llvm::dyn_cast<clang::CXXBoolLiteralExpr>(e)) return LV::constant(bl->getValue() ? 1 : 0);
    if (auto* sub = llvm::dyn_cast<clang::SubstNonTypeTemplateParmExpr>(e)) return eval(sub->getReplacement(), env, guard + 1);
    if (auto* ce = llvm::dyn_cast<clang::CastExpr>(e)) return eval(ce->getSubExpr(), env, guard + 1);
    if (auto* me = llvm::dyn_cast<clang::MemberExpr>(e)) return member(me, env, guard);
    if (auto* dr = llvm::dyn_cast<clang::DeclRefExpr>(e)) return decl_value(dr, env, guard);
    if (auto* uo = llvm::dyn_cast<clang::UnaryOperator>(e)) {
      switch (uo->getOpcode()) {
        case clang::UO_Minus: return neg(eval(uo->getSubExpr(), env, guard + 1));
        case clang::UO_Plus:
        case clang::UO_PreInc:
        case clang::UO_PreDec:
        case clang::UO_PostInc:
        case clang::UO_PostDec: return eval(uo->getSubExpr(), env, guard + 1);
        case clang::UO_Deref: return loaded(uo->getSubExpr(), env, guard);
        default: return opaque(eval(uo->getSubExpr(), env, guard + 1));
      }
    }
    if (auto* bo = llvm::dyn_cast<clang::BinaryOperator>(e)) return binary(bo, env, guard);
    if (auto* co = llvm::dyn_cast<clang::ConditionalOperator>(e)) {
      LV a = eval(co->getTrueExpr(), env, guard + 1), b = eval(co->getFalseExpr(), env, guard + 1);
      LV c = eval(co->getCond(), env, guard + 1);
      if (a.is_uniform() && b.is_uniform() && c.is_uniform()) return LV::uniform();
      LV r = LV::unknown();
      r.load = a.load || b.load || c.load;
      return r;
    }
    if (auto* ase = llvm::dyn_cast<clang::ArraySubscriptExpr>(e)) {
      // A load at an address that is the same for every lane of the warp (`first[blockIdx.y]`)
      // is a broadcast: its value is warp-uniform, so an index built from it is not a gather.
      LV idx = eval(ase->getIdx(), env, guard + 1);
      if (idx.is_uniform()) {
        auto loc = locate(ase->getBase(), env, guard + 1);
        if (!loc || loc->bytes.is_uniform()) return LV::uniform(spelling(ase));  // `state_stride[2]`
      }
      LV l = LV::unknown();
      l.load = true;
      return l;
    }
    if (auto* call = llvm::dyn_cast<clang::CallExpr>(e)) return call_value(call, env, guard);
    return LV::unknown();
  }

  // A value computed from `v` by an operation the analysis does not model: uniform stays
  // uniform, anything else is unknown.
  static LV opaque(const LV& v) {
    if (v.is_uniform()) return LV::uniform();
    LV r = LV::unknown();
    r.load = v.load;
    return r;
  }

  // What `*p` or `p[i]` reads: uniform when every lane reads one address, else data.
  LV loaded(const clang::Expr* ptr, const Env& env, int guard) {
    auto loc = locate(ptr, env, guard + 1);
    if (loc && loc->bytes.is_uniform()) return LV::uniform();
    LV r = LV::unknown();
    r.load = true;
    return r;
  }

  LV member(const clang::MemberExpr* me, const Env& env, int guard) {
    std::string field = me->getMemberDecl()->getNameAsString();
    const clang::Expr* base = strip(me->getBase())->IgnoreParenImpCasts();
    // threadIdx.x and friends (the prelude declares them as uint3/dim3 variables).
    if (auto* dr = llvm::dyn_cast<clang::DeclRefExpr>(base)) {
      std::string var = dr->getDecl()->getNameAsString();
      if (var == "threadIdx" || var == "blockIdx" || var == "blockDim" || var == "gridDim")
        return builtin_index(var, field);
      // A field of a kernel argument passed by value (`p.stride`): the same for every thread.
      if (auto* pv = llvm::dyn_cast<clang::ParmVarDecl>(dr->getDecl()); pv && !pv->getType()->isPointerType() &&
                                                                       !env.values.count(pv))
        return LV::uniform(var + "." + field);
    }
    // Cooperative groups: `block.thread_index().x`, `block.group_index().x`.
    if (auto* mc = llvm::dyn_cast<clang::CXXMemberCallExpr>(base)) {
      std::string m = mc->getMethodDecl() ? mc->getMethodDecl()->getNameAsString() : "";
      if (m == "thread_index") return builtin_index("threadIdx", field);
      if (m == "group_index" || m == "block_index") return builtin_index("blockIdx", field);
      if (m == "group_dim" || m == "dim_threads") return builtin_index("blockDim", field);
      if (m == "dim_blocks") return builtin_index("gridDim", field);
    }
    return LV::unknown();
  }

  LV builtin_index(const std::string& var, const std::string& field) const {
    int d = field == "x" ? 0 : field == "y" ? 1 : 2;
    if (block_) {
      const Shape& b = *block_;
      if (var == "blockDim") return LV::constant(static_cast<double>(b[d]));
      // A block narrower than a warp: threadIdx.x wraps within the warp and threadIdx.y steps.
      if (var == "threadIdx" && b[0] < 32 && 32 % b[0] == 0) {
        if (d == 0) return LV::lane_mod(static_cast<int>(b[0]));
        LV l = d == 1 ? add(LV::lane_div(static_cast<int>(b[0])), LV::uniform()) : LV::uniform();
        if (d == 1 && b[0] * b[1] < 32) l = LV::unknown();  // z steps too: not modelled
        else l.neighbour(var + "." + field);
        l.uses_y = true;
        return l;
      }
      if (var == "threadIdx" && d > 0 && b[0] % 32 == 0) {
        LV l = LV::uniform(var + "." + field);
        l.neighbour(var + "." + field);
        l.uses_y = true;
        return l;
      }
    }
    if (var == "threadIdx" && field == "x") return LV::lane();
    LV l = LV::uniform(var + "." + field, (var == "blockDim" && field == "x"));
    l.uses_y = field != "x" && (var == "threadIdx" || var == "blockIdx");
    l.tid_yz = field != "x" && var == "threadIdx";
    if ((var == "threadIdx" && field != "x") || var == "blockIdx") l.neighbour(var + "." + field);
    return l;
  }

  LV decl_value(const clang::DeclRefExpr* dr, const Env& env, int guard) {
    const clang::ValueDecl* d = dr->getDecl();
    if (auto it = env.values.find(d); it != env.values.end()) return it->second;
    if (auto* ecd = llvm::dyn_cast<clang::EnumConstantDecl>(d)) return LV::constant(static_cast<double>(ecd->getInitVal().getSExtValue()));
    auto* vd = llvm::dyn_cast<clang::VarDecl>(d);
    if (!vd) return LV::uniform();
    if (llvm::isa<clang::ParmVarDecl>(vd)) return LV::uniform(vd->getNameAsString());  // a kernel argument
    if (vd->getType()->isPointerType() || vd->getType()->isArrayType()) return LV::unknown();
    if (!vd->hasLocalStorage()) {
      // A constexpr or const global with a literal initialiser; other globals are the same for
      // every thread.
      if (vd->getInit() && vd->getType().isConstQualified()) return eval(vd->getInit(), env, guard + 1);
      return LV::uniform(vd->getNameAsString());
    }
    return variable(vd, env, guard);
  }

  // A local variable: its initialiser, joined with every later assignment in the bodies walked.
  LV variable(const clang::VarDecl* vd, const Env& env, int guard) {
    // A counter that only its loop's increment changes: its range.
    if (auto r = ranges_.find(vd); r != ranges_.end() && mods_[vd].size() == 1) {
      auto [first, last, step] = r->second;
      LV c = LV::constant(static_cast<double>(first));
      c.span = static_cast<double>(last - first);
      c.span_step = static_cast<double>(step);
      c.name = vd->getNameAsString();
      c.neighbour(c.name, static_cast<double>(step));  // the thread's next iteration reads the next element(s)
      return c;
    }
    LV base = vd->getInit() ? eval(vd->getInit(), env, guard + 1) : LV::uniform(vd->getNameAsString());
    // A runtime value computed into a variable is named for the variable (`dc`, not "a runtime value").
    if (base.is_uniform() && base.c_unknown && base.name.empty()) base.name = vd->getNameAsString();
    auto it = mods_.find(vd);
    if (it == mods_.end() || evaluating_.count(vd)) return base;
    evaluating_.insert(vd);
    LV r = base;
    bool changes = false;  // the lane-invariant part changes (a loop counter, an accumulator)
    double step = 0;       // the smallest constant increment, while every change is one
    bool stepped = true;
    auto stepped_by = [&](double k) { step = step == 0 ? std::fabs(k) : std::min(step, std::fabs(k)); };
    for (const clang::Expr* m : it->second) {
      if (auto* uo = llvm::dyn_cast<clang::UnaryOperator>(m)) {
        changes = true;
        if (uo->isIncrementDecrementOp()) stepped_by(1);
        else stepped = false;
        continue;
      }
      auto* bo = llvm::cast<clang::BinaryOperator>(m);
      LV x = eval(bo->getRHS(), env, guard + 1);
      r.load = r.load || x.load;
      bool increment = (bo->getOpcode() == clang::BO_AddAssign || bo->getOpcode() == clang::BO_SubAssign) &&
                       x.known_constant() && x.c != 0;
      if (increment) stepped_by(x.c);
      else stepped = false;
      switch (bo->getOpcode()) {
        case clang::BO_AddAssign:
        case clang::BO_SubAssign:
          if (x.varies()) r.lanes_known = false;
          changes = true;
          break;
        case clang::BO_Assign:
          if (x.is_uniform() && r.is_uniform()) changes = true;
          else if (!(x.lanes_known && r.lanes_known && x.v == r.v && x.vs == r.vs && x.sym == r.sym)) r.lanes_known = false;
          else changes = true;
          break;
        default:
          if (x.is_uniform() && r.is_uniform()) changes = true;
          else r.lanes_known = false;
      }
    }
    evaluating_.erase(vd);
    // A counter stepped by a constant: the thread's next iterations read the next elements.
    if (changes && stepped && step > 0 && (r.near == 0 || step < r.near)) r.neighbour(vd->getNameAsString(), step);
    if (changes) {
      r.c_unknown = true;
      if (r.is_uniform()) {
        r.name = vd->getNameAsString();
        r.name_certain = false;
      }
    }
    if (!r.lanes_known) {
      LV u = LV::unknown();
      u.load = r.load;
      u.uses_y = r.uses_y;
      return u;
    }
    return r;
  }

  LV binary(const clang::BinaryOperator* bo, const Env& env, int guard) {
    if (bo->getOpcode() == clang::BO_Comma) return eval(bo->getRHS(), env, guard + 1);
    if (bo->isAssignmentOp()) return eval(bo->getRHS(), env, guard + 1);
    LV a = eval(bo->getLHS(), env, guard + 1), b = eval(bo->getRHS(), env, guard + 1);
    bool integer = bo->getType()->isIntegerType();
    switch (bo->getOpcode()) {
      case clang::BO_Add: return add(a, b);
      case clang::BO_Sub: return sub(a, b);
      case clang::BO_Mul: return mul(a, b);
      case clang::BO_Div: return div(a, b, integer);
      case clang::BO_Rem: return rem(a, b);
      case clang::BO_And: return bit_and(a, b);
      case clang::BO_Shl: return shl(a, b);
      case clang::BO_Shr: return shr(a, b);
      default: {
        LV r = opaque(add(a, b));
        if (!(a.is_uniform() && b.is_uniform())) r.load = a.load || b.load;
        return r;
      }
    }
  }

  // The lanes an `if` condition lets in, when it is an equality on the lane (`lane == 0`,
  // `threadIdx.x == 0`, `(threadIdx.x & 31) == 0`), or a conjunction with one: exactly those
  // lanes when both sides are known, else one lane (distinct lane values against a uniform).
  std::optional<uint32_t> active_lanes(const clang::Expr* cond, const Env& env) {
    auto* bo = llvm::dyn_cast<clang::BinaryOperator>(cond->IgnoreParenImpCasts());
    if (!bo) return std::nullopt;
    if (bo->getOpcode() == clang::BO_LAnd) {
      auto a = active_lanes(bo->getLHS(), env), b = active_lanes(bo->getRHS(), env);
      if (a && b) return *a & *b;
      return a ? a : b;
    }
    if (bo->getOpcode() != clang::BO_EQ) return std::nullopt;
    LV a = eval(bo->getLHS(), env), b = eval(bo->getRHS(), env);
    if (!a.varies()) std::swap(a, b);
    if (!a.lanes_known || a.load || a.tid_yz || a.vs != std::array<double, 32>{} || !b.is_uniform()) return std::nullopt;
    if (!a.c_unknown && !b.c_unknown) {
      uint32_t m = 0;
      for (int l = 0; l < 32; ++l)
        if (a.c + a.v[l] == b.c) m |= 1u << l;
      return m;
    }
    std::set<double> seen(a.v.begin(), a.v.end());
    if (seen.size() == a.v.size()) return 1u;  // one lane (which one does not matter)
    return std::nullopt;
  }

  // The value of a call: cooperative groups' ranks, the cache-hint loads, a device helper that
  // returns an expression of its parameters.
  LV call_value(const clang::CallExpr* call, const Env& env, int guard) {
    if (auto* mc = llvm::dyn_cast<clang::CXXMemberCallExpr>(call)) return group_call(mc);
    std::string name = callee_name(call);
    if (is_load_wrapper(name) && call->getNumArgs() >= 1) return loaded(call->getArg(0), env, guard);
    if ((name == "min" || name == "max" || name == "umin" || name == "umax") && call->getNumArgs() == 2) {
      LV a = eval(call->getArg(0), env, guard + 1), b = eval(call->getArg(1), env, guard + 1);
      return a.is_uniform() && b.is_uniform() ? LV::uniform() : opaque(add(a, b));
    }
    const clang::FunctionDecl* fd = call->getDirectCallee();
    if (!fd || !fd->hasBody() || env.depth > 3) return LV::unknown();
    Env inner = bind(fd, call, env);
    scan(fd);
    const clang::Stmt* body = fd->getBody();
    for (const clang::Stmt* s : body->children())
      if (auto* ret = llvm::dyn_cast_or_null<clang::ReturnStmt>(s)) return eval(ret->getRetValue(), inner, guard + 1);
    return LV::unknown();
  }

  // thread_rank(), meta_group_rank(), size() of a cooperative group.
  LV group_call(const clang::CXXMemberCallExpr* mc) {
    const clang::CXXMethodDecl* md = mc->getMethodDecl();
    const clang::Expr* obj = mc->getImplicitObjectArgument();
    if (!md || !obj) return LV::unknown();
    // The group as created (`this_grid()`), not the base class the member is declared in.
    for (const clang::Expr* prev = nullptr; obj != prev;) {
      prev = obj;
      obj = strip(obj)->IgnoreImpCasts();
    }
    std::string m = md->getNameAsString();
    const clang::CXXRecordDecl* rd = obj->getType()->getAsCXXRecordDecl();
    if (!rd) return LV::unknown();
    std::string cls = rd->getNameAsString();
    unsigned tile = 0;  // a thread_block_tile's size
    if (auto* spec = llvm::dyn_cast<clang::ClassTemplateSpecializationDecl>(rd); spec && cls == "thread_block_tile") {
      const auto& args = spec->getTemplateArgs();
      if (args.size() >= 1 && args[0].getKind() == clang::TemplateArgument::Integral)
        tile = static_cast<unsigned>(args[0].getAsIntegral().getZExtValue());
    }
    if (cls != "thread_block" && cls != "grid_group" && cls != "thread_block_tile" && cls != "thread_group" &&
        cls != "cluster_group")
      return LV::unknown();
    if (m == "thread_rank") {
      if (cls == "thread_block_tile") return tile == 0 ? LV::unknown() : tile >= 32 ? LV::lane_mod(32) : LV::lane_mod(static_cast<int>(tile));
      if (cls == "thread_group") return LV::unknown();  // a tile of a size known only at run time
      return add(LV::lane(), LV::uniform());            // warps start at multiples of 32 ranks
    }
    if (m == "meta_group_rank") {
      if (cls == "thread_block_tile" && tile && tile < 32) return add(LV::lane_div(static_cast<int>(tile)), LV::uniform());
      return LV::uniform("meta_group_rank()");
    }
    if (m == "size" || m == "num_threads") {
      if (cls == "thread_block_tile" && tile) return LV::constant(tile);
      return LV::uniform(cls == "grid_group" ? "grid.size()" : "block.size()", true);
    }
    if (m == "block_rank" || m == "num_blocks" || m == "meta_group_size") return LV::uniform(m + "()");
    return LV::unknown();
  }

  Env bind(const clang::FunctionDecl* fd, const clang::CallExpr* call, const Env& env) {
    Env inner;
    inner.depth = env.depth + 1;
    inner.active = env.active;  // a helper called by some lanes runs in those lanes
    inner.site = env.site;
    if (!inner.site) {
      clang::SourceLocation l = sm_.getFileLoc(call->getBeginLoc());
      if (l.isValid() && sm_.getFileID(l) == sm_.getMainFileID()) inner.site = call;
    }
    for (unsigned i = 0; i < fd->getNumParams() && i < call->getNumArgs(); ++i) {
      const clang::ParmVarDecl* p = fd->getParamDecl(i);
      const clang::Expr* arg = call->getArg(i);
      if (p->getType()->isPointerType()) {
        if (auto loc = locate(arg, env, 0)) inner.global_ptrs[p] = *loc;
      } else {
        inner.values[p] = eval(arg, env);
      }
    }
    return inner;
  }

  // ---- addresses ----------------------------------------------------------------------

  // The kernel pointer and byte offset a pointer-valued expression points at: `p`, `p + i`,
  // `&p[i]`, a cast of those, a local pointer initialised from them, a row `m[i]` of a
  // pointer to arrays.
  std::optional<Located> locate(const clang::Expr* e, const Env& env, int guard) {
    if (!e || guard > 32) return std::nullopt;
    e = strip(e);
    if (auto* ce = llvm::dyn_cast<clang::CastExpr>(e)) return locate(ce->getSubExpr(), env, guard + 1);
    if (auto* dr = llvm::dyn_cast<clang::DeclRefExpr>(e)) {
      if (auto it = env.global_ptrs.find(dr->getDecl()); it != env.global_ptrs.end()) return it->second;
      auto* vd = llvm::dyn_cast<clang::VarDecl>(dr->getDecl());
      if (!vd || llvm::isa<clang::ParmVarDecl>(vd) || !vd->hasLocalStorage() || !vd->getInit()) return std::nullopt;
      if (evaluating_.count(vd)) return std::nullopt;
      evaluating_.insert(vd);
      auto loc = locate(vd->getInit(), env, guard + 1);
      evaluating_.erase(vd);
      if (loc && mods_.count(vd)) {
        // `q += stride` and the like: the pointer walks by uniform steps (else unknown).
        for (const clang::Expr* m : mods_[vd]) {
          auto* bo = llvm::dyn_cast<clang::BinaryOperator>(m);
          if (bo && bo->getOpcode() == clang::BO_Assign) return std::nullopt;
          if (bo && eval(bo->getRHS(), env, guard + 1).varies()) return std::nullopt;
        }
        loc->bytes.c_unknown = true;
      }
      return loc;
    }
    if (auto* bo = llvm::dyn_cast<clang::BinaryOperator>(e); bo && (bo->getOpcode() == clang::BO_Add || bo->getOpcode() == clang::BO_Sub)) {
      const clang::Expr* p = bo->getLHS();
      const clang::Expr* i = bo->getRHS();
      if (!p->getType()->isPointerType()) std::swap(p, i);
      if (!p->getType()->isPointerType() || i->getType()->isPointerType()) return std::nullopt;
      auto loc = locate(p, env, guard + 1);
      if (!loc) return std::nullopt;
      LV step = mul(eval(i, env, guard + 1), LV::constant(pointee_size(p)));
      loc->bytes = bo->getOpcode() == clang::BO_Add ? add(loc->bytes, step) : sub(loc->bytes, step);
      return loc;
    }
    if (auto* uo = llvm::dyn_cast<clang::UnaryOperator>(e); uo && uo->getOpcode() == clang::UO_AddrOf)
      if (auto* ase = llvm::dyn_cast<clang::ArraySubscriptExpr>(strip(uo->getSubExpr()))) return element(ase, env, guard);
    // `m[i]` of a pointer to arrays (`float (*m)[1024]`): the address of row i.
    if (auto* ase = llvm::dyn_cast<clang::ArraySubscriptExpr>(e); ase && ase->getType()->isArrayType())
      return element(ase, env, guard);
    return std::nullopt;
  }

  // The address of `base[idx]`.
  std::optional<Located> element(const clang::ArraySubscriptExpr* ase, const Env& env, int guard) {
    auto loc = locate(ase->getBase(), env, guard + 1);
    if (!loc) return std::nullopt;
    loc->bytes = add(loc->bytes, mul(eval(ase->getIdx(), env, guard + 1), LV::constant(size_of(ase->getType()))));
    return loc;
  }

  // ---- accesses -----------------------------------------------------------------------

  void record(const clang::Expr* where, const Located& loc, bool store, uint32_t element, uint32_t width, bool field,
              const Env& env) {
    uint32_t b = 0, e = 0;
    // Reached through a helper in a header: reported at the call, one record per access of the
    // helper (a run over a struct's fields there is a run here).
    bool here = span_of(where, b, e);
    if (!here && !(env.site && span_of(env.site, b, e))) return;
    uint64_t what = here ? 0 : where->getBeginLoc().getRawEncoding();
    if (!seen_.emplace(b, what, store).second) return;
    GlobalAccess a;
    a.begin = b;
    a.end = e;
    a.store = store;
    a.kernel = kernel_name_;
    a.pointer = loc.ptr;
    a.element = element;
    a.width = width ? width : element;
    // An element of 12 bytes (float3) or more than 16 is read in several accesses, each as wide as
    // the largest power of two (up to 16) that divides its size: one instruction's lanes are the
    // element's size apart, and the instructions together cover each element (a run).
    bool split = false;
    if (a.width > 16 || (a.width & (a.width - 1)) != 0) {
      uint32_t w = 1;
      while (w * 2 <= std::min<uint32_t>(a.width, 16) && a.width % (w * 2) == 0) w *= 2;
      a.width = w;
      split = true;
    }
    a.field_of_struct = field;
    a.data_dependent = loc.bytes.load;
    a.offset = static_cast<int64_t>(std::llround(loc.bytes.c));
    a.offset_span = static_cast<int64_t>(std::llround(loc.bytes.span));
    a.offset_step = std::max<int64_t>(1, std::llround(loc.bytes.span_step));
    a.ideal = std::max(1.0, static_cast<double>(a.width));
    if (!a.data_dependent && a.element) {
      Footprint fp = footprint(loc.bytes, a.width, env.active);
      a.sectors = fp.sectors;
      a.lane_stride = fp.stride;
      a.group_lanes = fp.group;
      if (!fp.symbol.empty()) {
        a.stride_symbol = multiple_of(fp.symbol_step / a.element, fp.symbol);
        a.symbol_certain = fp.symbol_certain;
      }
      if (split && fp.stride && fp.group == 1 && std::llabs(*fp.stride) == element && !field) a.run_merged = true;
      bool wide = (fp.stride && std::llabs(*fp.stride) >= 128) || !fp.symbol.empty();
      a.row_position = loc.bytes.uses_y && loc.bytes.scaled && wide;
      // Another warp or block, or the thread's next iteration, reads the next bytes of each
      // sector (`x * W + threadIdx.y`, `x * W + k`), with no gap (a step of at most what one lane
      // or group of lanes reads: `k += 2` over single floats leaves half of each sector unused).
      if (loc.bytes.near > 0 && loc.bytes.near < 32 && loc.bytes.near <= a.width * std::max<uint32_t>(1, a.group_lanes)) {
        a.neighbour = loc.bytes.near_name;
        a.neighbour_step = static_cast<uint32_t>(loc.bytes.near);
      }
    }
    out.push_back(std::move(a));
  }

  void walk(const clang::Stmt* s, const Env& env) {
    if (!s) return;
    if (auto* bo = llvm::dyn_cast<clang::BinaryOperator>(s)) {
      if (bo->isAssignmentOp()) {
        const clang::Expr* lhs = bo->getLHS()->IgnoreParenImpCasts();
        stores_.insert(lhs);
        if (bo->isCompoundAssignmentOp()) access(lhs, env, false);  // read-modify-write reads too
      }
    }
    // `out[i] = v` on an element of class type is a call of its operator=: a store all the same
    // (a compound operator reads the element too).
    if (auto* op = llvm::dyn_cast<clang::CXXOperatorCallExpr>(s); op && op->isAssignmentOp() && op->getNumArgs() == 2) {
      const clang::Expr* lhs = op->getArg(0)->IgnoreParenImpCasts();
      stores_.insert(lhs);
      if (op->getOperator() != clang::OO_Equal) access(lhs, env, false);
    }
    if (auto* e = llvm::dyn_cast<clang::Expr>(s)) {
      bool store = stores_.count(e->IgnoreParenImpCasts()) > 0;
      access(e, env, store);
    }
    if (auto* uo = llvm::dyn_cast<clang::UnaryOperator>(s); uo && uo->getOpcode() == clang::UO_AddrOf)
      if (auto* ase = llvm::dyn_cast<clang::ArraySubscriptExpr>(strip(uo->getSubExpr())->IgnoreParenImpCasts()))
        address_only_.insert(ase);
    if (auto* is = llvm::dyn_cast<clang::IfStmt>(s); is && is->getCond())
      if (std::optional<uint32_t> lanes = active_lanes(is->getCond(), env); lanes && (*lanes & env.active) != env.active) {
        if (is->getInit()) walk(is->getInit(), env);
        walk(is->getCond(), env);
        Env some = env;
        some.active = env.active & *lanes;
        walk(is->getThen(), some);
        walk(is->getElse(), env);
        return;
      }
    if (auto* call = llvm::dyn_cast<clang::CallExpr>(s)) {
      std::string name = callee_name(call);
      bool ld = is_load_wrapper(name), st = is_store_wrapper(name);
      if ((ld || st) && call->getNumArgs() >= 1) {
        if (auto loc = locate(call->getArg(0), env, 0)) {
          uint32_t w = pointee_size(strip(call->getArg(0)));
          record(call, *loc, st, w, w, false, env);
        }
      } else if (const clang::FunctionDecl* fd = call->getDirectCallee();
                 fd && fd->hasBody() && env.depth < 3 && fd->hasAttr<clang::CUDADeviceAttr>()) {
        Env inner = bind(fd, call, env);
        scan(fd);
        walk(fd->getBody(), inner);
      }
    }
    for (const clang::Stmt* c : s->children()) walk(c, env);
  }

  void access(const clang::Expr* e, const Env& env, bool store) {
    if ((handled_.count(e) && !store) || address_only_.count(e)) return;
    if (auto* uo = llvm::dyn_cast<clang::UnaryOperator>(e); uo && uo->getOpcode() == clang::UO_Deref) {
      // `*(p + i)`, `*(uint4*)&p[i]`: an access as wide as the pointee at that address.
      if (auto loc = locate(uo->getSubExpr(), env, 0)) {
        uint32_t w = size_of(uo->getType());
        record(uo, *loc, store, w, w, false, env);
      }
      return;
    }
    if (auto* outer = llvm::dyn_cast<clang::ArraySubscriptExpr>(e)) {
      if (outer->getType()->isArrayType()) return;  // a row of a pointer to arrays: indexed further
      // `p[i].arr[j]`: an element of a field of an array of structs.
      if (auto* me = llvm::dyn_cast<clang::MemberExpr>(outer->getBase()->IgnoreParenImpCasts()))
        if (auto* ase = llvm::dyn_cast<clang::ArraySubscriptExpr>(me->getBase()->IgnoreParenImpCasts()))
          if (auto loc = element(ase, env, 0)) {
            handled_.insert(me);
            handled_.insert(ase);
            record(e, *loc, store, size_of(ase->getType()), size_of(outer->getType()), true, env);
            return;
          }
      if (auto loc = element(outer, env, 0)) {
        uint32_t w = size_of(outer->getType());
        record(e, *loc, store, w, w, false, env);
        handled_.insert(outer);
      }
      return;
    }
    if (auto* me = llvm::dyn_cast<clang::MemberExpr>(e)) {
      // Only a field is memory: `p[i].operator float()` (a conversion of an element of class
      // type) names a member function, whose bound-member type has no size.
      if (handled_.count(me) || !llvm::isa<clang::FieldDecl>(me->getMemberDecl()) || me->isArrow()) return;
      if (auto* ase = llvm::dyn_cast<clang::ArraySubscriptExpr>(me->getBase()->IgnoreParenImpCasts()))
        if (auto loc = element(ase, env, 0)) {
          if (me->getType()->isArrayType()) return;  // indexed further: the outer subscript records it
          handled_.insert(ase);
          // The field's place in the struct, so that the fields a kernel touches can be told apart.
          auto* fd = llvm::cast<clang::FieldDecl>(me->getMemberDecl());
          if (!fd->getParent()->isInvalidDecl() && !fd->isBitField() && fd->getParent()->getDefinition()) {
            uint64_t bits = ctx_.getFieldOffset(fd);
            loc->bytes = add(loc->bytes, LV::constant(static_cast<double>(bits / 8)));
          }
          record(e, *loc, store, size_of(ase->getType()), size_of(me->getType()), true, env);
        }
    }
  }
};

}  // namespace

std::vector<GlobalAccess> global_accesses(clang::ASTContext& ctx, const std::vector<clang::Decl*>& decls) {
  Analyzer a(ctx);
  coalescing::Kernels f = coalescing::find_kernels(ctx, decls);
  a.shapes = std::move(f.shapes);
  a.arguments = std::move(f.arguments);
  // Instantiations first (concrete element types); then the templates as written, for kernels
  // that nothing in this file instantiates (a launch behind a dispatch macro from a missing
  // header): accesses whose element type depends on a template parameter have no size and give
  // no stride, the others are measured as usual. An access already seen keeps its first record.
  for (const auto* fd : f.concrete) a.kernel(fd);
  for (const auto* fd : f.templates) a.kernel(fd);
  coalescing::mark_runs(a.out);
  coalescing::mark_struct_runs(a.out);
  std::sort(a.out.begin(), a.out.end(), [](const GlobalAccess& x, const GlobalAccess& y) {
    return std::tie(x.begin, x.store) < std::tie(y.begin, y.store);
  });
  return std::move(a.out);
}

}  // namespace cudalint::cuda
