#include "hash.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <openssl/evp.h>

static void to_hex(const unsigned char *md, char hex[SHA256_HEX_LEN + 1])
{
	static const char digits[] = "0123456789abcdef";

	for (int i = 0; i < 32; i++) {
		hex[2 * i] = digits[md[i] >> 4];
		hex[2 * i + 1] = digits[md[i] & 15];
	}
	hex[SHA256_HEX_LEN] = '\0';
}

void sha256_hasher_init(struct sha256_hasher *h)
{
	h->ctx = EVP_MD_CTX_new();
	if (h->ctx && !EVP_DigestInit_ex2(h->ctx, EVP_sha256(), NULL)) {
		EVP_MD_CTX_free(h->ctx);
		h->ctx = NULL;
	}
}

void sha256_hasher_free(struct sha256_hasher *h)
{
	EVP_MD_CTX_free(h->ctx);
	*h = (struct sha256_hasher){ 0 };
}

void sha256_hasher_hex(struct sha256_hasher *h, const void *data, size_t len,
		       char hex[SHA256_HEX_LEN + 1])
{
	unsigned char md[32];
	unsigned int n = 0;

	/* a NULL type starts the digest already set again */
	if (!h->ctx || !EVP_DigestInit_ex2(h->ctx, NULL, NULL) ||
	    !EVP_DigestUpdate(h->ctx, data, len) || !EVP_DigestFinal_ex(h->ctx, md, &n)) {
		sha256_hex(data, len, hex);
		return;
	}
	to_hex(md, hex);
}

void sha256_hex(const void *data, size_t len, char hex[SHA256_HEX_LEN + 1])
{
	unsigned char md[32];
	unsigned int n = 0;

	EVP_Digest(data, len, md, &n, EVP_sha256(), NULL);
	to_hex(md, hex);
}

int sha256_file_hex(const char *path, char hex[SHA256_HEX_LEN + 1],
		    long long *size, struct pc_err *e)
{
	unsigned char buf[65536], md[32];
	unsigned int n = 0;
	long long total = 0;
	size_t got;
	FILE *f = fopen(path, "rb");
	EVP_MD_CTX *ctx;

	if (!f)
		return pc_fail_errno(e, "%s: cannot open", path);
	ctx = EVP_MD_CTX_new();
	EVP_DigestInit_ex(ctx, EVP_sha256(), NULL);
	while ((got = fread(buf, 1, sizeof buf, f)) > 0) {
		EVP_DigestUpdate(ctx, buf, got);
		total += (long long)got;
	}
	int failed = ferror(f);
	fclose(f);
	EVP_DigestFinal_ex(ctx, md, &n);
	EVP_MD_CTX_free(ctx);
	if (failed)
		return pc_fail(e, "%s: read error", path);
	to_hex(md, hex);
	if (size)
		*size = total;
	return 0;
}

/* One "data:<hash>\0name:<base>" or "dirhash:<hash>\0name:<base>" string. */
struct entry {
	char *bytes;
	size_t len;
};

static int entry_cmp(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->bytes, y->bytes, n);

	return c ? c : (x->len > y->len) - (x->len < y->len);
}

static struct entry make_entry(const char *kind, const char *hex,
			       const char *name)
{
	struct entry en;
	size_t k = strlen(kind), nm = strlen(name);

	en.len = k + SHA256_HEX_LEN + 1 + 5 + nm;
	en.bytes = pc_xmalloc(en.len);
	memcpy(en.bytes, kind, k);
	memcpy(en.bytes + k, hex, SHA256_HEX_LEN);
	en.bytes[k + SHA256_HEX_LEN] = '\0';
	memcpy(en.bytes + k + SHA256_HEX_LEN + 1, "name:", 5);
	memcpy(en.bytes + k + SHA256_HEX_LEN + 6, name, nm);
	return en;
}

static void free_entries(struct entry *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].bytes);
	free(v);
}

/* Hash dir into hex; *empty is set when no file lies below it. */
static int hash_dir(const char *dir, char hex[SHA256_HEX_LEN + 1], int *empty,
		    int depth, struct pc_err *e)
{
	struct entry *entries = NULL;
	size_t n = 0, cap = 0;
	struct dirent *d;
	DIR *dp;
	int rc = 0;

	if (depth > 64)
		return pc_fail(e, "%s: directory nesting too deep (a link cycle?)", dir);
	dp = opendir(dir);
	if (!dp)
		return pc_fail_errno(e, "%s: cannot open directory", dir);
	while (rc == 0 && (errno = 0, d = readdir(dp))) {
		if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
			continue;
		size_t plen = strlen(dir) + strlen(d->d_name) + 2;
		char *path = pc_xmalloc(plen);
		char child[SHA256_HEX_LEN + 1];
		struct stat st;
		const char *kind = NULL;

		snprintf(path, plen, "%s/%s", dir, d->d_name);
		if (stat(path, &st) != 0) {
			rc = pc_fail_errno(e, "%s: cannot stat", path);
		} else if (S_ISDIR(st.st_mode)) {
			int child_empty;
			rc = hash_dir(path, child, &child_empty, depth + 1, e);
			if (rc == 0 && !child_empty)
				kind = "dirhash:";
		} else if (S_ISREG(st.st_mode)) {
			rc = sha256_file_hex(path, child, NULL, e);
			kind = "data:";
		}
		if (rc == 0 && kind) {
			if (n == cap) {
				cap = cap * 2 + 16;
				entries = pc_xrealloc(entries, cap * sizeof *entries);
			}
			entries[n++] = make_entry(kind, child, d->d_name);
		}
		free(path);
	}
	if (rc == 0 && errno != 0)
		rc = pc_fail_errno(e, "%s: cannot read directory", dir);
	closedir(dp);
	if (rc == 0) {
		*empty = n == 0;
		if (n > 1)
			qsort(entries, n, sizeof *entries, entry_cmp);
		size_t total = 0;
		for (size_t i = 0; i < n; i++)
			total += entries[i].len + (i ? 2 : 0);
		char *joined = pc_xmalloc(total), *p = joined;
		for (size_t i = 0; i < n; i++) {
			if (i) {
				*p++ = '\0';
				*p++ = '\0';
			}
			memcpy(p, entries[i].bytes, entries[i].len);
			p += entries[i].len;
		}
		sha256_hex(joined, total, hex);
		free(joined);
	}
	free_entries(entries, n);
	return rc;
}

int harbor_task_checksum(const char *dir, char hex[SHA256_HEX_LEN + 1],
			 struct pc_err *e)
{
	int empty;

	if (hash_dir(dir, hex, &empty, 0, e) != 0)
		return -1;
	if (empty)
		return pc_fail(e, "%s: task directory holds no file", dir);
	return 0;
}
