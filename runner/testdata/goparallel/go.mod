module goparallel

go 1.22
