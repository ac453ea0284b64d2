/*
 * fmt.c - freestanding printf engine (see fmt.h for what it supports).
 *
 * Written for the firmware, where newlib-nano printf lacks %llu and pulls in
 * syscalls; the host builds use the same code so that records printed by a
 * simulator run are byte-identical to the firmware's.
 */
#include "lib/fmt.h"

#include <stdint.h>

struct spec {
	int left, zero, plus, space;
	int width;
	int prec; /* -1: none */
};

static int emit(fmt_out_fn out, void *ctx, char c)
{
	out(c, ctx);
	return 1;
}

static int emit_padded(fmt_out_fn out, void *ctx, const struct spec *s,
		       const char *sign, const char *digits, int ndigits)
{
	int n = 0, i;
	int signlen = 0;
	int zeros = 0;
	int body;

	while (sign[signlen])
		signlen++;
	if (s->prec > ndigits)
		zeros = s->prec - ndigits;
	body = signlen + zeros + ndigits;
	if (!s->left && s->zero && s->prec < 0 && s->width > body) {
		zeros += s->width - body;
		body = s->width;
	}
	if (!s->left)
		for (i = body; i < s->width; i++)
			n += emit(out, ctx, ' ');
	for (i = 0; i < signlen; i++)
		n += emit(out, ctx, sign[i]);
	for (i = 0; i < zeros; i++)
		n += emit(out, ctx, '0');
	for (i = 0; i < ndigits; i++)
		n += emit(out, ctx, digits[i]);
	if (s->left)
		for (i = body; i < s->width; i++)
			n += emit(out, ctx, ' ');
	return n;
}

/* Digits of v in base, most significant first; returns the count. */
static int utoa(unsigned long long v, unsigned base, int upper, char *tmp)
{
	const char *dig = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char rev[24];
	int n = 0, i;

	do {
		rev[n++] = dig[v % base];
		v /= base;
	} while (v);
	for (i = 0; i < n; i++)
		tmp[i] = rev[n - 1 - i];
	return n;
}

static int emit_float(fmt_out_fn out, void *ctx, const struct spec *s, double v)
{
	char digits[48];
	const char *sign = "";
	unsigned long long ip, fp, scale = 1;
	int prec = s->prec < 0 ? 6 : s->prec;
	int n, i;

	if (prec > 9)
		prec = 9;
	if (v != v) {
		struct spec t = *s;
		t.zero = 0;
		return emit_padded(out, ctx, &t, "", "nan", 3);
	}
	if (v < 0) {
		sign = "-";
		v = -v;
	} else if (s->plus) {
		sign = "+";
	} else if (s->space) {
		sign = " ";
	}
	if (v > 1.8e19) {
		struct spec t = *s;
		t.zero = 0;
		return emit_padded(out, ctx, &t, sign, "inf", 3);
	}
	for (i = 0; i < prec; i++)
		scale *= 10;
	ip = (unsigned long long)v;
	fp = (unsigned long long)((v - (double)ip) * (double)scale + 0.5);
	if (fp >= scale) {
		ip++;
		fp -= scale;
	}
	n = utoa(ip, 10, 0, digits);
	if (prec > 0) {
		char f[16];
		int fn = utoa(fp, 10, 0, f);

		digits[n++] = '.';
		for (i = fn; i < prec; i++)
			digits[n++] = '0';
		for (i = 0; i < fn; i++)
			digits[n++] = f[i];
	}
	{
		struct spec t = *s;
		t.prec = -1;
		return emit_padded(out, ctx, &t, sign, digits, n);
	}
}

/* A conversion's flags, width, precision and length modifier, from just
 * after the '%'; *fmt is left at the conversion character. */
static void parse_spec(const char **fmt, va_list *ap, struct spec *s, int *lng,
		       int *size_t_mod)
{
	const char *f = *fmt;

	for (;; f++) {
		if (*f == '-')
			s->left = 1;
		else if (*f == '0')
			s->zero = 1;
		else if (*f == '+')
			s->plus = 1;
		else if (*f == ' ')
			s->space = 1;
		else
			break;
	}
	if (*f == '*') {
		s->width = va_arg(*ap, int);
		if (s->width < 0) {
			s->left = 1;
			s->width = -s->width;
		}
		f++;
	} else {
		while (*f >= '0' && *f <= '9')
			s->width = s->width * 10 + (*f++ - '0');
	}
	if (*f == '.') {
		f++;
		s->prec = 0;
		if (*f == '*') {
			s->prec = va_arg(*ap, int);
			f++;
		} else {
			while (*f >= '0' && *f <= '9')
				s->prec = s->prec * 10 + (*f++ - '0');
		}
	}
	while (*f == 'l' || *f == 'z' || *f == 'h') {
		if (*f == 'l')
			(*lng)++;
		else if (*f == 'z')
			*size_t_mod = 1;
		f++;
	}
	*fmt = f;
}

/* %d and %i. */
static int emit_signed(fmt_out_fn out, void *ctx, const struct spec *s, int lng,
		       int size_t_mod, va_list *ap)
{
	long long v;
	char d[24];
	int nd;
	const char *sign = "";
	unsigned long long u;

	if (lng >= 2)
		v = va_arg(*ap, long long);
	else if (lng == 1)
		v = va_arg(*ap, long);
	else if (size_t_mod)
		v = (long long)va_arg(*ap, ptrdiff_t);
	else
		v = va_arg(*ap, int);
	if (v < 0) {
		sign = "-";
		u = (unsigned long long)(-(v + 1)) + 1;
	} else {
		u = (unsigned long long)v;
		sign = s->plus ? "+" : (s->space ? " " : "");
	}
	nd = (s->prec == 0 && u == 0) ? 0 : utoa(u, 10, 0, d);
	return emit_padded(out, ctx, s, sign, d, nd);
}

