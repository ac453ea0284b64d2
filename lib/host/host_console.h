/*
 * host_console.h - host-only console capture (see console_stdout.c).
 */
#ifndef SDB_LIB_HOST_CONSOLE_H
#define SDB_LIB_HOST_CONSOLE_H

/* When set, every console character goes here instead of stdout. */
extern void (*host_console_hook)(char c);

#endif
