/*
 * err.c - names and phrases for error codes.
 */
#include "lib/err.h"

struct err_entry {
	int code;
	const char *name;
	const char *text;
};

static const struct err_entry errs[] = {
	{ ETIMEDOUT, "ETIMEDOUT", "timed out" },
	{ EIO, "EIO", "I/O error" },
	{ EILSEQ, "EILSEQ", "CRC error" },
	{ EINVAL, "EINVAL", "invalid argument" },
	{ ENOTSUP, "ENOTSUP", "not supported" },
	{ EROFS, "EROFS", "card is write-protected" },
	{ ENOMEDIUM, "ENOMEDIUM", "no card" },
	{ EBUSY, "EBUSY", "busy" },
	{ ENODEV, "ENODEV", "no such device" },
	{ ERANGE, "ERANGE", "out of range" },
	{ ENOSPC, "ENOSPC", "no usable space" },
	{ EPROTO, "EPROTO", "protocol error" },
	{ EFAULT, "EFAULT", "bad address" },
	{ ECANCELED, "ECANCELED", "cancelled" },
	{ EPERM, "EPERM", "not permitted" },
	{ ENOENT, "ENOENT", "not found" },
};

static const struct err_entry *find(int code)
{
	unsigned i;

	if (code < 0)
		code = -code;
	for (i = 0; i < sizeof(errs) / sizeof(errs[0]); i++)
		if (errs[i].code == code)
			return &errs[i];
	return 0;
}

const char *err_name(int code)
{
	const struct err_entry *e = find(code);

	return e ? e->name : "E?";
}

const char *err_text(int code)
{
	const struct err_entry *e = find(code);

	return e ? e->text : "unknown error";
}
