// Writeback hints for AtomicFile (see dag_file.h). Our own glue: a system call wrapper.
#define _GNU_SOURCE
#include <fcntl.h>
#include "dag_file.h"

int dag_start_writeback(int fd) {
#ifdef SYNC_FILE_RANGE_WRITE
    return sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE);
#else
    (void)fd;
    return 0;
#endif
}
