#include "analyzer/frontends/cuda/coalescing.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <clang/AST/ASTContext.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>

namespace cudalint::cuda {

namespace {

// An index value as an affine function of the lane (threadIdx.x): lane * k + c0, where c0 is
// the same for every lane of the warp (known or not).
struct Lin {
  double k = 0;                  // lane coefficient, in elements
  bool k_known = true;
  std::optional<double> c0 = 0;  // the lane-invariant part, when it is a known constant
  bool load = false;             // reads memory: data-dependent
  bool uses_y = false;           // involves threadIdx.y / blockIdx.y (a 2-D index)
  bool tid_yz = false;           // involves threadIdx.y / threadIdx.z (may vary within a warp)
  bool scaled = false;           // the lane coefficient came from a multiplication
};

Lin unknown_uniform() {
  Lin l;
  l.c0.reset();
  return l;
}

Lin unknown_any() {
  Lin l;
  l.k_known = false;
  l.c0.reset();
  return l;
}

struct Env {
  std::map<const clang::ValueDecl*, Lin> values;                 // bound parameters
  std::map<const clang::ValueDecl*, std::string> global_ptrs;     // pointer params → kernel pointer
  int depth = 0;
  // Inside `if (lane == 0)` / `if (threadIdx.x == 0)`: at most one lane of a warp runs here, so
  // an access is one lane's, whatever its index.
  bool single_lane = false;
};

class Analyzer {
 public:
  explicit Analyzer(clang::ASTContext& ctx) : ctx_(ctx), sm_(ctx.getSourceManager()) {}

  std::vector<GlobalAccess> out;

  void kernel(const clang::FunctionDecl* fd) {
    Env env;
    for (const clang::ParmVarDecl* p : fd->parameters())
      if (p->getType()->isPointerType()) env.global_ptrs[p] = p->getNameAsString();
    kernel_name_ = fd->getNameAsString();
    walk(fd->getBody(), env);
  }

 private:
  clang::ASTContext& ctx_;
  clang::SourceManager& sm_;
  std::string kernel_name_;
  std::set<std::pair<uint32_t, bool>> seen_;
  std::set<const clang::Expr*> stores_, handled_;
  std::set<const clang::Expr*> address_only_;  // `&p[i]`: an address computed, nothing loaded

  bool span_of(const clang::Expr* e, uint32_t& b, uint32_t& en) const {
    clang::SourceLocation s = sm_.getFileLoc(e->getBeginLoc()), t = sm_.getFileLoc(e->getEndLoc());
    if (s.isInvalid() || sm_.getFileID(s) != sm_.getMainFileID()) return false;
    b = sm_.getFileOffset(s);
    en = std::max(b + 1, sm_.getFileOffset(t) + 1);
    return true;
  }

  uint32_t size_of(clang::QualType t) const {
    if (t.isNull() || t->isIncompleteType() || t->isDependentType() || t->containsErrors() || t->isUndeducedType() ||
        t->isPlaceholderType() || t->isFunctionType())
      return 0;
    // The layout of an invalid record (one whose declaration had errors) cannot be computed.
    if (const clang::RecordDecl* rd = t->getAsRecordDecl(); rd && rd->isInvalidDecl()) return 0;
    return static_cast<uint32_t>(ctx_.getTypeSizeInChars(t).getQuantity());
  }

  // ---- values -------------------------------------------------------------------------

