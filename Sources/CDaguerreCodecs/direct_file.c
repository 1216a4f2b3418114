// Output files written past the page cache (see dag_direct_file.h). Our own glue: no library
// offers a seekable O_DIRECT sink that libtiff, libjpeg and libpng can all write through, so it
// is written here, on POSIX calls only.
//
// A full stage is written by a thread of its own while the caller fills the other stage, so a
// direct write's wait for the device (about 1.5 ms per 4 MiB here) does not hold up the
// encoder's thread; the caller waits only when it fills a stage before the last one is out.
//
// The model: bytes [0, stage_start) are in the file, bytes [stage_start, size) are in the
// staging buffer, and stage_start is a multiple of the block size. Appends fill the stage; a
// full stage goes out in one aligned write. The rare writes and reads before stage_start (a
// header patched at the end) go through the page cache with O_DIRECT switched off for that one
// call; the kernel keeps the two paths coherent (a direct write or read flushes and drops the
// cached pages of its range first).
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>
#include "dag_direct_file.h"

/// The alignment of direct writes' offsets, lengths and memory: a page, which every Linux
/// block device and file system that takes O_DIRECT accepts.
#define DAG_BLOCK ((uint64_t)4096)
/// The staging buffer. Writes of 4 MiB cost the least per byte in a test of 512 KiB to 4 MiB.
#define DAG_STAGE ((uint64_t)4 << 20)

struct dag_direct_file {
    int fd;
    int direct;
    int error;
    uint8_t *stage;
    uint64_t stage_start;
    uint64_t size;
    uint64_t position;
    /* The background writer: the other stage buffer, and the stage in flight. Between
       `busy` set and cleared (under `lock`) only the writer touches the descriptor and `direct`. */
    uint8_t *spare;
    pthread_t writer;
    int writer_started, busy, quit, flight_error;
    const uint8_t *flight;
    uint64_t flight_offset;
    pthread_mutex_t lock;
    pthread_cond_t changed;
};

static int set_direct(int fd, int on) {
#ifdef O_DIRECT
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0) return -1;
    int wanted = on ? (flags | O_DIRECT) : (flags & ~O_DIRECT);
    return wanted == flags ? 0 : fcntl(fd, F_SETFL, wanted);
#else
    (void)fd;
    if (on) { errno = EINVAL; return -1; }
    return 0;
#endif
}

static int wait_idle(dag_direct_file *f);

static int64_t fail(dag_direct_file *f, int code) {
    if (!f->error) f->error = code ? code : EIO;
    errno = f->error;
    return -1;
}

dag_direct_file *dag_direct_open(int fd, int allow_direct) {
    dag_direct_file *f = calloc(1, sizeof *f);
    if (!f) return NULL;
    void *stage = NULL;
    if (posix_memalign(&stage, (size_t)DAG_BLOCK, (size_t)DAG_STAGE) != 0) { free(f); return NULL; }
    f->fd = fd;
    f->stage = stage;
    f->direct = allow_direct && set_direct(fd, 1) == 0;
    pthread_mutex_init(&f->lock, NULL);
    pthread_cond_init(&f->changed, NULL);
    return f;
}

void dag_direct_free(dag_direct_file *f) {
    if (!f) return;
    if (f->writer_started) {
        pthread_mutex_lock(&f->lock);
        f->quit = 1;
        pthread_cond_broadcast(&f->changed);
        pthread_mutex_unlock(&f->lock);
        pthread_join(f->writer, NULL);
    }
    pthread_mutex_destroy(&f->lock);
    pthread_cond_destroy(&f->changed);
    free(f->stage);
    free(f->spare);
    free(f);
}

int dag_direct_error(const dag_direct_file *f) { return f ? f->error : 0; }

int dag_direct_is_direct(const dag_direct_file *f) { return f->direct; }
uint64_t dag_direct_size(const dag_direct_file *f) { return f->size; }

/// Writes `length` bytes at `offset` in full. A direct write the file system turns down with
/// EINVAL (an alignment it does not take) switches the file to the page cache for good.
static int put(dag_direct_file *f, const uint8_t *bytes, uint64_t length, uint64_t offset) {
    while (length > 0) {
        ssize_t n = pwrite(f->fd, bytes, (size_t)length, (off_t)offset);
        if (n < 0) {
            if (errno == EINTR) continue;
            if (errno == EINVAL && f->direct && set_direct(f->fd, 0) == 0) { f->direct = 0; continue; }
            return -1;
        }
        if (n == 0) { errno = EIO; return -1; }
        bytes += n; length -= (uint64_t)n; offset += (uint64_t)n;
    }
    return 0;
}

