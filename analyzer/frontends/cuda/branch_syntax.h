// Whether the text of an `#if`/`#else` branch parses as C++ statements of a small grammar:
// expressions over names, literals and the builtin variables' x/y/z, the arithmetic, comparison,
// logical, bitwise, assignment and increment operators, subscripts, casts to builtin types
// (`(float)x`, `float(x)`, `static_cast<unsigned>(x)`), `sizeof`; statements `;`, blocks,
// `if`/`else`, `while`, `do`, `for`, `return`, `break`, `continue`, expression statements and a
// declaration of one variable of a builtin type. A derived arch's branch (arch_derivation.cpp,
// Derivation) must parse: anything else, valid C++ or not, gets a parse of the whole file,
// which reports a syntax error the way nvcc would. So the grammar errs on the side of "no".
#pragma once

#include <string_view>

namespace cudalint::cuda {

bool plain_statements_parse(std::string_view text);

// The grammar's keywords, and those of them that spell a builtin type (or qualify one): a
// branch may use no other (Derivation's check of its names, in arch_derivation.cpp, uses them too).
bool plain_keyword(std::string_view word);
bool plain_type_keyword(std::string_view word);

}  // namespace cudalint::cuda
