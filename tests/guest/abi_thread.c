// SPDX-License-Identifier: MIT
/*
 * Threads on real host threads: contended mutexes, a condition variable
 * hand-off, thread-local storage and join, with a result that only comes
 * out right when all of it works.
 */
#include <pthread.h>
#include <stdio.h>

#define THREADS 4
#define ROUNDS 20000

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static long counter;
static int ready;
static __thread long mine;

static void *worker(void *arg)
{
	long id = (long)arg;

	pthread_mutex_lock(&lock);
	while (!ready)
		pthread_cond_wait(&cond, &lock);
	pthread_mutex_unlock(&lock);
	for (int i = 0; i < ROUNDS; i++) {
		pthread_mutex_lock(&lock);
		counter++;
		pthread_mutex_unlock(&lock);
		mine += id;
	}
	return (void *)mine;
}

int main(void)
{
	pthread_t t[THREADS];
	long sum = 0;

	for (long i = 0; i < THREADS; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)(i + 1)))
			return 1;
	pthread_mutex_lock(&lock);
	ready = 1;
	pthread_cond_broadcast(&cond);
	pthread_mutex_unlock(&lock);
	for (int i = 0; i < THREADS; i++) {
		void *r;
		pthread_join(t[i], &r);
		sum += (long)r;
	}
	printf("counter=%ld (want %d) tls-sum=%ld (want %d) main-tls=%ld\n",
	       counter, THREADS * ROUNDS, sum, ROUNDS * (1 + 2 + 3 + 4), mine);
	return counter == THREADS * ROUNDS ? 0 : 1;
}
