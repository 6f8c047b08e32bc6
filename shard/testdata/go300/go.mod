module example.com/go300

go 1.22
