// libmicrohttpd needs these before its own header.
#include <stdint.h>
#include <stddef.h>
#include <stdarg.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

// The pid and uid of the process at the other end of a Unix socket (as of its connect). `struct ucred`
// is declared only with _GNU_SOURCE, which the Swift Glibc module is not built with, so the layout is
// spelled out here.
static inline int chime_peer_credentials(int fd, pid_t *pid, uid_t *uid) {
    struct { pid_t pid; uid_t uid; gid_t gid; } credentials;
    socklen_t length = sizeof(credentials);
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) return -1;
    *pid = credentials.pid;
    *uid = credentials.uid;
    return 0;
}

// MHD_get_connection_info is variadic, which Swift cannot call: the connection's socket, or -1.
static inline int chime_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

// epoll: the server watches its streams' sockets for hangups (HangupWatcher).
#include <sys/epoll.h>
