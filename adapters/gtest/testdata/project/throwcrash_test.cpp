#include <gtest/gtest.h>

#include <cstdlib>
#include <stdexcept>

// An exception's failure has no place on GoogleTest's console ("unknown
// file"); the binary then dies before it writes its report.
TEST(ThrowCrash, Throws) { throw std::runtime_error("boom"); }

TEST(ThrowCrash, Aborts) { std::abort(); }
