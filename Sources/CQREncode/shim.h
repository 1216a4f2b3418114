// libqrencode (QR Code, ISO/IEC 18004) for Swift: its C API as it is.
#include <qrencode.h>
