/*
 * err.h - the project's error codes: negative errno values from <errno.h>
 * (newlib on the target, glibc on the host; the numbers differ, the names
 * don't, so print them with err_name(), never as numbers alone).
 */
#ifndef SDB_LIB_ERR_H
#define SDB_LIB_ERR_H

#include <errno.h>

#ifndef ENOTSUP
#define ENOTSUP EOPNOTSUPP
#endif

/* "ETIMEDOUT" for -ETIMEDOUT or ETIMEDOUT; "E?" for unknown codes. */
const char *err_name(int code);
/* A short human phrase: "timed out", "CRC error", ... */
const char *err_text(int code);

#endif