/* %u, %x, %X and %o. */
static int emit_unsigned(fmt_out_fn out, void *ctx, const struct spec *s, char c, int lng,
			 int size_t_mod, va_list *ap)
{
	unsigned long long u;
	char d[24];
	int nd;
	unsigned base = c == 'u' ? 10 : (c == 'o' ? 8 : 16);

	if (lng >= 2)
		u = va_arg(*ap, unsigned long long);
	else if (lng == 1)
		u = va_arg(*ap, unsigned long);
	else if (size_t_mod)
		u = va_arg(*ap, size_t);
	else
		u = va_arg(*ap, unsigned int);
	nd = (s->prec == 0 && u == 0) ? 0 : utoa(u, base, c == 'X', d);
	return emit_padded(out, ctx, s, "", d, nd);
}

/* One conversion c with its spec s; 0 characters for the end of the
 * format ('\0'). */
static int emit_conversion(fmt_out_fn out, void *ctx, struct spec *s, char c, int lng,
			   int size_t_mod, va_list *ap)
{
	switch (c) {
	case 'd':
	case 'i':
		return emit_signed(out, ctx, s, lng, size_t_mod, ap);
	case 'u':
	case 'x':
	case 'X':
	case 'o':
		return emit_unsigned(out, ctx, s, c, lng, size_t_mod, ap);
	case 'p': {
		char d[24];
		int nd = utoa((uintptr_t)va_arg(*ap, void *), 16, 0, d);

		return emit_padded(out, ctx, s, "0x", d, nd);
	}
	case 'c': {
		char ch = (char)va_arg(*ap, int);

		s->prec = -1;
		s->zero = 0;
		return emit_padded(out, ctx, s, "", &ch, 1);
	}
	case 's': {
		const char *str = va_arg(*ap, const char *);
		int len = 0;

		if (!str)
			str = "(null)";
		while (str[len] && (s->prec < 0 || len < s->prec))
			len++;
		s->prec = -1;
		s->zero = 0;
		return emit_padded(out, ctx, s, "", str, len);
	}
	case 'f':
		return emit_float(out, ctx, s, va_arg(*ap, double));
	case '%':
		return emit(out, ctx, '%');
	case '\0':
		return 0;
	default: {
		int n = emit(out, ctx, '%');

		return n + emit(out, ctx, c);
	}
	}
}

int fmt_vformat(fmt_out_fn out, void *ctx, const char *fmt, va_list ap)
{
	va_list aq;
	int n = 0;

	/* A copy whose address can be passed on (va_list may be an array). */
	va_copy(aq, ap);
	while (*fmt) {
		struct spec s = { 0, 0, 0, 0, 0, -1 };
		int lng = 0, size_t_mod = 0;
		char c;

		if (*fmt != '%') {
			n += emit(out, ctx, *fmt++);
			continue;
		}
		fmt++;
		parse_spec(&fmt, &aq, &s, &lng, &size_t_mod);
		c = *fmt ? *fmt++ : '\0';
		if (c == '\0')
			break;
		n += emit_conversion(out, ctx, &s, c, lng, size_t_mod, &aq);
	}
	va_end(aq);
	return n;
}

struct buf_ctx {
	char *buf;
	size_t cap;
	size_t len;
};

static void buf_out(char c, void *p)
{
	struct buf_ctx *b = p;

	if (b->cap && b->len + 1 < b->cap)
		b->buf[b->len] = c;
	b->len++;
}

int fmt_vsnprintf(char *buf, size_t cap, const char *fmt, va_list ap)
{
	struct buf_ctx b = { buf, cap, 0 };
	int n = fmt_vformat(buf_out, &b, fmt, ap);

	if (cap)
		buf[b.len < cap ? b.len : cap - 1] = '\0';
	return n;
}

int fmt_snprintf(char *buf, size_t cap, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = fmt_vsnprintf(buf, cap, fmt, ap);
	va_end(ap);
	return n;
}

void fmt_append(char *buf, size_t cap, size_t *n, const char *fmt, ...)
{
	va_list ap;

	if (*n + 1 >= cap)
		return;
	va_start(ap, fmt);
	*n += (size_t)fmt_vsnprintf(buf + *n, cap - *n, fmt, ap);
	va_end(ap);
	if (*n >= cap)
		*n = cap - 1;
}

const char *fmt_size(char *buf, size_t cap, uint64_t bytes, enum fmt_size_style style)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	static const char *const key[] = { "", "k", "m", "g", "t" };
	unsigned u = 0;
	uint64_t div = 1;

	if (style == FMT_SIZE_ABOUT) {
		while (u < 4 && bytes >= div * 1024u) {
			div *= 1024u;
			u++;
		}
		if (bytes % div)
			fmt_snprintf(buf, cap, "%llu.%02u %s",
				     (unsigned long long)(bytes / div),
				     (unsigned)((bytes % div) * 100u / div), unit[u]);
		else
			fmt_snprintf(buf, cap, "%llu %s", (unsigned long long)(bytes / div),
				     unit[u]);
		return buf;
	}
	while (u < 4 && bytes && bytes % (div * 1024u) == 0) {
		div *= 1024u;
		u++;
	}
	fmt_snprintf(buf, cap, style == FMT_SIZE_KEY ? "%llu%s" : "%llu %s",
		     (unsigned long long)(bytes / div),
		     style == FMT_SIZE_KEY ? key[u] : unit[u]);
	return buf;
}
