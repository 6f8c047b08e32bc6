module example.com/tracefix

go 1.26
