/*
 * The findings of the advice (advice/advice.h) as the report gives them,
 * beside the summary (summary/) they were made from: a section of the
 * text after the summary's (findings_text.c), the "findings" list beside
 * the "summaries" in JSON (findings_json.c), the first section of the
 * page (findings_html.c).  The advice decides; these only print.
 */
#ifndef MSPROF_REPORT_FINDINGS_H
#define MSPROF_REPORT_FINDINGS_H

#include <stdio.h>

#include <cjson/cJSON.h>

struct summary;
struct findings;
struct finding;
struct finding_setting;
struct setting;

/* The findings' section of the text (FLAGS as summary_print's). */
void	 findings_print(const struct summary *, const struct findings *,
	    FILE *, unsigned flags);
/* The findings as a JSON list, also when empty or not made. */
cJSON	*findings_json(const struct summary *, const struct findings *);
/* The findings' section of the page. */
void	 findings_html(const struct summary *, const struct findings *,
	    FILE *);

/*
 * The page of --html (report.c): one self-contained XHTML page of the
 * summary S, its findings FS first; -1 on a write error.
 */
int	 report_data_page(const struct summary *, const struct findings *,
	    FILE *);

/*
 * What the text and the page both say of a finding (findings.c): its
 * ranks as people read them ("ranks 0-7", "rank 3"), a setting's label
 * ("TASK_QUEUE_ENABLE=2") and the launch's state of it ("already on",
 * "not set (1 by default)"); each a string to free.
 */
char	*finding_ranks(const struct summary *, const struct finding *);
char	*setting_label(const struct setting *);
char	*state_text(const struct finding_setting *);

#endif
