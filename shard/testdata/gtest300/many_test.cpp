// Written for strobe's partition tests: 300 GoogleTest tests, Many.N000
// to Many.N299, three of them failing (N007, N107, N207). Built by the
// tests with g++ against the system's GoogleTest (libgtest-dev).
#include <gtest/gtest.h>

#define T(n) TEST(Many, N##n) { EXPECT_NE(std::string(#n).substr(1), std::string("07")) << "test " #n " fails on purpose"; }
#define T10(d) T(d##0) T(d##1) T(d##2) T(d##3) T(d##4) T(d##5) T(d##6) T(d##7) T(d##8) T(d##9)
T10(00) T10(01) T10(02) T10(03) T10(04) T10(05) T10(06) T10(07) T10(08) T10(09)
T10(10) T10(11) T10(12) T10(13) T10(14) T10(15) T10(16) T10(17) T10(18) T10(19)
T10(20) T10(21) T10(22) T10(23) T10(24) T10(25) T10(26) T10(27) T10(28) T10(29)
