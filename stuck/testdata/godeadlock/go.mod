module godeadlock

go 1.22