  Lin eval(const clang::Expr* e, const Env& env, int guard = 0) {
    if (!e || guard > 64) return unknown_any();
    e = e->IgnoreParenImpCasts();
    if (auto* il = llvm::dyn_cast<clang::IntegerLiteral>(e)) {
      Lin l;
      l.c0 = static_cast<double>(il->getValue().getSExtValue());
      return l;
    }
    if (auto* sub = llvm::dyn_cast<clang::SubstNonTypeTemplateParmExpr>(e)) return eval(sub->getReplacement(), env, guard + 1);
    if (auto* ce = llvm::dyn_cast<clang::CastExpr>(e)) return eval(ce->getSubExpr(), env, guard + 1);
    if (auto* me = llvm::dyn_cast<clang::MemberExpr>(e)) {
      // threadIdx.x and friends (the prelude declares them as uint3/dim3 variables).
      if (auto* dr = llvm::dyn_cast<clang::DeclRefExpr>(me->getBase()->IgnoreParenImpCasts())) {
        std::string var = dr->getDecl()->getNameAsString(), field = me->getMemberDecl()->getNameAsString();
        if (var == "threadIdx" || var == "blockIdx" || var == "blockDim" || var == "gridDim") {
          Lin l = unknown_uniform();
          if (var == "threadIdx" && field == "x") {
            l.k = 1;
            l.c0 = 0;
          }
          l.uses_y = field != "x" && (var == "threadIdx" || var == "blockIdx");
          l.tid_yz = field != "x" && var == "threadIdx";
          return l;
        }
      }
      return unknown_any();
    }
    if (auto* dr = llvm::dyn_cast<clang::DeclRefExpr>(e)) {
      const clang::ValueDecl* d = dr->getDecl();
      if (auto it = env.values.find(d); it != env.values.end()) return it->second;
      if (auto* ecd = llvm::dyn_cast<clang::EnumConstantDecl>(d)) {
        Lin l;
        l.c0 = static_cast<double>(ecd->getInitVal().getSExtValue());
        return l;
      }
      if (auto* vd = llvm::dyn_cast<clang::VarDecl>(d)) {
        if (llvm::isa<clang::ParmVarDecl>(vd)) return unknown_uniform();  // a kernel argument
        if (vd->getInit() && !vd->getType()->isPointerType()) return eval(vd->getInit(), env, guard + 1);
      }
      return unknown_uniform();
    }
    if (auto* uo = llvm::dyn_cast<clang::UnaryOperator>(e)) {
      Lin a = eval(uo->getSubExpr(), env, guard + 1);
      if (uo->getOpcode() == clang::UO_Minus) {
        a.k = -a.k;
        if (a.c0) a.c0 = -*a.c0;
        return a;
      }
      if (uo->getOpcode() == clang::UO_Plus) return a;
      return unknown_any();
    }
    if (auto* bo = llvm::dyn_cast<clang::BinaryOperator>(e)) return binary(bo, env, guard);
    if (auto* ase = llvm::dyn_cast<clang::ArraySubscriptExpr>(e)) {
      // A load at an index that is the same for every lane of the warp (`first[blockIdx.y]`)
      // is a broadcast: its value is warp-uniform, so an index built from it is not a gather.
      Lin idx = eval(ase->getIdx(), env, guard + 1);
      if (idx.k_known && idx.k == 0 && !idx.load && !idx.tid_yz) return unknown_uniform();
      Lin l = unknown_any();
      l.load = true;
      return l;
    }
    if (auto* call = llvm::dyn_cast<clang::CallExpr>(e)) return call_value(call, env, guard);
    if (llvm::isa<clang::CXXBoolLiteralExpr>(e)) return Lin{};
    return unknown_any();
  }

