// What Glibc's Swift module leaves out and SystemCalls needs: epoll (the bench's floor) and malloc_trim.
#include <malloc.h>
#include <sys/epoll.h>
