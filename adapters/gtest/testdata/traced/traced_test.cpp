#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

namespace calc {

// How many times parse ran: a global to watch.
long parsed = 0;

struct Op {
  long scale;
  long offset;
};

long parse(const std::string& s) {
  ++parsed;
  try {
    size_t n = 0;
    long v = std::stol(s, &n);
    return n == s.size() ? v : -1;
  } catch (const std::exception&) {
    return -1;
  }
}

// sum adds comma-separated numbers; the bug keeps the comma.
long sum(const std::string& expr) {
  long total = 0;
  size_t start = 0;
  for (size_t i = 0; i < expr.size(); i++) {
    if (expr[i] == ',') {
      total += parse(expr.substr(start, i - start));
      start = i;  // should be i + 1
    }
  }
  return total + parse(expr.substr(start));
}

long apply(Op op, long x) { return x * op.scale + op.offset; }

// apply_all calls apply n times: the loop the benchmarks trace.
long apply_all(long n) {
  Op op{2, 1};
  long total = 0;
  for (long x = 1; x <= n; x++) total += apply(op, x);
  return total;
}

double half(double x) { return x / 2; }

std::string label(const std::string& name, int n) { return name + ":" + std::to_string(n); }

}  // namespace calc

TEST(Calc, SumTwo) { EXPECT_EQ(calc::sum("2,3"), 5); }

TEST(Calc, Loop) {
  const char* env = std::getenv("TRACED_LOOP");
  long n = env ? std::atol(env) : 1000;
  EXPECT_EQ(calc::apply_all(n), n * (n + 1) + n);
}

TEST(Calc, Values) {
  EXPECT_EQ(calc::half(3), 1.5);
  EXPECT_EQ(calc::label("xs", 3), "xs:3");
}
