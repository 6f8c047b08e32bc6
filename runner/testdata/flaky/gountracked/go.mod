module example.com/untracked

go 1.22
