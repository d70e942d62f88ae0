/* Work on several threads (see parallel.h). */
#include <pthread.h>

#include "parallel.h"

#define MAX_THREADS	64

struct job {
	void	(*fn)(void *, size_t);
	void	 *arg;
	size_t	  n, next;	/* the next I to take (atomic) */
};

static void *
work(void *p)
{
	struct job *j = p;
	size_t i;

	while ((i = __atomic_fetch_add(&j->next, 1, __ATOMIC_RELAXED)) < j->n)
		j->fn(j->arg, i);
	return NULL;
}

void
parallel_for(size_t n, size_t threads, void (*fn)(void *, size_t), void *arg)
{
	struct job j = { fn, arg, n, 0 };
	pthread_t tid[MAX_THREADS];
	size_t started = 0;

	if (threads > MAX_THREADS)
		threads = MAX_THREADS;
	if (threads > n)
		threads = n;
	/* THREADS in all: the calling thread is one of them */
	for (size_t k = 1; k < threads; k++)
		started += pthread_create(&tid[started], NULL, work, &j) == 0;
	work(&j);
	for (size_t k = 0; k < started; k++)
		pthread_join(tid[k], NULL);
}
