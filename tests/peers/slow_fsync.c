/* slow_fsync.so — an LD_PRELOAD shim for the tests: every fsync takes
 * SLOW_FSYNC_SECONDS (default 30), so a test can kill a filter while it
 * writes a file and look at what it left behind. */
#include <stdlib.h>
#include <unistd.h>

int fsync(int fd)
{
	const char *s = getenv("SLOW_FSYNC_SECONDS");

	(void)fd;
	sleep(s ? (unsigned)atoi(s) : 30);
	return 0;
}