/// Runs one page-cache transfer on the part of the file before the stage.
static int64_t through_cache(dag_direct_file *f, void *bytes, uint64_t length, uint64_t offset, int writing) {
    if (wait_idle(f) != 0) return -1;
    if (f->direct && set_direct(f->fd, 0) != 0) return -1;
    int64_t result = 0;
    if (writing) {
        result = put(f, bytes, length, offset) == 0 ? (int64_t)length : -1;
    } else {
        while ((uint64_t)result < length) {
            ssize_t n = pread(f->fd, (uint8_t *)bytes + result, (size_t)(length - (uint64_t)result), (off_t)(offset + (uint64_t)result));
            if (n < 0 && errno == EINTR) continue;
            if (n < 0) { result = -1; break; }
            if (n == 0) break;
            result += n;
        }
    }
    int saved = errno;
    if (f->direct && set_direct(f->fd, 1) != 0) f->direct = 0;
    errno = saved;
    return result;
}

/// Writes one full stage; through the page cache, starts its writeback so that the final
/// fsync waits for less.
static int put_stage(dag_direct_file *f, const uint8_t *stage, uint64_t offset) {
    if (put(f, stage, DAG_STAGE, offset) != 0) return -1;
#ifdef SYNC_FILE_RANGE_WRITE
    if (!f->direct) (void)sync_file_range(f->fd, (off_t)offset, (off_t)DAG_STAGE, SYNC_FILE_RANGE_WRITE);
#endif
    return 0;
}

static void *writer_main(void *argument) {
    dag_direct_file *f = argument;
    pthread_mutex_lock(&f->lock);
    for (;;) {
        while (!f->busy && !f->quit) pthread_cond_wait(&f->changed, &f->lock);
        if (!f->busy) break;
        const uint8_t *stage = f->flight;
        uint64_t offset = f->flight_offset;
        pthread_mutex_unlock(&f->lock);
        int failed = put_stage(f, stage, offset) != 0 ? errno : 0;
        pthread_mutex_lock(&f->lock);
        if (failed && !f->flight_error) f->flight_error = failed;
        f->busy = 0;
        pthread_cond_broadcast(&f->changed);
    }
    pthread_mutex_unlock(&f->lock);
    return NULL;
}

/// Waits until no stage is in flight; its error, if any, becomes the file's.
static int wait_idle(dag_direct_file *f) {
    if (!f->writer_started) return f->error ? -1 : 0;
    pthread_mutex_lock(&f->lock);
    while (f->busy) pthread_cond_wait(&f->changed, &f->lock);
    int failed = f->flight_error;
    f->flight_error = 0;
    pthread_mutex_unlock(&f->lock);
    if (failed && !f->error) f->error = failed;
    if (f->error) { errno = f->error; return -1; }
    return 0;
}

/// Sends the full stage to the file, in the background where a second buffer and a thread
/// can be had (else right here), and starts an empty one after it.
static int flush_full_stage(dag_direct_file *f) {
    if (wait_idle(f) != 0) return -1;
    if (!f->spare) {
        void *spare = NULL;
        if (posix_memalign(&spare, (size_t)DAG_BLOCK, (size_t)DAG_STAGE) == 0) f->spare = spare;
    }
    if (f->spare && !f->writer_started && pthread_create(&f->writer, NULL, writer_main, f) == 0) f->writer_started = 1;
    if (!f->spare || !f->writer_started) {
        if (put_stage(f, f->stage, f->stage_start) != 0) return -1;
    } else {
        pthread_mutex_lock(&f->lock);
        f->flight = f->stage;
        f->flight_offset = f->stage_start;
        f->busy = 1;
        pthread_cond_broadcast(&f->changed);
        pthread_mutex_unlock(&f->lock);
        uint8_t *next = f->spare;
        f->spare = f->stage;
        f->stage = next;
    }
    f->stage_start += DAG_STAGE;
    return 0;
}

/// Extends the staged bytes to `end` (at most the stage's end), with zeros for a gap.
static int fill_to(dag_direct_file *f, uint64_t end, const uint8_t **bytes) {
    while (f->size < end) {
        if (f->size == f->stage_start + DAG_STAGE && flush_full_stage(f) != 0) return -1;
        uint64_t stop = end < f->stage_start + DAG_STAGE ? end : f->stage_start + DAG_STAGE;
        uint8_t *at = f->stage + (f->size - f->stage_start);
        if (bytes) { memcpy(at, *bytes, (size_t)(stop - f->size)); *bytes += stop - f->size; }
        else memset(at, 0, (size_t)(stop - f->size));
        f->size = stop;
    }
    return 0;
}