  Lin binary(const clang::BinaryOperator* bo, const Env& env, int guard) {
    Lin a = eval(bo->getLHS(), env, guard + 1), b = eval(bo->getRHS(), env, guard + 1);
    Lin r;
    r.load = a.load || b.load;
    r.uses_y = a.uses_y || b.uses_y;
    r.tid_yz = a.tid_yz || b.tid_yz;
    r.k_known = a.k_known && b.k_known;
    auto both = [&](auto f) { return a.c0 && b.c0 ? std::optional<double>(f(*a.c0, *b.c0)) : std::nullopt; };
    switch (bo->getOpcode()) {
      case clang::BO_Add:
        r.k = a.k + b.k;
        r.c0 = both([](double x, double y) { return x + y; });
        r.scaled = a.scaled || b.scaled;
        return r;
      case clang::BO_Sub:
        r.k = a.k - b.k;
        r.c0 = both([](double x, double y) { return x - y; });
        r.scaled = a.scaled || b.scaled;
        return r;
      case clang::BO_Mul:
      case clang::BO_Shl: {
        if (bo->getOpcode() == clang::BO_Shl) {
          if (!b.c0 || b.k != 0) return unknown_any();
          b.c0 = std::ldexp(1.0, static_cast<int>(*b.c0));
        }
        if (a.k != 0 && b.k != 0) return unknown_any();  // lane * lane: not affine
        const Lin& lane = a.k != 0 ? a : b;
        const Lin& other = a.k != 0 ? b : a;
        if (lane.k != 0) {
          if (!other.c0) r.k_known = false;  // lane times an unknown factor
          else r.k = lane.k * *other.c0;
          r.scaled = true;
        }
        r.c0 = both([](double x, double y) { return x * y; });
        return r;
      }
      case clang::BO_Div:
      case clang::BO_Shr: {
        if (!b.c0 || b.k != 0 || *b.c0 == 0) return unknown_any();
        double d = bo->getOpcode() == clang::BO_Shr ? std::ldexp(1.0, static_cast<int>(*b.c0)) : *b.c0;
        // `threadIdx.x / 32` (a warp index): an integer quotient that no lane of a warp
        // changes, as warps start at multiples of 32 lanes. The same for any multiple of 32·k.
        if (bo->getType()->isIntegerType() && a.k_known && a.k != 0 && a.k == std::floor(a.k) &&
            std::fmod(d, 32.0 * std::fabs(a.k)) == 0) {
          Lin u = unknown_uniform();
          u.load = a.load;
          u.uses_y = a.uses_y;
          u.tid_yz = a.tid_yz;
          return u;
        }
        r.k = a.k / d;
        r.c0 = a.c0 ? std::optional<double>(std::floor(*a.c0 / d)) : std::nullopt;
        r.scaled = a.scaled;
        return r;
      }
      case clang::BO_Rem:
      case clang::BO_And: {
        // `threadIdx.x % 32`, `threadIdx.x & 31` (the lane): the same lane function when the
        // modulus is a multiple of the 32 lanes' span.
        if (!b.c0 || b.k != 0 || !a.k_known || a.k != 1) return unknown_any();
        double m = bo->getOpcode() == clang::BO_Rem ? *b.c0 : *b.c0 + 1;
        if (m < 32 || std::fmod(m, 32.0) != 0) return unknown_any();
        r.k = 1;
        r.c0.reset();  // the warp's position within the modulus
        return r;
      }
      default:
        return unknown_any();
    }
  }

  // Whether an `if` condition lets at most one lane of a warp in: `lane == c`, `threadIdx.x == 0`.
  bool one_lane(const clang::Expr* cond, const Env& env) {
    auto* bo = llvm::dyn_cast<clang::BinaryOperator>(cond->IgnoreParenImpCasts());
    if (!bo || bo->getOpcode() != clang::BO_EQ) return false;
    Lin a = eval(bo->getLHS(), env, 0), b = eval(bo->getRHS(), env, 0);
    auto lane_fn = [](const Lin& l) { return l.k_known && l.k != 0 && l.k == std::floor(l.k) && !l.load && !l.tid_yz; };
    auto uniform = [](const Lin& l) { return l.k_known && l.k == 0 && !l.load && !l.tid_yz; };
    return (lane_fn(a) && uniform(b)) || (lane_fn(b) && uniform(a));
  }

  // The value of a call to a device helper that returns an expression of its parameters.
  Lin call_value(const clang::CallExpr* call, const Env& env, int guard) {
    const clang::FunctionDecl* fd = call->getDirectCallee();
    if (!fd || !fd->hasBody() || env.depth > 3) return unknown_any();
    Env inner = bind(fd, call, env);
    const clang::Stmt* body = fd->getBody();
    for (const clang::Stmt* s : body->children())
      if (auto* ret = llvm::dyn_cast_or_null<clang::ReturnStmt>(s)) return eval(ret->getRetValue(), inner, guard + 1);
    return unknown_any();
  }

  Env bind(const clang::FunctionDecl* fd, const clang::CallExpr* call, const Env& env) {
    Env inner;
    inner.depth = env.depth + 1;
    inner.single_lane = env.single_lane;  // a helper called by the one lane is that lane's
    for (unsigned i = 0; i < fd->getNumParams() && i < call->getNumArgs(); ++i) {
      const clang::ParmVarDecl* p = fd->getParamDecl(i);
      const clang::Expr* arg = call->getArg(i)->IgnoreParenImpCasts();
      if (p->getType()->isPointerType()) {
        if (auto* dr = llvm::dyn_cast<clang::DeclRefExpr>(arg))
          if (auto it = env.global_ptrs.find(dr->getDecl()); it != env.global_ptrs.end())
            inner.global_ptrs[p] = it->second;
      } else {
        inner.values[p] = eval(arg, env);
      }
    }
    return inner;
  }

