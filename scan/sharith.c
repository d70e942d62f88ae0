/*
 * Shell arithmetic as "$((...))" evaluates it: + - * / % and parentheses
 * over integers and variable names, with the shell's overflow and
 * division errors making the result unknown.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>

#include "sh.h"

int
sh_parse_int(const char *s, long long *v)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!isdigit((unsigned char)*s) && *s != '-' && *s != '+')
		return 0;
	errno = 0;
	*v = strtoll(s, &e, 10);
	if (errno != 0 || e == s)
		return 0;
	while (*e == ' ' || *e == '\t')
		e++;
	return *e == '\0';
}

struct arith {
	struct sh	*sh;
	const char	*p;
	int		 ok, depth;
};

static long long	arith_sum(struct arith *);

static void
arith_blank(struct arith *a)
{
	while (*a->p == ' ' || *a->p == '\t' || *a->p == '\n' ||
	    *a->p == SH_HARD_SPACE)
		a->p++;
}

static long long
arith_name(struct arith *a)
{
	const char *s = a->p;
	struct sh_var *v;
	long long n = 0;

	while (sh_is_name_char(*a->p))
		a->p++;
	v = sh_lookup(&a->sh->vars, s, (size_t)(a->p - s));
	if (v == NULL)
		a->ok = a->ok && !a->sh->vars.full;	/* unset is 0 */
	else if (!v->known || (*v->value.s != '\0' && !sh_parse_int(v->value.s,
	    &n)))
		a->ok = 0;
	return n;
}

static long long
arith_atom(struct arith *a)
{
	long long n = 0;
	char *e;

	arith_blank(a);
	if (++a->depth > SH_MAX_DEPTH * 4) {
		a->ok = 0;
		return 0;
	}
	if (*a->p == '(') {
		a->p++;
		n = arith_sum(a);
		arith_blank(a);
		if (*a->p == ')')
			a->p++;
		else
			a->ok = 0;
	} else if (*a->p == '-' || *a->p == '+') {
		int neg = *a->p++ == '-';

		n = arith_atom(a);
		if (neg && __builtin_sub_overflow(0, n, &n))
			a->ok = 0;
	} else if (isdigit((unsigned char)*a->p)) {
		/* Base 0 as in the shell: 010 is 8, 0x10 16, 08 an error. */
		errno = 0;
		n = strtoll(a->p, &e, 0);
		if (errno != 0 || sh_is_name_char(*e))
			a->ok = 0;
		a->p = e;
	} else if (sh_is_name_start(*a->p))
		n = arith_name(a);
	else
		a->ok = 0;
	a->depth--;
	return n;
}

static long long
arith_product(struct arith *a)
{
	long long n = arith_atom(a), m;
	char op;

	for (;;) {
		arith_blank(a);
		op = *a->p;
		if (!a->ok || (op != '*' && op != '/' && op != '%') ||
		    a->p[1] == '=' || (op == '*' && a->p[1] == '*'))
			return n;
		a->p++;
		m = arith_atom(a);
		if (op == '*' ? __builtin_mul_overflow(n, m, &n) :
		    m == 0 || (n == LLONG_MIN && m == -1))
			a->ok = 0;
		else if (op != '*')
			n = op == '/' ? n / m : n % m;
	}
}

static long long
arith_sum(struct arith *a)
{
	long long n = arith_product(a), m;
	char op;

	for (;;) {
		arith_blank(a);
		op = *a->p;
		if (!a->ok || (op != '+' && op != '-') || a->p[1] == op ||
		    a->p[1] == '=')
			return n;
		a->p++;
		m = arith_product(a);
		if (op == '+' ? __builtin_add_overflow(n, m, &n) :
		    __builtin_sub_overflow(n, m, &n))
			a->ok = 0;
	}
}

int
sh_arith(struct sh *sh, const char *s, long long *v)
{
	struct arith a = { .sh = sh, .p = s, .ok = 1 };

	*v = arith_sum(&a);
	arith_blank(&a);
	return a.ok && *a.p == '\0';
}

