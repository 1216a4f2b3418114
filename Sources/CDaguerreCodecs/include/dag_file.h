// File-system calls Swift's Glibc module does not expose (they need _GNU_SOURCE).
#ifndef DAG_FILE_H
#define DAG_FILE_H

/// Starts writing the file's dirty pages to disk without waiting (Linux sync_file_range with
/// SYNC_FILE_RANGE_WRITE), so that a later fsync has little left to wait for. 0, or -1 with
/// errno set; elsewhere a no-op that returns 0.
int dag_start_writeback(int fd);

#endif
