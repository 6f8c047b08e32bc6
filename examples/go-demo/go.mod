module example.com/godemo

go 1.22
