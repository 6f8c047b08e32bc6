module example.com/goinit

go 1.22
