/*
 * A rank's metadata (rankinfo.c): what its profiler_info and
 * profiler_metadata.json say, read into its rank_data before the
 * summaries read its data.
 */
#ifndef MSPROF_SUMMARY_RANKINFO_H
#define MSPROF_SUMMARY_RANKINFO_H

struct rank_data;
struct rank_files;

/*
 * Read RD's profiler_info_{rank}.json (level, export type) and
 * profiler_metadata.json (parallel sizes, environment), or the db
 * export's META_DATA through RF when there is no profiler_metadata.json;
 * a file there that cannot be read is named as left out.
 */
void	rankinfo_read(struct rank_data *rd, struct rank_files *rf);

#endif
