#include <clang/AST/ASTContext.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>

#include "analyzer/frontends/cuda/coalescing_internal.h"

namespace cudalint::cuda::coalescing {

namespace {

// A launch's block shape when it is a constant: `<<<g, 256>>>`, `dim3(16, 16)`, a local `dim3`.
std::optional<Shape> block_shape(const clang::Expr* e, const clang::ASTContext& ctx, int guard = 0) {
  if (!e || guard > 8) return std::nullopt;
  for (const clang::Expr* prev = nullptr; e != prev;) {
    prev = e;
    e = strip(e)->IgnoreImpCasts();
    if (auto* fc = llvm::dyn_cast<clang::CXXFunctionalCastExpr>(e)) e = fc->getSubExpr();
  }
  auto as_int = [&](const clang::Expr* x) { return constant_int(x, ctx); };
  if (auto* ce = llvm::dyn_cast<clang::CXXConstructExpr>(e)) {
    if (ce->getNumArgs() == 1 && !ce->getArg(0)->getType()->isIntegerType())
      return block_shape(ce->getArg(0), ctx, guard + 1);  // a copy
    Shape s{1, 1, 1};
    for (unsigned i = 0; i < ce->getNumArgs() && i < 3; ++i) {
      auto v = as_int(ce->getArg(i));
      if (!v || *v <= 0) return std::nullopt;
      s[i] = *v;
    }
    return s;
  }
  if (auto* dr = llvm::dyn_cast<clang::DeclRefExpr>(e))
    if (auto* vd = llvm::dyn_cast<clang::VarDecl>(dr->getDecl()); vd && vd->getType()->isRecordType() && vd->getInit())
      return block_shape(vd->getInit(), ctx, guard + 1);
  if (e->getType()->isIntegerType())
    if (auto v = as_int(e); v && *v > 0) return Shape{*v, 1, 1};
  return std::nullopt;
}

class KernelFinder : public clang::RecursiveASTVisitor<KernelFinder> {
 public:
  KernelFinder(const clang::SourceManager& sm, const clang::ASTContext& ctx) : sm_(sm), ctx_(ctx) {}
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
      (fd->isDependentContext() ? found.templates : found.concrete).push_back(fd);
    return true;
  }

  bool VisitCUDAKernelCallExpr(clang::CUDAKernelCallExpr* k) {
    const clang::FunctionDecl* fd = k->getDirectCallee();
    auto* config = llvm::dyn_cast_or_null<clang::CallExpr>(k->getConfig());
    if (!fd || !config || config->getNumArgs() < 2) return true;
    std::optional<Shape> s = block_shape(config->getArg(1), ctx_);
    std::string name = fd->getNameAsString();
    // Launches of one kernel with different (or unknown) shapes: no shape.
    auto [it, fresh] = found.shapes.try_emplace(name, s);
    if (!fresh && it->second != s) it->second.reset();
    // Integer arguments every launch in the file passes as the same constant.
    std::vector<std::optional<int64_t>> values;
    for (const clang::Expr* a : k->arguments())
      values.push_back(a->getType()->isIntegerType() ? constant_int(a, ctx_) : std::nullopt);
    auto [at, first] = found.arguments.try_emplace(name, values);
    if (!first)
      for (size_t i = 0; i < at->second.size(); ++i)
        if (i >= values.size() || at->second[i] != values[i]) at->second[i].reset();
    return true;
  }

  Kernels found;

 private:
  const clang::SourceManager& sm_;
  const clang::ASTContext& ctx_;
};

}  // namespace

Kernels find_kernels(clang::ASTContext& ctx, const std::vector<clang::Decl*>& decls) {
  KernelFinder f(ctx.getSourceManager(), ctx);
  for (clang::Decl* d : decls) f.TraverseDecl(d);
  return std::move(f.found);
}

}  // namespace cudalint::cuda::coalescing
