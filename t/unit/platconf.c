/* common/platconf.c: CANN's platform_config ini, read for a chip's peak. */
#include <sys/stat.h>
#include <sys/utsname.h>

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/platconf.h"
#include "common/util.h"
#include "tap.h"

static const char ini[] =
    "[version]\n"
    "SoC_version=Ascend910B3\n"
    "\n"
    "[SoCInfo]\n"
    "# the default is the most the chip has\n"
    "ai_core_cnt = 20\r\n"
    "vector_core_cnt=40\n"
    "[AICoreSpec]\n"
    "; the cube's clock\n"
    "cube_freq=1800\n"
    "cube_m_size=16\n"
    "[VectorCoreSpec]\n"
    "cube_freq=1\n";

/* Does TEXT match the extended regular expression RE? */
static int
matches(const char *text, const char *re)
{
	regex_t r;
	int m;

	if (text == NULL || regcomp(&r, re, REG_EXTENDED | REG_NOSUB) != 0)
		return 0;
	m = regexec(&r, text, 0, NULL, 0) == 0;
	regfree(&r);
	return m;
}

#define like(text, re, name) do {					\
	ok(matches((text), (re)), name);				\
	if (!matches((text), (re)))					\
		printf("#   got: '%s'\n", (text) ? (text) : "(null)");	\
} while (0)

/* Write TEXT to DIR/NAME, making DIR. */
static void
put(const char *dir, const char *name, const char *text)
{
	char *p = xasprintf("%s/%s", dir, name);
	FILE *f;

	mkdirs(dir, 0755);
	if ((f = fopen(p, "w")) != NULL) {
		fputs(text, f);
		fclose(f);
	}
	free(p);
}

int
main(void)
{
	char tmp[] = "/tmp/platconf.XXXXXX", *v, *why = NULL, *dir, *want;
	struct platconf p;
	struct utsname u;

	is_str(v = ini_value(ini, "SoCInfo", "ai_core_cnt"), "20",
	    "a key of a section, blanks and CR trimmed");
	free(v);
	is_str(v = ini_value(ini, "AICoreSpec", "cube_freq"), "1800",
	    "the key of its own section, not another's of the same name");
	free(v);
	ok(ini_value(ini, "SoCInfo", "ai_core") == NULL,
	    "a key's prefix is not the key");
	ok(ini_value(ini, "version", "ai_core_cnt") == NULL,
	    "a key of another section is not found");
	ok(ini_value("ai_core_cnt=20\n", "SoCInfo", "ai_core_cnt") == NULL,
	    "a key before any section is in none");
	is_str(v = platconf_name("910B3"), "Ascend910B3.ini",
	    "npu-smi's chip name, the file's");
	free(v);
	is_str(v = platconf_name("Ascend910B3"), "Ascend910B3.ini",
	    "a name with Ascend already");
	free(v);

	unsetenv("ASCEND_HOME_PATH");
	unsetenv("ASCEND_TOOLKIT_HOME");
	is_int(platconf_read("910B3", &p, &why), -1, "no toolkit: -1");
	like(why, "neither ASCEND_HOME_PATH nor ASCEND_TOOLKIT_HOME",
	    "no toolkit: and why");
	free(why);

	if (mkdtemp(tmp) == NULL || uname(&u) == -1) {
		printf("Bail out! mkdtemp or uname\n");
		return 1;
	}
	setenv("ASCEND_TOOLKIT_HOME", tmp, 1);
	is_int(platconf_read("910B3", &p, &why), -1, "no ini: -1");
	like(why, "no Ascend910B3\\.ini for the chip 910B3 \\(looked in "
	    ".*/compiler/data/platform_config\\)", "no ini: where it looked");
	free(why);

	dir = xasprintf("%s/compiler/data/platform_config", tmp);
	put(dir, "Ascend910B3.ini", ini);
	is_int(platconf_read("910B3", &p, &why), 0,
	    "the newer layout: compiler/data/platform_config");
	is_int(p.cores, 20, "the AI cores");
	is_int(p.mhz, 1800, "the cube's clock, MHz");
	want = xasprintf("%s/Ascend910B3.ini", dir);
	is_str(p.path, want, "the file read");
	free(want);
	platconf_free(&p);
	free(dir);

	/* ASCEND_HOME_PATH first; the architecture's directory first */
	setenv("ASCEND_TOOLKIT_HOME", "/nonexistent", 1);
	setenv("ASCEND_HOME_PATH", tmp, 1);
	dir = xasprintf("%s/%s-linux/data/platform_config", tmp, u.machine);
	put(dir, "Ascend910B3.ini", "[SoCInfo]\nai_core_cnt=24\n"
	    "[AICoreSpec]\ncube_freq=1650\n");
	is_int(platconf_read("Ascend910B3", &p, &why), 0,
	    "ASCEND_HOME_PATH's <arch>-linux/data/platform_config");
	ok(p.cores == 24 && p.mhz == 1650, "its figures, before compiler's");
	platconf_free(&p);

	put(dir, "Ascend910B3.ini", "[SoCInfo]\nai_core_cnt=24\n"
	    "[AICoreSpec]\ncube_freq=fast\n");
	is_int(platconf_read("910B3", &p, &why), -1,
	    "a clock that is not a number: -1");
	like(why, "Ascend910B3\\.ini: no cube_freq .* in \\[AICoreSpec\\]",
	    "and the file and the key named");
	free(why);
	put(dir, "Ascend910B3.ini", "[SoCInfo]\nai_core_cnt=0\n");
	is_int(platconf_read("910B3", &p, &why), -1, "no AI cores: -1");
	like(why, "no ai_core_cnt .* in \\[SoCInfo\\]", "and the key named");
	free(why);
	free(dir);
	v = xasprintf("rm -rf '%s'", tmp);
	if (system(v) != 0)
		printf("# could not remove %s\n", tmp);
	free(v);
	return done_testing();
}