  // ---- accesses -----------------------------------------------------------------------

  const std::string* global_base(const clang::Expr* base, const Env& env) const {
    if (auto* dr = llvm::dyn_cast<clang::DeclRefExpr>(base->IgnoreParenImpCasts()))
      if (auto it = env.global_ptrs.find(dr->getDecl()); it != env.global_ptrs.end()) return &it->second;
    return nullptr;
  }

  void record(const clang::Expr* where, const clang::ArraySubscriptExpr* ase, const std::string& ptr, bool store,
              uint32_t width, bool field, const Env& env) {
    uint32_t b = 0, e = 0;
    if (!span_of(where, b, e) || !seen_.emplace(b, store).second) return;
    GlobalAccess a;
    a.begin = b;
    a.end = e;
    a.store = store;
    a.kernel = kernel_name_;
    a.pointer = ptr;
    a.element = size_of(ase->getType());
    a.width = width ? width : a.element;
    a.field_of_struct = field;
    Lin idx = eval(ase->getIdx(), env);
    a.data_dependent = idx.load;
    if (idx.k_known && !idx.load && a.element) {
      double bytes = idx.k * a.element;
      a.lane_stride = static_cast<int64_t>(std::llround(bytes));
      a.row_position = idx.uses_y && idx.scaled && std::fabs(idx.k) * a.element >= 128;
      // Sectors of 32 lanes, exact for fractional coefficients (i / 2).
      std::set<int64_t> sectors;
      for (int lane = 0; lane < 32; ++lane) {
        int64_t addr = static_cast<int64_t>(std::floor(lane * idx.k)) * a.element;
        sectors.insert(static_cast<int64_t>(std::floor(addr / 32.0)));
        sectors.insert(static_cast<int64_t>(std::floor((addr + a.width - 1) / 32.0)));
      }
      a.sectors = static_cast<double>(sectors.size());
    }
    a.ideal = std::max(1.0, 32.0 * a.width / 32.0);
    if (env.single_lane) a.sectors = std::min(a.sectors, std::ceil(a.width / 32.0) + 1);  // one lane's bytes
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
    if (auto* uo = llvm::dyn_cast<clang::UnaryOperator>(s)) {
      if (uo->getOpcode() == clang::UO_AddrOf) {
        if (auto* ase = llvm::dyn_cast<clang::ArraySubscriptExpr>(uo->getSubExpr()->IgnoreParenImpCasts()))
          address_only_.insert(ase);
      } else if (uo->getOpcode() == clang::UO_Deref) {
        // `*(uint4*)&p[i]`, `*reinterpret_cast<float4*>(&p[i])`: a vector access of the cast
        // type's width at p[i]'s address.
        auto* addr = llvm::dyn_cast<clang::UnaryOperator>(uo->getSubExpr()->IgnoreParenCasts());
        if (addr && addr->getOpcode() == clang::UO_AddrOf)
          if (auto* ase = llvm::dyn_cast<clang::ArraySubscriptExpr>(addr->getSubExpr()->IgnoreParenImpCasts()))
            if (const std::string* p = global_base(ase->getBase(), env))
              record(uo, ase, *p, stores_.count(uo) > 0, size_of(uo->getType()), false, env);
      }
    }
    if (auto* is = llvm::dyn_cast<clang::IfStmt>(s); is && is->getCond() && one_lane(is->getCond(), env)) {
      if (is->getInit()) walk(is->getInit(), env);
      walk(is->getCond(), env);
      Env one = env;
      one.single_lane = true;
      walk(is->getThen(), one);
      walk(is->getElse(), env);
      return;
    }
    if (auto* call = llvm::dyn_cast<clang::CallExpr>(s)) {
      const clang::FunctionDecl* fd = call->getDirectCallee();
      if (fd && fd->hasBody() && env.depth < 3 && (fd->hasAttr<clang::CUDADeviceAttr>())) {
        Env inner = bind(fd, call, env);
        walk(fd->getBody(), inner);
      }
    }
    for (const clang::Stmt* c : s->children()) walk(c, env);
  }

