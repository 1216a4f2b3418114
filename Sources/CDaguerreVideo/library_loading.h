// How the video loaders open a library on first use (video_loader.c defines these; each
// library's forwarders use them). Private to CDaguerreVideo.
#ifndef DAG_LIBRARY_LOADING_H
#define DAG_LIBRARY_LOADING_H

#include <pthread.h>
#include <stdio.h>

#define DAG_HIDDEN __attribute__((visibility("hidden")))

/// How loading one API's libraries went: `error` is NULL once every library and symbol is
/// there, else says why not (in `message`).
typedef struct {
    const char *error;
    char message[512];
} dag_load_state;

/// Opens `soname` privately (RTLD_LOCAL), unless an earlier step failed; on failure records
/// dlerror and the Debian package to install.
DAG_HIDDEN void *dag_open_library(dag_load_state *state, const char *soname, const char *package);
/// The symbol `name` of `library`; the first one missing is recorded.
DAG_HIDDEN void *dag_resolve(dag_load_state *state, void *library, const char *soname, const char *name);
/// Runs `load` once (whichever thread calls first) and says why the API is unavailable, or NULL.
DAG_HIDDEN const char *dag_load_once(pthread_once_t *once, void (*load)(void), const dag_load_state *state);

#endif
