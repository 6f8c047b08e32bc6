module example.com/hangdemo

go 1.22