  void access(const clang::Expr* e, const Env& env, bool store) {
    if ((handled_.count(e) && !store) || address_only_.count(e)) return;
    // `p[i].field` and `p[i].arr[j]`: a field of an array of structs.
    if (auto* outer = llvm::dyn_cast<clang::ArraySubscriptExpr>(e)) {
      if (auto* me = llvm::dyn_cast<clang::MemberExpr>(outer->getBase()->IgnoreParenImpCasts()))
        if (auto* ase = llvm::dyn_cast<clang::ArraySubscriptExpr>(me->getBase()->IgnoreParenImpCasts()))
          if (const std::string* p = global_base(ase->getBase(), env)) {
            handled_.insert(me);
            handled_.insert(ase);
            record(e, ase, *p, store, size_of(outer->getType()), true, env);
            return;
          }
      if (const std::string* p = global_base(outer->getBase(), env)) {
        record(e, outer, *p, store, 0, false, env);
        handled_.insert(outer);
      }
      return;
    }
    if (auto* me = llvm::dyn_cast<clang::MemberExpr>(e)) {
      // Only a field is memory: `p[i].operator float()` (a conversion of an element of class
      // type) names a member function, whose bound-member type has no size.
      if (handled_.count(me) || !llvm::isa<clang::FieldDecl>(me->getMemberDecl())) return;
      if (auto* ase = llvm::dyn_cast<clang::ArraySubscriptExpr>(me->getBase()->IgnoreParenImpCasts()))
        if (const std::string* p = global_base(ase->getBase(), env)) {
          if (me->getType()->isArrayType()) return;  // indexed further: the outer subscript records it
          handled_.insert(ase);
          record(e, ase, *p, store, size_of(me->getType()), true, env);
        }
    }
  }
};

class KernelFinder : public clang::RecursiveASTVisitor<KernelFinder> {
 public:
  KernelFinder(Analyzer& a, const clang::SourceManager& sm) : a_(a), sm_(sm) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  // System headers (the prelude, libstdc++) hold no kernel of the project's (see
  // global_accesses): skipped, as TopVisitor does.
  bool TraverseDecl(clang::Decl* d) {
    if (d && !llvm::isa<clang::TranslationUnitDecl>(d)) {
      clang::SourceLocation l = d->getLocation();
      if (l.isValid() && sm_.isInSystemHeader(sm_.getFileLoc(l))) return true;
    }
    return clang::RecursiveASTVisitor<KernelFinder>::TraverseDecl(d);
  }
  bool VisitFunctionDecl(clang::FunctionDecl* fd) {
    if (fd->hasAttr<clang::CUDAGlobalAttr>() && fd->doesThisDeclarationHaveABody() && !fd->isInvalidDecl())
      (fd->isDependentContext() ? templates : concrete).push_back(fd);
    return true;
  }

  std::vector<const clang::FunctionDecl*> concrete;   // kernels and kernel template instantiations
  std::vector<const clang::FunctionDecl*> templates;  // kernel templates as written

 private:
  Analyzer& a_;
  const clang::SourceManager& sm_;
};

}  // namespace

std::vector<GlobalAccess> global_accesses(clang::ASTContext& ctx) {
  Analyzer a(ctx);
  KernelFinder f(a, ctx.getSourceManager());
  // Declarations of this parse only: a precompiled prelude's are not loaded (and hold no kernel).
  for (clang::Decl* d : ctx.getTranslationUnitDecl()->noload_decls()) f.TraverseDecl(d);
  // Instantiations first (concrete element types); then the templates as written, for kernels
  // that nothing in this file instantiates (a launch behind a dispatch macro from a missing
  // header): accesses whose element type depends on a template parameter have no size and give
  // no stride, the others are measured as usual. An access already seen keeps its first record.
  for (const auto* fd : f.concrete) a.kernel(fd);
  for (const auto* fd : f.templates) a.kernel(fd);
  std::sort(a.out.begin(), a.out.end(), [](const GlobalAccess& x, const GlobalAccess& y) {
    return std::tie(x.begin, x.store) < std::tie(y.begin, y.store);
  });
  return std::move(a.out);
}

}  // namespace cudalint::cuda
