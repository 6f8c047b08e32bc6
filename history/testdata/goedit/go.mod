module example.com/goedit

go 1.21
