// Files with no name until they are complete: Linux's O_TMPFILE and linkat.
#ifndef DAG_ANONYMOUS_FILE_H
#define DAG_ANONYMOUS_FILE_H

/// Opens an unnamed regular file in `directory` for reading and writing (O_TMPFILE, mode 0644).
/// It has no name, so nothing is visible until `dag_anonymous_link`, and a process killed
/// before that leaves nothing behind: the kernel frees the file with its last descriptor.
/// The descriptor, or -1 with errno set (EOPNOTSUPP, EISDIR or EINVAL where the file system or
/// the kernel has no O_TMPFILE).
int dag_anonymous_open(const char *directory);

/// Gives the unnamed file open on `fd` the name `path` (in the directory it was opened in).
/// Fails with EEXIST when `path` exists: it never replaces a file. 0, or -1 with errno set.
int dag_anonymous_link(int fd, const char *path);

/// Renames `from` to `to` only if `to` does not exist (renameat2 RENAME_NOREPLACE). 0, or -1
/// with errno set (EEXIST when it does; EINVAL or ENOSYS where the file system cannot).
int dag_rename_noreplace(const char *from, const char *to);

#endif
