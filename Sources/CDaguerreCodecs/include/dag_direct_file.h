// An output file written past the page cache (O_DIRECT) through an aligned staging buffer.
#ifndef DAG_DIRECT_FILE_H
#define DAG_DIRECT_FILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/// A seekable byte sink on a file descriptor that the caller keeps owning.
///
/// Bytes collect in an aligned staging buffer and reach the file in whole staging-sized writes
/// at aligned offsets, with O_DIRECT when the file system takes it. Written that way, a 144 MB
/// TIFF costs the writing process almost no system time: the page cache, whose fresh pages are
/// what the kernel spends its time on, is bypassed. Where the file system refuses O_DIRECT (at
/// `dag_direct_open` or at the first write), the same calls write through the page cache and
/// start its writeback after each staging flush.
///
/// A full stage goes out from a thread of the file's own while the caller fills a second one,
/// so the caller waits for the device only when it outpaces it.
///
/// Writes may seek anywhere (TIFF and QuickTime patch offsets near the start at the end):
/// bytes already written go through the page cache for that one call.
/// Not thread-safe. Errors are sticky: after one, every call fails with the first errno (an
/// error of a background write is reported by the next call that waits for it, at the latest
/// by `dag_direct_flush`).
typedef struct dag_direct_file dag_direct_file;

/// Wraps `fd` (open for reading and writing, positioned anywhere; the file must be empty).
/// With `allow_direct` 0 it never tries O_DIRECT (the tests cover both paths with it).
/// NULL when memory runs out.
dag_direct_file *dag_direct_open(int fd, int allow_direct);
/// Writes at the current position; `size` on success, -1 with errno set.
int64_t dag_direct_write(dag_direct_file *f, const void *bytes, size_t size);
/// Reads at the current position; the count (0 at the end), or -1 with errno set.
int64_t dag_direct_read(dag_direct_file *f, void *bytes, size_t size);
/// Moves the position (SEEK_SET, SEEK_CUR or SEEK_END of the bytes written so far); the new
/// position, or -1 with errno set (EINVAL for a negative or overflowing one).
int64_t dag_direct_seek(dag_direct_file *f, int64_t offset, int whence);
/// The file's size: the end of the furthest byte written.
uint64_t dag_direct_size(const dag_direct_file *f);
/// Writes what is staged and cuts the file to its size (a direct write ends on a whole block).
/// 0, or -1 with errno set. Writing after it is allowed; call it again at the end.
int dag_direct_flush(dag_direct_file *f);
/// The first error of the file (an errno value, e.g. ENOSPC), or 0.
int dag_direct_error(const dag_direct_file *f);
/// 1 when the file is being written with O_DIRECT.
int dag_direct_is_direct(const dag_direct_file *f);
/// Releases the staging memory; the descriptor stays open. Staged bytes not flushed are lost.
void dag_direct_free(dag_direct_file *f);
/// A stdio stream over the file (fopencookie), for libjpeg, libpng and the movie writer.
/// Closing it flushes the stream's own buffer into `f` but neither flushes `f` nor frees it.
/// NULL with errno set on failure.
FILE *dag_direct_stream(dag_direct_file *f);

#endif
