#pragma once
// EIS_VECTOR_CLONES, written before a function's definition, compiles the function twice on
// x86-64 Linux, for the baseline instruction set and for AVX2, and the loader picks the one the
// processor runs (target_clones through glibc's ifunc, GCC and Clang). AVX2 alone has no fused
// multiply-add, so the two versions round every product and sum alike and give the same bits;
// the AVX2 one does four lanes at a time where the compiler vectorizes the loops. Elsewhere it
// is empty.
#include <climits>  // glibc's features.h, which defines __GLIBC__

#if defined(__x86_64__) && defined(__GLIBC__) && (defined(__GNUC__) || defined(__clang__))
#define EIS_VECTOR_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define EIS_VECTOR_CLONES
#endif

// EIS_TEMPLATE_VECTOR_CLONES: the same for a function template, whose every instantiation GCC
// clones. Clang (14) does not multiversion function templates ("target_clones multiversioned
// functions do not yet support function templates"), so there it is empty: a Clang build runs
// such templates in the baseline instruction set only, with the same bits.
#if defined(__x86_64__) && defined(__GLIBC__) && defined(__GNUC__) && !defined(__clang__)
#define EIS_TEMPLATE_VECTOR_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define EIS_TEMPLATE_VECTOR_CLONES
#endif
