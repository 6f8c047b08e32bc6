module example.com/failures

go 1.22
