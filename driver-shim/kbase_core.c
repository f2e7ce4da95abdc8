// SPDX-License-Identifier: MIT
/*
 * /dev/mali0: opening, the VERSION_CHECK -> SET_FLAGS handshake, the
 * ioctl dispatcher, the small queries, and event delivery via read() and
 * poll(). Dispatch matches the full request code, as kbase does: a known
 * number with the wrong size or direction is an unknown ioctl.
 */
#include "driver-shim/kbase_priv.h"

/* What GET_DDK_VERSION reports: the shape of a kbase release string. */
static const char kb_ddk_version[] = "K:r46p0-vgpu(GPL)";

int kb_file_open(struct shim_file *f)
{
	struct kb_file *kb = os_zalloc(sizeof(*kb));

	if (!kb)
		return -SHIM_ENOMEM;
	kb->file = f;
	kb->state = SHIM_KB_NEED_VSN;
	shim_list_init(&kb->regions);
	shim_list_init(&kb->events);
	shim_list_init(&kb->coalesced);
	shim_list_init(&kb->extres);
	shim_list_init(&kb->jm_readers);
	for (int i = 0; i < KB_JD_ATOM_COUNT; i++) {
		kb->atoms[i].nr = (uint8_t)i;
		kb->atoms[i].kb = kb;
		kb->atoms[i].event_code = KB_EVENT_DONE;
	}
	f->kb = kb;
	return 0;
}

void kb_file_release(struct shim_file *f)
{
	struct kb_file *kb = kb_of(f);

	if (!kb)
		return;
	/* Jobs first: the hardware must stop using the address space before
	 * its memory goes. */
	kb_jd_release(kb);
	kb_kinstr_jm_release(kb);
	kb_mem_release_all(kb); /* and the sticky resources with the regions */
	if (f->ctx)
		shim_ctx_destroy(f->ctx);
	f->ctx = NULL;
	if (kb->exec_init)
		ralloc_fini(&kb->exec_va);
	if (kb->jit_init)
		ralloc_fini(&kb->jit_va);
	os_free(kb->profile);
	os_free(kb);
	f->kb = NULL;
}

static long kb_handshake(struct kb_file *kb, struct kb_version_check *v)
{
	if (v->major == KB_UK_MAJOR) {
		if (v->minor > KB_UK_MINOR)
			v->minor = KB_UK_MINOR;
	} else {
		/* Report ours and let user space decide to give up. */
		v->major = KB_UK_MAJOR;
		v->minor = KB_UK_MINOR;
	}
	if (kb->state != SHIM_KB_NEED_VSN)
		return -SHIM_EPERM;
	kb->api_major = v->major;
	kb->api_minor = v->minor;
	kb->state = SHIM_KB_NEED_CTX;
	return 0;
}

static long kb_set_flags(struct shim_file *f, const struct kb_set_flags *a)
{
	struct kb_file *kb = kb_of(f);
	uint64_t off;

	if (kb->state != SHIM_KB_NEED_CTX)
		return -SHIM_EPERM;
	if (a->create_flags & ~KB_CTX_CREATE_USER_FLAGS)
		return -SHIM_EINVAL;
	f->ctx = shim_ctx_create(f->dev, true);
	if (!f->ctx)
		return -SHIM_ENOMEM;
	if (shim_ctx_phys_alloc(f->ctx, SHIM_PAGE_SIZE, &off)) {
		shim_ctx_destroy(f->ctx);
		f->ctx = NULL;
		return -SHIM_ENOMEM;
	}
	kb->tracking_off = off;
	f->ctx->grow = kb_grow;
	f->ctx->grow_owner = kb;
	kb->create_flags = a->create_flags;
	kb->state = SHIM_KB_COMPLETE;
	return 0;
}

static long kb_ddk_version_ioctl(struct shim_caller *c,
				 const struct kb_get_ddk_version *a)
{
	long len = sizeof(kb_ddk_version);

	if (!a->version_buffer)
		return len;
	if (a->size < len)
		return -SHIM_EOVERFLOW;
	if (shim_copy_out(c, a->version_buffer, kb_ddk_version, len))
		return -SHIM_EFAULT;
	return len;
}

