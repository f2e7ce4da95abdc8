// SPDX-License-Identifier: MIT
/*
 * The decode cache: clauses decoded once per (address space, GPU VA), as
 * in the published G71 simulator. A chained hash table: lookups, on
 * every clause executed, take no lock (chains are only ever prepended
 * to, with release stores); inserts and flushes take the mutex. Decoding
 * happens outside the lock, so workers racing on a new clause each
 * decode it and the first insert wins. The table does not grow (chains
 * just lengthen), so readers never see it moved; flushes free entries
 * and must not race with running warps (see interp.h).
 *
 * Generations: shader memory may be rewritten between jobs. A back end
 * starts a generation per job (bi_cache_new_generation); an entry first
 * used in a new generation is checked against memory (one fetch and a
 * compare, no decode) and replaced if the code changed. Replaced entries
 * stay allocated while other workers may still hold them: until a flush,
 * or until no job holds the cache (bi_cache_job_begin/end). Without that,
 * a device that ran code rewritten at the same address (every new
 * process's shaders in AS 0, say) grew by an entry each time, for ever.
 */
#include "shader/interp.h"

struct entry {
	struct entry *next;
	uint64_t as;
	uint64_t va;
	uint32_t gen;     /* generation it was last checked in */
	bool stale;       /* replaced by a newer decode */
	struct bi_clause clause;
	uint32_t words[4 * 16]; /* the clause's quadwords as decoded */
};

struct bi_cache {
	struct os_mutex *lock;
	struct entry **slots;
	unsigned nslots, count;
	unsigned jobs, stale; /* jobs holding it; replaced entries */
	uint32_t gen;
};

static unsigned hash(uint64_t as, uint64_t va, unsigned n)
{
	uint64_t h = (va >> 4) ^ as * 0x9e3779b97f4a7c15ull;

	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ull;
	return (unsigned)(h >> 32) & (n - 1);
}

struct bi_cache *bi_cache_new(void)
{
	struct bi_cache *c = os_zalloc(sizeof(*c));

	if (!c)
		return NULL;
	c->nslots = 4096;
	c->slots = os_zalloc(c->nslots * sizeof(*c->slots));
	c->lock = os_mutex_new();
	if (!c->slots || !c->lock) {
		bi_cache_free(c);
		return NULL;
	}
	return c;
}

enum drop { DROP_ALL, DROP_AS, DROP_STALE };

static void drop_where(struct bi_cache *c, uint64_t as, enum drop what)
{
	for (unsigned i = 0; i < c->nslots; i++) {
		struct entry **pp = &c->slots[i];

		while (*pp) {
			struct entry *e = *pp;

			if (what == DROP_ALL || (what == DROP_AS && e->as == as) ||
			    (what == DROP_STALE && e->stale)) {
				*pp = e->next;
				c->stale -= e->stale;
				os_free(e);
				c->count--;
			} else {
				pp = &e->next;
			}
		}
	}
}

void bi_cache_free(struct bi_cache *c)
{
	if (!c)
		return;
	if (c->slots)
		drop_where(c, 0, DROP_ALL);
	os_free(c->slots);
	if (c->lock)
		os_mutex_free(c->lock);
	os_free(c);
}

void bi_cache_flush(struct bi_cache *c, uint64_t as)
{
	os_mutex_lock(c->lock);
	drop_where(c, as, DROP_AS);
	os_mutex_unlock(c->lock);
}

void bi_cache_new_generation(struct bi_cache *c)
{
	__atomic_fetch_add(&c->gen, 1, __ATOMIC_RELEASE);
}

void bi_cache_job_begin(struct bi_cache *c)
{
	os_mutex_lock(c->lock);
	c->jobs++;
	os_mutex_unlock(c->lock);
	bi_cache_new_generation(c);
}

/* The last job out frees the replaced entries: no warp can hold one now,
 * and a job that begins later looks only at live ones. */
void bi_cache_job_end(struct bi_cache *c)
{
	os_mutex_lock(c->lock);
	if (!--c->jobs && c->stale)
		drop_where(c, 0, DROP_STALE);
	os_mutex_unlock(c->lock);
}

unsigned bi_cache_entries(struct bi_cache *c)
{
	unsigned n;

	os_mutex_lock(c->lock);
	n = c->count;
	os_mutex_unlock(c->lock);
	return n;
}

static struct entry *find(struct bi_cache *c, uint64_t as, uint64_t va)
{
	struct entry *e = __atomic_load_n(&c->slots[hash(as, va, c->nslots)],
					  __ATOMIC_ACQUIRE);

	for (; e; e = e->next)
		if (e->as == as && e->va == va &&
		    !__atomic_load_n(&e->stale, __ATOMIC_ACQUIRE))
			return e;
	return NULL;
}

/* Fetches quadwords until the clause decodes (clause length is only
 * known from its own tags), so nothing past its end is touched. */
static int fetch_decode(const struct bi_env *env, uint64_t va,
			struct bi_clause *cl, uint32_t *w)
{
	if (va & 15)
		return BI_FAULT_INSTR_INVALID_PC;
	for (unsigned n = 1; n <= 16; n++) {
		int err = (env->mem->fetch ? env->mem->fetch : env->mem->read)(
			env->as, va + 16 * (n - 1), w + 4 * (n - 1), 16);

		if (err)
			return err;
		err = bi_decode_clause(w, n, 0, env->arch, cl);
		if (err == BI_DEC_OK)
			return 0;
		if (err != BI_DEC_TRUNCATED)
			return BI_FAULT_INSTR_INVALID_ENC;
	}
	return BI_FAULT_INSTR_INVALID_ENC;
}

const struct bi_clause *bi_cache_get(struct bi_cache *c,
				     const struct bi_env *env, uint64_t va,
				     int *fault)
{
	uint32_t gen = __atomic_load_n(&c->gen, __ATOMIC_ACQUIRE);
	struct entry *e, *ne, *old = NULL;

	e = find(c, env->as_id, va);
	if (e && __atomic_load_n(&e->gen, __ATOMIC_RELAXED) == gen)
		return &e->clause;
	if (e) {
		/* first use in this generation: is the code still there? */
		uint32_t w[4 * 16];
		unsigned n = e->clause.nquads;

		*fault = (env->mem->fetch ? env->mem->fetch : env->mem->read)(
			env->as, va, w, 16 * n);
		if (*fault)
			return NULL;
		if (!os_memcmp(w, e->words, 16 * n)) {
			__atomic_store_n(&e->gen, gen, __ATOMIC_RELAXED);
			return &e->clause;
		}
		old = e;
	}

	ne = os_alloc(sizeof(*ne));
	if (!ne) {
		*fault = BI_FAULT_INSTR_INVALID_PC;
		return NULL;
	}
	*fault = fetch_decode(env, va, &ne->clause, ne->words);
	if (*fault) {
		os_free(ne);
		return NULL;
	}
	ne->as = env->as_id;
	ne->va = va;
	ne->gen = gen;
	ne->stale = false;
	os_mutex_lock(c->lock);
	e = find(c, env->as_id, va);
	if (e && e != old) {
		os_free(ne);
	} else {
		if (old) {
			__atomic_store_n(&old->stale, true, __ATOMIC_RELEASE);
			c->stale++;
		}
		unsigned h = hash(env->as_id, va, c->nslots);

		ne->next = c->slots[h];
		/* publish the complete entry to lock-free readers */
		__atomic_store_n(&c->slots[h], ne, __ATOMIC_RELEASE);
		e = ne;
		c->count++;
	}
	os_mutex_unlock(c->lock);
	return &e->clause;
}
