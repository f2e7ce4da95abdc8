// SPDX-License-Identifier: MIT
/*
 * kbase hardware counters for user space: KINSTR_PRFCNT_ENUM_INFO (what
 * can be counted), KINSTR_PRFCNT_SETUP (a reader, a file object: shim.h)
 * and the reader's own ioctls (CMD START/STOP/SAMPLE_SYNC/DISCARD,
 * GET_SAMPLE, PUT_SAMPLE), poll (a sample is waiting) and mmap (the
 * sample buffers, read-only), with kbase's argument checks and errnos.
 *
 * The values come from the GPU's counters through its registers, as
 * kbase's JM backend gets them: the reader owns a driver-private GPU
 * context (kbase dumps through a kernel context too) whose address space
 * is pinned while the reader runs; PRFCNT_BASE points at a dump area in
 * it; a sample is PRFCNT_SAMPLE + CLEAN_CACHES (shim_perfcnt_sample),
 * after which the 32-bit block counters, cleared by each sample, are
 * copied as 64-bit deltas into the next sample buffer, counters the
 * client did not enable reading zero. Blocks: the job manager (FE), the
 * tiler, one MEMORY block per L2 slice, one SHADER_CORE block per present
 * core, 64 values each (4 header values first), one clock domain.
 *
 * PERIODIC readers are sampled by a driver thread (kbase's dump worker)
 * every period (at least 100 us); a sample that finds no free buffer is
 * folded into the next one, which carries SAMPLE_FLAG_OVERFLOW.
 *
 * Limits: one reader may run at a time on the device (another START is
 * EBUSY, as is one while panfrost's counters are on); SAMPLE_ASYNC is
 * EINVAL as in kbase's reader.
 */
#include "driver-shim/kbase_priv.h"

#define PRF_BUFFERS 32          /* kbase's MAX_BUFFER_COUNT */
#define PRF_VALUES 64           /* per block */
#define PRF_MAX_REQUESTS 32
#define PRF_DUMP_VA (1ull << 32) /* in the reader's own address space */
#define PRF_ENUM_ITEMS (2 + 1 + KB_PRFCNT_BLOCK_TYPES + 1)
#define PRF_PERIOD_MIN_NS 100000ull
#define PRF_FLAG_OVERFLOW 1u
#define PRF_FLAG_ERROR (1u << 30)

struct kb_prfcnt {
	struct shim_ctx *ctx;       /* dump target and sample memory */
	uint64_t dump_off, dump_size, buf_off, buf_size;
	uint64_t enable[KB_PRFCNT_BLOCK_TYPES]; /* values asked for, bit i */
	unsigned nl2, ncores, nblocks, nmeta;
	size_t sample_size;
	uint32_t write_idx, read_idx, fetch_idx;
	bool active;
	uint64_t period_ns, next_dump; /* PERIODIC mode, else 0 */
	uint64_t user_data, ts_start, cycles_start;
	uint32_t flags;             /* of the sample being gathered */
};

_Static_assert(sizeof(struct kb_prfcnt_enum_item) == 32, "prfcnt_enum_item");
_Static_assert(sizeof(struct kb_prfcnt_request_item) == 32, "prfcnt_request_item");
_Static_assert(sizeof(struct kb_prfcnt_metadata) == 48, "prfcnt_metadata");

static unsigned core_count(const struct shim_gpu_regs *r)
{
	return os_fls64(r->shader_present);
}

long kb_prfcnt_enum_info(struct shim_file *f, struct shim_caller *c,
			 struct kb_kinstr_prfcnt_enum_info *e)
{
	const struct shim_gpu_regs *r = &f->dev->regs;
	struct kb_prfcnt_enum_item it[PRF_ENUM_ITEMS];
	const uint16_t inst[KB_PRFCNT_BLOCK_TYPES] = {
		1, 1, (uint16_t)os_popcount64(r->l2_present),
		(uint16_t)os_popcount64(r->shader_present),
	};
	unsigned n = 0;

