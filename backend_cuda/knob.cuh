/* SPDX-License-Identifier: MIT */
/*
 * PRISM_CUDA_KNOB(type, NAME, default): one tuning knob, one line. It
 * declares the constant NAME of the enclosing namespace: default, unless
 * the build defines the macro PRISM_CUDA_NAME (-DPRISM_CUDA_NAME=value, as
 * bench/tune-cuda.sh does for its sweeps), whose value it then takes.
 *
 * The preprocessor cannot define a macro from a macro, so there is no
 * one-line #ifndef. Instead the override is read from its spelling:
 * PRISM_CUDA_KNOB_TEXT(PRISM_CUDA_NAME) is the string "PRISM_CUDA_NAME"
 * when no such macro exists, and the text of its value when it does;
 * knob_read reads that text, at compile time, as an integer constant
 * expression: decimal, hexadecimal or octal literals with u/l suffixes,
 * true and false, ( ), unary + and -, and binary * / % + - << >> with
 * C's precedence. An override it cannot read, or whose value does
 * not fit the knob's type, stops the build at the knob's line (a call to
 * knob_override_unreadable or knob_override_out_of_range).
 */
#ifndef PRISM_BACKEND_CUDA_KNOB_CUH
#define PRISM_BACKEND_CUDA_KNOB_CUH

#include <limits>
#include <type_traits>

#define PRISM_CUDA_KNOB_STR(x) #x
#define PRISM_CUDA_KNOB_TEXT(x) PRISM_CUDA_KNOB_STR(x)
#define PRISM_CUDA_KNOB(type, name, value)                                     \
  constexpr type name = ::prism_cuda::knob::read<type>(                        \
      PRISM_CUDA_KNOB_TEXT(PRISM_CUDA_##name), "PRISM_CUDA_" #name, (value))

namespace prism_cuda {
namespace knob {

/* Not constexpr: reaching one in a knob's initialiser is the error. */
inline long long knob_override_unreadable() {
  return 0;
}
inline long long knob_override_out_of_range() {
  return 0;
}

constexpr bool same_text(const char *a, const char *b) {
  while (*a && *a == *b)
    ++a, ++b;
  return *a == *b;
}

/* A recursive-descent reader over the override's text; each level of C's
 * precedence is one function. Values are long long (knobs are small). */
struct Reader {
  const char *p;

  constexpr void skip() {
    while (*p == ' ' || *p == '\t')
      ++p;
  }
  constexpr bool take(char c) {
    skip();
    if (*p != c)
      return false;
    ++p;
    return true;
  }
  /* The two-character operator c c (<< or >>). */
  constexpr bool take2(char c) {
    skip();
    if (p[0] != c || p[1] != c)
      return false;
    p += 2;
    return true;
  }
  constexpr bool take_word(const char *w) {
    skip();
    const char *q = p;
    while (*w && *q == *w)
      ++q, ++w;
    if (*w || (*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') ||
        (*q >= '0' && *q <= '9') || *q == '_')
      return false;
    p = q;
    return true;
  }
  static constexpr int digit(char c, int base) {
    int d = c >= '0' && c <= '9'   ? c - '0'
            : c >= 'a' && c <= 'f' ? c - 'a' + 10
            : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                   : 99;
    return d < base ? d : -1;
  }
  constexpr long long literal() {
    skip();
    int base = 10;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
      base = 16, p += 2;
    else if (p[0] == '0')
      base = 8;
    if (digit(*p, base) < 0)
      return knob_override_unreadable();
    long long v = 0;
    for (; digit(*p, base) >= 0; ++p)
      v = v * base + digit(*p, base);
    while (*p == 'u' || *p == 'U' || *p == 'l' || *p == 'L')
      ++p;
    return v;
  }
  constexpr long long primary() {
    if (take('(')) {
      long long v = expression();
      return take(')') ? v : knob_override_unreadable();
    }
    if (take('+'))
      return primary();
    if (take('-'))
      return -primary();
    if (take_word("true"))
      return 1;
    if (take_word("false"))
      return 0;
    return literal();
  }
  constexpr long long multiplicative() {
    long long v = primary();
    for (;;) {
      if (take('*')) {
        v *= primary();
      } else if (take('/') || take('%')) {
        const bool rem = p[-1] == '%';
        const long long d = primary();
        if (d == 0)
          return knob_override_unreadable();
        v = rem ? v % d : v / d;
      } else {
        return v;
      }
    }
  }
  constexpr long long additive() {
    long long v = multiplicative();
    for (;;) {
      if (take('+'))
        v += multiplicative();
      else if (take('-'))
        v -= multiplicative();
      else
        return v;
    }
  }
  /* The whole grammar: shifts bind loosest. */
  constexpr long long expression() {
    long long v = additive();
    for (;;) {
      if (take2('<'))
        v <<= additive();
      else if (take2('>'))
        v >>= additive();
      else
        return v;
    }
  }
};

constexpr long long read_text(const char *text) {
  Reader r{text};
  const long long v = r.expression();
  r.skip();
  return *r.p == '\0' ? v : knob_override_unreadable();
}

template <class T> constexpr bool fits(long long v) {
  if (std::is_same<T, bool>::value)
    return v == 0 || v == 1;
  if (v < 0)
    return std::is_signed<T>::value &&
           v >= (long long)std::numeric_limits<T>::min();
  return (unsigned long long)v <=
         (unsigned long long)std::numeric_limits<T>::max();
}

/* The knob's value: dflt when text is the macro's own name (no override),
 * else the override read from text, which must fit T. */
template <class T>
constexpr T read(const char *text, const char *macro, T dflt) {
  if (same_text(text, macro))
    return dflt;
  const long long v = read_text(text);
  return fits<T>(v) ? T(v) : T(knob_override_out_of_range());
}

} // namespace knob
} // namespace prism_cuda

#endif /* PRISM_BACKEND_CUDA_KNOB_CUH */
