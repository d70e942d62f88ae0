/* The JSON writers' rank and number: null where there is none. */
#include <math.h>

#include "writer.h"

void
json_rank(cJSON *o, const char *key, int rank)
{
	if (rank >= 0)
		cJSON_AddNumberToObject(o, key, rank);
	else
		cJSON_AddNullToObject(o, key);
}

void
json_num(cJSON *o, const char *key, double v)
{
	if (isfinite(v))
		cJSON_AddNumberToObject(o, key, v);
	else
		cJSON_AddNullToObject(o, key);
}
