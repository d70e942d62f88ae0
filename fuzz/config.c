/*
 * Fuzz target "config": the configuration files the injector copies.
 *
 * Input: one selector byte, then the file.  The selector's low three bits
 * choose the plan (fuzz_plan); the next two the engine the file is given
 * to, through launch_rewrite as a dry run (no session: nothing written):
 *	0  MindSpeed-MM Megatron: pretrain_vlm.py --mm-tool tools.json
 *	1  MindSpeed-MM YAML entry: pretrain_transformers.py cfg.yaml; the
 *	   input is "YAML\0tools.json" (a NUL separates the two files)
 *	2  MindSpeed-MM FSDP2: mindspeed_mm/fsdp/train/trainer.py cfg.yaml
 *	3  MindSpeed-LLM FSDP2: train_fsdp2.py cfg.yaml
 * Then, for a YAML file, launcher/yamldoc.c directly: load, look up, set
 * keys (plain, string, list, nested mapping), write a copy, and load the
 * copy again: it must load, and hold the values set.  For a JSON file,
 * launcher/jsonfile.c: read, merge a profile section, write, read back.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "common/jsonfile.h"
#include "engines/rewrite.h"
#include "common/yamldoc.h"

static char *envp[] = { (char *)"PATH=/usr/bin:/bin",
    (char *)"MM_TOOL=tools.json", NULL };

static void
dry_rewrite(const struct plan *p, const char *script, char *const argv[])
{
	struct launch l;
	struct rewrite rw;
	char *why = NULL;

	launch_classify(fuzz_table(), NULL, "/usr/bin/torchrun", argv, &l);
	FUZZ_CHECK(l.engine != ENGINE_NONE && strcmp(argv[l.script], script) == 0,
	    script);
	if (launch_rewrite(p, &l, argv, envp, NULL, &rw, &why) == 0) {
		FUZZ_CHECK(rw.argv.n > 0 && rw.argv.v[rw.argv.n] == NULL,
		    "argv");
		FUZZ_CHECK(why == NULL, "a reason on success");
	} else
		FUZZ_CHECK(why != NULL && *why != '\0', "failed without a reason");
	free(why);
	rewrite_free(&rw);
}

/* The values set on a YAML document, and what a reload must find. */
static const char *const strings[] = { "yes", "1.5", "a: b", "#x", "", "~",
    "- item", "'quoted\"", "tab\there", "\xe4\xb8\xad", "line\nbreak", NULL };

static void
yaml_api(void)
{
	struct ydoc y, back;
	char *why = NULL, *where;
	const char *items[] = { "0", "-1", "x y" };
	int root, tools, prof, sub;
	size_t i;

	if (ydoc_load(&y, "cfg.yaml", &why) == -1) {
		FUZZ_CHECK(why != NULL, "load failed without a reason");
		free(why);
		ydoc_free(&y);
		return;
	}
	where = ydoc_where(&y, ydoc_root(&y));
	free(where);
	if ((root = ydoc_root(&y)) == 0) {
		ydoc_free(&y);
		return;
	}
	tools = ydoc_get(&y, root, "tools");
	(void)ydoc_scalar(&y, tools);
	(void)ydoc_is_map(&y, tools);
	prof = ydoc_get(&y, tools, "profile");
	(void)ydoc_scalar(&y, ydoc_get(&y, prof, "enable"));
	for (i = 0; strings[i] != NULL; i++) {
		char key[16];

		snprintf(key, sizeof(key), "fuzz_s%zu", i);
		FUZZ_CHECK(ydoc_set_str(&y, root, key, strings[i]) != 0, key);
	}
	FUZZ_CHECK(ydoc_set(&y, root, "fuzz_n", "42") != 0, "set");
	FUZZ_CHECK(ydoc_set_list(&y, root, "fuzz_l", items, 3) != 0, "list");
	if ((sub = ydoc_map(&y, root, "fuzz_m")) != 0)
		FUZZ_CHECK(ydoc_set(&y, sub, "deep", "1") != 0, "nested");
	/* An existing key replaced: the first one, of whatever kind. */
	if ((sub = ydoc_map(&y, root, "tools")) != 0 &&
	    (sub = ydoc_map(&y, sub, "profile")) != 0)
		ydoc_set(&y, sub, "enable", "true");
	if (ydoc_write(&y, "copy.yaml", &why) == -1) {
		free(why);
		ydoc_free(&y);
		return;
	}
	ydoc_free(&y);
	if (ydoc_load(&back, "copy.yaml", &why) == -1)
		fuzz_fail("the copy written does not load", why);
	root = ydoc_root(&back);
	FUZZ_CHECK(root != 0, "the copy lost its root mapping");
	for (i = 0; strings[i] != NULL; i++) {
		char key[16];
		const char *v;

		snprintf(key, sizeof(key), "fuzz_s%zu", i);
		v = ydoc_scalar(&back, ydoc_get(&back, root, key));
		FUZZ_CHECK(v != NULL && strcmp(v, strings[i]) == 0, key);
	}
	FUZZ_CHECK(ydoc_scalar(&back, ydoc_get(&back, root, "fuzz_n")) != NULL,
	    "fuzz_n");
	ydoc_free(&back);
}

