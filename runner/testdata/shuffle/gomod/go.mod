module example.com/shuffle

go 1.22
