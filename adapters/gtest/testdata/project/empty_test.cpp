// No tests: gtest_main runs none and exits 0.
#include <gtest/gtest.h>
