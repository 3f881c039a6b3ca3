// The coalescing analysis' passes besides the per-kernel walk (coalescing.cpp): finding the
// kernels and their launches in a translation unit, and marking the runs the caches merge.
// Private to analyzer/frontends/cuda.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>

#include "analyzer/frontends/cuda/coalescing.h"

namespace clang {
class ASTContext;
class FunctionDecl;
}  // namespace clang

namespace cudalint::cuda::coalescing {

using Shape = std::array<int64_t, 3>;  // a launch's block shape (x, y, z)

// An expression without parentheses and the temporaries around a call's result.
inline const clang::Expr* strip(const clang::Expr* e) {
  while (e) {
    e = e->IgnoreParens();
    if (auto* m = llvm::dyn_cast<clang::MaterializeTemporaryExpr>(e)) e = m->getSubExpr();
    else if (auto* b = llvm::dyn_cast<clang::CXXBindTemporaryExpr>(e)) e = b->getSubExpr();
    else if (auto* f = llvm::dyn_cast<clang::FullExpr>(e)) e = f->getSubExpr();
    else break;
  }
  return e;
}

// The value of an integer constant expression (a literal, a constexpr, a template argument).
inline std::optional<int64_t> constant_int(const clang::Expr* e, const clang::ASTContext& ctx) {
  clang::Expr::EvalResult r;
  if (e->isValueDependent() || !e->EvaluateAsInt(r, ctx)) return std::nullopt;
  return r.Val.getInt().getExtValue();
}

// The kernels defined in a translation unit's own files and what its launches say of them.
struct Kernels {
  std::vector<const clang::FunctionDecl*> concrete;   // kernels and kernel template instantiations
  std::vector<const clang::FunctionDecl*> templates;  // kernel templates as written
  // By kernel name: the block shape when every launch in the file gives the same constant one,
  // and the integer arguments every launch passes as the same constant.
  std::map<std::string, std::optional<Shape>> shapes;
  std::map<std::string, std::vector<std::optional<int64_t>>> arguments;
};
Kernels find_kernels(clang::ASTContext& ctx, const std::vector<clang::Decl*>& decls);

// A thread's run over adjacent elements: accesses of one kernel to one pointer in one direction
// whose offsets fill (three quarters of) the gap between lanes, or that cover each struct's
// fields, are marked `run_merged`.
void mark_runs(std::vector<GlobalAccess>& all);
void mark_struct_runs(std::vector<GlobalAccess>& all);

}  // namespace cudalint::cuda::coalescing
