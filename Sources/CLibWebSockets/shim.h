// The server and client contexts run on a libev loop they own (LWSEventLoop), which lws drives through
// its evlib_ev plugin (LWS_SERVER_OPTION_LIBEV with a foreign loop).
#include <ev.h>
#include <libwebsockets.h>

// LWS_PRE is a computed macro Swift cannot import: the headroom lws_write needs before a payload.
enum { SHIM_LWS_PRE = LWS_PRE };

// A libev timer that carries its owner and an id, because a libev callback receives only the watcher
// pointer and a Swift callback can capture nothing. `watcher` must stay the first member so the callback's
// pointer is also a pointer to the whole timer, and the timer must not move while it is started.
typedef struct shim_ev_timer {
    ev_timer watcher;
    void *owner;
    uint64_t id;
} shim_ev_timer;

typedef void (*shim_ev_timer_callback)(struct ev_loop *loop, ev_timer *watcher, int revents);

// ev_timer_init is a macro Swift cannot import. Starts `timer` to fire after `seconds` (then every
// `repeat` seconds if that is positive), counted from now rather than from the start of this loop pass.
static inline void shim_ev_timer_start(struct ev_loop *loop, shim_ev_timer *timer, double seconds, double repeat,
                                       shim_ev_timer_callback callback) {
    ev_timer_init(&timer->watcher, callback, seconds, repeat);
    ev_now_update(loop);
    ev_timer_start(loop, &timer->watcher);
}

static inline void shim_ev_timer_stop(struct ev_loop *loop, shim_ev_timer *timer) {
    ev_timer_stop(loop, &timer->watcher);
}

static inline shim_ev_timer *shim_ev_timer_from_watcher(ev_timer *watcher) {
    return (shim_ev_timer *)watcher;
}

// lws keeps the per-session user memory as raw bytes; it holds one 64-bit connection id.
static inline uint64_t shim_lws_session_id(void *user) {
    return user ? *(uint64_t *)user : 0;
}

static inline void shim_lws_set_session_id(void *user, uint64_t id) {
    if (user)
        *(uint64_t *)user = id;
}
