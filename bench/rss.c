/*
 * rss: what this process has resident, as the kernel counts it.
 *
 *	rss [PATTERN...]
 *
 * A small program that does nothing else; run with and without a preload,
 * the difference is what loading the preload costs a process.  It prints
 * one line of numbers in KiB:
 *
 *	RSS PSS PRIVATE ANON [SIZE_i RSS_i PRIVATE_i]...
 *
 * RSS, PSS and PRIVATE (Private_Clean + Private_Dirty) are the totals of
 * /proc/self/smaps_rollup, ANON its Anonymous.  For each PATTERN, the
 * mappings of /proc/self/smaps whose path contains it, together with the
 * anonymous mapping that directly follows them (a library's .bss beyond the
 * end of its file), are summed: their address-space Size, their Rss and
 * their private part.
 *
 * The files are read with read(2) into a static buffer: no stdio buffer or
 * malloc arena of our own adds to what is measured.
 */
#define _GNU_SOURCE	/* memmem */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAXPAT	8

static char buf[1 << 20];

static const char *
slurp(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t len = 0;
	ssize_t n;

	if (fd == -1) {
		perror(path);
		exit(1);
	}
	while (len < sizeof(buf) - 1 &&
	    (n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += (size_t)n;
	close(fd);
	buf[len] = '\0';
	return buf;
}

/* The value in kB of the first "NAME: N kB" line at or after P. */
static long
field(const char *p, const char *name)
{
	size_t len = strlen(name);

	for (; p != NULL && *p != '\0'; p = strchr(p, '\n'), p = p ? p + 1 : p)
		if (strncmp(p, name, len) == 0 && p[len] == ':')
			return strtol(p + len + 1, NULL, 10);
	return 0;
}

/* Is the line at P a mapping header ("start-end perms ...")? */
static int
is_header(const char *p, unsigned long *start, unsigned long *end,
    const char **path)
{
	char *q;
	const char *s;
	int fields;

	*start = strtoul(p, &q, 16);
	if (q == p || *q != '-')
		return 0;
	*end = strtoul(q + 1, &q, 16);
	if (*q != ' ')
		return 0;
	/* Skip perms, offset, dev, inode: the path is the sixth field. */
	s = q;
	for (fields = 1; fields < 5; fields++) {
		while (*s == ' ')
			s++;
		while (*s != ' ' && *s != '\n' && *s != '\0')
			s++;
	}
	while (*s == ' ')
		s++;
	*path = s;
	return 1;
}

int
main(int argc, char **argv)
{
	const char *p, *path, *nl;
	long rss, pss, priv, anon;
	long size[MAXPAT] = { 0 }, prss[MAXPAT] = { 0 }, ppriv[MAXPAT] = { 0 };
	unsigned long start, end, last_end[MAXPAT] = { 0 };
	int npat = argc - 1 < MAXPAT ? argc - 1 : MAXPAT;

	p = slurp("/proc/self/smaps_rollup");
	rss = field(p, "Rss");
	pss = field(p, "Pss");
	priv = field(p, "Private_Clean") + field(p, "Private_Dirty");
	anon = field(p, "Anonymous");

	p = slurp("/proc/self/smaps");
	for (; *p != '\0'; p = nl + 1) {
		nl = strchr(p, '\n');
		if (nl == NULL)
			break;
		if (!is_header(p, &start, &end, &path))
			continue;
		for (int i = 0; i < npat; i++) {
			size_t plen = (size_t)(nl - path);
			int named = plen > 0 &&
			    memmem(path, plen, argv[i + 1],
			    strlen(argv[i + 1])) != NULL;
			int bss = plen == 0 && start == last_end[i];

			if (!named && !bss)
				continue;
			size[i] += (long)((end - start) / 1024);
			prss[i] += field(nl + 1, "Rss");
			ppriv[i] += field(nl + 1, "Private_Clean") +
			    field(nl + 1, "Private_Dirty");
			last_end[i] = named ? end : 0;
		}
	}
	printf("%ld %ld %ld %ld", rss, pss, priv, anon);
	for (int i = 0; i < npat; i++)
		printf(" %ld %ld %ld", size[i], prss[i], ppriv[i]);
	printf("\n");
	return 0;
}