static void
json_api(void)
{
	cJSON *j, *src, *back;
	char *why = NULL;

	if ((j = json_read("tools.json", &why)) == NULL) {
		FUZZ_CHECK(why != NULL, "read failed without a reason");
		free(why);
		return;
	}
	src = cJSON_Parse("{\"profile\":{\"enable\":true,\"static_param\":"
	    "{\"level\":\"level1\",\"start_step\":10}},\"x\":[1,2]}");
	if (cJSON_IsObject(j)) {
		json_merge(j, src);
		FUZZ_CHECK(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(
		    cJSON_GetObjectItemCaseSensitive(j, "profile"), "enable")) ||
		    !cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(j,
		    "profile")), "merge lost profile.enable");
	}
	if (json_write(j, "tools.copy.json", &why) == 0) {
		back = json_read("tools.copy.json", &why);
		if (back == NULL)
			fuzz_fail("the copy written does not read", why);
		cJSON_Delete(back);
	} else
		free(why);
	cJSON_Delete(src);
	cJSON_Delete(j);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
#define A (char *)
	static char *const megatron[] = { A"torchrun", A"--nproc_per_node",
	    A"8", A"pretrain_vlm.py", A"--mm-tool", A"tools.json",
	    A"--train-iters", A"50", NULL };
	static char *const mmyaml[] = { A"torchrun",
	    A"pretrain_transformers.py", A"cfg.yaml", NULL };
	static char *const mmfsdp2[] = { A"torchrun",
	    A"mindspeed_mm/fsdp/train/trainer.py", A"cfg.yaml",
	    A"training.train_iters=7", A"tools.profile.enable=false", NULL };
	static char *const llmfsdp2[] = { A"torchrun", A"train_fsdp2.py",
	    A"cfg.yaml", A"--training.max_steps", A"20", NULL };
#undef A
	struct plan p;
	const uint8_t *nul;
	unsigned sel;

	if (size < 1)
		return 0;
	sel = data[0];
	data++, size--;
	fuzz_table();
	fuzz_enter();
	fuzz_plan(&p, sel & 7);
	switch ((sel >> 3) & 3) {
	case 0:
		fuzz_file("tools.json", data, size);
		dry_rewrite(&p, "pretrain_vlm.py", megatron);
		json_api();
		break;
	case 1:
		nul = memchr(data, '\0', size);
		fuzz_file("cfg.yaml", data, nul != NULL ?
		    (size_t)(nul - data) : size);
		if (nul != NULL)
			fuzz_file("tools.json", nul + 1,
			    size - (size_t)(nul - data) - 1);
		else
			fuzz_file("tools.json", "{}", 2);
		dry_rewrite(&p, "pretrain_transformers.py", mmyaml);
		yaml_api();
		json_api();
		break;
	case 2:
		fuzz_file("cfg.yaml", data, size);
		dry_rewrite(&p, "mindspeed_mm/fsdp/train/trainer.py", mmfsdp2);
		yaml_api();
		break;
	default:
		fuzz_file("cfg.yaml", data, size);
		dry_rewrite(&p, "train_fsdp2.py", llmfsdp2);
		yaml_api();
		break;
	}
	plan_free(&p);
	fuzz_leave();
	return 0;
}