int64_t dag_direct_write(dag_direct_file *f, const void *bytes, size_t size) {
    if (f->error) return fail(f, f->error);
    if (size == 0) return 0;
    uint64_t at = f->position, end = at + size;
    if (end < at || end > (uint64_t)INT64_MAX) return fail(f, EFBIG);
    const uint8_t *p = bytes;
    if (at < f->stage_start) {
        uint64_t k = size < f->stage_start - at ? size : f->stage_start - at;
        if (through_cache(f, (void *)p, k, at, 1) < 0) return fail(f, errno);
        p += k; at += k;
    }
    if (at > f->size && fill_to(f, at, NULL) != 0) return fail(f, errno);
    /* Overwrite what is staged already, then append. */
    if (at < f->size) {
        uint64_t stop = end < f->size ? end : f->size;
        memcpy(f->stage + (at - f->stage_start), p, (size_t)(stop - at));
        p += stop - at; at = stop;
    }
    if (at < end && fill_to(f, end, &p) != 0) return fail(f, errno);
    f->position = end;
    return (int64_t)size;
}

int64_t dag_direct_read(dag_direct_file *f, void *bytes, size_t size) {
    if (f->error) return fail(f, f->error);
    uint64_t at = f->position;
    if (at >= f->size || size == 0) return 0;
    uint64_t end = f->size - at < size ? f->size : at + size;
    uint8_t *p = bytes;
    if (at < f->stage_start) {
        uint64_t stop = end < f->stage_start ? end : f->stage_start;
        int64_t n = through_cache(f, p, stop - at, at, 0);
        if (n < 0) return fail(f, errno);
        p += n; at += (uint64_t)n;
        if (at < stop) end = at;   /* the file ended early: return what was read */
    }
    if (at < end) { memcpy(p, f->stage + (at - f->stage_start), (size_t)(end - at)); p += end - at; at = end; }
    f->position = at;
    return (int64_t)(p - (uint8_t *)bytes);
}

int64_t dag_direct_seek(dag_direct_file *f, int64_t offset, int whence) {
    int64_t base;
    switch (whence) {
    case SEEK_SET: base = 0; break;
    case SEEK_CUR: base = (int64_t)f->position; break;
    case SEEK_END: base = (int64_t)f->size; break;
    default: errno = EINVAL; return -1;
    }
    if ((offset > 0 && base > INT64_MAX - offset) || base + offset < 0) { errno = EINVAL; return -1; }
    f->position = (uint64_t)(base + offset);
    return (int64_t)f->position;
}

int dag_direct_flush(dag_direct_file *f) {
    if (wait_idle(f) != 0) return (int)fail(f, errno);
    uint64_t staged = f->size - f->stage_start;
    if (staged > 0) {
        uint64_t length = staged;
        if (f->direct) {
            length = (staged + DAG_BLOCK - 1) / DAG_BLOCK * DAG_BLOCK;
            memset(f->stage + staged, 0, (size_t)(length - staged));
        }
        if (put(f, f->stage, length, f->stage_start) != 0) return (int)fail(f, errno);
    }
    /* A direct write ends on a whole block; the zeros after the last byte are cut off. */
    if (ftruncate(f->fd, (off_t)f->size) != 0) return (int)fail(f, errno);
    return 0;
}

#if defined(__GLIBC__)
static ssize_t cookie_read(void *cookie, char *buffer, size_t size) {
    return (ssize_t)dag_direct_read(cookie, buffer, size);
}
static ssize_t cookie_write(void *cookie, const char *buffer, size_t size) {
    /* fopencookie: a write function returns 0, never a negative value, on error. */
    int64_t n = dag_direct_write(cookie, buffer, size);
    return n < 0 ? 0 : (ssize_t)n;
}
static int cookie_seek(void *cookie, off64_t *offset, int whence) {
    int64_t p = dag_direct_seek(cookie, *offset, whence);
    if (p < 0) return -1;
    *offset = p;
    return 0;
}
static int cookie_close(void *cookie) { (void)cookie; return 0; }

FILE *dag_direct_stream(dag_direct_file *f) {
    cookie_io_functions_t io = { cookie_read, cookie_write, cookie_seek, cookie_close };
    return fopencookie(f, "w+", io);
}
#else
FILE *dag_direct_stream(dag_direct_file *f) {
    (void)f;
    errno = ENOTSUP;
    return NULL;
}
#endif