static long kb_timeinfo(struct shim_dev *dev, union kb_cpu_gpu_timeinfo *t)
{
	uint32_t flags = t->in.request_flags;
	const uint32_t known = KB_TIMEINFO_MONOTONIC | KB_TIMEINFO_TIMESTAMP |
			       KB_TIMEINFO_CYCLE_COUNTER |
			       KB_TIMEINFO_KERNEL_SOURCE | KB_TIMEINFO_USER_SOURCE;
	uint64_t now;

	if (flags & ~known)
		return -SHIM_EINVAL;
	/* Exactly one source must be named. */
	if (!(flags & KB_TIMEINFO_KERNEL_SOURCE) ==
	    !(flags & KB_TIMEINFO_USER_SOURCE))
		return -SHIM_EINVAL;
	os_memset(t, 0, sizeof(*t));
	now = os_time_ns();
	if (flags & KB_TIMEINFO_MONOTONIC) {
		t->out.sec = now / 1000000000ull;
		t->out.nsec = (uint32_t)(now % 1000000000ull);
	}
	if (flags & KB_TIMEINFO_TIMESTAMP)
		t->out.timestamp = shim_perfcnt_timestamp(dev);
	if (flags & KB_TIMEINFO_CYCLE_COUNTER)
		t->out.cycle_counter = shim_perfcnt_cycles(dev);
	return 0;
}

static long kb_profile_add(struct kb_file *kb, struct shim_caller *c,
			   const struct kb_mem_profile_add *a)
{
	char *buf;

	/* The kernel keeps at most 64 KiB of profile text per context. */
	if (a->len > 65536 || !a->len)
		return -SHIM_EINVAL;
	buf = os_alloc(a->len + 1);
	if (!buf)
		return -SHIM_ENOMEM;
	if (shim_copy_in(c, buf, a->buffer, a->len)) {
		os_free(buf);
		return -SHIM_ENOMEM;
	}
	buf[a->len] = 0;
	os_free(kb->profile);
	kb->profile = buf;
	kb->profile_len = a->len;
	return 0;
}

long kb_ioctl(struct shim_file *f, struct shim_caller *c, unsigned cmd,
	      void *arg, struct shim_acct *acct)
{
	struct kb_file *kb = kb_of(f);
	struct shim_dev *dev = f->dev;

	switch (cmd) {
	case KB_IOCTL_VERSION_CHECK:
	case KB_IOCTL_VERSION_CHECK_RESERVED:
		return kb_handshake(kb, arg);
	case KB_IOCTL_SET_FLAGS:
		return kb_set_flags(f, arg);
	/* Counters are the device's, not a context's: kbase answers these
	 * before the handshake too. */
	case KB_IOCTL_KINSTR_PRFCNT_ENUM_INFO:
		return kb_prfcnt_enum_info(f, c, arg);
	case KB_IOCTL_KINSTR_PRFCNT_SETUP:
		return kb_prfcnt_setup(f, c, arg);
	}
	/* Everything else needs a finished handshake. */
	if (kb->state != SHIM_KB_COMPLETE)
		return -SHIM_EPERM;

	switch (cmd) {
	case KB_IOCTL_JOB_SUBMIT:
		return kb_job_submit(f, c, arg, acct);
	case KB_IOCTL_GET_GPUPROPS:
		return kb_get_gpuprops(f, c, arg);
	case KB_IOCTL_POST_TERM:
		kb->terminated = true;
		shim_wake_all(dev);
		return 0;
	case KB_IOCTL_MEM_ALLOC:
	case KB_IOCTL_MEM_QUERY:
	case KB_IOCTL_MEM_FREE:
	case KB_IOCTL_MEM_JIT_INIT:
	case KB_IOCTL_MEM_SYNC:
	case KB_IOCTL_MEM_FIND_CPU_OFFSET:
	case KB_IOCTL_MEM_COMMIT:
	case KB_IOCTL_MEM_ALIAS:
	case KB_IOCTL_MEM_IMPORT:
	case KB_IOCTL_MEM_FLAGS_CHANGE:
	case KB_IOCTL_MEM_FIND_GPU_START_AND_OFFSET:
	case KB_IOCTL_MEM_EXEC_INIT:
		return kb_mem_ioctl(f, c, cmd, arg, acct);
	case KB_IOCTL_STICKY_RESOURCE_MAP:
	case KB_IOCTL_STICKY_RESOURCE_UNMAP:
		return kb_sticky_resource(kb, c, cmd == KB_IOCTL_STICKY_RESOURCE_MAP, arg);
	case KB_IOCTL_DISJOINT_QUERY:
		((struct kb_disjoint_query *)arg)->counter = dev->disjoint;
		return 0;
	case KB_IOCTL_GET_DDK_VERSION:
		return kb_ddk_version_ioctl(c, arg);
	case KB_IOCTL_GET_CONTEXT_ID:
		((struct kb_get_context_id *)arg)->id = (uint32_t)f->ctx->id;
		return 0;
	case KB_IOCTL_TLSTREAM_ACQUIRE:
		/*
		 * kbase always builds the timeline, but gives it only to a
		 * caller with CAP_PERFMON (or with its module parameter
		 * kbase_unprivileged_global_profiling set), before looking at
		 * the flags. An application gets EPERM and runs without a
		 * timeline; that is the device modelled here (no timeline
		 * packets to produce).
		 */
		return -SHIM_EPERM;
	case KB_IOCTL_KINSTR_JM_FD:
		return kb_kinstr_jm_fd(f, c, arg);
	case KB_IOCTL_TLSTREAM_FLUSH:
		return 0;
	case KB_IOCTL_MEM_PROFILE_ADD:
		return kb_profile_add(kb, c, arg);
	case KB_IOCTL_SOFT_EVENT_UPDATE:
		return kb_soft_event_update(f, arg);
	case KB_IOCTL_STREAM_CREATE:
		return kb_stream_create(f, c, arg);
	case KB_IOCTL_FENCE_VALIDATE:
		return kb_fence_validate(c, arg);
	case KB_IOCTL_GET_CPU_GPU_TIMEINFO:
		return kb_timeinfo(dev, arg);
	case KB_IOCTL_CONTEXT_PRIORITY_CHECK: {
		struct kb_context_priority_check *p = arg;

		/* Every priority up to REALTIME is allowed to this
		 * (privileged) client; anything else becomes MEDIUM. */
		if (p->priority > 3)
			p->priority = 0;
		return 0;
	}
	case KB_IOCTL_SET_LIMITED_CORE_COUNT: {
		uint8_t n = ((struct kb_set_limited_core_count *)arg)->max_core_count;
		uint64_t mask = n >= 64 ? ~0ull : (1ull << n) - 1;

		if (!(mask & dev->regs.shader_present))
			return -SHIM_EINVAL;
		kb->limited_cores = n;
		return 0;
	}
	}
	return -SHIM_ENOTTY;
}

