// Status codes shared by the C bridges to libjpeg, libpng and libtiff.
#ifndef DAG_STATUS_H
#define DAG_STATUS_H

/// What a bridge call reports. Every call that can fail returns one of these; the message
/// that goes with a failure is in the handle's message buffer (`dag_*_message`).
typedef enum dag_status {
    DAG_OK = 0,
    /// The library refused the data (bad marker, CRC, zlib or Huffman error...).
    DAG_CORRUPT = 1,
    /// The data ended before the format said it would.
    DAG_TRUNCATED = 2,
    /// A file could not be read or written (errno-style failure, disk full).
    DAG_IO = 3,
    /// The data is valid but uses a feature the bridge does not handle.
    DAG_UNSUPPORTED = 4,
    /// The library ran out of memory or hit a size limit.
    DAG_TOO_LARGE = 5,
} dag_status;

#endif
