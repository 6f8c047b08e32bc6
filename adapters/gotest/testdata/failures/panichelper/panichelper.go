package panichelper

// double is wrong on purpose.
func double(n int) int { return n * 3 }
