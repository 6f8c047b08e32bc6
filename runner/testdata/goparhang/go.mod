module example.com/goparhang

go 1.22