long kb_read(struct shim_file *f, struct shim_caller *c, void *buf,
	     size_t len, bool nonblock)
{
	struct kb_file *kb = kb_of(f);
	size_t done = 0;

	if (len < sizeof(struct kb_event))
		return -SHIM_ENOBUFS;
	if (kb->state != SHIM_KB_COMPLETE)
		return -SHIM_EPERM;
	for (;;) {
		while (!shim_list_empty(&kb->events) &&
		       len - done >= sizeof(struct kb_event)) {
			struct kb_event_node *n = shim_container_of(
				kb->events.next, struct kb_event_node, link);

			os_memcpy((uint8_t *)buf + done, &n->ev, sizeof(n->ev));
			done += sizeof(n->ev);
			/* The atom number is free for reuse once its event
			 * has been read. */
			if (kb->atoms[n->ev.atom_number].state == KB_ATOM_COMPLETED)
				kb->atoms[n->ev.atom_number].state = KB_ATOM_UNUSED;
			shim_list_del(&n->link);
			kb->nr_events--;
			os_free(n);
		}
		if (done)
			break;
		if (kb->terminated) {
			struct kb_event ev = { .event_code = KB_EVENT_DRV_TERMINATED };

			os_memcpy(buf, &ev, sizeof(ev));
			done = sizeof(ev);
			break;
		}
		if (nonblock)
			return -SHIM_EAGAIN;
		if (shim_wait(f->dev, c, 0) == -SHIM_EINTR)
			return -SHIM_EINTR;
	}
	/* Slots freed by this read may unblock a submitter. */
	os_cond_broadcast(f->dev->wake);
	return (long)done;
}

unsigned kb_poll(struct shim_file *f)
{
	struct kb_file *kb = kb_of(f);

	if (kb && kb->state == SHIM_KB_COMPLETE &&
	    (!shim_list_empty(&kb->events) || kb->terminated))
		return SHIM_POLLIN | SHIM_POLLRDNORM;
	return 0;
}
