// What Glibc's Swift module leaves out and scroll-bench's floor needs: epoll (Syscall.swift is its only user).
#include <sys/epoll.h>