	if (!e->info_list_ptr) {
		e->info_item_size = sizeof(it[0]);
		e->info_item_count = PRF_ENUM_ITEMS;
		return 0;
	}
	if (!e->info_item_size || e->info_item_count != PRF_ENUM_ITEMS)
		return -SHIM_EINVAL;
	os_memset(it, 0, sizeof(it));
	for (uint16_t req = 0; req < 2; req++, n++) { /* MODE, ENABLE */
		it[n].hdr.item_type = KB_PRFCNT_ENUM_REQUEST;
		it[n].u.request.request_item_type = req;
		it[n].u.request.versions_mask = 1;
	}
	it[n].hdr.item_type = KB_PRFCNT_ENUM_SAMPLE_INFO;
	it[n++].u.sample_info.num_clock_domains = 1;
	for (uint8_t b = 0; b < KB_PRFCNT_BLOCK_TYPES; b++, n++) {
		it[n].hdr.item_type = KB_PRFCNT_ENUM_BLOCK;
		it[n].u.block.block_type = b;
		it[n].u.block.num_instances = inst[b];
		it[n].u.block.num_values = PRF_VALUES;
		it[n].u.block.counter_mask[0] = it[n].u.block.counter_mask[1] = ~0ull;
	}
	/* ...and the all-zero terminator. */
	return shim_copy_out(c, e->info_list_ptr, it, sizeof(it)) ? -SHIM_EFAULT : 0;
}

/* kbase_kinstr_prfcnt parse_setup: one mode, the primary set, one scope. */
static long parse(struct kb_prfcnt *p, const struct kb_prfcnt_request_item *req,
		  uint32_t n)
{
	int mode = -1, scope = KB_PRFCNT_SCOPE_RESERVED;
	bool set = false;

	if (req[n - 1].hdr.item_type != KB_PRFCNT_ITEM_NONE || req[n - 1].hdr.item_version)
		return -SHIM_EINVAL;
	for (uint32_t i = 0; i + 1 < n; i++) {
		const struct kb_prfcnt_request_item *q = &req[i];

		if (q->hdr.item_version > KB_PRFCNT_API_VERSION)
			return -SHIM_EINVAL;
		switch (q->hdr.item_type) {
		case KB_PRFCNT_REQUEST_MODE:
			if (q->u.mode.mode > KB_PRFCNT_MODE_PERIODIC ||
			    (mode >= 0 && mode != q->u.mode.mode))
				return -SHIM_EINVAL;
			mode = q->u.mode.mode;
			if (mode == KB_PRFCNT_MODE_PERIODIC) {
				if (!q->u.mode.period_ns)
					return -SHIM_EINVAL;
				p->period_ns = OS_MAX(q->u.mode.period_ns, PRF_PERIOD_MIN_NS);
			}
			break;
		case KB_PRFCNT_REQUEST_ENABLE:
			/* Only the primary set is built in. */
			if (q->u.enable.set != 0 || q->u.enable.block_type >= KB_PRFCNT_BLOCK_TYPES)
				return -SHIM_EINVAL;
			set = true;
			p->enable[q->u.enable.block_type] |= q->u.enable.enable_mask[0];
			break;
		case KB_PRFCNT_REQUEST_SCOPE:
			if (scope != KB_PRFCNT_SCOPE_RESERVED && scope != q->u.scope.scope)
				return -SHIM_EINVAL;
			scope = q->u.scope.scope;
			break;
		default:
			return -SHIM_EINVAL;
		}
	}
	if (mode < 0 || !set)
		return -SHIM_EINVAL;
	return 0;
}

static uint8_t *sample_at(struct kb_prfcnt *p, uint32_t idx)
{
	return p->ctx->backing.host + p->buf_off + (idx % PRF_BUFFERS) * p->sample_size;
}

/* Block @i of a dump: its type and its index among blocks of that type. */
static uint8_t block_type(const struct kb_prfcnt *p, unsigned i, uint8_t *idx)
{
	if (i < 2) {
		*idx = 0;
		return i ? KB_PRFCNT_BLOCK_TILER : KB_PRFCNT_BLOCK_FE;
	}
	if (i < 2 + p->nl2) {
		*idx = (uint8_t)(i - 2);
		return KB_PRFCNT_BLOCK_MEMORY;
	}
	*idx = (uint8_t)(i - 2 - p->nl2);
	return KB_PRFCNT_BLOCK_SHADER;
}

/*
 * Samples the hardware into buffer write_idx: [metadata items: sample,
 * clock, one per enabled block, terminator][values: 64 per block][clock].
 */
