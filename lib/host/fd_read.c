/*
 * fd_read.c - fd_read_full (fd_read.h).
 */
/* 64-bit file offsets on 32-bit Linux too (armhf: off_t is 32 bits
 * otherwise, and a card's blocks beyond 2 GiB would be out of reach). */
#define _FILE_OFFSET_BITS 64
#include <errno.h>
#include <sys/types.h>
#include <unistd.h>

#include "lib/host/fd_read.h"

_Static_assert(sizeof(off_t) == 8, "off_t must hold a card's byte offsets");

int fd_read_full(int fd, void *buf, size_t len, uint64_t off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = pread(fd, (char *)buf + done, len - done, (off_t)(off + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		done += (size_t)n;
	}
	return 0;
}
