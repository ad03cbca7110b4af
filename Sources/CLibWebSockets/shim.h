#include <libwebsockets.h>

// LWS_PRE is a computed macro Swift cannot import: the headroom lws_write needs before a payload.
enum { SHIM_LWS_PRE = LWS_PRE };

// A timer for lws_sul_schedule that carries its owner and an id, because the sul callback receives
// only the sul pointer and a Swift callback can capture nothing. `sul` must stay the first member so
// the callback's pointer is also a pointer to the whole timer.
typedef struct shim_lws_timer {
    lws_sorted_usec_list_t sul;
    void *owner;
    uint64_t id;
} shim_lws_timer;

static inline lws_sorted_usec_list_t *shim_lws_timer_sul(shim_lws_timer *timer) {
    return &timer->sul;
}

static inline shim_lws_timer *shim_lws_timer_from_sul(lws_sorted_usec_list_t *sul) {
    return (shim_lws_timer *)sul;
}

// lws keeps the per-session user memory as raw bytes; it holds one 64-bit connection id.
static inline uint64_t shim_lws_session_id(void *user) {
    return user ? *(uint64_t *)user : 0;
}

static inline void shim_lws_set_session_id(void *user, uint64_t id) {
    if (user)
        *(uint64_t *)user = id;
}
