/* hash: SHA-256 of bytes and files, and Harbor's task checksum.
 *
 * The task checksum is the Dirhash Standard (sha256, names + data, hidden
 * files included, links followed, directories without files skipped) that
 * Harbor stores as result.json task_checksum; see docs/DESIGN.md §2.2.
 */
#ifndef PC_HASH_H
#define PC_HASH_H

#include <stddef.h>

#include "err.h"

#define SHA256_HEX_LEN 64

/* hex receives 64 lowercase hex digits and a NUL. */
void sha256_hex(const void *data, size_t len, char hex[SHA256_HEX_LEN + 1]);

/* For a digest taken once per document of a stream: OpenSSL's SHA-256
 * fetched and set up once, and set back to its start for each text
 * (sha256_hex fetches and sets it up each time, a third of a short text's
 * cost).  The caller owns it. */
struct sha256_hasher {
	void *ctx; /* EVP_MD_CTX, or NULL when it could not be set up */
};
void sha256_hasher_init(struct sha256_hasher *h);
void sha256_hasher_free(struct sha256_hasher *h);
void sha256_hasher_hex(struct sha256_hasher *h, const void *data, size_t len,
		       char hex[SHA256_HEX_LEN + 1]);
int sha256_file_hex(const char *path, char hex[SHA256_HEX_LEN + 1],
		    long long *size, struct pc_err *e);

/* Dirhash of the directory dir; an empty tree is an error. */
int harbor_task_checksum(const char *dir, char hex[SHA256_HEX_LEN + 1],
			 struct pc_err *e);

#endif
