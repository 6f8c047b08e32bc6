/* relock takes a lock it already holds: a deadlock in futex, with no
   timeout, for the stuck detector to find under a debugger. */
#include <pthread.h>
#include <stdio.h>

int main(void) {
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	puts("locking");
	fflush(stdout);
	pthread_mutex_lock(&m);
	pthread_mutex_lock(&m);
	return 0;
}
