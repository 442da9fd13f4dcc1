/* A slower disk for measurements: every fsync/fdatasync of the process (and its children)
 * first sleeps SLOW_FSYNC_US microseconds (default 1000), as on a cloud volume or a busy CI
 * machine, where a flush takes about a millisecond instead of this machine's 0.2 ms.
 *
 *   cc -shared -fPIC -O2 -o /tmp/slow-fsync.so scripts/slow-fsync.c -ldl
 *   SLOW_FSYNC_US=1000 LD_PRELOAD=/tmp/slow-fsync.so target/ci/examples/people_load \
 *       target/ci/chess960 --games 100 --plies 30
 *
 * docs/server.md ("Group commit") has what it showed. Licence GPL-3.0-or-later. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <unistd.h>

static void wait_a_while(void) {
    const char *s = getenv("SLOW_FSYNC_US");
    usleep(s ? (useconds_t)atoi(s) : 1000);
}

int fsync(int fd) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    wait_a_while();
    return real(fd);
}

int fdatasync(int fd) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    wait_a_while();
    return real(fd);
}
