/*
 * libc.c - the few C library functions the firmware needs (the target is
 * built freestanding without newlib; host builds use the system libc).
 * GCC may also emit calls to memcpy/memset/memmove for structure copies.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

void *memcpy(void *dst, const void *src, size_t n)
{
	uint8_t *d = dst;
	const uint8_t *s = src;

	if ((((uintptr_t)d | (uintptr_t)s) & 3) == 0) {
		uint32_t *dw = (uint32_t *)d;
		const uint32_t *sw = (const uint32_t *)s;

		for (; n >= 4; n -= 4)
			*dw++ = *sw++;
		d = (uint8_t *)dw;
		s = (const uint8_t *)sw;
	}
	while (n--)
		*d++ = *s++;
	return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
	uint8_t *d = dst;
	const uint8_t *s = src;

	if (d == s || n == 0)
		return dst;
	if (d < s || d >= s + n)
		return memcpy(dst, src, n);
	while (n--)
		d[n] = s[n];
	return dst;
}

void *memset(void *dst, int c, size_t n)
{
	uint8_t *d = dst;

	while (n && ((uintptr_t)d & 3)) {
		*d++ = (uint8_t)c;
		n--;
	}
	if (n >= 4) {
		uint32_t w = (uint8_t)c * 0x01010101u;
		uint32_t *dw = (uint32_t *)d;

		/* Four words a turn: the card layer clears a request (about
		 * 100 bytes) for every command, so this is on the request path. */
		for (; n >= 16; n -= 16, dw += 4) {
			dw[0] = w;
			dw[1] = w;
			dw[2] = w;
			dw[3] = w;
		}
		for (; n >= 4; n -= 4)
			*dw++ = w;
		d = (uint8_t *)dw;
	}
	while (n--)
		*d++ = (uint8_t)c;
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const uint8_t *x = a, *y = b;

	for (; n; n--, x++, y++)
		if (*x != *y)
			return *x - *y;
	return 0;
}

size_t strlen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

int strcmp(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return (unsigned char)*a - (unsigned char)*b;
}

int strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++) {
		if (*a != *b)
			return (unsigned char)*a - (unsigned char)*b;
		if (!*a)
			return 0;
	}
	return 0;
}

char *strchr(const char *s, int c)
{
	for (;; s++) {
		if (*s == (char)c)
			return (char *)s;
		if (!*s)
			return 0;
	}
}

char *strstr(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	for (; *hay; hay++)
		if (!strncmp(hay, needle, n))
			return (char *)hay;
	return n ? 0 : (char *)hay;
}
