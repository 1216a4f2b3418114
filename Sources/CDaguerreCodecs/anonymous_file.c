// Unnamed files linked into place (see dag_anonymous_file.h). The glibc wrappers take constants
// that Swift cannot import (O_TMPFILE is a compound macro), so these three calls live here.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include "dag_anonymous_file.h"

int dag_anonymous_open(const char *directory) {
#ifdef O_TMPFILE
    return open(directory, O_TMPFILE | O_RDWR | O_CLOEXEC, 0644);
#else
    (void)directory;
    errno = EOPNOTSUPP;
    return -1;
#endif
}

int dag_anonymous_link(int fd, const char *path) {
#ifdef __linux__
    // Through /proc (any user); where /proc is missing, by the descriptor itself, which needs
    // CAP_DAC_READ_SEARCH.
    char proc[64];
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
    if (linkat(AT_FDCWD, proc, AT_FDCWD, path, AT_SYMLINK_FOLLOW) == 0) return 0;
    if (errno != ENOENT) return -1;
    return linkat(fd, "", AT_FDCWD, path, AT_EMPTY_PATH);
#else
    (void)fd;
    (void)path;
    errno = ENOSYS;
    return -1;
#endif
}

int dag_rename_noreplace(const char *from, const char *to) {
#if defined(__linux__) && defined(RENAME_NOREPLACE)
    return renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE);
#else
    (void)from;
    (void)to;
    errno = ENOSYS;
    return -1;
#endif
}