static void take_sample(struct shim_dev *dev, struct kb_prfcnt *p, uint64_t user_data,
			struct shim_acct *a)
{
	uint8_t *s = sample_at(p, p->write_idx);
	struct kb_prfcnt_metadata *md = (struct kb_prfcnt_metadata *)s;
	uint64_t *values = (uint64_t *)(s + p->nmeta * sizeof(*md));
	const uint32_t *dump = (const uint32_t *)(p->ctx->backing.host + p->dump_off);
	uint64_t now, cycles;
	uint8_t bidx;

	if (shim_perfcnt_sample(dev, a))
		p->flags |= PRF_FLAG_ERROR;
	/* Sample times are the CPU's nanoseconds, as kbase's raw clock. */
	now = os_time_ns();
	cycles = shim_perfcnt_cycles(dev);
	os_memset(s, 0, p->sample_size);
	md->hdr.item_type = KB_PRFCNT_META_SAMPLE;
	md->u.sample.timestamp_start = p->ts_start;
	md->u.sample.timestamp_end = now;
	md->u.sample.seq = p->write_idx;
	md->u.sample.user_data = user_data;
	md->u.sample.flags = p->flags;
	md++;
	md->hdr.item_type = KB_PRFCNT_META_CLOCK;
	md->u.clock.num_domains = 1;
	md->u.clock.cycles[0] = cycles - p->cycles_start;
	md++;
	for (unsigned i = 0; i < p->nblocks; i++) {
		uint8_t t = block_type(p, i, &bidx);
		uint64_t *v = values + i * PRF_VALUES;

		/* kbase lists present shader cores only. */
		if (t == KB_PRFCNT_BLOCK_SHADER && !((dev->regs.shader_present >> bidx) & 1))
			continue;
		if (!p->enable[t])
			continue;
		for (unsigned k = 0; k < PRF_VALUES; k++)
			v[k] = (p->enable[t] >> k) & 1 ? dump[i * PRF_VALUES + k] : 0;
		md->hdr.item_type = KB_PRFCNT_META_BLOCK;
		md->u.block.block_type = t;
		md->u.block.block_idx = bidx;
		md->u.block.block_state = 0; /* BLOCK_STATE_UNKNOWN, as kbase */
		md->u.block.values_offset = (uint32_t)((uint8_t *)v - sample_at(p, 0));
		md++;
	}
	/* md now is the terminator (zeroed); the clock value follows the blocks. */
	values[p->nblocks * PRF_VALUES] = cycles - p->cycles_start;
	p->ts_start = now;
	p->cycles_start = cycles;
	p->flags = 0;
	p->write_idx++;
}

/* kbase's dump worker: samples the running PERIODIC reader on time. */
static void sampler(void *arg)
{
	struct shim_dev *dev = arg;

	os_mutex_lock(dev->lock);
	while (!dev->prfcnt_stop) {
		struct kb_prfcnt *p = dev->prfcnt_reader;
		uint64_t now = os_time_ns(), wait = 100000000;

		if (p && p->period_ns) {
			if (now >= p->next_dump) {
				/* No free buffer: the counters go on adding up. */
				if (p->write_idx - p->read_idx >= PRF_BUFFERS - 1)
					p->flags |= PRF_FLAG_OVERFLOW;
				else
					take_sample(dev, p, p->user_data, NULL);
				p->next_dump = OS_MAX(p->next_dump + p->period_ns, now + 1);
				shim_wake_all(dev);
			}
			wait = p->next_dump > now ? p->next_dump - now : 0;
		}
		if (wait)
			os_cond_wait(dev->wake, dev->lock, wait);
	}
	os_mutex_unlock(dev->lock);
}

void kb_prfcnt_fini(struct shim_dev *dev)
{
	os_mutex_lock(dev->lock);
	dev->prfcnt_stop = true;
	os_cond_broadcast(dev->wake);
	os_mutex_unlock(dev->lock);
	if (dev->prfcnt_thread)
		os_thread_join(dev->prfcnt_thread);
	dev->prfcnt_thread = NULL;
}

static long cmd_start(struct shim_dev *dev, struct kb_prfcnt *p, uint64_t user_data,
		      struct shim_acct *a)
{
	struct shim_list *pos, *tmp;
	long ret;

