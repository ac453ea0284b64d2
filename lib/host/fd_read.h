/*
 * fd_read.h - read a whole range of a file or block device on a hosted
 * system (Linux): the block-read callbacks of sdarea and sdblinux's probe
 * (bench/storage/blkdev.h) both end here.
 */
#ifndef SDB_LIB_HOST_FD_READ_H
#define SDB_LIB_HOST_FD_READ_H

#include <stddef.h>
#include <stdint.h>

/* len bytes at byte offset off of fd into buf, through pread (the file
 * position is left alone): retried after a signal and after a short read;
 * 0, -errno, or -EIO when the file ends first. */
int fd_read_full(int fd, void *buf, size_t len, uint64_t off);

#endif
