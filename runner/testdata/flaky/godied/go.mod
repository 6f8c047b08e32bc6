module example.com/godied

go 1.22