	if (p->active)
		return 0;
	if (p->write_idx - p->read_idx >= PRF_BUFFERS)
		return -SHIM_EBUSY;
	if (dev->prfcnt_reader)
		return -SHIM_EBUSY;
	/* The counter unit is panfrost's while it has it on. */
	shim_list_for_each_safe(pos, tmp, &dev->ctxs)
		if (shim_container_of(pos, struct shim_ctx, link)->as_pinned)
			return -SHIM_EBUSY;
	if (p->period_ns && !dev->prfcnt_thread) {
		dev->prfcnt_thread = os_thread_start(sampler, dev, "vgpu-prfcnt");
		if (!dev->prfcnt_thread)
			return -SHIM_ENOMEM;
	}
	ret = shim_perfcnt_enable(dev, p->ctx, PRF_DUMP_VA, a);
	if (ret)
		return ret;
	dev->prfcnt_reader = p;
	p->active = true;
	p->user_data = user_data;
	p->flags = 0;
	p->ts_start = os_time_ns();
	p->cycles_start = shim_perfcnt_cycles(dev);
	p->next_dump = os_time_ns() + p->period_ns;
	os_cond_broadcast(dev->wake); /* the sampler's new deadline */
	return 0;
}

static void stop(struct shim_dev *dev, struct kb_prfcnt *p, struct shim_acct *a)
{
	shim_perfcnt_disable(dev, p->ctx, a);
	p->active = false;
	dev->prfcnt_reader = NULL;
}

static long reader_cmd(struct shim_dev *dev, struct kb_prfcnt *p,
		       const struct kb_prfcnt_control_cmd *cmd)
{
	struct shim_acct a = { 0 };

	switch (cmd->cmd) {
	case KB_PRFCNT_CMD_START:
		return cmd_start(dev, p, cmd->user_data, &a);
	case KB_PRFCNT_CMD_STOP:
		if (!p->active)
			return -SHIM_EINVAL;
		/* The stop sample always has a buffer (START kept one). */
		take_sample(dev, p, cmd->user_data, &a);
		stop(dev, p, &a);
		p->user_data = cmd->user_data;
		return 0;
	case KB_PRFCNT_CMD_SAMPLE_SYNC:
		if (!p->active || p->period_ns)
			return -SHIM_EINVAL;
		/* One buffer stays free for the sample STOP takes. */
		if (p->write_idx - p->read_idx >= PRF_BUFFERS - 1)
			return -SHIM_EBUSY;
		take_sample(dev, p, cmd->user_data, &a);
		return 0;
	case KB_PRFCNT_CMD_DISCARD:
		/* A fetched sample stays until it is put back. */
		if (p->fetch_idx == p->read_idx)
			p->read_idx = p->write_idx;
		p->fetch_idx = p->write_idx;
		return 0;
	}
	return -SHIM_EINVAL;
}

static long reader_ioctl(struct shim_fobj *o, struct shim_caller *c, unsigned cmd,
			 void *arg)
{
	struct kb_prfcnt *p = o->priv;
	struct kb_prfcnt_sample_access *sa = arg;
	long ret;

	(void)c;
	switch (SHIM_IOC_NR(cmd)) {
	case SHIM_IOC_NR(KB_IOCTL_PRFCNT_CMD):
		ret = reader_cmd(o->dev, p, arg);
		break;
	case SHIM_IOC_NR(KB_IOCTL_PRFCNT_GET_SAMPLE):
		os_memset(sa, 0, sizeof(*sa));
		if (p->write_idx == p->read_idx)
			return -SHIM_EINVAL;
		if (p->read_idx != p->fetch_idx)
			return -SHIM_EBUSY;
		sa->sequence = p->read_idx;
		sa->sample_offset_bytes = (p->read_idx % PRF_BUFFERS) * p->sample_size;
		p->fetch_idx++;
		return 0;
	case SHIM_IOC_NR(KB_IOCTL_PRFCNT_PUT_SAMPLE):
		if (p->write_idx == p->read_idx || sa->sequence != p->read_idx ||
		    sa->sample_offset_bytes != (p->read_idx % PRF_BUFFERS) * p->sample_size)
			return -SHIM_EINVAL;
		p->read_idx = p->fetch_idx;
		return 0;
	default:
		return -SHIM_EINVAL;
	}
	/* A new sample makes the reader readable. */
	shim_wake_all(o->dev);
	return ret;
}

static unsigned reader_poll(struct shim_fobj *o)
{
	struct kb_prfcnt *p = o->priv;

	return p->write_idx != p->fetch_idx ? SHIM_POLLIN | SHIM_POLLRDNORM : 0;
}

static int reader_mmap(struct shim_fobj *o, uint64_t pgoff, uint64_t length,
		       uint32_t prot, struct shim_mmap_info *out)
{
	struct kb_prfcnt *p = o->priv;

	(void)prot;
	out->flags = SHIM_MMAP_READONLY;
	return shim_fobj_map_range(p->ctx, p->buf_off, p->buf_size, pgoff, length, out);
}

static void reader_free(struct shim_dev *dev, struct kb_prfcnt *p)
{
	if (p->active)
		stop(dev, p, NULL);
	if (p->ctx)
		shim_ctx_destroy(p->ctx);
	os_free(p);
}

static void reader_release(struct shim_fobj *o)
{
	reader_free(o->dev, o->priv);
}

static const struct shim_fobj_ops reader_ops = {
	.kind = SHIM_FOBJ_PRFCNT,
	.level = true,
	.release = reader_release,
	.ioctl = reader_ioctl,
	.poll = reader_poll,
	.mmap_prepare = reader_mmap,
};

/* The reader's context: the dump area mapped for the GPU, the sample
 * buffers beside it for the client's read-only mapping. */
static long reader_memory(struct shim_dev *dev, struct kb_prfcnt *p)
{
	p->ctx = shim_ctx_create(dev, true);
	if (!p->ctx)
		return -SHIM_ENOMEM;
	p->dump_size = OS_ALIGN_UP((uint64_t)p->nblocks * PRF_VALUES * 4, SHIM_PAGE_SIZE);
	p->buf_size = OS_ALIGN_UP((uint64_t)p->sample_size * PRF_BUFFERS, SHIM_PAGE_SIZE);
	if (shim_ctx_phys_alloc(p->ctx, p->dump_size, &p->dump_off) ||
	    shim_ctx_phys_alloc(p->ctx, p->buf_size, &p->buf_off))
		return -SHIM_ENOMEM;
	return shim_ctx_map(p->ctx, PRF_DUMP_VA, p->dump_off, p->dump_size / SHIM_PAGE_SIZE,
			    SHIM_PROT_READ | SHIM_PROT_WRITE, NULL);
}

long kb_prfcnt_setup(struct shim_file *f, struct shim_caller *c,
		     union kb_kinstr_prfcnt_setup *s)
{
	struct kb_prfcnt_request_item req[PRF_MAX_REQUESTS];
	uint32_t n = s->in.request_item_count;
	struct kb_prfcnt *p;
	unsigned enabled = 0;
	long ret;
	int fd;

	if (!s->in.requests_ptr || n < 2 || !s->in.request_item_size ||
	    n > 2 * PRF_ENUM_ITEMS || n > PRF_MAX_REQUESTS)
		return -SHIM_EINVAL;
	if (shim_copy_in(c, req, s->in.requests_ptr, n * sizeof(req[0])))
		return -SHIM_EFAULT;
	p = os_zalloc(sizeof(*p));
	if (!p)
		return -SHIM_ENOMEM;
	ret = parse(p, req, n);
	if (ret) {
		os_free(p);
		return ret;
	}
	p->nl2 = os_popcount64(f->dev->regs.l2_present);
	p->ncores = core_count(&f->dev->regs);
	p->nblocks = 2 + p->nl2 + p->ncores;
	for (unsigned i = 0; i < p->nblocks; i++) {
		uint8_t idx, t = block_type(p, i, &idx);

		enabled += p->enable[t] && (t != KB_PRFCNT_BLOCK_SHADER ||
					    ((f->dev->regs.shader_present >> idx) & 1));
	}
	/* sample, clock, blocks, terminator; values of every block; clock */
	p->nmeta = 2 + enabled + 1;
	p->sample_size = p->nmeta * sizeof(struct kb_prfcnt_metadata) +
			 (p->nblocks * PRF_VALUES + 1) * sizeof(uint64_t);
	ret = reader_memory(f->dev, p);
	if (ret) {
		reader_free(f->dev, p);
		return ret;
	}
	{
		struct shim_fobj *o = shim_fobj_new(f->dev, &reader_ops, p);

		if (!o) {
			reader_free(f->dev, p);
			return -SHIM_ENOMEM;
		}
		fd = shim_fobj_install(c, o, true); /* releases it on failure */
	}
	if (fd < 0)
		return fd;
	s->out.prfcnt_metadata_item_size = sizeof(struct kb_prfcnt_metadata);
	s->out.prfcnt_mmap_size_bytes = (uint32_t)(p->sample_size * PRF_BUFFERS);
	return fd;
}
